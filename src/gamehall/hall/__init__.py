"""The game-agnostic runtime: users, rooms, seats, chat, clocks and room logs (no sockets)."""

from gamehall.hall.clock import FakeClock
from gamehall.hall.hall import Hall, Session, User
from gamehall.hall.room import Room

__all__ = ["FakeClock", "Hall", "Room", "Session", "User"]

"""Where the hall finds rooms.

Today one process holds every room (:class:`LocalDirectory`). The scale-out design gives each
room one owning process and a shared directory (Redis) that routes users to it; the hall
therefore reaches rooms only through this small interface and never assumes it sees them all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from gamehall.hall.room import Room


class RoomDirectory(Protocol):
    def add(self, room: Room) -> None: ...

    def remove(self, room_id: str) -> None: ...

    def get(self, room_id: str) -> Room | None: ...

    def rooms(self, game: str | None) -> list[Room]:
        """Rooms in creation order, of one game or all."""
        ...


class LocalDirectory:
    """Every room of this process, in creation order."""

    def __init__(self) -> None:
        self._rooms: dict[str, Room] = {}

    def add(self, room: Room) -> None:
        self._rooms[room.room_id] = room

    def remove(self, room_id: str) -> None:
        self._rooms.pop(room_id, None)

    def get(self, room_id: str) -> Room | None:
        return self._rooms.get(room_id)

    def rooms(self, game: str | None) -> list[Room]:
        return [r for r in self._rooms.values() if game is None or r.game_type.game_id == game]

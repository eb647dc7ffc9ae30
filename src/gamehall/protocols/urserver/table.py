"""The Ursuppe table as the UrServer reads it: the room's game port plus what only it needs.

The tournament log (:mod:`gamehall.protocols.urserver.tournament`) writes down the environment
deck a game starts with. That is a read: :class:`UrsuppePort` has no method that changes the
table, like :class:`~gamehall.protocols._core.GamePort` (and cg's
:class:`~gamehall.protocols.cg.table.DoppelkopfPort`).
"""

from __future__ import annotations

from typing import Protocol

from gamehall.protocols._core import GamePort, HallError, RoomPort
from gamehall.rules.ursuppe import UrsuppeTable


class UrsuppePort(GamePort, Protocol):
    """An Ursuppe room's game, read only."""

    def environment_deck(self) -> list[str]:
        """The environment cards' texts: the one showing, then the deck in drawing order."""
        ...


def ursuppe(room: RoomPort) -> UrsuppePort:
    """The game of an UrServer room, as the Ursuppe port.

    Raises:
        HallError: ``no_such_room`` when the room is not an Ursuppe table (the UrServer only
            ever plays in rooms of game ``ursuppe``; a room that is not one is not its).
    """
    game = room.game
    if not isinstance(game, UrsuppeTable):
        raise HallError("no_such_room", f"room {room.room_id} is not an Ursuppe table")
    return game


__all__ = ["UrsuppePort", "ursuppe"]

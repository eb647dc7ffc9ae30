"""The Doppelkopf table as cg reads it: the room's game port plus what only cg needs.

A cg client moves every card as an object between slots, so a returning seat needs every
card's place, not only its own hand (:func:`gamehall.rules.doppelkopf.views.card_places`), and
an adjourned game is saved whole (``to_json``). Both are reads: :class:`DoppelkopfPort` has no
method that changes the table, like :class:`~gamehall.protocols._core.GamePort`.
"""

from __future__ import annotations

from typing import Protocol

from gamehall.protocols._core import GamePort, HallError, RoomPort
from gamehall.rules._core import JSON, Seat
from gamehall.rules.doppelkopf import DoppelkopfTable
from gamehall.rules.doppelkopf.views import CardPlace


class DoppelkopfPort(GamePort, Protocol):
    """A Doppelkopf room's game, read only."""

    def card_places(self, seat: Seat | None) -> list[CardPlace]:
        """Where every card of the deal lies, as ``seat`` may know it."""
        ...

    def to_json(self) -> dict[str, JSON]:
        """The whole table, for a saved game (``game.save``)."""
        ...


def doppelkopf(room: RoomPort) -> DoppelkopfPort:
    """The game of a cg room, as the Doppelkopf port.

    Raises:
        HallError: ``no_such_room`` when the room is not a Doppelkopf table (cg only ever
            plays in rooms of game ``doppelkopf``; a room that is not one is not cg's).
    """
    game = room.game
    if not isinstance(game, DoppelkopfTable):
        raise HallError("no_such_room", f"room {room.room_id} is not a Doppelkopf table")
    return game


__all__ = ["DoppelkopfPort", "doppelkopf"]

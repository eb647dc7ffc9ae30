"""The Ursuppe table as the UrServer reads it: the room's game port plus what only it needs.

The tournament log (:mod:`gamehall.protocols.urserver.tournament`) writes down the environment
deck a game starts with. That is a read: :class:`UrsuppePort` has no method that changes the
table, like :class:`~gamehall.protocols._core.GamePort` (and cg's
:class:`~gamehall.protocols.cg.table.DoppelkopfPort`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn, Protocol

from gamehall.protocols._core import GamePort, HallError, HallPort, RoomInfo, RoomPort
from gamehall.rules._core import Seat
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


class ListedUrsuppe:
    """An Ursuppe room another node of the hall holds (docs/scale-out.md, "One hall"): what
    ``LISTE`` shows of it (started, finished, who sits where), read live from the hall's
    directory, last known once it is gone. The game itself is not here: everything else
    refuses (``no_such_room``), and the UrServer answers a join, a watch or a STATUS of such
    a game as for a game it cannot enter."""

    def __init__(self, hall: HallPort, info: RoomInfo) -> None:
        self._hall = hall
        self._last = info

    def _info(self) -> RoomInfo:
        info = self._hall.room_info(self._last.room_id)
        if info is not None:
            self._last = info
        return self._last

    @property
    def started(self) -> bool:
        return self._info().started

    @property
    def finished(self) -> bool:
        return self._info().finished

    def seat_names(self) -> Mapping[Seat, str]:
        return dict(self._info().seats)

    def _elsewhere(self, *_: Any) -> NoReturn:
        raise HallError("no_such_room", f"room {self._last.room_id} is played on another node")

    view = to_move = outcome = resync = environment_deck = _elsewhere


__all__ = ["ListedUrsuppe", "UrsuppePort", "ursuppe"]

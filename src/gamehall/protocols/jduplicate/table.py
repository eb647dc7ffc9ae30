"""The words table as JDuplicate reads it: the room's game port plus what only it needs.

A JDuplicate client is sent the game's rules, turn, letter set, running timers and board
(GAMEINFOS, LETTERSET, BOARDTYPE, BOARD). All of it is read: :class:`WordsPort` has no method
that changes the table, like :class:`~gamehall.protocols._core.GamePort` (and cg's
:class:`~gamehall.protocols.cg.table.DoppelkopfPort`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from gamehall.protocols._core import GamePort, HallError, RoomPort
from gamehall.rules._core import Timer
from gamehall.rules.words.board import Square
from gamehall.rules.words.letters import LetterSet
from gamehall.rules.words.settings import Rules
from gamehall.rules.words.words_table import WordsTable


class WordsPort(GamePort, Protocol):
    """A words room's game (duplicate, scrabble or boggle), read only."""

    @property
    def mode(self) -> str:
        """``duplicate``, ``scrabble`` or ``boggle``."""
        ...

    @property
    def rules(self) -> Rules:
        """The room's settings resolved against its preset (dictionary, mode, ...)."""
        ...

    @property
    def turn(self) -> int: ...

    @property
    def letters(self) -> LetterSet: ...

    def pending_timers(self) -> Sequence[Timer]:
        """The timers the table asked for (a turn's or its grace's), for the time left."""
        ...

    def board_glyphs(self) -> list[tuple[Square, str]]:
        """The tiles on the board as (square, glyph); none in boggle."""
        ...

    def grid_rows(self) -> tuple[str, ...]:
        """The boggle grid while a round runs, else none."""
        ...


def words(room: RoomPort) -> WordsPort:
    """The game of a JDuplicate room, as the words port.

    Raises:
        HallError: ``no_such_room`` when the room is not a words table (JDuplicate only ever
            plays in rooms of game ``words``; a room that is not one is not its).
    """
    game = room.game
    if not isinstance(game, WordsTable):
        raise HallError("no_such_room", f"room {room.room_id} is not a words table")
    return game


__all__ = ["WordsPort", "words"]

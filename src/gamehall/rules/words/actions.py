"""What a seat can do at a word-game table, named after the JDuplicate client messages (note §5).

The dialogue maps them one to one: ``MOVES`` -> :class:`Moves`, ``CHANGELETTERS`` ->
:class:`ChangeLetters`, ``STARTTURNREQUEST`` (the seed's "Manually Starting a Turn") ->
:class:`StartTurn`. Joining, leaving, starting the game and kicking go through the Game contract
and the hall.

Squares are ``(row, col)`` from 0: the protocol's ``x&y`` is ``(ord(y) - ord("A"), x - 1)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamehall.rules._core import Action, ActionCodec


@dataclass(frozen=True, slots=True)
class Moves(Action):
    """MOVES: tiles as ``(row, col, glyph)``.

    Duplicate and scrabble: the tiles placed, upper case, or lower case for a blank played as
    that letter; empty means "no move" (a pass in scrabble). Boggle: one word, its path through
    the grid in order, each glyph as the grid shows it (``Q`` for the ``QU`` cell).
    """

    tiles: tuple[tuple[int, int, str], ...]


@dataclass(frozen=True, slots=True)
class ChangeLetters(Action):
    """CHANGELETTERS: exchange these rack tiles (scrabble only; ``?`` or ``*`` is the blank)."""

    letters: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StartTurn(Action):
    """STARTTURNREQUEST: the operator opens the next boggle round after WAITINGFORSTARTTURN."""


ACTIONS = ActionCodec([Moves, ChangeLetters, StartTurn])

"""The move chooser every word-game bot shares (in-hall policies and wire bots).

``strength`` grades the player: ``1.0`` always plays the top (what :func:`best_move` finds);
lower values pick at random among the best few moves, the pool widening as strength falls, so a
weak bot still plays real words but scores visibly less than the master.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from gamehall.rules.words.board import Board
from gamehall.rules.words.letters import ENGLISH, LetterSet
from gamehall.rules.words.lexicon import Lexicon
from gamehall.rules.words.movegen import best_move, generate_moves
from gamehall.rules.words.moves import Move

WIDEST_POOL = 30
"""How many of the best moves a strength-0 player picks among."""


def pool_size(strength: float) -> int:
    """How many of the best moves a player of ``strength`` (clamped to 0..1) picks among."""
    strength = min(1.0, max(0.0, strength))
    return 1 + round((1.0 - strength) * (WIDEST_POOL - 1))


def choose_move(
    board: Board,
    rack: str | Iterable[str],
    lexicon: Lexicon,
    rng: random.Random,
    strength: float,
    letters: LetterSet = ENGLISH,
) -> Move | None:
    """A move for ``rack`` on ``board``: the top at full strength, else one of the best
    :func:`pool_size` moves drawn with ``rng``; ``None`` when the rack has no legal move."""
    size = pool_size(strength)
    if size == 1:
        return best_move(board, rack, lexicon, letters)
    moves = generate_moves(board, rack, lexicon, letters)
    if not moves:
        return None
    return rng.choice(moves[:size])


def move_tiles(move: Move) -> tuple[tuple[int, int, str], ...]:
    """The tiles a :class:`~gamehall.rules.words.actions.Moves` action sends for ``move``
    (lower case: a blank played as that letter)."""
    return tuple((row, col, tile.glyph) for (row, col), tile in move.placed())

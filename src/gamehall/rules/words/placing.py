"""From a MOVES action's tiles to the referee's placement, and the word an invalid move spells.

Shared by duplicate and scrabble (boggle reads its tiles as a path, see :mod:`.boggle`).
"""

from __future__ import annotations

from collections.abc import Sequence

from gamehall.rules._core import MalformedAction
from gamehall.rules.words.board import Board, Direction, Square, move_ref
from gamehall.rules.words.letters import BLANK, BLANK_ALIASES, Tile
from gamehall.rules.words.moves import Placement


def to_placement(tiles: Sequence[tuple[int, int, str]]) -> Placement:
    """The referee's placement for MOVES tiles ``(row, col, glyph)``.

    A lower-case glyph is a blank played as that letter; a bare ``?``/``*`` is a blank with no
    letter, which the referee refuses with ``bad_blank``.

    Raises:
        MalformedAction: a glyph is not one letter A-Z (code ``bad_format``, note 60000).
    """
    placement: list[tuple[Square, Tile]] = []
    for row, col, glyph in tiles:
        if glyph in BLANK_ALIASES:
            placement.append(((row, col), Tile(BLANK, blank=True)))
            continue
        if len(glyph) != 1 or not ("A" <= glyph.upper() <= "Z"):
            raise MalformedAction(f"{glyph!r} is not a letter.", code="bad_format", item=glyph)
        placement.append(((row, col), Tile(glyph.upper(), blank=glyph.islower())))
    return placement


def main_word(board: Board, placement: Placement) -> tuple[str, str]:
    """The reference and the main word (lower case for blanks) of a placement the referee found
    well placed, for the ENDOFTURN line of an ``invalid`` (non-word) submission."""
    placed = dict(placement)
    rows = {row for row, _ in placed}
    if len(placed) == 1:
        ((row, col),) = placed
        across = _filled(board, placed, row, col - 1) or _filled(board, placed, row, col + 1)
        down = _filled(board, placed, row - 1, col) or _filled(board, placed, row + 1, col)
        direction = Direction.ACROSS if across or not down else Direction.DOWN
    else:
        direction = Direction.ACROSS if len(rows) == 1 else Direction.DOWN
    drow, dcol = direction.step
    row, col = min(placed)
    while _filled(board, placed, row - drow, col - dcol):
        row, col = row - drow, col - dcol
    start = (row, col)
    letters = []
    while _filled(board, placed, row, col):
        tile = placed.get((row, col)) or board[row, col]
        assert tile is not None
        letters.append(tile.glyph)
        row, col = row + drow, col + dcol
    return move_ref(start[0], start[1], direction), "".join(letters)


def _filled(board: Board, placed: dict[Square, Tile], row: int, col: int) -> bool:
    if not board.layout.on_board(row, col):
        return False
    return (row, col) in placed or board[row, col] is not None

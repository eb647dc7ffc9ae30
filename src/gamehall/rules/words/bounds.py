"""Score upper bounds per anchor, so the top-move search can skip anchors that cannot win.

For an anchor, every move generated from it covers a span of its line: the anchor, then squares to
the left (board tiles, or empty squares that are not anchors) and to the right, with free squares
at both ends. The bound ignores spelling and keeps everything else exact:

- each empty square of the span needs some rack letter its cross-check allows (else the span is
  impossible), and at most as many empty squares as the rack has tiles;
- a tile of value ``v`` on an empty square ``p`` earns ``v * lm[p] * W`` in the main word (``W``
  the product of the span's new word multipliers) plus ``v * lm[p] * wm[p]`` in its cross-word,
  if it has one; the board tiles and the cross-words' old tiles add fixed amounts;
- the best possible pairing of rack values to squares is the sorted one (rearrangement
  inequality), plus the bingo bonus when the span takes seven tiles.

So the bound is never below the score of a real move from that anchor, and anchors whose bound is
below the best score found so far are skipped (wolges calls the same idea "shadow play").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import mul

from gamehall.rules.words.linesearch import LineSquares
from gamehall.rules.words.moves import BINGO_BONUS, BINGO_TILES

Square = tuple[int, int, int]
"""A new tile's letter multiplier, its cross-word part, and the best rack value allowed there."""

Span = tuple[int, int, int, int, int, list[Square]]
"""Where the span ends, empty squares used, word multiplier, board tiles' value, fixed cross
value, and its empty squares."""


@dataclass(frozen=True, slots=True)
class RackSummary:
    """What the bound needs of the rack: tile values (decreasing), letters, and letter values."""

    tile_values: list[int]
    letters: list[int]
    letter_values: Sequence[int]
    playable: int
    """The letters the rack can make: its letters, or all 26 with a blank."""
    counts: list[int]
    """Rack tiles per letter (A = 0), blanks excluded."""
    blanks: int


SpanBound = tuple[int, int, int, int]
"""An upper bound of the score of the moves covering a span, the span's first and last
position, and how many rack tiles it takes."""


def span_bounds(line: LineSquares, anchor: int, rack: RackSummary) -> list[SpanBound]:
    """Every span a move from ``anchor`` may cover, with an upper bound of its score.

    Two bounds of the rack tiles' part are taken, the smaller wins: the best pairing of the
    rack's values with the squares' gains, and each square's gain times the best value its
    cross-check lets the rack put there. An empty list: no move can start from this anchor.

    A span that takes seven tiles gets the bingo bonus, the loosest part of the bound: the
    top-move search treats such spans on their own.
    """
    if not line.cross_masks[anchor] & rack.playable:
        return []
    tile_values = rack.tile_values
    lefts = _left_spans(line, anchor, rack)
    rights = _right_spans(line, anchor, rack)
    bounds = []
    for start, used_left, mult_left, board_left, fixed_left, squares_left in lefts:
        for end, used_right, mult_right, board_right, fixed_right, squares_right in rights:
            used = used_left + used_right
            if used > len(tile_values):
                break
            if end == start:
                continue
            mult = mult_left * mult_right
            gains = [lm * mult + cross for lm, cross, _ in squares_left] + [
                lm * mult + cross for lm, cross, _ in squares_right
            ]
            capped = sum(map(mul, gains, [cap for _, _, cap in squares_left + squares_right]))
            gains.sort(reverse=True)
            tiles = min(capped, sum(map(mul, tile_values, gains)))
            total = mult * (board_left + board_right) + fixed_left + fixed_right + tiles
            if used == BINGO_TILES:
                total += BINGO_BONUS
            bounds.append((total, start, end, used))
    return bounds


def _square(line: LineSquares, p: int, rack: RackSummary) -> tuple[int, int, Square]:
    """A new tile's word multiplier and fixed cross value at ``p``, and its :data:`Square`."""
    lm, wm, cross_sum = line.letter_mult[p], line.word_mult[p], line.cross_sums[p]
    allowed = line.cross_masks[p]
    cap = max([rack.letter_values[letter] for letter in rack.letters if allowed >> letter & 1], default=0)
    if cross_sum < 0:
        return wm, 0, (lm, 0, cap)
    return wm, cross_sum * wm, (lm, lm * wm, cap)


def _left_spans(line: LineSquares, anchor: int, rack: RackSummary) -> list[Span]:
    """Every way the span can start, from the anchor leftwards, with its running totals."""
    cells, values = line.cells, line.values
    rack_size, playable = len(rack.tile_values), rack.playable
    mult, fixed, square = _square(line, anchor, rack)
    squares = [square]
    used, board = 1, 0
    start = anchor
    spans = []
    while True:
        if start == 0 or cells[start - 1] < 0:
            spans.append((start, used, mult, board, fixed, list(squares)))
        if start == 0:
            break
        p = start - 1
        if cells[p] >= 0:
            board += values[p]
            start = p
            continue
        if used >= rack_size or line.anchors[p] or not line.cross_masks[p] & playable:
            break
        word_mult, cross_fixed, square = _square(line, p, rack)
        used += 1
        mult *= word_mult
        fixed += cross_fixed
        squares.append(square)
        start = p
    return spans


def _right_spans(line: LineSquares, anchor: int, rack: RackSummary) -> list[Span]:
    """Every way the span can end, from the anchor rightwards (tiles right of the anchor only)."""
    cells, values = line.cells, line.values
    rack_size, playable = len(rack.tile_values), rack.playable
    last = len(cells) - 1
    mult, fixed, used, board = 1, 0, 0, 0
    squares: list[Square] = []
    end = anchor
    spans = []
    while True:
        if end == last or cells[end + 1] < 0:
            spans.append((end, used, mult, board, fixed, list(squares)))
        if end == last:
            break
        p = end + 1
        if cells[p] >= 0:
            board += values[p]
            end = p
            continue
        if used + 1 >= rack_size or not line.cross_masks[p] & playable:
            break
        word_mult, cross_fixed, square = _square(line, p, rack)
        used += 1
        mult *= word_mult
        fixed += cross_fixed
        squares.append(square)
        end = p
    return spans

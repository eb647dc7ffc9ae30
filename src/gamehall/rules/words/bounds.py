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
from operator import mul

from gamehall.rules.words.linesearch import LineSquares
from gamehall.rules.words.moves import BINGO_BONUS, BINGO_TILES

Span = tuple[int, int, int, int, list[tuple[int, int]]]
"""Empty squares used, word multiplier, board tiles' value, fixed cross value, (lm, cross part)s."""


def anchor_bound(line: LineSquares, anchor: int, tile_values: Sequence[int], playable: int) -> int:
    """An upper bound of the score of any move generated from ``anchor``; -1 when there is none.

    ``tile_values`` are the rack's tile values in decreasing order (blanks 0); ``playable`` the
    letters the rack can make (all 26 with a blank).
    """
    if not line.cross_masks[anchor] & playable:
        return -1
    lefts = _left_spans(line, anchor, len(tile_values), playable)
    rights = _right_spans(line, anchor, len(tile_values), playable)
    best = -1
    for start, used_left, mult_left, board_left, fixed_left, squares_left in lefts:
        for end, used_right, mult_right, board_right, fixed_right, squares_right in rights:
            used = used_left + used_right
            if used > len(tile_values):
                break
            if end == start:
                continue
            mult = mult_left * mult_right
            gains = sorted(
                [lm * mult + cross for lm, cross in squares_left]
                + [lm * mult + cross for lm, cross in squares_right],
                reverse=True,
            )
            total = (
                mult * (board_left + board_right)
                + fixed_left
                + fixed_right
                + sum(map(mul, tile_values, gains))
            )
            if used == BINGO_TILES:
                total += BINGO_BONUS
            if total > best:
                best = total
    return best


def _square(line: LineSquares, p: int) -> tuple[int, int, tuple[int, int]]:
    """A new tile's word multiplier, fixed cross value and (letter multiplier, cross part) at ``p``."""
    lm, wm, cross_sum = line.letter_mult[p], line.word_mult[p], line.cross_sums[p]
    if cross_sum < 0:
        return wm, 0, (lm, 0)
    return wm, cross_sum * wm, (lm, lm * wm)


def _left_spans(
    line: LineSquares, anchor: int, rack_size: int, playable: int
) -> list[tuple[int, int, int, int, int, list[tuple[int, int]]]]:
    """Every way the span can start, from the anchor leftwards, with its running totals."""
    cells, values = line.cells, line.values
    mult, fixed, square = _square(line, anchor)
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
        word_mult, cross_fixed, square = _square(line, p)
        used += 1
        mult *= word_mult
        fixed += cross_fixed
        squares.append(square)
        start = p
    return spans


def _right_spans(
    line: LineSquares, anchor: int, rack_size: int, playable: int
) -> list[tuple[int, int, int, int, int, list[tuple[int, int]]]]:
    """Every way the span can end, from the anchor rightwards (tiles right of the anchor only)."""
    cells, values = line.cells, line.values
    last = len(cells) - 1
    mult, fixed, used, board = 1, 0, 0, 0
    squares: list[tuple[int, int]] = []
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
        word_mult, cross_fixed, square = _square(line, p)
        used += 1
        mult *= word_mult
        fixed += cross_fixed
        squares.append(square)
        end = p
    return spans

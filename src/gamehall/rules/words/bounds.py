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

Square = tuple[int, int, int, int, int]
"""An empty square a rack tile may fill: its word multiplier, the fixed value of its cross-word
(old tiles times the word multiplier, 0 without one), its letter multiplier, the cross-word part of
a tile's gain (``lm * wm``, 0 without one), and the best rack value its cross-check allows."""

Span = tuple[int, int, int, int, int, list[tuple[int, int]], list[int], int, int]
"""Where the span ends, empty squares used, word multiplier, board tiles' value, fixed cross
value; per empty square its letter multiplier and cross-word gain, and its gain ``lm + cross``
when the span has no new word multiplier; the sums over its empty squares of ``lm * cap`` and
``cross * cap`` (``cap`` the best rack value allowed there)."""


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


def line_squares(
    line: LineSquares, rack: RackSummary, caps: dict[int, int] | None = None
) -> list[Square | None]:
    """Per position, the :data:`Square` a rack tile may fill there (None: a board tile, or no
    rack letter fits the cross-check). Computed once per line, shared by its anchors' bounds.

    ``caps`` memoises the best rack value a cross-check allows, by cross-check (few distinct
    ones per board); pass the same dict for every line of one search.
    """
    if caps is None:
        caps = {}
    letter_values = rack.letter_values
    playable = rack.playable
    squares: list[Square | None] = []
    for cell, allowed, lm, wm, cross_sum in zip(
        line.cells, line.cross_masks, line.letter_mult, line.word_mult, line.cross_sums, strict=True
    ):
        if cell >= 0 or not allowed & playable:
            squares.append(None)
            continue
        cap = caps.get(allowed)
        if cap is None:
            cap = caps[allowed] = max(
                [letter_values[letter] for letter in rack.letters if allowed >> letter & 1], default=0
            )
        if cross_sum < 0:
            squares.append((wm, 0, lm, 0, cap))
        else:
            squares.append((wm, cross_sum * wm, lm, lm * wm, cap))
    return squares


def span_bounds(
    line: LineSquares, anchor: int, rack: RackSummary, squares: list[Square | None] | None = None
) -> list[SpanBound]:
    """Every span a move from ``anchor`` may cover, with an upper bound of its score.

    Two bounds of the rack tiles' part are taken, the smaller wins: the best pairing of the
    rack's values with the squares' gains, and each square's gain times the best value its
    cross-check lets the rack put there. An empty list: no move can start from this anchor.
    ``squares`` is :func:`line_squares` of the line (computed here when not given).

    A span that takes seven tiles gets the bingo bonus, the loosest part of the bound: the
    top-move search treats such spans on their own.
    """
    if squares is None:
        squares = line_squares(line, rack)
    if squares[anchor] is None:
        return []
    tile_values = rack.tile_values
    rack_size = len(tile_values)
    lefts = _left_spans(line, anchor, rack_size, squares)
    rights = _right_spans(line, anchor, rack_size, squares)
    bounds = []
    for (
        start,
        used_left,
        mult_left,
        board_left,
        fixed_left,
        pairs_left,
        plain_left,
        lc_left,
        cc_left,
    ) in lefts:
        for (
            end,
            used_right,
            mult_right,
            board_right,
            fixed_right,
            pairs_right,
            plain_right,
            lc_r,
            cc_r,
        ) in rights:
            used = used_left + used_right
            if used > rack_size:
                break
            if end == start:
                continue
            mult = mult_left * mult_right
            capped = mult * (lc_left + lc_r) + cc_left + cc_r
            if mult == 1:
                gains = plain_left + plain_right
            else:
                gains = [lm * mult + cross for lm, cross in pairs_left + pairs_right]
            gains.sort(reverse=True)
            paired = sum(map(mul, tile_values, gains))
            total = mult * (board_left + board_right) + fixed_left + fixed_right
            total += paired if paired < capped else capped
            if used == BINGO_TILES:
                total += BINGO_BONUS
            bounds.append((total, start, end, used))
    return bounds


def _left_spans(line: LineSquares, anchor: int, rack_size: int, squares: list[Square | None]) -> list[Span]:
    """Every way the span can start, from the anchor leftwards, with its running totals."""
    cells, values, anchors = line.cells, line.values, line.anchors
    square = squares[anchor]
    assert square is not None
    mult, fixed, lm, cross, cap = square
    pairs, plain = [(lm, cross)], [lm + cross]
    lm_caps, cross_caps = lm * cap, cross * cap
    used, board = 1, 0
    start = anchor
    spans = []
    while True:
        if start == 0 or cells[start - 1] < 0:
            spans.append((start, used, mult, board, fixed, list(pairs), list(plain), lm_caps, cross_caps))
        if start == 0:
            break
        p = start - 1
        if cells[p] >= 0:
            board += values[p]
            start = p
            continue
        square = squares[p]
        if used >= rack_size or anchors[p] or square is None:
            break
        word_mult, cross_fixed, lm, cross, cap = square
        used += 1
        mult *= word_mult
        fixed += cross_fixed
        pairs.append((lm, cross))
        plain.append(lm + cross)
        lm_caps += lm * cap
        cross_caps += cross * cap
        start = p
    return spans


def _right_spans(line: LineSquares, anchor: int, rack_size: int, squares: list[Square | None]) -> list[Span]:
    """Every way the span can end, from the anchor rightwards (tiles right of the anchor only)."""
    cells, values = line.cells, line.values
    last = len(cells) - 1
    mult, fixed, used, board = 1, 0, 0, 0
    pairs: list[tuple[int, int]] = []
    plain: list[int] = []
    lm_caps = cross_caps = 0
    end = anchor
    spans = []
    while True:
        if end == last or cells[end + 1] < 0:
            spans.append((end, used, mult, board, fixed, list(pairs), list(plain), lm_caps, cross_caps))
        if end == last:
            break
        p = end + 1
        if cells[p] >= 0:
            board += values[p]
            end = p
            continue
        square = squares[p]
        if used + 1 >= rack_size or square is None:
            break
        word_mult, cross_fixed, lm, cross, cap = square
        used += 1
        mult *= word_mult
        fixed += cross_fixed
        pairs.append((lm, cross))
        plain.append(lm + cross)
        lm_caps += lm * cap
        cross_caps += cross * cap
        end = p
    return spans

"""The move generator: every legal placement of a rack, with exact scores (Gordon's GADDAG method).

How it works, for one direction (down is the same on the transposed board):

1. **Cross-checks.** For each empty square, the letters that may go there without spoiling the
   perpendicular word they would join (all 26 when the square has no perpendicular neighbour),
   and the value of that perpendicular word's existing tiles, for scoring.
2. **Anchors.** Every legal move covers an empty square next to a tile (on an empty board, the
   start square). Each move is generated from the leftmost anchor it covers: walking left from an
   anchor stops at the previous empty anchor.
3. **Search** (:mod:`~gamehall.rules.words.linesearch`). From an anchor the GADDAG path is walked
   leftwards (placing rack tiles or reading board tiles), then, after the separator, rightwards.
   An accepting edge with a free square on both ends of the word is a move. Scores are carried
   along: the main word's letter sum and word multiplier, and the cross-words' totals.

:func:`generate_moves` runs every anchor; :func:`best_move` runs them best score bound first
and stops when no bound can reach the best move found
(:mod:`~gamehall.rules.words.topsearch`). On an empty symmetric board only across moves are
searched; down moves are their mirror images.

A blank may be any letter and scores 0; a rack with two blanks tries each letter once per square.
A single tile that forms words both ways is one move (across, as the JDuplicate note reads it).
Nothing here does I/O: the caller passes the board, the rack, the lexicon and the letter values.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from gamehall.rules.words.board import Board, BoardLayout, Direction
from gamehall.rules.words.gaddag import ALL_LETTERS, Gaddag
from gamehall.rules.words.letters import BLANK, ENGLISH, LetterSet, parse_rack
from gamehall.rules.words.lexicon import Lexicon
from gamehall.rules.words.linesearch import SEPARATOR_BIT, LineSearch, LineSquares
from gamehall.rules.words.moves import Move
from gamehall.rules.words.topsearch import search_best_first

Grid = list[list[int]]
"""Letter numbers by [line][position], -1 for an empty square."""

_MAX_SCORE = 1 << 20
"""Above any score a move can reach; used to sort by descending score with an int key."""


def generate_moves(
    board: Board, rack: str | Iterable[str], lexicon: Lexicon, letters: LetterSet = ENGLISH
) -> list[Move]:
    """Every legal move of ``rack`` on ``board``, best first (tie-break of :meth:`Move.sort_key`)."""
    return _search(board, parse_rack(rack), lexicon, letters, best_only=False)


def best_move(
    board: Board, rack: str | Iterable[str], lexicon: Lexicon, letters: LetterSet = ENGLISH
) -> Move | None:
    """The top: the highest-scoring move, ties broken by :meth:`Move.sort_key`; None if no move.

    On an empty symmetric board (the standard one) only across moves are searched: a down move
    scores the same as its mirror image, and the top is placed across (JDuplicate note §8.3).
    """
    moves = _search(board, parse_rack(rack), lexicon, letters, best_only=True)
    return moves[0] if moves else None


def _search(
    board: Board, rack: Sequence[str], lexicon: Lexicon, letters: LetterSet, *, best_only: bool
) -> list[Move]:
    gaddag = lexicon.gaddag
    layout = board.layout
    height, width = layout.height, layout.width
    values = letters.letter_values
    rows: Grid = [[-1] * width for _ in range(height)]
    row_values = [[0] * width for _ in range(height)]
    row_glyphs = [[""] * width for _ in range(height)]
    for (row, col), tile in board.tiles():
        code = ord(tile.letter) - 65
        rows[row][col] = code
        row_values[row][col] = 0 if tile.blank else values[code]
        row_glyphs[row][col] = tile.glyph
    cols: Grid = [list(column) for column in zip(*rows, strict=True)]
    col_values = [list(column) for column in zip(*row_values, strict=True)]
    col_glyphs = [list(column) for column in zip(*row_glyphs, strict=True)]
    row_letter_mult, row_word_mult, col_letter_mult, col_word_mult = _premium_grids(layout)
    empty_board = board.is_empty

    counts = [0] * 26
    blanks = 0
    for rack_tile in rack:
        if rack_tile == BLANK:
            blanks += 1
        else:
            counts[ord(rack_tile) - 65] += 1

    best_score = [-1]
    # On an empty symmetric board a down move is the mirror image of an across move: search
    # across only, then (for every move) mirror what was found.
    mirrored = empty_board and layout.symmetric
    directions = [Direction.ACROSS] if mirrored else [Direction.ACROSS, Direction.DOWN]
    searches: list[LineSearch] = []
    placements: list[tuple[int, Direction]] = []
    for direction in directions:
        if direction is Direction.ACROSS:
            lines, perpendicular, line_values, perp_values = rows, cols, row_values, col_values
            glyphs, letter_mult, word_mult = row_glyphs, row_letter_mult, row_word_mult
        else:
            lines, perpendicular, line_values, perp_values = cols, rows, col_values, row_values
            glyphs, letter_mult, word_mult = col_glyphs, col_letter_mult, col_word_mult
        for index, cells in enumerate(lines):
            anchors = _anchors(cells, index, perpendicular, direction, layout.start, empty_board)
            if not any(anchors):
                continue
            cross_masks, cross_sums = _cross_checks(gaddag, cells, index, perpendicular, perp_values)
            line = LineSquares(
                cells,
                line_values[index],
                glyphs[index],
                cross_masks,
                cross_sums,
                letter_mult[index],
                word_mult[index],
                anchors,
            )
            searches.append(
                LineSearch(
                    gaddag,
                    values,
                    line,
                    counts,
                    blanks,
                    len(rack),
                    skip_single_with_cross=direction is Direction.DOWN,
                    floor=best_score,
                    raise_floor=best_only,
                )
            )
            placements.append((index, direction))
    if best_only:
        search_best_first(searches, rack, values, best_score, lexicon.anagrams)
    else:
        for search in searches:
            search.run()
        if mirrored:
            searches += searches
            placements += [(index, Direction.DOWN) for index, _ in placements]
    return _to_moves(searches, placements, best_only, best_score[0])


@functools.lru_cache(maxsize=8)
def _premium_grids(layout: BoardLayout) -> tuple[Grid, Grid, Grid, Grid]:
    """The letter and word multipliers by [row][col], then by [col][row] (shared: never mutated).

    A layout is immutable, so they are worked out once per layout rather than once per search.
    """
    height, width = layout.height, layout.width
    row_letter_mult = [[layout.letter_multiplier(r, c) for c in range(width)] for r in range(height)]
    row_word_mult = [[layout.word_multiplier(r, c) for c in range(width)] for r in range(height)]
    col_letter_mult = [list(column) for column in zip(*row_letter_mult, strict=True)]
    col_word_mult = [list(column) for column in zip(*row_word_mult, strict=True)]
    return row_letter_mult, row_word_mult, col_letter_mult, col_word_mult


def _to_moves(
    searches: list[LineSearch], placements: list[tuple[int, Direction]], best_only: bool, best_score: int
) -> list[Move]:
    """The moves found, as :class:`Move` objects in tie-break order (:meth:`Move.sort_key`)."""
    moves: list[Move] = []
    ranks: list[int] = []
    words: list[str] = []
    make = Move._make
    for search, (index, direction) in zip(searches, placements, strict=True):
        new_flags = tuple(cell < 0 for cell in search.line.cells)
        across = direction is Direction.ACROSS
        for score, start, word, blanks_used in search.found:
            if best_only and score < best_score:
                continue
            row, col = (index, start) if across else (start, index)
            moves.append(make((row, col, direction, word, new_flags[start : start + len(word)], score)))
            words.append(word)
            # score (descending), fewest blanks, row, column, across first, packed in one int
            ranks.append(
                ((((_MAX_SCORE - score) * 16 + blanks_used) * 32 + row) * 32 + col) * 2 + (not across)
            )
    # Stable sorts, least significant key first: spelling, word, then the packed rank.
    order = sorted(range(len(moves)), key=words.__getitem__)
    uppers = [word.upper() for word in words]
    order.sort(key=uppers.__getitem__)
    order.sort(key=ranks.__getitem__)
    return [moves[i] for i in order]


def _anchors(
    cells: list[int],
    index: int,
    perpendicular: Grid,
    direction: Direction,
    start: tuple[int, int],
    empty_board: bool,
) -> list[bool]:
    """Which squares of the line are anchors (empty, next to a tile; the start on an empty board)."""
    size = len(cells)
    if empty_board:
        anchor_pos = start[1] if direction is Direction.ACROSS else start[0]
        line_of_start = start[0] if direction is Direction.ACROSS else start[1]
        return [index == line_of_start and p == anchor_pos for p in range(size)]
    anchors = []
    for p in range(size):
        if cells[p] >= 0:
            anchors.append(False)
            continue
        column = perpendicular[p]
        anchors.append(
            (p > 0 and cells[p - 1] >= 0)
            or (p + 1 < size and cells[p + 1] >= 0)
            or (index > 0 and column[index - 1] >= 0)
            or (index + 1 < len(column) and column[index + 1] >= 0)
        )
    return anchors


def _cross_checks(
    gaddag: Gaddag, cells: list[int], index: int, perpendicular: Grid, perp_values: list[list[int]]
) -> tuple[list[int], list[int]]:
    """Per square: the letters allowed by the perpendicular word, and that word's tile sum (-1: none)."""
    masks_out = []
    sums_out = []
    for p, cell in enumerate(cells):
        if cell >= 0:
            masks_out.append(0)
            sums_out.append(-1)
            continue
        column = perpendicular[p]
        top = index
        while top > 0 and column[top - 1] >= 0:
            top -= 1
        bottom = index
        while bottom + 1 < len(column) and column[bottom + 1] >= 0:
            bottom += 1
        if top == bottom:
            masks_out.append(ALL_LETTERS)
            sums_out.append(-1)
            continue
        values = perp_values[p]
        masks_out.append(_cross_mask(gaddag, column, top, index, bottom))
        sums_out.append(sum(values[top:index]) + sum(values[index + 1 : bottom + 1]))
    return masks_out, sums_out


def _cross_mask(gaddag: Gaddag, column: list[int], top: int, index: int, bottom: int) -> int:
    """Letters L such that the word ``column[top:bottom + 1]`` with L at ``index`` is an entry.

    Above is ``column[top:index]``, below ``column[index + 1 : bottom + 1]``. With nothing below,
    the path ``rev(above) ◊ L`` gives every L at once; with nothing above, the path ``rev(below)
    L`` does. With both, each L the shorter side allows is tried: walk ``rev(below) L rev(above)``
    or ``rev(above) ◊ L below``, whichever re-walks fewer letters. The walks read the column in
    place (this runs for every square beside a perpendicular word).
    """
    masks, accepts, bases, kids = gaddag.masks, gaddag.accepts, gaddag.bases, gaddag.children

    def walk(node: int, first: int, stop: int, step: int) -> int:
        """Follow ``column[first], column[first + step], ...`` up to ``stop`` (excluded)."""
        for q in range(first, stop, step):
            mask = masks[node]
            bit = 1 << column[q]
            if not mask & bit:
                return -1
            node = kids[bases[node] + (mask & (bit - 1)).bit_count()]
        return node

    def after_separator(node: int) -> int:
        mask = masks[node]
        if not mask & SEPARATOR_BIT:
            return -1
        return kids[bases[node] + (mask & (SEPARATOR_BIT - 1)).bit_count()]

    root = gaddag.root
    if bottom == index:
        node = walk(root, index - 1, top - 1, -1)
        node = after_separator(node) if node >= 0 else -1
        return accepts[node] & masks[node] & ALL_LETTERS if node >= 0 else 0
    if top == index:
        node = walk(root, bottom, index, -1)
        return accepts[node] & masks[node] & ALL_LETTERS if node >= 0 else 0
    if index - top <= bottom - index:
        # rev(below), then L, then rev(above) but its last letter (column[top]), which must accept.
        node = walk(root, bottom, index, -1)
        first, stop, step, last = index - 1, top, -1, column[top]
    else:
        # rev(above) ◊, then L, then below but its last letter (column[bottom]), which must accept.
        node = walk(root, index - 1, top - 1, -1)
        node = after_separator(node) if node >= 0 else -1
        first, stop, step, last = index + 1, bottom, 1, column[bottom]
    if node < 0:
        return 0
    allowed = 0
    mask = masks[node]
    candidates = mask & ALL_LETTERS
    base = bases[node]
    while candidates:
        low = candidates & -candidates
        candidates ^= low
        tail = walk(kids[base + (mask & (low - 1)).bit_count()], first, stop, step)
        if tail >= 0 and accepts[tail] >> last & 1:
            allowed |= low
    return allowed

"""The move generator: every legal placement of a rack, with exact scores (Gordon's GADDAG method).

How it works, for one direction (down is the same on the transposed board):

1. **Cross-checks.** For each empty square, the letters that may go there without spoiling the
   perpendicular word they would join (all 26 when the square has no perpendicular neighbour),
   and the value of that perpendicular word's existing tiles, for scoring.
2. **Anchors.** Every legal move covers an empty square next to a tile (on an empty board, the
   start square). Each move is generated from the leftmost anchor it covers: walking left from an
   anchor stops at the previous empty anchor.
3. **Search.** From an anchor the GADDAG path is walked leftwards (placing rack tiles or reading
   board tiles), then, after the separator, rightwards. An accepting edge with a free square on
   both ends of the word is a move. Scores are carried along: the main word's letter sum and word
   multiplier, and the cross-words' totals.

A blank may be any letter and scores 0; a rack with two blanks tries each letter once per square.
A single tile that forms words both ways is one move (across, as the JDuplicate note reads it).
Nothing here does I/O: the caller passes the board, the rack, the lexicon and the letter values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from gamehall.rules.words.board import Board, Direction
from gamehall.rules.words.gaddag import SEPARATOR, Gaddag
from gamehall.rules.words.letters import BLANK, ENGLISH, LetterSet, parse_rack
from gamehall.rules.words.lexicon import Lexicon
from gamehall.rules.words.moves import BINGO_BONUS, BINGO_TILES, Move

ALL_LETTERS = (1 << 26) - 1
SEPARATOR_BIT = 1 << SEPARATOR
_GLYPHS = [chr(65 + i) for i in range(26)]
_BLANK_GLYPHS = [chr(97 + i) for i in range(26)]

Grid = list[list[int]]
"""Letter numbers by [line][position], -1 for an empty square."""

Found = tuple[int, int, int, str, int]
"""A generated move before it becomes a :class:`Move`: (score, line, start, word, tiles)."""


def generate_moves(
    board: Board, rack: str | Iterable[str], lexicon: Lexicon, letters: LetterSet = ENGLISH
) -> list[Move]:
    """Every legal move of ``rack`` on ``board``, best first (tie-break of :meth:`Move.sort_key`)."""
    moves = _search(board, parse_rack(rack), lexicon.gaddag, letters, best_only=False)
    moves.sort(key=Move.sort_key)
    return moves


def best_move(
    board: Board, rack: str | Iterable[str], lexicon: Lexicon, letters: LetterSet = ENGLISH
) -> Move | None:
    """The top: the highest-scoring move, ties broken by :meth:`Move.sort_key`; None if no move.

    On an empty symmetric board (the standard one) only across moves are searched: a down move
    scores the same as its mirror image, and the top is placed across (JDuplicate note §8.3).
    """
    moves = _search(board, parse_rack(rack), lexicon.gaddag, letters, best_only=True)
    return min(moves, key=Move.sort_key) if moves else None


def _search(
    board: Board, rack: Sequence[str], gaddag: Gaddag, letters: LetterSet, *, best_only: bool
) -> list[Move]:
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
    row_letter_mult = [[layout.letter_multiplier(r, c) for c in range(width)] for r in range(height)]
    row_word_mult = [[layout.word_multiplier(r, c) for c in range(width)] for r in range(height)]
    col_letter_mult = [list(column) for column in zip(*row_letter_mult, strict=True)]
    col_word_mult = [list(column) for column in zip(*row_word_mult, strict=True)]
    empty_board = board.is_empty

    counts = [0] * 26
    blanks = 0
    for rack_tile in rack:
        if rack_tile == BLANK:
            blanks += 1
        else:
            counts[ord(rack_tile) - 65] += 1

    found: list[Move] = []
    best_score = [-1]
    across_only = empty_board and best_only and layout.symmetric
    directions = [Direction.ACROSS] if across_only else [Direction.ACROSS, Direction.DOWN]
    for direction in directions:
        if direction is Direction.ACROSS:
            lines, perpendicular, line_values, perp_values = rows, cols, row_values, col_values
            glyphs, letter_mult, word_mult = row_glyphs, row_letter_mult, row_word_mult
        else:
            lines, perpendicular, line_values, perp_values = cols, rows, col_values, row_values
            glyphs, letter_mult, word_mult = col_glyphs, col_letter_mult, col_word_mult
        raw: list[Found] = []
        for index, cells in enumerate(lines):
            cross_masks, cross_sums = _cross_checks(gaddag, cells, index, perpendicular, perp_values)
            anchors = _anchors(cells, index, perpendicular, direction, layout.start, empty_board)
            if not any(anchors):
                continue
            _LineSearch(
                gaddag,
                values,
                cells,
                line_values[index],
                glyphs[index],
                cross_masks,
                cross_sums,
                letter_mult[index],
                word_mult[index],
                anchors,
                counts,
                blanks,
                len(rack),
                skip_single_with_cross=direction is Direction.DOWN,
                record=_recorder(raw, index, best_only, best_score),
            ).run()
        found.extend(_to_moves(raw, lines, direction, best_only, best_score[0]))
    if best_only:
        return [m for m in found if m.score == best_score[0]]
    return found


def _recorder(
    raw: list[Found], index: int, best_only: bool, best_score: list[int]
) -> Callable[[int, int, str, int], None]:
    if not best_only:

        def record_all(score: int, start: int, word: str, tiles: int) -> None:
            raw.append((score, index, start, word, tiles))

        return record_all

    def record_best(score: int, start: int, word: str, tiles: int) -> None:
        if score >= best_score[0]:
            best_score[0] = score
            raw.append((score, index, start, word, tiles))

    return record_best


def _to_moves(
    raw: list[Found], lines: Grid, direction: Direction, best_only: bool, best_score: int
) -> list[Move]:
    moves = []
    across = direction is Direction.ACROSS
    for score, index, start, word, _tiles in raw:
        if best_only and score < best_score:
            continue
        cells = lines[index]
        new = tuple(cells[p] < 0 for p in range(start, start + len(word)))
        row, col = (index, start) if across else (start, index)
        moves.append(Move(row, col, direction, word, new, score))
    return moves


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
        values = perp_values[p]
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
        above = column[top:index]
        below = column[index + 1 : bottom + 1]
        masks_out.append(_cross_mask(gaddag, above, below))
        sums_out.append(sum(values[top:index]) + sum(values[index + 1 : bottom + 1]))
    return masks_out, sums_out


def _cross_mask(gaddag: Gaddag, above: list[int], below: list[int]) -> int:
    """Letters L such that above + L + below is a word: walk its reversal, rev(below) L rev(above)."""
    node = gaddag.walk(gaddag.root, reversed(below))
    if node < 0:
        return 0
    masks = gaddag.masks
    if not above:
        return gaddag.accepts[node] & masks[node] & ALL_LETTERS
    reversed_above = above[::-1]
    middle, last = reversed_above[:-1], reversed_above[-1]
    allowed = 0
    candidates = masks[node] & ALL_LETTERS
    while candidates:
        low = candidates & -candidates
        candidates ^= low
        letter = low.bit_length() - 1
        tail = gaddag.walk(gaddag.child(node, letter), middle)
        if tail >= 0 and gaddag.accepts_after(tail, last):
            allowed |= low
    return allowed


class _LineSearch:
    """The GADDAG search along one line (a row for across moves, a column for down moves).

    The recursion is written for speed: the hot data are plain lists and ints held in locals of
    closures, scores are carried as arguments, and the rack is one shared count list.
    """

    def __init__(
        self,
        gaddag: Gaddag,
        letter_values: Sequence[int],
        cells: list[int],
        values: list[int],
        glyphs: list[str],
        cross_masks: list[int],
        cross_sums: list[int],
        letter_mult: list[int],
        word_mult: list[int],
        anchors: list[bool],
        counts: list[int],
        blanks: int,
        rack_size: int,
        *,
        skip_single_with_cross: bool,
        record: Callable[[int, int, str, int], None],
    ) -> None:
        self.gaddag = gaddag
        self.letter_values = letter_values
        self.cells = cells
        self.values = values
        self.glyphs = glyphs
        self.cross_masks = cross_masks
        self.cross_sums = cross_sums
        self.letter_mult = letter_mult
        self.word_mult = word_mult
        self.anchors = anchors
        self.counts = counts
        self.blanks = blanks
        self.rack_size = rack_size
        self.skip_single_with_cross = skip_single_with_cross
        self.record = record

    def run(self) -> None:
        for anchor, is_anchor in enumerate(self.anchors):
            if is_anchor:
                self._from_anchor(anchor)

    def _from_anchor(self, anchor: int) -> None:
        gaddag = self.gaddag
        masks, accepts, bases, kids = gaddag.masks, gaddag.accepts, gaddag.bases, gaddag.children
        cells, tile_values, glyphs = self.cells, self.values, self.glyphs
        cross_masks, cross_sums = self.cross_masks, self.cross_sums
        letter_mult, word_mult, anchors = self.letter_mult, self.word_mult, self.anchors
        counts = self.counts
        blanks = self.blanks
        rack_bits = 0
        for letter, count in enumerate(counts):
            if count:
                rack_bits |= 1 << letter
        rack_size = self.rack_size
        record = self.record
        size = len(cells)
        last = size - 1
        letter_values = self.letter_values
        right_of_anchor_free = anchor == last or cells[anchor + 1] < 0
        skip_single = self.skip_single_with_cross and cross_sums[anchor] >= 0
        sep_bit = SEPARATOR_BIT
        sep_below = SEPARATOR_BIT - 1

        def finish(score: int, start: int, word: str, tiles: int) -> None:
            if tiles == 1 and skip_single:
                return
            if tiles == BINGO_TILES:
                score += BINGO_BONUS
            record(score, start, word, tiles)

        def after_left(
            pos: int, node: int, accepted: int, word: str, main: int, mult: int, cross: int, tiles: int
        ) -> None:
            left_free = pos == 0 or cells[pos - 1] < 0
            if accepted and left_free and right_of_anchor_free:
                finish(main * mult + cross, pos, word, tiles)
            mask = masks[node]
            if not mask:
                return
            if pos > 0 and (cells[pos - 1] >= 0 or (tiles < rack_size and not anchors[pos - 1])):
                left(pos - 1, node, word, main, mult, cross, tiles)
            if left_free and mask & sep_bit and anchor < last:
                after_sep = kids[bases[node] + (mask & sep_below).bit_count()]
                if cells[anchor + 1] >= 0 or tiles < rack_size:
                    right(anchor + 1, after_sep, word, main, mult, cross, tiles, pos)

        def left(pos: int, node: int, word: str, main: int, mult: int, cross: int, tiles: int) -> None:
            nonlocal rack_bits, blanks
            mask = masks[node]
            cell = cells[pos]
            if cell >= 0:
                bit = 1 << cell
                if mask & bit:
                    child = kids[bases[node] + (mask & (bit - 1)).bit_count()]
                    after_left(
                        pos,
                        child,
                        accepts[node] & bit,
                        glyphs[pos] + word,
                        main + tile_values[pos],
                        mult,
                        cross,
                        tiles,
                    )
                return
            candidates = mask & cross_masks[pos]
            if not blanks:
                candidates &= rack_bits
            if not candidates:
                return
            base = bases[node]
            accept = accepts[node]
            lm = letter_mult[pos]
            new_mult = mult * word_mult[pos]
            wm = word_mult[pos]
            cross_sum = cross_sums[pos]
            tiles += 1
            while candidates:
                bit = candidates & -candidates
                candidates ^= bit
                letter = bit.bit_length() - 1
                child = kids[base + (mask & (bit - 1)).bit_count()]
                accepted = accept & bit
                if rack_bits & bit:
                    counts[letter] -= 1
                    if not counts[letter]:
                        rack_bits ^= bit
                    value = letter_values[letter] * lm
                    after_left(
                        pos,
                        child,
                        accepted,
                        _GLYPHS[letter] + word,
                        main + value,
                        new_mult,
                        cross + (cross_sum + value) * wm if cross_sum >= 0 else cross,
                        tiles,
                    )
                    if not counts[letter]:
                        rack_bits ^= bit
                    counts[letter] += 1
                if blanks:
                    blanks -= 1
                    after_left(
                        pos,
                        child,
                        accepted,
                        _BLANK_GLYPHS[letter] + word,
                        main,
                        new_mult,
                        cross + cross_sum * wm if cross_sum >= 0 else cross,
                        tiles,
                    )
                    blanks += 1

        def after_right(
            pos: int,
            node: int,
            accepted: int,
            word: str,
            main: int,
            mult: int,
            cross: int,
            tiles: int,
            start: int,
        ) -> None:
            if accepted and (pos == last or cells[pos + 1] < 0):
                finish(main * mult + cross, start, word, tiles)
            if masks[node] and pos < last and (cells[pos + 1] >= 0 or tiles < rack_size):
                right(pos + 1, node, word, main, mult, cross, tiles, start)

        def right(
            pos: int, node: int, word: str, main: int, mult: int, cross: int, tiles: int, start: int
        ) -> None:
            nonlocal rack_bits, blanks
            mask = masks[node]
            cell = cells[pos]
            if cell >= 0:
                bit = 1 << cell
                if mask & bit:
                    child = kids[bases[node] + (mask & (bit - 1)).bit_count()]
                    after_right(
                        pos,
                        child,
                        accepts[node] & bit,
                        word + glyphs[pos],
                        main + tile_values[pos],
                        mult,
                        cross,
                        tiles,
                        start,
                    )
                return
            candidates = mask & cross_masks[pos]
            if not blanks:
                candidates &= rack_bits
            if not candidates:
                return
            base = bases[node]
            accept = accepts[node]
            lm = letter_mult[pos]
            wm = word_mult[pos]
            new_mult = mult * wm
            cross_sum = cross_sums[pos]
            tiles += 1
            while candidates:
                bit = candidates & -candidates
                candidates ^= bit
                letter = bit.bit_length() - 1
                child = kids[base + (mask & (bit - 1)).bit_count()]
                accepted = accept & bit
                if rack_bits & bit:
                    counts[letter] -= 1
                    if not counts[letter]:
                        rack_bits ^= bit
                    value = letter_values[letter] * lm
                    after_right(
                        pos,
                        child,
                        accepted,
                        word + _GLYPHS[letter],
                        main + value,
                        new_mult,
                        cross + (cross_sum + value) * wm if cross_sum >= 0 else cross,
                        tiles,
                        start,
                    )
                    if not counts[letter]:
                        rack_bits ^= bit
                    counts[letter] += 1
                if blanks:
                    blanks -= 1
                    after_right(
                        pos,
                        child,
                        accepted,
                        word + _BLANK_GLYPHS[letter],
                        main,
                        new_mult,
                        cross + cross_sum * wm if cross_sum >= 0 else cross,
                        tiles,
                        start,
                    )
                    blanks += 1

        left(anchor, gaddag.root, "", 0, 1, 0, 0)

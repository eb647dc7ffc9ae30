"""Gordon's GADDAG search along one line of the board (a row for across moves, a column for down).

From an anchor the search walks the GADDAG leftwards, placing rack tiles on empty squares (only
letters the square's cross-check allows) or reading the board's tiles, then crosses the separator
and walks rightwards from the square after the anchor. An accepting edge with a free square (or
the edge of the board) on both ends of the word is a move. The main word's letter sum, its word
multiplier and the cross-words' total are carried along, so every move comes out scored.

The recursion is the hot loop of the word games, so it is written for CPython's speed: the data
are plain lists read through closure locals, the rack is a count list plus a bit mask of the
letters still held, edges are found with one popcount, and the work after placing a letter is
inlined into the loop over candidate letters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gamehall.rules.words.gaddag import ALL_LETTERS, SEPARATOR, Gaddag
from gamehall.rules.words.moves import BINGO_BONUS, BINGO_TILES

SEPARATOR_BIT = 1 << SEPARATOR
SEPARATOR_BELOW = SEPARATOR_BIT - 1
_GLYPHS = [chr(65 + i) for i in range(26)]
_BLANK_GLYPHS = [chr(97 + i) for i in range(26)]

Found = tuple[int, int, str, int]
"""A move found on a line: (score, start position, word, blanks used)."""


@dataclass(frozen=True, slots=True)
class LineSquares:
    """One line of the board as the search reads it, by position along the line.

    ``cells`` holds letter numbers (-1 empty), ``values`` the board tiles' values (0 for a blank
    tile), ``glyphs`` their spelling; ``cross_masks`` the letters an empty square allows and
    ``cross_sums`` the value of the perpendicular word's old tiles (-1: no perpendicular word);
    ``letter_mult``/``word_mult`` the premiums; ``anchors`` the anchor squares.
    """

    cells: list[int]
    values: list[int]
    glyphs: list[str]
    cross_masks: list[int]
    cross_sums: list[int]
    letter_mult: list[int]
    word_mult: list[int]
    anchors: list[bool]


class LineSearch:
    """Every move of a rack on one line, anchor by anchor (see the module docstring)."""

    def __init__(
        self,
        gaddag: Gaddag,
        letter_values: Sequence[int],
        line: LineSquares,
        counts: list[int],
        blanks: int,
        rack_size: int,
        *,
        skip_single_with_cross: bool,
        floor: list[int],
        raise_floor: bool,
    ) -> None:
        """``counts`` (rack tiles per letter) is shared and restored after each search.

        ``skip_single_with_cross`` drops one-tile moves whose tile also forms a perpendicular
        word: on down lines, because the across search finds them already. Moves scoring below
        ``floor[0]`` are not kept; with ``raise_floor`` (the top-move search, ``floor`` shared by
        every line) each kept move raises the floor to its score. Kept moves go to ``found``.
        """
        self.gaddag = gaddag
        self.letter_values = letter_values
        self.line = line
        self.counts = counts
        self.blanks = blanks
        self.rack_size = rack_size
        self.skip_single_with_cross = skip_single_with_cross
        self.floor = floor
        self.raise_floor = raise_floor
        self.found: list[Found] = []
        cells, anchors = line.cells, line.anchors
        last = len(cells) - 1
        # Per position: is the square before it free; may the left walk go on to the square
        # before it (a board tile, or an empty square that is not an anchor); is the square
        # after it free.
        self.free_before = [p == 0 or cells[p - 1] < 0 for p in range(last + 1)]
        self.may_go_left = [p > 0 and (cells[p - 1] >= 0 or not anchors[p - 1]) for p in range(last + 1)]
        self.free_after = [p == last or cells[p + 1] < 0 for p in range(last + 1)]

    def run(self) -> None:
        """Generate every move of this line."""
        for anchor, is_anchor in enumerate(self.line.anchors):
            if is_anchor:
                self.from_anchor(anchor)

    def from_anchor(
        self, anchor: int, *, leftmost: int = 0, rightmost: int = -1, max_tiles: int = 1 << 30
    ) -> None:
        """Generate every move whose leftmost covered anchor is ``anchor``.

        When board tiles follow the anchor, the walk starts at the last of them (the pivot) and
        reads them first: every such move contains them, and starting there confines the
        GADDAG walk to prefixes that end with them. The separator is only crossed once the walk
        has covered the anchor.

        The top-move search narrows the search to words within ``leftmost..rightmost`` (-1: the
        end of the line) placing at most ``max_tiles`` tiles.
        """
        gaddag = self.gaddag
        masks, accepts, bases, kids = gaddag.masks, gaddag.accepts, gaddag.bases, gaddag.children
        line = self.line
        cells, tile_values, glyphs = line.cells, line.values, line.glyphs
        cross_masks, cross_sums = line.cross_masks, line.cross_sums
        letter_mult, word_mult = line.letter_mult, line.word_mult
        letter_values = self.letter_values
        counts = self.counts
        blanks = self.blanks
        rack_size = min(self.rack_size, max_tiles)
        floor = self.floor
        raise_floor = self.raise_floor
        found = self.found
        rack_blanks = self.blanks
        rack_bits = 0
        for letter, count in enumerate(counts):
            if count:
                rack_bits |= 1 << letter
        last = len(cells) - 1
        if rightmost < 0:
            rightmost = last
        free_before, may_go_left, free_after = self.free_before, self.may_go_left, self.free_after
        pivot = anchor
        while pivot < last and cells[pivot + 1] >= 0:
            pivot += 1
        word_ends_at_pivot = free_after[pivot]
        right_start = pivot + 1
        # The square after the pivot is empty (or off the board): what its cross-check accepts.
        right_takes_tile = pivot < last
        right_fixed = 0
        right_cross = cross_masks[right_start] if pivot < last else 0
        skip_single = self.skip_single_with_cross and cross_sums[anchor] >= 0
        sep_bit = SEPARATOR_BIT
        sep_below = SEPARATOR_BIT - 1

        def keep(score: int, start: int, word: str, tiles: int) -> None:
            if tiles == 1 and skip_single:
                return
            if tiles == BINGO_TILES:
                score += BINGO_BONUS
            if score >= floor[0]:
                if raise_floor:
                    floor[0] = score
                found.append((score, start, word, rack_blanks - blanks))

        def left(pos: int, node: int, word: str, main: int, mult: int, cross: int, tiles: int) -> None:
            nonlocal rack_bits, blanks
            mask = masks[node]
            free = free_before[pos] and pos <= anchor
            ends_here = free and word_ends_at_pivot
            go_left = pos > anchor or (may_go_left[pos] and pos > leftmost)
            left_takes_tile = go_left and cells[pos - 1] < 0
            # What the square before accepts: its board letter, or its cross-check.
            left_fixed = 1 << cells[pos - 1] if go_left and not left_takes_tile else 0
            left_cross = cross_masks[pos - 1] if left_takes_tile else 0
            cell = cells[pos]
            if cell >= 0:
                bit = 1 << cell
                if not mask & bit:
                    return
                child = kids[bases[node] + (mask & (bit - 1)).bit_count()]
                word = glyphs[pos] + word
                main += tile_values[pos]
                if ends_here and accepts[node] & bit:
                    keep(main * mult + cross, pos, word, tiles)
                child_mask = masks[child]
                if child_mask:
                    held = ALL_LETTERS if blanks else rack_bits
                    if (
                        go_left
                        and (tiles < rack_size or not left_takes_tile)
                        and child_mask & (left_fixed or left_cross & held)
                    ):
                        left(pos - 1, child, word, main, mult, cross, tiles)
                    if (
                        free
                        and child_mask & sep_bit
                        and pivot < rightmost
                        and (tiles < rack_size or not right_takes_tile)
                    ):
                        after = kids[bases[child] + (child_mask & sep_below).bit_count()]
                        if masks[after] & (right_fixed or right_cross & held):
                            right(right_start, after, word, main, mult, cross, tiles, pos)
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
            has_cross = cross_sum >= 0
            tiles += 1
            more = tiles < rack_size
            do_left = go_left and (more or not left_takes_tile)
            do_right = free and pivot < rightmost and (more or not right_takes_tile)
            while candidates:
                bit = candidates & -candidates
                candidates ^= bit
                letter = bit.bit_length() - 1
                child = kids[base + (mask & (bit - 1)).bit_count()]
                accepted = ends_here and accept & bit
                child_mask = masks[child]
                if rack_bits & bit:
                    counts[letter] -= 1
                    if not counts[letter]:
                        rack_bits ^= bit
                    value = letter_values[letter] * lm
                    new_main = main + value
                    new_cross = cross + (cross_sum + value) * wm if has_cross else cross
                    new_word = _GLYPHS[letter] + word
                    if accepted:
                        keep(new_main * new_mult + new_cross, pos, new_word, tiles)
                    if child_mask:
                        held = ALL_LETTERS if blanks else rack_bits
                        if do_left and child_mask & (left_fixed or left_cross & held):
                            left(pos - 1, child, new_word, new_main, new_mult, new_cross, tiles)
                        if do_right and child_mask & sep_bit:
                            after = kids[bases[child] + (child_mask & sep_below).bit_count()]
                            if masks[after] & (right_fixed or right_cross & held):
                                right(right_start, after, new_word, new_main, new_mult, new_cross, tiles, pos)
                    if not counts[letter]:
                        rack_bits ^= bit
                    counts[letter] += 1
                if blanks:
                    blanks -= 1
                    new_cross = cross + cross_sum * wm if has_cross else cross
                    new_word = _BLANK_GLYPHS[letter] + word
                    if accepted:
                        keep(main * new_mult + new_cross, pos, new_word, tiles)
                    if child_mask:
                        held = ALL_LETTERS if blanks else rack_bits
                        if do_left and child_mask & (left_fixed or left_cross & held):
                            left(pos - 1, child, new_word, main, new_mult, new_cross, tiles)
                        if do_right and child_mask & sep_bit:
                            after = kids[bases[child] + (child_mask & sep_below).bit_count()]
                            if masks[after] & (right_fixed or right_cross & held):
                                right(right_start, after, new_word, main, new_mult, new_cross, tiles, pos)
                    blanks += 1

        def right(
            pos: int, node: int, word: str, main: int, mult: int, cross: int, tiles: int, start: int
        ) -> None:
            nonlocal rack_bits, blanks
            mask = masks[node]
            free = free_after[pos]
            go_right = pos < rightmost
            next_takes_tile = go_right and cells[pos + 1] < 0
            # What the next square accepts: its board letter, or its cross-check.
            next_fixed = 1 << cells[pos + 1] if go_right and not next_takes_tile else 0
            next_cross = cross_masks[pos + 1] if next_takes_tile else 0
            cell = cells[pos]
            if cell >= 0:
                bit = 1 << cell
                if not mask & bit:
                    return
                child = kids[bases[node] + (mask & (bit - 1)).bit_count()]
                word += glyphs[pos]
                main += tile_values[pos]
                if free and accepts[node] & bit:
                    keep(main * mult + cross, start, word, tiles)
                held = ALL_LETTERS if blanks else rack_bits
                if (
                    go_right
                    and (tiles < rack_size or not next_takes_tile)
                    and masks[child] & (next_fixed or next_cross & held)
                ):
                    right(pos + 1, child, word, main, mult, cross, tiles, start)
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
            has_cross = cross_sum >= 0
            tiles += 1
            do_right = go_right and (tiles < rack_size or not next_takes_tile)
            # A tile right of the anchor makes two or more new tiles: keep() inlined below.
            bonus = BINGO_BONUS if tiles == BINGO_TILES else 0
            while candidates:
                bit = candidates & -candidates
                candidates ^= bit
                letter = bit.bit_length() - 1
                child = kids[base + (mask & (bit - 1)).bit_count()]
                accepted = free and accept & bit
                child_mask = masks[child] if do_right else 0
                if rack_bits & bit:
                    counts[letter] -= 1
                    if not counts[letter]:
                        rack_bits ^= bit
                    value = letter_values[letter] * lm
                    new_main = main + value
                    new_cross = cross + (cross_sum + value) * wm if has_cross else cross
                    new_word = word + _GLYPHS[letter]
                    if accepted:
                        score = new_main * new_mult + new_cross + bonus
                        if score >= floor[0]:
                            if raise_floor:
                                floor[0] = score
                            found.append((score, start, new_word, rack_blanks - blanks))
                    if child_mask & (next_fixed or next_cross & (ALL_LETTERS if blanks else rack_bits)):
                        right(pos + 1, child, new_word, new_main, new_mult, new_cross, tiles, start)
                    if not counts[letter]:
                        rack_bits ^= bit
                    counts[letter] += 1
                if blanks:
                    blanks -= 1
                    new_cross = cross + cross_sum * wm if has_cross else cross
                    new_word = word + _BLANK_GLYPHS[letter]
                    if accepted:
                        score = main * new_mult + new_cross + bonus
                        if score >= floor[0]:
                            if raise_floor:
                                floor[0] = score
                            found.append((score, start, new_word, rack_blanks - blanks))
                    if child_mask & (next_fixed or next_cross & (ALL_LETTERS if blanks else rack_bits)):
                        right(pos + 1, child, new_word, main, new_mult, new_cross, tiles, start)
                    blanks += 1

        left(pivot, gaddag.root, "", 0, 1, 0, 0)

    def fill_span(self, start: int, end: int) -> None:
        """Generate every move whose word covers exactly ``start..end``.

        The top-move search uses it for seven-tile spans. With the word's ends fixed, the walk
        starts at the span's first run of board tiles (the pivot is its last tile) and reads
        them before anything else, leftwards to ``start``, then crosses the separator and goes
        on to ``end``; a span without board tiles is read forwards from ``start``. The score is
        a fixed part plus, per new tile, its value times its square's gain (the word multiplier
        of the whole span is known), so a branch that cannot reach the floor even with its best
        remaining tiles on its best remaining squares is cut.
        """
        gaddag = self.gaddag
        masks, accepts, bases, kids = gaddag.masks, gaddag.accepts, gaddag.bases, gaddag.children
        line = self.line
        cells, glyphs, cross_masks = line.cells, line.glyphs, line.cross_masks
        letter_values = self.letter_values
        counts = self.counts
        blanks = self.blanks
        rack_blanks = self.blanks
        floor, raise_floor, found = self.floor, self.raise_floor, self.found
        empties = [p for p in range(start, end + 1) if cells[p] < 0]
        if not empties or len(empties) > self.rack_size:
            return
        if len(empties) == 1 and self.skip_single_with_cross and line.cross_sums[empties[0]] >= 0:
            return
        if not (start == 0 or cells[start - 1] < 0) or not (end == len(cells) - 1 or cells[end + 1] < 0):
            return
        fixed, gains = _span_scoring(line, start, end, empties)
        if len(empties) == BINGO_TILES:
            fixed += BINGO_BONUS
        pivot = start
        while pivot <= end and cells[pivot] < 0:
            pivot += 1
        if pivot > end:
            pivot = start
        while pivot < end and cells[pivot + 1] >= 0:
            pivot += 1
        # The order squares are read in: the pivot leftwards to the start, then (after the
        # separator, when the word goes on) the rest rightwards.
        order = list(range(pivot, start - 1, -1)) + list(range(pivot + 1, end + 1))
        separator_before = pivot + 1 - start
        last_step = len(order) - 1
        # best_gain_after[i]: the largest gain of an empty square read at step i or later.
        best_gain_after = [0] * (len(order) + 1)
        for i in range(last_step, -1, -1):
            best_gain_after[i] = max(best_gain_after[i + 1], gains[order[i] - start])
        rack_bits = 0
        value_left = 0
        for letter, count in enumerate(counts):
            if count:
                rack_bits |= 1 << letter
                value_left += count * letter_values[letter]

        def keep(score: int, word: str) -> None:
            if score >= floor[0]:
                if raise_floor:
                    floor[0] = score
                text = word[separator_before - 1 :: -1] + word[separator_before:]
                found.append((score, start, text, rack_blanks - blanks))

        # Look-ahead, per step: what the next step's node must offer for the walk to go on. The
        # step before the separator needs a separator edge; otherwise the next square's board
        # letter, or (an empty square) its cross-check among the tiles still held; the last
        # square needs an accepting edge.
        ahead_sep = [step + 1 == separator_before for step in range(last_step + 1)]
        ahead_empty = [False] * (last_step + 1)
        ahead_allows = [0] * (last_step + 1)
        ahead_edges = [masks] * (last_step + 1)
        for step in range(last_step):
            after = order[step + 1]
            ahead_empty[step] = cells[after] < 0
            ahead_allows[step] = cross_masks[after] if cells[after] < 0 else 1 << cells[after]
            if step + 1 == last_step:
                ahead_edges[step] = accepts

        def walk(step: int, node: int, word: str, gained: int) -> None:
            """Read the span from ``step`` on; ``word`` holds the letters read (in walk order)."""
            nonlocal rack_bits, blanks, value_left
            # Board tiles (and the separator) leave no choice: follow them in a loop.
            while True:
                if step == separator_before:
                    mask = masks[node]
                    if not mask & SEPARATOR_BIT:
                        return
                    node = kids[bases[node] + (mask & SEPARATOR_BELOW).bit_count()]
                pos = order[step]
                cell = cells[pos]
                if cell < 0:
                    break
                mask = masks[node]
                bit = 1 << cell
                if not mask & bit:
                    return
                word += glyphs[pos]
                if step == last_step:
                    if accepts[node] & bit:
                        keep(fixed + gained, word)
                    return
                node = kids[bases[node] + (mask & (bit - 1)).bit_count()]
                step += 1
            if fixed + gained + value_left * best_gain_after[step] < floor[0]:
                return
            mask = masks[node]
            final = step == last_step
            if not final:
                next_sep = ahead_sep[step]
                next_empty = ahead_empty[step]
                next_allows = ahead_allows[step]
                next_edges = ahead_edges[step]
            gain = gains[pos - start]
            candidates = mask & cross_masks[pos] & (ALL_LETTERS if blanks else rack_bits)
            if final:
                candidates &= accepts[node]
            while candidates:
                bit = candidates & -candidates
                candidates ^= bit
                letter = bit.bit_length() - 1
                child = kids[bases[node] + (mask & (bit - 1)).bit_count()]
                if rack_bits & bit:
                    counts[letter] -= 1
                    if not counts[letter]:
                        rack_bits ^= bit
                    value = letter_values[letter]
                    value_left -= value
                    if final:
                        keep(fixed + gained + value * gain, word + _GLYPHS[letter])
                    elif next_sep:
                        if masks[child] & SEPARATOR_BIT:
                            walk(step + 1, child, word + _GLYPHS[letter], gained + value * gain)
                    elif (
                        next_edges[child]
                        & next_allows
                        & ((ALL_LETTERS if blanks else rack_bits) if next_empty else ALL_LETTERS)
                    ):
                        walk(step + 1, child, word + _GLYPHS[letter], gained + value * gain)
                    value_left += value
                    if not counts[letter]:
                        rack_bits ^= bit
                    counts[letter] += 1
                if blanks:
                    blanks -= 1
                    if final:
                        keep(fixed + gained, word + _BLANK_GLYPHS[letter])
                    elif next_sep:
                        if masks[child] & SEPARATOR_BIT:
                            walk(step + 1, child, word + _BLANK_GLYPHS[letter], gained)
                    elif (
                        next_edges[child]
                        & next_allows
                        & ((ALL_LETTERS if blanks else rack_bits) if next_empty else ALL_LETTERS)
                    ):
                        walk(step + 1, child, word + _BLANK_GLYPHS[letter], gained)
                    blanks += 1

        walk(0, gaddag.root, "", 0)


def _span_scoring(line: LineSquares, start: int, end: int, empties: list[int]) -> tuple[int, list[int]]:
    """A span's score as ``fixed + sum(value * gains[p - start])`` over its new tiles.

    ``fixed`` holds the board tiles of the main word times the word multiplier, and the old
    tiles of each cross-word times its multiplier; a new tile's gain counts it in the main word
    and in its cross-word.
    """
    word_multiplier = 1
    for p in empties:
        word_multiplier *= line.word_mult[p]
    fixed = word_multiplier * sum(line.values[p] for p in range(start, end + 1) if line.cells[p] >= 0)
    gains = [0] * (end - start + 1)
    for p in empties:
        lm, wm, cross_sum = line.letter_mult[p], line.word_mult[p], line.cross_sums[p]
        gains[p - start] = lm * word_multiplier
        if cross_sum >= 0:
            fixed += cross_sum * wm
            gains[p - start] += lm * wm
    return fixed, gains

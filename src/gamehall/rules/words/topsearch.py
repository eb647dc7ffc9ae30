"""The top-move search: anchors best bound first, stopping once no bound can reach the best.

Every anchor of every line gets the score bounds of the spans its moves may cover
(:mod:`gamehall.rules.words.bounds`). Anchors are searched in decreasing order of their best span
bound, and the search stops at the first anchor whose bound is strictly below the best score
found (a tie must still be searched: the tie-break needs every top-scoring move). Within an
anchor the search is confined to the squares and tile count of the spans that can still reach
the best score, and each seven-tile span is filled on its own by a forward walk.

The bingo bonus makes seven-tile spans the loosest bounds, so before a seven-tile span's bound is
trusted it is checked: first whether the rack plus the span's board letters is an anagram of any
word of seven letters or more (a set lookup), then whether a word actually fits the span's
squares and cross-checks. An anchor whose bound drops goes back into the queue.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Sequence

from gamehall.rules.words.bounds import ALL_LETTERS, RackSummary, SpanBound, fillable, span_bounds
from gamehall.rules.words.letters import BLANK
from gamehall.rules.words.linesearch import LineSearch
from gamehall.rules.words.moves import BINGO_TILES

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

QueueItem = tuple[int, int, int, list[SpanBound], set[SpanBound]]
"""(minus the anchor's bound, line search number, anchor, its spans, bingo spans checked)."""


def search_best_first(
    searches: list[LineSearch],
    rack: Sequence[str],
    values: Sequence[int],
    best_score: list[int],
    anagram_keys: frozenset[int],
) -> None:
    """Run the line searches' anchors best bound first; ``best_score[0]`` rises as moves are kept.

    ``anagram_keys`` are the hashes of the sorted letters of every long word of the lexicon
    (:meth:`Lexicon.long_anagram_keys`).
    """
    summary = RackSummary(
        tile_values=sorted((0 if t == BLANK else values[ord(t) - 65] for t in rack), reverse=True),
        letters=sorted({ord(t) - 65 for t in rack if t != BLANK}),
        letter_values=values,
        playable=ALL_LETTERS if BLANK in rack else _rack_bits(rack),
        counts=[sum(1 for t in rack if t == letter) for letter in _ALPHABET],
        blanks=sum(1 for t in rack if t == BLANK),
    )
    queue: list[QueueItem] = []
    for number, search in enumerate(searches):
        for anchor, is_anchor in enumerate(search.line.anchors):
            if is_anchor:
                spans = span_bounds(search.line, anchor, summary)
                if spans:
                    queue.append((-max(spans)[0], number, anchor, spans, set()))
    heapq.heapify(queue)
    anagrams: dict[tuple[int, ...], bool] = {}
    while queue:
        negative_bound, number, anchor, spans, checked = heapq.heappop(queue)
        floor = best_score[0]
        if -negative_bound < floor:
            break
        search = searches[number]
        bingos = [
            span for span in spans if span[3] == BINGO_TILES and span[0] >= floor and span not in checked
        ]
        checked.update(bingos)
        unfit = {span for span in bingos if not _bingo_fits(search, span, summary, anagram_keys, anagrams)}
        if unfit:
            spans = [span for span in spans if span not in unfit]
            if spans:
                heapq.heappush(queue, (-max(spans)[0], number, anchor, spans, checked))
            continue
        # Seven-tile spans are filled one by one, reading forwards; the rest by an anchor search
        # of at most six tiles, confined to their extent. The floor rises as moves are found.
        for span in sorted(spans, reverse=True):
            if span[3] == BINGO_TILES and span[0] >= best_score[0]:
                search.fill_span(span[1], span[2])
        shorter = [span for span in spans if span[3] < BINGO_TILES and span[0] >= best_score[0]]
        if shorter:
            search.from_anchor(
                anchor,
                leftmost=min(span[1] for span in shorter),
                rightmost=max(span[2] for span in shorter),
                max_tiles=max(span[3] for span in shorter),
            )


def _bingo_fits(
    search: LineSearch,
    span: SpanBound,
    rack: RackSummary,
    anagram_keys: frozenset[int],
    anagrams: dict[tuple[int, ...], bool],
) -> bool:
    """Whether a word can cover ``span`` with the whole rack: an anagram first, then the squares."""
    counts = list(rack.counts)
    for cell in search.line.cells[span[1] : span[2] + 1]:
        if cell >= 0:
            counts[cell] += 1
    key = (*counts, rack.blanks)
    if key not in anagrams:
        anagrams[key] = _anagram_exists(counts, rack.blanks, anagram_keys)
    return anagrams[key] and fillable(search.gaddag, search.line, span[1], span[2], rack)


def _anagram_exists(counts: list[int], blanks: int, anagram_keys: frozenset[int]) -> bool:
    """Whether these letters, each blank standing for any letter, spell some long word."""
    letters = "".join(letter * count for letter, count in zip(_ALPHABET, counts, strict=True))
    for jokers in itertools.combinations_with_replacement(_ALPHABET, blanks):
        if hash("".join(sorted(letters + "".join(jokers)))) in anagram_keys:
            return True
    return False


def _rack_bits(rack: Sequence[str]) -> int:
    bits = 0
    for tile in rack:
        if tile != BLANK:
            bits |= 1 << (ord(tile) - 65)
    return bits

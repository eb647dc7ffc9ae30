"""The top-move search: best bound first, stopping once no bound can reach the best.

Every anchor of every line gets the score bounds of the spans its moves may cover
(:mod:`gamehall.rules.words.bounds`). The queue holds, per anchor, its spans of up to six tiles
(searched together by a GADDAG anchor search confined to their extent and tile count), and each
of its seven-tile spans on its own: the bingo bonus makes those the loosest bounds, so each is
first checked against an anagram set (the rack plus the span's board letters must spell some
word of seven letters or more), then filled by a forward walk of that exact span, which cuts
branches that cannot reach the best score. Items are taken best bound first; the search stops
at the first bound strictly below the best score found (a tie must still be searched: the
tie-break needs every top-scoring move).
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from gamehall.rules.words.anagrams import AnagramIndex
from gamehall.rules.words.bounds import RackSummary, SpanBound, line_squares, span_bounds
from gamehall.rules.words.gaddag import ALL_LETTERS
from gamehall.rules.words.letters import BLANK
from gamehall.rules.words.linesearch import LineSearch
from gamehall.rules.words.moves import BINGO_TILES

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

QueueItem = tuple[int, int, int, int, list[SpanBound]]
"""(minus the bound, line search number, anchor, -1 for a bingo span else its anchor search's
rank, the spans it covers)."""


def search_best_first(
    searches: list[LineSearch],
    rack: Sequence[str],
    values: Sequence[int],
    best_score: list[int],
    anagrams: AnagramIndex,
) -> None:
    """Run the searches best bound first; ``best_score[0]`` rises as moves are kept."""
    summary = RackSummary(
        tile_values=sorted((0 if t == BLANK else values[ord(t) - 65] for t in rack), reverse=True),
        letters=sorted({ord(t) - 65 for t in rack if t != BLANK}),
        letter_values=values,
        playable=ALL_LETTERS if BLANK in rack else _rack_bits(rack),
        counts=[sum(1 for t in rack if t == letter) for letter in _ALPHABET],
        blanks=sum(1 for t in rack if t == BLANK),
    )
    # One queue item per seven-tile span (filled on its own), one per anchor for its other spans.
    queue: list[QueueItem] = []
    caps: dict[int, int] = {}
    for number, search in enumerate(searches):
        line = search.line
        squares = line_squares(line, summary, caps)
        for anchor, is_anchor in enumerate(line.anchors):
            if not is_anchor:
                continue
            spans = span_bounds(line, anchor, summary, squares)
            shorter = [span for span in spans if span[3] < BINGO_TILES]
            if shorter:
                queue.append((-max(shorter)[0], number, anchor, 0, shorter))
            queue.extend((-span[0], number, anchor, -1, [span]) for span in spans if span[3] == BINGO_TILES)
    heapq.heapify(queue)
    spelled: dict[tuple[int, ...], bool] = {}
    while queue:
        negative_bound, number, anchor, kind, spans = heapq.heappop(queue)
        floor = best_score[0]
        if -negative_bound < floor:
            break
        search = searches[number]
        if kind < 0:
            (span,) = spans
            if _anagram_fits(search, span, summary, anagrams, spelled):
                search.fill_span(span[1], span[2])
            continue
        hopeful = [span for span in spans if span[0] >= floor]
        search.from_anchor(
            anchor,
            leftmost=min(span[1] for span in hopeful),
            rightmost=max(span[2] for span in hopeful),
            max_tiles=max(span[3] for span in hopeful),
        )


def _anagram_fits(
    search: LineSearch,
    span: SpanBound,
    rack: RackSummary,
    anagrams: AnagramIndex,
    spelled: dict[tuple[int, ...], bool],
) -> bool:
    """Whether the rack plus the span's board letters spell some long word (in any order)."""
    counts = list(rack.counts)
    for cell in search.line.cells[span[1] : span[2] + 1]:
        if cell >= 0:
            counts[cell] += 1
    key = (*counts, rack.blanks)
    if key not in spelled:
        letters = "".join(letter * count for letter, count in zip(_ALPHABET, counts, strict=True))
        # Two blanks match almost anything (and cost 351 lookups): let the span fill decide.
        spelled[key] = rack.blanks >= 2 or anagrams.spells_a_word(letters, rack.blanks)
    return spelled[key]


def _rack_bits(rack: Sequence[str]) -> int:
    bits = 0
    for tile in rack:
        if tile != BLANK:
            bits |= 1 << (ord(tile) - 65)
    return bits

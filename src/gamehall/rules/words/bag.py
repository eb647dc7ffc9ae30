"""The bag of tiles and the duplicate rack draw with its vowel/consonant minimum (note §8.3).

Every draw takes ``bag.pop(rng.below(len(bag)))`` from a bag that starts in letter-set order, so a
seed fixes every rack. The blank counts as a vowel and as a consonant.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from gamehall.rules._core import Rng
from gamehall.rules.words.letters import BLANK, LetterSet

RACK_SIZE = 7
LATE_TURN = 16
"""From this turn on, a duplicate rack needs one vowel and one consonant instead of two of each."""


def draw(bag: list[str], count: int, rng: Rng) -> list[str]:
    """Take up to ``count`` random tiles out of ``bag`` (fewer when the bag runs out)."""
    return [bag.pop(rng.below(len(bag))) for _ in range(min(count, len(bag)))]


def minimum(turn: int) -> int:
    """The vowels (and, as many, consonants) a duplicate rack needs on ``turn``."""
    return 2 if turn < LATE_TURN else 1


def vowels_and_consonants(tiles: Iterable[str], letters: LetterSet) -> tuple[int, int]:
    """How many of ``tiles`` count as vowels and as consonants (a blank counts as both)."""
    vowels = consonants = 0
    for tile in tiles:
        if tile == BLANK:
            vowels += 1
            consonants += 1
        elif tile in letters.vowels:
            vowels += 1
        else:
            consonants += 1
    return vowels, consonants


def meets_minimum(rack: Sequence[str], letters: LetterSet, turn: int) -> bool:
    """Whether ``rack`` holds the vowels and consonants turn ``turn`` requires."""
    vowels, consonants = vowels_and_consonants(rack, letters)
    need = minimum(turn)
    return vowels >= need and consonants >= need


def can_meet_minimum(pool: Sequence[str], letters: LetterSet, turn: int) -> bool:
    """Whether a rack meeting the minimum can still be drawn from ``pool`` (reliquat + bag).

    The game ends (reason ``bag``) when it cannot, or when fewer than two tiles are left.
    """
    return len(pool) >= 2 and meets_minimum(pool, letters, turn)


def draw_duplicate_rack(
    bag: list[str], kept: Sequence[str], rng: Rng, letters: LetterSet, turn: int
) -> tuple[tuple[str, ...], int]:
    """The rack of a duplicate turn and whether the first draw was rejected (1) or not (0).

    The reliquat ``kept`` is topped up to seven. If the rack misses the minimum, all its tiles go
    back to the bag, and the missing vowels are drawn first, then the missing consonants, then
    random tiles up to seven (FISF). The caller checks :func:`can_meet_minimum` first.
    """
    rack = list(kept) + draw(bag, RACK_SIZE - len(kept), rng)
    if meets_minimum(rack, letters, turn):
        return tuple(rack), 0
    bag.extend(rack)
    need = minimum(turn)
    rack = []
    while vowels_and_consonants(rack, letters)[0] < need:
        rack.append(_draw_matching(bag, rng, lambda t: t == BLANK or t in letters.vowels))
    while vowels_and_consonants(rack, letters)[1] < need:
        rack.append(_draw_matching(bag, rng, lambda t: t == BLANK or t not in letters.vowels))
    rack += draw(bag, RACK_SIZE - len(rack), rng)
    return tuple(rack), 1


def _draw_matching(bag: list[str], rng: Rng, wanted: Callable[[str], bool]) -> str:
    positions = [i for i, tile in enumerate(bag) if wanted(tile)]
    return bag.pop(positions[rng.below(len(positions))])


def remove_tiles(rack: Sequence[str], spent: Iterable[str]) -> list[str]:
    """``rack`` without the tiles ``spent`` (``?`` for blanks), order of the rest kept."""
    left = Counter(spent)
    out = []
    for tile in rack:
        if left[tile] > 0:
            left[tile] -= 1
        else:
            out.append(tile)
    return out

"""Which letter multisets spell a long word: the bingo check of the top-move search.

A seven-tile move's word is an anagram of the rack plus the board letters it covers, so before
the top-move search trusts a bingo's score bound it asks whether those letters spell any word of
seven letters or more. The index is a sorted array of 64-bit keys, about 1 MB for ENABLE. A key
is the sum, modulo 2**64, of one fixed pseudo-random number per letter (a multiset hash in the
manner of Zobrist hashing): it ignores letter order, adding a blank's letter is one addition, and
it is the same in every process, so the index lives in the lexicon's disk cache. A key collision
can only answer "maybe" for letters that spell nothing, which is safe: the search then looks.
"""

from __future__ import annotations

import hashlib
import itertools
from array import array
from bisect import bisect_left
from collections.abc import Iterable

LONG_WORD = 7
"""Words this long or longer are indexed: a bingo places seven tiles."""

_MASK = (1 << 64) - 1
_LETTER_KEYS = [
    int.from_bytes(hashlib.blake2b(f"gamehall-anagram-{letter}".encode(), digest_size=8).digest(), "little")
    for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
]
"""The fixed pseudo-random number of each letter A..Z."""


def anagram_key(letters: str) -> int:
    """The index key of a multiset of letters A-Z (any order)."""
    return sum(_LETTER_KEYS[ord(ch) - 65] for ch in letters) & _MASK


def build_anagram_keys(words: Iterable[str]) -> array[int]:
    """The sorted, deduplicated keys of every word of :data:`LONG_WORD` letters or more."""
    return array("Q", sorted({anagram_key(word) for word in words if len(word) >= LONG_WORD}))


class AnagramIndex:
    """Membership of letter multisets among the long words of a lexicon."""

    __slots__ = ("keys",)

    def __init__(self, keys: array[int]) -> None:
        self.keys = keys

    def __len__(self) -> int:
        return len(self.keys)

    def spells_a_word(self, letters: str, blanks: int = 0) -> bool:
        """Whether ``letters`` plus ``blanks`` jokers (each any letter) spell some long word."""
        keys = self.keys
        size = len(keys)
        base = anagram_key(letters)
        for jokers in itertools.combinations_with_replacement(_LETTER_KEYS, blanks):
            key = (base + sum(jokers)) & _MASK
            place = bisect_left(keys, key)
            if place < size and keys[place] == key:
                return True
        return False

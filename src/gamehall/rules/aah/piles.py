"""The four card piles of a table (section 5.3): white and black, each a draw and a discard pile.

Every card is in exactly one place at any time: a draw pile, a discard pile, a hand, or the
current round (submissions, the black card). When a draw pile runs out, its discard pile is
shuffled into it with the table's :class:`Rng`; when both are empty a draw simply gives nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic, TypeVar

from gamehall.rules._core import Rng
from gamehall.rules.aah.cards import BlackCard, WhiteCard

C = TypeVar("C", WhiteCard, BlackCard)


class Pile(Generic[C]):
    """A draw pile and its discard pile for one colour.

    ``cards`` are given top first: the first card is drawn first (tests rely on this to know
    who gets what from a hand-written deck).
    """

    __slots__ = ("_discard", "_draw", "reshuffles")

    def __init__(self, cards: Iterable[C]) -> None:
        self._draw: list[C] = list(cards)
        self._draw.reverse()  # the top of the pile is the end of the list
        self._discard: list[C] = []
        self.reshuffles = 0
        """How often the discard pile was shuffled back (tests check both colours do)."""

    def draw(self, rng: Rng) -> C | None:
        """The top card, reshuffling the discards first if needed; ``None`` if none is left."""
        if not self._draw:
            if not self._discard:
                return None
            self._draw, self._discard = self._discard, []
            rng.shuffle(self._draw)
            self.reshuffles += 1
        return self._draw.pop()

    def discard(self, cards: Iterable[C]) -> None:
        self._discard.extend(cards)

    def available(self) -> int:
        """Cards a draw could still give (draw pile and discard pile together)."""
        return len(self._draw) + len(self._discard)

    @property
    def draw_count(self) -> int:
        return len(self._draw)

    @property
    def discard_count(self) -> int:
        return len(self._discard)

    def cards(self) -> list[C]:
        """Every card of both piles (for the census of tests)."""
        return self._draw + self._discard

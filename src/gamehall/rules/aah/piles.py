"""The four card piles of a table (section 5.3): white and black, each a draw and a discard pile.

Every card is in exactly one place at any time: a draw pile, a discard pile, a hand, or the
current round (submissions, the black card). When a draw pile runs out, its discard pile is
shuffled into it with the table's :class:`Rng`; when both are empty a draw simply gives nothing.
"""

from __future__ import annotations

from array import array
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


class WhitePile:
    """The white draw and discard piles of one table, compact: what a table owns is two arrays
    of indexes into the deck's card texts (shared by every table built from the same packs, an
    immutable tuple) and one array with this table's card id of each text.

    A table used to hold its own :class:`WhiteCard` object per text (about 39 KB a table with
    the bundled pack, hundreds of objects every full garbage collection walked); now a
    :class:`WhiteCard` exists only while the card is out of the piles (in a hand or in play),
    and ``_out`` remembers its index until it is discarded. Draws, reshuffles and ids are the
    same as with a list of cards (same :class:`Rng` calls on sequences of the same length), so
    a seed deals exactly what it dealt before and stored games replay unchanged.

    ``order`` gives the indexes top first, like :class:`Pile`'s cards.
    """

    __slots__ = ("_discard", "_draw", "_ids", "_out", "_texts", "reshuffles")

    def __init__(self, texts: tuple[str, ...], ids: Iterable[int], order: Iterable[int]) -> None:
        self._texts = texts
        self._ids = array("i", ids)
        if len(self._ids) != len(texts):
            raise ValueError("one card id per text")
        code = "H" if len(texts) <= 0xFFFF else "I"
        self._draw = array(code, order)
        self._draw.reverse()  # the top of the pile is the end of the array
        self._discard = array(code)
        self._out: dict[int, int] = {}  # card id -> text index, for cards in hands or in play
        self.reshuffles = 0

    def _card(self, index: int) -> WhiteCard:
        return WhiteCard(self._ids[index], self._texts[index])

    def draw(self, rng: Rng) -> WhiteCard | None:
        """The top card, reshuffling the discards first if needed; ``None`` if none is left."""
        if not self._draw:
            if not self._discard:
                return None
            self._draw, self._discard = self._discard, array(self._draw.typecode)
            rng.shuffle(self._draw)
            self.reshuffles += 1
        index = self._draw.pop()
        card = self._card(index)
        self._out[card.card_id] = index
        return card

    def discard(self, cards: Iterable[WhiteCard]) -> None:
        """Cards this pile dealt go to the discards (a card it never dealt is a bug)."""
        for card in cards:
            self._discard.append(self._out.pop(card.card_id))

    def available(self) -> int:
        return len(self._draw) + len(self._discard)

    @property
    def draw_count(self) -> int:
        return len(self._draw)

    @property
    def discard_count(self) -> int:
        return len(self._discard)

    def cards(self) -> list[WhiteCard]:
        """Every card of both piles (for the census of tests)."""
        return [self._card(index) for index in (*self._draw, *self._discard)]

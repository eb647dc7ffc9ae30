"""The draft of character cards (note 9.2).

In an odd round all eight character cards are shuffled: the first four are this round's
``auswahl``, the other four, in deck order, the next even round's. So over each odd/even pair
every character is activated exactly once. The pickers of activations 1..4 are D, J, J, D in
odd rounds and J, D, D, J in even rounds; the last card left is picked with ``aktiv`` too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gamehall.rules._core import ConfigError, Rng
from gamehall.rules.mrjack.actions import DETEKTIV, MRJACK
from gamehall.rules.mrjack.characters import COLOURS

CARDS_PER_ROUND = 4

ODD_ROUND_PICKERS: tuple[str, ...] = (DETEKTIV, MRJACK, MRJACK, DETEKTIV)
EVEN_ROUND_PICKERS: tuple[str, ...] = (MRJACK, DETEKTIV, DETEKTIV, MRJACK)


def picker(round_number: int, activation: int) -> str:
    """The role that picks activation ``activation`` (1..4) of round ``round_number``."""
    order = ODD_ROUND_PICKERS if round_number % 2 == 1 else EVEN_ROUND_PICKERS
    return order[activation - 1]


@dataclass(slots=True)
class Draft:
    """The character cards of the current round (reveal order, with what was used) and the
    four kept face down for the next even round. ``fixed_decks`` is the test hook of 9.2: one
    eight-card order per odd round, used instead of shuffling while it lasts."""

    cards: list[str] = field(default_factory=list)
    used: list[bool] = field(default_factory=list)
    upcoming: list[str] = field(default_factory=list)
    fixed_decks: list[list[str]] = field(default_factory=list)

    @staticmethod
    def check_fixed_decks(decks: Sequence[Sequence[str]]) -> list[list[str]]:
        """Raises ConfigError unless every deck is the eight colours once each."""
        for deck in decks:
            if sorted(deck) != sorted(COLOURS):
                raise ConfigError("a character deck must list the eight colours once each")
        return [list(deck) for deck in decks]

    def deal(self, round_number: int, rng: Rng) -> None:
        """Reveal the cards of round ``round_number``: shuffle in odd rounds, take the kept
        four in even rounds."""
        if round_number % 2 == 1:
            if self.fixed_decks:
                deck = self.fixed_decks.pop(0)
            else:
                deck = list(COLOURS)
                rng.shuffle(deck)
            self.cards, self.upcoming = deck[:CARDS_PER_ROUND], deck[CARDS_PER_ROUND:]
        else:
            self.cards, self.upcoming = self.upcoming, []
        self.used = [False] * CARDS_PER_ROUND

    def available(self) -> tuple[str, ...]:
        """The cards still to be picked this round, in reveal order."""
        return tuple(c for c, used in zip(self.cards, self.used, strict=True) if not used)

    def take(self, colour: str) -> None:
        self.used[self.cards.index(colour)] = True

    def auswahl(self) -> tuple[tuple[str, bool], ...]:
        """The ``auswahl`` list: each card with ``True`` while still available."""
        return tuple((c, not used) for c, used in zip(self.cards, self.used, strict=True))

    def copy(self) -> Draft:
        decks = [list(d) for d in self.fixed_decks]
        return Draft(list(self.cards), list(self.used), list(self.upcoming), decks)

"""Alibi cards and the informant (note 9.1, 9.5).

At setup the eight alibi cards are shuffled: the first names Mr. Jack, the other seven form
the alibi deck. A character that ends its own ``bewegen`` on the talkative informant lets the
active player draw the top card (``update_Alibi``, to that player only); the player then moves
the informant to an empty street hex and it stays silent until the next round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gamehall.rules._core import ConfigError, Rng, Seat
from gamehall.rules.mrjack.characters import COLOURS


@dataclass(slots=True)
class AlibiDeck:
    """Mr. Jack's colour, the face-down alibi deck (top first) and what each seat drew."""

    jack: str
    deck: list[str]
    drawn: dict[Seat, list[str]] = field(default_factory=dict)

    @classmethod
    def deal(cls, rng: Rng, fixed_order: Sequence[str] | None = None) -> AlibiDeck:
        """Shuffle the eight alibi cards (or take ``fixed_order``, the test hook of 9.2):
        the first is Mr. Jack, the rest is the deck.

        Raises:
            ConfigError: ``fixed_order`` is not the eight colours.
        """
        if fixed_order is None:
            cards = list(COLOURS)
            rng.shuffle(cards)
        else:
            cards = list(fixed_order)
            if sorted(cards) != sorted(COLOURS):
                raise ConfigError("an alibi order must list the eight colours once each")
        return cls(jack=cards[0], deck=cards[1:])

    def draw(self, seat: Seat) -> str | None:
        """The top card for ``seat``, or ``None`` when the deck is empty."""
        if not self.deck:
            return None
        card = self.deck.pop(0)
        self.drawn.setdefault(seat, []).append(card)
        return card

    def copy(self) -> AlibiDeck:
        return AlibiDeck(self.jack, list(self.deck), {s: list(c) for s, c in self.drawn.items()})

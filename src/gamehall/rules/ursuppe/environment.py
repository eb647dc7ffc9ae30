"""Environment cards (Umweltkarten): drift direction and ozone layer thickness (note 3.5).

The real card values are unknown, so the default deck of 11 cards is the project's own and
can be replaced per table through the ``environment_deck`` setting (a list of ``"d:o"``
strings). The deck is shuffled with the table's Rng unless ``shuffle_deck`` is off (fixed order
for tests and tournaments). The first card is face up from the moment the table exists; each
phase 2 reveals the next one (A4), and the round that reveals the last card is the last round.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamehall.rules._core import ConfigError


@dataclass(frozen=True, slots=True)
class EnvironmentCard:
    """``stroemungsrichtung`` 1-5 (5 = no drift) and ``ozonschichtdicke``."""

    stroemungsrichtung: int
    ozonschichtdicke: int

    def text(self) -> str:
        return f"{self.stroemungsrichtung}:{self.ozonschichtdicke}"


DEFAULT_DECK: tuple[str, ...] = (
    "2:10", "1:14", "3:9", "4:10", "1:12", "3:13", "2:16", "1:8", "3:12", "4:12", "5:11",
)  # fmt: skip
"""The note's default deck: W 3x, E 3x, N and S 2x each, one card without drift."""


def parse_deck(texts: list[str]) -> list[EnvironmentCard]:
    """Cards from ``"direction:ozone"`` strings.

    Raises:
        ConfigError: a malformed card, a direction outside 1..5, a negative ozone value, or
            fewer than two cards (one face up at the start plus one to reveal).
    """
    cards = []
    for text in texts:
        parts = text.split(":")
        try:
            direction, ozone = (int(part) for part in parts)
        except ValueError:
            raise ConfigError(f"environment card {text!r} must be 'direction:ozone'") from None
        if not 1 <= direction <= 5 or ozone < 0:
            raise ConfigError(f"environment card {text!r}: direction 1..5 and ozone >= 0")
        cards.append(EnvironmentCard(direction, ozone))
    if len(cards) < 2:
        raise ConfigError("the environment deck needs at least two cards")
    return cards

"""Cards of Apps Against Humanity: what a white and a black card are, and a pack of them.

White cards get their ids when a table builds its deck (section 5.3 of the note): a pack holds
plain texts, a game holds :class:`WhiteCard` objects with ids unique within that game.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class WhiteCard:
    """A white (answer) card in a game: ``card_id`` is unique in the game, in ``[1, 2**31-1]``."""

    card_id: int
    text: str

    def __deepcopy__(self, memo: dict[int, object]) -> WhiteCard:
        """Immutable: a copy of a game (a cross-node check, hall/replica.py) shares it."""
        return self


@dataclass(frozen=True, slots=True)
class BlackCard:
    """A black (prompt) card: play ``pick`` white cards (1-3); ``draw`` is 2 for "Draw 2,
    Pick 3" cards (the non-czar seats draw two extra cards first), else 1."""

    text: str
    pick: int = 1
    draw: int = 1

    def __deepcopy__(self, memo: dict[int, object]) -> BlackCard:
        """Immutable: a copy of a game shares it."""
        return self


@dataclass(frozen=True, slots=True)
class Pack:
    """A named set of card texts, as loaded from a deck file."""

    name: str
    whites: tuple[str, ...]
    blacks: tuple[BlackCard, ...]
    license: str = ""

    def __deepcopy__(self, memo: dict[int, object]) -> Pack:
        """Immutable: a copy of a game shares it."""
        return self

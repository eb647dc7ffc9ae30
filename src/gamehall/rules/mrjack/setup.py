"""The test hook of note 9.2: games created with a fixed Mr. Jack, alibi order and character
decks, so rule cases and transcripts can name their colours. The hall never uses it; random
games get everything from the table's seeded :class:`~gamehall.rules._core.Rng`."""

from __future__ import annotations

from dataclasses import dataclass

from gamehall.rules._core import ConfigError
from gamehall.rules.mrjack.characters import COLOURS


@dataclass(frozen=True, slots=True)
class Setup:
    """The test hook of note 9.2: a fixed Mr. Jack, alibi order and character decks.

    ``alibi_order`` lists all eight colours, Mr. Jack first; ``jack`` alone puts Mr. Jack first
    and shuffles the rest. ``character_decks`` gives one eight-card order per odd round, used
    instead of shuffling while they last.
    """

    jack: str | None = None
    alibi_order: tuple[str, ...] | None = None
    character_decks: tuple[tuple[str, ...], ...] = ()


def check_setup(setup: Setup) -> Setup:
    """Refuse a :class:`Setup` that names an unknown colour or is not a full alibi order.

    Raises:
        ConfigError: see above.
    """
    if setup.jack is not None and setup.jack not in COLOURS:
        raise ConfigError(f"unknown colour for Mr. Jack: {setup.jack!r}")
    if setup.alibi_order is not None:
        if sorted(setup.alibi_order) != sorted(COLOURS):
            raise ConfigError("an alibi order must list the eight colours once each")
        if setup.jack is not None and setup.alibi_order[0] != setup.jack:
            raise ConfigError("the alibi order must start with Mr. Jack")
    return setup

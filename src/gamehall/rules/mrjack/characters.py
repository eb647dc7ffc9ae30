"""The eight characters (note 3.1): colour terms, who they are, their abilities and start hexes.

The seed names a character by its token colour (``Farbe``: ``rot``, ``gelb``, ...). Which
character wears which colour is not known for the 2009 edition, so the note defines it in one
table, the ``colour_map`` rule option: the list of character keys in canonical colour order.
Everything about a character (ability, start hex, whether it flies) hangs off its key; the
engine looks the key up through the colour once, in :class:`Cast`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gamehall.rules._core import ConfigError

COLOURS: tuple[str, ...] = ("rot", "gelb", "braun", "gruen", "beige", "schwarz", "lila", "weiss")
"""The ``Farbe`` terms in canonical colour order (3)."""


class Ability(enum.Enum):
    """The eight special abilities (9.4), one per character."""

    MOVE_INVESTIGATION_TILE = "move_investigation_tile"  # Callahan
    PLACE_GAS_LAMP = "place_gas_lamp"  # Latimer
    PLACE_METRO = "place_metro"  # Beach
    TURN_TO_PARK = "turn_to_park"  # Grant
    PLACE_BUILDING_SITE = "place_building_site"  # Cloud Rider
    MOVE_OTHER_CHARACTER = "move_other_character"  # Eastman
    SWAP_CHARACTERS = "swap_characters"  # Tumblety
    MOVE_STEAMER = "move_steamer"  # Smith


@dataclass(frozen=True, slots=True)
class Character:
    """A character card: key, full name, ability and start hex (10.3)."""

    key: str
    name: str
    ability: Ability
    start: str


CHARACTERS: Mapping[str, Character] = {
    c.key: c
    for c in (
        Character("callahan", "James H. Callahan", Ability.MOVE_INVESTIGATION_TILE, "g5"),
        Character("latimer", "Lewis Howard Latimer", Ability.PLACE_GAS_LAMP, "f5"),
        Character("beach", "Alfred Ely Beach", Ability.PLACE_METRO, "f6"),
        Character("grant", "Mrs. Emma Grant", Ability.TURN_TO_PARK, "k4"),
        Character("cloudrider", "Cloud Rider", Ability.PLACE_BUILDING_SITE, "j5"),
        Character("eastman", "Monk Eastman", Ability.MOVE_OTHER_CHARACTER, "i3"),
        Character("tumblety", "Francis J. Tumblety", Ability.SWAP_CHARACTERS, "i6"),
        Character("smith", "Edward Smith", Ability.MOVE_STEAMER, "k5"),
    )
}
"""Every character by key."""

DEFAULT_COLOUR_MAP: tuple[str, ...] = (
    "callahan",
    "latimer",
    "beach",
    "grant",
    "cloudrider",
    "eastman",
    "tumblety",
    "smith",
)
"""Our colour table (3.1): the character key of each colour, in canonical colour order."""


class Cast:
    """Which character each colour denotes in one game (the ``colour_map`` option)."""

    def __init__(self, colour_map: Sequence[str] = DEFAULT_COLOUR_MAP) -> None:
        check_colour_map(colour_map)
        self._by_colour = {colour: CHARACTERS[key] for colour, key in zip(COLOURS, colour_map, strict=True)}

    def character(self, colour: str) -> Character:
        return self._by_colour[colour]

    def ability(self, colour: str) -> Ability:
        return self._by_colour[colour].ability

    def colour_of(self, ability: Ability) -> str:
        """The colour whose character has ``ability``."""
        for colour, character in self._by_colour.items():
            if character.ability is ability:
                return colour
        raise KeyError(ability)

    def keys(self) -> dict[str, str]:
        """Colour -> character key, in canonical colour order (for views)."""
        return {colour: self._by_colour[colour].key for colour in COLOURS}

    def start_positions(self) -> dict[str, str]:
        """Colour -> start hex."""
        return {colour: self._by_colour[colour].start for colour in COLOURS}


def check_colour_map(colour_map: Sequence[str]) -> None:
    """Refuse a ``colour_map`` that is not a bijection onto the eight character keys.

    Raises:
        ConfigError: wrong length, unknown key or a key twice.
    """
    if sorted(colour_map) != sorted(CHARACTERS):
        raise ConfigError(
            "colour_map must list each character key once, in colour order "
            f"{', '.join(COLOURS)}: {', '.join(sorted(CHARACTERS))}"
        )

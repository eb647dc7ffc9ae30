"""The settings of a Mr. Jack room (note section 11) as one :class:`ConfigSchema` ``"mrjack"``,
and :class:`Rules`, the typed view of the rule options the engine reads.

Every open rule question of the note is a named option here with the note's default, so a
room can be created with another reading without code changes. :func:`check_config` adds the
checks one setting alone cannot express (``colour_map`` is a bijection, the tile supply covers
the tiles already printed in the starting layout).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gamehall.rules._config import ConfigSchema, Setting
from gamehall.rules._core import JSON, ConfigError
from gamehall.rules.mrjack.board import START_TILES
from gamehall.rules.mrjack.characters import DEFAULT_COLOUR_MAP, check_colour_map

SCHEMA = ConfigSchema(
    "mrjack",
    [
        Setting(
            "turn_timeout_s",
            300,
            "int",
            0,
            3600,
            help="Seconds the awaited player has for each command (0 = no limit).",
        ),
        Setting(
            "turn_timeout_action",
            "forfeit",
            "choice",
            choices=("forfeit", "default_move"),
            help="forfeit: the silent player loses (note 12); default_move: play the first legal option.",
        ),
        Setting(
            "round_end_mode",
            "server",
            "choice",
            choices=("server", "detective"),
            help="server: innocents are marked at once; detective: the detective marks, then fertig.",
        ),
        Setting(
            "round_end_timeout_s",
            120,
            "int",
            1,
            3600,
            help="Seconds the detective has to mark suspects in detective mode.",
        ),
        Setting(
            "colour_map",
            list(DEFAULT_COLOUR_MAP),
            "list",
            help="Character key of each colour, in the order rot gelb braun gruen beige schwarz lila weiss.",
        ),
        Setting("min_move", 1, "int", 0, 1, help="1: a move is 1-3 steps; 0: the move may be left out."),
        Setting(
            "cloud_rider_flies",
            True,
            "bool",
            help="Cloud Rider passes over buildings and building sites (never stops on them).",
        ),
        Setting("park_hides", True, "bool", help="A character on a park is never seen."),
        Setting("tumblety_optional", True, "bool", help="Tumblety's swap may be skipped."),
        Setting("monk_own_move", False, "bool", help="Monk Eastman may move himself instead of another."),
        Setting(
            "ability_skip",
            "strict",
            "choice",
            choices=("strict", "always"),
            help="strict: an ability with a target must be used; always: any ability may be skipped.",
        ),
        Setting(
            "informant_relocate",
            True,
            "bool",
            help="The consulting player moves the informant to an empty street hex.",
        ),
        Setting(
            "informant_reactivate",
            "next_round",
            "choice",
            choices=("next_round", "never"),
            help="When a consulted informant talks again.",
        ),
        Setting("tile_target", "empty_street", "choice", choices=("empty_street",)),
        Setting("steamer_target", "free_port", "choice", choices=("free_port",)),
        Setting("investigation_target", "adjacent_empty_pair", "choice", choices=("adjacent_empty_pair",)),
        Setting("tile_supply_metro", 7, "int", 3, 30, help="Metro tiles in the box (3 start on the board)."),
        Setting("tile_supply_laterne", 6, "int", 2, 30, help="Gas-lamp tiles in the box (2 start on it)."),
        Setting("tile_supply_haus", 4, "int", 0, 30, help="Building-site tiles in the box."),
        Setting(
            "spion_broadcast",
            True,
            "bool",
            help="update_Spion goes to everyone (true) or to the consulting player only (seed).",
        ),
        Setting(
            "rejoin_grace",
            60,
            "int",
            0,
            3600,
            help="Seconds a dropped player's seat is held (0: a drop is a forfeit, note 12).",
        ),
        # server options of the term protocol (note 11), set like room defaults so one
        # --set mrjack.KEY=VALUE reaches them; the engine itself does not read them
        Setting(
            "wire_style",
            "prolog",
            "choice",
            choices=("prolog", "plain"),
            help="Output style of the term protocol.",
            internal=True,
        ),
        Setting(
            "max_games",
            50,
            "int",
            1,
            1000,
            help="Most Mr. Jack games the term protocol opens at once.",
            internal=True,
        ),
    ],
)


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule options of one game, typed. Built once from a validated config."""

    turn_timeout_s: int
    turn_timeout_forfeits: bool
    detective_marks: bool
    round_end_timeout_s: int
    colour_map: tuple[str, ...]
    min_move: int
    cloud_rider_flies: bool
    park_hides: bool
    tumblety_optional: bool
    monk_own_move: bool
    ability_skip_always: bool
    informant_relocate: bool
    informant_reactivates: bool
    tile_supply: Mapping[str, int]
    spion_broadcast: bool

    @classmethod
    def from_config(cls, config: Mapping[str, JSON]) -> Rules:
        colour_map = config["colour_map"]
        assert isinstance(colour_map, list)
        return cls(
            turn_timeout_s=int(config["turn_timeout_s"]),
            turn_timeout_forfeits=config["turn_timeout_action"] == "forfeit",
            detective_marks=config["round_end_mode"] == "detective",
            round_end_timeout_s=int(config["round_end_timeout_s"]),
            colour_map=tuple(str(key) for key in colour_map),
            min_move=int(config["min_move"]),
            cloud_rider_flies=bool(config["cloud_rider_flies"]),
            park_hides=bool(config["park_hides"]),
            tumblety_optional=bool(config["tumblety_optional"]),
            monk_own_move=bool(config["monk_own_move"]),
            ability_skip_always=config["ability_skip"] == "always",
            informant_relocate=bool(config["informant_relocate"]),
            informant_reactivates=config["informant_reactivate"] == "next_round",
            tile_supply={
                "metro": int(config["tile_supply_metro"]),
                "laterne": int(config["tile_supply_laterne"]),
                "haus": int(config["tile_supply_haus"]),
            },
            spion_broadcast=bool(config["spion_broadcast"]),
        )


def check_config(given: Mapping[str, Any]) -> dict[str, JSON]:
    """A complete, valid config: defaults filled in, every value and the cross-checks done.

    Raises:
        ConfigError: unknown key, bad value, a ``colour_map`` that is not a bijection, or a
            tile supply smaller than the tiles of the starting layout.
    """
    config = SCHEMA.validate(given)
    colour_map = config["colour_map"]
    assert isinstance(colour_map, list)
    check_colour_map(colour_map)
    for art in ("metro", "laterne", "haus"):
        on_board = sum(1 for side in START_TILES.values() if side == art)
        if int(config[f"tile_supply_{art}"]) < on_board:
            raise ConfigError(f"tile_supply_{art} must be at least {on_board} (tiles of the starting layout)")
    return config


SCHEMA.present(
    {
        "turn_timeout_s": (
            "Timing",
            "Seconds per command",
            "Time the awaited player has for each command (0: no limit).",
        ),
        "turn_timeout_action": (
            "Timing",
            "When time runs out",
            "What happens to a player who does not answer in time.",
        ),
        "round_end_mode": (
            "Rules",
            "Marking the innocent",
            "Who marks the cleared suspects at the end of a round.",
        ),
        "round_end_timeout_s": (
            "Timing",
            "Seconds to mark suspects",
            "Time the detective has to mark suspects (detective marking only).",
        ),
        "min_move": (
            "Rules",
            "A move may be left out",
            "0: a character may stay where it is; 1: every move is 1 to 3 steps.",
        ),
        "cloud_rider_flies": (
            "Rules",
            "Cloud Rider flies",
            "Cloud Rider passes over buildings and building sites.",
        ),
        "park_hides": ("Rules", "Parks hide", "A character standing on a park is never seen."),
        "tumblety_optional": ("Rules", "Tumblety's swap is optional", "Tumblety may skip his swap."),
        "monk_own_move": (
            "Rules",
            "Monk Eastman moves himself",
            "Monk Eastman may move himself instead of another character.",
        ),
        "ability_skip": ("Rules", "Skipping abilities", "Whether an ability with a target must be used."),
        "informant_relocate": (
            "Rules",
            "Informant moves",
            "The consulting player moves the informant to an empty street.",
        ),
        "informant_reactivate": (
            "Rules",
            "Informant talks again",
            "When a consulted informant may be consulted again.",
        ),
        "tile_supply_metro": ("Tiles", "Metro tiles", "Metro tiles in the box (3 start on the board)."),
        "tile_supply_laterne": (
            "Tiles",
            "Gas-lamp tiles",
            "Gas-lamp tiles in the box (2 start on the board).",
        ),
        "tile_supply_haus": ("Tiles", "Building-site tiles", "Building-site tiles in the box."),
        "spion_broadcast": (
            "Rules",
            "Informant's report to everyone",
            "What the informant says reaches everyone, not only the consulting player.",
        ),
    },
    server=(
        "colour_map",
        "tile_target",
        "steamer_target",
        "investigation_target",
        "rejoin_grace",
        "wire_style",
        "max_games",
    ),
    choice_labels={
        "turn_timeout_action": {
            "forfeit": "The player loses",
            "default_move": "The first legal move is played",
        },
        "round_end_mode": {"server": "At once, by the server", "detective": "By the detective"},
        "ability_skip": {"strict": "Must be used when possible", "always": "May always be skipped"},
        "informant_reactivate": {"next_round": "From the next round", "never": "Never"},
    },
)

"""The settings of an AAH table (section 5.1 of the note), as one :class:`ConfigSchema`.

Every setting is declared once here with its default and range, so a table created from the
browser, the command line or a config file is checked the same way. :func:`check_config` adds
the one rule a single setting cannot express (``min_players <= playermax``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamehall.rules._config import ConfigSchema, Setting
from gamehall.rules._core import JSON, ConfigError

BUNDLED_PACK = "gamehall Original"
"""The project's own deck, selected by default."""

SCHEMA = ConfigSchema(
    "aah",
    [
        Setting("playermax", 5, "int", 3, 8, help="Seats at the table (reported in META)."),
        Setting("min_players", 3, "int", 2, 8, help="Seats needed to start and to go on (2 for tests)."),
        Setting("aplimit", 8, "int", 2, 100, help="Awesome Points needed to win (win at >=)."),
        Setting("timeout", 30, "int", 15, 60, help="Seconds to pick cards; the Card Czar gets twice that."),
        Setting(
            "round_gap",
            5,
            "float",
            0.1,
            30,
            help="Seconds between the end of a round and the next (fractions for fast test tables).",
        ),
        Setting(
            "czar_mode",
            "sequential",
            "choice",
            choices=("sequential", "random", "winner"),
            help="How the next Card Czar is chosen.",
        ),
        Setting(
            "draw_mode",
            "refill",
            "choice",
            choices=("refill", "legacy"),
            help="refill: top hands up to 10 each round; legacy: draw like AAH 0.2.0.",
        ),
        Setting("pick1_only", False, "bool", help="Leave out black cards that ask for more than one card."),
        Setting("packs", [BUNDLED_PACK], "list", help="Names of the card packs to play with."),
        Setting("chat_enabled", True, "bool", help="Whether chat is relayed at this table."),
        Setting(
            "kick_after_skips",
            0,
            "int",
            0,
            10,
            help="Consecutive timeouts before a seat is kicked (0 = never).",
        ),
        Setting("rejoin_grace", 60, "int", 0, 600, help="Seconds a dropped seat is held (0 = not held)."),
        Setting(
            "autostart_delay",
            15,
            "int",
            0,
            300,
            help="Countdown once enough seats are taken (0 = no autostart).",
        ),
        Setting("legacy_open", True, "bool", help="Whether a legacy JOIN may land at this table."),
        Setting("ruleset", "Standard", "choice", choices=("Standard",), help="Rules name (META only)."),
        Setting(
            "max_tables", 16, "int", 1, 1000, help="Most AAH tables the server hosts at once.", internal=True
        ),
    ],
)


def check_config(given: Mapping[str, Any]) -> dict[str, JSON]:
    """A complete, valid table config: defaults filled in, each value and the pair
    ``min_players``/``playermax`` checked.

    Raises:
        ConfigError: unknown key, bad value, or ``min_players`` above ``playermax``.
    """
    config = SCHEMA.validate(given)
    if config["min_players"] > config["playermax"]:
        raise ConfigError(
            f"min_players ({config['min_players']}) must not exceed playermax ({config['playermax']})"
        )
    return config


SCHEMA.present(
    {
        "playermax": ("Table", "Seats at the table", "Players who can sit down (3 to 8)."),
        "aplimit": ("Table", "Points to win", "Awesome Points a player needs to win the game."),
        "packs": ("Cards", "Card packs", "Names of the card packs to play with, separated by commas."),
        "pick1_only": (
            "Cards",
            "Only one-card questions",
            "Leave out black cards that ask for two or three cards.",
        ),
        "czar_mode": ("Rounds", "Next Card Czar", "Who judges the next round."),
        "draw_mode": ("Rounds", "Dealing", "How hands are refilled after each round."),
        "timeout": (
            "Timing",
            "Seconds to pick",
            "Time to play cards; the Card Czar gets twice as long to judge.",
        ),
        "round_gap": ("Timing", "Seconds between rounds", "Pause after a round's winner is shown."),
        "autostart_delay": (
            "Timing",
            "Autostart countdown",
            "Seconds before the game starts once enough players sit (0: start by hand).",
        ),
        "legacy_open": (
            "Table",
            "Open to AAH clients",
            "Classic AAH clients may be seated here by the server's JOIN.",
        ),
    },
    server=("min_players", "chat_enabled", "kick_after_skips", "rejoin_grace", "ruleset", "max_tables"),
    choice_labels={
        "czar_mode": {
            "sequential": "Everyone in turn",
            "random": "Random",
            "winner": "The last round's winner",
        },
        "draw_mode": {"refill": "Refill hands to 10", "legacy": "Draw like AAH 0.2.0"},
    },
)

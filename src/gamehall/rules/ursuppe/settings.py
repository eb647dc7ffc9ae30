"""The settings of an Ursuppe table, as one :class:`ConfigSchema` (note sections 3-4, 9-11).

Everything the note marks as configurable is declared here once: the number of players, the
time per request, the environment deck and whether it is shuffled, the board layout and the
ladder. :func:`check_config` adds the checks one setting alone cannot express.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamehall.rules._config import ConfigSchema, Setting
from gamehall.rules._core import JSON, ConfigError
from gamehall.rules.ursuppe.board import LAYOUTS
from gamehall.rules.ursuppe.environment import DEFAULT_DECK, parse_deck

SCHEMA = ConfigSchema(
    "ursuppe",
    [
        Setting("players", 3, "int", 3, 4, help="Seats at the table; the game starts when all are taken."),
        Setting(
            "timeout_ms",
            30000,
            "int",
            0,
            3600000,
            help="Milliseconds per request (0 = no limit, else 100..3600000); ready waits 3x.",
        ),
        Setting(
            "environment_deck",
            list(DEFAULT_DECK),
            "list",
            high=64,
            help="Environment cards as 'direction:ozone' (direction 5 = no drift).",
        ),
        Setting(
            "shuffle_deck", True, "bool", help="Shuffle the deck with the table's seed (off: fixed order)."
        ),
        Setting("board_layout", "A", "choice", choices=tuple(LAYOUTS), help="Board mask (B = A rotated)."),
        Setting("ladder_length", 50, "int", 10, 200, help="LAENGE_LAUFBAHN: spaces on the score track."),
        Setting("finish_zone", 10, "int", 1, 100, help="LAENGE_ZIELZONE: the game ends at length - zone."),
        # server options of the UrServer protocol (note 2 and 11), set like room defaults so
        # one --set ursuppe.KEY=VALUE reaches them; the engine itself does not read them
        Setting(
            "urserver_charset",
            "utf-8",
            "choice",
            choices=("utf-8", "latin-1"),
            help="Encoding of UrServer lines (latin-1 for the oldest clients).",
            internal=True,
        ),
        Setting(
            "max_games",
            50,
            "int",
            1,
            1000,
            help="Most Ursuppe games the UrServer lobby holds at once.",
            internal=True,
        ),
    ],
)


def check_config(given: Mapping[str, Any]) -> dict[str, JSON]:
    """A complete, valid table config: defaults filled in, each value checked.

    Raises:
        ConfigError: unknown key, bad value, a timeout in 1..99, a bad deck, or a finish zone
            not shorter than the ladder.
    """
    config = SCHEMA.validate(given)
    timeout = int(config["timeout_ms"])
    if 0 < timeout < 100:
        raise ConfigError("timeout_ms must be 0 or between 100 and 3600000")
    deck = config["environment_deck"]
    assert isinstance(deck, list)
    parse_deck(deck)
    if int(config["finish_zone"]) >= int(config["ladder_length"]):
        raise ConfigError("finish_zone must be shorter than ladder_length")
    return config


SCHEMA.present(
    {
        "players": ("Table", "Players", "Seats at the table (3 or 4); the game starts when all are taken."),
        "timeout_ms": (
            "Timing",
            "Milliseconds per decision",
            "Time for each request (0: no limit, else at least 100); getting ready may take 3x as long.",
        ),
        "board_layout": (
            "Board",
            "Board layout",
            "Which of the two boards is played (B is A turned around).",
        ),
        "ladder_length": ("Board", "Score track length", "Spaces on the score track."),
        "finish_zone": (
            "Board",
            "Finish zone",
            "The game ends when someone reaches the track's length minus this many spaces.",
        ),
        "shuffle_deck": (
            "Environment",
            "Shuffle the environment cards",
            "Off: the cards come in the order listed.",
        ),
        "environment_deck": (
            "Environment",
            "Environment cards",
            "Cards as direction:ozone, separated by commas (direction 5: no drift).",
        ),
    },
    server=("urserver_charset", "max_games"),
    choice_labels={"board_layout": {"A": "A", "B": "B (A turned around)"}},
)

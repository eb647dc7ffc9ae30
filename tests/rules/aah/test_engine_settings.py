"""Section 5.1: every table setting with its default and range, and the game type the hall
registers."""

from __future__ import annotations

import pytest

from gamehall.rules._core import ConfigError, Game
from gamehall.rules.aah import ACTIONS, GAME_TYPE, SCHEMA, Judge, Pick, check_config

DEFAULTS = {
    "playermax": 5,
    "min_players": 3,
    "aplimit": 8,
    "timeout": 30,
    "round_gap": 5,
    "czar_mode": "sequential",
    "draw_mode": "refill",
    "pick1_only": False,
    "packs": ["gamehall Original"],
    "chat_enabled": True,
    "kick_after_skips": 0,
    "rejoin_grace": 60,
    "autostart_delay": 15,
    "legacy_open": True,
    "ruleset": "Standard",
    "max_tables": 16,
}


def test_defaults_are_those_of_the_note() -> None:
    assert SCHEMA.defaults() == DEFAULTS
    assert check_config({}) == DEFAULTS


@pytest.mark.parametrize(
    ("key", "low", "high"),
    [
        ("playermax", 3, 8),
        ("aplimit", 2, 100),
        ("timeout", 15, 60),
        ("round_gap", 1, 30),
        ("kick_after_skips", 0, 10),
        ("rejoin_grace", 0, 600),
        ("autostart_delay", 0, 300),
        ("max_tables", 1, 1000),
    ],
)
def test_ranges_are_inclusive(key: str, low: int, high: int) -> None:
    extra = {"min_players": 2} if key == "playermax" else {}
    assert check_config({key: low, **extra})[key] == low
    assert check_config({key: high})[key] == high
    with pytest.raises(ConfigError):
        check_config({key: low - 1, **extra})
    with pytest.raises(ConfigError):
        check_config({key: high + 1})


@pytest.mark.parametrize(
    ("key", "bad"),
    [("czar_mode", "oldest"), ("draw_mode", "double"), ("ruleset", "House"), ("pick1_only", "yes")],
)
def test_choices_and_types_are_checked(key: str, bad: object) -> None:
    with pytest.raises(ConfigError):
        check_config({key: bad})


def test_min_players_may_not_exceed_playermax() -> None:
    assert check_config({"min_players": 2, "playermax": 3})["min_players"] == 2
    with pytest.raises(ConfigError, match="min_players"):
        check_config({"min_players": 4, "playermax": 3})


def test_unknown_setting_is_refused() -> None:
    with pytest.raises(ConfigError):
        check_config({"gambling": True})


def test_game_type_builds_a_table_in_the_lobby_with_the_bundled_deck() -> None:
    assert GAME_TYPE.game_id == "aah"
    assert GAME_TYPE.title == "Apps Against Humanity"
    table = GAME_TYPE.new_game(SCHEMA.defaults(), 7)
    assert isinstance(table, Game)
    assert not table.started and not table.finished
    assert table.view(None)["phase"] == "lobby"


def test_new_game_refuses_bad_cross_field_config() -> None:
    with pytest.raises(ConfigError):
        GAME_TYPE.new_game({**SCHEMA.defaults(), "min_players": 6, "playermax": 5}, 1)


def test_new_game_refuses_unknown_pack() -> None:
    with pytest.raises(ConfigError):
        GAME_TYPE.new_game({**SCHEMA.defaults(), "packs": ["No such pack"]}, 1)


def test_actions_round_trip_through_the_codec() -> None:
    for action in (Pick((5120,)), Pick((31, 32)), Judge(88317)):
        assert ACTIONS.decode(ACTIONS.encode(action)) == action

"""The dk.* rule keys: names, defaults, validation and effective values (note §6.6)."""

from __future__ import annotations

import pytest

from gamehall.rules._core import ConfigError
from gamehall.rules.doppelkopf import GAME_TYPE
from gamehall.rules.doppelkopf.settings import RULE_KEYS, RULES, SCHEMA, check_config, effective_rules

NOTE_KEYS = [
    "heart10",
    "heart10_prio",
    "heart10_lasttrick",
    "doppelkopf",
    "fox",
    "fox_lasttrick",
    "pigs",
    "superpigs",
    "charlie",
    "charlie_broken",
    "jane",
    "charlie_prio",
    "without9",
    "heart_trick",
    "sec_black_trick",
    "joker",
    "hobgoblin",
    "poverty",
    "poverty_consequence",
    "throw",
    "throw_cases",
    "coward",
    "wedding",
    "repeat_game",
    "re_kontra",
    "buck_round",
    "buck_cause",
    "buck_amount",
    "solo_shift_h10",
    "solist_begins",
    "solo_prio",
    "solos",
    "open_cards",
    "misplay",
    "penalty_points",
    "penalty_bonus",
    "penalty_abort",
]


def test_every_note_key_is_a_setting() -> None:
    assert sorted(RULE_KEYS) == sorted(f"dk.{k}" for k in NOTE_KEYS)
    assert len(RULE_KEYS) == 37
    assert sum(1 for rule in RULES if not rule.ours) == 33
    assert GAME_TYPE.game_id == "doppelkopf" and GAME_TYPE.schema is SCHEMA


def test_defaults_match_the_note() -> None:
    d = SCHEMA.defaults()
    assert d["pigs"] == "None" and isinstance(d["pigs"], str)
    assert d["buck_amount"] == "4"
    assert d["heart10"] is True and d["wedding"] == "3_trick" and d["re_kontra"] == "+2"
    assert d["solos"] == [
        "solo_queen",
        "solo_jack",
        "solo_clubs",
        "solo_spades",
        "solo_hearts",
        "solo_diamonds",
        "solo_fleshless",
    ]
    assert d["misplay"] == "refuse" and d["penalty_points"] == 3 and d["penalty_bonus"] == 1


@pytest.mark.parametrize(
    "given",
    [
        {"pigs": "three"},
        {"penalty_points": 31},
        {"heart10": "yes"},
        {"throw_cases": ["6_9"]},
        {"solos": ["solo_nonsense"]},
        {"dk.fox": True},
    ],
)
def test_invalid_values_are_refused(given: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        check_config(given)


def test_unmet_requirement_plays_the_default() -> None:
    stored = check_config({"superpigs": "reservation"})  # needs pigs two_*
    assert effective_rules(stored)["superpigs"] == "None"
    stored = check_config({"superpigs": "reservation", "pigs": "two_reservation"})
    assert effective_rules(stored)["superpigs"] == "reservation"
    assert effective_rules(check_config({"penalty_points": 9}))["penalty_points"] == 3
    assert effective_rules(check_config({"penalty_points": 9, "misplay": "penalize"}))["penalty_points"] == 9
    assert (
        effective_rules(check_config({"fox_lasttrick": True, "pigs": "one_first"}))["fox_lasttrick"] is False
    )

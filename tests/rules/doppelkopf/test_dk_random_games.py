"""Seeded random-legal sessions under many rule sets finish without an engine error.

100 sessions run in the normal suite; the 1,000-session soak runs with ``-m soak``.
"""

from __future__ import annotations

from typing import Any

import pytest
from dk_helpers import random_game

from gamehall.rules.doppelkopf.cards import SOLO_ORDER, deck_values, eyes_of

EXTRA_RULES = {
    "heart10_prio": "second",
    "pigs": "two_reservation",
    "superpigs": "reservation",
    "poverty": "circulate",
    "poverty_consequence": "redeal",
    "throw": "reservation",
    "throw_cases": ["5_9", "5_k", "7full"],
    "charlie_broken": True,
    "buck_round": "succession",
    "buck_cause": ["draw", "re_kontra_lost", "solo_lost"],
}
CONFIGS: list[dict[str, Any]] = [
    {},
    EXTRA_RULES,
    {
        **EXTRA_RULES,
        "pigs": "two_on_play",
        "superpigs": "on_play",
        "poverty": "sell",
        "poverty_consequence": "black_sow",
        "wedding": "wish_trick",
        "solo_prio": "prio",
        "solos": list(SOLO_ORDER),
    },
    {
        "pigs": "one_on_play",
        "poverty": "circulate_duty",
        "throw": "throw",
        "throw_cases": ["t<hj", "t<dj", "9_all_c", "k_all_c", "4_9+4_k"],
        "joker": "over_h10",
        "without9": "with_four",
        "solos": list(SOLO_ORDER),
        "solist_begins": True,
        "solo_shift_h10": True,
    },
    {
        "pigs": "one_first",
        "poverty": "sell",
        "poverty_consequence": "ramsch",
        "joker": "over_pigs",
        "without9": "without",
        "misplay": "penalize",
        "re_kontra": "*2",
        "coward": "210_no_re",
        "buck_round": "parallel",
        "buck_cause": ["4hearts", "draw", "0points", "re_kontra_lost", "solo_lost"],
        "repeat_game": True,
        "heart_trick": True,
        "hobgoblin": True,
        "jane": True,
    },
    {
        "pigs": "one_on_fox",
        "poverty": "circulate",
        "poverty_consequence": "black_sow",
        "sec_black_trick": True,
        "re_kontra": "*2_extra",
        "coward": "240_no_u90",
        "solos": list(SOLO_ORDER),
        "solo_prio": "prio",
        "wedding": "None",
    },
    {
        "pigs": "two_on_play",
        "superpigs": "on_pig",
        "solos": [],
        "poverty": "circulate",
        "poverty_consequence": "black_sow",
        "open_cards": True,
    },
]


def check_session(seed: int) -> None:
    config = CONFIGS[seed % len(CONFIGS)]
    table = random_game(seed, config, max_rounds=2)
    assert table.finished
    assert sum(table.s.points) == 0
    deck_eyes = sum(eyes_of(v) for v in deck_values(table.rules["without9"], table.rules["joker"]))
    for row in table.s.summaries:
        assert sum(row["point_change"]) == 0
        if row["winner"] is not None:
            assert sum(row["eyes"]) == deck_eyes
    assert table.s.summaries[-1]["points"] == table.s.points


@pytest.mark.parametrize("block", range(10))
def test_hundred_random_sessions(block: int) -> None:
    for seed in range(block * 10, block * 10 + 10):
        check_session(seed)


@pytest.mark.soak
def test_thousand_random_sessions() -> None:
    for seed in range(1000):
        check_session(10_000 + seed)

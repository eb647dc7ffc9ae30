"""A loaded game (note §4.3 ``game.load``): the ``resume`` setting carries the points, the
summary rows, the buck rounds and the next deal number into a new table; nothing hidden is
carried, and a bad carry-over is refused when the table is made."""

from __future__ import annotations

import json

import pytest

from gamehall.rules._core import ConfigError
from gamehall.rules.doppelkopf.actions import Vote
from gamehall.rules.doppelkopf.engine import DoppelkopfTable

from .dk_helpers import full_table, random_game


def _adjourned(seed: int) -> DoppelkopfTable:
    table = random_game(seed, {"buck_round": "parallel"}, max_rounds=2)
    assert table.s.end_reason == "end"
    return table


def test_a_resumed_table_starts_at_the_next_deal_with_the_saved_record() -> None:
    old = _adjourned(3)
    text = old.carry_over()
    new, _ = full_table({"resume": text}, seed=99)
    assert new.s.points == old.s.points and new.s.summaries == old.s.summaries
    assert new.round.number == old.round.number + 1
    assert (new.s.buck.queue, new.s.buck.counters) == (old.s.buck.queue, old.s.buck.counters)
    assert new.view(None)["summaries"] == old.view(None)["summaries"]


def test_the_carry_over_holds_only_the_public_record() -> None:
    old = _adjourned(4)
    data = json.loads(old.carry_over())
    assert set(data) == {"version", "next_round", "points", "summaries", "buck_queue", "buck_counters"}
    assert data["points"] == old.view(None)["points"] and data["summaries"] == old.view(None)["summaries"]


def test_a_void_deal_is_resumed_with_the_same_round_number() -> None:
    table, _ = full_table()
    table.round.void_type = "throw"
    table.round.phase = "end"
    assert json.loads(table.carry_over())["next_round"] == table.round.number


def test_the_resumed_game_is_replayable_from_its_config() -> None:
    text = _adjourned(5).carry_over()
    first, _ = full_table({"resume": text}, seed=11)
    again, _ = full_table({"resume": text}, seed=11)
    assert first.to_json() == again.to_json()
    first.apply(0, Vote("cancel", True))


@pytest.mark.parametrize(
    "bad",
    [
        "not json",
        json.dumps({"version": 99}),
        json.dumps(
            {
                "version": 1,
                "next_round": 0,
                "points": [0, 0, 0, 0],
                "summaries": [],
                "buck_queue": 0,
                "buck_counters": {},
            }
        ),
        json.dumps(
            {
                "version": 1,
                "next_round": 2,
                "points": [0, 0, 0],
                "summaries": [],
                "buck_queue": 0,
                "buck_counters": {},
            }
        ),
    ],
)
def test_a_bad_carry_over_is_refused_when_the_table_is_made(bad: str) -> None:
    with pytest.raises(ConfigError):
        DoppelkopfTable({"resume": bad}, 1)

"""Buck rounds in a session: causes add rounds, an active buck round doubles the payout (§6.5.7)."""

from __future__ import annotations

from typing import Any

from dk_helpers import all_healthy, full_table, rig

from gamehall.rules.doppelkopf.actions import PlayCard, Throw, Vote
from gamehall.rules.doppelkopf.engine import DoppelkopfTable

RE_TAKES_ALL = [
    ["cq", "h10", "h10", "sq", "sq", "hq", "hq", "dq", "dq", "cj", "cj", "sj"],
    ["ca", "ca", "c10", "c10", "ck", "ck", "c9", "c9", "sa", "sa", "s10", "s10"],
    ["cq", "sj", "hj", "hj", "dj", "dj", "da", "da", "d10", "d10", "dk", "dk"],
    ["sk", "sk", "s9", "s9", "ha", "ha", "hk", "hk", "h9", "h9", "d9", "d9"],
]


def played_round(config: dict[str, Any], queue: int = 0) -> DoppelkopfTable:
    table, _ = full_table(config)
    table.s.buck.queue = queue
    rig(table, RE_TAKES_ALL)
    all_healthy(table)
    while table.round.phase == "tricks":
        seat = next(iter(table.to_move().seats))
        table.apply(seat, next(a for a in table.legal_actions(seat) if isinstance(a, PlayCard)))
    return table


def test_an_active_buck_round_doubles_the_points() -> None:
    plain = played_round({})
    buck = played_round({"buck_round": "succession", "buck_cause": ["draw"]}, queue=1)
    assert plain.s.summaries[0]["eyes"] == [240, 0]
    single = plain.s.summaries[0]["point_change"]
    assert single[0] > 0
    assert buck.s.summaries[0]["point_change"] == [2 * p for p in single]
    assert buck.s.buck.queue == 0  # the scored round used it up


def test_a_cause_adds_buck_rounds_from_the_next_round_on() -> None:
    config = {
        "buck_round": "succession",
        "buck_cause": ["0points"],
        "buck_amount": "2",
        "coward": "210_no_re",
    }
    table = played_round(config)
    row = table.s.summaries[0]
    assert "cowardice" in row["extras"] and row["point_change"][0] < 0
    assert table.s.buck.queue == 2
    for seat in range(4):
        table.apply(seat, Vote("continue", True))
    assert table.round.number == 2


def test_parallel_counters() -> None:
    config = {"buck_round": "parallel", "buck_cause": ["0points"], "buck_amount": "1", "coward": "210_no_re"}
    table = played_round(config)
    assert table.s.buck.counters == {"0points": 1}


def test_void_rounds_use_no_buck_round() -> None:
    table, _ = full_table(
        {"buck_round": "succession", "buck_cause": ["draw"], "throw": "throw", "throw_cases": ["5_9"]}
    )
    table.s.buck.queue = 1
    rig(table, [["c9", "c9", "s9", "s9", "h9", "ca", "sa", "ha", "cq", "dq", "hj", "dk"], *RE_TAKES_ALL[1:]])
    table.apply(0, Throw())
    assert table.s.buck.queue == 1


def test_repeat_game_voids_a_worthless_round() -> None:
    table = played_round({"repeat_game": True, "coward": "210_no_re"})
    row = table.s.summaries[0]
    assert (row["winner"], row["point_change"]) == (None, [0, 0, 0, 0])
    for seat in range(4):
        table.apply(seat, Vote("continue", True))
    assert table.round.number == 1  # replayed with the same number

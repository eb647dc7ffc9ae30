"""Recorded games (architecture: "complete recorded games that must replay to the recorded
scores"): seeded whole sessions under several rule sets, stored as their action logs (the
hall's log encoding) with the final points and summary rows. Replaying a log into a fresh
table must give exactly the recorded scores; a rule change that alters a result shows here.

Set ``DK_RECORD=1`` to rewrite ``data/recorded_games.json`` after a reviewed change.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from gamehall.rules.doppelkopf import GAME_TYPE
from gamehall.rules.doppelkopf.actions import Vote
from gamehall.rules.doppelkopf.engine import DoppelkopfTable

DATA = Path(__file__).parent / "data" / "recorded_games.json"
CASES: dict[str, tuple[int, dict[str, Any]]] = {
    "default": (101, {}),
    "buck_parallel_pigs": (202, {"buck_round": "parallel", "pigs": "two_on_play", "superpigs": "on_pig"}),
    "without9_poverty_sell": (303, {"without9": "without", "poverty": "sell", "throw": "reservation"}),
    "times2_extra_wedding": (404, {"re_kontra": "*2_extra", "wedding": "wish_trick", "joker": "over_h10"}),
}
ROUNDS = 4


def _seated(config: dict[str, Any], seed: int) -> DoppelkopfTable:
    table = DoppelkopfTable(config, seed)
    for name in "ABCD":
        table.seat_join(name)
    return table


def play(seed: int, config: dict[str, Any]) -> tuple[list[list[Any]], DoppelkopfTable]:
    """A seeded session of ``ROUNDS`` deals with random legal actions; returns its log."""
    table, chooser, log = _seated(config, seed), random.Random(seed), []
    while not table.finished and len(log) < 5000:
        rnd = table.round
        if rnd.phase == "end":
            kind = "end" if table.s.deal_count >= ROUNDS else "continue"
            seats = [s for s in range(4) if str(s) not in table.s.votes.get(kind, {})]
            actions = [(seats[0], Vote(kind, True))]  # type: ignore[arg-type]
        else:
            seat = chooser.choice(sorted(table.to_move().seats))
            actions = [(seat, chooser.choice(table.legal_actions(seat)))]
        for seat, action in actions:
            table.apply(seat, action)
            log.append([seat, GAME_TYPE.actions.encode(action)])
    assert table.finished
    return log, table


def replay(seed: int, config: dict[str, Any], log: list[list[Any]]) -> DoppelkopfTable:
    table = _seated(config, seed)
    for seat, data in log:
        table.apply(seat, GAME_TYPE.actions.decode(data))
    return table


def _record() -> dict[str, Any]:
    recorded = {}
    for name, (seed, config) in CASES.items():
        log, table = play(seed, config)
        recorded[name] = {
            "seed": seed,
            "config": config,
            "log": log,
            "points": table.s.points,
            "summaries": table.s.summaries,
        }
    return recorded


if os.environ.get("DK_RECORD"):
    DATA.write_text(json.dumps(_record(), indent=None, separators=(",", ":")) + "\n", encoding="utf-8")

RECORDED: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_recorded_game_replays_to_its_recorded_scores(name: str) -> None:
    game = RECORDED[name]
    table = replay(game["seed"], game["config"], game["log"])
    assert table.finished and table.s.end_reason == "end"
    assert table.s.points == game["points"]
    assert table.s.summaries == game["summaries"]
    assert len(game["summaries"]) >= ROUNDS and any(game["points"])


def test_the_recorded_cases_are_the_ones_defined_here() -> None:
    assert {name: (g["seed"], g["config"]) for name, g in RECORDED.items()} == {
        name: (seed, config) for name, (seed, config) in CASES.items()
    }

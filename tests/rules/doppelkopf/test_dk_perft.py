"""Perft-like counts: legal card sequences from seeded deals, recorded as fixtures.

A change in follow-suit, ranking or turn order changes these numbers. To re-record after an
intended rule change: ``python tests/rules/doppelkopf/test_dk_perft.py`` (prints the JSON).
"""

from __future__ import annotations

import json
import pickle
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from dk_helpers import all_ready, full_table

from gamehall.rules.doppelkopf.actions import Answer, AnswerSolo, PlayCard
from gamehall.rules.doppelkopf.engine import DoppelkopfTable

FIXTURE = Path(__file__).parent / "data" / "perft_counts.json"
POSITIONS = {
    "normal_seed_1": (1, None),
    "normal_seed_2": (2, None),
    "normal_seed_3": (3, None),
    "queen_solo_seed_4": (4, "solo_queen"),
    "fleshless_seed_5": (5, "solo_fleshless"),
}
DEPTH = 4


def position(seed: int, solo: str | None) -> DoppelkopfTable:
    table, _ = full_table(seed=seed)
    all_ready(table)
    for seat in table.round.player_list:
        table.apply(seat, Answer("reservation", solo is not None and seat == 0))
    if solo is not None:
        table.apply(0, AnswerSolo(solo))
    return table


def perft(table: DoppelkopfTable, depth: int) -> int:
    if depth == 0:
        return 1
    (seat,) = table.to_move().seats
    plays = [a for a in table.legal_actions(seat) if isinstance(a, PlayCard)]
    if depth == 1:
        return len(plays)
    frozen = pickle.dumps(table)
    total = 0
    for play in plays:
        child: DoppelkopfTable = pickle.loads(frozen)
        child.apply(seat, play)
        total += perft(child, depth - 1)
    return total


def counts() -> dict[str, list[int]]:
    return {
        name: [perft(position(*spec), d) for d in range(1, DEPTH + 1)] for name, spec in POSITIONS.items()
    }


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_perft_counts_match_the_fixture(name: str) -> None:
    expected = json.loads(FIXTURE.read_text())[name]
    table = position(*POSITIONS[name])
    assert expected[0] == 12  # the leader may play any card
    assert [perft(table, d) for d in range(1, DEPTH + 1)] == expected


if __name__ == "__main__":
    print(json.dumps(counts(), indent=1))

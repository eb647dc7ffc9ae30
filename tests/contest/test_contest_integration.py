"""Issue 14's tests with the real hall side: for every game, a tournament of four entrants (two
graded bots, one that sleeps, one that cheats) ends with the right typed results, and
``contest replay`` agrees. Skipped until :mod:`gamehall.contest.hall_side` is in the build."""

from __future__ import annotations

import io
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

from gamehall.contest.entrants import Entrant, EntrantsFile
from gamehall.contest.launch import (
    RunOptions,
    entrant_command,
    expected_order_holds,
    plan_contest,
    run_contest,
)
from gamehall.contest.replay import replay_contest
from gamehall.rules._core import JSON, ForfeitReason, SeatResult

pytest.importorskip("gamehall.contest.hall_side")

FAST: Mapping[str, Mapping[str, JSON]] = {
    "aah": {"aplimit": 2, "round_gap": 0.1},
    "ursuppe": {"ladder_length": 10, "finish_zone": 9},
    "words": {"preset": "ScrEN", "time_per_turn": 10, "grace_s": 0.0, "pause_s": 0.0},
}
"""The shortest game each game's settings allow. Ursuppe: the first point on the score track
wins. Words: Scrabble, one seat to move at a time, no pause; its turn (10 s) is longer than the
hard deadline, so the sleeper is ended by the deadline, not passed by the game's own timer (in
duplicate every seat stays "to move" for the whole turn window: no deadline can tell the
sleeper from a bot that has moved, see docs/contest.md)."""

DEADLINES: Mapping[str, float] = {"soft_s": 2.0, "hard_s": 2.0, "connect_s": 10.0}
"""Short: the sleeper is what waits for the hard deadline; the bots move at once (soft equal to
hard: a bot slowed down by a busy machine is not struck for a late move it still made in time)."""

EXPECTED = {"sleeper": ForfeitReason.TIMEOUT, "cheater": ForfeitReason.RULE_VIOLATION}
"""Every game: the sleeper runs into the hard deadline, the cheater sends refused moves until
the error count ends its game."""

WHOLE_FIELD_AT_ONE_TABLE = {"doppelkopf", "aah"}
"""Four seats: one game, which may end at its first forfeit (the sleeper's or the cheater's)."""


def field(game: str) -> EntrantsFile:
    entrants = (
        Entrant("strong", 2, entrant_command(game, "heuristic", sys.executable)),
        Entrant("weak", 1, entrant_command(game, "random", sys.executable)),
        Entrant("sleeper", 0, entrant_command(game, "sleeper", sys.executable)),
        Entrant("cheater", 0, entrant_command(game, "cheater", sys.executable)),
    )
    return EntrantsFile(entrants, deadlines=DEADLINES, config=FAST.get(game, {}))


@pytest.mark.parametrize("game", ["mrjack", "doppelkopf", "ursuppe", "aah", "words"])
async def test_a_four_entrant_tournament_types_every_failure_and_replays(game: str, tmp_path: Path) -> None:
    plan, contest_format = plan_contest(
        RunOptions(game=game, format_name="round-robin", entrants=field(game), out_dir=tmp_path, seed=3,
                   games_per_pairing=1 if game != "mrjack" else 2, parallel=2)
    )  # fmt: skip
    result = await run_contest(plan, contest_format, port_base=0, out=io.StringIO(), tty=False)
    assert result.reports and not any("not played" in note for note in result.notes)
    forfeits = [
        (s.entrant, s.end.reason)
        for r in result.reports
        for s in r.seats
        if s.end.result is SeatResult.FORFEIT
    ]
    assert forfeits, "the sleeper and the cheater must lose by forfeit"
    assert all(EXPECTED.get(entrant) is reason for entrant, reason in forfeits), forfeits
    if game not in WHOLE_FIELD_AT_ONE_TABLE:  # some tables seat one of them without the other
        assert ("sleeper", ForfeitReason.TIMEOUT) in forfeits, forfeits
        assert ("cheater", ForfeitReason.RULE_VIOLATION) in forfeits, forfeits
    if game == "mrjack":  # each loses every game against the graded bots (2 opponents, both roles)
        assert forfeits.count(("sleeper", ForfeitReason.TIMEOUT)) >= 4
        assert forfeits.count(("cheater", ForfeitReason.RULE_VIOLATION)) >= 4
    rows = {row.name: row for row in result.standings.rows}
    assert rows["strong"].points > rows["sleeper"].points and rows["weak"].points >= rows["cheater"].points
    replay = replay_contest(tmp_path)
    assert replay.agrees, replay.differences


async def test_the_mrjack_demo_comes_out_in_the_graded_order(tmp_path: Path) -> None:
    from gamehall.contest.launch import demo_entrants

    demo = demo_entrants("mrjack")
    options = RunOptions("mrjack", "round-robin", demo, tmp_path, seed=1, games_per_pairing=4, parallel=3)
    plan, contest_format = plan_contest(options)
    result = await run_contest(plan, contest_format, port_base=0, out=io.StringIO(), tty=False)
    assert len(result.reports) == 12
    assert expected_order_holds(result.standings), result.standings.rows

"""Mr. Jack survives ``kill -9`` (issue 9): two wire bots play a game, the server is killed at
log positions chosen from a seed and restarted on the same store, the bots retake their seats
(``nick`` + ``init``, then the game's catch-up and the pending request) and the game ends by its
rules; no log entry is lost and a spectator sees the same board before and after each restart."""

from __future__ import annotations

from pathlib import Path

import pytest
from crash_tables import CrashTable, check_outcome, mrjack_table
from kill_restart import CrashOutcome, crash_game


async def _play(tmp_path: Path, seed: int, kills: int, *, paused: bool, attempts: int = 1) -> None:
    """One game with ``kills`` kills; the server deals each game afresh, and a random
    detective may accuse in the first rounds, so a game that ends before its first kill is
    played again (up to ``attempts`` games) rather than counted as a pass."""
    for attempt in range(attempts):
        table, outcome = await _one_game(tmp_path / f"game{attempt}", seed, kills, paused=paused)
        if outcome.kills or not paused:
            break
    check_outcome(table, outcome, paused=paused)


async def _one_game(
    directory: Path, seed: int, kills: int, *, paused: bool
) -> tuple[CrashTable, CrashOutcome]:
    directory.mkdir()
    table = mrjack_table(seed)
    outcome = await crash_game(
        directory, game=table.game, protocol=table.protocol, clients=table.clients, seed=seed, kills=kills,
        span=table.span, paused=paused, settings=table.settings,
    )  # fmt: skip
    return table, outcome


async def test_mrjack_goes_on_after_kill_9_at_seeded_log_positions(tmp_path: Path) -> None:
    await _play(tmp_path, seed=4, kills=2, paused=True, attempts=3)


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(100))
async def test_mrjack_soak_kill_9_at_a_random_moment(tmp_path: Path, seed: int) -> None:
    await _play(tmp_path, seed=seed, kills=1, paused=False)

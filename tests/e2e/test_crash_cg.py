"""Doppelkopf over cg survives ``kill -9`` (issue 9): four wire bots (one lobby: a host and the
three guests it invites) play a round, the server is killed at log positions chosen from a seed
and restarted on the same store; each bot logs in again with its account and the server puts it
back into the game with the round's state (note §5.2: the lobby is rebuilt from the stored room);
the round ends and the game with it. No log entry is lost and a spectator sees the same table
before and after each restart."""

from __future__ import annotations

from pathlib import Path

import pytest
from crash_tables import cg_table, check_outcome
from kill_restart import crash_game


async def _play(tmp_path: Path, seed: int, kills: int, *, paused: bool) -> None:
    table = cg_table(seed)
    outcome = await crash_game(
        tmp_path, game=table.game, protocol=table.protocol, clients=table.clients, seed=seed, kills=kills,
        span=table.span, paused=paused, settings=table.settings,
    )  # fmt: skip
    check_outcome(table, outcome, paused=paused)


async def test_doppelkopf_goes_on_after_kill_9_at_seeded_log_positions(tmp_path: Path) -> None:
    await _play(tmp_path, seed=2, kills=2, paused=True)


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(100))
async def test_doppelkopf_soak_kill_9_at_a_random_moment(tmp_path: Path, seed: int) -> None:
    await _play(tmp_path, seed=seed, kills=1, paused=False)

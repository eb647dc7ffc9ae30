"""Ursuppe over UrServer survives ``kill -9`` (issue 9): three wire bots play a game, the server
is killed at log positions chosen from a seed and restarted on the same store, the bots retake
their seats by name (``TEILNEHMEN``/``PASSWORT``/``NAME``) and the game ends normally; no log
entry is lost and a spectator sees the same table before and after each restart."""

from __future__ import annotations

from pathlib import Path

import pytest
from crash_tables import check_outcome, urserver_table
from kill_restart import crash_game


async def _play(tmp_path: Path, seed: int, kills: int, *, paused: bool) -> None:
    table = urserver_table(seed)
    outcome = await crash_game(
        tmp_path, game=table.game, protocol=table.protocol, clients=table.clients, seed=seed, kills=kills,
        span=table.span, paused=paused, settings=table.settings,
    )  # fmt: skip
    check_outcome(table, outcome, paused=paused)


async def test_ursuppe_goes_on_after_kill_9_at_seeded_log_positions(tmp_path: Path) -> None:
    await _play(tmp_path, seed=9, kills=2, paused=True)


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(100))
async def test_ursuppe_soak_kill_9_at_a_random_moment(tmp_path: Path, seed: int) -> None:
    await _play(tmp_path, seed=seed, kills=1, paused=False)

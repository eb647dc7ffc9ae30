"""AAH survives ``kill -9`` (issue 9): three 0.2.0 client emulators play a game, the server is
killed at log positions chosen from a seed and restarted on the same store, each bot connects
again and ``JOIN``s with its nick (the held seat and the state replay, specs/aah.md 6.3) and the
game ends normally; no log entry is lost and a spectator sees the same round before and after
each restart."""

from __future__ import annotations

from pathlib import Path

import pytest
from crash_tables import aah_table, check_outcome
from kill_restart import crash_game


async def _play(tmp_path: Path, seed: int, kills: int, *, paused: bool) -> None:
    table = aah_table(seed)
    outcome = await crash_game(
        tmp_path, game=table.game, protocol=table.protocol, clients=table.clients, seed=seed, kills=kills,
        span=table.span, paused=paused, settings=table.settings,
    )  # fmt: skip
    check_outcome(table, outcome, paused=paused)


async def test_aah_goes_on_after_kill_9_at_seeded_log_positions(tmp_path: Path) -> None:
    await _play(tmp_path, seed=1, kills=2, paused=True)


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(100))
async def test_aah_soak_kill_9_at_a_random_moment(tmp_path: Path, seed: int) -> None:
    await _play(tmp_path, seed=seed, kills=1, paused=False)

"""Ursuppe over UrServer survives ``kill -9`` (issue 9): three wire bots play a game, the server
is killed at log positions chosen from a seed and restarted on the same store, the bots retake
their seats by name (``TEILNEHMEN``/``PASSWORT``/``NAME``) and the game ends normally; no log
entry is lost and a spectator sees the same table before and after each restart."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Sequence
from pathlib import Path
from typing import Any

import pytest
from kill_restart import crash_game

from gamehall.bots.ursuppe.wire import BotResult, UrWireBot


def _bots(seed: int) -> tuple[list[UrWireBot], Any]:
    rng = random.Random(seed)
    bots = [
        UrWireBot("127.0.0.1", 0, f"b{n}", creates=n == 1, players=3, game_prefix=f"crash{seed}",
                  rng=random.Random(rng.getrandbits(64)), timeout_ms=20000)
        for n in range(1, 4)
    ]  # fmt: skip

    def clients(port: int) -> Sequence[Awaitable[BotResult]]:
        for bot in bots:
            bot.port = port
        return [bot.run() for bot in bots]

    return bots, clients


async def _play(tmp_path: Path, seed: int, kills: int, *, paused: bool) -> None:
    bots, clients = _bots(seed)
    outcome = await crash_game(
        tmp_path, game="ursuppe", protocol="urserver", clients=clients, seed=seed, kills=kills,
        span=(10, 200), paused=paused,
    )  # fmt: skip
    # a random kill point may lie past a short game's end (soak): then there is nothing to kill
    assert outcome.kills or not paused, "the game ended before the first kill"
    assert outcome.record.result is not None and outcome.record.result["termination"] == "normal"
    assert all(len(result.games) == 1 for result in outcome.results)  # every bot saw the end
    assert all(bot.reconnects == len(outcome.kills) for bot in bots)


async def test_ursuppe_goes_on_after_kill_9_at_seeded_log_positions(tmp_path: Path) -> None:
    await _play(tmp_path, seed=9, kills=2, paused=True)


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(100))
async def test_ursuppe_soak_kill_9_at_a_random_moment(tmp_path: Path, seed: int) -> None:
    await _play(tmp_path, seed=seed, kills=1, paused=False)

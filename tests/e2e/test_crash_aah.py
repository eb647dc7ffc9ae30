"""AAH survives ``kill -9`` (issue 9): three 0.2.0 client emulators play a game, the server is
killed at log positions chosen from a seed and restarted on the same store, each bot connects
again and ``JOIN``s with its nick (the held seat and the state replay, specs/aah.md 6.3) and the
game ends normally; no log entry is lost and a spectator sees the same round before and after
each restart."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Sequence
from pathlib import Path

import pytest
from kill_restart import crash_game

from gamehall.bots.aah import AahWireBot
from gamehall.bots.aah.wire import BotStats

SETTINGS = ("aah.autostart_delay=1", "aah.round_gap=0.2", "aah.timeout=60", "aah.aplimit=3")


async def _play(tmp_path: Path, seed: int, kills: int, *, paused: bool) -> None:
    rng = random.Random(seed)
    bots: list[AahWireBot] = []

    def clients(port: int) -> Sequence[Awaitable[BotStats]]:
        bots.extend(
            AahWireBot("127.0.0.1", port, name, rng=random.Random(rng.getrandbits(64)), strict=True)
            for name in ("alice", "bob", "carol")
        )
        return [bot.run() for bot in bots]

    outcome = await crash_game(
        tmp_path, game="aah", protocol="aah", clients=clients, seed=seed, kills=kills,
        span=(6, 24), paused=paused, settings=SETTINGS,
    )  # fmt: skip
    # a random kill point may lie past a short game's end (soak): then there is nothing to kill
    assert outcome.kills or not paused, "the game ended before the first kill"
    result = outcome.record.result
    assert result is not None and result["termination"] == "normal", result
    assert all(not stats.violations for stats in outcome.results)  # the legacy client never crashed
    assert {bot.game_winner for bot in bots} == {result["names"][str(result["winners"][0])]}
    assert all(bot.reconnects == len(outcome.kills) for bot in bots)


async def test_aah_goes_on_after_kill_9_at_seeded_log_positions(tmp_path: Path) -> None:
    await _play(tmp_path, seed=1, kills=2, paused=True)


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(100))
async def test_aah_soak_kill_9_at_a_random_moment(tmp_path: Path, seed: int) -> None:
    await _play(tmp_path, seed=seed, kills=1, paused=False)

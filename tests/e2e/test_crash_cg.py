"""Doppelkopf over cg survives ``kill -9`` (issue 9): four wire bots (one lobby: a host and the
three guests it invites) play a round, the server is killed at log positions chosen from a seed
and restarted on the same store; each bot logs in again with its account and the server puts it
back into the game with the round's state (note §5.2: the lobby is rebuilt from the stored room);
the round ends and the game with it. No log entry is lost and a spectator sees the same table
before and after each restart."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Sequence
from pathlib import Path

import pytest
from kill_restart import crash_game

from gamehall.bots.doppelkopf.wire import BotStats, CgWireBot

SETTINGS = ("doppelkopf.deal_interval_s=0", "doppelkopf.trick_close_delay_s=0")
GUESTS = ("dkguest1", "dkguest2", "dkguest3")


async def _play(tmp_path: Path, seed: int, kills: int, *, paused: bool) -> None:
    rng = random.Random(seed)
    bots: list[CgWireBot] = []

    def clients(port: int) -> Sequence[Awaitable[BotStats]]:
        bots.extend(
            CgWireBot("127.0.0.1", port, name, seed=rng.getrandbits(32), wait_for_invite=True)
            for name in GUESTS
        )
        host = CgWireBot("127.0.0.1", port, "dkhost", seed=rng.getrandbits(32), guests=GUESTS)
        bots.append(host)

        async def hosting() -> BotStats:
            await asyncio.sleep(1.0)  # the guests are logged in before the host invites them
            return await host.run()

        return [*(bot.run() for bot in bots[:3]), hosting()]

    outcome = await crash_game(
        tmp_path, game="doppelkopf", protocol="cg", clients=clients, seed=seed, kills=kills,
        span=(12, 50), paused=paused, settings=SETTINGS,
    )  # fmt: skip
    # a random kill point may lie past a short game's end (soak): then there is nothing to kill
    assert outcome.kills or not paused, "the game ended before the first kill"
    result = outcome.record.result
    assert result is not None and result["termination"] == "normal", result
    assert [stats.games_finished for stats in outcome.results] == [1, 1, 1, 1]
    assert all(bot.reconnects == len(outcome.kills) for bot in bots)


async def test_doppelkopf_goes_on_after_kill_9_at_seeded_log_positions(tmp_path: Path) -> None:
    await _play(tmp_path, seed=2, kills=2, paused=True)


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(100))
async def test_doppelkopf_soak_kill_9_at_a_random_moment(tmp_path: Path, seed: int) -> None:
    await _play(tmp_path, seed=seed, kills=1, paused=False)

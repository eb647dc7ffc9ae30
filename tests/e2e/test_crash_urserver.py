"""Ursuppe over UrServer survives ``kill -9`` (issue 9): three wire bots play a game, the server
is killed at log positions chosen from a seed and restarted on the same store, the bots retake
their seats by name (``TEILNEHMEN``/``PASSWORT``/``NAME``) and the game ends normally; no log
entry is lost and a spectator sees the same table before and after each restart."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from kill_restart import CrashRun, PausableProxy, ServerProcess, first_room, has_started, kill_positions

from gamehall.bots.ursuppe.wire import UrWireBot

SETTINGS: tuple[str, ...] = ()  # the hall's default grace (60 s) holds the seats


async def _play(tmp_path: Path, seed: int, kills: int, *, paused: bool) -> None:
    server = ServerProcess(tmp_path, SETTINGS)
    await asyncio.to_thread(server.start)
    proxy = PausableProxy(server.ports["urserver"])
    await proxy.start()
    rng = random.Random(seed)
    bots = [
        UrWireBot("127.0.0.1", proxy.port, f"b{n}", creates=n == 1, players=3, game_prefix=f"crash{seed}",
                  rng=random.Random(rng.getrandbits(64)), timeout_ms=20000)
        for n in range(1, 4)
    ]  # fmt: skip
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    try:
        room_id = await first_room(server, "ursuppe", started=has_started)
        run = CrashRun(server, [proxy], room_id)
        for position in kill_positions(seed, kills, 10, 120):
            if not await run.kill_at(position, paused=paused):
                break
        record = await run.finished(timeout=120)
        results = await asyncio.wait_for(asyncio.gather(*tasks), 30)
        assert record.result is not None and record.result["termination"] == "normal"
        assert all(len(result.games) == 1 for result in results)
        assert run.kills, "the game ended before the first kill"
        assert sum(bot.reconnects for bot in bots) >= 3 * len(run.kills)
    finally:
        for task in tasks:
            task.cancel()
        await proxy.close()
        await asyncio.to_thread(server.stop)


async def test_ursuppe_goes_on_after_kill_9_at_seeded_log_positions(tmp_path: Path) -> None:
    await _play(tmp_path, seed=9, kills=2, paused=True)


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(100))
async def test_ursuppe_soak_kill_9_at_a_random_moment(tmp_path: Path, seed: int) -> None:
    await _play(tmp_path, seed=seed, kills=1, paused=False)

"""Failover and drain with real processes, Redis and PostgreSQL (issue 13, items 4 and 6).

Two ``gamehall serve`` nodes, ``a`` and ``b``, share one Redis prefix and one PostgreSQL
schema, with a 2 s lease ttl. Three AAH wire bots play a room on node ``a`` through a relay.
Mid-game the relay holds the bots' input (the table is at rest), node ``a`` goes away
(``kill -9``, or ``SIGTERM``: the drain) and the relay's upstream switches to node ``b``. Node
``b`` adopts the room (it takes the lease and rebuilds the room from the PostgreSQL log), the
bots reconnect through the relay, retake their seats by the crash-recovery rules and finish
the game: every log entry from before the kill is unchanged and the result is normal. Node
``b``'s browser lobby (``GET /api/rooms``) lists the room before the kill (node ``a``'s, from
the shared directory) and after the adoption (its own).

The time from the kill to node ``b`` holding the room's lease, and to its first accepted
action, is printed (``pytest -s``); after a kill it must stay within ttl + 2 s, after a drain
below the ttl (the drained node released the lease at once).
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass
from pathlib import Path

import aiohttp
from kill_restart import (
    NodeProcess,
    PausableProxy,
    ServerProcess,
    entries_of,
    finished,
    first_room,
    has_started,
    wind_down,
)
from redis_space import RedisSpace

from gamehall.bots.aah import AahWireBot
from gamehall.store.base import RoomRecord

TTL = 2.0
SETTINGS = ("aah.autostart_delay=1", "aah.round_gap=0.2", "aah.timeout=60", "aah.aplimit=3")


@dataclass
class Failover:
    """What one failover measured (seconds after node ``a`` was killed or told to stop)."""

    adopted_s: float
    first_action_s: float
    record: RoomRecord


async def play_through_failover(tmp_path: Path, space: RedisSpace, db: str, *, drain: bool) -> Failover:
    """One AAH game on node ``a`` that node ``b`` finishes after ``a`` is killed (or drained)."""
    node_a, node_b = (
        NodeProcess.in_hall(space, tmp_path, n, ttl=TTL, db=db, settings=SETTINGS) for n in "ab"
    )
    await asyncio.gather(asyncio.to_thread(node_a.start), asyncio.to_thread(node_b.start))
    upstream = {"node": node_a}
    proxy = PausableProxy(lambda: upstream["node"].ports["aah"])
    await proxy.start()
    rng = random.Random(13)
    bots = [AahWireBot("127.0.0.1", proxy.port, name, rng=random.Random(rng.getrandbits(64)), strict=True)
            for name in ("alice", "bob", "carol")]  # fmt: skip
    tasks = [asyncio.ensure_future(bot.run()) for bot in bots]
    try:
        async with asyncio.timeout(180):
            room_id = await first_room(node_a, "aah", started=has_started)
            lease_key = f"{space.prefix}lease:{room_id}"
            await listed_by(node_b, room_id)  # one hall: node b's lobby shows node a's room
            await grown_to(node_a, room_id, 10)
            proxy.pause()
            before = entries_of(await settled(node_a, room_id))
            assert (await space.client.get(lease_key) or b"").startswith(b"a/")

            gone = time.monotonic()
            await asyncio.to_thread(node_a.stop if drain else node_a.kill9)
            upstream["node"] = node_b
            while not (await space.client.get(lease_key) or b"").startswith(b"b/"):
                await asyncio.sleep(0.02)
            adopted_s = time.monotonic() - gone
            proxy.resume()
            while len((await asyncio.to_thread(node_b.room, room_id)).entries) <= len(before) + 1:
                await asyncio.sleep(0.02)  # +1: the adoption's own entry-free fencing write adds none
            first_action_s = time.monotonic() - gone

            await listed_by(node_b, room_id)  # adopted: still (or again) in node b's lobby
            record = await finished(node_b, room_id)
            results = await asyncio.gather(*tasks)
        assert entries_of(record)[: len(before)] == before, "log entries lost or changed by the failover"
        assert all(not stats.violations for stats in results)
        return Failover(adopted_s, first_action_s, record)
    except BaseException:
        print(f"node a:\n{node_a.stderr()}\nnode b:\n{node_b.stderr()}")
        raise
    finally:
        await wind_down(tasks, [proxy], [node_a, node_b])


async def listed_by(node: ServerProcess, room_id: str, timeout: float = 10.0) -> None:
    """Wait until ``node``'s ``GET /api/rooms`` lists ``room_id``."""
    url = f"http://127.0.0.1:{node.ports['web']}/api/rooms"
    async with aiohttp.ClientSession() as http, asyncio.timeout(timeout):
        while True:
            async with http.get(url) as response:
                if room_id in [room["id"] for room in await response.json()]:
                    return
            await asyncio.sleep(0.05)


async def grown_to(node: ServerProcess, room_id: str, length: int) -> None:
    while len((await asyncio.to_thread(node.room, room_id)).entries) < length:
        await asyncio.sleep(0.02)


async def settled(node: ServerProcess, room_id: str, still_s: float = 0.5) -> RoomRecord:
    """The room's record once its log stopped growing (the relay holds the bots' input)."""
    record = await asyncio.to_thread(node.room, room_id)
    since = time.monotonic()
    while time.monotonic() - since < still_s:
        await asyncio.sleep(0.05)
        now = await asyncio.to_thread(node.room, room_id)
        if len(now.entries) != len(record.entries):
            record, since = now, time.monotonic()
    return record


async def test_a_killed_nodes_game_is_adopted_and_finished_by_another_node(
    tmp_path: Path, redis_space: RedisSpace, database: str
) -> None:
    outcome = await play_through_failover(tmp_path, redis_space, database, drain=False)
    print(f"\nkill -9: adopted after {outcome.adopted_s:.2f} s, first action after "
          f"{outcome.first_action_s:.2f} s (ttl {TTL:.0f} s)")  # fmt: skip
    result = outcome.record.result
    assert result is not None and result["termination"] == "normal", result
    assert outcome.adopted_s <= TTL + 2.0


async def test_a_drained_nodes_game_is_adopted_before_its_lease_would_expire(
    tmp_path: Path, redis_space: RedisSpace, database: str
) -> None:
    outcome = await play_through_failover(tmp_path, redis_space, database, drain=True)
    print(f"\nSIGTERM drain: adopted after {outcome.adopted_s:.2f} s, first action after "
          f"{outcome.first_action_s:.2f} s (ttl {TTL:.0f} s)")  # fmt: skip
    result = outcome.record.result
    assert result is not None and result["termination"] == "normal", result
    assert outcome.adopted_s < TTL

"""A server started with ``--redis``: its rooms are leased, counted in ``/metrics`` and
``/healthz``, released when they close, and closed here when their lease is lost."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from pathlib import Path

import aiohttp
import pytest
from _pytest.outcomes import Failed
from redis import Redis as SyncRedis
from redis_space import RedisSpace, redis_space_for_test

from gamehall.config import ServerConfig
from gamehall.protocols._core import CloseReason
from gamehall.server.app import Server, running_server
from gamehall.store.base import RoomRecord
from gamehall.store.memory import MemoryStore
from gamehall.store.sqlite import SqliteStore


def node_config(space: RedisSpace, node_id: str = "a", ttl: float = 1.0) -> ServerConfig:
    return dataclasses.replace(
        ServerConfig(bind="127.0.0.1", db=":memory:"),
        redis=space.url,
        node_id=node_id,
        lease_ttl=ttl,
        redis_prefix=space.prefix,
    )


def read_room(db: Path, room_id: str) -> RoomRecord:
    """The room as the SQLite file holds it, read beside the server."""
    reader = SqliteStore(db)
    try:
        record = reader.load_room(room_id)
    finally:
        reader.close()
    assert record is not None
    return record


async def settled(server: Server) -> None:
    """Until the hall's queued writes are committed (with leases every commit is awaited)."""
    server.hall.flush()
    async with asyncio.timeout(5):
        while not server.hall.outbox.idle:
            await asyncio.sleep(0.01)


async def test_a_room_created_here_is_owned_shown_and_released(redis_space: RedisSpace) -> None:
    store = MemoryStore()
    async with running_server(node_config(redis_space), listen={"web": 0}, store=store) as server:
        room = server.hall.create_room("aah", None, operator=None)
        await settled(server)
        leases = server.node.leases if server.node is not None else pytest.fail("no node")
        key = leases.lease_key(room.room_id)
        assert await redis_space.client.get(key) == b"a/1"
        assert store.load_room(room.room_id) is not None  # committed under the lease

        base = f"http://127.0.0.1:{server.ports['web']}"
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{base}/metrics") as response:
                assert 'gamehall_rooms_owned{node="a"} 1' in await response.text()
            async with http.get(f"{base}/healthz") as response:
                health = await response.json()
        assert health["node"] == "a" and health["rooms_owned"] == 1

        room.close(CloseReason.ABORTED, "closed by the test", result={"termination": "aborted"})
        await settled(server)
        async with asyncio.timeout(5):
            while await redis_space.client.exists(key):
                await asyncio.sleep(0.01)
        record = store.load_room(room.room_id)
        assert record is not None and record.finished  # the last write went in before the release
        assert leases.owned() == 0


async def test_a_node_paused_past_its_lease_closes_the_room_and_writes_nothing_more(
    redis_space: RedisSpace,
) -> None:
    """The loop blocked past the ttl is what SIGSTOP does to the node: when it runs again, the
    write it queued first is refused at commit, whatever its renewal task has not seen yet."""
    store = MemoryStore()
    async with running_server(node_config(redis_space), listen={"web": 0}, store=store) as server:
        room = server.hall.create_room("aah", None, operator=None)
        await settled(server)
        assert server.node is not None
        key = server.node.leases.lease_key(room.room_id)
        entries_before = len(store.load_room(room.room_id).entries)  # type: ignore[union-attr]

        time.sleep(1.1)  # paused: no renewal, Redis lets the lease expire
        other_node = SyncRedis.from_url(redis_space.url)
        assert other_node.set(key, "b/99", nx=True, px=5000)  # node b takes the room meanwhile
        other_node.close()
        room.note(None, {"why": "a write after the pause"})  # the first thing the node does
        await settled(server)

        assert room.closed  # closed here without a result
        record = store.load_room(room.room_id)
        assert record is not None and not record.finished and len(record.entries) == entries_before
        assert await redis_space.client.get(key) == b"b/99"  # b's lease is untouched
        assert server.hall.room_count() == 0 and server.node.leases.owned() == 0


async def test_renewal_noticing_the_loss_closes_an_idle_room(redis_space: RedisSpace) -> None:
    store = MemoryStore()
    async with running_server(node_config(redis_space, ttl=0.6), listen={}, store=store) as server:
        room = server.hall.create_room("aah", None, operator=None)
        await settled(server)
        assert server.node is not None
        await redis_space.client.set(server.node.leases.lease_key(room.room_id), "b/99", px=5000)
        async with asyncio.timeout(3):  # the next renewal (every ttl / 3) finds b's value
            while not room.closed:
                await asyncio.sleep(0.02)
        assert not store.load_room(room.room_id).finished  # type: ignore[union-attr]


async def test_without_redis_no_node_and_no_lease(redis_space: RedisSpace) -> None:
    async with running_server(ServerConfig(bind="127.0.0.1"), listen={}, store=MemoryStore()) as server:
        server.hall.create_room("aah", None, operator=None)
        await settled(server)
        assert server.node is None and server.hall.outbox.ownership is None
    assert [key async for key in redis_space.client.scan_iter(match=redis_space.prefix + "*")] == []


async def test_a_node_does_not_start_without_its_redis() -> None:
    from gamehall.cluster import ClusterError

    config = dataclasses.replace(ServerConfig(bind="127.0.0.1"), redis="redis://127.0.0.1:1/0", node_id="a")
    with pytest.raises(ClusterError, match="cannot reach Redis"):
        async with running_server(config, listen={}, store=MemoryStore()):
            pass


async def test_missing_redis_fails_under_ci_and_skips_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "1")
    with pytest.raises(Failed):
        async with redis_space_for_test("redis://127.0.0.1:1/0"):
            pass
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception):
        async with redis_space_for_test("redis://127.0.0.1:1/0"):
            pass


async def test_a_restored_room_is_claimed_with_a_higher_fence(
    redis_space: RedisSpace, tmp_path: Path
) -> None:
    db = tmp_path / "hall.db"
    async with running_server(node_config(redis_space, "a"), listen={}, store=SqliteStore(db)) as server:
        room_id = server.hall.create_room("aah", None, operator=None).room_id
        await settled(server)
    # the stop left the room unfinished and released its lease; node b rebuilds it
    assert not await redis_space.client.exists(f"{redis_space.prefix}lease:{room_id}")
    async with running_server(node_config(redis_space, "b"), listen={}, store=SqliteStore(db)) as server:
        await settled(server)
        assert server.hall.room_count() == 1
        assert server.node is not None and server.node.leases.fence_of(room_id) == 2
        assert await redis_space.client.get(f"{redis_space.prefix}lease:{room_id}") == b"b/2"


async def test_a_room_held_by_another_node_is_not_restored_here(
    redis_space: RedisSpace, tmp_path: Path
) -> None:
    db = tmp_path / "hall.db"
    async with running_server(node_config(redis_space, "a"), listen={}, store=SqliteStore(db)) as server:
        room_id = server.hall.create_room("aah", None, operator=None).room_id
        await settled(server)
    entries = read_room(db, room_id).entries
    await redis_space.client.set(f"{redis_space.prefix}lease:{room_id}", "c/5", px=10_000)
    async with running_server(node_config(redis_space, "b"), listen={}, store=SqliteStore(db)) as server:
        await settled(server)
        assert server.hall.room_count() == 0  # closed here: c owns it
        record = read_room(db, room_id)
        assert record.entries == entries and not record.finished
    assert await redis_space.client.get(f"{redis_space.prefix}lease:{room_id}") == b"c/5"

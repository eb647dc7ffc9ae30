"""An adoption scan lists room ids only and reads a room's log only once it holds the room's
lease (real Redis and PostgreSQL; failed when ``CI`` is set and either is missing).

Node ``a`` creates rooms in a PostgreSQL schema and stops (its leases released). Another node,
``c``, is made to hold some of them (their lease keys set by hand). Node ``b`` then starts on a
store that counts its reads: its start-up scan and every later one must never call
``unfinished_rooms`` (every log of the hall) and must ``load_room`` only the rooms it adopts.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator

import pytest
from postgres_support import postgres_schema
from redis_space import RedisSpace

from gamehall.config import ServerConfig
from gamehall.server.app import Server, running_server
from gamehall.store.base import RoomRecord
from gamehall.store.postgres import PostgresStore

TTL = 2.0


class CountingStore(PostgresStore):
    """The PostgreSQL store, counting the reads that return logs."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.loaded: list[str] = []
        self.full_listings = 0

    def load_room(self, room_id: str) -> RoomRecord | None:
        self.loaded.append(room_id)
        return super().load_room(room_id)

    def unfinished_rooms(self) -> list[RoomRecord]:
        self.full_listings += 1
        return super().unfinished_rooms()


@pytest.fixture
def url() -> Iterator[str]:
    with postgres_schema() as schema_url:
        yield schema_url


def node_config(space: RedisSpace, url: str, node_id: str) -> ServerConfig:
    return dataclasses.replace(
        ServerConfig(bind="127.0.0.1"),
        db=url,
        redis=space.url,
        node_id=node_id,
        lease_ttl=TTL,
        redis_prefix=space.prefix,
    )


async def settled(server: Server) -> None:
    server.hall.flush()
    async with asyncio.timeout(5):
        while not server.hall.outbox.idle:
            await asyncio.sleep(0.01)


async def rooms_left_by_node_a(space: RedisSpace, url: str, count: int) -> list[str]:
    """``count`` unfinished AAH rooms in the store, created by node ``a``, which then stopped."""
    async with running_server(node_config(space, url, "a"), listen={}) as server:
        room_ids = [server.hall.create_room("aah", None, operator=None).room_id for _ in range(count)]
        await settled(server)
    return room_ids


async def test_the_scan_loads_only_the_rooms_whose_lease_it_takes(redis_space: RedisSpace, url: str) -> None:
    room_ids = await rooms_left_by_node_a(redis_space, url, 4)
    held, free = room_ids[:3], room_ids[3]
    for room_id in held:  # node c owns these: node b must not read their logs
        await redis_space.client.set(f"{redis_space.prefix}lease:{room_id}", "c/7", px=60_000)

    store = CountingStore(url)
    async with running_server(node_config(redis_space, url, "b"), listen={}, store=store) as server:
        await settled(server)
        assert server.adoption is not None
        assert server.hall.room_count() == 1 and server.hall.directory.get(free) is not None
        assert store.loaded == [free] and store.full_listings == 0

        assert await server.adoption.scan() == 0  # nothing ownerless: no room read at all
        assert store.loaded == [free]

        await redis_space.client.delete(f"{redis_space.prefix}lease:{held[1]}")  # c died
        assert await server.adoption.scan() == 1
        assert store.loaded == [free, held[1]] and store.full_listings == 0
        assert server.hall.room_count() == 2


async def test_a_room_taken_after_the_listing_is_not_read(redis_space: RedisSpace, url: str) -> None:
    """The race the lease settles: the listing saw no lease, but another node acquired it
    first; the loser's acquire answers "held" and it reads nothing."""
    (room_id,) = await rooms_left_by_node_a(redis_space, url, 1)
    await redis_space.client.set(f"{redis_space.prefix}lease:{room_id}", "c/7", px=60_000)
    store = CountingStore(url)
    async with running_server(node_config(redis_space, url, "b"), listen={}, store=store) as server:
        await settled(server)
        assert server.adoption is not None
        adopted = await server.adoption._adopt(room_id)  # as if the listing had missed c's lease
        assert not adopted and store.loaded == [] and server.hall.room_count() == 0

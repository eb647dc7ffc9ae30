"""The shared room directory on the real Redis (gamehall.cluster.directory): hall instances on
one key prefix, each a node, list one another's rooms, hear their changes as lobby pushes, and
forget a dead node's rooms unless another node adopted them.

Each node here is a :class:`Hall` on the running loop with its own memory store (an adoption
test shares one store, as nodes share PostgreSQL); the wire-level tests with real
``gamehall serve`` nodes are in ``test_shared_lobbies.py``."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from recording_listener import RecordingListener
from redis.asyncio import Redis
from redis_space import RedisSpace
from toy_game import TOY

from gamehall.cluster.directory import SharedDirectory
from gamehall.hall import Hall
from gamehall.hall.recovery import restore_record
from gamehall.protocols._core import CloseReason, RoomInfo
from gamehall.rules._core import JSON
from gamehall.server.clock import LoopClock
from gamehall.store.memory import MemoryStore

TTL = 0.6


def waiting(info: RoomInfo) -> bool:
    """A placement rule: a toy room nobody started yet."""
    return not info.started


@dataclass
class Watcher:
    """A lobby watcher that records every push."""

    pushes: list[tuple[str, str, dict[int, str]]] = field(default_factory=list)

    def lobby_changed(self, change: str, info: RoomInfo) -> None:
        self.pushes.append((change, info.room_id, dict(info.seats)))

    def preparing_changed(self, state: Mapping[str, JSON] | None) -> None:
        pass


@dataclass
class Node:
    hall: Hall
    directory: SharedDirectory
    redis: Redis
    store: MemoryStore
    watcher: Watcher

    async def settled(self) -> None:
        self.hall.flush()
        async with asyncio.timeout(5):
            while not self.hall.outbox.idle:
                await asyncio.sleep(0)

    async def die(self) -> None:
        """Stop like a killed process: no last publication, the liveness key left to expire."""
        for task in self.directory._tasks:
            task.cancel()
        await asyncio.gather(*self.directory._tasks, return_exceptions=True)


@asynccontextmanager
async def node(space: RedisSpace, node_id: str, store: MemoryStore | None = None) -> AsyncIterator[Node]:
    redis = Redis.from_url(space.url, socket_timeout=TTL / 3, socket_connect_timeout=2)
    directory = SharedDirectory(redis, node_id, TTL, prefix=space.prefix)
    store = store if store is not None else MemoryStore()
    clock = LoopClock()
    hall = Hall(
        games={"toy": TOY}, store=store, clock=clock, commit_waiter=clock.wait_for, shared_rooms=directory
    )
    watcher = Watcher()
    hall.watch_lobby(watcher)
    await directory.start()
    try:
        yield Node(hall, directory, redis, store, watcher)
    finally:
        await directory.stop()
        await redis.aclose()


async def until(check: Callable[[], bool], timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.02)


async def test_a_room_created_on_one_node_is_listed_and_pushed_on_the_other(redis_space: RedisSpace) -> None:
    async with node(redis_space, "a") as a, node(redis_space, "b") as b:
        alice = a.hall.login("alice", RecordingListener(), protocol="test")
        room_id = alice.create_room("toy", title="Remote table").room_id
        alice.join(room_id)
        await a.settled()
        assert room_id.startswith("toy-a-")

        await until(lambda: b.hall.room_info(room_id) is not None)
        info = b.hall.room_info(room_id)
        assert info is not None and info.title == "Remote table" and dict(info.seats) == {0: "alice"}
        assert [r.room_id for r in b.hall.rooms()] == [room_id]
        assert [r.room_id for r in b.hall.rooms("toy")] == [room_id]
        assert [r.room_id for r in b.hall.rooms_matching("toy", waiting)] == [room_id]
        assert [r.room_id for r in b.hall.seats_of("ALICE")] == [room_id]
        assert b.hall.room_count("toy") == 1 and b.hall.room_count() == 1
        assert b.directory.remote.node_of(room_id) == "a"
        await until(lambda: ("created", room_id, {0: "alice"}) in b.watcher.pushes)

        bob = a.hall.login("bob", RecordingListener(), protocol="test")
        bob.join(room_id)
        await a.settled()
        both = {0: "alice", 1: "bob"}
        await until(lambda: ("changed", room_id, both) in b.watcher.pushes)
        assert [r.room_id for r in b.hall.seats_of("bob")] == [room_id]
        started = b.hall.room_info(room_id)
        assert started is not None and started.started  # two seats: the toy game starts
        assert list(b.hall.rooms_matching("toy", waiting)) == []

        a.hall.room(room_id).close(CloseReason.SHUTDOWN, "Closed by the test.")
        await a.settled()
        await until(lambda: b.hall.room_info(room_id) is None)
        assert b.hall.rooms() == [] and b.hall.room_count() == 0 and b.hall.seats_of("alice") == []
        assert b.watcher.pushes[-1][:2] == ("closed", room_id)
        assert await redis_space.client.hlen(f"{redis_space.prefix}rooms") == 0


async def test_every_node_lists_the_whole_hall_in_one_creation_order(redis_space: RedisSpace) -> None:
    async with node(redis_space, "a") as a, node(redis_space, "b") as b:
        ids = []
        for at, owner in enumerate([a, b, a, b]):
            session = owner.hall.login(f"p{at}", RecordingListener(), protocol="test")
            ids.append(session.create_room("toy").room_id)
            await owner.settled()
            await asyncio.sleep(0.01)
        for each in (a, b):
            await until(lambda each=each: each.hall.room_count() == 4)  # type: ignore[misc]
            assert [r.room_id for r in each.hall.rooms()] == ids
            assert [r.room_id for r in each.hall.rooms_matching("toy", waiting)] == ids
        assert len(set(ids)) == 4


async def test_a_node_started_later_reads_the_rooms_already_there(redis_space: RedisSpace) -> None:
    async with node(redis_space, "a") as a:
        session = a.hall.login("alice", RecordingListener(), protocol="test")
        room_id = session.create_room("toy").room_id
        await a.settled()
        await until(
            lambda: (
                a.directory._queue == {} and a.directory._writer is not None and a.directory._writer.done()
            )
        )
        async with node(redis_space, "b") as b:
            assert [r.room_id for r in b.hall.rooms()] == [room_id]  # read at start, before any message


async def test_a_dead_nodes_rooms_leave_every_lobby_after_the_ttl(redis_space: RedisSpace) -> None:
    async with node(redis_space, "a") as a, node(redis_space, "b") as b:
        session = a.hall.login("alice", RecordingListener(), protocol="test")
        room_id = session.create_room("toy").room_id
        await a.settled()
        await until(lambda: b.hall.room_info(room_id) is not None)
        await a.die()
        await asyncio.sleep(TTL / 2)
        assert b.hall.room_info(room_id) is not None  # not before the liveness key expired
        await until(lambda: b.hall.room_info(room_id) is None, timeout=TTL * 4)
        # the lobby's push follows within a loop turn or two (it waits for the hall to settle)
        await until(lambda: ("closed", room_id) in [(c, r) for c, r, _ in b.watcher.pushes])
        assert await redis_space.client.hlen(f"{redis_space.prefix}rooms") == 0


async def test_a_room_adopted_by_another_node_stays_listed_as_that_nodes(redis_space: RedisSpace) -> None:
    shared = MemoryStore()
    async with (
        node(redis_space, "a", shared) as a,
        node(redis_space, "b", shared) as b,
        node(redis_space, "c") as c,
    ):
        session = a.hall.login("alice", RecordingListener(), protocol="test")
        room_id = session.create_room("toy").room_id
        session.join(room_id)
        a.hall.login("bob", RecordingListener(), protocol="test").join(room_id)  # a game in play
        await a.settled()
        await until(lambda: c.hall.room_info(room_id) is not None and b.hall.room_info(room_id) is not None)
        await a.die()
        record = shared.load_room(room_id)
        assert record is not None
        assert restore_record(b.hall, record) is not None  # what adoption does after taking the lease
        await b.settled()
        await until(lambda: c.directory.remote.node_of(room_id) == "b")
        await asyncio.sleep(TTL * 3)  # a's liveness key expired and was swept meanwhile
        assert [r.room_id for r in c.hall.rooms()] == [room_id]
        assert [r.room_id for r in b.hall.rooms()] == [room_id]  # listed once: its own room
        assert b.directory.remote.get(room_id) is None


async def test_a_restarted_node_forgets_what_its_previous_process_left(redis_space: RedisSpace) -> None:
    async with node(redis_space, "b") as b:
        async with node(redis_space, "a") as a:
            session = a.hall.login("alice", RecordingListener(), protocol="test")
            room_id = session.create_room("toy").room_id
            await a.settled()
            await until(lambda: b.hall.room_info(room_id) is not None)
            await a.die()
        async with node(redis_space, "a"):
            await until(lambda: b.hall.room_info(room_id) is None, timeout=TTL)  # before the ttl: at start


async def test_a_node_taken_for_dead_publishes_its_rooms_again_when_it_comes_back(
    redis_space: RedisSpace,
) -> None:
    async with node(redis_space, "a") as a, node(redis_space, "b") as b:
        session = a.hall.login("alice", RecordingListener(), protocol="test")
        room_id = session.create_room("toy").room_id
        await a.settled()
        await until(lambda: b.hall.room_info(room_id) is not None)
        await a.die()  # paused, say, past the ttl: b forgets a's room
        await until(lambda: b.hall.room_info(room_id) is None, timeout=TTL * 4)
        assert await a.directory.beat()  # a runs again: its liveness key was gone
        await until(lambda: b.hall.room_info(room_id) is not None)
        assert b.directory.remote.node_of(room_id) == "a"
        assert not await a.directory.beat()  # alive since: nothing to publish again

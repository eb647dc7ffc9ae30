"""Room leases on the real Redis: one owner per room, renewed, released, lost, fenced.

Each test plays two nodes, ``a`` and ``b``, as two :class:`RoomLeases` on the same key prefix.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest
from redis.asyncio import Redis
from redis_space import PausableClock, RedisSpace

from gamehall.cluster import RoomLeases
from gamehall.hall.ownership import Admitted
from gamehall.store.base import Append, LogEntry, MetaUpdate, Write

TTL = 1.0


def node(space: RedisSpace, node_id: str, ttl: float = TTL, **kwargs: object) -> RoomLeases:
    return RoomLeases(space.client, node_id, ttl, prefix=space.prefix, **kwargs)  # type: ignore[arg-type]


async def admit(leases: RoomLeases, writes: Sequence[Write]) -> Admitted:
    """The admission, whether answered at once or (a claim under way) later."""
    answer = leases.admit(writes)
    return answer if isinstance(answer, Admitted) else await answer


def entry(n: int) -> LogEntry:
    return LogEntry(n, "note", None, {}, 0.0)


async def test_a_room_is_acquired_renewed_and_released(redis_space: RedisSpace) -> None:
    a = node(redis_space, "a")
    lease = await a.acquire("r1")
    assert lease is not None and lease.fence == 1
    assert a.fence_of("r1") == 1 and a.holds("r1") and a.owned() == 1
    key = a.lease_key("r1")
    assert await redis_space.client.get(key) == b"a/1"
    assert 0 < await redis_space.client.pttl(key) <= 1000

    await asyncio.sleep(0.6)
    first_deadline = lease.valid_until
    assert await a.renew() == frozenset()
    assert await redis_space.client.pttl(key) > 800  # extended to a full ttl again
    assert lease.valid_until > first_deadline

    a.release("r1")
    await a.stop()
    assert await redis_space.client.exists(key) == 0
    assert a.fence_of("r1") is None and a.owned() == 0


async def test_a_second_node_cannot_take_a_held_room(redis_space: RedisSpace) -> None:
    a, b = node(redis_space, "a"), node(redis_space, "b")
    assert await a.acquire("r1") is not None
    assert await b.acquire("r1") is None
    assert b.fence_of("r1") is None and not b.holds("r1")
    admitted = await admit(b, [Append("r1", entry(1))])
    assert admitted.writes == [] and admitted.refused == {"r1"}
    assert await redis_space.client.get(a.lease_key("r1")) == b"a/1"  # b changed nothing


async def test_an_unrenewed_lease_expires_and_the_next_owner_gets_a_higher_fence(
    redis_space: RedisSpace,
) -> None:
    lost: list[frozenset[str]] = []
    a, b = node(redis_space, "a", ttl=0.5), node(redis_space, "b")
    a.on_lost = lost.append
    first = await a.acquire("r1")
    assert first is not None
    await asyncio.sleep(0.6)  # no renewal: Redis lets the key expire
    assert not a.holds("r1")
    second = await b.acquire("r1")
    assert second is not None and second.fence > first.fence

    assert await a.renew() == {"r1"}  # a learns it lost the room, and says so once
    assert lost == [frozenset({"r1"})]
    a.release("r1")  # a late release must not delete b's lease
    await a.stop()
    assert await redis_space.client.get(b.lease_key("r1")) == f"b/{second.fence}".encode()


async def test_renewal_finding_another_owner_loses_the_room(redis_space: RedisSpace) -> None:
    lost: list[frozenset[str]] = []
    a = node(redis_space, "a")
    a.on_lost = lost.append
    await a.acquire("r1")
    await a.acquire("r2")
    await redis_space.client.set(a.lease_key("r1"), "b/7", px=1000)  # another node's now
    assert await a.renew() == {"r1"}
    assert lost == [frozenset({"r1"})]
    assert a.holds("r2") and not a.holds("r1")


async def test_admit_stamps_what_it_lets_through_and_refuses_unowned_rooms(redis_space: RedisSpace) -> None:
    a = node(redis_space, "a")
    await a.acquire("mine")
    writes = [Append("mine", entry(1)), Append("other", entry(1)), MetaUpdate("mine", {"k": 1})]
    admitted = await admit(a, writes)
    assert [w.room_id for w in admitted.writes] == ["mine", "mine"]
    assert admitted.refused == {"other"}
    for write in admitted.writes:  # carries the fence once the store's writes have the field
        assert getattr(write, "fence", a.fence_of("mine")) == a.fence_of("mine")


async def test_a_claim_under_way_is_awaited_before_the_first_commit(redis_space: RedisSpace) -> None:
    a = node(redis_space, "a")
    a.claim("r1")  # returns at once, as the hall's room creation needs
    answer = a.admit([Append("r1", entry(1))])
    assert not isinstance(answer, Admitted)  # answered once the claim is
    admitted = await answer
    assert admitted.refused == frozenset() and a.fence_of("r1") == 1


async def test_a_node_paused_past_its_deadline_refuses_its_own_writes(redis_space: RedisSpace) -> None:
    """Checked locally before every commit: no round trip decides it, so a node that wakes
    up from SIGSTOP cannot commit before its renewal task noticed anything."""
    clock = PausableClock()
    a = node(redis_space, "a", clock=clock)
    await a.acquire("r1")
    clock.now += TTL * 0.96  # still within the ttl, but past the safety margin
    admitted = a.admit([Append("r1", entry(1))])  # answered at once: no await, no round trip
    assert isinstance(admitted, Admitted)
    assert admitted.writes == [] and admitted.refused == {"r1"}
    assert a.fence_of("r1") is None


async def test_redis_unreachable_past_the_ttl_loses_every_lease(redis_space: RedisSpace) -> None:
    clock = PausableClock()
    lost: list[frozenset[str]] = []
    a = node(redis_space, "a", clock=clock)
    a.on_lost = lost.append
    await a.acquire("r1")
    a.redis = Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2)  # nothing listens there
    a._renew = a.redis.register_script("return {}")
    assert await a.renew() == frozenset()  # one failed renewal: still within the ttl
    clock.now += TTL
    assert await a.renew() == {"r1"}
    assert lost == [frozenset({"r1"})]
    await a.redis.aclose()


@pytest.mark.parametrize("rooms", [1, 50])
async def test_one_renewal_call_serves_every_room(redis_space: RedisSpace, rooms: int) -> None:
    a = node(redis_space, "a")
    for i in range(rooms):
        await a.acquire(f"r{i}")
    calls = 0
    renew = a._renew

    async def counting(**kwargs: object) -> object:
        nonlocal calls
        calls += 1
        return await renew(**kwargs)  # type: ignore[arg-type]

    a._renew = counting  # type: ignore[assignment]
    assert await a.renew() == frozenset()
    assert calls == 1 and a.owned() == rooms


async def test_hundreds_of_rooms_claimed_and_released_at_once_all_reach_redis(
    redis_space: RedisSpace,
) -> None:
    """A node's burst (rooms created together; a drain releasing every room) is more calls at
    once than the client's connection pool holds (100 in redis-py): none may be lost to "Too
    many connections", or a drained room waits out its ttl before another node adopts it."""
    a = node(redis_space, "a")
    rooms = [f"r{i}" for i in range(300)]
    for room_id in rooms:
        a.claim(room_id)
    await asyncio.gather(*list(a._claims.values()))
    assert a.owned() == len(rooms)
    await a.stop()
    assert a.owned() == 0
    assert await redis_space.client.exists(*(a.lease_key(room_id) for room_id in rooms)) == 0

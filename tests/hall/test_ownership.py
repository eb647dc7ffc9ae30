"""The hall on a node of several (gamehall.hall.ownership): rooms are claimed when created,
every batch is admitted before its commit, a room this node may not write any more closes
here without a result and its players hear so, and a closed room is released only after its
last writes are committed.

The ownership here is a plain in-process one (a set of rooms that a test can take away): the
Redis one is tested against the real Redis in tests/cluster/."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from recording_listener import RecordingListener
from toy_game import TOY, Add, Added

from gamehall.hall import Hall
from gamehall.hall.hall import LEASE_LOST_TEXT, Session
from gamehall.hall.ownership import Admitted
from gamehall.protocols._core import CloseReason
from gamehall.server.clock import LoopClock
from gamehall.store.base import Write
from gamehall.store.memory import MemoryStore


class RoomsOwned:
    """An ownership that holds whatever it claims until a test takes a room away."""

    def __init__(self, store: MemoryStore) -> None:
        self.owned: set[str] = set()
        self.released: list[tuple[str, bool]] = []
        """Each release, with whether the room was finished in the store by then."""
        self._store = store

    def claim(self, room_id: str) -> None:
        self.owned.add(room_id)

    def release(self, room_id: str) -> None:
        record = self._store.load_room(room_id)
        self.released.append((room_id, record is not None and record.finished))
        self.owned.discard(room_id)

    def admit(self, writes: Sequence[Write]) -> Admitted:
        refused = frozenset(w.room_id for w in writes if w.room_id not in self.owned)
        return Admitted([w for w in writes if w.room_id not in refused], refused)


async def node_hall() -> tuple[Hall, MemoryStore, RoomsOwned]:
    store = MemoryStore()
    owned = RoomsOwned(store)
    clock = LoopClock()
    hall = Hall(games={"toy": TOY}, store=store, clock=clock, commit_waiter=clock.wait_for, ownership=owned)
    return hall, store, owned


async def settled(hall: Hall) -> None:
    hall.flush()
    async with asyncio.timeout(5):
        while not hall.outbox.idle:
            await asyncio.sleep(0)


Table = tuple[str, Session, RecordingListener, RecordingListener]


async def table(hall: Hall, first: str = "alice", second: str = "bob") -> Table:
    """A toy room with two players seated, committed; returns the first player's session."""
    la, lb = RecordingListener(), RecordingListener()
    a = hall.login(first, la, protocol="test")
    b = hall.login(second, lb, protocol="test")
    room_id = a.create_room("toy").room_id
    a.join(room_id)
    b.join(room_id)
    await settled(hall)
    return room_id, a, la, lb


async def test_a_room_created_here_is_claimed_and_written() -> None:
    hall, store, owned = await node_hall()
    room_id, _alice, _la, _lb = await table(hall)
    assert room_id in owned.owned
    assert [e.kind for e in store.load_room(room_id).entries] == ["join", "join"]  # type: ignore[union-attr]


async def test_a_refused_room_closes_here_and_its_players_are_told_to_reconnect() -> None:
    hall, store, owned = await node_hall()
    lost, alice, la, lb = await table(hall)
    kept, carol, lc, _ld = await table(hall, "carol", "dave")
    before = store.load_room(lost).entries  # type: ignore[union-attr]
    owned.owned.discard(lost)  # the lease is gone: this node may not write the room

    alice.act(lost, Add(1))
    carol.act(kept, Add(2))
    await settled(hall)

    assert hall.room_count() == 1 and hall.room_info(kept) is not None
    assert store.load_room(lost).entries == before  # type: ignore[union-attr]
    assert not store.load_room(lost).finished  # type: ignore[union-attr]
    assert [e.kind for e in store.load_room(kept).entries][-1] == "act"  # type: ignore[union-attr]
    for listener in (la, lb):
        assert listener.ended_calls == [(lost, CloseReason.SHUTDOWN, LEASE_LOST_TEXT)]
        assert not [d for room, d in listener.deliveries if room == lost and isinstance(d.event, Added)]
    assert lc.events()  # the other room's move was delivered


async def test_a_lease_lost_while_its_inputs_wait_for_the_commit_still_tells_the_players() -> None:
    """The renewal noticing the loss in the same turn as an input of the room: the input's
    writes and deliveries are dropped, the players' ``ended`` is not."""
    hall, store, owned = await node_hall()
    room_id, alice, la, lb = await table(hall)
    alice.act(room_id, Add(1))  # queued, not committed yet
    owned.owned.discard(room_id)
    hall.leases_lost(frozenset({room_id}))
    await settled(hall)
    assert la.ended_calls == lb.ended_calls == [(room_id, CloseReason.SHUTDOWN, LEASE_LOST_TEXT)]
    assert [e.kind for e in store.load_room(room_id).entries] == ["join", "join"]  # type: ignore[union-attr]


async def test_a_closed_room_is_released_after_its_last_writes_are_committed() -> None:
    hall, _store, owned = await node_hall()
    room_id, _alice, _la, _lb = await table(hall)
    hall.room(room_id).close(CloseReason.ABORTED, "closed", result={"termination": "aborted"})
    assert owned.released == []  # its Finish is only queued
    await settled(hall)
    assert owned.released == [(room_id, True)]

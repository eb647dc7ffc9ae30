"""The hall's outbox (gamehall.hall.outbox): inputs are applied and logged at once, but nobody
hears of them while the hall call runs; at the end of the loop's turn the turn's writes are
committed in one batch and only then delivered, in order. Driven without ``turn_by_turn`` on
purpose: these tests end the turns themselves."""

from __future__ import annotations

import asyncio
from typing import Any

from background_store import BackgroundStore
from recording_listener import RecordingListener
from toy_game import TOY, Add, Added

from gamehall.hall import FakeClock, Hall
from gamehall.protocols._core import CloseReason, Delivery
from gamehall.server.clock import LoopClock
from gamehall.store.memory import MemoryStore


def make_hall(store: Any = None, clock: Any = None) -> Hall:
    return Hall(games={"toy": TOY}, store=store or MemoryStore(), clock=clock or FakeClock())


def seated_pair(hall: Hall) -> tuple[str, Any, Any, RecordingListener, RecordingListener]:
    la, lb = RecordingListener(), RecordingListener()
    alice = hall.login("alice", la, protocol="test")
    bob = hall.login("bob", lb, protocol="test")
    room_id = alice.create_room("toy").room_id
    alice.join(room_id)
    bob.join(room_id)
    hall.flush()
    return room_id, alice, bob, la, lb


def test_nothing_is_delivered_until_the_turn_ends_and_then_in_sequence() -> None:
    clock = FakeClock()
    store = MemoryStore()
    hall = make_hall(store, clock)
    room_id, alice, _bob, la, lb = seated_pair(hall)
    before = len(la.deliveries)
    alice.act(room_id, Add(1))
    assert len(la.deliveries) == before  # applied and queued, not heard
    assert [e.kind for e in store.load_room(room_id).entries][-1] != "act"  # type: ignore[union-attr]
    clock.run_due()  # the loop's turn is over
    assert [e.kind for e in store.load_room(room_id).entries][-1] == "act"  # type: ignore[union-attr]
    assert [e.total for e in la.events(Added)] == [1]
    assert la.seqs() == sorted(la.seqs()) and lb.seqs() == sorted(lb.seqs())


def test_the_writes_of_one_turn_are_one_commit_across_rooms() -> None:
    hall = make_hall()
    first, alice, _bob, _la, _lb = seated_pair(hall)
    carol = hall.login("carol", RecordingListener(), protocol="test")
    dave = hall.login("dave", RecordingListener(), protocol="test")
    second = carol.create_room("toy").room_id
    carol.join(second)
    dave.join(second)
    hall.flush()
    batches = hall.outbox.batches
    alice.act(first, Add(2))
    carol.act(second, Add(3))
    hall.flush()
    assert hall.outbox.batches == batches + 1


def test_a_listener_may_call_the_hall_at_once_and_its_events_follow() -> None:
    hall = make_hall()
    la = RecordingListener()
    alice = hall.login("alice", la, protocol="test")
    room_id = alice.create_room("toy").room_id
    alice.join(room_id)

    class Answers(RecordingListener):
        """Bob plays 1 as soon as he hears alice's move: a hall call from inside a delivery."""

        def deliver(self, room_id: str, delivery: Delivery) -> None:
            super().deliver(room_id, delivery)
            if isinstance(delivery.event, Added) and delivery.event.seat == 0:
                bob.act(room_id, Add(1))

    bob = hall.login("bob", Answers(), protocol="test")
    bob.join(room_id)
    hall.flush()
    alice.act(room_id, Add(2))
    hall.flush()  # one flush: alice's move, then bob's answer, each committed before it is heard
    assert [(e.seat, e.total) for e in la.events(Added)] == [(0, 2), (1, 3)]
    entries = hall.store.load_room(room_id).entries  # type: ignore[union-attr]
    assert [e.kind for e in entries][-2:] == ["act", "act"]


def test_a_failed_commit_delivers_nothing_of_it_and_closes_the_room() -> None:
    store = MemoryStore()
    hall = make_hall(store)
    room_id, alice, _bob, la, _lb = seated_pair(hall)
    alice.act(room_id, Add(2))
    store.close()  # the database is gone: the commit of this turn fails
    hall.flush()
    assert la.events(Added) == []  # never heard: it is not in any log
    assert la.ended_calls and la.ended_calls[-1][1] is CloseReason.SHUTDOWN
    assert hall.rooms() == []


def test_a_background_commit_is_awaited_before_anything_is_delivered() -> None:
    async def scenario() -> None:
        clock = LoopClock()
        store = BackgroundStore()
        hall = Hall(games={"toy": TOY}, store=store, clock=clock, commit_waiter=clock.wait_for)
        la = RecordingListener()
        alice = hall.login("alice", la, protocol="test")
        bob = hall.login("bob", RecordingListener(), protocol="test")
        room_id = alice.create_room("toy").room_id
        alice.join(room_id)
        bob.join(room_id)
        await asyncio.sleep(0.002)  # the turn ends: the commit starts, nothing is delivered yet
        assert store.started == 1 and la.deliveries == []
        alice_moves = len(la.events(Added))
        await asyncio.sleep(0.3)
        assert la.deliveries and store.load_room(room_id) is not None
        alice.act(room_id, Add(1))
        await asyncio.sleep(0.002)
        assert len(la.events(Added)) == alice_moves  # the act's commit is under way
        await asyncio.sleep(0.3)
        assert [e.total for e in la.events(Added)] == [1]
        assert hall.outbox.idle

    asyncio.run(scenario())


class BrokenListener(RecordingListener):
    """A connection with a bug: every delivery raises."""

    def deliver(self, room_id: str, delivery: Delivery) -> None:
        raise RuntimeError("a bug in this connection")


def test_a_listener_that_fails_on_a_delivery_costs_the_others_nothing() -> None:
    hall = make_hall()
    broken, lb = BrokenListener(), RecordingListener()
    alice = hall.login("alice", broken, protocol="test")
    bob = hall.login("bob", lb, protocol="test")
    room_id = alice.create_room("toy").room_id
    alice.join(room_id)
    bob.join(room_id)
    hall.flush()
    alice.act(room_id, Add(1))
    bob.act(room_id, Add(2))  # the same turn of the loop: both delivered by one flush
    hall.flush()
    assert [e.total for e in lb.events(Added)] == [1, 3]
    assert lb.seqs() == sorted(lb.seqs())


# ------------------------------------------------------------------ the write barrier


def test_the_barrier_passes_at_once_when_the_store_commits_in_place() -> None:
    hall = make_hall()
    room_id, alice, _bob, la, _lb = seated_pair(hall)
    alice.act(room_id, Add(2))
    resumed: list[str] = []
    assert hall.write_barrier(lambda: resumed.append("resumed"))  # flushed: committed, delivered
    assert [e.total for e in la.events(Added)] == [2]
    assert [e.kind for e in hall.store.load_room(room_id).entries][-1] == "act"  # type: ignore[union-attr]
    assert resumed == []


def test_the_barrier_holds_a_reply_until_the_background_commit_of_its_input_finished() -> None:
    async def scenario() -> None:
        clock = LoopClock()
        store = BackgroundStore()
        hall = Hall(games={"toy": TOY}, store=store, clock=clock, commit_waiter=clock.wait_for)
        room_id, alice, _bob, la, _lb = seated_pair(hall)
        await asyncio.sleep(0.2)  # the seating is committed
        alice.act(room_id, Add(2))  # the dialogue would answer this input now
        seen_at_resume: list[tuple[bool, int]] = []

        def resume() -> None:
            entries = store.load_room(room_id).entries  # type: ignore[union-attr]
            seen_at_resume.append((entries[-1].kind == "act", len(la.events(Added))))

        assert not hall.write_barrier(resume)  # the act's commit is under way: wait
        assert seen_at_resume == []
        await asyncio.sleep(0.2)
        assert seen_at_resume == [(True, 1)]  # resumed once, after the commit and its deliveries

    asyncio.run(scenario())


def test_a_barrier_behind_a_failed_background_commit_is_released_and_the_room_closes() -> None:
    async def scenario() -> None:
        clock = LoopClock()
        store = BackgroundStore()
        hall = Hall(games={"toy": TOY}, store=store, clock=clock, commit_waiter=clock.wait_for)
        room_id, alice, _bob, la, _lb = seated_pair(hall)
        await asyncio.sleep(0.2)
        store.fail_next = True
        alice.act(room_id, Add(2))
        resumed: list[str] = []
        assert not hall.write_barrier(lambda: resumed.append("resumed"))
        await asyncio.sleep(0.2)
        assert resumed == ["resumed"]  # released, never stuck
        assert hall.rooms() == []  # the room ran ahead of its log: closed
        assert la.events(Added) == []  # the lost move was never heard
        assert hall.outbox.idle

    asyncio.run(scenario())


def test_writes_a_node_drops_with_a_lost_lease_release_the_barrier_that_waited_for_them() -> None:
    async def scenario() -> None:
        clock = LoopClock()
        store = BackgroundStore()
        hall = Hall(games={"toy": TOY}, store=store, clock=clock, commit_waiter=clock.wait_for)
        room_id, alice, bob, _la, _lb = seated_pair(hall)
        await asyncio.sleep(0.2)
        alice.act(room_id, Add(1))
        await asyncio.sleep(0.01)  # that act's commit is under way
        bob.act(room_id, Add(2))  # queued behind it
        resumed: list[str] = []
        assert not hall.write_barrier(lambda: resumed.append("resumed"))
        hall.outbox.forget(frozenset({room_id}))  # the lease is lost: the queued act never commits
        await asyncio.sleep(0.2)
        assert resumed == ["resumed"]  # released once the first commit finished, not stuck

    asyncio.run(scenario())

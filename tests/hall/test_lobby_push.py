"""The lobby feed pushes room changes after the hall's outbox has committed them
(gamehall.hall.lobby_feed): a watcher never sees a seat the store does not hold, and the
rooms touched in one loop turn cost at most one push each."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from background_store import BackgroundStore
from recording_listener import RecordingListener
from toy_game import TOY, Add

from gamehall.hall import FakeClock, Hall
from gamehall.protocols._core import RoomInfo
from gamehall.rules._core import JSON
from gamehall.server.clock import LoopClock
from gamehall.store.memory import MemoryStore


class Watcher:
    """A lobby watcher that records each push with what the store held at that moment."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store
        self.pushes: list[tuple[str, dict[int, str], int]] = []

    def lobby_changed(self, change: str, info: RoomInfo) -> None:
        record = self.store.load_room(info.room_id)
        committed_joins = sum(e.kind == "join" for e in record.entries) if record else 0
        self.pushes.append((change, dict(info.seats), committed_joins))

    def preparing_changed(self, state: Mapping[str, JSON] | None) -> None:
        pass


def test_a_seat_change_reaches_the_lobby_only_after_its_background_commit() -> None:
    async def scenario() -> None:
        clock = LoopClock()
        store = BackgroundStore()
        hall = Hall(games={"toy": TOY}, store=store, clock=clock, commit_waiter=clock.wait_for)
        watcher = Watcher(store)
        hall.watch_lobby(watcher)
        alice = hall.login("alice", RecordingListener(), protocol="test")
        room_id = alice.create_room("toy").room_id
        await asyncio.sleep(0.2)
        alice.join(room_id)
        await asyncio.sleep(0.01)  # the turn is over, the commit under way
        assert [p for p in watcher.pushes if p[0] == "changed"] == []
        await asyncio.sleep(0.2)
        assert [p for p in watcher.pushes if p[0] == "changed"] == [("changed", {0: "alice"}, 1)]

    asyncio.run(scenario())


def test_the_rooms_touched_in_one_turn_are_pushed_once_each_after_the_commit() -> None:
    clock = FakeClock()
    store = MemoryStore()
    hall = Hall(games={"toy": TOY}, store=store, clock=clock)
    watcher = Watcher(store)
    hall.watch_lobby(watcher)
    alice = hall.login("alice", RecordingListener(), protocol="test")
    bob = hall.login("bob", RecordingListener(), protocol="test")
    room_id = alice.create_room("toy").room_id
    clock.run_due()
    alice.join(room_id)
    bob.join(room_id)
    alice.act(room_id, Add(1))
    assert [p for p in watcher.pushes if p[0] == "changed"] == []  # the hall call is still "on the stack"
    clock.run_due()  # the turn is over: one commit, then one push for the room
    assert [p for p in watcher.pushes if p[0] == "changed"] == [("changed", {0: "alice", 1: "bob"}, 2)]
    clock.run_due()
    assert len([p for p in watcher.pushes if p[0] == "changed"]) == 1  # nothing new: no push


def test_a_seat_whose_commit_failed_never_shows_in_the_lobby() -> None:
    clock = FakeClock()
    store = MemoryStore()
    hall = Hall(games={"toy": TOY}, store=store, clock=clock)
    watcher = Watcher(MemoryStore())
    hall.watch_lobby(watcher)
    alice = hall.login("alice", RecordingListener(), protocol="test")
    room_id = alice.create_room("toy").room_id
    clock.run_due()
    alice.join(room_id)
    store.close()  # the database is gone: this turn's commit fails
    clock.run_due()
    changes = [(change, seats) for change, seats, _ in watcher.pushes]
    assert ("changed", {0: "alice"}) not in changes
    assert changes[-1][0] == "closed"  # the room ran ahead of its log: it closes

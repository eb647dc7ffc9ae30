"""A room's recent events for resume ("what did I miss since n"): at least HISTORY_LIMIT of them,
kept compactly (events, not deliveries; trimmed in steps), and handed back numbered exactly as
they were delivered, each seat seeing only what it may see."""

from __future__ import annotations

import pytest
from recording_listener import RecordingListener
from toy_game import TOY, Secret
from turns import turn_by_turn

from gamehall.hall import FakeClock, Hall
from gamehall.hall.room import HISTORY_LIMIT, HISTORY_TRIM
from gamehall.protocols._core import HallError
from gamehall.store.memory import MemoryStore


def _room_with_two() -> tuple[Hall, str, RecordingListener, RecordingListener]:
    hall = turn_by_turn(
        Hall(games={"toy": TOY}, store=MemoryStore(), clock=FakeClock(), seed_source=lambda: 1)
    )
    la, lb = RecordingListener(), RecordingListener()
    alice = hall.login("alice", la, protocol="test")
    bob = hall.login("bob", lb, protocol="test")
    room = alice.create_room("toy", {})
    alice.join(room.room_id)
    bob.join(room.room_id)
    return hall, room.room_id, la, lb


def test_a_resume_gets_the_deliveries_it_missed_as_they_were_delivered() -> None:
    hall, room_id, la, lb = _room_with_two()
    room = hall.room(room_id)
    for n in range(5):
        room.chat("alice", f"line {n}")
    since = la.seqs()[0]
    assert room.deliveries_since(since, 0) == [d for _, d in la.deliveries if d.seq > since]
    assert room.deliveries_since(since, 1) == [d for _, d in lb.deliveries if d.seq > since]
    assert any(isinstance(d.event, Secret) for d in room.deliveries_since(0, 0))
    assert room.deliveries_since(room.last_seq, 0) == []


def test_the_history_keeps_at_least_its_limit_and_forgets_older_events() -> None:
    hall, room_id, la, _lb = _room_with_two()
    room = hall.room(room_id)
    for n in range(3 * (HISTORY_LIMIT + HISTORY_TRIM)):
        room.chat("alice", f"line {n}")
        kept = max(0, room.last_seq - HISTORY_LIMIT)
        assert room.deliveries_since(kept, 0) == [d for _, d in la.deliveries if d.seq > kept]
    assert room.deliveries_since(room.last_seq - 3, 0) == [d for _, d in la.deliveries[-3:]]
    with pytest.raises(HallError) as gone:
        room.deliveries_since(room.last_seq - HISTORY_LIMIT - HISTORY_TRIM - 1, 0)
    assert gone.value.code == "history_gone"

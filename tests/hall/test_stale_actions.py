"""Stale actions (gamehall.hall.stale): an action may name the room ``seq`` it was decided on;
the room refuses it, changing nothing, when it has since accepted an input that moved the
seat's turn and was delivered to the seat (not the seat's own). The toy game "Race to N"
(tests/support/toy_game.py) stands in for a real game: seats add 1-3 in turn, a turn timer
adds 1 for the seat to move, and ``Resign`` may be played at any time."""

from __future__ import annotations

import pytest
from recording_listener import RecordingListener
from toy_game import TOY, Add, Added, Resign
from turns import turn_by_turn_hall

from gamehall.hall import FakeClock, Hall
from gamehall.protocols._core import HallError
from gamehall.rules._core import SeatLeft
from gamehall.store.memory import MemoryStore


def make_hall(clock: FakeClock) -> tuple[Hall, MemoryStore]:
    seeds = iter(range(1, 10_000))
    store = MemoryStore()
    hall = turn_by_turn_hall(
        games={"toy": TOY}, store=store, clock=clock, defaults={"toy": {}}, seed_source=lambda: next(seeds)
    )
    return hall, store


def seated(hall: Hall, names: list[str], **settings: object):  # type: ignore[no-untyped-def]
    """Log in ``names``, seat them in order in a new toy room (full: the game starts)."""
    listeners = [RecordingListener() for _ in names]
    sessions = [
        hall.login(name, listener, protocol="test") for name, listener in zip(names, listeners, strict=True)
    ]
    room = sessions[0].create_room("toy", {"seats": len(names), **settings})
    for session in sessions:
        session.join(room.room_id)
    return room.room_id, sessions, listeners


def test_a_move_decided_before_the_timer_and_the_other_seat_moved_is_refused_and_changes_nothing() -> None:
    clock = FakeClock()
    hall, store = make_hall(clock)
    room_id, (alice, bob), (_la, lb) = seated(hall, ["alice", "bob"], turn_s=5.0, target=100)
    room = hall.room(room_id)
    alice.act(room_id, Add(2))
    decided_on = room.last_seq  # bob's view: his turn, total 2
    clock.advance(5.1)  # bob was too slow: the timer adds 1 for him...
    alice.act(room_id, Add(1))  # ...and alice moved: it is bob's turn again, total 4
    entries, total, heard = len(store.load_room(room_id).entries), room.state.total, len(lb.deliveries)  # type: ignore[union-attr]

    with pytest.raises(HallError) as refused:
        bob.act(room_id, Add(3), seq=decided_on)  # legal now, but decided on an older table

    assert refused.value.code == "stale"
    assert room.state.total == total == 4 and room.state.turn == 1
    assert len(store.load_room(room_id).entries) == entries  # type: ignore[union-attr]
    assert len(lb.deliveries) == heard
    bob.act(room_id, Add(3), seq=room.last_seq)  # decided again on the fresh view: accepted
    assert room.state.total == 7


def test_a_seq_after_the_last_turn_change_is_current() -> None:
    hall, _store = make_hall(FakeClock())
    room_id, (alice, bob), _ = seated(hall, ["alice", "bob"], target=100)
    room = hall.room(room_id)
    alice.act(room_id, Add(1))
    bob.act(room_id, Add(1), seq=room.last_seq)
    alice.act(room_id, Add(1), seq=room.last_seq + 50)  # ahead of the room (a restart renumbers)
    assert room.state.total == 3


def test_chat_and_moves_that_leave_the_seat_s_turn_as_it_was_do_not_make_it_stale() -> None:
    hall, _store = make_hall(FakeClock())
    room_id, (alice, bob, carol), (_la, _lb, lc) = seated(hall, ["alice", "bob", "carol"], target=100)
    room = hall.room(room_id)
    decided_on = room.last_seq  # carol, not to move, decides to resign
    alice.act(room_id, Add(2))  # carol sees it, but it is still not her turn
    bob.chat(room_id, "hurry up")
    assert [e.total for e in lc.events(Added)] == [2]

    carol.act(room_id, Resign(), seq=decided_on)

    assert [e.name for e in lc.events(SeatLeft)] == ["carol"]
    assert room.state.turn == 1  # bob's move, untouched


def test_a_move_that_passes_the_turn_to_the_seat_makes_its_older_decisions_stale() -> None:
    hall, _store = make_hall(FakeClock())
    room_id, (alice, bob, _carol), _ = seated(hall, ["alice", "bob", "carol"], target=100)
    room = hall.room(room_id)
    decided_on = room.last_seq
    alice.act(room_id, Add(2))  # now bob's turn: his view changed in a way that matters
    with pytest.raises(HallError) as refused:
        bob.act(room_id, Resign(), seq=decided_on)
    assert refused.value.code == "stale"
    assert room.state.seat_names() == {0: "alice", 1: "bob", 2: "carol"}


def test_without_a_seq_nothing_is_checked() -> None:
    clock = FakeClock()
    hall, _store = make_hall(clock)
    room_id, (alice, bob), _ = seated(hall, ["alice", "bob"], turn_s=5.0, target=100)
    alice.act(room_id, Add(2))
    clock.advance(5.1)
    alice.act(room_id, Add(1))
    bob.act(room_id, Add(3))  # every legacy protocol: today's behaviour
    assert hall.room(room_id).state.total == 7

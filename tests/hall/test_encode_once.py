"""Encode once (docs/architecture.md): the listeners of one room event share one render cache,
so a rendering is made once per protocol and key; the room's history keeps no rendered bytes."""

from __future__ import annotations

import pytest
from recording_listener import RecordingListener
from render_counting import per_listener
from toy_game import TOY
from turns import turn_by_turn_hall

from gamehall.hall import FakeClock, Hall
from gamehall.protocols._core import Delivery
from gamehall.rules._core import SeatJoined
from gamehall.store.memory import MemoryStore


def test_rendered_runs_once_per_key_and_hands_every_caller_the_same_object() -> None:
    delivery = Delivery(1, SeatJoined(seat=0, name="ann")).sharing_renders()
    calls: list[str] = []

    def render(label: str) -> bytes:
        calls.append(label)
        return f"{label}\n".encode()

    first = delivery.rendered(("p", "x"), lambda: render("x"))
    second = delivery.rendered(("p", "x"), lambda: render("x"))
    other = delivery.rendered(("p", "y"), lambda: render("y"))
    assert first is second and first == b"x\n" and other == b"y\n"
    assert calls == ["x", "y"]


def test_a_delivery_without_a_cache_renders_every_time() -> None:
    delivery = Delivery(1, SeatJoined(seat=0, name="ann"))
    calls: list[int] = []

    def render() -> bytes:
        calls.append(1)
        return b""

    for _ in range(3):
        delivery.rendered(("p",), render)
    assert len(calls) == 3


def test_the_cache_is_no_part_of_a_deliverys_identity() -> None:
    event = SeatJoined(seat=0, name="ann")
    shared = Delivery(1, event).sharing_renders()
    shared.rendered(("p",), lambda: b"x")
    assert shared == Delivery(1, event)
    assert "renders" not in repr(shared)


def _room_with(listeners: int) -> tuple[Hall, str, list[RecordingListener]]:
    """A toy room with two seats, ``listeners - 2`` spectators, and a chat line last."""
    seeds = iter(range(1, 100))
    hall = turn_by_turn_hall(
        games={"toy": TOY}, store=MemoryStore(), clock=FakeClock(), seed_source=lambda: next(seeds)
    )
    recorders = [RecordingListener() for _ in range(listeners)]
    sessions = [hall.login(f"u{i}", recorder, protocol="test") for i, recorder in enumerate(recorders)]
    room_id = sessions[0].create_room("toy").room_id
    for index, session in enumerate(sessions):
        if index < 2:
            session.join(room_id)
        else:
            session.spectate(room_id)
    session.chat(room_id, "hello")  # one public event every member hears
    return hall, room_id, recorders


def test_every_listener_of_one_event_gets_the_same_delivery_with_one_cache() -> None:
    _, _, recorders = _room_with(3)
    last = [recorder.deliveries[-1][1] for recorder in recorders]
    assert last[0] is last[1] is last[2]
    assert last[0].renders == {}


def test_the_history_keeps_no_rendered_bytes() -> None:
    hall, room_id, recorders = _room_with(2)
    delivery = recorders[0].deliveries[-1][1]
    delivery.rendered(("p",), lambda: b"bytes")
    room = hall.room(room_id)
    assert all(kept.renders is None for kept in room.deliveries_since(0, None))


def test_without_encode_once_each_listener_gets_a_delivery_without_a_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    per_listener(monkeypatch)
    _, _, recorders = _room_with(2)
    assert all(d.renders is None for recorder in recorders for _, d in recorder.deliveries)

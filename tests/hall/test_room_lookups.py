"""``HallPort.room_info`` (one room by id) and ``Hall.name_free`` read the directory, not a list
of every room (issue 12 item 5)."""

from __future__ import annotations

from typing import Any

import pytest
from recording_listener import RecordingListener
from toy_game import TOY

from gamehall.hall import FakeClock, Hall
from gamehall.protocols._core import CloseReason
from gamehall.store.memory import MemoryStore


def make_hall() -> Hall:
    return Hall(games={"toy": TOY}, store=MemoryStore(), clock=FakeClock())


def test_room_info_by_id_and_none_once_closed_or_unknown() -> None:
    hall = make_hall()
    session = hall.login("ann", RecordingListener(), protocol="test")
    info = session.create_room("toy", title="first")
    assert hall.room_info(info.room_id) == hall.rooms("toy")[0]
    assert hall.room_info("no-such-room") is None
    hall.room(info.room_id).close(CloseReason.ABORTED, "bye", result={"closed": True})
    assert hall.room_info(info.room_id) is None


def test_name_free_sees_seats_without_listing_rooms(monkeypatch: pytest.MonkeyPatch) -> None:
    hall = make_hall()
    session = hall.login("Ann", RecordingListener(), protocol="test")
    room = session.create_room("toy")
    session.join(room.room_id)
    # a seat without a user of its own, as a bot's seat after a restart
    monkeypatch.delitem(hall._users, "ann")

    def listed(*_args: Any) -> Any:
        raise AssertionError("name_free listed every room")

    monkeypatch.setattr(hall.directory, "rooms", listed)
    assert not hall.name_free("ANN")
    assert hall.name_free("bob")

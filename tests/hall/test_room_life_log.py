"""The server's INFO log tells a host each room's life: created, started, finished, and resumed
after a crash or restart (the hall's lobby feed writes these lines)."""

from __future__ import annotations

import logging

import pytest
from recording_listener import RecordingListener
from turns import turn_by_turn_hall

from gamehall.hall import FakeClock
from gamehall.protocols._core import CloseReason
from gamehall.rules.aah import GAME_TYPE as AAH
from gamehall.store.memory import MemoryStore


def test_created_started_and_resumed_after_a_restart_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="gamehall.hall")
    store = MemoryStore()
    clock = FakeClock()
    hall = turn_by_turn_hall(games={"aah": AAH}, store=store, clock=clock)
    sessions = [hall.login(name, RecordingListener(), protocol="test") for name in ("ann", "ben", "cy")]
    room_id = sessions[0].create_room("aah", {"autostart_delay": 0}, title="Friday").room_id
    for session in sessions:
        session.join(room_id)
    sessions[0].start(room_id)
    clock.run_due()
    lines = [r.getMessage() for r in caplog.records]
    assert f"room {room_id} (aah) created by ann: 'Friday'" in lines
    assert f"room {room_id} (aah) started: ann, ben, cy" in lines

    caplog.clear()
    restarted = turn_by_turn_hall(
        games={"aah": AAH}, store=store, clock=FakeClock()
    )  # the process died; a new one
    assert restarted.restore() == 1
    lines = [r.getMessage() for r in caplog.records]
    assert f"room {room_id} (aah) resumed after a restart: playing, seats ann, ben, cy" in lines

    caplog.clear()
    restarted.room(room_id).close(CloseReason.ABORTED, "stopped by hand")
    assert f"room {room_id} (aah) closed during play" in [r.getMessage() for r in caplog.records]

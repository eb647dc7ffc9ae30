"""The hall's clock on the event loop: monotonic time, timers, and errors that stay contained."""

from __future__ import annotations

import asyncio
import logging

import pytest

from gamehall.server.clock import LoopClock


async def test_now_is_the_loop_time_and_timers_fire_in_order() -> None:
    clock = LoopClock()
    assert abs(clock.now() - asyncio.get_running_loop().time()) < 0.01
    fired: list[str] = []
    clock.call_later(0.02, lambda: fired.append("late"))
    clock.call_later(0.0, lambda: fired.append("soon"))
    clock.call_later(-5, lambda: fired.append("negative delay runs at once"))
    cancelled = clock.call_later(0.01, lambda: fired.append("cancelled"))
    cancelled.cancel()
    await asyncio.sleep(0.05)
    assert fired == ["soon", "negative delay runs at once", "late"]


async def test_a_raising_callback_is_logged_and_the_loop_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="gamehall.server.clock")
    clock = LoopClock()
    fired: list[int] = []

    def broken() -> None:
        raise ValueError("bug in a timer")

    clock.call_later(0, broken)
    clock.call_later(0.01, lambda: fired.append(1))
    await asyncio.sleep(0.03)
    assert fired == [1]
    assert clock.callback_errors == 1
    assert any(record.exc_info and "bug in a timer" in str(record.exc_info[1]) for record in caplog.records)

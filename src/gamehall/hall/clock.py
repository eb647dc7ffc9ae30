"""Clocks for the hall: timeouts are events, so tests can run whole games without sleeping.

The server hands the hall a clock backed by the event loop (``gamehall.server.clock``); tests use
:class:`FakeClock`, whose time moves only when :meth:`FakeClock.advance` is called, firing due
callbacks in deadline order exactly as a real loop would.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(order=True)
class _Scheduled:
    deadline: float
    order: int
    callback: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """A manual clock implementing :class:`gamehall.protocols._core.Clock`."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._queue: list[_Scheduled] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def call_later(self, delay: float, callback: Callable[[], None]) -> _Scheduled:
        item = _Scheduled(self._now + max(0.0, delay), next(self._order), callback)
        heapq.heappush(self._queue, item)
        return item

    def advance(self, seconds: float) -> None:
        """Move time forward, running every callback that falls due, in order (callbacks
        scheduled by callbacks run too if they fall inside the window)."""
        target = self._now + seconds
        while self._queue and self._queue[0].deadline <= target:
            item = heapq.heappop(self._queue)
            if item.cancelled:
                continue
            self._now = max(self._now, item.deadline)
            item.callback()
        self._now = target

    def run_due(self) -> None:
        """Run callbacks due now (``call_later(0, ...)``) without moving time."""
        self.advance(0.0)

    def pending(self) -> int:
        """How many live callbacks are scheduled."""
        return sum(1 for item in self._queue if not item.cancelled)

    def next_deadline(self) -> float | None:
        live = [item.deadline for item in self._queue if not item.cancelled]
        return min(live) if live else None

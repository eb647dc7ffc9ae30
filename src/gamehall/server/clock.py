"""The hall's clock on the running event loop.

The hall and the dialogues only know :class:`gamehall.protocols._core.Clock`; in tests they get
:class:`gamehall.hall.clock.FakeClock`, in the server this one. Time is the loop's monotonic
``loop.time()``, so timers and ``now()`` agree with each other and never jump with the wall
clock.

A callback that raises is a bug in the hall or a dialogue, but it must not take the server
down with it: the exception is logged with its traceback and the loop goes on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("gamehall.server.clock")


class LoopClock:
    """:class:`~gamehall.protocols._core.Clock` backed by an asyncio loop.

    ``loop`` defaults to the loop running when the clock is created (create it inside a
    coroutine).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self._loop = loop if loop is not None else asyncio.get_running_loop()
        self.callback_errors = 0
        """How many timer callbacks raised (for metrics and tests)."""

    def now(self) -> float:
        """Seconds on the loop's monotonic clock."""
        return self._loop.time()

    def call_later(self, delay: float, callback: Callable[[], None]) -> asyncio.TimerHandle:
        """Run ``callback`` after ``delay`` seconds (at once if ``delay <= 0``).

        Returns the loop's handle; ``cancel()`` on it stops the callback if it has not run.
        """
        return self._loop.call_later(max(0.0, delay), self._guarded, callback)

    def wait_for(self, pending: Awaitable[None], done: Callable[[BaseException | None], None]) -> None:
        """Run ``pending`` (a store's background commit) as a task on the loop, then call
        ``done`` with its error or ``None`` (the hall's commit waiter, :mod:`gamehall.hall.outbox`)."""

        def finished(task: asyncio.Future[None]) -> None:
            error = asyncio.CancelledError() if task.cancelled() else task.exception()
            self._guarded(lambda: done(error))

        asyncio.ensure_future(pending, loop=self._loop).add_done_callback(finished)

    def _guarded(self, callback: Callable[[], None]) -> None:
        try:
            callback()
        except Exception:
            self.callback_errors += 1
            log.exception("timer callback %r raised; the server goes on", callback)

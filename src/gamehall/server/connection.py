"""One TCP client connection: the asyncio side of a sans-I/O dialogue.

:class:`TcpConnection` is an :class:`asyncio.Protocol` that implements
:class:`gamehall.protocols._core.Wire` for its dialogue. It owns everything the dialogue must
not: the socket, write batching, backpressure and the limits of :mod:`gamehall.server.limits`.

Writes are batched per loop iteration: ``send()`` only appends to a list, and one callback
scheduled with ``loop.call_soon`` hands the whole batch to the transport in a single
``write``. A broadcast to a table therefore costs one system call per connection, not one per
frame, and frames are never interleaved.

Reads are not capped here: the loop hands over at most one socket read at a time (256 KiB
with asyncio and uvloop), and the dialogue's codec caps frames and lines, with the protocol's
own error wording. The server only limits how many reads a peer may cause (the rate limit).

Lifecycle: whatever ends the connection (the peer, the dialogue's ``close()``, a limit, an
error), the dialogue's ``connection_lost()`` is called exactly once, when the transport is
gone, so the dialogue has a single place to log its user out.

An exception escaping the dialogue is a bug: it is logged with the connection id and that
connection is closed. The server and the other connections go on.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import cast

from gamehall.protocols._core import Dialogue, Wire
from gamehall.server.limits import ConnectionLimits, TokenBucket, enable_keepalive
from gamehall.server.metrics import ServerMetrics
from gamehall.server.tracker import ConnectionTracker, next_connection_id

log = logging.getLogger("gamehall.server")

DialogueFactory = Callable[[Wire], Dialogue]
"""Builds a connection's dialogue; the server binds the hall and the clock beforehand."""


class TcpConnection(asyncio.Protocol):
    """A client connection of one TCP protocol (see the module docstring)."""

    def __init__(
        self,
        protocol: str,
        factory: DialogueFactory,
        limits: ConnectionLimits,
        metrics: ServerMetrics,
        tracker: ConnectionTracker,
    ) -> None:
        self.protocol = protocol
        self.connection_id = next_connection_id(protocol)
        self._factory = factory
        self._limits = limits
        self._metrics = metrics
        self._tracker = tracker
        self._loop = asyncio.get_running_loop()
        self._transport: asyncio.Transport | None = None
        self._dialogue: Dialogue | None = None
        self._peer = "?"
        self._pending: list[bytes] = []
        self._pending_bytes = 0
        self._flush_scheduled = False
        self._paused = False
        self._closing = False
        self._lost = False
        self._close_reason = "peer"
        self._last_input = self._loop.time()
        self._bucket = TokenBucket(limits.rate_per_s, limits.rate_burst, self._last_input)
        self._idle_timer: asyncio.TimerHandle | None = None
        self._abort_timer: asyncio.TimerHandle | None = None
        self.keepalive = False
        self.writes = 0
        """Transport writes made (each carries one loop iteration's batch)."""

    # ---- Wire ------------------------------------------------------------------------------

    @property
    def peer(self) -> str:
        return self._peer

    def send(self, data: bytes) -> None:
        """Queue one frame; the batch goes out at the end of this loop iteration.

        Cuts the connection off (as a drop) when the unsent bytes exceed the limit.
        """
        if self._closing or self._lost or self._transport is None:
            return
        self._pending.append(data)
        self._pending_bytes += len(data)
        self._metrics.messages_out.inc(self.protocol)
        self._metrics.bytes_out.inc(self.protocol, amount=len(data))
        if self._over_limit():
            self._cut_off_slow_consumer()
            return
        if not self._flush_scheduled and not self._paused:
            self._flush_scheduled = True
            self._loop.call_soon(self._flush)

    def close(self) -> None:
        """Flush what is queued, then close. Later input and sends are discarded."""
        self._begin_close("server")

    @property
    def limits(self) -> ConnectionLimits:
        return self._limits

    @property
    def transport(self) -> asyncio.Transport | None:
        """The socket's transport (``None`` before ``connection_made``), for inspection."""
        return self._transport

    # ---- TrackedConnection -----------------------------------------------------------------

    def abort(self) -> None:
        """Close at once, dropping unsent data."""
        if self._lost or self._transport is None:
            return
        self._closing = True
        self._drop_pending()
        self._transport.abort()

    # ---- asyncio.Protocol ------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)
        peer = transport.get_extra_info("peername")
        if isinstance(peer, tuple) and len(peer) >= 2:
            self._peer = f"{peer[0]}:{peer[1]}"
        elif peer:
            self._peer = str(peer)
        if not self._tracker.add(self):
            log.warning("%s from %s refused: the server is full", self.connection_id, self._peer)
            self._lost = True  # never counted as open, so connection_lost has nothing to undo
            self._transport.abort()
            return
        self.keepalive = enable_keepalive(transport.get_extra_info("socket"), self._limits)
        self._metrics.connection_opened(self.protocol)
        log.debug("%s connected from %s", self.connection_id, self._peer)
        if self._limits.idle_timeout_s > 0:
            self._idle_timer = self._loop.call_later(self._limits.idle_timeout_s, self._check_idle)
        try:
            self._dialogue = self._factory(self)
        except Exception:
            self._dialogue_failed("creating the dialogue")

    def data_received(self, data: bytes) -> None:
        if self._closing or self._lost or self._dialogue is None:
            return
        now = self._loop.time()
        self._last_input = now
        self._metrics.messages_in.inc(self.protocol)
        self._metrics.bytes_in.inc(self.protocol, amount=len(data))
        if not self._bucket.take(now):
            log.warning(
                "%s (%s) exceeded %.0f inputs/s (burst %.0f); closing",
                self.connection_id,
                self._peer,
                self._limits.rate_per_s,
                self._limits.rate_burst,
            )
            self._metrics.errors.inc(self.protocol)
            self._begin_close("rate_limited")
            return
        started = time.perf_counter()
        try:
            self._dialogue.data_received(data)
        except Exception:
            self._dialogue_failed("handling input")
        finally:
            self._metrics.action_latency.observe(time.perf_counter() - started)

    def eof_received(self) -> bool:
        """The peer half-closed: close our side too (after flushing what is queued)."""
        self._flush_now()
        return False

    def pause_writing(self) -> None:
        self._paused = True

    def resume_writing(self) -> None:
        self._paused = False
        if self._pending and not self._flush_scheduled and not self._closing:
            self._flush_scheduled = True
            self._loop.call_soon(self._flush)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._lost:
            return
        self._lost = True
        if exc is not None and self._close_reason == "peer":
            self._close_reason = "error"
            log.debug("%s lost: %s", self.connection_id, exc)
        for timer in (self._idle_timer, self._abort_timer):
            if timer is not None:
                timer.cancel()
        self._drop_pending()
        self._tracker.remove(self)
        self._metrics.connection_closed(self.protocol, self._close_reason)
        log.debug("%s closed (%s)", self.connection_id, self._close_reason)
        if self._dialogue is not None:
            try:
                self._dialogue.connection_lost()
            except Exception:
                self._metrics.errors.inc(self.protocol)
                log.exception("%s: dialogue raised in connection_lost", self.connection_id)

    # ---- internals -------------------------------------------------------------------------

    def _over_limit(self) -> bool:
        assert self._transport is not None
        buffered = self._transport.get_write_buffer_size() + self._pending_bytes
        return buffered > self._limits.out_queue_limit_bytes

    def _cut_off_slow_consumer(self) -> None:
        assert self._transport is not None
        log.warning(
            "%s (%s) fell more than %d bytes behind; dropped as a slow consumer",
            self.connection_id,
            self._peer,
            self._limits.out_queue_limit_bytes,
        )
        self._metrics.errors.inc(self.protocol)
        self._close_reason = "slow_consumer"
        self.abort()

    def _flush(self) -> None:
        self._flush_scheduled = False
        if not self._paused:
            self._flush_now()

    def _flush_now(self) -> None:
        if not self._pending or self._lost or self._transport is None:
            return
        batch = self._pending[0] if len(self._pending) == 1 else b"".join(self._pending)
        self._pending = []
        self._pending_bytes = 0
        self.writes += 1
        self._transport.write(batch)

    def _drop_pending(self) -> None:
        self._pending = []
        self._pending_bytes = 0

    def _begin_close(self, reason: str) -> None:
        if self._closing or self._lost or self._transport is None:
            return
        self._closing = True
        self._close_reason = reason
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        self._flush_now()
        self._transport.close()
        self._abort_timer = self._loop.call_later(self._limits.close_timeout_s, self.abort)

    def _check_idle(self) -> None:
        self._idle_timer = None
        if self._closing or self._lost:
            return
        idle_for = self._loop.time() - self._last_input
        remaining = self._limits.idle_timeout_s - idle_for
        if remaining > 0.001:
            self._idle_timer = self._loop.call_later(remaining, self._check_idle)
            return
        log.info("%s (%s) idle for %.0f s; closing", self.connection_id, self._peer, idle_for)
        self._begin_close("idle")

    def _dialogue_failed(self, doing: str) -> None:
        self._metrics.errors.inc(self.protocol)
        log.exception("%s (%s): dialogue raised while %s; closing", self.connection_id, self._peer, doing)
        self._begin_close("dialogue_error")


def connection_factory(
    protocol: str,
    factory: DialogueFactory,
    limits: ConnectionLimits,
    metrics: ServerMetrics,
    tracker: ConnectionTracker,
) -> Callable[[], TcpConnection]:
    """The protocol factory ``loop.create_server`` wants, for one listener."""

    def make() -> TcpConnection:
        return TcpConnection(protocol, factory, limits, metrics, tracker)

    return make

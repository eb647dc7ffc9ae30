"""One TCP client connection: the asyncio side of a sans-I/O dialogue.

:class:`TcpConnection` is an :class:`asyncio.Protocol` that implements
:class:`gamehall.protocols._core.Wire` for its dialogue. It owns everything the dialogue must
not: the socket, write batching, backpressure and the limits of :mod:`gamehall.server.limits`.

Writes are batched per loop iteration: ``send()`` only appends to a list, and one callback
scheduled with ``loop.call_soon`` hands the whole batch to the transport in a single
``write``. A broadcast to a table therefore costs one system call per connection, not one per
frame, and frames are never interleaved.

Input is paced (issue 10: throttle, never cut). Bytes read go to a backlog; each loop turn
feeds at most :data:`~gamehall.server.limits.FEED_PER_TURN` of them to the dialogue's codec
(``receive_data``) and lets it handle at most
:data:`~gamehall.server.limits.INPUTS_PER_TURN` decoded inputs (``handle_buffered``), within
the connection's budgets of inputs and bytes per second. While work is left, or a budget is
spent, reading is paused (``transport.pause_reading``): TCP back-pressure slows the client, and
everything it sent is handled later, in order. So one connection never holds the loop, a fast
client is never disconnected for speed, and memory per connection stays bounded (one read plus
the codec's frame cap). Only input that cannot be valid ends a connection, and the dialogue
says so first in its protocol's words.

Closing is a lingering close: flush, half-close (FIN after the data), keep reading and
discarding for up to :data:`~gamehall.server.limits.LINGER_S`, then close. A plain close with
unread input makes the kernel send an RST, which can destroy the error message in flight; the
fuzzing of issue 10 saw such silent closes on every protocol.

Slow work (password hashes) runs in a worker thread through :meth:`TcpConnection.offload`; the
dialogue's input waits for the answer, then the connection is pumped again.

Output may be capped per write (``max_flush_bytes``, AAH): whole frames only, the rest on the
next loop turns.

Frames sent to many connections (one room event) are the same ``bytes`` object in every queue
(the dialogues render each event once per audience, docs/architecture.md "Encode once"); the
frame and byte counters are updated once per batch, when frames leave the queue.

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
from concurrent.futures import Executor
from typing import Any, cast

from gamehall.protocols._core import Dialogue, Wire
from gamehall.server.limits import (
    FEED_CHUNK,
    FEED_PER_TURN,
    INPUTS_PER_TURN,
    LINGER_QUIET_S,
    LINGER_S,
    ConnectionLimits,
    TokenBucket,
    enable_keepalive,
)
from gamehall.server.metrics import ServerMetrics
from gamehall.server.tracker import ConnectionTracker, next_connection_id

log = logging.getLogger("gamehall.server")

DialogueFactory = Callable[[Wire], Dialogue]
"""Builds a connection's dialogue; the server binds the hall and the clock beforehand."""

WriteBarrier = Callable[[Callable[[], None]], bool]
"""``barrier(resume)``, run before a connection writes (the hall's
:meth:`~gamehall.hall.outbox.Outbox.barrier`): ``True`` when what is queued may be written now;
``False`` when it waits for a commit, and ``resume()`` is called once it may."""


class TcpConnection(asyncio.Protocol):
    """A client connection of one TCP protocol (see the module docstring).

    One lives per connected client, so it is kept small (issue 12 item 4): ``__slots__`` (it
    has more attributes than CPython shares keys for, so each instance carried a private
    ``__dict__`` of about 1.5 KB) and the send queue a plain list (an empty ``deque`` holds a
    512-byte block, again after every ``clear()``). A new attribute belongs in ``__slots__``:
    one that is not still works, but makes the instance's ``__dict__`` again.
    """

    __slots__ = (
        "__dict__",  # made only if something sets another attribute (a test patching a method)
        "_abort_timer",
        "_backlog",
        "_barrier_held",
        "_before_write",
        "_bytes",
        "_close_reason",
        "_closing",
        "_dialogue",
        "_drained",
        "_executor",
        "_factory",
        "_flush_scheduled",
        "_held",
        "_idle_timer",
        "_inputs",
        "_last_input",
        "_limits",
        "_linger_until",
        "_loop",
        "_lost",
        "_metrics",
        "_paused",
        "_peer",
        "_peer_eof",
        "_pending",
        "_pending_bytes",
        "_pump_handle",
        "_reading_paused",
        "_resume_writing",
        "_tracker",
        "_transport",
        "connection_id",
        "keepalive",
        "protocol",
        "read_pauses",
        "writes",
    )

    def __init__(
        self,
        protocol: str,
        factory: DialogueFactory,
        limits: ConnectionLimits,
        metrics: ServerMetrics,
        tracker: ConnectionTracker,
        executor: Executor | None = None,
        before_write: WriteBarrier | None = None,
    ) -> None:
        """``before_write`` runs before each write to the socket: the hall's write barrier
        (:meth:`~gamehall.hall.outbox.Outbox.barrier`: flush the outbox, and wait for a
        background commit), so that no byte (a dialogue's own answer included) leaves before
        the commit of what the input it answers changed."""
        self.protocol = protocol
        self._before_write = before_write
        self._barrier_held = 0  # frames queued before a barrier that waits for a commit
        self._resume_writing = self._committed  # made once: the barrier keeps it while it waits
        self.connection_id = next_connection_id(protocol)
        self._factory = factory
        self._limits = limits
        self._metrics = metrics
        self._tracker = tracker
        self._executor = executor
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
        now = self._loop.time()
        self._last_input = now
        self._inputs = TokenBucket(limits.rate_per_s, limits.rate_burst, now)
        self._bytes = TokenBucket(limits.bytes_per_s, limits.bytes_burst, now)
        self._backlog = bytearray()
        self._drained = True  # the dialogue holds no complete input we know of
        self._held = 0  # offloaded calls whose answer the dialogue waits for
        self._reading_paused = False
        self._peer_eof = False
        self._pump_handle: asyncio.Handle | None = None
        self._idle_timer: asyncio.TimerHandle | None = None
        self._abort_timer: asyncio.TimerHandle | None = None
        self._linger_until = 0.0
        self.keepalive = False
        self.writes = 0
        """Transport writes made (each carries one loop iteration's batch)."""
        self.read_pauses = 0
        """Times reading was paused (a budget spent or work left): throttling, for tests."""

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
        if self._over_limit():
            self._cut_off_slow_consumer()
            return
        self._schedule_flush()

    def close(self) -> None:
        """Flush what is queued, then close (lingering). Later input and sends are discarded."""
        self._begin_close("server")

    def offload(self, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        """Run ``work`` in a worker thread; ``done(result)`` runs on the loop afterwards and
        the dialogue's buffered input is handled again (see :class:`~gamehall.protocols._core.Wire`)."""
        self._held += 1
        future = self._loop.run_in_executor(self._executor, work)
        future.add_done_callback(lambda finished: self._offload_done(finished, done))

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
        if self._lost or self._dialogue is None:
            return
        if self._closing:
            self._last_input = self._loop.time()
            return  # lingering: read and discard until the peer closes or goes quiet
        now = self._loop.time()
        self._last_input = now
        self._metrics.messages_in.inc(self.protocol)
        self._metrics.bytes_in.inc(self.protocol, amount=len(data))
        self._bytes.spend(now, len(data))
        self._backlog += data
        if self._pump_handle is None:
            self._pump()

    def eof_received(self) -> bool:
        """The peer half-closed. Input already read is still handled (nothing is lost); then
        our side closes too, after flushing what is queued."""
        self._peer_eof = True
        if self._closing or not self._work_left():
            self._flush_all()
            return False
        return True  # keep the transport; _pump closes once the backlog is handled

    def pause_writing(self) -> None:
        self._paused = True

    def resume_writing(self) -> None:
        self._paused = False
        self._schedule_flush()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._lost:
            return
        self._lost = True
        if exc is not None and self._close_reason == "peer":
            self._close_reason = "error"
            log.debug("%s lost: %s", self.connection_id, exc)
        for timer in (self._idle_timer, self._abort_timer, self._pump_handle):
            if timer is not None:
                timer.cancel()
        self._pump_handle = None
        self._backlog.clear()
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

    # ---- input pacing ----------------------------------------------------------------------

    def _work_left(self) -> bool:
        """Input read but not handled yet (or waiting for an offloaded answer)."""
        return bool(self._backlog) or not self._drained or self._held > 0

    def _pump(self) -> None:
        """One turn of this connection's input: handle, feed, handle..., within the budgets."""
        self._pump_handle = None
        dialogue = self._dialogue
        if self._closing or self._lost or dialogue is None:
            return
        allowance = min(float(INPUTS_PER_TURN), self._inputs.available(self._loop.time()))
        fed = 0
        started = time.perf_counter()
        try:
            while allowance >= 1 and not self._held and not self._closing:
                if not self._drained:
                    asked = int(allowance)
                    handled = dialogue.handle_buffered(asked)
                    allowance -= handled
                    self._inputs.spend(self._loop.time(), handled)
                    self._drained = handled < asked
                    continue
                if not self._backlog or fed >= FEED_PER_TURN:
                    break
                chunk = bytes(self._backlog[:FEED_CHUNK])
                del self._backlog[:FEED_CHUNK]
                fed += len(chunk)
                self._drained = False
                dialogue.receive_data(chunk)
        except Exception:
            self._dialogue_failed("handling input")
            return
        finally:
            if fed or allowance < INPUTS_PER_TURN:
                self._metrics.action_latency.observe(time.perf_counter() - started)
        self._after_pump()

    def _after_pump(self) -> None:
        if self._closing or self._lost:
            return
        now = self._loop.time()
        work_left = self._work_left()
        if not work_left and self._peer_eof:
            self._begin_close("peer")
            return
        bytes_wait = self._bytes.wait(now, 0.0)
        self._set_reading(paused=work_left or bytes_wait > 0)
        if self._held:
            return  # the offload's answer pumps again
        if work_left:
            delay = self._inputs.wait(now, 1.0)
        elif bytes_wait > 0:
            delay = bytes_wait
        else:
            return
        if delay <= 0:
            self._pump_handle = self._loop.call_soon(self._pump)
        else:
            self._pump_handle = self._loop.call_later(delay, self._pump)

    def _set_reading(self, *, paused: bool) -> None:
        transport = self._transport
        if transport is None or paused == self._reading_paused:
            return
        self._reading_paused = paused
        if paused:
            self.read_pauses += 1
            transport.pause_reading()
        else:
            transport.resume_reading()

    def _offload_done(self, future: asyncio.Future[Any], done: Callable[[Any], None]) -> None:
        self._held -= 1
        if self._lost or self._closing:
            return
        try:
            result = future.result()
        except Exception:
            self._dialogue_failed("running offloaded work")
            return
        try:
            done(result)
        except Exception:
            self._dialogue_failed("handling offloaded work")
            return
        self._drained = False  # input may have waited for this answer
        if self._pump_handle is None:
            self._pump_handle = self._loop.call_soon(self._pump)

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

    def _schedule_flush(self) -> None:
        if self._pending and not self._flush_scheduled and not self._paused:
            self._flush_scheduled = True
            self._loop.call_soon(self._flush)

    def _meter(self, frames: int, size: int) -> None:
        """Count frames leaving the queue (written or dropped) in bulk: two counter updates
        per batch instead of two per frame (docs/architecture.md, "Encode once")."""
        if frames:
            self._metrics.sent(self.protocol, frames, size)

    def _flush(self) -> None:
        self._flush_scheduled = False
        if self._before_write is not None and self._pending:
            self._barrier_held = len(self._pending)
            if not self._before_write(self._resume_writing):
                self._flush_scheduled = True  # frames queue up meanwhile; the commit resumes us
                return
        self._write_frames(len(self._pending))

    def _committed(self) -> None:
        """The commit the write barrier waited for has finished: the frames queued before the
        barrier may leave; later ones pass the barrier again."""
        self._flush_scheduled = False
        if self._closing:
            return  # the close waits for its own barrier and writes everything then
        self._write_frames(self._barrier_held)
        self._schedule_flush()

    def _write_frames(self, limit: int) -> None:
        """Write up to ``limit`` queued frames, at most ``max_flush_bytes`` in one write."""
        if self._paused or self._lost or self._transport is None or not self._pending:
            return
        cap = self._limits.max_flush_bytes
        if limit >= len(self._pending) and (cap <= 0 or self._pending_bytes <= cap):
            self._flush_all()
            return
        count = size = 0
        for frame in self._pending[:limit]:
            if count and cap > 0 and size + len(frame) > cap:
                break
            count += 1
            size += len(frame)
        batch = self._pending[:count]
        del self._pending[:count]
        self._pending_bytes -= size
        self._meter(len(batch), size)
        self._write(b"".join(batch))
        self._schedule_flush()  # the rest on a later loop turn

    def _flush_all(self) -> None:
        if not self._pending or self._lost or self._transport is None:
            return
        batch = self._pending[0] if len(self._pending) == 1 else b"".join(self._pending)
        self._meter(len(self._pending), self._pending_bytes)
        self._pending.clear()
        self._pending_bytes = 0
        self._write(batch)

    def _write(self, data: bytes) -> None:
        assert self._transport is not None
        self.writes += 1
        self._transport.write(data)

    def _drop_pending(self) -> None:
        self._meter(len(self._pending), self._pending_bytes)  # queued, so counted (see ServerMetrics)
        self._pending.clear()
        self._pending_bytes = 0

    def _begin_close(self, reason: str) -> None:
        if self._closing or self._lost or self._transport is None:
            return
        self._closing = True
        self._close_reason = reason
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        if self._pump_handle is not None:
            self._pump_handle.cancel()
            self._pump_handle = None
        self._backlog.clear()
        if self._before_write is not None and self._pending and not self._before_write(self._finish_close):
            return  # a closing answer, too, leaves only after the commit, which finishes us
        self._finish_close()

    def _finish_close(self) -> None:
        """Write what is queued, then close (lingering): the second half of :meth:`_begin_close`."""
        if self._lost or self._transport is None or self._linger_until:
            return
        self._flush_all()
        transport = self._transport
        if self._peer_eof or not transport.can_write_eof():
            transport.close()
        else:
            transport.write_eof()  # FIN after our data; keep reading (and discarding) a while
            self._set_reading(paused=False)
        self._linger_until = self._loop.time() + min(LINGER_S, self._limits.close_timeout_s)
        self._abort_timer = self._loop.call_later(LINGER_QUIET_S, self._check_linger)

    def _check_linger(self) -> None:
        """End the lingering close once our data is out and the peer has been quiet for
        :data:`LINGER_QUIET_S` (nothing unread can then cause an RST), or after ``LINGER_S``."""
        self._abort_timer = None
        if self._lost or self._transport is None:
            return
        now = self._loop.time()
        flushed = self._transport.get_write_buffer_size() == 0
        quiet = now - self._last_input >= LINGER_QUIET_S
        if now < self._linger_until and not (flushed and quiet):
            self._abort_timer = self._loop.call_later(LINGER_QUIET_S / 2, self._check_linger)
            return
        if not flushed:  # a slow reader: give the flush the rest of close_timeout_s
            remaining = self._limits.close_timeout_s - LINGER_S
            if remaining > 0 and now < self._linger_until + remaining:
                self._abort_timer = self._loop.call_later(remaining, self.abort)
                return
        self._transport.close()
        self._abort_timer = self._loop.call_later(1.0, self.abort)

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
    executor: Executor | None = None,
    before_write: WriteBarrier | None = None,
) -> Callable[[], TcpConnection]:
    """The protocol factory ``loop.create_server`` wants, for one listener. ``executor`` runs
    offloaded work (password hashes); ``None`` means the loop's default executor;
    ``before_write`` see :class:`TcpConnection`."""

    def make() -> TcpConnection:
        return TcpConnection(protocol, factory, limits, metrics, tracker, executor, before_write)

    return make

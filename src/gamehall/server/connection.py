"""One TCP client connection: the asyncio side of a sans-I/O dialogue.

:class:`TcpConnection` is an :class:`asyncio.Protocol` that implements
:class:`gamehall.protocols._core.Wire` for its dialogue. It owns everything the dialogue must
not: the socket, write batching, backpressure and the limits of :mod:`gamehall.server.limits`.

Writes are batched per loop iteration: ``send()`` only appends to a list, and at the end of
the turn the connection's whole queue goes to the transport in a single ``write``. A broadcast
to a table therefore costs one system call per connection, not one per frame, and frames are
never interleaved. The connections of one listener share a :class:`ListenerBatch`: one
``loop.call_soon`` callback per turn flushes every connection that has output and adds the
turn's traffic to the metrics, so a read that is answered costs no callback and no counter
update of its own (issue 12: ``PING`` -> ``PONG`` per CPU-second against a raw echo server).

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
frame and byte counters count frames as they leave the queue, added up over the whole turn
(:class:`ListenerBatch`).

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
"""``barrier(resume)``, run before connections write (the hall's
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
        "_batch",
        "_before_write",
        "_bytes",
        "_bytes_owed",
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
        batch: ListenerBatch | None = None,
    ) -> None:
        """``before_write`` runs before writes to the socket: the hall's write barrier (flush the
        outbox, and wait for a background commit), so that no byte (a dialogue's own answer
        included) leaves before the commit of what the input it answers changed. The
        listener's batch runs it once per turn before it flushes its connections, and a
        closing connection before its last write. ``batch`` is shared by
        the connections of one listener (see :func:`connection_factory`); without one the
        connection gets its own."""
        self.protocol = protocol
        self._before_write = before_write
        self._batch = batch if batch is not None else ListenerBatch(protocol, metrics, before_write)
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
        self._bytes_owed = False
        """The byte budget was in debt when last looked at. Only reads spend it and it refills
        with time, so ``False`` stays true until the next read: the end of a pump need not
        look again."""
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
        transport = self._transport
        if self._closing or self._lost or transport is None:
            return
        self._pending.append(data)
        self._pending_bytes += len(data)
        if self._pending_bytes + transport.get_write_buffer_size() > self._limits.out_queue_limit_bytes:
            self._cut_off_slow_consumer()
            return
        if not self._flush_scheduled and not self._paused:
            self._flush_scheduled = True
            self._batch.flush_later(self)

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
        now = self._loop.time()
        self._last_input = now
        if self._closing:
            return  # lingering: read and discard until the peer closes or goes quiet
        size = len(data)
        self._batch.count_read(size)
        self._bytes_owed = self._bytes.spend(now, size) < 0
        if self._pump_handle is not None:
            self._backlog += data  # a pump is due: it takes this read in its turn
        elif not self._backlog and size <= FEED_CHUNK:
            self._pump(now, data)  # the common case: one small read, nothing waiting before it
        else:
            self._backlog += data
            self._pump(now)

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

    def _pump(self, now: float | None = None, read: bytes | None = None) -> None:
        """One turn of this connection's input: handle, feed, handle..., within the budgets.

        ``read`` is a read of at most :data:`FEED_CHUNK` bytes with an empty backlog before
        it (from :meth:`data_received`): it is fed as it is instead of through the backlog,
        or kept in the backlog if the turn ends before it is fed. ``now`` is the loop's time
        when the caller already has it; one reading serves the whole turn.
        """
        self._pump_handle = None
        dialogue = self._dialogue
        if self._closing or self._lost or dialogue is None:
            return
        if now is None:
            now = self._loop.time()
        allowance = self._inputs.available(now)
        if allowance > INPUTS_PER_TURN:
            allowance = INPUTS_PER_TURN
        fed = spent = 0
        started = time.perf_counter()
        try:
            while allowance >= 1 and not self._held and not self._closing:
                if not self._drained:
                    asked = int(allowance)
                    handled = dialogue.handle_buffered(asked)
                    allowance -= handled
                    spent += handled
                    self._drained = handled < asked
                    continue
                if read is not None:
                    chunk, read = read, None
                elif self._backlog and fed < FEED_PER_TURN:
                    chunk = bytes(self._backlog[:FEED_CHUNK])
                    del self._backlog[:FEED_CHUNK]
                else:
                    break
                fed += len(chunk)
                self._drained = False
                dialogue.receive_data(chunk)
        except Exception:
            self._dialogue_failed("handling input")
            return
        if read is not None and not self._closing:
            self._backlog += read  # not fed this turn (budget spent, offload pending): keep it
        if spent:
            self._inputs.spend(now, spent)
        if fed or spent:
            self._metrics.action_latency.observe(time.perf_counter() - started)
        self._after_pump(now)

    def _after_pump(self, now: float) -> None:
        if self._closing or self._lost:
            return
        work_left = bool(self._backlog) or not self._drained or self._held > 0  # _work_left()
        if not work_left and self._peer_eof:
            self._begin_close("peer")
            return
        if not work_left and not self._bytes_owed and not self._reading_paused:
            return  # the usual end of a turn: everything handled, within the budgets
        bytes_wait = self._bytes.wait(now, 0.0)
        self._bytes_owed = bytes_wait > 0
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
            self._batch.flush_later(self)

    def _flush(self) -> None:
        """Hand the queue to the transport (the listener's batch calls this once per turn)."""
        self._flush_scheduled = False
        if self._paused or self._lost or self._transport is None or not self._pending:
            return
        cap = self._limits.max_flush_bytes
        if cap <= 0 or self._pending_bytes <= cap:
            self._flush_all()
            return
        count = size = 0
        for frame in self._pending:
            if count and size + len(frame) > cap:
                break
            count += 1
            size += len(frame)
        batch = self._pending[:count]
        del self._pending[:count]
        self._pending_bytes -= size
        self._batch.count_sent(len(batch), size)
        self._write(b"".join(batch))
        self._schedule_flush()  # the rest on a later loop turn

    def _flush_held(self, frames: int) -> None:
        """The commit the write barrier waited for has finished: flush the ``frames`` queued
        before the barrier; later ones wait for the next turn's barrier."""
        if frames >= len(self._pending):
            self._flush()
            return
        rest = self._pending[frames:]
        rest_bytes = sum(len(frame) for frame in rest)
        del self._pending[frames:]
        self._pending_bytes -= rest_bytes
        self._flush()
        self._pending.extend(rest)
        self._pending_bytes += rest_bytes
        self._schedule_flush()

    def _flush_all(self) -> None:
        if not self._pending or self._lost or self._transport is None:
            return
        batch = self._pending[0] if len(self._pending) == 1 else b"".join(self._pending)
        self._batch.count_sent(len(self._pending), self._pending_bytes)
        self._pending.clear()
        self._pending_bytes = 0
        self._write(batch)

    def _write(self, data: bytes) -> None:
        assert self._transport is not None
        self.writes += 1
        self._transport.write(data)

    def _drop_pending(self) -> None:
        self._batch.count_sent(len(self._pending), self._pending_bytes)  # queued, so counted
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
            try:
                transport.write_eof()  # FIN after our data; keep reading (and discarding) a while
            except OSError:  # ENOTCONN: the peer reset first and the loop has not read it yet
                transport.abort()  # nobody to send to: the peer is already gone
                return
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


class ListenerBatch:
    """What the connections of one listener do once per loop turn instead of once per frame.

    - **Flushing.** A connection with output registers itself (:meth:`flush_later`); one
      ``loop.call_soon`` callback per turn then runs ``before_write`` once (the hall's outbox:
      commit, then deliver, so nothing leaves before its commit) and flushes every registered
      connection, in the order they first sent. A connection that registers while that
      callback runs (a capped flush leaving a rest, a delivery to a connection that had no
      output yet) is flushed on the next turn.
    - **Counting.** Reads, input bytes, frames and output bytes are added up in plain integers
      and written to :class:`ServerMetrics` once per turn by the same callback. Reads count at
      the end of the turn they arrive in, frames when they leave a connection's queue (written,
      or dropped with a lost connection), so a scrape may lag that much.

    Everything runs on the loop's thread; the batch owns no connection (a lost one is skipped
    by its own ``_flush``).
    """

    __slots__ = (
        "_before_write",
        "_dirty",
        "_metrics",
        "_scheduled",
        "bytes_in",
        "bytes_out",
        "frames_out",
        "protocol",
        "reads",
    )

    def __init__(
        self, protocol: str, metrics: ServerMetrics, before_write: WriteBarrier | None = None
    ) -> None:
        self.protocol = protocol
        self._metrics = metrics
        self._before_write = before_write
        self._dirty: list[TcpConnection] = []
        self._scheduled = False
        self.reads = 0
        self.bytes_in = 0
        self.frames_out = 0
        self.bytes_out = 0

    # Each of these runs once or more per read, hence the scheduling written out in each.

    def flush_later(self, connection: TcpConnection) -> None:
        """Flush ``connection`` at the end of this turn (the caller registers it once)."""
        self._dirty.append(connection)
        if not self._scheduled:
            self._schedule()

    def count_read(self, size: int) -> None:
        self.reads += 1
        self.bytes_in += size
        if not self._scheduled:
            self._schedule()

    def count_sent(self, frames: int, size: int) -> None:
        if frames:
            self.frames_out += frames
            self.bytes_out += size
            if not self._scheduled:
                self._schedule()

    def _schedule(self) -> None:
        self._scheduled = True
        asyncio.get_running_loop().call_soon(self._end_of_turn)

    def _end_of_turn(self) -> None:
        self._scheduled = False
        if self._dirty and self._before_write is not None:
            # the hall's write barrier: commit this turn's writes, then deliver; what it
            # delivers to a connection already registered goes out in that connection's write
            # below. While a background commit holds some of the writes, the connections keep
            # their output (and their registration) until it has finished: those registered
            # before and those the barrier's own flush delivered to (a connection with nothing
            # queued until then), counted once the barrier has answered.
            held: list[tuple[TcpConnection, int]] = []
            if not self._before_write(lambda: self._release(held)):
                held.extend((connection, len(connection._pending)) for connection in self._dirty)
                self._dirty = []
                self._count()
                return
        dirty, self._dirty = self._dirty, []
        for connection in dirty:
            try:
                connection._flush()
            except Exception:  # one connection's failure must not hold back the others' output
                log.exception("%s: flushing its output failed", connection.connection_id)
        self._count()

    def _release(self, held: list[tuple[TcpConnection, int]]) -> None:
        """The commit a barrier waited for has finished: each connection writes what it held."""
        for connection, frames in held:
            try:
                connection._flush_held(frames)
            except Exception:  # one connection's failure must not hold back the others' output
                log.exception("%s: flushing its output failed", connection.connection_id)
        self._count()

    def _count(self) -> None:
        metrics, protocol = self._metrics, self.protocol
        if self.reads:
            metrics.messages_in.inc(protocol, amount=self.reads)
            metrics.bytes_in.inc(protocol, amount=self.bytes_in)
            self.reads = self.bytes_in = 0
        if self.frames_out:
            metrics.sent(protocol, self.frames_out, self.bytes_out)
            self.frames_out = self.bytes_out = 0


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
    ``before_write`` see :class:`TcpConnection`. The listener's connections share one
    :class:`ListenerBatch`."""
    batch = ListenerBatch(protocol, metrics, before_write)

    def make() -> TcpConnection:
        return TcpConnection(protocol, factory, limits, metrics, tracker, executor, before_write, batch)

    return make

"""One browser connection: a WebSocket feeding the web protocol's sans-I/O dialogue.

The dialogue gets ``send_text`` and ``close`` callables (:class:`WebConnection` provides them)
and is fed every text message through ``text_received``. The same rules as for TCP apply
(:mod:`gamehall.server.limits`):

- a bounded send queue: ``send_text`` only queues; one writer task sends in order. Queued bytes
  above ``out_queue_limit_bytes`` cut the browser off as a drop;
- a write barrier, as on TCP: before the writer sends, it passes the hall's
  (:meth:`~gamehall.hall.outbox.Outbox.barrier`), which commits what the outbox holds and
  waits for a background commit, so no reply leaves before the commit of what it answers;
- the input budgets (one token per WebSocket message, and bytes): over budget the reader waits
  before handling the next message (a throttle, never a disconnect), and after
  :data:`~gamehall.server.limits.INPUTS_PER_TURN` messages without a pause it yields the loop;
- binary frames are refused with close code 1008 (policy violation): the web protocol is JSON
  text; messages over 64 KiB are refused by aiohttp with 1009 (message too big);
- a WebSocket heartbeat (ping every ``HEARTBEAT_S``) finds dead peers. There is no idle
  timeout here: a spectator may watch silently for a whole game, and the heartbeat already
  tells a live browser from a dead one;
- ``connection_lost()`` reaches the dialogue exactly once, whatever ended the socket, and an
  exception from the dialogue closes this connection only.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, Protocol

from aiohttp import WSCloseCode, WSMsgType, web

from gamehall.server.connection import WriteBarrier
from gamehall.server.limits import INPUTS_PER_TURN, ConnectionLimits, TokenBucket
from gamehall.server.metrics import ServerMetrics
from gamehall.server.tracker import ConnectionTracker, next_connection_id

log = logging.getLogger("gamehall.server")

PROTOCOL = "web"
MAX_MESSAGE_BYTES = 64 * 1024
HEARTBEAT_S = 20.0


class TextDialogue(Protocol):
    """What the server needs of the web protocol's dialogue."""

    def text_received(self, text: str) -> None: ...

    def connection_lost(self) -> None: ...


Offload = Callable[[Callable[[], Any], Callable[[Any], None]], None]
"""``offload(work, done)``: ``work`` runs in a worker thread, ``done(result)`` on the loop
before the next message of this socket is handled (see ``Wire.offload``)."""

WebDialogueFactory = Callable[[Callable[[str], None], Callable[[], None], Offload], TextDialogue]
"""``factory(send_text, close, offload)``; the server binds the hall and the clock beforehand."""


class WebConnection:
    """The server side of one WebSocket (see the module docstring)."""

    def __init__(
        self,
        request: web.Request,
        socket: web.WebSocketResponse,
        limits: ConnectionLimits,
        metrics: ServerMetrics,
        executor: Executor | None = None,
        before_write: WriteBarrier | None = None,
    ) -> None:
        self.connection_id = next_connection_id(PROTOCOL)
        self._before_write = before_write
        self._executor = executor
        self._offloaded: collections.deque[tuple[asyncio.Future[Any], Callable[[Any], None]]] = (
            collections.deque()
        )
        self.peer = request.remote or "?"
        self._request = request
        self._socket = socket
        self._limits = limits
        self._metrics = metrics
        self._queue: collections.deque[tuple[str, int]] = collections.deque()
        self._queued_bytes = 0
        self._unmetered_messages = 0
        self._unmetered_bytes = 0
        self._wakeup = asyncio.Event()
        self._closing = False
        self._close_code = WSCloseCode.OK
        self._close_reason = "peer"
        self._done = False
        now = asyncio.get_running_loop().time()
        self._bucket = TokenBucket(limits.rate_per_s, limits.rate_burst, now)
        self._bytes = TokenBucket(limits.bytes_per_s, limits.bytes_burst, now)
        self.throttled = 0
        """Messages that waited for the input budget (throttling, for tests)."""

    # ---- what the dialogue calls -----------------------------------------------------------

    def send_text(self, text: str) -> None:
        """Queue one text message; cut the browser off if it is too far behind."""
        if self._closing or self._done:
            return
        size = len(text) if text.isascii() else len(text.encode())
        self._queue.append((text, size))
        self._queued_bytes += size
        self._unmetered_messages += 1
        self._unmetered_bytes += size
        if self._queued_bytes > self._limits.out_queue_limit_bytes:
            log.warning(
                "%s (%s) fell more than %d bytes behind; dropped as a slow consumer",
                self.connection_id,
                self.peer,
                self._limits.out_queue_limit_bytes,
            )
            self._metrics.errors.inc(PROTOCOL)
            self._close_reason = "slow_consumer"
            self.abort()
            return
        self._wakeup.set()

    def _meter(self) -> None:
        """Count the messages queued since the last call in bulk (one update per series per
        batch, not per message): at each wake-up of the writer and at the end."""
        if self._unmetered_messages:
            self._metrics.sent(PROTOCOL, self._unmetered_messages, self._unmetered_bytes)
            self._unmetered_messages = self._unmetered_bytes = 0

    def close(self) -> None:
        """Send what is queued, then close the WebSocket normally."""
        self._begin_close(WSCloseCode.OK, "server")

    def offload(self, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        """Run ``work`` in a worker thread; the reader awaits it and calls ``done(result)``
        before it handles the next message, so the order of the browser's messages holds."""
        future = asyncio.get_running_loop().run_in_executor(self._executor, work)
        self._offloaded.append((future, done))

    # ---- TrackedConnection -----------------------------------------------------------------

    def abort(self) -> None:
        """Drop the TCP connection at once; the receive loop then ends the dialogue."""
        self._closing = True
        self._queue.clear()
        self._queued_bytes = 0
        transport = self._request.transport
        if transport is not None:
            transport.abort()
        self._wakeup.set()

    # ---- the connection's life -------------------------------------------------------------

    async def serve(self, factory: WebDialogueFactory) -> None:
        """Run the connection until the socket ends; returns after ``connection_lost``."""
        writer = asyncio.create_task(self._write_loop(), name=f"{self.connection_id} writer")
        dialogue: TextDialogue | None = None
        try:
            dialogue = factory(self.send_text, self.close, self.offload)
            await self._read_loop(dialogue)
        except Exception:
            self._failed("running the dialogue")
        finally:
            self._done = True
            self._meter()
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer
            if not self._socket.closed and self._close_reason != "slow_consumer":
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self._socket.close(code=self._close_code), 1.0)
            if dialogue is not None:
                try:
                    dialogue.connection_lost()
                except Exception:
                    self._metrics.errors.inc(PROTOCOL)
                    log.exception("%s: dialogue raised in connection_lost", self.connection_id)

    @property
    def close_reason(self) -> str:
        return self._close_reason

    async def _read_loop(self, dialogue: TextDialogue) -> None:
        loop = asyncio.get_running_loop()
        in_turn = 0
        async for message in self._socket:
            if self._closing:
                continue  # input after close() is discarded; wait for the close handshake
            if message.type is WSMsgType.TEXT:
                text: str = message.data
                self._metrics.messages_in.inc(PROTOCOL)
                self._metrics.bytes_in.inc(PROTOCOL, amount=len(text))
                # Throttle, never cut (issue 10): over budget, this task sleeps before handling
                # the message; aiohttp's reader queue fills and pauses the socket meanwhile.
                now = loop.time()
                self._bytes.spend(now, len(text))
                wait = max(self._bucket.wait(now, 1.0), self._bytes.wait(now, 0.0))
                if wait > 0:
                    self.throttled += 1
                    await asyncio.sleep(wait)
                    in_turn = 0
                    if self._closing:
                        continue
                self._bucket.spend(loop.time(), 1.0)
                started = time.perf_counter()
                try:
                    dialogue.text_received(text)
                except Exception:
                    self._failed("handling input")
                finally:
                    self._metrics.action_latency.observe(time.perf_counter() - started)
                while self._offloaded:  # slow work the message asked for: its answer first
                    future, done = self._offloaded.popleft()
                    try:
                        done(await future)
                    except Exception:
                        self._failed("handling offloaded work")
                in_turn += 1
                if in_turn >= INPUTS_PER_TURN:  # messages already buffered: let the others run
                    in_turn = 0
                    await asyncio.sleep(0)
            elif message.type is WSMsgType.BINARY:
                log.info("%s (%s) sent a binary frame; closing", self.connection_id, self.peer)
                self._metrics.errors.inc(PROTOCOL)
                self._begin_close(WSCloseCode.POLICY_VIOLATION, "binary_frame")
            elif message.type is WSMsgType.ERROR:
                log.info("%s (%s): %s", self.connection_id, self.peer, self._socket.exception())
                self._close_reason = "error"
                return

    async def _write_loop(self) -> None:
        try:
            while True:
                await self._wakeup.wait()
                self._wakeup.clear()
                self._meter()
                held = await self._pass_barrier()
                while held > 0 and self._queue and not self._socket.closed:
                    text, size = self._queue.popleft()
                    self._queued_bytes -= size
                    held -= 1
                    await self._socket.send_str(text)
                if self._queue and not self._socket.closed:  # queued behind the barrier: again
                    self._wakeup.set()
                    continue
                if self._closing and not self._socket.closed:
                    await self._socket.close(code=self._close_code)
                    return
        except (ConnectionError, RuntimeError) as exc:  # the socket broke under us
            log.debug("%s: write failed: %s", self.connection_id, exc)
            if self._close_reason == "peer":
                self._close_reason = "error"
            self.abort()

    async def _pass_barrier(self) -> int:
        """Pass the write barrier; returns how many queued messages may be sent now: all of
        them when nothing waits for a commit, else those queued before the barrier, once the
        commit they wait for has finished."""
        if self._before_write is None or not self._queue:
            return len(self._queue)
        held = len(self._queue)
        committed = asyncio.get_running_loop().create_future()

        def resume() -> None:
            if not committed.done():
                committed.set_result(None)

        if self._before_write(resume):
            return len(self._queue)  # committed, and the flush's deliveries ride along
        await committed
        return held

    def _begin_close(self, code: WSCloseCode, reason: str) -> None:
        if self._closing or self._done:
            return
        self._closing = True
        self._close_code = code
        self._close_reason = reason
        self._wakeup.set()

    def _failed(self, doing: str) -> None:
        self._metrics.errors.inc(PROTOCOL)
        log.exception("%s (%s): dialogue raised while %s; closing", self.connection_id, self.peer, doing)
        self._begin_close(WSCloseCode.INTERNAL_ERROR, "dialogue_error")


async def serve_websocket(
    request: web.Request,
    factory: WebDialogueFactory,
    limits: ConnectionLimits,
    metrics: ServerMetrics,
    tracker: ConnectionTracker,
    executor: Executor | None = None,
    before_write: WriteBarrier | None = None,
) -> web.WebSocketResponse:
    """The ``GET /ws`` handler's body: upgrade, then run a :class:`WebConnection` writing
    behind ``before_write`` (the hall's write barrier)."""
    socket = web.WebSocketResponse(max_msg_size=MAX_MESSAGE_BYTES, heartbeat=HEARTBEAT_S)
    await socket.prepare(request)
    connection = WebConnection(request, socket, limits, metrics, executor, before_write)
    if not tracker.add(connection):
        log.warning("%s from %s refused: the server is full", connection.connection_id, connection.peer)
        await socket.close(code=WSCloseCode.TRY_AGAIN_LATER, message=b"server full")
        return socket
    metrics.connection_opened(PROTOCOL)
    try:
        await connection.serve(factory)
    finally:
        tracker.remove(connection)
        metrics.connection_closed(PROTOCOL, connection.close_reason)
    return socket

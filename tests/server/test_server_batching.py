"""The end of a loop turn, shared by the connections of one listener (:class:`ListenerBatch`):
every connection with output is flushed by one callback, and the turn's traffic reaches the
metrics in one update per series, exactly."""

from __future__ import annotations

import asyncio
import logging

import pytest
from server_echo import start_echo_server

from gamehall.server.connection import ListenerBatch, TcpConnection
from gamehall.server.limits import ConnectionLimits, TokenBucket
from gamehall.server.metrics import ServerMetrics


class _Queue:
    """Stands in for a connection: records its flushes; may ask for one more (a capped
    flush leaving a rest) or fail."""

    def __init__(self, name: str, flushed: list[str], *, again: int = 0, fails: bool = False) -> None:
        self.connection_id = name
        self.flushed = flushed
        self.again = again
        self.fails = fails
        self.batch: ListenerBatch | None = None

    def _flush(self) -> None:
        self.flushed.append(self.connection_id)
        if self.fails:
            raise OSError("the transport broke")
        if self.again and self.batch is not None:
            self.again -= 1
            self.batch.flush_later(self)  # type: ignore[arg-type]


def _as_connection(queue: _Queue) -> TcpConnection:
    return queue  # type: ignore[return-value]


async def test_one_callback_per_turn_flushes_every_connection_in_order() -> None:
    metrics = ServerMetrics()
    batch = ListenerBatch("echo", metrics)
    flushed: list[str] = []
    a, b = _Queue("a", flushed), _Queue("b", flushed)
    batch.flush_later(_as_connection(a))
    batch.flush_later(_as_connection(b))
    batch.count_read(5)
    assert flushed == []  # nothing leaves before the end of the turn
    await asyncio.sleep(0)
    assert flushed == ["a", "b"]
    assert metrics.messages_in.value("echo") == 1
    assert metrics.bytes_in.value("echo") == 5


async def test_a_connection_asking_again_during_the_flush_waits_for_the_next_turn() -> None:
    batch = ListenerBatch("echo", ServerMetrics())
    flushed: list[str] = []
    capped = _Queue("capped", flushed, again=1)
    capped.batch = batch
    batch.flush_later(_as_connection(capped))
    await asyncio.sleep(0)
    assert flushed == ["capped"]  # the rest of a capped queue goes out on a later turn
    await asyncio.sleep(0)
    assert flushed == ["capped", "capped"]


async def test_a_failing_flush_does_not_hold_back_the_others(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="gamehall.server")
    batch = ListenerBatch("echo", ServerMetrics())
    flushed: list[str] = []
    batch.flush_later(_as_connection(_Queue("broken", flushed, fails=True)))
    batch.flush_later(_as_connection(_Queue("fine", flushed)))
    await asyncio.sleep(0)
    assert flushed == ["broken", "fine"]
    assert any("broken" in record.getMessage() for record in caplog.records)


async def test_traffic_is_counted_exactly_over_several_connections() -> None:
    echo = await start_echo_server()
    try:
        first = await asyncio.open_connection("127.0.0.1", echo.port)
        second = await asyncio.open_connection("127.0.0.1", echo.port)
        first[1].write(b"echo a\n")
        second[1].write(b"burst 3\n")
        assert await first[0].readexactly(2) == b"a\n"
        assert await second[0].readexactly(6) == b"0\n1\n2\n"
        assert echo.metrics.bytes_in.value("echo") == len(b"echo a\n") + len(b"burst 3\n")
        assert echo.metrics.messages_in.value("echo") >= 2  # reads: TCP may split a write
        assert echo.metrics.messages_out.value("echo") == 4
        assert echo.metrics.bytes_out.value("echo") == 8
        assert [connection.writes for connection in echo.connections] == [1, 1]
        for _, writer in (first, second):
            writer.close()
    finally:
        await echo.close()


async def test_a_read_arriving_with_the_budget_spent_is_kept_and_answered_later() -> None:
    """The small read that is normally fed straight to the dialogue goes to the backlog when
    the input budget is spent, and is handled once it refills: throttled, nothing lost."""
    echo = await start_echo_server(ConnectionLimits(rate_per_s=20, rate_burst=1))
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", echo.port)
        for index in range(4):  # one write each, faster than 20 inputs per second
            writer.write(f"echo {index}\n".encode())
            await writer.drain()
            await asyncio.sleep(0.005)
        answers = [await asyncio.wait_for(reader.readline(), 5) for _ in range(4)]
        assert answers == [b"0\n", b"1\n", b"2\n", b"3\n"]
        assert echo.connections[0].read_pauses > 0
        writer.close()
    finally:
        await echo.close()


def test_spending_says_the_balance_left() -> None:
    """A read spends its bytes and learns at once whether the budget is in debt (the end of
    the pump relies on it to skip looking again)."""
    bucket = TokenBucket(rate=100, burst=100, now=0.0)
    assert bucket.spend(0.0, 60) == 40
    assert bucket.spend(0.0, 60) == -20
    assert bucket.spend(1.0, 0) == 80  # refilled at 100 per second, capped at the burst
    assert TokenBucket(rate=0, burst=1, now=0.0).spend(0.0, 10**9) == float("inf")

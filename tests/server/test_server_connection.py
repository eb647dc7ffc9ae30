"""TCP connections on real sockets (127.0.0.1): batching, backpressure, limits, containment."""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import AsyncIterator

import pytest
from server_echo import EchoServer, start_echo_server

from gamehall.server.limits import ConnectionLimits, TokenBucket


@pytest.fixture
async def echo() -> AsyncIterator[EchoServer]:
    server = await start_echo_server()
    yield server
    await server.close()


async def _connect(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port)


async def test_round_trip_and_clean_close(echo: EchoServer) -> None:
    reader, writer = await _connect(echo.port)
    writer.write(b"echo hello\n")
    assert await reader.readline() == b"hello\n"
    writer.write(b"bye\n")
    assert await reader.readline() == b"bye\n"
    assert await reader.read() == b""  # the server closed after flushing "bye"
    await echo.wait_lost(echo.dialogues[0])
    assert echo.dialogues[0].lost == 1
    assert echo.metrics.disconnects.value("echo", "server") == 1
    writer.close()


async def test_many_sends_in_one_iteration_make_one_write(echo: EchoServer) -> None:
    reader, writer = await _connect(echo.port)
    writer.write(b"burst 500\n")
    data = await reader.readexactly(sum(len(f"{i}\n") for i in range(500)))
    assert data.split(b"\n")[:-1] == [str(i).encode() for i in range(500)]
    assert echo.connections[0].writes == 1
    assert echo.metrics.messages_out.value("echo") == 500
    writer.close()


async def test_peer_eof_reaches_the_dialogue_once(echo: EchoServer) -> None:
    _, writer = await _connect(echo.port)
    await echo.wait_for_dialogues(1)
    writer.close()
    await echo.wait_lost(echo.dialogues[0])
    await asyncio.sleep(0.02)
    assert echo.dialogues[0].lost == 1
    assert len(echo.tracker) == 0
    assert echo.metrics.open_connections("echo") == 0


async def test_dialogue_exception_closes_that_connection_only(
    echo: EchoServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="gamehall.server")
    bad_reader, bad_writer = await _connect(echo.port)
    good_reader, good_writer = await _connect(echo.port)
    await echo.wait_for_dialogues(2)
    bad_writer.write(b"boom\n")
    assert await bad_reader.read() == b""
    good_writer.write(b"echo still here\n")
    assert await good_reader.readline() == b"still here\n"
    bad_id = echo.connections[0].connection_id
    assert any(bad_id in record.getMessage() and record.exc_info for record in caplog.records)
    assert echo.metrics.errors.value("echo") == 1
    assert echo.metrics.disconnects.value("echo", "dialogue_error") == 1
    for writer in (bad_writer, good_writer):
        writer.close()


async def test_slow_consumer_is_cut_off_while_a_fast_one_gets_everything() -> None:
    limit = 128 * 1024
    echo = await start_echo_server(ConnectionLimits(out_queue_limit_bytes=limit))
    try:
        slow = socket.socket()
        slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        slow.setblocking(False)
        await asyncio.get_running_loop().sock_connect(slow, ("127.0.0.1", echo.port))
        fast_reader, fast_writer = await _connect(echo.port)
        await echo.wait_for_dialogues(2)
        slow_wire, fast_wire = echo.connections
        for wire in (slow_wire, fast_wire):
            assert wire.transport is not None
            wire.transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)

        chunk = b"x" * 16 * 1024
        rounds = 200  # 3.2 MB each: far more than the slow peer's kernel buffers plus the limit

        async def read_all() -> int:
            return len(await fast_reader.readexactly(len(chunk) * rounds))

        reading = asyncio.create_task(read_all())
        for _ in range(rounds):
            slow_wire.send(chunk)
            fast_wire.send(chunk)
            await asyncio.sleep(0)
            assert fast_wire.transport is not None
            while fast_wire.transport.get_write_buffer_size() > limit // 2:
                await asyncio.sleep(0.001)
        assert await asyncio.wait_for(reading, 5) == len(chunk) * rounds
        await echo.wait_lost(echo.dialogues[0])
        assert echo.dialogues[1].lost == 0
        assert echo.metrics.disconnects.value("echo", "slow_consumer") == 1
        slow.close()
        fast_writer.close()
    finally:
        await echo.close()


async def test_idle_connection_is_closed_and_an_active_one_is_not() -> None:
    echo = await start_echo_server(ConnectionLimits(idle_timeout_s=0.4))
    try:
        idle_reader, _idle_writer = await _connect(echo.port)
        active_reader, active_writer = await _connect(echo.port)
        for _ in range(16):  # 0.8 s of activity, twice the idle timeout
            active_writer.write(b"echo ping\n")
            assert await active_reader.readline() == b"ping\n"
            await asyncio.sleep(0.05)
        assert await asyncio.wait_for(idle_reader.read(), 1) == b""
        assert echo.metrics.disconnects.value("echo", "idle") == 1
        assert echo.dialogues[1].lost == 0
        active_writer.close()
    finally:
        await echo.close()


async def test_input_flood_is_cut_off() -> None:
    echo = await start_echo_server(ConnectionLimits(rate_per_s=5, rate_burst=5))
    try:
        _reader, writer = await _connect(echo.port)
        await echo.wait_for_dialogues(1)
        for _ in range(60):
            if echo.dialogues[0].lost:
                break
            writer.write(b"echo x\n")
            await writer.drain()
            await asyncio.sleep(0.01)
        await echo.wait_lost(echo.dialogues[0])
        assert echo.metrics.disconnects.value("echo", "rate_limited") == 1
        assert echo.metrics.errors.value("echo") == 1
        # the dialogue saw the burst and little more: never the whole flood
        assert len(echo.dialogues[0].received) <= 20
        writer.close()
    finally:
        await echo.close()


async def test_keepalive_options_on_accepted_sockets(echo: EchoServer) -> None:
    _, writer = await _connect(echo.port)
    await echo.wait_for_dialogues(1)
    wire = echo.connections[0]
    assert wire.keepalive
    assert wire.transport is not None
    sock = wire.transport.get_extra_info("socket")
    assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
    if hasattr(socket, "TCP_KEEPIDLE"):
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == 20
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL) == 5
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT) == 3
    writer.close()


async def test_connections_over_the_maximum_are_refused() -> None:
    echo = await start_echo_server(max_connections=1)
    try:
        first_reader, first_writer = await _connect(echo.port)
        await echo.wait_for_dialogues(1)
        second_reader, second_writer = await _connect(echo.port)
        assert await asyncio.wait_for(second_reader.read(), 1) == b""
        first_writer.write(b"echo ok\n")
        assert await first_reader.readline() == b"ok\n"
        assert echo.tracker.refused == 1
        for writer in (first_writer, second_writer):
            writer.close()
    finally:
        await echo.close()


async def test_drain_closes_every_connection(echo: EchoServer) -> None:
    readers = [(await _connect(echo.port))[0] for _ in range(3)]
    await echo.wait_for_dialogues(3)
    assert await echo.tracker.drain(1.0) == 0
    for reader in readers:
        assert await asyncio.wait_for(reader.read(), 1) == b""
    await asyncio.sleep(0.01)
    assert all(dialogue.lost == 1 for dialogue in echo.dialogues)


def test_token_bucket_allows_the_burst_then_the_rate() -> None:
    bucket = TokenBucket(rate=2, burst=3, now=0.0)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(0.5)  # one token back after half a second
    assert not bucket.take(0.5)
    assert bucket.take(10.0)  # refills, but never above the burst
    assert [bucket.take(10.0) for _ in range(3)] == [True, True, False]


def test_rate_zero_means_unlimited() -> None:
    bucket = TokenBucket(rate=0, burst=1, now=0.0)
    assert all(bucket.take(0.0) for _ in range(1000))


def test_batching_and_keepalive_under_uvloop() -> None:
    """Production runs on uvloop, whose transports and socket wrappers differ from asyncio's."""
    uvloop = pytest.importorskip("uvloop")

    async def scenario() -> None:
        echo = await start_echo_server()
        try:
            reader, writer = await _connect(echo.port)
            writer.write(b"burst 300\n")
            data = await reader.readexactly(sum(len(f"{i}\n") for i in range(300)))
            assert data.endswith(b"299\n")
            wire = echo.connections[0]
            assert wire.writes == 1
            assert wire.keepalive
            assert wire.transport is not None
            sock = wire.transport.get_extra_info("socket")
            assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
            if hasattr(socket, "TCP_KEEPIDLE"):
                assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == 20
            writer.close()
        finally:
            await echo.close()

    uvloop.run(scenario())

"""TCP connections on real sockets (127.0.0.1): batching, backpressure, limits, containment."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import struct
import time
from collections.abc import AsyncIterator

import pytest
from server_echo import EchoServer, start_echo_server

from gamehall.server.limits import INPUTS_PER_TURN, ConnectionLimits, TokenBucket


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


async def test_frame_metrics_are_counted_once_per_batch(
    echo: EchoServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """500 frames in one loop iteration: one write and one metrics update for all of them."""
    updates: list[tuple[str, int, int]] = []
    sent = echo.metrics.sent

    def counting(protocol: str, frames: int, size: int) -> None:
        updates.append((protocol, frames, size))
        sent(protocol, frames, size)

    monkeypatch.setattr(echo.metrics, "sent", counting)
    reader, writer = await _connect(echo.port)
    writer.write(b"burst 500\n")
    size = sum(len(f"{i}\n") for i in range(500))
    await reader.readexactly(size)
    assert updates == [("echo", 500, size)]
    assert echo.metrics.bytes_out.value("echo") == size
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
    bad_writer.close()  # our side half-closed first (lingering close); the peer ends it
    await echo.wait_lost(echo.dialogues[0])
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
        idle_reader, idle_writer = await _connect(echo.port)
        active_reader, active_writer = await _connect(echo.port)
        for _ in range(16):  # 0.8 s of activity, twice the idle timeout
            active_writer.write(b"echo ping\n")
            assert await active_reader.readline() == b"ping\n"
            await asyncio.sleep(0.05)
        assert await asyncio.wait_for(idle_reader.read(), 1) == b""
        idle_writer.close()  # our FIN came first (lingering close); the peer ends it
        await echo.wait_lost(echo.dialogues[0])
        assert echo.metrics.disconnects.value("echo", "idle") == 1
        assert echo.dialogues[1].lost == 0
        active_writer.close()
    finally:
        await echo.close()


async def test_a_fast_client_is_throttled_never_cut_and_loses_nothing() -> None:
    """Issue 10: one write per command, far over the input budget: reading pauses (TCP
    back-pressure), every command is answered in order, the connection stays."""
    echo = await start_echo_server(ConnectionLimits(rate_per_s=100, rate_burst=10))
    try:
        reader, writer = await _connect(echo.port)
        await echo.wait_for_dialogues(1)
        count = 150

        async def send_all() -> None:
            for index in range(count):
                writer.write(f"echo {index}\n".encode())
                await writer.drain()
                if index % 3 == 0:
                    await asyncio.sleep(0.01)  # about 300 commands/s

        sending = asyncio.create_task(send_all())
        answers = [await asyncio.wait_for(reader.readline(), 5) for _ in range(count)]
        await sending
        assert answers == [f"{index}\n".encode() for index in range(count)]
        assert echo.dialogues[0].lost == 0
        assert echo.connections[0].read_pauses > 0  # it was throttled, not cut
        assert echo.metrics.disconnects.value("echo", "rate_limited") == 0
        writer.close()
    finally:
        await echo.close()


async def test_many_commands_in_one_write_are_handled_a_few_per_loop_turn(echo: EchoServer) -> None:
    reader, writer = await _connect(echo.port)
    await echo.wait_for_dialogues(1)
    limits: list[int] = []
    dialogue = echo.dialogues[0]
    handle = dialogue.handle_buffered

    def recording(limit: int) -> int:
        limits.append(limit)
        return handle(limit)

    dialogue.handle_buffered = recording  # type: ignore[method-assign]
    writer.write(b"".join(f"echo {index}\n".encode() for index in range(3000)))
    answers = [await asyncio.wait_for(reader.readline(), 5) for _ in range(3000)]
    assert answers == [f"{index}\n".encode() for index in range(3000)]
    assert max(limits) <= INPUTS_PER_TURN
    assert dialogue.lost == 0
    writer.close()


async def test_input_before_a_half_close_is_still_handled(echo: EchoServer) -> None:
    reader, writer = await _connect(echo.port)
    writer.write(b"".join(f"echo {index}\n".encode() for index in range(500)))
    writer.write_eof()
    data = await asyncio.wait_for(reader.read(), 5)  # every answer, then the server's EOF
    assert data.split(b"\n")[:-1] == [str(index).encode() for index in range(500)]
    writer.close()


async def test_offloaded_work_is_answered_in_order(echo: EchoServer) -> None:
    reader, writer = await _connect(echo.port)
    writer.write(b"hash abc\necho after\n")
    assert await asyncio.wait_for(reader.readline(), 5) == b"ABC\n"
    assert await asyncio.wait_for(reader.readline(), 5) == b"after\n"
    writer.close()


async def test_input_that_cannot_be_valid_gets_the_error_before_the_close(echo: EchoServer) -> None:
    """A 10 MB line without newline: the dialogue's error arrives, then a clean EOF, although
    the client is still sending (a plain close would reset the connection and lose the
    error); a bystander is served throughout."""
    reader, writer = await _connect(echo.port)
    bystander_reader, bystander_writer = await _connect(echo.port)

    async def flood() -> None:
        with contextlib.suppress(ConnectionError):
            for _ in range(160):
                writer.write(b"x" * 65536)
                await writer.drain()

    flooding = asyncio.create_task(flood())
    for index in range(20):
        bystander_writer.write(f"echo {index}\n".encode())
        assert await asyncio.wait_for(bystander_reader.readline(), 5) == f"{index}\n".encode()
    assert await asyncio.wait_for(reader.readline(), 10) == b"error: line too long\n"
    assert await asyncio.wait_for(reader.read(), 10) == b""
    flooding.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await flooding
    for closing in (writer, bystander_writer):
        closing.close()


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


async def test_closing_after_the_peer_reset_is_no_error(
    echo: EchoServer, caplog: pytest.LogCaptureFixture
) -> None:
    """The client resets its connection (RST) and the server closes before its loop has read
    the reset: the half-close then finds no peer (ENOTCONN). That peer is simply gone."""
    client = socket.create_connection(("127.0.0.1", echo.port))
    await echo.wait_for_dialogues(1)
    client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    client.close()  # linger 0: an RST instead of a FIN
    time.sleep(0.05)  # the RST arrives while the loop is blocked here: it has not read it
    with caplog.at_level(logging.ERROR, logger="gamehall"):
        echo.connections[0].close()
        await echo.wait_lost(echo.dialogues[0])
    assert echo.dialogues[0].lost == 1
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]


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


def test_token_bucket_spends_into_debt_and_says_how_long_to_wait() -> None:
    bucket = TokenBucket(rate=100, burst=100, now=0.0)
    bucket.spend(0.0, 300)  # bytes already read are paid for, even beyond the balance
    assert bucket.available(0.0) == -200
    assert bucket.wait(0.0, 0.0) == pytest.approx(2.0)
    assert bucket.wait(2.0, 0.0) == 0.0


def test_throttling_and_lingering_close_under_uvloop() -> None:
    """The same pacing on uvloop's transports (pause_reading, write_eof)."""
    uvloop = pytest.importorskip("uvloop")

    async def scenario() -> None:
        echo = await start_echo_server(ConnectionLimits(rate_per_s=200, rate_burst=5))
        try:
            reader, writer = await _connect(echo.port)
            writer.write(b"".join(f"echo {index}\n".encode() for index in range(100)))
            answers = [await asyncio.wait_for(reader.readline(), 5) for _ in range(100)]
            assert answers[-1] == b"99\n"
            assert echo.connections[0].read_pauses > 0
            writer.write(b"bye\n" + b"ignored\n" * 1000)
            assert await asyncio.wait_for(reader.read(), 5) == b"bye\n"
            writer.close()
        finally:
            await echo.close()

    uvloop.run(scenario())

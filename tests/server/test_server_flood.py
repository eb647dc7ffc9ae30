"""Fast and hostile clients against the real server on real sockets (issue 10).

- a client sending valid commands much faster than its input budget, one write per command,
  is throttled (TCP back-pressure), never disconnected, and every command gets its answer;
- input that cannot be valid (a 10 MB line, an impossible length prefix, garbage past the
  protocol's error limit) gets the protocol's error message first, then a clean close, while
  a bystander keeps being served;
- random bytes on every protocol that closes on garbage: whenever the server closes, the last
  thing the client received is that protocol's error or goodbye, never nothing.

No speed is asserted here: the p99 figures are in bench/bench_flood.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import struct
from collections.abc import AsyncIterator
from pathlib import Path

import msgpack  # type: ignore[import-untyped]
import pytest

from gamehall.config import ServerConfig
from gamehall.server.app import Server, running_server

PROTOCOLS = {"urserver": 0, "mrjack": 0, "aah": 0, "cg": 0, "jduplicate": 0}
CLOSECONN = 16  # peng3dnet's closeconn packet id


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    # A small budget, so that 300 commands/s are far over it and throttling really happens.
    config = ServerConfig(db=str(tmp_path / "hall.db"), rate_limit_per_s=100, rate_limit_burst=20)
    async with running_server(config, listen=PROTOCOLS) as running:
        yield running


async def _connect(server: Server, protocol: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", server.ports[protocol])


async def _read_until_eof(reader: asyncio.StreamReader, timeout: float = 10.0) -> bytes:
    """Everything the server sends until it closes (a reset would raise here)."""
    data = b""
    while True:
        chunk = await asyncio.wait_for(reader.read(65536), timeout)
        if not chunk:
            return data
        data += chunk


async def _send_paced(writer: asyncio.StreamWriter, command: bytes, count: int) -> None:
    """``count`` writes of one command each, about 300 per second."""
    for index in range(count):
        writer.write(command)
        await writer.drain()
        if index % 3 == 2:
            await asyncio.sleep(0.01)


async def _expect_answers(
    server: Server, protocol: str, command: bytes, answer: bytes, greeting: bytes = b""
) -> None:
    reader, writer = await _connect(server, protocol)
    if greeting:
        assert await asyncio.wait_for(reader.readexactly(len(greeting)), 5) == greeting
    count = 300
    sending = asyncio.create_task(_send_paced(writer, command, count))
    received = await asyncio.wait_for(reader.readexactly(len(answer) * count), 30)
    await sending
    assert received == answer * count
    writer.write(command)  # still connected and served
    assert await asyncio.wait_for(reader.readexactly(len(answer)), 5) == answer
    writer.close()


async def test_valid_commands_at_300_per_second_are_all_answered_and_never_cut(server: Server) -> None:
    await asyncio.gather(
        _expect_answers(server, "urserver", b"PING\n", b"PONG\n"),
        _expect_answers(server, "aah", b"PING\x03", b"PONG\x03"),
        _expect_answers(
            server,
            "mrjack",
            b"ison\n",
            b"ison([]).\n",
            greeting=b"ok('Bitte einen Nick eingeben mit nick(Nick)').\n",
        ),
    )
    assert server.metrics.disconnects.value("urserver", "rate_limited") == 0


async def test_a_10_mb_line_gets_fehler_22_and_a_close_while_a_bystander_is_served(server: Server) -> None:
    bystander_reader, bystander_writer = await _connect(server, "urserver")
    reader, writer = await _connect(server, "urserver")

    async def flood() -> None:
        with contextlib.suppress(ConnectionError):
            for _ in range(160):  # 10 MiB, no line break
                writer.write(b"x" * 65536)
                await writer.drain()

    flooding = asyncio.create_task(flood())
    for _ in range(20):
        bystander_writer.write(b"PING\n")
        assert await asyncio.wait_for(bystander_reader.readline(), 5) == b"PONG\n"
    assert await _read_until_eof(reader) == "FEHLER 22 Mindestens ein Parameter ist ungültig.\n".encode()
    flooding.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await flooding
    bystander_writer.write(b"PING\n")
    assert await asyncio.wait_for(bystander_reader.readline(), 5) == b"PONG\n"
    for closing in (writer, bystander_writer):
        closing.close()


async def _fatal(server: Server, protocol: str, data: bytes, trailer: bytes = b"") -> bytes:
    """Send ``data`` then keep sending ``trailer`` garbage: what arrives before the close."""
    reader, writer = await _connect(server, protocol)
    writer.write(data)

    async def keep_sending() -> None:
        with contextlib.suppress(ConnectionError):
            for _ in range(50):
                if trailer:
                    writer.write(trailer)
                    await writer.drain()
                await asyncio.sleep(0.002)

    sending = asyncio.create_task(keep_sending())
    received = await _read_until_eof(reader)
    sending.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await sending
    writer.close()
    return received


def _cg_frames(data: bytes) -> list[tuple[int, dict[str, object]]]:
    frames = []
    while data:
        length, packet_id, _flags = struct.unpack_from(">IIH", data)
        frames.append((packet_id, msgpack.unpackb(data[10 : 4 + length], raw=False)))
        data = data[4 + length :]
    return frames


async def test_input_that_cannot_be_valid_gets_the_protocol_error_first(server: Server) -> None:
    garbage = bytes(random.Random(1).randrange(256) for _ in range(4096))
    cg = _cg_frames(await _fatal(server, "cg", b"\xff\xff\xff\xff" + bytes(64), garbage))
    assert cg[-1] == (CLOSECONN, {"reason": "protocolerror"})
    jd = await _fatal(server, "jduplicate", b"\xff\xff" + bytes(64), garbage)
    assert jd == b"\x00\x0cERROR|99004#"
    aah = await _fatal(server, "aah", b"x" * (2 << 20))
    assert aah == b"UNRGFrame too long.\x03UNRGFrame too long.\x03DISCToo many protocol errors.\x03"
    mrjack = await _fatal(server, "mrjack", b"x" * (1 << 20))
    assert mrjack.endswith(b"err('Zeile zu lang').\nerr('Zeile zu lang').\n")


def _ends_with_goodbye(protocol: str, received: bytes) -> bool:
    if protocol == "aah":
        last = received.rstrip(b"\x03").rpartition(b"\x03")[2]
        return last.startswith((b"DISC", b"REFU"))
    if protocol == "cg":
        return _cg_frames(received)[-1][0] == CLOSECONN
    return received.rpartition(b"\x00")[2].startswith(b"\x0cERROR|9900")  # JDuplicate 99004


@pytest.mark.parametrize("protocol", ["aah", "cg", "jduplicate"])
async def test_random_bytes_never_end_in_a_silent_close(server: Server, protocol: str) -> None:
    closes = 0
    for seed in range(8):
        rng = random.Random(seed)
        garbage = bytes(rng.randrange(256) for _ in range(64 * 1024))
        reader, writer = await _connect(server, protocol)
        writer.write(garbage)
        received = b""
        closed = False
        with contextlib.suppress(TimeoutError):
            while True:
                chunk = await asyncio.wait_for(reader.read(65536), 1.0)
                if not chunk:
                    closed = True
                    break
                received += chunk
        writer.close()
        if closed:
            closes += 1
            assert _ends_with_goodbye(protocol, received), (seed, received[-80:])
    assert closes > 0  # garbage does end these connections: the check above really ran

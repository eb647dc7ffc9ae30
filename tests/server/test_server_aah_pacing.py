"""AAH wire fidelity (issue 10 item 8): the 0.2.0 client loses a frame split across two reads,
so the server hands every frame to the socket in one write, caps the bytes of one write to an
AAH connection (the rest goes out on later loop turns, whole frames only) and keeps the order
of frames (``BLNK`` before ``REVL``)."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from pathlib import Path

import pytest
from server_echo import start_echo_server

from gamehall.bots.aah import AahWireBot
from gamehall.config import ServerConfig
from gamehall.protocols.aah.dialogue import MAX_FLUSH_BYTES
from gamehall.server.app import running_server
from gamehall.server.connection import TcpConnection
from gamehall.server.limits import ConnectionLimits


async def test_a_capped_connection_writes_whole_frames_in_order_over_several_turns() -> None:
    echo = await start_echo_server(ConnectionLimits(max_flush_bytes=64))
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", echo.port)
        await echo.wait_for_dialogues(1)
        wire = echo.connections[0]
        writes: list[bytes] = []
        original = wire._write

        def recording(data: bytes) -> None:
            writes.append(data)
            original(data)

        wire._write = recording  # type: ignore[method-assign]
        writer.write(b"burst 100\n")
        expected = b"".join(f"{index}\n".encode() for index in range(100))
        assert await asyncio.wait_for(reader.readexactly(len(expected)), 5) == expected
        assert len(writes) > 1
        assert all(len(data) <= 64 and data.endswith(b"\n") for data in writes)
        assert b"".join(writes) == expected
        writer.close()
    finally:
        await echo.close()


async def test_aah_writes_hold_whole_frames_under_the_cap_and_blnk_comes_before_revl(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writes: dict[str, list[bytes]] = defaultdict(list)
    original = TcpConnection._write

    def recording(self: TcpConnection, data: bytes) -> None:
        writes[self.connection_id].append(data)
        original(self, data)

    monkeypatch.setattr(TcpConnection, "_write", recording)
    rooms = {"aplimit": 2, "round_gap": 1, "autostart_delay": 1, "timeout": 15}
    config = ServerConfig(db=str(tmp_path / "hall.db"), room_defaults={"aah": rooms})
    async with running_server(config, listen={"aah": 0}) as server:
        port = server.ports["aah"]
        bots = [AahWireBot("127.0.0.1", port, name, strict=True) for name in ("alice", "bob", "carol")]
        stats = await asyncio.wait_for(asyncio.gather(*(bot.run() for bot in bots)), timeout=60)
        assert all(s.games_finished == 1 and not s.violations for s in stats)
    assert len(writes) == 3
    for connection_writes in writes.values():
        for data in connection_writes:
            assert data.endswith(b"\x03")  # whole frames only: no frame is split across writes
            assert len(data) <= MAX_FLUSH_BYTES or data.count(b"\x03") == 1
        frames = [f[:4] for f in b"".join(connection_writes).split(b"\x03") if f]
        revealed = False
        for command in frames:
            if command == b"RSTR":
                revealed = False
            elif command == b"REVL":
                revealed = True
            elif command == b"BLNK":
                assert not revealed  # every BLNK of a round before its first REVL
        assert b"REVL" in frames and b"BLNK" in frames

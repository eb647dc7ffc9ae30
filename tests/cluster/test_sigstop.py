"""A real ``gamehall serve --redis`` paused (SIGSTOP) past its lease, while another node takes
the room: after SIGCONT it writes nothing more for that room and its player is told to
reconnect (issue 13, "Tests")."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from kill_restart import LOOPBACK, NodeProcess
from redis_space import RedisSpace

import gamehall
from gamehall.cluster import RoomLeases
from gamehall.hall.hall import LEASE_LOST_TEXT

TTL = 1.0


async def next_message(ws: aiohttp.ClientWebSocketResponse, kind: str, timeout: float = 10) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        while True:
            data: dict[str, Any] = await ws.receive_json()
            if data.get("t") == kind:
                return data


async def test_a_paused_owner_writes_nothing_after_it_continues(
    tmp_path: Path, redis_space: RedisSpace, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the child runs the gamehall under test, wherever this run imports it from
    monkeypatch.setenv("PYTHONPATH", str(Path(gamehall.__file__).parents[1]))
    node_a = NodeProcess(tmp_path, node_id="a", redis_url=redis_space.url, prefix=redis_space.prefix, ttl=TTL)
    node_a.start()
    process = node_a.process
    assert process is not None
    try:
        web = f"ws://{LOOPBACK}:{node_a.ports['web']}/ws"
        async with aiohttp.ClientSession() as http, http.ws_connect(web) as ws:
            await ws.send_json({"t": "hello", "v": 2, "name": "ann", "id": 1})
            await next_message(ws, "welcome")
            await ws.send_json({"t": "create", "game": "aah", "id": 2})
            room_id = (await next_message(ws, "joined"))["room"]["id"]
            lease_key = f"{redis_space.prefix}lease:{room_id}"
            assert await redis_space.client.get(lease_key) == b"a/1"
            before = node_a.room(room_id)

            process.send_signal(signal.SIGSTOP)
            try:
                await asyncio.sleep(TTL * 1.5)
                node_b = RoomLeases(redis_space.client, "b", 10.0, prefix=redis_space.prefix)
                taken = await node_b.acquire(room_id)
                assert taken is not None and taken.fence > 1
                # an input that would write, waiting in the socket for the node to run again
                await ws.send_json({"t": "bots", "room": room_id, "count": 1, "id": 3})
            finally:
                process.send_signal(signal.SIGCONT)

            ended = await next_message(ws, "ended")
            assert ended["room"] == room_id and ended["text"] == LEASE_LOST_TEXT
            await asyncio.sleep(TTL)  # renewals and timers had their chance to write

            after = node_a.room(room_id)
            assert after.entries == before.entries and not after.finished
            assert await redis_space.client.get(lease_key) == f"b/{taken.fence}".encode()
    finally:
        node_a.stop()
    final = node_a.room(room_id)  # nor did the graceful stop write anything for the room
    assert final.entries == before.entries and not final.finished
    assert process.returncode == 0, node_a.stderr()
    assert os.path.exists(node_a.db)

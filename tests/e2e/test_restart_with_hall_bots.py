"""A restart is invisible to a game played with in-hall bots (docs/recovery.md).

A real ``gamehall serve`` process hosts an AAH table: one player over the web protocol (a
WebSocket client that plays with the AAH bot policy on its own views) and two in-hall bots.
Mid-game the server is killed with SIGKILL and started again on the same store. The player
comes back with its resume token, the bots are seated again by the hall and play on, and the
game ends normally by its rules, every seat ending ``normal``.
"""

from __future__ import annotations

import asyncio
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from gamehall.bots.aah import AahPolicy
from gamehall.games import GAMES, game_types
from gamehall.store.sqlite import SqliteStore

AAH_CODEC = game_types()["aah"].actions


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start_server(db: Path, web_port: int) -> subprocess.Popen[bytes]:
    command = [
        sys.executable, "-m", "gamehall.cli", "serve", "--bind", "127.0.0.1", "--db", str(db),
        "--web-port", str(web_port), "--log-level", "WARNING",
        *(arg for e in GAMES for arg in (f"--{e.protocol}-port", "0")),
        "--set", "aah.autostart_delay=1", "--set", "aah.round_gap=1", "--set", "aah.timeout=60",
        "--set", "aah.aplimit=3",
    ]  # fmt: skip
    # aplimit 3: the kill comes in round 2 at the latest (three bot acts), when nobody has more
    # than one point, so at least one whole round - in which a bot always acts - follows it.
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", web_port)) == 0:
                return process
        if process.poll() is not None:
            raise RuntimeError(f"server exited: {process.stderr.read().decode() if process.stderr else ''}")
        time.sleep(0.05)
    process.kill()
    raise TimeoutError("server did not start listening")


@pytest.fixture
def server_process(tmp_path: Path) -> Iterator[tuple[Path, int, list[subprocess.Popen[bytes]]]]:
    processes: list[subprocess.Popen[bytes]] = []
    yield tmp_path / "hall.db", _free_port(), processes
    for process in processes:
        if process.poll() is None:
            process.kill()
        process.wait(10)


class WebPlayer:
    """One browser-protocol player that plays AAH with the bot policy on its own views."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, name: str) -> None:
        self.ws = ws
        self.name = name
        self.policy = AahPolicy("random")
        self.rng = random.Random(7)
        self.next_id = 0
        self.room: str | None = None
        self.seat: int | None = None
        self.ended: str | None = None

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        ref = self.next_id
        await self.ws.send_json({**message, "id": ref})
        while True:
            reply = await self.receive()
            if reply.get("ref") == ref and reply["t"] != "view":
                if reply["t"] == "error":
                    raise AssertionError(f"{message['t']} refused: {reply}")
                return reply

    async def receive(self) -> dict[str, Any]:
        msg = await self.ws.receive_json(timeout=30)
        assert isinstance(msg, dict)
        if msg["t"] == "view" and msg.get("seat") is not None:
            self.room, self.seat = msg["room"], msg["seat"]
            action = self.policy.decide(msg["view"], msg["seat"], self.rng)
            if action is not None:
                self.next_id += 1
                act = {"t": "act", "room": msg["room"], "action": AAH_CODEC.encode(action)}
                await self.ws.send_json({**act, "id": self.next_id})
        elif msg["t"] == "ended":
            self.ended = msg["reason"]
        return msg

    async def play_until(self, done: Any, timeout: float = 60) -> None:
        async def loop() -> None:
            while not done():
                await self.receive()

        await asyncio.wait_for(loop(), timeout)


def _acts(db: Path, room_id: str) -> list[tuple[int, int | None]]:
    store = SqliteStore(db)
    try:
        record = store.load_room(room_id)
    finally:
        store.close()
    assert record is not None
    return [(e.n, e.seat) for e in record.entries if e.kind == "act"]


async def test_kill_9_then_restart_the_hall_bots_play_on_and_the_game_ends_normally(
    server_process: tuple[Path, int, list[subprocess.Popen[bytes]]],
) -> None:
    db, port, processes = server_process
    processes.append(_start_server(db, port))
    url = f"http://127.0.0.1:{port}/ws"
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(url) as ws:
            alice = WebPlayer(ws, "alice")
            token = (await alice.request({"t": "hello", "v": 1, "name": "alice"}))["token"]
            joined = await alice.request({"t": "create", "game": "aah", "settings": {}})
            room_id = joined["room"]["id"]
            await alice.request({"t": "bots", "room": room_id, "count": 2})
            # play until the bots have moved a few times, then the process dies mid-game
            await alice.play_until(lambda: sum(1 for _, s in _acts(db, room_id) if s != alice.seat) >= 3)
            processes[0].send_signal(signal.SIGKILL)
            processes[0].wait(10)
        before = _acts(db, room_id)
        last_n = max(n for n, _ in before)

        processes.append(_start_server(db, port))
        async with http.ws_connect(url) as ws:
            alice2 = WebPlayer(ws, "alice")
            welcome = await alice2.request({"t": "hello", "v": 1, "name": "alice", "token": token})
            assert welcome["name"] == "alice"
            await alice2.play_until(lambda: alice2.ended is not None, timeout=90)
            assert alice2.ended == "game_over"
            assert alice2.seat == alice.seat  # the same seat, taken back with the token

    after = [(n, s) for n, s in _acts(db, room_id) if n > last_n]
    bot_seats = {s for _, s in after if s != alice.seat}
    assert bot_seats  # the bots played again after the restart
    store = SqliteStore(db)
    try:
        record = store.load_room(room_id)
    finally:
        store.close()
    assert record is not None and record.finished_at is not None
    result = record.result
    assert result["termination"] == "normal" and len(result["winners"]) == 1
    assert list(result["seats"].values()) == [{"result": "normal"}] * 3

"""The whole server in-process and as a process: listeners from the game table, the browser
protocol end to end, and a graceful stop on SIGTERM."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import server_echo

from gamehall.config import ServerConfig
from gamehall.games import GameEntry
from gamehall.rules import aah
from gamehall.server import app as server_app
from gamehall.server.app import listen_plan, running_server
from gamehall.server.connection import TcpConnection
from gamehall.store.base import StoreError
from gamehall.store.memory import MemoryStore

ROOT = Path(__file__).resolve().parents[2]


def local_config(**changes: Any) -> ServerConfig:
    return dataclasses.replace(ServerConfig(bind="127.0.0.1", db=":memory:"), **changes)


def test_listen_plan_leaves_out_ports_set_to_zero() -> None:
    config = local_config(ports={"aah": 11235, "cg": 0, "web": 8080})
    assert listen_plan(config) == {"aah": 11235, "web": 8080}


async def test_browser_hello_and_shutdown_goodbye() -> None:
    async with running_server(local_config(), listen={"web": 0}, store=MemoryStore()) as srv:
        base = f"http://127.0.0.1:{srv.ports['web']}"
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(f"{base}/ws")
            await ws.send_json({"t": "hello", "v": 1, "name": "alice", "id": 1})
            welcome = await ws.receive_json()
            assert welcome["t"] == "welcome" and welcome["name"] == "alice"
            health = await (await http.get(f"{base}/healthz")).json()
            assert health["users"] == 1 and health["connections"] == 1
            await srv.stop()
            bye = await ws.receive_json()
            assert bye["t"] == "bye" and bye["text"] == "Game ended by server or administrator."
            assert (await ws.receive()).type is aiohttp.WSMsgType.CLOSE
        assert len(srv.tracker) == 0


async def test_the_installed_browser_client_is_served() -> None:
    async with running_server(local_config(), listen={"web": 0}, store=MemoryStore()) as srv:
        base = f"http://127.0.0.1:{srv.ports['web']}"
        async with aiohttp.ClientSession() as http:
            index = await http.get(f"{base}/")
            assert index.status == 200 and index.content_type == "text/html"
            script = await http.get(f"{base}/app.js")
            assert script.status == 200 and "javascript" in script.content_type


async def test_tcp_protocols_come_from_the_game_table(monkeypatch: pytest.MonkeyPatch) -> None:
    echo_entry = GameEntry(aah.GAME_TYPE, server_echo.PROTOCOL)
    monkeypatch.setattr(server_app, "GAMES", (echo_entry,))
    server_echo.made.clear()
    async with running_server(local_config(), listen={"echo": 0}, store=MemoryStore()) as srv:
        reader, writer = await asyncio.open_connection("127.0.0.1", srv.ports["echo"])
        writer.write(b"echo hi\n")
        assert await reader.readline() == b"hi\n"
        connection = server_echo.made[0].wire
        assert isinstance(connection, TcpConnection)
        assert connection.limits.idle_timeout_s == server_echo.IDLE_TIMEOUT_S
        await srv.stop()
        assert await asyncio.wait_for(reader.read(), 2) == b""
        assert server_echo.made[0].lost == 1
        writer.close()


async def test_only_the_planned_listeners_start_and_each_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="gamehall.server")
    async with running_server(local_config(), listen={"mrjack": 0, "web": 0}, store=MemoryStore()) as srv:
        assert set(srv.ports) == {"mrjack", "web"} and set(srv.hosted) == {"mrjack", "web"}
    messages = [record.getMessage() for record in caplog.records]
    assert f"mrjack listening on 127.0.0.1:{srv.ports['mrjack']}" in messages
    assert f"web on http://127.0.0.1:{srv.ports['web']}" in messages


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


SERVE = textwrap.dedent(
    """
    import asyncio, logging, sys
    from gamehall.config import ServerConfig
    from gamehall.server.app import run_server
    try:
        import uvloop
        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    except ImportError:
        pass
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(name)s: %(message)s")
    ports = {name: 0 for name in ("aah", "cg", "urserver", "mrjack", "jduplicate")}
    ports["web"] = int(sys.argv[2])
    asyncio.run(run_server(ServerConfig(bind="127.0.0.1", ports=ports, db=sys.argv[1])))
    """
)


async def test_sigterm_drains_and_exits_zero(tmp_path: Path) -> None:
    port = _free_port()
    db = tmp_path / "hall.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE, str(db), str(port)],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stderr is not None
        lines: list[str] = []
        deadline = time.monotonic() + 10
        while not any("web on http://" in line for line in lines):
            assert time.monotonic() < deadline, lines
            line = await asyncio.to_thread(process.stderr.readline)
            assert line, f"server exited early: {lines}"
            lines.append(line)
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws")
            await ws.send_json({"t": "hello", "v": 1, "name": "bob", "id": 1})
            assert (await ws.receive_json())["t"] == "welcome"
            started = time.monotonic()
            process.send_signal(signal.SIGTERM)
            bye = await asyncio.wait_for(ws.receive_json(), 5)
            assert bye["t"] == "bye"
            code = await asyncio.to_thread(process.wait, 5)
            assert code == 0
            assert time.monotonic() - started < 5
        rest = process.stderr.read()
        assert "stopped" in rest
        assert db.exists()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


async def test_a_port_in_use_fails_the_start_and_releases_everything() -> None:
    store = MemoryStore()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(OSError):
            async with running_server(local_config(), listen={"web": port}, store=store):
                pass
    with pytest.raises(StoreError):
        store.load_room("any")  # closed by the failed start

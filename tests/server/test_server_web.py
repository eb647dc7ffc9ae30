"""HTTP routes and the WebSocket bridge, with a fake hall and a fake web dialogue."""

from __future__ import annotations

import asyncio
import base64
import logging
import os
import re
import socket
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from aiohttp import WSCloseCode, WSMsgType
from aiohttp.test_utils import TestClient, TestServer

from gamehall.protocols._core import RoomInfo
from gamehall.server.limits import ConnectionLimits
from gamehall.server.metrics import ServerMetrics
from gamehall.server.tracker import ConnectionTracker
from gamehall.server.web import WebContext, build_web_app
from gamehall.server.websocket import Offload, TextDialogue
from gamehall.store.base import LogEntry
from gamehall.store.memory import MemoryStore

ROOM = RoomInfo(
    room_id="aah-1",
    game="aah",
    title="Friday night",
    config={"aplimit": 3},
    seats={0: "alice", 1: "bob"},
    away=frozenset(),
    spectators=(),
    has_password=False,
    operator="alice",
    started=True,
    finished=False,
    max_seats=5,
    created_seq=1,
)


class FakeHall:
    def rooms(self, game: str | None = None) -> list[RoomInfo]:
        return [ROOM] if game in (None, "aah") else []

    def stats(self) -> dict[str, int]:
        return {"users": 2, "rooms": 1, "seats": 2, "spectators": 0}


class ShoutingDialogue:
    """Answers every text with its upper case; ``boom`` raises, ``flood N`` sends N KiB
    messages, ``bye`` says goodbye and closes."""

    instances: list[ShoutingDialogue] = []

    def __init__(self, send_text: Callable[[str], None], close: Callable[[], None]) -> None:
        self.send_text = send_text
        self.close = close
        self.lost = 0
        self.offload: Offload = lambda work, done: done(work())
        ShoutingDialogue.instances.append(self)

    def text_received(self, text: str) -> None:
        if text == "boom":
            raise RuntimeError("dialogue bug")
        if text.startswith("slow "):  # work for a worker thread; answered before what follows
            word = text.split()[1]
            self.offload(lambda: threading.current_thread().name + ":" + word.upper(), self.send_text)
            return
        if text.startswith("flood "):
            self._flood(int(text.split()[1]))
            return
        self.send_text(text.upper())
        if text == "bye":
            self.close()

    def connection_lost(self) -> None:
        self.lost += 1

    def _flood(self, remaining: int) -> None:
        """1 KiB messages, 16 per loop iteration: a reading peer keeps up, a stuck one cannot."""
        if remaining <= 0 or self.lost:
            return
        for _ in range(min(16, remaining)):
            self.send_text("x" * 1024)
        asyncio.get_running_loop().call_soon(self._flood, remaining - 16)


def make_context(tmp_path: Path, limits: ConnectionLimits | None = None) -> WebContext:
    ShoutingDialogue.instances.clear()
    store = MemoryStore()
    store.create_room("aah-old", "aah", {"aplimit": 3}, 42, {"title": "Old", "password_hash": "s$h"}, 1.0)
    store.append("aah-old", LogEntry(1, "join", 0, {"name": "alice"}, 2.0))
    store.finish("aah-old", {"winner": "alice"}, 3.0)
    store.create_room("aah-1", "aah", {"aplimit": 3}, 7, {"title": "Friday night"}, 4.0)
    static = tmp_path / "web"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>gamehall</title>")
    (static / "app.js").write_text("console.log('hi')")
    (tmp_path / "secret.txt").write_text("not served")

    def factory(
        send_text: Callable[[str], None], close: Callable[[], None], offload: Offload
    ) -> TextDialogue:
        dialogue = ShoutingDialogue(send_text, close)
        dialogue.offload = offload
        return dialogue

    metrics = ServerMetrics()
    metrics.add_protocol("web")
    metrics.watch_hall(lambda: {"aah": 1}, lambda: 2)
    return WebContext(
        hall=FakeHall(),
        store=store,
        dialogue_factory=factory,
        limits=limits or ConnectionLimits(),
        metrics=metrics,
        tracker=ConnectionTracker(),
        static_dir=static,
    )


@pytest.fixture
def context(tmp_path: Path) -> WebContext:
    return make_context(tmp_path)


@pytest.fixture
async def client(context: WebContext) -> AsyncIterator[TestClient]:  # type: ignore[type-arg]
    async with TestClient(TestServer(build_web_app(context), host="127.0.0.1")) as test_client:
        yield test_client


# ------------------------------------------------------------------------------ metrics

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (\S+)$')


def parse_exposition(text: str) -> dict[str, list[tuple[str, float]]]:
    """Check every line of a Prometheus text exposition; return samples by family."""
    assert text.endswith("\n")
    types: dict[str, str] = {}
    samples: dict[str, list[tuple[str, float]]] = {}
    for line in text.splitlines():
        if line.startswith("# HELP "):
            assert len(line.split(" ", 3)) == 4, line
        elif line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ")
            assert kind in ("counter", "gauge", "histogram"), line
            assert name not in types, f"{name} declared twice"
            types[name] = kind
        else:
            match = SAMPLE.match(line)
            assert match, f"not a sample line: {line!r}"
            name = match.group(1)
            family = re.sub(r"_(bucket|sum|count)$", "", name) if name not in types else name
            assert family in types, f"{name} has no # TYPE before it"
            samples.setdefault(family, []).append((line.split(" ")[0], float(match.group(4))))
    return samples


async def test_metrics_is_valid_exposition_with_every_series(
    client: TestClient,  # type: ignore[type-arg]
    context: WebContext,
) -> None:
    context.metrics.messages_in.inc("web", amount=3)
    for value in (0.0002, 0.003, 0.2, 5.0):
        context.metrics.action_latency.observe(value)
    response = await client.get("/metrics")
    assert response.status == 200
    assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
    samples = parse_exposition(await response.text())
    for family in (
        "gamehall_connections",
        "gamehall_rooms",
        "gamehall_users",
        "gamehall_messages_in_total",
        "gamehall_messages_out_total",
        "gamehall_errors_total",
        "gamehall_action_latency_seconds",
    ):
        assert family in samples, family
    assert ('gamehall_messages_in_total{protocol="web"}', 3.0) in samples["gamehall_messages_in_total"]
    assert ('gamehall_rooms{game="aah"}', 1.0) in samples["gamehall_rooms"]
    assert ("gamehall_users", 2.0) in samples["gamehall_users"]
    buckets = [value for name, value in samples["gamehall_action_latency_seconds"] if "_bucket" in name]
    assert buckets == sorted(buckets), "buckets are cumulative"
    assert samples["gamehall_action_latency_seconds"][len(buckets) - 1][0].endswith('le="+Inf"}')
    assert buckets[-1] == 4
    assert ("gamehall_action_latency_seconds_count", 4.0) in samples["gamehall_action_latency_seconds"]


def test_label_values_are_escaped() -> None:
    metrics = ServerMetrics()
    metrics.disconnects.inc('we"ird\\', "new\nline")
    samples = parse_exposition(metrics.render())
    assert ('gamehall_disconnects_total{protocol="we\\"ird\\\\",reason="new\\nline"}', 1.0) in samples[
        "gamehall_disconnects_total"
    ]


# ------------------------------------------------------------------------------ JSON routes


async def test_healthz(client: TestClient) -> None:  # type: ignore[type-arg]
    response = await client.get("/healthz")
    assert response.status == 200
    body = await response.json()
    assert body["status"] == "ok"
    assert body["rooms"] == 1 and body["users"] == 2 and body["connections"] == 0
    assert body["uptime_s"] >= 0


async def test_api_rooms_lists_the_lobby(client: TestClient) -> None:  # type: ignore[type-arg]
    rooms = await (await client.get("/api/rooms")).json()
    assert [room["id"] for room in rooms] == ["aah-1"]
    assert rooms[0]["seats"][1] == {"seat": 1, "name": "bob", "away": False}
    assert await (await client.get("/api/rooms?game=cg")).json() == []


async def test_room_log_of_a_finished_room_without_secrets(client: TestClient) -> None:  # type: ignore[type-arg]
    response = await client.get("/api/rooms/aah-old/log")
    assert response.status == 200
    log = await response.json()
    assert log["seed"] == "42" and log["result"] == {"winner": "alice"}
    assert log["entries"] == [{"n": 1, "kind": "join", "seat": 0, "data": {"name": "alice"}, "at": 2.0}]
    assert log["meta"] == {"title": "Old"}  # no password hash


async def test_room_log_refused_while_running_and_unknown(client: TestClient) -> None:  # type: ignore[type-arg]
    running = await client.get("/api/rooms/aah-1/log")
    assert running.status == 409
    assert (await running.json())["error"] == "room_running"
    assert (await client.get("/api/rooms/nope/log")).status == 404


async def test_static_files_and_no_escape(client: TestClient) -> None:  # type: ignore[type-arg]
    index = await client.get("/")
    assert index.status == 200 and "gamehall" in await index.text()
    assert (await client.get("/app.js")).status == 200
    assert (await client.get("/missing.js")).status == 404
    assert (await client.get("/%2e%2e/secret.txt")).status == 404
    assert (await client.get("/../secret.txt")).status == 404


# ------------------------------------------------------------------------------ WebSocket


async def test_websocket_round_trip_and_clean_close(
    client: TestClient,  # type: ignore[type-arg]
    context: WebContext,
) -> None:
    ws = await client.ws_connect("/ws")
    await ws.send_str("hello")
    assert (await ws.receive()).data == "HELLO"
    await ws.send_str("bye")
    assert (await ws.receive()).data == "BYE"
    closing = await ws.receive()
    assert closing.type is WSMsgType.CLOSE and closing.data == WSCloseCode.OK
    await ws.close()
    await _until(lambda: ShoutingDialogue.instances[0].lost == 1)
    assert context.metrics.messages_in.value("web") == 2
    assert context.metrics.messages_out.value("web") == 2
    assert context.metrics.disconnects.value("web", "server") == 1
    assert len(context.tracker) == 0


async def test_peer_close_reaches_the_dialogue_once(client: TestClient) -> None:  # type: ignore[type-arg]
    ws = await client.ws_connect("/ws")
    await ws.send_str("hi")
    await ws.receive()
    await ws.close()
    await _until(lambda: ShoutingDialogue.instances[0].lost == 1)
    await asyncio.sleep(0.02)
    assert ShoutingDialogue.instances[0].lost == 1


async def test_binary_frame_is_a_policy_violation(client: TestClient) -> None:  # type: ignore[type-arg]
    ws = await client.ws_connect("/ws")
    await ws.send_bytes(b"\x00\x01")
    closing = await ws.receive()
    assert closing.type is WSMsgType.CLOSE and closing.data == WSCloseCode.POLICY_VIOLATION


async def test_message_over_64_kib_is_refused(client: TestClient) -> None:  # type: ignore[type-arg]
    ws = await client.ws_connect("/ws")
    await ws.send_str("a" * (64 * 1024 + 1))
    closing = await ws.receive()
    assert closing.type is WSMsgType.CLOSE and closing.data == WSCloseCode.MESSAGE_TOO_BIG


async def test_dialogue_exception_closes_that_socket_only(
    client: TestClient,  # type: ignore[type-arg]
    context: WebContext,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.ERROR, logger="gamehall.server")
    bad = await client.ws_connect("/ws")
    good = await client.ws_connect("/ws")
    await bad.send_str("boom")
    closing = await bad.receive()
    assert closing.type is WSMsgType.CLOSE and closing.data == WSCloseCode.INTERNAL_ERROR
    await good.send_str("still here")
    assert (await good.receive()).data == "STILL HERE"
    assert any("web#" in record.getMessage() and record.exc_info for record in caplog.records)
    assert context.metrics.errors.value("web") == 1
    await good.close()


async def test_a_websocket_flood_is_throttled_never_cut(tmp_path: Path) -> None:
    """Issue 10: over the input budget the server waits before reading on; every message is
    answered in order and the socket stays open."""
    context = make_context(tmp_path, ConnectionLimits(rate_per_s=50, rate_burst=3))
    async with TestClient(TestServer(build_web_app(context), host="127.0.0.1")) as test_client:
        ws = await test_client.ws_connect("/ws")
        for index in range(20):
            await ws.send_str(f"m{index}")
        replies = [(await asyncio.wait_for(ws.receive(), 5)).data for _ in range(20)]
        assert replies == [f"M{index}" for index in range(20)]
        await ws.send_str("still open")
        assert (await asyncio.wait_for(ws.receive(), 5)).data == "STILL OPEN"
        assert context.metrics.disconnects.value("web", "rate_limited") == 0
        await ws.close()


async def test_offloaded_work_runs_in_a_thread_and_is_answered_in_order(tmp_path: Path) -> None:
    context = make_context(tmp_path)
    async with TestClient(TestServer(build_web_app(context), host="127.0.0.1")) as test_client:
        ws = await test_client.ws_connect("/ws")
        await ws.send_str("slow abc")
        await ws.send_str("after")
        first = (await asyncio.wait_for(ws.receive(), 5)).data
        assert first.endswith(":ABC") and not first.startswith("MainThread")
        assert (await asyncio.wait_for(ws.receive(), 5)).data == "AFTER"
        await ws.close()


async def test_websocket_slow_consumer_is_cut_off(tmp_path: Path) -> None:
    """A browser that never reads: its queue passes the limit and the server drops it."""
    context = make_context(tmp_path, ConnectionLimits(out_queue_limit_bytes=64 * 1024))
    async with TestClient(TestServer(build_web_app(context), host="127.0.0.1")) as test_client:
        port = test_client.port
        assert port is not None
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        loop = asyncio.get_running_loop()
        await loop.sock_connect(sock, ("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        await loop.sock_sendall(sock, request.encode())
        assert (await loop.sock_recv(sock, 1024)).startswith(b"HTTP/1.1 101")
        mask = os.urandom(4)
        payload = b"flood 4096"  # 4 MiB of messages, never read
        frame = (
            bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        )
        await loop.sock_sendall(sock, frame)
        fast = await test_client.ws_connect("/ws")
        await fast.send_str("flood 2048")
        for _ in range(2048):
            assert len((await fast.receive()).data) == 1024
        await _until(lambda: context.metrics.disconnects.value("web", "slow_consumer") == 1)
        stuck, reader = ShoutingDialogue.instances
        assert stuck.lost == 1 and reader.lost == 0
        sock.close()
        await fast.close()


async def test_full_server_refuses_websockets(tmp_path: Path) -> None:
    context = make_context(tmp_path)
    context.tracker.max_connections = 1
    async with TestClient(TestServer(build_web_app(context), host="127.0.0.1")) as test_client:
        first = await test_client.ws_connect("/ws")
        second = await test_client.ws_connect("/ws")
        closing = await second.receive()
        assert closing.type is WSMsgType.CLOSE and closing.data == WSCloseCode.TRY_AGAIN_LATER
        await first.send_str("ok")
        assert (await first.receive()).data == "OK"
        await first.close()


async def _until(condition: Callable[[], bool], timeout: float = 2.0) -> None:
    for _ in range(int(timeout / 0.005)):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("condition not met in time")


def test_histogram_counts_a_value_on_a_bound_in_that_bucket() -> None:
    metrics = ServerMetrics()
    metrics.action_latency.observe(0.001)
    metrics.action_latency.observe(2.0)
    lines = metrics.render().splitlines()
    assert 'gamehall_action_latency_seconds_bucket{le="0.0005"} 0' in lines
    assert 'gamehall_action_latency_seconds_bucket{le="0.001"} 1' in lines
    assert 'gamehall_action_latency_seconds_bucket{le="1"} 1' in lines
    assert 'gamehall_action_latency_seconds_bucket{le="+Inf"} 2' in lines
    assert "gamehall_action_latency_seconds_sum 2.001" in lines

"""One hall across two nodes, seen from the wire (issue 13: the shared room directory).

Two servers, nodes ``a`` and ``b``, each a full ``gamehall serve`` (every listener, started in
this process by :func:`running_server`), on one Redis prefix and one PostgreSQL schema. Rooms
opened on node ``a`` show in node ``b``'s lobbies over every protocol tested here: the
browser's pushed lobby and ``GET /api/rooms``, the UrServer's ``LISTE``, the AAH ``META`` of
the table a ``JOIN`` would land at and its "Nickname in use." for a nick seated on the other
node; a room closing on ``a`` leaves ``b``'s lobby.

Real Redis and PostgreSQL; failed (not skipped) when ``CI`` is set and either is missing.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
from postgres_support import postgres_schema
from redis_space import RedisSpace

from gamehall.bots.aah import AahWireBot
from gamehall.config import ServerConfig
from gamehall.protocols.aah.codec import Frame, encode_frame
from gamehall.protocols.aah.meta import decode_server_meta
from gamehall.server.app import Server, running_server

TTL = 2.0
HOST = "127.0.0.1"
LISTEN = {"aah": 0, "urserver": 0, "web": 0}


@pytest.fixture
def database() -> Iterator[str]:
    with postgres_schema() as url:
        yield url


@dataclass
class Nodes:
    a: Server
    b: Server


@pytest.fixture
async def nodes(redis_space: RedisSpace, database: str) -> AsyncIterator[Nodes]:
    def config(node_id: str) -> ServerConfig:
        return ServerConfig(
            db=database,
            redis=redis_space.url,
            redis_prefix=redis_space.prefix,
            node_id=node_id,
            lease_ttl=TTL,
            room_defaults={"aah": {"autostart_delay": 60}},
        )

    async with AsyncExitStack() as stack:
        a = await stack.enter_async_context(running_server(config("a"), listen=LISTEN))
        b = await stack.enter_async_context(running_server(config("b"), listen=LISTEN))
        yield Nodes(a, b)


class Browser:
    """One browser connection (the web protocol over its WebSocket)."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []
        self._ids = 0

    async def send(self, message: dict[str, Any]) -> int:
        self._ids += 1
        await self.ws.send_json({**message, "id": self._ids})
        return self._ids

    async def until(self, wanted: Any, timeout: float = 10.0) -> dict[str, Any]:
        """The first message (seen before, or coming) for which ``wanted(message)`` holds."""
        for message in self.seen:
            if wanted(message):
                return message
        async with asyncio.timeout(timeout):
            while True:
                message = await self.ws.receive_json()
                self.seen.append(message)
                if message.get("t") == "error":
                    raise AssertionError(f"refused: {message}")
                if wanted(message):
                    return message


async def browser(stack: AsyncExitStack, server: Server, name: str) -> Browser:
    http = await stack.enter_async_context(aiohttp.ClientSession())
    ws = await stack.enter_async_context(http.ws_connect(f"ws://{HOST}:{server.ports['web']}/ws"))
    client = Browser(ws)
    await client.send({"t": "hello", "v": 1, "name": name})
    await client.until(lambda m: m.get("t") == "welcome")
    return client


async def api_rooms(server: Server) -> list[dict[str, Any]]:
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://{HOST}:{server.ports['web']}/api/rooms") as r,
    ):
        rooms: list[dict[str, Any]] = await r.json()
        return rooms


async def liste(server: Server) -> list[str]:
    """The UrServer's answer to ``LISTE``: ``SPIELE n`` and one ``SPIEL`` line per game."""
    reader, writer = await asyncio.open_connection(HOST, server.ports["urserver"])
    try:
        writer.write(b"LISTE\n")
        await writer.drain()
        async with asyncio.timeout(5):
            first = (await reader.readline()).decode().strip()
            assert first.startswith("SPIELE "), first
            return [first] + [
                (await reader.readline()).decode().strip() for _ in range(int(first.split()[1]))
            ]
    finally:
        writer.close()


async def aah_meta(server: Server) -> Any:
    """The server ``META`` an AAH client gets before it joins: the table it would land at."""
    reader, writer = await asyncio.open_connection(HOST, server.ports["aah"])
    try:
        writer.write(encode_frame(Frame("META")))
        await writer.drain()
        async with asyncio.timeout(5):
            raw = await reader.readuntil(b"\x03")
        assert raw[:4] == b"META", raw
        return decode_server_meta(raw[4:-1].lstrip(b"\x00").decode())
    finally:
        writer.close()


async def eventually(check: Any, timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not await check():
            await asyncio.sleep(0.05)


async def test_a_browser_room_on_one_node_shows_in_every_lobby_of_the_other(nodes: Nodes) -> None:
    async with AsyncExitStack() as stack:
        watcher = await browser(stack, nodes.b, "watcher")
        await watcher.send({"t": "rooms"})
        assert (await watcher.until(lambda m: m.get("t") == "rooms"))["rooms"] == []

        ann = await browser(stack, nodes.a, "ann")
        await ann.send({"t": "create", "game": "ursuppe", "title": "soupA"})
        room_id = (await ann.until(lambda m: m.get("t") == "joined"))["room"]["id"]
        assert room_id.startswith("ursuppe-a-")

        created = await watcher.until(lambda m: m.get("t") == "room_created" and m["room"]["id"] == room_id)
        assert created["room"]["title"] == "soupA"
        assert [s["name"] for s in created["room"]["seats"]] == ["ann"]
        assert [r["id"] for r in await api_rooms(nodes.b)] == [room_id]

        lines = await liste(nodes.b)
        assert lines[0] == "SPIELE 1" and lines[1].startswith("SPIEL soupA 1 0 1 "), lines

        await ann.send({"t": "leave", "room": room_id})  # the last seat before the start: it closes
        closed = await watcher.until(lambda m: m.get("t") == "room_closed" and m["room"] == room_id)
        assert closed["game"] == "ursuppe"
        assert await api_rooms(nodes.b) == []
        assert await liste(nodes.b) == ["SPIELE 0"]


async def test_an_aah_table_on_one_node_is_where_a_join_on_the_other_would_land(nodes: Nodes) -> None:
    alice = AahWireBot(HOST, nodes.a.ports["aah"], "alice", strict=True, play=False)
    await alice.connect()
    try:
        await alice.wait_for(lambda: alice.accepted)

        async def listed() -> bool:
            return [r["game"] for r in await api_rooms(nodes.b)] == ["aah"]

        await eventually(listed)
        assert (await aah_meta(nodes.b)).players == 1  # node a's open table, seen from node b

        impostor = AahWireBot(HOST, nodes.b.ports["aah"], "ALICE", strict=True, play=False)
        await impostor.connect()
        try:
            await impostor.wait_for(lambda: impostor.refused is not None)
            assert impostor.refused == "Nickname in use."
        finally:
            await impostor.close()
    finally:
        await alice.close()

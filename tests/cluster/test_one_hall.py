"""One hall across two real nodes (issue 13, item 2: users): a name is unique hall-wide, over
two protocols, and whispers and shouts cross nodes.

Two ``gamehall serve`` processes, nodes ``a`` and ``b``, share one Redis prefix and one
PostgreSQL schema. AAH clients (the project's wire bot, as the 0.2.0 client behaves) and
browser-protocol clients (JSON over the WebSocket, docs/web-protocol.md) log in on either.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from kill_restart import NodeProcess
from redis_space import RedisSpace

from gamehall.bots.aah import AahWireBot
from gamehall.protocols.aah import texts

TTL = 2.0


class Browser:
    """One browser-protocol connection: what it received, and requests by id."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.received: list[dict[str, Any]] = []
        """What arrived and no :meth:`hall_event` returned yet."""
        self._ids = itertools.count(1)

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send ``message``; the answer that refers to it (``welcome``, ``ok``, ``error``)."""
        ref = next(self._ids)
        await self.socket.send_json({**message, "id": ref})
        async with asyncio.timeout(5):
            while True:
                answer = await self.next()
                if answer.get("ref") == ref:
                    return answer

    async def next(self) -> dict[str, Any]:
        received: dict[str, Any] = await self.socket.receive_json()
        self.received.append(received)
        return received

    async def hall_event(self) -> dict[str, Any]:
        """The next ``hall`` message (whisper, shout, notice) not returned yet, whether it
        came before the answer to a request or comes later."""
        event: dict[str, Any] = (await self.take("hall"))["event"]
        return event

    async def take(self, kind: str, **fields: Any) -> dict[str, Any]:
        """The next message of type ``kind`` (with these fields) not returned yet, whether
        it came before the answer to a request or comes later."""
        async with asyncio.timeout(5):
            while True:
                for i, message in enumerate(self.received):
                    if message["t"] == kind and all(message.get(k) == v for k, v in fields.items()):
                        del self.received[i]
                        return message
                await self.next()


@pytest.fixture
async def nodes(
    tmp_path: Path, redis_space: RedisSpace, database: str
) -> AsyncIterator[dict[str, NodeProcess]]:
    started = {
        node_id: NodeProcess.in_hall(redis_space, tmp_path, node_id, ttl=TTL, db=database) for node_id in "ab"
    }
    await asyncio.gather(*(asyncio.to_thread(node.start) for node in started.values()))
    try:
        yield started
    except BaseException:
        for node_id, node in started.items():
            print(f"node {node_id}:\n{node.stderr()}")
        raise
    finally:
        await asyncio.gather(*(asyncio.to_thread(node.stop) for node in started.values()))


async def aah_login(node: NodeProcess, name: str) -> AahWireBot:
    """An AAH client that joined (``ACKN``) or was refused (``REFU``) on ``node``."""
    bot = AahWireBot("127.0.0.1", node.ports["aah"], name, play=False)
    await bot.connect()
    await bot.wait_for(lambda: bot.accepted or bot.refused is not None)
    return bot


async def browser_login(
    http: aiohttp.ClientSession, node: NodeProcess, name: str
) -> tuple[Browser, dict[str, Any]]:
    socket = await http.ws_connect(f"http://127.0.0.1:{node.ports['web']}/ws")
    browser = Browser(socket)
    return browser, await browser.request({"t": "hello", "v": 2, "name": name, "token": None})


def heard(bot: AahWireBot, text: str) -> bool:
    """Whether the AAH client received a ``BDCS`` (a hall line) saying ``text``."""
    return any(frame.command == "BDCS" and frame.args == (text,) for frame in bot.transcript)


async def known_hall_wide(space: RedisSpace, name: str) -> None:
    """Until Redis holds ``name``, and a moment more for the nodes' copies to hear of it."""
    async with asyncio.timeout(5):
        while await space.client.hget(f"{space.prefix}users", name.lower()) is None:
            await asyncio.sleep(0.02)
    await asyncio.sleep(0.3)


async def test_a_name_is_unique_hall_wide(nodes: dict[str, NodeProcess], redis_space: RedisSpace) -> None:
    a, b = nodes["a"], nodes["b"]
    async with aiohttp.ClientSession() as http:
        alice = await aah_login(a, "alice")
        assert alice.accepted
        await known_hall_wide(redis_space, "alice")
        _, answer = await browser_login(http, b, "Alice")
        assert answer["t"] == "error" and answer["code"] == "name_in_use", answer

        bob, answer = await browser_login(http, b, "bob")
        assert answer["t"] == "welcome", answer
        await known_hall_wide(redis_space, "bob")
        other_bob = await aah_login(a, "BOB")
        assert not other_bob.accepted and other_bob.refused == texts.NICK_IN_USE

        await alice.quit()
        await other_bob.close()
        async with asyncio.timeout(5):
            while await redis_space.client.hget(f"{redis_space.prefix}users", "alice") is not None:
                await asyncio.sleep(0.02)
        await asyncio.sleep(0.3)
        _, answer = await browser_login(http, b, "alice")
        assert answer["t"] == "welcome", answer  # free again once its AAH user left
        await bob.socket.close()


async def test_whispers_and_shouts_cross_nodes_and_protocols(
    nodes: dict[str, NodeProcess], redis_space: RedisSpace
) -> None:
    a, b = nodes["a"], nodes["b"]
    async with aiohttp.ClientSession() as http:
        dora = await aah_login(a, "dora")
        carol, _ = await browser_login(http, a, "Carol")
        bob, answer = await browser_login(http, b, "bob")
        assert answer["t"] == "welcome"
        for name in ("dora", "carol"):
            await known_hall_wide(redis_space, name)

        assert (await bob.request({"t": "whisper", "to": "carol", "text": "hi from b"}))["t"] == "ok"
        said = {"type": "ChatSaid", "scope": "private", "sender": "bob", "to": "Carol", "text": "hi from b"}
        assert (await carol.hall_event()).items() >= said.items()
        assert (await bob.hall_event()).items() >= said.items()  # the sender's copy

        assert (await bob.request({"t": "whisper", "to": "DORA", "text": "psst"}))["t"] == "ok"
        await dora.wait_for(lambda: heard(dora, "bob whispers: psst"))
        assert (await bob.hall_event())["to"] == "dora"  # its copy names the name as dora spells it

        answer = await bob.request({"t": "whisper", "to": "nobody", "text": "hello?"})
        assert answer["t"] == "error" and answer["code"] == "no_such_user"

        assert (await carol.request({"t": "shout", "text": "hello hall"}))["t"] == "ok"
        shout = await bob.hall_event()
        assert shout["scope"] == "broadcast" and shout["sender"] == "Carol" and shout["text"] == "hello hall"
        await dora.wait_for(lambda: heard(dora, "Carol to everyone: hello hall"))
        await dora.close()


async def listed(http: aiohttp.ClientSession, node: NodeProcess, room_id: str) -> None:
    """Until ``node``'s lobby lists ``room_id`` (the shared directory carried it there)."""
    async with asyncio.timeout(5):
        while True:
            async with http.get(f"http://127.0.0.1:{node.ports['web']}/api/rooms/{room_id}") as response:
                if response.status == 200:
                    return
            await asyncio.sleep(0.05)


async def test_an_invitation_crosses_nodes_and_the_invitee_joins_by_it(
    nodes: dict[str, NodeProcess], redis_space: RedisSpace
) -> None:
    a, b = nodes["a"], nodes["b"]
    async with aiohttp.ClientSession() as http:
        ann, _ = await browser_login(http, a, "ann")
        bob, answer = await browser_login(http, b, "Bob")
        assert answer["t"] == "welcome"
        eve = await aah_login(b, "eve")
        for name in ("bob", "eve"):
            await known_hall_wide(redis_space, name)
        created = await ann.request({"t": "create", "game": "mrjack", "settings": {}})
        assert created["t"] == "joined", created
        room_id = created["room"]["id"]
        await listed(http, b, room_id)

        assert (await ann.request({"t": "invite", "room": room_id, "name": "bob"}))["t"] == "ok"
        invited = await bob.take("invited")
        assert invited["by"] == "ann" and invited["room"]["id"] == room_id
        joined = await bob.request({"t": "join", "room": room_id})  # accepting: a join by id
        assert joined["t"] == "joined" and joined["seat"] == 1, joined
        while (await ann.take("event", room=room_id))["event"] != {
            "type": "SeatJoined",
            "seat": 1,
            "name": "Bob",
        }:
            pass  # until node a, the room's, seated bob

        answer = await ann.request({"t": "invite", "room": room_id, "name": "BOB"})
        assert answer["t"] == "error" and answer["code"] == "already_in_room", answer
        answer = await ann.request({"t": "invite", "room": room_id, "name": "nobody"})
        assert answer["t"] == "error" and answer["code"] == "no_such_user", answer

        # AAH has no invitations: only node b knows, after ann's ok; it tells her as a notice
        assert (await ann.request({"t": "invite", "room": room_id, "name": "eve"}))["t"] == "ok"
        notice = await ann.hall_event()
        assert notice == {"type": "Notice", "text": "eve plays over aah, which has no invitations."}
        await eve.close()

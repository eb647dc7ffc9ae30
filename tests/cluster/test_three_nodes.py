"""Five protocols, three nodes, one hall (issue 13, "Tests and benchmarks").

Three ``gamehall serve`` nodes (``a``, ``b``, ``c``, each on its own ports) share one Redis
prefix and one PostgreSQL schema for the whole module. For each protocol, its wire bots play
one table whose players sit on different nodes: the first player opens the table on one
node, the others find it in their own node's lobby (the shared directory) and sit at it
through their node (cross-node play, gamehall.hall.cross_node). Each game must end normally, with
every bot's protocol checks passing and each player's view of the end the same.
"""

from __future__ import annotations

import asyncio
import os
import random
import secrets
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
from kill_restart import NodeProcess, finished, joined
from postgres_support import postgres_schema
from redis_space import REDIS_URL

import gamehall
from gamehall.bots.aah import AahWireBot
from gamehall.bots.doppelkopf.wire import CgWireBot
from gamehall.bots.mrjack.wire import MrJackWireBot
from gamehall.bots.ursuppe.wire import UrWireBot
from gamehall.bots.words.wire import GameSpec, WordsWireBot, WordsWirePlayer
from gamehall.protocols.jduplicate.messages import Version
from gamehall.store.base import RoomRecord

TTL = 3.0
SETTINGS = (
    "aah.autostart_delay=1", "aah.round_gap=0.2", "aah.timeout=60", "aah.aplimit=3",
    "doppelkopf.deal_interval_s=0", "doppelkopf.trick_close_delay_s=0",
    "mrjack.rejoin_grace=60", "mrjack.turn_timeout_s=60",
    "words.pause_s=0", "words.grace_s=1", "words.end_turn_when_all_moved=true",
)  # fmt: skip
GAME_TIMEOUT_S = 240


@dataclass
class Hall3:
    """The module's three nodes, by id."""

    nodes: dict[str, NodeProcess]

    def port(self, node: str, protocol: str) -> int:
        return self.nodes[node].ports[protocol]

    def stderr(self) -> str:
        return "\n".join(f"node {n}:\n{p.stderr()}" for n, p in self.nodes.items())


def _redis_or_fail() -> redis.Redis:
    client = redis.Redis.from_url(REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
    try:
        client.ping()
    except (redis.RedisError, OSError):
        if os.environ.get("CI"):
            pytest.fail(f"these tests need Redis at {REDIS_URL} (CI is set: a missing service is a failure)")
        pytest.skip(f"these tests need Redis at {REDIS_URL}")
    return client


@pytest.fixture(scope="module")
def hall3(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall3]:
    client = _redis_or_fail()
    prefix = f"test-{secrets.token_hex(6)}:"
    old_path = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(Path(gamehall.__file__).parents[1])
    root = tmp_path_factory.mktemp("three-nodes")
    try:
        with postgres_schema() as db:
            nodes = {
                n: NodeProcess(
                    root / n, node_id=n, redis_url=REDIS_URL, prefix=prefix, ttl=TTL, settings=SETTINGS, db=db
                )
                for n in ("a", "b", "c")
            }
            try:
                for node in nodes.values():
                    node.start()
                yield Hall3(nodes)
            finally:
                for node in nodes.values():
                    node.stop()
    finally:
        if old_path is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old_path
        keys = list(client.scan_iter(match=prefix + "*"))
        if keys:
            client.delete(*keys)
        client.close()


async def the_room(hall: Hall3, game: str, has: str) -> RoomRecord:
    """The newest room of ``game`` in the shared store that ``has`` joined."""
    node = hall.nodes["a"]
    while True:
        for record in reversed(await asyncio.to_thread(node.rooms, game)):
            if has in joined(record):
                return record
        await asyncio.sleep(0.05)


async def play(
    hall: Hall3, game: str, first: str, first_run: Awaitable[Any], others: list[Callable[[], Awaitable[Any]]]
) -> tuple[RoomRecord, list[Any]]:
    """Start ``first``'s bot, wait for its table in the store, then the others; return the
    finished room's record and every bot's result (first's first)."""
    tasks: list[asyncio.Future[Any]] = [asyncio.ensure_future(first_run)]
    try:
        async with asyncio.timeout(GAME_TIMEOUT_S):
            room = await the_room(hall, game, first)
            for run in others:
                # the shared directory carries the table (and each seat taken) to every node;
                # two nodes seating players at one table in the same instant may both promise
                # the same seat, and the owner refuses the second (docs/scale-out.md)
                await asyncio.sleep(0.5)
                tasks.append(asyncio.ensure_future(run()))
            record = await finished(hall.nodes["a"], room.room_id)
            results = await asyncio.gather(*tasks)
        result = record.result
        assert result is not None and result["termination"] == "normal", result
        return record, results
    except BaseException:
        print(hall.stderr())
        raise
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def test_aah_players_on_three_nodes(hall3: Hall3) -> None:
    def bot(node: str, name: str, seed: int) -> AahWireBot:
        return AahWireBot("127.0.0.1", hall3.port(node, "aah"), name, rng=random.Random(seed), strict=True)

    record, results = await play(
        hall3, "aah", "alice", bot("a", "alice", 1).run(), [bot("b", "bob", 2).run, bot("c", "carol", 3).run]
    )
    assert sorted(joined(record)) == ["alice", "bob", "carol"]
    assert all(not stats.violations for stats in results)


async def test_mrjack_players_on_two_of_three_nodes(hall3: Hall3) -> None:
    rng = random.Random(5)
    jacky = MrJackWireBot(
        "127.0.0.1", hall3.port("b", "mrjack"), "jacky", "mrjack", rng=random.Random(rng.getrandbits(64))
    )
    sherlock = MrJackWireBot(
        "127.0.0.1", hall3.port("c", "mrjack"), "sherlock", "detektiv", rng=random.Random(rng.getrandbits(64))
    )

    record, (jr, sr) = await play(hall3, "mrjack", "jacky", jacky.run(), [sherlock.run])

    assert sorted(joined(record)) == ["jacky", "sherlock"]
    assert len(jr.winners) == 1 and jr.winners == sr.winners


async def test_ursuppe_players_on_three_nodes(hall3: Hall3) -> None:
    rng = random.Random(9)
    bots = [
        UrWireBot("127.0.0.1", hall3.port(node, "urserver"), f"u{n}", creates=n == 1, players=3,
                  game_prefix="three", rng=random.Random(rng.getrandbits(64)), timeout_ms=20000)
        for n, node in ((1, "c"), (2, "a"), (3, "b"))
    ]  # fmt: skip

    record, results = await play(hall3, "ursuppe", "u1", bots[0].run(), [bots[1].run, bots[2].run])

    assert sorted(joined(record)) == ["u1", "u2", "u3"]
    assert all(len(result.games) == 1 for result in results)


async def test_duplicate_players_on_two_of_three_nodes(hall3: Hall3) -> None:
    rng = random.Random(3)
    spec = GameSpec("three", "DupEN", 60, 2, 2)
    ann = WordsWirePlayer(
        "ann", Version.V02, create=spec, join=None, strength=1.0, rng=random.Random(rng.getrandbits(64))
    )
    bob = WordsWirePlayer(
        "bob", Version.V10, create=None, join=spec.name, strength=1.0, rng=random.Random(rng.getrandbits(64))
    )
    ann_bot = WordsWireBot("127.0.0.1", hall3.port("a", "jduplicate"), ann, write_interval_s=0.1)
    bob_bot = WordsWireBot("127.0.0.1", hall3.port("c", "jduplicate"), bob, write_interval_s=0.1)

    record, (ar, br) = await play(hall3, "words", "ann", ann_bot.run(), [bob_bot.run])

    assert sorted(joined(record)) == ["ann", "bob"]
    assert ar.end_reason and ar.ranking == br.ranking


async def test_doppelkopf_cg_players_on_three_nodes_at_a_browser_table(hall3: Hall3) -> None:
    """cg reaches a hall table through a browser table (cg has no table list; its own
    pre-game lobbies gather the users of one node). A browser on node ``a`` makes a Doppelkopf
    table, puts one of the hall's bots at it and leaves; three cg clients logging in on nodes
    ``b`` and ``c`` are offered the table, accept and play the game with the bot."""
    import aiohttp

    rng = random.Random(2)
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(f"http://127.0.0.1:{hall3.port('a', 'web')}/ws")
        await ws.send_json({"t": "hello", "v": 2, "name": "dkhost", "token": None, "id": 1})
        await _until(ws, lambda m: m.get("t") == "welcome")
        await ws.send_json({"t": "create", "game": "doppelkopf", "settings": {}, "id": 2})
        room_id = (await _until(ws, lambda m: m.get("t") == "joined"))["room"]["id"]
        await ws.send_json({"t": "bots", "room": room_id, "count": 1, "id": 3})
        await _until(ws, lambda m: m.get("ref") == 3)
        await ws.send_json({"t": "leave", "room": room_id, "id": 4})
        await _until(ws, lambda m: m.get("ref") == 4)
        await ws.close()
    guests = [
        CgWireBot("127.0.0.1", hall3.port(node, "cg"), name, seed=rng.getrandbits(32), wait_for_invite=True)
        for name, node in (("dkg1", "b"), ("dkg2", "c"), ("dkg3", "b"))
    ]
    await asyncio.sleep(0.5)  # the table reaches every node's lobby
    first, *others = guests

    record, stats = await play(hall3, "doppelkopf", "dkg1", first.run(), [g.run for g in others])

    assert {"dkg1", "dkg2", "dkg3"} <= set(joined(record))
    assert [s.games_finished for s in stats] == [1, 1, 1]


async def _until(ws: Any, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    async with asyncio.timeout(20):
        while True:
            message = await ws.receive_json()
            if test(message):
                return message  # type: ignore[no-any-return]

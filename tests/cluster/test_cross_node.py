"""Play across nodes with real processes, Redis and PostgreSQL (issue 13, item 3).

Two ``gamehall serve`` nodes share one Redis prefix and one PostgreSQL schema. An AAH wire
bot opens a table on node ``a``; two more connect to node ``b``, whose lobby shows node
``a``'s table (the shared directory), and sit at it: node ``b`` forwards their inputs to node
``a`` and renders the room's events for them (gamehall.hall.cross_node). The game plays to its
end with every seat's protocol checked strictly by the bots, and the log shows each input
once. Then the same with the owner killed mid-game: node ``b`` adopts the room, its own players
keep their connections and take their seats back there at once, the player whose node died
reconnects to node ``b``, and the game ends normally.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from kill_restart import NodeProcess, PausableProxy, entries_of, finished, first_room, joined, wind_down
from redis_space import RedisSpace

from gamehall.bots.aah import AahWireBot
from gamehall.bots.aah.wire import GAME_ENDED
from gamehall.protocols.aah.codec import Frame

TTL = 2.0
SETTINGS = ("aah.autostart_delay=1", "aah.round_gap=0.2", "aah.timeout=60", "aah.aplimit=3")


def node(tmp_path: Path, space: RedisSpace, node_id: str, db: str) -> NodeProcess:
    return NodeProcess.in_hall(space, tmp_path, node_id, ttl=TTL, db=db, settings=SETTINGS)


def bot(port: int, name: str, seed: int) -> AahWireBot:
    return AahWireBot("127.0.0.1", port, name, rng=random.Random(seed), strict=True)


async def test_players_on_two_nodes_play_one_aah_table_to_the_end(
    tmp_path: Path, redis_space: RedisSpace, database: str
) -> None:
    node_a = node(tmp_path, redis_space, "a", database)
    node_b = node(tmp_path, redis_space, "b", database)
    await asyncio.gather(asyncio.to_thread(node_a.start), asyncio.to_thread(node_b.start))
    tasks: list[asyncio.Future[object]] = []
    try:
        async with asyncio.timeout(180):
            tasks.append(asyncio.ensure_future(bot(node_a.ports["aah"], "alice", 1).run()))
            room_id = await first_room(node_a, "aah", started=lambda r: "alice" in joined(r))
            await asyncio.sleep(0.5)  # the shared directory carries the table to node b
            for name, seed in (("bob", 2), ("carol", 3)):
                tasks.append(asyncio.ensure_future(bot(node_b.ports["aah"], name, seed).run()))
            record = await finished(node_a, room_id)
            results = await asyncio.gather(*tasks)
        assert sorted(joined(record)) == ["alice", "bob", "carol"]
        assert record.result is not None and record.result["termination"] == "normal", record.result
        assert all(not stats.violations for stats in results)  # type: ignore[attr-defined]
        numbers = [n for n, *_ in entries_of(record)]
        assert numbers == list(range(1, len(numbers) + 1))
    except BaseException:
        print(f"node a:\n{node_a.stderr()}\nnode b:\n{node_b.stderr()}")
        raise
    finally:
        await wind_down(tasks, servers=[node_a, node_b])


async def test_a_cross_node_table_whose_owner_is_killed_finishes_on_the_other_node(
    tmp_path: Path, redis_space: RedisSpace, database: str
) -> None:
    node_a = node(tmp_path, redis_space, "a", database)
    node_b = node(tmp_path, redis_space, "b", database)
    await asyncio.gather(asyncio.to_thread(node_a.start), asyncio.to_thread(node_b.start))
    upstream = {"node": node_a}
    proxy = PausableProxy(lambda: upstream["node"].ports["aah"])
    await proxy.start()
    tasks: list[asyncio.Future[object]] = []
    try:
        async with asyncio.timeout(240):
            tasks.append(asyncio.ensure_future(bot(proxy.port, "alice", 1).run()))
            room_id = await first_room(node_a, "aah", started=lambda r: "alice" in joined(r))
            await asyncio.sleep(0.5)
            for name, seed in (("bob", 2), ("carol", 3)):
                tasks.append(asyncio.ensure_future(bot(node_b.ports["aah"], name, seed).run()))
            while len((await asyncio.to_thread(node_a.room, room_id)).entries) < 12:
                await asyncio.sleep(0.02)
            # alice's reconnection waits until the hall knows node a is gone (its names and
            # lease expire after the ttl): before that her name is in use on node a
            proxy.pause()
            await asyncio.to_thread(node_a.kill9)
            upstream["node"] = node_b
            lease_key = f"{redis_space.prefix}lease:{room_id}"
            while not (await redis_space.client.get(lease_key) or b"").startswith(b"b/"):
                await asyncio.sleep(0.05)
            await asyncio.sleep(TTL)  # and node a's names are freed
            proxy.resume()
            record = await finished(node_b, room_id)
            results = await asyncio.gather(*tasks)
        assert sorted(set(joined(record))) == ["alice", "bob", "carol"]
        assert record.result is not None and record.result["termination"] == "normal", record.result
        assert all(not stats.violations for stats in results)  # type: ignore[attr-defined]
    except BaseException:
        print(f"node a:\n{node_a.stderr()}\nnode b:\n{node_b.stderr()}")
        raise
    finally:
        await wind_down(tasks, [proxy], [node_a, node_b])


async def test_players_whose_node_died_come_back_through_it_and_retake_their_seats(
    tmp_path: Path, redis_space: RedisSpace, database: str
) -> None:
    """The room lives on node a; bob and carol sit at it through node b, which is killed
    mid-game and started again (same node id, within the lease ttl). Node a holds their seats
    and names for them; they reconnect through node b, take the names over and their seats
    back (cross-node play), and the game ends normally with the three of them."""
    node_a = node(tmp_path, redis_space, "a", database)
    node_b = node(tmp_path, redis_space, "b", database)
    await asyncio.gather(asyncio.to_thread(node_a.start), asyncio.to_thread(node_b.start))
    proxy = PausableProxy(lambda: node_b.ports["aah"])
    await proxy.start()
    players = [bot(node_a.ports["aah"], "alice", 1), bot(proxy.port, "bob", 2), bot(proxy.port, "carol", 3)]
    tasks: list[asyncio.Future[object]] = []
    try:
        async with asyncio.timeout(180):
            tasks.append(asyncio.ensure_future(players[0].run()))
            room_id = await first_room(node_a, "aah", started=lambda r: "alice" in joined(r))
            await asyncio.sleep(0.5)
            for player in players[1:]:  # one at a time (docs/scale-out.md, the seat race)
                tasks.append(asyncio.ensure_future(player.run()))
                while player.name not in joined(await asyncio.to_thread(node_a.room, room_id)):
                    await asyncio.sleep(0.02)
            while len((await asyncio.to_thread(node_a.room, room_id)).entries) < 12:
                await asyncio.sleep(0.02)
            proxy.pause()
            await asyncio.to_thread(node_b.kill9)
            await asyncio.to_thread(node_b.start)
            proxy.resume()
            record = await finished(node_a, room_id)
            results = await asyncio.gather(*tasks)
        assert joined(record).count("bob") == joined(record).count("carol") == 1  # never seated anew
        assert record.result is not None and record.result["termination"] == "normal", record.result
        assert all(not stats.violations for stats in results)  # type: ignore[attr-defined]
        assert players[1].reconnects >= 1 and players[2].reconnects >= 1
        assert len(await asyncio.to_thread(node_a.rooms, "aah")) == 1  # nobody landed at a new table
    except BaseException:
        print(f"node a:\n{node_a.stderr()}\nnode b:\n{node_b.stderr()}")
        raise
    finally:
        await wind_down(tasks, [proxy], [node_a, node_b])


HOSTILE_CHAT = "\x1b[31mred\x07 \u202eevil\r\nSMSGforged"


async def test_a_hostile_client_on_the_other_node_costs_the_table_nothing(
    tmp_path: Path, redis_space: RedisSpace, database: str
) -> None:
    """mallory sits at node a's table through node b and floods it while playing: ``PING``s
    (each answered, none punished), chat with control characters (relayed with every C0
    control but LF replaced, or throttled), a rename to alice's name (refused: in game), and
    cards she does not hold (refused at once on node b, from its copy of the game, with AAH's
    ``UNRG``). The game still ends normally with all three seats, the owner's log is whole,
    alice and bob see only well-formed frames, and mallory keeps her connection to the end."""
    node_a = node(tmp_path, redis_space, "a", database)
    node_b = node(tmp_path, redis_space, "b", database)
    await asyncio.gather(asyncio.to_thread(node_a.start), asyncio.to_thread(node_b.start))
    alice, bob = bot(node_a.ports["aah"], "alice", 1), bot(node_b.ports["aah"], "bob", 2)
    mallory = AahWireBot("127.0.0.1", node_b.ports["aah"], "mallory", rng=random.Random(3), strict=False)
    sent = {"PING": 0, "PICK": 0}

    async def flood() -> None:
        await mallory.wait_for(lambda: mallory.game_started, timeout=60)
        while not mallory.closed:
            for _ in range(20):
                mallory.send(Frame("PING"))
            sent["PING"] += 20
            mallory.send(Frame("SMSG", (HOSTILE_CHAT,)))
            mallory.send(Frame("NICK", ("alice",)))
            if sent["PICK"] < 10:  # under AAH's 20 protocol errors in a row (7.3)
                mallory.send(Frame("PICK", ("999999",)))
                sent["PICK"] += 1
            await asyncio.sleep(0.02)

    tasks: list[asyncio.Future[object]] = []
    try:
        async with asyncio.timeout(180):
            tasks.append(asyncio.ensure_future(alice.run()))
            room_id = await first_room(node_a, "aah", started=lambda r: "alice" in joined(r))
            await asyncio.sleep(0.5)
            tasks.append(asyncio.ensure_future(bob.run()))
            tasks.append(asyncio.ensure_future(mallory.run()))
            flooding = asyncio.ensure_future(flood())
            record = await finished(node_a, room_id)
            results = await asyncio.gather(*tasks)
            await flooding
        assert sorted(joined(record)) == ["alice", "bob", "mallory"]
        assert record.result is not None and record.result["termination"] == "normal", record.result
        assert not results[0].violations and not results[1].violations  # type: ignore[attr-defined]
        numbers = [n for n, *_ in entries_of(record)]
        assert numbers == list(range(1, len(numbers) + 1))
        assert mallory.disconnected == GAME_ENDED  # never dropped for her flood
        received = [frame.command for frame in mallory.transcript]
        assert received.count("UNRG") >= sent["PICK"] > 0
        assert received.count("PONG") >= sent["PING"] - 20 > 0  # the last burst may cross DISC
        relayed = [f.args for c in (alice, bob) for f in c.transcript if f.command == "RMSG"]
        controls = {ch for args in relayed for text in args for ch in text if ch < " "}
        assert relayed and controls <= {"\n"}  # AAH keeps LF only (spec 7.1)
    except BaseException:
        print(f"node a:\n{node_a.stderr()}\nnode b:\n{node_b.stderr()}")
        raise
    finally:
        await wind_down(tasks, servers=[node_a, node_b])


class WebClient:
    """A browser-protocol client over a real WebSocket (docs/web-protocol.md)."""

    def __init__(self, ws: object) -> None:
        self.ws = ws
        self.ids = iter(range(1, 10_000))
        self.seen: list[dict[str, object]] = []

    async def send(self, message: dict[str, object]) -> int:
        message_id = next(self.ids)
        await self.ws.send_json({**message, "id": message_id})  # type: ignore[attr-defined]
        return message_id

    async def until(self, test: object, timeout: float = 20.0) -> dict[str, object]:
        async with asyncio.timeout(timeout):
            while True:
                message = await self.ws.receive_json()  # type: ignore[attr-defined]
                self.seen.append(message)
                if test(message):  # type: ignore[operator]
                    return message  # type: ignore[no-any-return]


async def test_a_browser_on_another_node_joins_by_room_id_and_plays_mr_jack(
    tmp_path: Path, redis_space: RedisSpace, database: str
) -> None:
    import aiohttp

    node_a = node(tmp_path, redis_space, "a", database)
    node_b = node(tmp_path, redis_space, "b", database)
    await asyncio.gather(asyncio.to_thread(node_a.start), asyncio.to_thread(node_b.start))
    try:
        async with aiohttp.ClientSession() as http:
            ws_a = await http.ws_connect(f"http://127.0.0.1:{node_a.ports['web']}/ws")
            ws_b = await http.ws_connect(f"http://127.0.0.1:{node_b.ports['web']}/ws")
            ann, bob = WebClient(ws_a), WebClient(ws_b)
            for client, name in ((ann, "ann"), (bob, "bob")):
                await client.send({"t": "hello", "v": 2, "name": name, "token": None})
                await client.until(lambda m: m.get("t") == "welcome")
            await ann.send({"t": "create", "game": "mrjack", "settings": {}})
            ann_joined = await ann.until(lambda m: m.get("t") == "joined")
            room_id = ann_joined["room"]["id"]  # type: ignore[index]

            ref = await bob.send({"t": "join", "room": room_id})
            bob_joined = await bob.until(lambda m: m.get("t") in ("joined", "error") and m.get("ref") == ref)
            assert bob_joined["t"] == "joined", bob_joined
            assert bob_joined["seat"] == 1
            seen_by_ann = await ann.until(lambda m: is_event(m, "SeatJoined", name="bob"))
            view = await bob.until(lambda m: m.get("t") == "view")
            assert view["seat"] == 1 and view["seq"] >= seen_by_ann["seq"]  # type: ignore[operator]
            record = await asyncio.to_thread(node_a.room, str(room_id))
            assert joined(record) == ["ann", "bob"]
            await ws_a.close()
            await ws_b.close()
    except BaseException:
        print(f"node a:\n{node_a.stderr()}\nnode b:\n{node_b.stderr()}")
        raise
    finally:
        await asyncio.gather(asyncio.to_thread(node_a.stop), asyncio.to_thread(node_b.stop))


def is_event(message: dict[str, object], kind: str, **fields: object) -> bool:
    event = message.get("event")
    if message.get("t") != "event" or not isinstance(event, dict) or event.get("type") != kind:
        return False
    return all(event.get(k) == v for k, v in fields.items())

"""One hall across nodes: names unique hall-wide, hall chat and whispers carried between nodes
(docs/scale-out.md, "One hall: users, names and chat"), on the real Redis.

Each test builds two halls, nodes ``a`` and ``b``, on the same key prefix, each with its own
:class:`RedisPresence` (and its own pub/sub connection), on the running loop.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import pytest
from recording_listener import InvitableListener, RecordingListener
from redis_space import RedisSpace
from toy_game import TOY

from gamehall.cluster import RedisPresence
from gamehall.hall import Hall
from gamehall.hall.hall import NAME_TAKEN_TEXT, Session, hash_token
from gamehall.protocols._core import ChatSaid, CloseReason, HallError, Notice
from gamehall.server.clock import LoopClock
from gamehall.store.memory import MemoryStore

TTL = 0.6


@dataclass
class TestNode:
    __test__ = False

    hall: Hall
    presence: RedisPresence

    def login(self, name: str, protocol: str = "aah") -> tuple[Session, RecordingListener]:
        listener = RecordingListener()
        return self.hall.login(name, listener, protocol=protocol), listener


async def start_node(space: RedisSpace, node_id: str, ttl: float = TTL) -> TestNode:
    presence = RedisPresence(space.client, node_id, ttl, prefix=space.prefix)
    hall = Hall(games={"toy": TOY}, store=MemoryStore(), clock=LoopClock(), presence=presence)
    await presence.start()
    return TestNode(hall, presence)


@contextlib.asynccontextmanager
async def two_nodes(space: RedisSpace, ttl: float = TTL) -> AsyncIterator[tuple[TestNode, TestNode]]:
    a, b = await start_node(space, "a", ttl), await start_node(space, "b", ttl)
    try:
        yield a, b
    finally:
        await a.presence.stop()
        await b.presence.stop()


async def until(condition: Callable[[], bool], within: float = 5.0) -> None:
    async with asyncio.timeout(within):
        while not condition():
            await asyncio.sleep(0.01)


async def kill(node: TestNode) -> None:
    """The node's process is gone: nothing sent any more, nothing given up."""
    tasks = node.presence._tasks
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    tasks.clear()


def refused(node: TestNode, name: str) -> str:
    with pytest.raises(HallError) as error:
        node.login(name)
    return error.value.code


async def test_a_name_online_on_one_node_is_refused_on_the_other_until_logout(
    redis_space: RedisSpace,
) -> None:
    async with two_nodes(redis_space) as (a, b):
        alice, _ = a.login("Alice")
        await until(lambda: b.presence.holder("alice") is not None)
        assert refused(b, "alice") == "name_in_use"
        assert refused(b, "ALICE") == "name_in_use"
        assert not b.hall.name_free("aLiCe") and b.hall.user_online("alice")
        assert b.presence.holder("alice")[:3] == ("a", True, "Alice")  # type: ignore[index]
        assert a.presence.holder("alice") is None  # its own user: not "another node's"

        alice.logout(dropped=False)
        await until(lambda: b.hall.name_free("alice"))
        session, _ = b.login("alice")
        assert session.name == "alice"
        await until(lambda: a.presence.holder("alice") is not None)
        assert refused(a, "Alice") == "name_in_use"


async def test_a_name_holding_seats_offline_stays_taken(redis_space: RedisSpace) -> None:
    async with two_nodes(redis_space) as (a, b):
        a.hall.restored_owner("carol", "toy-1", None, "aah")  # seats rebuilt after a crash
        await until(lambda: b.presence.holder("carol") is not None)
        with pytest.raises(HallError) as held:
            b.login("carol")
        assert held.value.code == "name_in_use" and held.value.detail == {"held": True}
        assert "being held for a player who lost the connection" in held.value.reason
        assert not b.hall.user_online("carol")  # held, not online: no whisper reaches it
        bob, _ = b.login("bob")
        with pytest.raises(HallError) as error:
            bob.whisper("carol", "hello?")
        assert error.value.code == "no_such_user"


async def test_the_owner_of_seats_held_on_another_node_comes_back_through_this_one(
    redis_space: RedisSpace,
) -> None:
    """docs/recovery.md's rules hall-wide: carol's seats wait on node a (its room's owner)
    after her node died; she comes back through node b over her own protocol, which has no
    authentication (AAH), and takes the name over; node a keeps her seats for her. Once she
    is gone from b again, node a holds the name for her seats as before."""
    async with two_nodes(redis_space) as (a, b):
        a.hall.restored_owner("Carol", "toy-1", None, "aah")
        await until(lambda: b.presence.holder("carol") is not None)
        listener = RecordingListener()
        carol = b.hall.login("carol", listener, protocol="aah", resume_without_token=True)
        assert carol.name == "Carol"  # as the seats know her
        await until(lambda: a.presence.holder("carol") is not None)
        assert a.presence.holder("carol")[:4] == ("b", True, "Carol", "aah")  # type: ignore[index]
        assert a.hall.user("carol") is not None  # node a still holds her seats
        assert refused(a, "carol") == "name_in_use"  # she is online on b now

        carol.logout(dropped=False)
        await until(lambda: (b.presence.holder("carol") or ("",))[:3] == ("a", False, "Carol"))


async def test_coming_back_through_another_node_follows_the_seat_owner_rules(redis_space: RedisSpace) -> None:
    """Over another protocol, or without the token where the protocol has one, the name
    stays in use; the resume token of the held seats lets a browser back in from anywhere."""
    async with two_nodes(redis_space) as (a, b):
        token = "the-browser-token"
        a.hall.restored_owner("dora", "toy-1", hash_token(token), "web")
        await until(lambda: b.presence.holder("dora") is not None)
        for protocol, resume in (("aah", True), ("web", False)):
            with pytest.raises(HallError) as error:
                b.hall.login("dora", RecordingListener(), protocol=protocol, resume_without_token=resume)
            assert error.value.code == "name_in_use"
        with pytest.raises(HallError):
            b.hall.login("dora", RecordingListener(), protocol="web", token="not-hers")
        dora = b.hall.login("dora", RecordingListener(), protocol="web", token=token)
        assert dora.token == token
        await until(lambda: (a.presence.holder("dora") or ("",))[0] == "b")


async def test_two_nodes_racing_for_one_name_keep_the_first_claim(redis_space: RedisSpace) -> None:
    async with two_nodes(redis_space) as (a, b):
        # neither node can know of the other's login yet: both let "dave" in
        _, on_a = a.login("dave")
        _, on_b = b.login("Dave")
        await until(lambda: bool(on_a.disconnects or on_b.disconnects))
        await asyncio.sleep(0.2)  # time for a wrong second loser to show
        losers = [listener for listener in (on_a, on_b) if listener.disconnects]
        assert len(losers) == 1
        assert losers[0].disconnects == [(CloseReason.REPLACED, NAME_TAKEN_TEXT)]
        winner, loser = (a, b) if losers[0] is on_b else (b, a)
        value = await redis_space.client.hget(f"{redis_space.prefix}users", "dave")
        assert value is not None and value.decode().startswith(f"{winner.presence.node_id}\n1\n")
        assert loser.hall.user("dave") is None  # logged out there, its claim given up
        await until(lambda: loser.presence.holder("dave") is not None)
        assert refused(loser, "dave") == "name_in_use"
        assert await redis_space.client.hget(f"{redis_space.prefix}users", "dave") == value


async def test_a_dead_nodes_names_are_free_after_its_ttl(redis_space: RedisSpace) -> None:
    async with two_nodes(redis_space) as (a, b):
        a.login("erin")
        a.hall.restored_owner("frank", "toy-1", None, "aah")
        await until(lambda: b.presence.holder("erin") is not None and b.presence.holder("frank") is not None)
        await kill(a)
        assert refused(b, "erin") == "name_in_use"  # a's liveness key has not expired yet
        await until(lambda: b.hall.name_free("erin") and b.hall.name_free("frank"), within=TTL * 3 + 2)
        session, _ = b.login("erin")
        assert session.name == "erin"


async def test_a_stopping_node_gives_its_names_up_at_once(redis_space: RedisSpace) -> None:
    async with two_nodes(redis_space, ttl=30.0) as (a, b):
        a.login("otto")
        a.hall.restored_owner("pia", "toy-1", None, "aah")
        await until(lambda: b.presence.holder("otto") is not None and b.presence.holder("pia") is not None)
        await a.presence.leave()  # the drain, before it cuts its connections
        await until(lambda: b.hall.name_free("otto") and b.hall.name_free("pia"), within=1.0)
        assert await redis_space.client.exists(a.presence.alive_key("a")) == 0
        a.login("quinn")  # a late login on the stopping node claims nothing any more
        await asyncio.sleep(0.2)
        assert b.hall.name_free("quinn")


async def test_a_node_seen_dead_claims_its_names_again(redis_space: RedisSpace) -> None:
    async with two_nodes(redis_space) as (a, b):
        a.login("gina")
        await until(lambda: b.presence.holder("gina") is not None)
        # a was cut off past its ttl: its liveness key expired and b dropped its names
        await redis_space.client.delete(a.presence.alive_key("a"))
        await b.presence.drop_dead_nodes()
        await until(lambda: b.presence.holder("gina") is None)
        await a.presence.keep_alive()  # a is back: finds its key gone
        await until(lambda: b.presence.holder("gina") is not None)
        assert refused(b, "gina") == "name_in_use"


async def test_a_seat_holders_name_lost_in_a_race_is_claimed_again_when_freed(
    redis_space: RedisSpace,
) -> None:
    async with two_nodes(redis_space) as (a, b):
        hank, _ = a.login("hank")
        await until(lambda: b.presence.holder("hank") is not None)
        b.hall.restored_owner("hank", "toy-1", None, "aah")  # b adopted a room with hank's seat
        await asyncio.sleep(0.2)
        assert b.hall.user("hank") is not None  # its seat stays held; a keeps the name
        hank.logout(dropped=False)
        await until(lambda: a.presence.holder("hank") is not None)  # now b's
        assert refused(a, "hank") == "name_in_use"


async def test_shouts_reach_every_node_in_order(redis_space: RedisSpace) -> None:
    async with two_nodes(redis_space) as (a, b):
        ivy, ivy_hears = a.login("ivy")
        _, jon_hears = b.login("jon")
        _, kim_hears = b.login("kim")
        for text in ("one", "two", "three", "four"):
            ivy.shout(text)
        await until(lambda: len(jon_hears.hall_events) == 4 and len(kim_hears.hall_events) == 4)
        lines = ("one", "two", "three", "four")
        expected = [ChatSaid(sender="ivy", text=t, scope="broadcast") for t in lines]
        assert jon_hears.hall_events == expected and kim_hears.hall_events == expected
        await until(lambda: len(ivy_hears.hall_events) == 4)
        assert ivy_hears.hall_events == expected  # once each: its own node does not hear it again
        assert [line["text"] for line in b.hall.recent_chat(None)] == list(lines)

        a.hall.shout(None, "the server speaks")
        await until(lambda: len(jon_hears.hall_events) == 5)
        assert jon_hears.hall_events[-1].text == "the server speaks"


async def test_a_whisper_crosses_nodes_and_an_offline_name_is_refused(redis_space: RedisSpace) -> None:
    async with two_nodes(redis_space) as (a, b):
        lea, lea_hears = a.login("lea")
        _, max_hears = b.login("Max")
        _, ned_hears = b.login("ned")
        await until(lambda: a.presence.holder("max") is not None)
        lea.whisper("max", "psst")
        said = ChatSaid(sender="lea", text="psst", scope="private", to="Max")
        await until(lambda: bool(max_hears.hall_events))
        assert max_hears.hall_events == [said]
        assert lea_hears.hall_events == [said]  # the sender's own copy, on its node
        assert ned_hears.hall_events == []
        with pytest.raises(HallError) as error:
            lea.whisper("nobody", "hello?")
        assert error.value.code == "no_such_user"


async def test_an_invitation_crosses_nodes_and_a_refusal_comes_back_as_a_notice(
    redis_space: RedisSpace,
) -> None:
    async with two_nodes(redis_space) as (a, b):
        ora, ora_hears = a.login("ora", protocol="web")
        room_id = ora.create_room("toy").room_id
        ora.join(room_id)
        pia_hears, quin_hears = InvitableListener(), InvitableListener(free=False)
        b.hall.login("Pia", pia_hears, protocol="web")
        b.hall.login("quin", quin_hears, protocol="cg")
        await until(lambda: a.presence.holder("pia") is not None and a.presence.holder("quin") is not None)

        a.hall.invite(room_id, "ora", "pia")
        await until(lambda: bool(pia_hears.invitations))
        assert pia_hears.invitations == [(room_id, "ora")]

        a.hall.invite(room_id, "ora", "quin")  # busy there: known on b only, told back to ora
        await until(lambda: bool(ora_hears.hall_events))
        assert ora_hears.hall_events == [
            Notice(text="quin cannot take an invitation now (in another lobby or game).")
        ]
        assert quin_hears.invitations == []

        with pytest.raises(HallError) as error:
            a.hall.invite(room_id, "ora", "nobody")
        assert error.value.code == "no_such_user"


async def test_a_message_for_one_user_not_understood_is_dropped(redis_space: RedisSpace) -> None:
    async with two_nodes(redis_space) as (a, _):
        _, xia_hears = a.login("xia", protocol="web")
        channel = a.presence.whisper_channel("a")
        for data in (
            '{"node": "b", "kind": "teleport", "to": "xia"}',  # a newer node's kind
            '{"node": "b", "kind": "invite", "to": "xia"}',  # no room, no inviter
        ):
            a.presence.receive(channel, data)
        a.hall.flush()
        assert xia_hears.hall_events == [] and xia_hears.disconnects == []


async def test_a_rename_moves_the_claim_and_refuses_a_name_of_another_node(redis_space: RedisSpace) -> None:
    async with two_nodes(redis_space) as (a, b):
        rita, _ = a.login("rita")
        b.login("tom")
        room_id = rita.create_room("toy").room_id
        rita.join(room_id)
        await until(lambda: a.presence.holder("tom") is not None)
        with pytest.raises(HallError) as error:
            rita.rename(room_id, "Tom")
        assert error.value.code == "name_in_use"

        rita.rename(room_id, "Sam")
        await until(lambda: b.presence.holder("sam") is not None)
        assert b.presence.holder("sam")[:3] == ("a", True, "Sam")  # type: ignore[index]
        await until(lambda: b.hall.name_free("rita"))


async def test_a_lost_subscription_loads_the_names_again(redis_space: RedisSpace) -> None:
    async with two_nodes(redis_space) as (a, b):
        b.login("una")
        await until(lambda: a.presence.holder("una") is not None)
        pubsub = a.presence._pubsub
        assert pubsub is not None and pubsub.connection is not None
        await pubsub.connection.disconnect()  # the library reconnects and subscribes again
        # what a missed meanwhile: a change it hears of only by loading the hash again
        await redis_space.client.hset(f"{redis_space.prefix}users", "vic", "b\n1\nweb\n\nVic")
        await until(lambda: a.presence.holder("vic") == ("b", True, "Vic", "web", ""))
        b.login("walt")  # and the subscription works again
        await until(lambda: a.presence.holder("walt") is not None)

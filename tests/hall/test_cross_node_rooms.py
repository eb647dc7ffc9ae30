"""Cross-node play at the hall level (gamehall.hall.cross_node): two halls share one store, a
room lives on node ``a``, players connected to node ``b`` sit at it through a replica.

The nodes talk through :class:`Loopback`, which stands in for the Redis streams of
``gamehall.cluster.relay``: each message waits in its destination's FIFO until the test pumps
(:func:`pump`), as it would wait for the next read of the node's inbox. The toy game "Race to
N" (tests/support/toy_game.py) stands in for a real game; the relay and codec with real games
and real processes are tested in tests/cluster/.
"""

from __future__ import annotations

import copy
from collections import deque
from typing import Any

import pytest
from recording_listener import RecordingListener
from toy_game import TOY, Add, Added, Won

from gamehall.hall import FakeClock, Hall
from gamehall.hall.cross_node import ReplicaRoom
from gamehall.hall.recovery import restore_record
from gamehall.protocols._core import CloseReason, HallError
from gamehall.rules._core import NotYourTurn, SeatJoined
from gamehall.store.memory import MemoryStore


class Loopback:
    """Two nodes' ports: per-destination FIFOs of messages, and a lease table."""

    def __init__(self) -> None:
        self.halls: dict[str, Hall] = {}
        self.leases: dict[str, str] = {}
        self.queues: dict[str, deque[list[Any]]] = {}

    def port(self, node_id: str) -> Any:
        loop = self

        class Port:
            def __init__(self) -> None:
                self.node_id = node_id

            def owner_of(self, room_id: str) -> str | None:
                return loop.leases.get(room_id)

            def send(self, node: str, message: list[Any]) -> None:
                loop.queues.setdefault(node, deque()).append(copy.deepcopy(message))

        return Port()


def two_nodes() -> tuple[Hall, Hall, Loopback, MemoryStore, FakeClock]:
    clock = FakeClock()
    store = MemoryStore()
    loop = Loopback()
    seeds = iter(range(1, 10_000))
    halls = []
    for node in ("a", "b"):
        hall = Hall(
            games={"toy": TOY},
            store=store,
            clock=clock,
            defaults={"toy": {}},
            seed_source=lambda: next(seeds),
            remote=loop.port(node),
        )
        loop.halls[node] = hall
        halls.append(hall)
    return halls[0], halls[1], loop, store, clock


def pump(loop: Loopback) -> None:
    """Flush both halls and deliver every message until nothing moves."""
    for _ in range(100):
        for hall in loop.halls.values():
            hall.flush()
        moved = False
        for node, queue in loop.queues.items():
            if node not in loop.halls:  # a dead node: its inbox is never read
                queue.clear()
                continue
            remote = loop.halls[node].cross_node
            assert remote is not None
            while queue:
                remote.receive(queue.popleft())
                moved = True
        if not moved:
            for hall in loop.halls.values():
                hall.flush()
            return
    raise AssertionError("the nodes never went quiet")


def room_on_a(a: Hall, loop: Loopback, **settings: object) -> tuple[str, Any, RecordingListener]:
    alice_hears = RecordingListener()
    alice = a.login("alice", alice_hears, protocol="test")
    info = alice.create_room("toy", {"seats": 2, **settings})
    loop.leases[info.room_id] = "a"
    alice.join(info.room_id)
    pump(loop)
    return info.room_id, alice, alice_hears


def test_a_player_on_another_node_joins_plays_and_both_hear_the_same_events_in_order() -> None:
    a, b, loop, store, _clock = two_nodes()
    room_id, alice, alice_hears = room_on_a(a, loop, target=6)
    bob_hears = RecordingListener()
    bob = b.login("bob", bob_hears, protocol="test")

    seat = bob.join(room_id)
    pump(loop)

    assert seat == 1
    replica = b.room(room_id)
    assert isinstance(replica, ReplicaRoom)
    assert replica.state.started and a.room(room_id).state.started
    assert [e.name for e in bob_hears.events(SeatJoined)] == ["bob"]
    owned = a.room(room_id)
    alice.act(room_id, Add(3))
    pump(loop)
    bob.act(room_id, Add(3))
    pump(loop)
    # the owner applied bob's move; both nodes' rooms agree, and each player heard each event
    assert owned.closed and replica.closed
    record = store.load_room(room_id)
    assert record is not None and record.finished
    assert [(e.kind, e.seat) for e in record.entries] == [
        ("join", None),
        ("join", None),
        ("act", 0),
        ("act", 1),
    ]
    assert [e.amount for e in bob_hears.events(Added)] == [3, 3]
    assert [e.amount for e in alice_hears.events(Added)] == [3, 3]
    assert len(bob_hears.events(Won)) == 1
    assert bob_hears.seqs() == sorted(bob_hears.seqs())
    assert bob_hears.seqs()[-1] == owned.last_seq
    assert bob_hears.ended_calls and bob_hears.ended_calls[-1][1] is CloseReason.GAME_OVER


def test_an_illegal_move_on_the_replica_raises_at_once_and_nothing_is_forwarded() -> None:
    a, b, loop, store, _clock = two_nodes()
    room_id, _alice, _ = room_on_a(a, loop)
    bob = b.login("bob", RecordingListener(), protocol="test")
    bob.join(room_id)
    pump(loop)
    entries = len(store.load_room(room_id).entries)  # type: ignore[union-attr]

    with pytest.raises(NotYourTurn):
        bob.act(room_id, Add(1))  # alice moves first

    assert not loop.queues.get("a")
    pump(loop)
    assert len(store.load_room(room_id).entries) == entries  # type: ignore[union-attr]


def test_a_connection_on_the_follower_writes_nothing_before_the_owner_committed_its_input() -> None:
    a, b, loop, _store, _clock = two_nodes()
    room_id, alice, _ = room_on_a(a, loop)
    bob = b.login("bob", RecordingListener(), protocol="test")
    bob.join(room_id)
    pump(loop)
    alice.act(room_id, Add(1))
    pump(loop)
    resumed: list[str] = []

    bob.act(room_id, Add(2))
    may_write = b.write_barrier(lambda: resumed.append("bob"))

    assert not may_write and not resumed  # the input is on its way to node a
    pump(loop)
    assert resumed == ["bob"]  # node a applied and committed it, then said so
    assert b.write_barrier(lambda: None)


def test_inputs_are_never_applied_twice() -> None:
    a, b, loop, store, _clock = two_nodes()
    room_id, alice, _ = room_on_a(a, loop, target=50)
    bob = b.login("bob", RecordingListener(), protocol="test")
    bob.join(room_id)
    pump(loop)
    alice.act(room_id, Add(1))
    pump(loop)
    bob.act(room_id, Add(2))
    message = copy.deepcopy(loop.queues["a"][-1])
    pump(loop)
    total = a.room(room_id).state.total
    entries = len(store.load_room(room_id).entries)  # type: ignore[union-attr]

    assert a.cross_node is not None
    a.cross_node.receive(message)  # the same input again (a repeated delivery)
    pump(loop)

    assert a.room(room_id).state.total == total
    assert len(store.load_room(room_id).entries) == entries  # type: ignore[union-attr]


def test_a_follower_that_missed_steps_catches_up_from_the_store() -> None:
    a, b, loop, _store, _clock = two_nodes()
    room_id, alice, _ = room_on_a(a, loop, target=50, seats=3)
    bob = b.login("bob", RecordingListener(), protocol="test")
    bob.join(room_id)
    pump(loop)
    carol = a.login("carol", RecordingListener(), protocol="test")
    carol.join(room_id)
    alice.act(room_id, Add(2))
    a.flush()
    lost = [m for m in loop.queues["b"] if m[0] == "step" and m[2][0] == "entry"]
    loop.queues["b"] = deque(m for m in loop.queues["b"] if m not in lost[:1])  # one step lost

    pump(loop)
    bob.act(room_id, Add(1))
    pump(loop)

    replica = b.room(room_id)
    assert replica.state.total == a.room(room_id).state.total == 3
    assert replica._log_n == a.room(room_id)._log_n


def test_the_owner_losing_the_room_sends_its_players_elsewhere() -> None:
    a, b, loop, _store, _clock = two_nodes()
    room_id, _alice, _ = room_on_a(a, loop)
    bob_hears = RecordingListener()
    bob = b.login("bob", bob_hears, protocol="test")
    bob.join(room_id)
    pump(loop)

    assert b.cross_node is not None
    b.cross_node.owner_lost([room_id])
    pump(loop)

    assert bob_hears.ended_calls[-1][1] is CloseReason.SHUTDOWN
    assert "reconnect" in bob_hears.ended_calls[-1][2]
    assert b.cross_node.replica(room_id, build=False) is None


def test_the_owner_drops_the_players_of_a_node_that_is_gone_and_holds_their_seats() -> None:
    a, b, loop, _store, _clock = two_nodes()
    room_id, _alice, _ = room_on_a(a, loop)
    bob = b.login("bob", RecordingListener(), protocol="test")
    bob.join(room_id)
    pump(loop)
    assert a.cross_node is not None and a.cross_node.origins() == {"b"}

    a.cross_node.origin_lost("b")
    pump(loop)

    member = a.room(room_id).member("bob")
    assert member is not None and member.listener is None  # held for bob (away), not released
    assert a.room(room_id).info().away == frozenset({1})


def test_joining_a_room_nobody_owns_is_refused() -> None:
    a, b, loop, _store, _clock = two_nodes()
    room_id, _alice, _ = room_on_a(a, loop)
    del loop.leases[room_id]
    bob = b.login("bob", RecordingListener(), protocol="test")

    with pytest.raises(HallError) as refused:
        bob.join(room_id)

    assert refused.value.code == "no_such_room"


def test_the_replica_shows_the_owners_timers() -> None:
    a, b, loop, _store, clock = two_nodes()
    room_id, _alice, _ = room_on_a(a, loop, turn_s=5.0)
    bob = b.login("bob", RecordingListener(), protocol="test")
    bob.join(room_id)
    pump(loop)
    clock.advance(1.0)

    (key, left), *_ = b.room(room_id).timers()
    owner_key, owner_left = a.room(room_id).timers()[0]

    assert key == owner_key and left == pytest.approx(owner_left)


def test_an_owner_that_never_answers_stops_holding_this_nodes_connections_after_a_while() -> None:
    a, b, loop, _store, clock = two_nodes()
    room_id, alice, _ = room_on_a(a, loop)
    bob = b.login("bob", RecordingListener(), protocol="test")
    bob.join(room_id)
    pump(loop)
    alice.act(room_id, Add(1))
    pump(loop)
    resumed: list[str] = []

    bob.act(room_id, Add(1))
    loop.queues["a"].clear()  # node a died with bob's input unread
    assert not b.write_barrier(lambda: resumed.append("others"))
    clock.advance(1.0)
    assert not resumed
    clock.advance(1.5)

    assert resumed == ["others"]


def test_a_follower_stops_following_when_its_last_player_leaves() -> None:
    a, b, loop, _store, _clock = two_nodes()
    room_id, _alice, _ = room_on_a(a, loop, seats=3)
    bob = b.login("bob", RecordingListener(), protocol="test")
    bob.join(room_id)
    pump(loop)

    bob.leave(room_id)
    pump(loop)

    assert b.cross_node is not None and b.cross_node.replica(room_id, build=False) is None
    assert a.cross_node is not None and a.cross_node.origins() == set()
    assert a.room(room_id).member("bob") is None


def test_two_players_joining_through_one_node_get_the_seats_the_owner_gives_them() -> None:
    a, b, loop, _store, _clock = two_nodes()
    room_id, _alice, alice_hears = room_on_a(a, loop, seats=3)
    bob_hears, carol_hears = RecordingListener(), RecordingListener()
    bob = b.login("bob", bob_hears, protocol="test")
    carol = b.login("carol", carol_hears, protocol="test")

    seats = (bob.join(room_id), carol.join(room_id))
    assert b.room(room_id).info().seats == {0: "alice", 1: "bob", 2: "carol"}  # as the owner will have it
    pump(loop)

    assert seats == (1, 2)
    assert a.room(room_id).state.seat_names() == {0: "alice", 1: "bob", 2: "carol"}
    for hears in (alice_hears, bob_hears, carol_hears):
        assert [e.name for e in hears.events(SeatJoined)][-2:] == ["bob", "carol"]


def test_a_seat_another_node_took_first_is_refused_and_the_player_told() -> None:
    a, b, loop, _store, _clock = two_nodes()
    room_id, _alice, _ = room_on_a(a, loop, seats=3)
    bob_hears = RecordingListener()
    bob = b.login("bob", bob_hears, protocol="test")
    b.room(room_id)  # node b follows the room
    pump(loop)

    assert bob.join(room_id) == 1  # what node b sees: seat 1 is free...
    dave = a.login("dave", RecordingListener(), protocol="test")
    dave.join(room_id)  # ...but on node a dave takes it before bob's join arrives
    pump(loop)

    assert a.room(room_id).state.seat_names() == {0: "alice", 1: "dave"}
    assert bob_hears.ended_calls[-1][1] is CloseReason.ABORTED
    assert b.room(room_id).member("bob") is None
    assert b.room(room_id).info().seats == {0: "alice", 1: "dave"}


def test_when_another_node_adopts_the_room_the_followers_players_keep_playing_there() -> None:
    a, b, loop, store, clock = two_nodes()
    room_id, alice, _ = room_on_a(a, loop, target=50)
    bob_hears = RecordingListener()
    bob = b.login("bob", bob_hears, protocol="test")
    bob.join(room_id)
    pump(loop)
    alice.act(room_id, Add(2))
    pump(loop)
    # node a dies; node c adopts the room from the store (the same replay as a restart)
    del loop.halls["a"]
    c = Hall(games={"toy": TOY}, store=store, clock=clock, defaults={"toy": {}}, remote=loop.port("c"))
    loop.halls["c"] = c
    loop.leases[room_id] = "c"
    record = store.load_room(room_id)
    assert record is not None and restore_record(c, record) is not None

    assert b.cross_node is not None
    b.cross_node.owner_moved(room_id, "c")
    pump(loop)

    adopted = c.room(room_id)
    assert adopted.member("bob") is not None and adopted.member("bob").listener is not None  # type: ignore[union-attr]
    assert adopted.info().away == frozenset({0})  # alice, whose node died, is held
    bob.act(room_id, Add(3))
    pump(loop)
    assert adopted.state.total == 5 and b.room(room_id).state.total == 5
    assert bob_hears.events(Added)[-1].total == 5


def test_when_this_node_adopts_the_room_its_players_move_to_it_without_noticing() -> None:
    a, b, loop, store, _clock = two_nodes()
    room_id, alice, _ = room_on_a(a, loop, target=50)
    bob_hears = RecordingListener()
    bob = b.login("bob", bob_hears, protocol="test")
    bob.join(room_id)
    pump(loop)
    alice.act(room_id, Add(2))
    pump(loop)
    del loop.halls["a"]
    loop.leases[room_id] = "b"
    record = store.load_room(room_id)
    assert record is not None

    adopted = restore_record(b, record)
    pump(loop)

    assert adopted is not None and b.room(room_id) is adopted
    assert b.cross_node is not None and b.cross_node.replica(room_id, build=False) is None
    member = adopted.member("bob")
    assert member is not None and member.listener is bob_hears
    bob.act(room_id, Add(3))
    b.flush()
    assert adopted.state.total == 5 and bob_hears.events(Added)[-1].total == 5
    assert not bob_hears.ended_calls


def test_a_player_on_another_node_who_drops_from_a_waiting_table_is_let_go_as_on_one_node() -> None:
    """A dropped connection at a table that has not started releases the seat (nothing is held
    for it), so the player's node forgets the room and, with nothing held, the user: the name
    is free again and a new login does not find itself back in the room as a spectator. Node
    b once kept the room in the user's rooms, holding the name hall-wide for a seat nobody
    held, and a reload came back watching the table."""
    a, b, loop, _store, _clock = two_nodes()
    room_id, _alice, _alice_hears = room_on_a(a, loop, seats=3)
    bob = b.login("bob", RecordingListener(), protocol="test")
    bob.join(room_id)
    pump(loop)

    bob.logout(dropped=True)
    pump(loop)

    assert a.room(room_id).member("bob") is None  # the owner released the seat (not started)
    assert b.user("bob") is None
    again = b.login("bob", RecordingListener(), protocol="test")
    assert again.my_rooms() == []


def test_room_chat_is_remembered_on_both_nodes_whoever_said_it() -> None:
    """A player who joins (or reloads) on either node sees the room's recent chat: the owner
    hands its lines to a new follower, and each node remembers every line as it hears it,
    once, wherever it was typed."""
    a, b, loop, _store, _clock = two_nodes()
    room_id, alice, _alice_hears = room_on_a(a, loop, target=60)
    alice.chat(room_id, "hello from a")
    pump(loop)
    bob = b.login("bob", RecordingListener(), protocol="test")
    bob.join(room_id)
    pump(loop)
    assert [line["text"] for line in b.recent_chat(room_id)] == ["hello from a"]
    bob.chat(room_id, "hello from b")
    pump(loop)
    alice.chat(room_id, "bye")
    pump(loop)
    said = ["hello from a", "hello from b", "bye"]
    assert [line["text"] for line in a.recent_chat(room_id)] == said
    assert [line["text"] for line in b.recent_chat(room_id)] == said
    assert [line["sender"] for line in b.recent_chat(room_id)] == ["alice", "bob", "alice"]

"""Invitations across nodes at the hall level (gamehall.hall.invites, docs/scale-out.md
"Invitations across nodes"): two halls, nodes ``a`` and ``b``, share one in-process presence.

:class:`Presences` stands in for ``gamehall.cluster.presence.RedisPresence`` (tested on the
real Redis in tests/cluster/test_presence.py): one table of names for both nodes, and per node
a FIFO of what the other node sent it, delivered when the test pumps (:func:`pump`), as a
node's subscription would deliver it after the sender's turn.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

import pytest
from recording_listener import InvitableListener, RecordingListener
from toy_game import TOY

from gamehall.hall import FakeClock, Hall
from gamehall.hall.hall import Session
from gamehall.hall.presence import Holder, Invitation, PresenceEvents
from gamehall.protocols._core import ChatSaid, HallError, Notice
from gamehall.store.memory import MemoryStore

Arrival = Callable[[PresenceEvents], None]


class Presences:
    """The presences of the nodes of one process: the names of every node, and each node's
    inbox."""

    def __init__(self) -> None:
        self.names: dict[str, Holder] = {}
        self.events: dict[str, PresenceEvents] = {}
        self.inboxes: dict[str, deque[Arrival]] = {}

    def presence(self, node: str) -> FakePresence:
        self.inboxes[node] = deque()
        return FakePresence(self, node)

    def deliver(self) -> bool:
        """Hand every queued arrival to its node's hall; whether anything arrived."""
        moved = False
        for node, inbox in self.inboxes.items():
            while inbox:
                inbox.popleft()(self.events[node])
                moved = True
        return moved


class FakePresence:
    """One node's :class:`~gamehall.hall.presence.Presence` on :class:`Presences`."""

    def __init__(self, hub: Presences, node: str) -> None:
        self.hub = hub
        self.node = node

    def attach(self, events: PresenceEvents) -> None:
        self.hub.events[self.node] = events

    def holder(self, name: str) -> Holder | None:
        holder = self.hub.names.get(name.lower())
        return holder if holder is not None and holder.node != self.node else None

    def claim(
        self, name: str, *, online: bool, protocol: str = "", token_hash: str = "", take_over: bool = False
    ) -> None:
        self.hub.names[name.lower()] = Holder(self.node, online, name, protocol, token_hash)

    def release(self, name: str) -> None:
        holder = self.hub.names.get(name.lower())
        if holder is not None and holder.node == self.node:
            del self.hub.names[name.lower()]

    def shout(self, event: ChatSaid | Notice) -> None:
        for node in self.hub.inboxes:
            if node != self.node:
                self.hub.inboxes[node].append(lambda events: events.hall_event(event))

    def whisper(self, node: str, event: ChatSaid) -> None:
        self.hub.inboxes[node].append(lambda events: events.hall_event(event))

    def invite(self, node: str, room_id: str, inviter: str, name: str) -> None:
        invitation = Invitation(self.node, room_id, inviter, name)
        self.hub.inboxes[node].append(lambda events: events.invitation(invitation))

    def notify(self, node: str, name: str, notice: Notice) -> None:
        self.hub.inboxes[node].append(lambda events: events.user_notice(name, notice))


def two_nodes() -> tuple[Hall, Hall, Presences]:
    hub = Presences()
    halls = [
        Hall(games={"toy": TOY}, store=MemoryStore(), clock=FakeClock(), presence=hub.presence(node))
        for node in ("a", "b")
    ]
    return halls[0], halls[1], hub


def pump(hub: Presences, *halls: Hall) -> None:
    """Flush both halls and deliver what the nodes sent each other until nothing moves."""
    for _ in range(100):
        for hall in halls:
            hall.flush()
        if not hub.deliver():
            return
    raise AssertionError("the nodes never went quiet")


def table_on_a(a: Hall) -> tuple[Session, RecordingListener, str]:
    """Alice, on node a, sits at a toy table of two seats there."""
    alice_hears = RecordingListener()
    alice = a.login("alice", alice_hears, protocol="web")
    room_id = alice.create_room("toy", {"seats": 2}).room_id
    alice.join(room_id)
    return alice, alice_hears, room_id


def test_an_invitation_reaches_an_invitable_user_of_the_other_node() -> None:
    a, b, hub = two_nodes()
    _, alice_hears, room_id = table_on_a(a)
    bob_hears = InvitableListener()
    b.login("Bob", bob_hears, protocol="web")

    a.invite(room_id, "alice", "bob")  # any case, as on one node
    pump(hub, a, b)

    assert bob_hears.invitations == [(room_id, "alice")]
    assert alice_hears.hall_events == []  # shown: the inviter hears nothing more than ok


@pytest.mark.parametrize(
    ("bob_hears", "reason"),
    [
        (InvitableListener(free=False), "Bob cannot take an invitation now (in another lobby or game)."),
        (RecordingListener(), "Bob plays over aah, which has no invitations."),
    ],
    ids=["busy", "not_invitable"],
)
def test_an_invitation_the_other_node_cannot_show_is_told_to_the_inviter(
    bob_hears: RecordingListener, reason: str
) -> None:
    a, b, hub = two_nodes()
    _, alice_hears, room_id = table_on_a(a)
    b.login("Bob", bob_hears, protocol="aah")

    a.invite(room_id, "alice", "bob")  # answered at once: only node b knows it cannot be shown
    pump(hub, a, b)

    assert alice_hears.hall_events == [Notice(text=reason)]


def test_an_invitee_who_left_before_it_arrived_is_told_to_the_inviter() -> None:
    a, b, hub = two_nodes()
    _, alice_hears, room_id = table_on_a(a)
    bob = b.login("bob", InvitableListener(), protocol="web")

    a.invite(room_id, "alice", "bob")
    bob.logout(dropped=False)
    pump(hub, a, b)

    assert alice_hears.hall_events == [Notice(text="bob is not online.")]


def test_a_name_online_nowhere_is_refused_as_on_one_node() -> None:
    a, b, hub = two_nodes()
    _, _, room_id = table_on_a(a)
    hub.names["carl"] = Holder("b", False, "carl")  # only holding seats on node b

    for name in ("nobody", "carl"):
        with pytest.raises(HallError) as error:
            a.invite(room_id, "alice", name)
        assert error.value.code == "no_such_user"
    pump(hub, a, b)
    assert not hub.deliver()


def test_only_a_member_of_the_room_invites_a_user_of_the_other_node() -> None:
    a, b, hub = two_nodes()
    _, _, room_id = table_on_a(a)
    a.login("dora", RecordingListener(), protocol="web")
    bob_hears = InvitableListener()
    b.login("bob", bob_hears, protocol="web")

    with pytest.raises(HallError) as error:
        a.invite(room_id, "dora", "bob")
    assert error.value.code == "not_in_room"
    pump(hub, a, b)
    assert bob_hears.invitations == []

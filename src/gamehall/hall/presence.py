"""Presence: the users of the other nodes of a hall, as the hall asks about them.

On one node (the default) every user is in :attr:`Hall._users <gamehall.hall.hall.Hall>` and
nothing here is used. When several nodes share one hall (docs/scale-out.md, "One hall: users,
names and chat"), a name must be unique hall-wide and hall chat must reach every node. The
hall's :class:`Presence` keeps a local, always-current copy of every name online or holding
seats on any node, so that the hall's synchronous calls (a protocol's login, ``name_free``,
a whisper) answer without a round trip; it claims this node's names in the shared store in the
background, and it carries hall chat, whispers and invitations (:class:`Invitation`, with the
notice that tells an inviter their invitation could not be shown) to the other nodes.

Two nodes that let one name in at the same moment (neither knew of the other's login yet)
both claim it; the shared store orders the claims and the later one loses: its node is told
(:attr:`PresenceEvents.name_lost`) and disconnects its user as if replaced by another login.

The implementation on Redis is :class:`gamehall.cluster.presence.RedisPresence`; the hall
knows only this protocol, so it never imports a network client.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, Protocol

from gamehall.protocols._core import ChatSaid, Notice


class Holder(NamedTuple):
    """Who holds a name on another node."""

    node: str
    """The node the name lives on."""
    online: bool
    """Whether its user has a connection there (else it only holds seats)."""
    display: str
    """The name as its user spelled it."""
    protocol: str = ""
    """The protocol its user last logged in over: a held seat is retaken over that one
    only, unless a resume token proves the owner (the crash-recovery rules, docs/recovery.md)."""
    token_hash: str = ""
    """The digest of its user's resume token (``""``: none known), so that a browser coming
    back to another node can prove it is the owner of the held seats."""


class Invitation(NamedTuple):
    """An invitation made on another node for a user online on this one
    (:meth:`Presence.invite`, :mod:`gamehall.hall.invites`)."""

    node: str
    """The inviter's node: where a refusal is told (:meth:`Presence.notify`)."""
    room_id: str
    inviter: str
    name: str
    """The invitee, as the inviter's node knows the name (any case)."""


class PresenceEvents(NamedTuple):
    """What the presence tells the hall (called outside any hall call, from the network)."""

    name_lost: Callable[[str], None]
    """A name this node let in was claimed first by another node (the lower-cased name)."""
    hall_event: Callable[[ChatSaid | Notice], None]
    """A shout, notice or whisper from another node for this node's users."""
    invitation: Callable[[Invitation], None]
    """An invitation from another node for one of this node's users."""
    user_notice: Callable[[str, Notice], None]
    """A server line from another node for one of this node's users only (its name)."""


class Presence(Protocol):
    """The names and hall chat of the other nodes. See the module docstring."""

    def attach(self, events: PresenceEvents) -> None:
        """Where to send what arrives from other nodes (the hall, once, when it is built)."""
        ...

    def holder(self, name: str) -> Holder | None:
        """Another node's hold on ``name`` (any case), or ``None`` when no other node has it.
        Local and immediate: answered from the copy kept current by the shared store."""
        ...

    def claim(
        self, name: str, *, online: bool, protocol: str = "", token_hash: str = "", take_over: bool = False
    ) -> None:
        """This node has a user ``name`` (spelled as shown), online or holding seats, last
        logged in over ``protocol`` with the resume token of digest ``token_hash``: claim it
        hall-wide (in the background; a lost claim is reported to ``name_lost``). Cheap when
        nothing changed since the last claim.

        ``take_over``: the player whose seats another node holds for them (offline there)
        came back here; the claim takes the name from that node unless its user came back
        there meanwhile (then this claim is lost). The other node keeps the seats; the player
        retakes them from here, through cross-node play."""
        ...

    def release(self, name: str) -> None:
        """This node no longer has a user ``name``: free it hall-wide."""
        ...

    def shout(self, event: ChatSaid | Notice) -> None:
        """Send a broadcast line to the users of every other node, after this node's earlier
        claims and lines (one order per sender)."""
        ...

    def whisper(self, node: str, event: ChatSaid) -> None:
        """Send a private line to its target, online on ``node``."""
        ...

    def invite(self, node: str, room_id: str, inviter: str, name: str) -> None:
        """Send ``inviter``'s invitation to ``room_id`` to ``name``, online on ``node``, whose
        hall offers it to them (:attr:`PresenceEvents.invitation`), after this node's earlier
        lines."""
        ...

    def notify(self, node: str, name: str, notice: Notice) -> None:
        """Send a server line to ``name`` only, online on ``node``
        (:attr:`PresenceEvents.user_notice`): why an invitation from there was not shown."""
        ...

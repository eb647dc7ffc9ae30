"""Play across nodes: a connection on this node sits at a room another node owns.

Every room has one owner, the node holding its lease (docs/scale-out.md); only the owner
applies inputs to it and writes its log. When a user connected *here* touches a room owned by
node B, this node builds a **replica** of the room (:class:`ReplicaRoom`): the same
:class:`~gamehall.hall.room.Room`, rebuilt from the room's log in the shared store and then
fed by B with every *step* the room takes (a committed log entry, numbered events, a meta
change, the close), in B's order. The replica answers every read a dialogue makes (the game's
view, seats, the last sequence number, recent events), so the dialogues need no change.

Its inputs are not applied here: :class:`ReplicaRoom` checks them first where it can (on a
copy of the game: an illegal move gets the protocol's own error at once, exactly as on B) and
**forwards** them to B (:meth:`FollowerSide.forward`). B applies each one as that user, commits,
and sends back the steps; the events reach this node's connections through this hall's outbox,
rendered by their own dialogues, as if the room were here.

Guarantees (what the tests check):

- **Order.** Everything B sends one node travels one FIFO (the node's inbox stream), so a
  room's steps arrive in order and a connection's inputs are applied in the order it made them.
- **Nothing twice.** Each forwarded input carries an id, increasing per origin node; B
  remembers the last one it applied per origin and ignores repeats.
- **Log before broadcast.** B sends steps only after their commit. A forwarded input is
  *pending* until B says it is done (or refused): this hall's write barrier holds every
  connection's writes meanwhile (:meth:`~gamehall.hall.outbox.Outbox.hold`), so even a
  dialogue's own answer to the input leaves only once the input is in B's log.
- **Nobody lost in a failover.** When B stops owning the room (it drained, lost the lease or
  died) the replica's players stay connected: what they sent that B did not apply is refused
  (each gets a fresh view and decides again), and once another node adopts the room the
  replica follows it and its players take their seats back there, as a reconnect would; if
  this node adopts it, they move onto the room itself. Only if nobody owns the room for six
  checks (two lease ttls) does the replica close, its players told "This game moved to
  another server; reconnect to continue." — they retake their seats by the crash-recovery
  rules on whichever node they reconnect to.

The code, in reading order:

- this module: the messages between nodes (:class:`CrossNodePlay`'s table), what the hall needs
  of the other nodes (:class:`NodePort`), and :class:`CrossNodePlay`, which the hall and the
  relay call and which routes each message to one of its two sides;
- :mod:`gamehall.hall.replica`: :class:`ReplicaRoom`, the room as a follower serves it;
- :mod:`gamehall.hall.cross_node_follower`: the **follower side** (:class:`FollowerSide`), this
  node's connections at rooms other nodes own: building replicas, forwarding their inputs,
  following a room that moves, and the timings :data:`HOLD_LIMIT_S` and :data:`IDLE_REPLICA_S`;
- :mod:`gamehall.hall.cross_node_owner`: the **owner side** (:class:`OwnerSide`), rooms owned
  here that other nodes follow: their steps sent out, forwarded inputs applied, and a
  :class:`StandIn` for each member connected through another node.

The transport (Redis streams, one per node) is :mod:`gamehall.cluster.relay`; the hall knows
it only as a :class:`NodePort`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from gamehall.hall.cross_node_follower import HOLD_LIMIT_S, IDLE_REPLICA_S, MOVED_TEXT, FollowerSide
from gamehall.hall.cross_node_owner import OwnerSide, StandIn
from gamehall.hall.replica import ReplicaRoom

if TYPE_CHECKING:
    from gamehall.hall.hall import Hall
    from gamehall.hall.room import Room

# This module is the one the rest of the code imports from. The timings and MOVED_TEXT live
# with the follower side, the only one that uses them: the sides import this module only for
# types (TYPE_CHECKING), so the imports run one way, from here to the sides.
__all__ = [
    "HOLD_LIMIT_S",
    "IDLE_REPLICA_S",
    "MOVED_TEXT",
    "CrossNodePlay",
    "FollowerSide",
    "Message",
    "NodePort",
    "OwnerSide",
    "PendingInputs",
    "ReplicaRoom",
    "StandIn",
]

log = logging.getLogger("gamehall.cross_node")  # one logger for every module of cross-node play

Message = list[Any]
"""A message between nodes: ``[kind, ...]`` (see :class:`CrossNodePlay` for every kind)."""


class NodePort(Protocol):
    """What the hall needs of the other nodes (implemented on Redis streams by
    :class:`gamehall.cluster.relay.Relay`)."""

    node_id: str

    def owner_of(self, room_id: str) -> str | None:
        """The node holding ``room_id``'s lease now, or ``None`` (no lease). Synchronous: one
        short look-up, made only when this node first touches a room it does not own."""
        ...

    def send(self, node: str, message: Message) -> None:
        """Queue ``message`` for ``node``. Messages to one node arrive in the order sent."""
        ...


class PendingInputs(Protocol):
    """The outbox's holds: forwarded inputs the write barrier waits for."""

    def hold(self, key: int) -> None: ...

    def release(self, key: int) -> None: ...


class CrossNodePlay:
    """This hall's side of cross-node play: the replicas of rooms owned elsewhere
    (:attr:`follower`, :class:`FollowerSide`) and the members connected through other nodes
    (:attr:`owner`, :class:`OwnerSide`). The two sides share no state; this class is the one
    face the hall and the relay see, and it routes each message to the side it is for.

    Messages (``[kind, ...]``); what a follower sends, the owner side handles, and the other
    way round:

    ============  ===============  ==========================================================
    kind          from -> to       meaning
    ============  ===============  ==========================================================
    ``follow``    follower->owner  send me this room's steps (answered by ``sync``)
    ``unfollow``  follower->owner  I no longer need them
    ``input``     follower->owner  apply this input as this user (``op``: join, spectate,
                                   leave, drop, rename, start, act, chat, refused, meta)
    ``sync``      owner->follower  the room's log length and sequence number at ``follow``
    ``step``      owner->follower  one step of the room (:meth:`ReplicaRoom.apply_step`)
    ``ended``     owner->follower  a member there was told ``ended`` (kick, release, close)
    ``done``      owner->follower  the input is applied and committed
    ``refused``   owner->follower  the input was refused (nothing changed)
    ``gone``      owner->follower  I do not own this room (any more): it moved
    ============  ===============  ==========================================================
    """

    def __init__(self, hall: Hall, port: NodePort, holds: PendingInputs) -> None:
        self.follower = FollowerSide(hall, port, holds)
        """This node's connections at rooms other nodes own."""
        self.owner = OwnerSide(hall, port)
        """Rooms owned here that other nodes follow."""

    # ================================================================ follower side

    def replica(self, room_id: str, *, build: bool = True) -> ReplicaRoom | None:
        """The replica of ``room_id`` when another node owns it (built on first use unless
        ``build`` is false): :meth:`FollowerSide.replica`."""
        return self.follower.replica(room_id, build=build)

    def after_inputs(self, name: str, call: Callable[[], None]) -> bool:
        """Queue ``call`` behind the answer to ``name``'s last pending input, if any:
        :meth:`FollowerSide.after_inputs`."""
        return self.follower.after_inputs(name, call)

    def followed(self) -> dict[str, str]:
        """Room id -> owner node, for every replica (the relay checks their leases)."""
        return self.follower.followed()

    def sweep(self) -> None:
        """Stop following the rooms nobody here has used for :data:`IDLE_REPLICA_S`."""
        self.follower.sweep()

    def owner_moved(self, room_id: str, owner: str) -> None:
        """Another node adopted the room: its players here follow it there
        (:meth:`FollowerSide.owner_moved`)."""
        self.follower.owner_moved(room_id, owner)

    def owner_gone(self, room_id: str) -> None:
        """The owner gave the room up: its players here wait for the next owner
        (:meth:`FollowerSide.owner_gone`)."""
        self.follower.owner_gone(room_id)

    def owner_lost(self, room_ids: list[str]) -> None:
        """Nobody owns these rooms any more: their players here are told to reconnect
        (:meth:`FollowerSide.owner_lost`)."""
        self.follower.owner_lost(room_ids)

    def adopted_here(self, room: Room) -> None:
        """This node adopted a room it followed: its players here move onto the room itself
        (:meth:`FollowerSide.adopted_here`)."""
        self.follower.adopted_here(room)

    # ================================================================ owner side

    def origins(self) -> set[str]:
        """The nodes whose connections sit at rooms owned here (the relay checks they live)."""
        return self.owner.origins()

    def origin_lost(self, origin: str) -> None:
        """Node ``origin`` is gone: its members' connections went with it
        (:meth:`OwnerSide.origin_lost`)."""
        self.owner.origin_lost(origin)

    def moving_away(self) -> None:
        """This node stops (drain): its followers are told their rooms move
        (:meth:`OwnerSide.moving_away`)."""
        self.owner.moving_away()

    # ================================================================ dispatch

    def receive(self, message: Message) -> None:
        """One message from another node (its inbox reader calls this, on the loop)."""
        kind = message[0]
        if kind == "step":
            self.follower.on_step(message[1], message[2])
        elif kind == "input":
            self.owner.on_input(*message[1:7])
        elif kind == "done":
            self.follower.on_done(int(message[1]))
        elif kind == "refused":
            self.follower.on_refused(int(message[1]), str(message[2]), str(message[3]), str(message[4]))
        elif kind == "ended":
            self.follower.on_ended(message[1], message[2], message[3], message[4])
        elif kind == "sync":
            recent = list(message[5]) if len(message) > 5 else []
            self.follower.on_sync(message[1], int(message[2]), int(message[3]), dict(message[4]), recent)
        elif kind == "follow":
            self.owner.on_follow(message[1], message[2])
        elif kind == "unfollow":
            self.owner.on_unfollow(message[1], message[2])
        elif kind == "gone":
            self.follower.owner_gone(message[1])
        else:
            log.warning("a message of unknown kind %r from another node", kind)

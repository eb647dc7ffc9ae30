"""The follower side of cross-node play: this node's connections at rooms other nodes own.

:class:`FollowerSide` keeps one :class:`~gamehall.hall.replica.ReplicaRoom` per such room,
built the first time a connection here touches it (:meth:`FollowerSide.replica`), and asks the
owner to ``follow`` it. From then on it:

- **forwards** the replica's inputs to the owner (:meth:`FollowerSide.forward`), each with an
  id increasing per node, and holds this hall's write barrier until the owner answers ``done``
  or ``refused`` (the "log before broadcast" guarantee of :mod:`gamehall.hall.cross_node`);
- **applies** what the owner sends (``sync``, ``step``, ``ended``) to the replica, filling any
  gap from the shared store (:meth:`FollowerSide.catch_up`);
- **follows the room when it moves** (:meth:`FollowerSide.owner_moved`,
  :meth:`FollowerSide.owner_gone`, :meth:`FollowerSide.adopted_here`,
  :meth:`FollowerSide.owner_lost`): its players here keep their seats or are told to reconnect;
- **stops following** rooms nobody here uses (:meth:`FollowerSide.sweep`), since each followed
  room costs its owner a message per step.

The owner's half of these messages is :mod:`gamehall.hall.cross_node_owner`.
"""

from __future__ import annotations

import itertools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from gamehall.hall.replica import ReplicaRoom
from gamehall.hall.room import Room
from gamehall.protocols._core import CloseReason, Delivery, HallError, Listener
from gamehall.rules._core import JSON, RuleError, Seat

if TYPE_CHECKING:
    from gamehall.hall.cross_node import Message, NodePort, PendingInputs
    from gamehall.hall.hall import Hall

log = logging.getLogger("gamehall.cross_node")  # one logger for every module of cross-node play

MOVED_TEXT = "This game moved to another server; reconnect to continue."

IDLE_REPLICA_S = 30.0
"""A replica nobody here is connected to (a lobby looked at the room, a player left) stops
following its room after this long (:meth:`FollowerSide.sweep`): each followed room costs its
owner a message per step."""

HOLD_LIMIT_S = 2.0
"""How long an unanswered forwarded input may hold this node's write barrier. The barrier is
the node's, not the connection's (every connection of a listener passes it once per turn), so
an owner that died with an input unanswered would otherwise stall every connection here until
its room is adopted. Answers normally come within a few milliseconds; past this limit the
input stops holding the barrier (it stays pending: its answer, if any, is still handled)."""


@dataclass(slots=True)
class _Pending:
    """A forwarded input B has not answered yet: what its answer must release (the write
    barrier's hold, the calls queued behind it) and whom a refusal must tell."""

    room_id: str
    name: str
    op: str
    listener: Listener | None
    after: list[Callable[[], None]] = field(default_factory=list)


class FollowerSide:
    """This hall's replicas of rooms owned elsewhere, and the inputs it forwarded to their
    owners that are not answered yet (module docstring). State kept here and nowhere else:
    the replicas by room id, the pending inputs by id, the counter that numbers them."""

    def __init__(self, hall: Hall, port: NodePort, holds: PendingInputs) -> None:
        self.hall = hall
        self.port = port
        self.holds = holds
        self.replicas: dict[str, ReplicaRoom] = {}
        # a process started again under this node id numbers on from where the last one
        # stopped (as owners remember the last id they applied per node): from the wall clock
        self._ids = itertools.count(time.time_ns() // 1000)
        self._pending: dict[int, _Pending] = {}

    # ---------------------------------------------------------------- replicas and their inputs

    def replica(self, room_id: str, *, build: bool = True) -> ReplicaRoom | None:
        """The replica of ``room_id`` when another node owns it (built on first use)."""
        replica = self.replicas.get(room_id)
        if replica is not None or not build:
            return replica
        owner = self.port.owner_of(room_id)
        if owner is None or owner == self.port.node_id:
            log.debug("room %s: no replica (its owner: %s)", room_id, owner)
            return None
        record = self.hall.store.load_room(room_id)
        if record is None or record.finished or record.game not in self.hall.game_types:
            log.debug("room %s: no replica (not a running room of a game served here)", room_id)
            return None
        replica = ReplicaRoom(
            room_id=room_id,
            game_type=self.hall.game_types[record.game],
            config=record.config,
            seed=record.seed,
            meta=record.meta,
            outbox=self.hall.outbox,
            clock=self.hall.clock,
            wall_time=self.hall.wall_time,
            on_closed=lambda room: None,
            created_seq=0,
        )
        replica.owner = owner
        replica.remote = self
        replica._deadlines = {}
        replica._ops = {}
        replica._speculative = None
        replica.replay(record.entries, created_at=record.created_at)
        replica.seat_members()
        replica._sync_timers()
        self.replicas[room_id] = replica
        self.port.send(owner, ["follow", room_id, self.port.node_id])
        log.info("room %s (owned by %s): following it from here", room_id, owner)
        return replica

    def owner_says_away(self, room_id: str) -> frozenset[Seat]:
        """The seats the room's owner holds for players whose connection is gone, as it last
        published them in the shared directory (:meth:`ReplicaRoom.info`)."""
        published = self.hall.remote.get(room_id) if self.hall.remote is not None else None
        return published.away if published is not None else frozenset()

    def forward(
        self, replica: ReplicaRoom, op: str, name: str, args: list[Any], listener: Listener | None
    ) -> int:
        """Send an input to the room's owner; the write barrier waits for its answer."""
        input_id = next(self._ids)
        log.debug(
            "room %s: %s's %s forwarded to %s as input %d", replica.room_id, name, op, replica.owner, input_id
        )
        self._pending[input_id] = _Pending(replica.room_id, name, op, listener)
        self.holds.hold(input_id)
        self.hall.clock.call_later(HOLD_LIMIT_S, partial(self.holds.release, input_id))
        self.port.send(replica.owner, ["input", self.port.node_id, input_id, replica.room_id, op, name, args])
        return input_id

    def after_inputs(self, name: str, call: Callable[[], None]) -> bool:
        """Queue ``call`` behind the answer to ``name``'s last pending input, if any (so a
        dialogue's "after the events" answer follows the events of a forwarded input)."""
        for pending in reversed(self._pending.values()):
            if pending.name.lower() == name.lower():
                pending.after.append(call)
                return True
        return False

    def catch_up(self, replica: ReplicaRoom, upto: int) -> None:
        """Read the committed entries the replica missed from the shared store."""
        record = self.hall.store.load_room(replica.room_id)
        if record is not None:
            replica.catch_up_from([e for e in record.entries if replica._log_n < e.n <= upto])

    def unfollow_if_idle(self, replica: ReplicaRoom) -> None:
        """Stop following a room nobody here is connected to (its answers still pending wait)."""
        if self.replicas.get(replica.room_id) is replica and not self._in_use(replica):
            self._unfollow(replica)

    def _unfollow(self, replica: ReplicaRoom) -> None:
        self._forget(replica)
        self.port.send(replica.owner, ["unfollow", replica.room_id, self.port.node_id])

    def close_replica(self, replica: ReplicaRoom, reason: CloseReason, text: str) -> None:
        """The replica ends here: its members' connections are told (unless the owner already
        told each of them), its pending inputs are let go."""
        replica.closed = True
        self._forget(replica)
        for member in list(replica.members.values()):
            if member.listener is not None and text:
                replica._tell_ended(member.listener, reason, text)
        replica.members.clear()
        for input_id in [i for i, p in self._pending.items() if p.room_id == replica.room_id]:
            self._answered(input_id)

    # ---------------------------------------------------------------- the room's owner changes

    def owner_lost(self, room_ids: list[str]) -> None:
        """These rooms' owner is gone and nobody took them over in time: the replicas close
        and their players here are told to reconnect (a node may adopt the room later)."""
        for room_id in room_ids:
            replica = self.replicas.get(room_id)
            if replica is not None:
                log.info("room %s: no node owns it any more; its players here reconnect", room_id)
                self.close_replica(replica, CloseReason.SHUTDOWN, MOVED_TEXT)
        self.hall.outbox.poke()

    def owner_gone(self, room_id: str) -> None:
        """The owner gave the room up (it drains, or lost the lease): its players here stay
        connected while another node adopts it; what they sent and the owner did not apply is
        refused (a fresh view each), so they decide again on the room as it is."""
        replica = self.replicas.get(room_id)
        if replica is None or not replica.owner:
            return
        record = self.hall.store.load_room(room_id)
        if record is None or record.finished:  # it ended there (its steps were on their way)
            self.close_replica(replica, CloseReason.GAME_OVER, "")
            return
        log.info("room %s: its owner %s gave it up; waiting for the next one", room_id, replica.owner)
        replica.owner = ""
        self._refuse_pending(replica, "This game moved to another server; decide again.")

    def owner_moved(self, room_id: str, owner: str) -> None:
        """Another node adopted the room (the same log, continued there): the replica follows
        the new owner and its players here take their seats back there, as a reconnect would,
        without their connections noticing more than the seats' resync."""
        replica = self.replicas.get(room_id)
        if replica is None or replica.owner == owner:
            return
        log.info("room %s: now owned by %s (was %s); its players here follow", room_id, owner, replica.owner)
        self._refuse_pending(replica, "This game moved to another server; decide again.")
        replica.owner = owner
        replica.synced = False
        self.port.send(owner, ["follow", room_id, self.port.node_id])
        for member in list(replica.members.values()):
            if member.listener is None:
                continue
            if member.seat is None:
                self.forward(replica, "spectate", member.name, [], member.listener)
            else:
                self.forward(replica, "join", member.name, [], member.listener)
        self.hall.outbox.poke()

    def adopted_here(self, room: Room) -> None:
        """This node adopted a room it followed: its players here move from the replica to
        the room itself (their held seats back, with a resync), their connections untouched."""
        replica = self.replicas.pop(room.room_id, None)
        if replica is None:
            return
        log.info("room %s: adopted here; its players here take their seats back", room.room_id)
        self._refuse_pending(replica, "This game moved to this server; decide again.")
        replica.closed = True
        for member in list(replica.members.values()):
            if member.listener is None or room.closed:
                continue
            try:
                if member.seat is None:
                    room.spectate(member.name, member.listener)
                else:
                    room.join(member.name, member.listener)
            except HallError as exc:
                log.info(
                    "room %s: %s could not take the seat back: %s", room.room_id, member.name, exc.reason
                )
                replica._tell_ended(member.listener, CloseReason.SHUTDOWN, MOVED_TEXT)

    def _refuse_pending(self, replica: ReplicaRoom, reason: str) -> None:
        """The inputs forwarded to an owner that is gone: never applied (or applied and in the
        log, which the next owner replays): each gets the late-refusal answer."""
        for input_id, pending in list(self._pending.items()):
            if pending.room_id == replica.room_id:
                self._answered(input_id)
                if pending.op not in ("join", "spectate", "drop", "leave", "meta"):
                    self.refusal(pending, "hall", "moved", reason)

    # ---------------------------------------------------------------- bookkeeping

    def sweep(self) -> None:
        """Stop following the rooms nobody here has used for :data:`IDLE_REPLICA_S`."""
        now = self.hall.clock.now()
        for replica in list(self.replicas.values()):
            if self._in_use(replica):
                replica.idle_since = None
            elif replica.idle_since is None:
                replica.idle_since = now
            elif now - replica.idle_since >= IDLE_REPLICA_S:
                self._unfollow(replica)

    def _in_use(self, replica: ReplicaRoom) -> bool:
        return any(m.listener is not None for m in replica.members.values()) or any(
            p.room_id == replica.room_id for p in self._pending.values()
        )

    def followed(self) -> dict[str, str]:
        """Room id -> owner node, for every replica (the relay checks their leases)."""
        return {room_id: r.owner for room_id, r in self.replicas.items()}

    def _forget(self, replica: ReplicaRoom) -> None:
        if self.replicas.get(replica.room_id) is replica:
            del self.replicas[replica.room_id]

    def _answered(self, input_id: int) -> _Pending | None:
        pending = self._pending.pop(input_id, None)
        if pending is not None:
            replica = self.replicas.get(pending.room_id)
            if replica is not None:
                replica.answered(input_id)
            for call in pending.after:
                self.hall.tell(call)
            self.holds.release(input_id)
            if replica is not None:
                self.unfollow_if_idle(replica)
        return pending

    # ---------------------------------------------------------------- messages from an owner

    def on_done(self, input_id: int) -> None:
        """The owner applied and committed input ``input_id``: its hold on the write barrier
        and the calls queued behind it are let go."""
        self._answered(input_id)

    def on_sync(
        self, room_id: str, log_n: int, seq: int, meta: dict[str, JSON], recent: list[dict[str, JSON]]
    ) -> None:
        """The owner's answer to ``follow``: what it committed between this replica's build
        and its first step is read from the store, so the steps that follow continue it; the
        room's recent chat there becomes this node's, for its joiners (unless lines came in
        meanwhile: from then on this node hears every line as an event)."""
        replica = self.replicas.get(room_id)
        if replica is None:
            return
        self.hall.chat_memory.room_knew(room_id, recent)
        if replica._log_n < log_n:
            self.catch_up(replica, log_n)
        replica._seq = seq
        replica.meta.update(meta)
        replica.synced = True
        replica.seat_members()

    def on_step(self, room_id: str, step: Message) -> None:
        """One step of a followed room, in the owner's order (:meth:`ReplicaRoom.apply_step`)."""
        replica = self.replicas.get(room_id)
        if replica is not None and not replica.closed:
            offline = [m.name for m in replica.members.values() if m.listener is None]
            replica.apply_step(step)
            self._let_go(replica, [name for name in offline if replica.member(name) is None])

    def _let_go(self, replica: ReplicaRoom, names: list[str]) -> None:
        """The owner released the seats of ``names`` while they had no connection (a dropped
        player at a table that had not started: nothing is held for them). A user of this
        node among them forgets the room, as :meth:`Hall.logout` does at once for a local
        room; with no room left the user is forgotten and the name freed hall-wide, instead
        of staying taken for a seat nobody holds (and a new login with the user's token
        coming back to watch the table)."""
        for name in names:
            user = self.hall.user(name)
            if user is not None and user.listener is None and replica.room_id in user.rooms:
                user.forget_room(replica.room_id)
        if names:
            self.hall.forget_idle_users()

    def on_ended(self, room_id: str, name: str, reason: str, text: str) -> None:
        """The owner told a member of this node ``ended`` (a kick, the engine releasing the
        seat, the room closing): the connection here hears it and leaves the replica."""
        replica = self.replicas.get(room_id)
        member = replica.members.pop(name.lower(), None) if replica is not None else None
        if replica is not None and member is not None:
            replica._tell_ended(member.listener, CloseReason(reason), text)
            user = self.hall.user(name)
            if user is not None:
                user.forget_room(room_id)
            self.unfollow_if_idle(replica)

    def on_refused(self, input_id: int, kind: str, code: str, reason: str) -> None:
        """The owner refused input ``input_id`` (nothing changed there): answered as
        :meth:`on_done`, then its player is told (:meth:`refusal`)."""
        log.info("input %d refused by its room's owner: %s (%s)", input_id, reason, code)
        pending = self._answered(input_id)
        if pending is not None:
            self.refusal(pending, kind, code, reason)

    def refusal(self, pending: _Pending, kind: str, code: str, reason: str) -> None:
        """The owner refused an input this node let through (the state moved meanwhile, or
        the game could not be checked here). Nothing changed in the room: the player gets
        the protocol's late-refusal answer where it has one, else a fresh view of the seat."""
        listener = pending.listener
        replica = self.replicas.get(pending.room_id)
        if listener is None or replica is None:
            return
        if pending.op == "join":
            self._join_refused(replica, pending.name, listener, reason)
            return
        error: Exception = RuleError(reason, code=code) if kind == "rule" else HallError(code, reason)
        late = getattr(listener, "input_refused", None)
        if callable(late):
            self.hall.tell(late, pending.room_id, error)
            return
        member = replica.member(pending.name)
        if member is not None and member.seat is not None:
            for event in replica.state.resync(member.seat):
                self.hall.tell(listener.deliver, pending.room_id, Delivery(replica.last_seq, event))

    def _join_refused(self, replica: ReplicaRoom, name: str, listener: Listener, reason: str) -> None:
        """The owner did not seat a player this node had seated on its replica (another node's
        player took the seat first): the place is undone here and the player told."""
        member = replica.member(name)
        if (
            member is not None
            and replica.state.seat_names().get(member.seat if member.seat is not None else -1) != name
        ):
            replica.members.pop(name.lower(), None)
            replica._tell_ended(listener, CloseReason.ABORTED, reason)
            user = self.hall.user(name)
            if user is not None:
                user.forget_room(replica.room_id)

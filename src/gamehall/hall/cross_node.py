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
**forwards** them to B (:meth:`CrossNodePlay.forward`). B applies each one as that user, commits,
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
- **Nobody lost in a failover.** When B stops owning the room (its lease moved, it drained, it
  died) the replica closes and its players get ``ended`` with "This game moved to another
  server; reconnect to continue." — the same as a lease lost here; they retake their seats
  by the crash-recovery rules on whichever node they reconnect to.

The transport (Redis streams, one per node) is :mod:`gamehall.cluster.relay`; the hall knows
it only as a :class:`NodePort`.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import itertools
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from gamehall.hall.lifecycle import SeatStatus
from gamehall.hall.room import Member, Room
from gamehall.protocols._core import CloseReason, Delivery, HallError, Listener, RoomInfo
from gamehall.rules._core import JSON, Action, Event, RuleError, Seat
from gamehall.store.base import LogEntry

if TYPE_CHECKING:
    from gamehall.hall.hall import Hall

log = logging.getLogger("gamehall.cross_node")

MOVED_TEXT = "This game moved to another server; reconnect to continue."

IDLE_REPLICA_S = 30.0
"""A replica nobody here is connected to (a lobby looked at the room, a player left) stops
following its room after this long (:meth:`CrossNodePlay.sweep`): each followed room costs its
owner a message per step."""

HOLD_LIMIT_S = 2.0
"""How long an unanswered forwarded input may hold this node's write barrier. The barrier is
the node's, not the connection's (every connection of a listener passes it once per turn), so
an owner that died with an input unanswered would otherwise stall every connection here until
its room is adopted. Answers normally come within a few milliseconds; past this limit the
input stops holding the barrier (it stays pending: its answer, if any, is still handled)."""

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


@dataclass(slots=True)
class _Pending:
    """A forwarded input B has not answered yet."""

    room_id: str
    name: str
    op: str
    listener: Listener | None
    after: list[Callable[[], None]] = field(default_factory=list)


class StandIn:
    """B's stand-in for a member whose connection is on another node. The member's events
    reach that node as the room's steps (rendered there), so delivering does nothing here;
    being a listener is what keeps the seat *connected* on B. Only an ``ended`` addressed to
    this member (a kick, the engine releasing the seat, the room closing) is sent on."""

    is_bot = False

    def __init__(self, remote: CrossNodePlay, origin: str, room_id: str, name: str) -> None:
        self.remote = remote
        self.origin = origin
        self.room_id = room_id
        self.name = name

    def deliver(self, room_id: str, delivery: Delivery) -> None:
        """Nothing: the origin renders the room's replicated events itself."""

    def hall_event(self, event: Event) -> None:
        """Nothing: hall chat crosses nodes on its own channel."""

    def ended(self, room_id: str, reason: CloseReason, text: str) -> None:
        self.remote.port.send(self.origin, ["ended", room_id, self.name, reason.value, text])

    def disconnect(self, reason: CloseReason, text: str) -> None:
        """Nothing: the connection belongs to the origin node."""


class ReplicaRoom(Room):
    """A room owned by another node, as this node sees it (module docstring). Reads are the
    room's own; inputs are checked on a copy where possible and forwarded to the owner."""

    owner: str = ""
    remote: CrossNodePlay
    synced: bool = False
    idle_since: float | None = None
    _deadlines: dict[str, float]
    _ops: dict[int, tuple[str, str, Any]]
    _speculative: Any

    # ---------------------------------------------------------------- inputs: forwarded

    def join(self, name: str, listener: Listener | None) -> Seat:
        member = self.member(name)
        if member is not None and member.seat is not None:
            if member.bot is not None:
                raise HallError("seat_taken_over", "A bot plays this seat now; it cannot be taken back.")
            member.listener = listener
            self._forward("join", name, [], listener)
            return member.seat
        if self.meta.get("contest") is not None:
            raise HallError("seat_reserved", "Every seat of this contest game is reserved for its entrants.")
        trial = self._trial()
        seat = trial.seat_join(name)[0] if trial is not None else self._free_seat()
        if member is not None:
            self.members.pop(name.lower(), None)
        self.members[name.lower()] = Member(name, seat, SeatStatus.SEATED, listener, self._arrival())
        self._forward("join", name, [seat], listener, expect=name)
        return seat

    def spectate(self, name: str, listener: Listener | None) -> None:
        member = self.member(name)
        if member is not None and member.seat is not None:
            raise HallError("already_in_room", "You have a seat in this room.")
        if member is None:
            self.members[name.lower()] = Member(name, None, SeatStatus.SEATED, listener, self._arrival())
        else:
            member.listener = listener
        self._forward("spectate", name, [], listener)

    def leave(self, name: str, *, reason: CloseReason = CloseReason.REQUESTED, text: str = "") -> None:
        member = self.member(name)
        if reason is CloseReason.REQUESTED:
            if member is None or member.listener is None:
                raise HallError("not_in_room", "You are not in this room.")
            self.members.pop(name.lower(), None)
        self._forward("leave", name, [reason.value, text], None)
        self.remote.unfollow_if_idle(self)

    def drop(self, name: str) -> None:
        member = self.member(name)
        if member is None or member.listener is None:
            return
        member.listener = None
        if member.seat is None:
            self.members.pop(name.lower(), None)
        self._forward("drop", name, [], None)
        self.remote.unfollow_if_idle(self)

    def rename(self, old: str, new: str) -> None:
        member = self.member(old)
        if member is None or member.seat is None:
            raise HallError("not_in_room", "You have no seat in this room.")
        del self.members[old.lower()]
        member.name = new
        self.members[new.lower()] = member
        self._forward("rename", old, [new], member.listener)

    def start(self) -> None:
        trial = self._trial()
        if trial is not None:
            trial.start()
        self._forward("start", "", [], None, expect=None)

    def act(self, name: str, action: Action, *, seq: int | None = None) -> None:
        member = self.member(name)
        if member is None or member.seat is None:
            raise HallError("not_in_room", "You have no seat in this room.")
        trial = self._trial()
        if trial is not None:
            trial.apply(member.seat, action)  # raises RuleError and changes nothing here
        data = self.game_type.actions.encode(action)
        self._forward("act", name, [data, seq], member.listener, expect=(member.seat, action))

    def chat(self, sender: str, text: str) -> None:
        self._forward("chat", sender, [text], None)

    def refused(self, name: str, code: str) -> None:
        self._forward("refused", name, [code], None)

    def write_meta(self, update: dict[str, JSON]) -> None:
        """Meta a follower may set (a seat owner's token digest) goes to the owner."""
        self._forward("meta", "", [update], None)

    def close(self, reason: CloseReason, text: str, *, result: JSON = None) -> None:
        """Closed on this node only (the owner decides for the room): local members are told."""
        if not self.closed:
            self.remote.close_replica(self, reason, text)

    def info(self) -> RoomInfo:
        """The room as the lobby shows it, with the seats this node's players took and the
        owner has not confirmed yet: a dialogue's own answer to a join (AAH's ``CLNF``, the
        table's nicks) lists its player, as it would on the owner."""
        info = super().info()
        taken = info.seats
        pending = {
            m.seat: m.name
            for m in self.members.values()
            if m.seat is not None and m.listener is not None and m.seat not in taken
        }
        return dataclasses.replace(info, seats={**taken, **pending}) if pending else info

    def timers(self) -> list[tuple[str, float]]:
        """The game's timers as the owner runs them: each one's deadline taken when this
        replica saw the step that armed it (late by the step's trip between the nodes)."""
        now = self._clock.now()
        return [(key, max(0.0, deadline - now)) for key, deadline in self._deadlines.items()]

    def _sync_timers(self) -> None:
        """Never armed here (the owner fires the room's timers and sends their steps): the
        pending ones are only tracked, for :meth:`timers`."""
        pending = {t.key: t.seconds for t in self.state.pending_timers()}
        now = self._clock.now()
        self._deadlines = {k: self._deadlines.get(k, now + seconds) for k, seconds in pending.items()}

    _NO_EXPECTATION: Any = object()

    def _forward(
        self, op: str, name: str, args: list[Any], listener: Listener | None, *, expect: Any = _NO_EXPECTATION
    ) -> None:
        """Send the input to the owner. ``expect`` (joins, starts, actions) is what it will do
        to the game: until the owner answers, this node's reads see the game with it
        (:attr:`game`), as a player reads their own move on the owner."""
        if self.closed:
            raise HallError("closed", "This room is closed.")
        input_id = self.remote.forward(self, op, name, args, listener)
        if expect is not self._NO_EXPECTATION:
            self._ops[input_id] = (op, name, expect)
            self._speculative = None

    @property
    def game(self) -> Any:
        """The game as the owner will have it once it applied what this node forwarded and
        has not answered yet: the replica's own state with those inputs tried on a copy (a
        dialogue reading its player's seat or view right after a join or a move sees them).
        The state itself where there is nothing pending, or the engine cannot be copied."""
        if not self._ops:
            return self.state
        if self._speculative is None:
            self._speculative = self._with_pending() or self.state
        return self._speculative

    def _with_pending(self) -> Any:
        try:
            game = copy.deepcopy(self.state)
        except TypeError:
            return None
        seated = {n.lower() for n in self.state.seat_names().values()}
        for op, name, expect in self._ops.values():
            with contextlib.suppress(RuleError):
                if op == "join" and name.lower() not in seated:
                    game.seat_join(name)
                elif op == "start":
                    game.start()
                elif op == "act":
                    seat, action = expect
                    game.apply(seat, action)
        return game

    def answered(self, input_id: int) -> None:
        """The owner answered forwarded input ``input_id``: its effect, if any, is in the state."""
        if self._ops.pop(input_id, None) is not None:
            self._speculative = None

    def _trial(self) -> Any:
        """A copy of the game (as :attr:`game` sees it) to try an input on, or ``None`` where
        the engine's state cannot be copied (a game written as a generator): such inputs are
        checked by the owner only, and a refusal there reaches the player later
        (:meth:`CrossNodePlay.refusal`)."""
        try:
            return copy.deepcopy(self.game)
        except TypeError:
            return None

    def _free_seat(self) -> Seat:
        taken = set(self.state.seat_names()) | {m.seat for m in self.members.values() if m.seat is not None}
        return next(s for s in itertools.count() if s not in taken)

    # ---------------------------------------------------------------- steps from the owner

    def apply_step(self, step: Message) -> None:
        """Take one step of the owner's room (module docstring)."""
        kind = step[0]
        if kind == "entry":
            self._apply_logged(LogEntry(*step[1:6]))
        elif kind == "events":
            self._apply_events(int(step[1]), list(step[2]))
        elif kind == "meta":
            self.meta.update(step[1])
        elif kind == "closed":
            self.remote.close_replica(self, CloseReason.GAME_OVER, "")

    def _apply_logged(self, entry: LogEntry) -> None:
        if entry.n <= self._log_n:
            return  # already in the log this replica was built from
        if entry.n > self._log_n + 1:
            self.remote.catch_up(self, entry.n - 1)
            if entry.n != self._log_n + 1:
                raise ValueError(f"room {self.room_id}: log entry {entry.n} after {self._log_n}")
        self._apply_entry(entry)
        self._log_n = entry.n
        self._speculative = None
        self._sync_timers()
        taken = self.state.seat_names()
        for member in [m for m in self.members.values() if m.seat is not None and m.seat not in taken]:
            if member.listener is None:  # a seat of someone elsewhere; local seats end by "ended"
                self.members.pop(member.name.lower(), None)

    def _apply_events(self, first_seq: int, events: list[Event]) -> None:
        if log.isEnabledFor(logging.DEBUG):
            here = sum(1 for m in self.members.values() if m.listener is not None)
            log.debug(
                "room %s: events %d.. (%d) for %d connection(s) here",
                self.room_id,
                first_seq,
                len(events),
                here,
            )
        self._seq = first_seq - 1
        self._publish(events)
        self._tell_view_watchers()

    def catch_up_from(self, entries: list[LogEntry]) -> None:
        """Apply committed entries read from the store (a gap in the steps, or the ones
        committed between this replica's build and the owner's answer to ``follow``)."""
        for entry in entries:
            if entry.n == self._log_n + 1:
                self._apply_entry(entry)
                self._log_n = entry.n

    def seat_members(self) -> None:
        """A member (no connection here) for every seat, so that seat look-ups answer as on the
        owner: who sits where, whose seat a returning player takes back."""
        for seat, name in self.state.seat_names().items():
            if self.member(name) is None:
                status = SeatStatus.PLAYING if self.state.started else SeatStatus.SEATED
                self.members[name.lower()] = Member(name, seat, status, None, self._arrival())


class CrossNodePlay:
    """This hall's side of cross-node play: the replicas of rooms owned elsewhere (follower
    side) and the members connected through other nodes (owner side).

    Messages (``[kind, ...]``):

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
        self.hall = hall
        self.port = port
        self.holds = holds
        self.replicas: dict[str, ReplicaRoom] = {}
        self._ids = itertools.count(1)
        self._pending: dict[int, _Pending] = {}
        self._applied: dict[str, int] = {}  # origin node -> the last input id applied
        self._followers: dict[str, set[str]] = {}  # room id -> following nodes
        self._members: dict[tuple[str, str, str], StandIn] = {}  # (origin, room, name)

    # ================================================================ follower side

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

    # ---- messages from an owner

    def _on_sync(self, room_id: str, log_n: int, seq: int, meta: dict[str, JSON]) -> None:
        replica = self.replicas.get(room_id)
        if replica is None:
            return
        if replica._log_n < log_n:
            self.catch_up(replica, log_n)
        replica._seq = seq
        replica.meta.update(meta)
        replica.synced = True
        replica.seat_members()

    def _on_step(self, room_id: str, step: Message) -> None:
        replica = self.replicas.get(room_id)
        if replica is not None and not replica.closed:
            replica.apply_step(step)

    def _on_ended(self, room_id: str, name: str, reason: str, text: str) -> None:
        replica = self.replicas.get(room_id)
        member = replica.members.pop(name.lower(), None) if replica is not None else None
        if replica is not None and member is not None:
            replica._tell_ended(member.listener, CloseReason(reason), text)
            user = self.hall.user(name)
            if user is not None:
                user.forget_room(room_id)
            self.unfollow_if_idle(replica)

    def _on_refused(self, input_id: int, kind: str, code: str, reason: str) -> None:
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

    # ================================================================ owner side

    def _on_follow(self, room_id: str, origin: str) -> None:
        log.debug("room %s: node %s follows it", room_id, origin)
        room = self.hall.directory.get(room_id)
        if room is None or room.closed:
            self.port.send(origin, ["gone", room_id])
            return
        self._followers.setdefault(room_id, set()).add(origin)
        room.replicate = partial(self._replicate, room_id)
        sync = ["sync", room_id, room._log_n, room.last_seq, dict(room.meta)]
        self.hall.outbox.send(room_id, partial(self.port.send, origin, sync))

    def _on_unfollow(self, room_id: str, origin: str) -> None:
        log.debug("room %s: node %s no longer follows it", room_id, origin)
        followers = self._followers.get(room_id)
        if followers is not None:
            followers.discard(origin)
            if not followers:
                self._stop_replicating(room_id)

    def _stop_replicating(self, room_id: str) -> None:
        self._followers.pop(room_id, None)
        room = self.hall.directory.get(room_id)
        if room is not None:
            room.replicate = None

    def _replicate(self, room_id: str, step: Message) -> None:
        for node in sorted(self._followers.get(room_id, ())):
            self.port.send(node, ["step", room_id, step])
        if step[0] == "closed":
            self._followers.pop(room_id, None)
            for key in [k for k in self._members if k[1] == room_id]:
                del self._members[key]

    def _on_input(
        self, origin: str, input_id: int, room_id: str, op: str, name: str, args: list[Any]
    ) -> None:
        if input_id <= self._applied.get(origin, 0):
            log.debug("input %d of node %s ignored: applied already", input_id, origin)
            return  # applied already: inputs are never applied twice
        self._applied[origin] = input_id
        room = self.hall.directory.get(room_id)
        if room is None or room.closed:
            self.port.send(origin, ["refused", input_id, "hall", "no_such_room", "This game moved."])
            self.port.send(origin, ["gone", room_id])
            return
        try:
            self._perform(room, origin, op, name, args)
            self._prune(origin, room, name)
        except RuleError as exc:
            answer = ["refused", input_id, "rule", exc.code, exc.reason]
        except HallError as exc:
            answer = ["refused", input_id, "hall", exc.code, exc.reason]
        else:
            answer = ["done", input_id]
        log.debug("input %d of node %s (%s %s in %s): %s", input_id, origin, name, op, room_id, answer[0])
        # after the commit of what the input wrote, behind its steps
        self.hall.outbox.send(room_id, partial(self.port.send, origin, answer))
        self.hall.outbox.poke()

    def _listener(self, origin: str, room_id: str, name: str) -> StandIn:
        key = (origin, room_id, name.lower())
        listener = self._members.get(key)
        if listener is None:
            listener = self._members[key] = StandIn(self, origin, room_id, name)
        return listener

    def _prune(self, origin: str, room: Room, name: str) -> None:
        """Forget the stand-in of a member who left or dropped (no longer attached)."""
        key = (origin, room.room_id, name.lower())
        listener = self._members.get(key)
        member = room.member(name)
        if listener is not None and (member is None or member.listener is not listener):
            del self._members[key]

    def _perform(self, room: Room, origin: str, op: str, name: str, args: list[Any]) -> None:
        """Apply one forwarded input on the room this node owns, as the user ``name``."""
        if op == "join":
            self._join(room, origin, name, args)
        elif op == "spectate":
            room.spectate(name, self._listener(origin, room.room_id, name))
        elif op == "leave":
            room.leave(name, reason=CloseReason(args[0]), text=str(args[1]))
        elif op == "drop":
            member = room.member(name)
            if member is not None and member.listener is self._members.get(
                (origin, room.room_id, name.lower())
            ):
                room.drop(name)
        elif op == "rename":
            room.rename(name, str(args[0]))
            listener = self._members.pop((origin, room.room_id, name.lower()), None)
            if listener is not None:
                listener.name = str(args[0])
                self._members[(origin, room.room_id, listener.name.lower())] = listener
        elif op == "start":
            room.start()
        elif op == "act":
            room.act(name, room.game_type.actions.decode(args[0]), seq=args[1])
        elif op == "chat":
            room.chat(name, str(args[0]))
        elif op == "refused":
            room.refused(name, str(args[0]))
        elif op == "meta":
            update = {k: v for k, v in dict(args[0]).items() if k in ("tokens", "owners")}
            room.meta.update(update)
            room.write_meta(update)
        else:
            raise HallError("bad_input", f"unknown forwarded input {op!r}")

    def _join(self, room: Room, origin: str, name: str, args: list[Any]) -> None:
        """Seat a player of node ``origin``, in the seat that node told them (``args[0]``,
        absent when they retake theirs): a seat that would differ (another node's player
        took it meanwhile) is refused, the room unchanged."""
        member = room.member(name)
        if args and (member is None or member.seat is None):
            try:
                seat = copy.deepcopy(room.state).seat_join(name)[0]
            except TypeError:
                seat = args[0]  # a game whose state cannot be copied: its seats are checked on join
            if seat != args[0]:
                raise HallError("seat_taken", "That seat was taken meanwhile; join again.")
        room.join(name, self._listener(origin, room.room_id, name))

    def origin_lost(self, origin: str) -> None:
        """Node ``origin`` is gone: its members' connections went with it (a drop each)."""
        for key in [k for k in self._members if k[0] == origin]:
            listener = self._members.pop(key)
            room = self.hall.directory.get(key[1])
            member = room.member(listener.name) if room is not None else None
            if room is not None and member is not None and member.listener is listener:
                room.drop(listener.name)
        for room_id in [r for r, nodes in self._followers.items() if origin in nodes]:
            self._on_unfollow(room_id, origin)
        self.hall.outbox.poke()

    def origins(self) -> set[str]:
        """The nodes whose connections sit at rooms owned here."""
        return {key[0] for key in self._members} | {n for nodes in self._followers.values() for n in nodes}

    def moving_away(self) -> None:
        """This node stops (drain): tell every follower its rooms move, so their players
        reconnect (to a node that will own the room) instead of waiting for the lease."""
        for room_id, nodes in list(self._followers.items()):
            for node in nodes:
                self.port.send(node, ["gone", room_id])
        self._followers.clear()

    # ================================================================ dispatch

    def receive(self, message: Message) -> None:
        """One message from another node (its inbox reader calls this, on the loop)."""
        kind = message[0]
        if kind == "step":
            self._on_step(message[1], message[2])
        elif kind == "input":
            self._on_input(*message[1:7])
        elif kind == "done":
            self._answered(int(message[1]))
        elif kind == "refused":
            self._on_refused(int(message[1]), str(message[2]), str(message[3]), str(message[4]))
        elif kind == "ended":
            self._on_ended(message[1], message[2], message[3], message[4])
        elif kind == "sync":
            self._on_sync(message[1], int(message[2]), int(message[3]), dict(message[4]))
        elif kind == "follow":
            self._on_follow(message[1], message[2])
        elif kind == "unfollow":
            self._on_unfollow(message[1], message[2])
        elif kind == "gone":
            self.owner_gone(message[1])
        else:
            log.warning("a message of unknown kind %r from another node", kind)

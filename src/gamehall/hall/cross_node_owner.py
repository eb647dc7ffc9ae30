"""The owner side of cross-node play: rooms this node owns, followed by other nodes.

Only the owner applies inputs to a room and writes its log (:mod:`gamehall.hall.cross_node`).
When another node's connection sits at a room owned here, that node *follows* the room and
:class:`OwnerSide`:

- **replicates**: after each commit, sends every following node each step of the room (a log
  entry, numbered events, a meta change, the close) through the room's ``replicate`` hook;
- **applies forwarded inputs** as their user (:meth:`OwnerSide.on_input`), each once (an id
  increasing per origin node; a repeat is ignored), and answers ``done`` or ``refused``
  behind the commit of what the input wrote;
- **stands in** for each member whose connection is on another node (:class:`StandIn`), so
  the seat counts as connected here, and drops those members when their node is gone
  (:meth:`OwnerSide.origin_lost`);
- **lets its followers know** when it stops owning its rooms (:meth:`OwnerSide.moving_away`).

The follower's half of these messages is :mod:`gamehall.hall.cross_node_follower`.
"""

from __future__ import annotations

import copy
import logging
from functools import partial
from typing import TYPE_CHECKING, Any

from gamehall.hall.recovery import hold_for_owner
from gamehall.hall.room import Room
from gamehall.protocols._core import CloseReason, Delivery, HallError
from gamehall.rules._core import Event, RuleError

if TYPE_CHECKING:
    from gamehall.hall.cross_node import Message, NodePort
    from gamehall.hall.hall import Hall

log = logging.getLogger("gamehall.cross_node")  # one logger for every module of cross-node play


class StandIn:
    """B's stand-in for a member whose connection is on another node. The member's events
    reach that node as the room's steps (rendered there), so delivering does nothing here;
    being a listener is what keeps the seat *connected* on B. Only an ``ended`` addressed to
    this member (a kick, the engine releasing the seat, the room closing) is sent on."""

    is_bot = False

    def __init__(self, port: NodePort, origin: str, room_id: str, name: str) -> None:
        self.port = port
        self.origin = origin
        self.room_id = room_id
        self.name = name

    def deliver(self, room_id: str, delivery: Delivery) -> None:
        """Nothing: the origin renders the room's replicated events itself."""

    def hall_event(self, event: Event) -> None:
        """Nothing: hall chat crosses nodes on its own channel."""

    def ended(self, room_id: str, reason: CloseReason, text: str) -> None:
        """Sent on to the member's node, whose connection is told (it renders ``ended``)."""
        self.port.send(self.origin, ["ended", room_id, self.name, reason.value, text])

    def disconnect(self, reason: CloseReason, text: str) -> None:
        """Nothing: the connection belongs to the origin node."""


class OwnerSide:
    """The rooms owned here as other nodes see them (module docstring). State kept here and
    nowhere else: the nodes following each room, the last input id applied per origin node,
    and one :class:`StandIn` per member connected through another node."""

    def __init__(self, hall: Hall, port: NodePort) -> None:
        self.hall = hall
        self.port = port
        self._applied: dict[str, int] = {}  # origin node -> the last input id applied
        self._followers: dict[str, set[str]] = {}  # room id -> following nodes
        self._members: dict[tuple[str, str, str], StandIn] = {}  # (origin, room, name)

    # ---------------------------------------------------------------- followers and their steps

    def on_follow(self, room_id: str, origin: str) -> None:
        """Node ``origin`` follows the room: from now on it gets the room's steps, after its
        ``sync`` (sent behind this turn's commit, so every entry it counts is in the store
        for the follower to read)."""
        log.debug("room %s: node %s follows it", room_id, origin)
        room = self.hall.directory.get(room_id)
        if room is None or room.closed:
            self.port.send(origin, ["gone", room_id])
            return
        self._followers.setdefault(room_id, set()).add(origin)
        room.replicate = partial(self._replicate, room_id)
        recent = self.hall.chat_memory.recent(room_id)  # so the follower's joiners see it too
        sync = ["sync", room_id, room._log_n, room.last_seq, dict(room.meta), recent]
        self.hall.outbox.send(room_id, partial(self.port.send, origin, sync))

    def on_unfollow(self, room_id: str, origin: str) -> None:
        """Node ``origin`` no longer needs the room's steps; nobody left: the room stops
        replicating."""
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
        """The room's ``replicate`` hook: each step, after its commit, to every follower; the
        close ends the room's followers and stand-ins here."""
        for node in sorted(self._followers.get(room_id, ())):
            self.port.send(node, ["step", room_id, step])
        if step[0] == "closed":
            self._followers.pop(room_id, None)
            for key in [k for k in self._members if k[1] == room_id]:
                del self._members[key]

    # ---------------------------------------------------------------- forwarded inputs

    def on_input(self, origin: str, input_id: int, room_id: str, op: str, name: str, args: list[Any]) -> None:
        """Apply input ``input_id`` of node ``origin`` (once), then answer ``done`` or
        ``refused`` behind the commit of what it wrote and behind its steps."""
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
            listener = self._members[key] = StandIn(self.port, origin, room_id, name)
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
            self.hall.chat_memory.room_said(room.room_id, name, str(args[0]), self.hall.wall_time())
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

    # ---------------------------------------------------------------- nodes that come and go

    def origin_lost(self, origin: str) -> None:
        """Node ``origin`` is gone: its members' connections went with it (a drop each). The
        seats they hold are held here for them, their names with them, as after a restart:
        they come back through any node and retake them (docs/recovery.md). The next
        process under that id numbers its inputs anew."""
        self._applied.pop(origin, None)
        for key in [k for k in self._members if k[0] == origin]:
            listener = self._members.pop(key)
            room = self.hall.directory.get(key[1])
            member = room.member(listener.name) if room is not None else None
            if room is not None and member is not None and member.listener is listener:
                room.drop(listener.name)
                if member.seat is not None and member.bot is None and not room.closed:
                    hold_for_owner(self.hall, room, listener.name)
        for room_id in [r for r, nodes in self._followers.items() if origin in nodes]:
            self.on_unfollow(room_id, origin)
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

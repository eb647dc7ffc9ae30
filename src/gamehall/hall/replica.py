"""The replica of a room another node owns: the follower's copy that serves every read.

A connection here that sits at a room owned by node B reads that room from a
:class:`ReplicaRoom`: the ordinary :class:`~gamehall.hall.room.Room`, rebuilt from the room's
log in the shared store and kept current by the *steps* B sends (:meth:`ReplicaRoom.apply_step`).
Dialogues read it as they read any room (view, seats, last sequence number, recent events), so
they need no change for cross-node play (:mod:`gamehall.hall.cross_node`, the guarantees).

The class reads in two halves:

- **inputs, forwarded**: every input a dialogue makes is checked here where it can be (on a
  copy of the game, so an illegal move gets the protocol's own error at once, as on B) and
  handed to the follower side (:meth:`~gamehall.hall.cross_node_follower.FollowerSide.forward`),
  which sends it to B. Until B answers, :attr:`ReplicaRoom.game` shows the game with those inputs
  tried on a copy, so a dialogue reading its player's seat or move right after it reads what B
  will have;
- **steps from the owner**: B's committed log entries, numbered events, meta changes and the
  close, applied in B's order; events are published through this hall's outbox to the
  connections here, rendered by their own dialogues.

Timers are never armed here: B fires them and sends their steps.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import itertools
import logging
from typing import TYPE_CHECKING, Any

from gamehall.hall.lifecycle import SeatStatus
from gamehall.hall.room import Member, Room
from gamehall.protocols._core import ChatSaid, CloseReason, HallError, Listener, RoomInfo
from gamehall.rules._core import JSON, Action, Event, RuleError, Seat
from gamehall.store.base import LogEntry

if TYPE_CHECKING:
    from gamehall.hall.cross_node import Message
    from gamehall.hall.cross_node_follower import FollowerSide

log = logging.getLogger("gamehall.cross_node")  # one logger for every module of cross-node play


class ReplicaRoom(Room):
    """A room owned by another node, as this node sees it (module docstring). Reads are the
    room's own; inputs are checked on a copy where possible and forwarded to the owner.

    Built, and its follower-only attributes set, by
    :meth:`~gamehall.hall.cross_node_follower.FollowerSide.replica`; :attr:`remote` is the
    follower side that sends its inputs and reads what it missed from the store."""

    owner: str = ""
    remote: FollowerSide
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
        table's nicks) lists its player, as it would on the owner.

        Its away seats are the owner's, as last published in the shared directory: whether a
        player's connection is gone is known only where it was, and the owner holds those
        seats (a player coming back through this node looks here for the seat to retake).
        A seat whose player is connected here is never away."""
        info = super().info()
        taken = info.seats
        members = self.members.values()
        here = {m.seat: m.name for m in members if m.seat is not None and m.listener is not None}
        pending = {seat: name for seat, name in here.items() if seat not in taken}
        away = self.remote.owner_says_away(self.room_id) - here.keys()
        if not pending and away == info.away:
            return info
        return dataclasses.replace(info, seats={**taken, **pending}, away=away)

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
        (:meth:`~gamehall.hall.cross_node_follower.FollowerSide.refusal`)."""
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
        memory = self.remote.hall.chat_memory  # this node's joiners see what was said anywhere
        for event in events:
            if isinstance(event, ChatSaid) and event.scope == "room":
                memory.room_said(self.room_id, event.sender, event.text, self._wall_time())
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

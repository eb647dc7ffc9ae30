"""A room: one table of one game, its members, its numbered event stream and its log.

Every input to the engine (a join, a drop, an action, a fired timer...) goes through
:meth:`Room._input`, which applies it, queues its log entry and numbers the resulting events,
whose deliveries are queued too. Both wait in the hall's :class:`~gamehall.hall.outbox.Outbox`:
the entries are committed, then the deliveries made, when the loop's turn is over. So an
accepted move is always in the room log before anybody sees it, no listener is called while a
room is busy, and replaying the log (:meth:`Room.replay`) rebuilds the room exactly.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, TypeGuard

from gamehall.hall.lifecycle import SeatStatus, Trigger, step
from gamehall.hall.outbox import Outbox
from gamehall.hall.recovery import (
    RESTART_HOLD_MIN_S,
    TAKEOVER_POLICY,
    TimerArming,
    bot_seats,
    forfeits_from_meta,
    remaining_after_restart,
)
from gamehall.hall.results import abandoned_to_bots_result, room_result
from gamehall.hall.stale import StaleGuard
from gamehall.protocols._core import (
    Cancellable,
    ChatSaid,
    Clock,
    CloseReason,
    Delivery,
    HallError,
    Listener,
    RoomClosed,
    RoomInfo,
    SpectatorsChanged,
    ViewWatcher,
)
from gamehall.rules._core import JSON, Action, Event, ForfeitReason, Game, GameType, RuleError, Seat
from gamehall.store.base import Append, Finish, LogEntry, MetaUpdate

log = logging.getLogger(__name__)

HISTORY_LIMIT = 512
"""How many recent events a room keeps at least for resume ("send me what I missed since n");
older gaps get a fresh view instead. Kept small because every kept event is a live object: with
4,096 per room, 1,000 AAH tables held millions and full garbage collections stalled the
server for seconds (docs/BENCHMARKS.md, AAH, "What limits the figures")."""

HISTORY_TRIM = 64
"""The history is a plain list of events (the first one's number kept beside it) trimmed back to
:data:`HISTORY_LIMIT` once it holds this many more (each append costs O(1) amortized). A
``deque(maxlen=...)`` of :class:`Delivery` would trim exactly, but even empty it holds a 64-slot
block (624 bytes per room, most of a lobby table's history), and a ``Delivery`` per kept event
is one more object for the collector to walk; :meth:`Room.deliveries_since` makes them when a
resume asks (issue 12 item 4)."""

DEFAULT_GRACE_S = 60.0

_NOBODY_AWAY: frozenset[Seat] = frozenset()
"""One empty set for every room's ``_replayed_away`` (a set per room cost 216 bytes)."""

ENCODE_ONCE = True
"""Whether the listeners of one event share its renderings (:meth:`Delivery.rendered`: once
per protocol and render key instead of once per listener; docs/architecture.md, "Encode
once"). Only ``bench/bench_encode.py`` turns it off, to measure the old path in the same run."""


@dataclass(slots=True)
class Member:
    """A user's place in a room: a seat (with its lifecycle status) or a spectator's chair."""

    name: str
    seat: Seat | None
    status: SeatStatus
    listener: Listener | None
    joined: int = 0
    """When the member came in (a room-local counter): the operator passes to the earliest."""
    engine_away: bool = False
    """Whether the engine was told the seat is away. After a restart a seat is AWAY for the hall
    only: the game goes on as it was, and a returning player gets a resync, not a seat_back."""
    bot: str | None = None
    """The policy of the in-hall bot playing this seat under the member's name (a seat a bot
    took over, or a bot's seat after a restart), else ``None``. Nobody joins such a seat."""


class Referee(Protocol):
    """Watches one room's play on behalf of a contest (:mod:`gamehall.contest.hall_side`),
    which enforces per-move deadlines and error limits the game itself does not know.
    Told after the fact, never asked: a referee changes the room only through its public
    calls (:meth:`Room.note`, :meth:`Room.forfeit`), and only outside these callbacks."""

    def after_input(self, kind: str, seat: Seat | None) -> None:
        """An input was accepted and logged (``act``, ``timeout``, ``leave``, ...)."""

    def refused(self, seat: Seat, code: str) -> None:
        """``seat``'s action was refused (``code``): by the engine, or by its protocol before
        it reached the engine (:meth:`Room.refused`)."""

    def changed(self) -> None:
        """Membership may have changed (a seat retaken, a connection dropped)."""

    def closed(self) -> None:
        """The room is closed (its game over, or closed by the host)."""


BotDriver = Callable[["Room", str, str], bool]
"""Puts an in-hall bot on a held seat: ``(room, member name, policy) -> done``. The hall hands
one to every room; it returns ``False`` when the server has no bots."""


class Room:
    """One table. Plain synchronous code: the server's event loop is its only thread."""

    def __init__(
        self,
        *,
        room_id: str,
        game_type: GameType,
        config: Mapping[str, JSON],
        seed: int,
        meta: Mapping[str, JSON],
        outbox: Outbox,
        clock: Clock,
        wall_time: Callable[[], float],
        on_closed: Callable[[Room], None],
        created_seq: int,
        bot_driver: BotDriver | None = None,
        on_changed: Callable[[Room], None] | None = None,
    ) -> None:
        """``on_changed`` hears (after the fact) every call that may have changed what
        :meth:`info` says: seats, away seats, spectators, operator, lifecycle. The hall's
        directory re-indexes the room then, so a join never scans every room."""
        self.room_id = room_id
        self.game_type = game_type
        self._config = dict(config)
        self.seed = seed
        self.meta: dict[str, JSON] = dict(meta)
        self._outbox = outbox
        self._clock = clock
        self._wall_time = wall_time
        self._on_closed = on_closed
        self._on_changed = on_changed
        self.created_seq = created_seq
        self.state: Game = game_type.new_game(self._config, seed)
        self.members: dict[str, Member] = {}  # by lower-case user name
        self._seq = 0
        self._log_n = 0
        self._history: list[Event] = []  # the last HISTORY_LIMIT or more, see _remember
        self._history_seq = 1  # the number of _history[0]
        self._timers: dict[str, tuple[Cancellable, float]] = {}  # key -> (handle, deadline)
        self._graces: dict[Seat, Cancellable] = {}
        self._replayed_away = _NOBODY_AWAY  # seats the log left held, for resume_after_restart
        self._arrivals = 0
        self._restored_deadlines: dict[str, float] = {}  # timer key -> wall deadline, after replay
        self._bot_driver = bot_driver
        self._stale = StaleGuard()
        self.forfeits: dict[Seat, ForfeitReason] = forfeits_from_meta(self.meta)
        """Seats released (or taken over by a bot) during the game, with why (docs/recovery.md)."""
        self.closed = False
        self.on_change: Callable[[Room], None] | None = None
        """Told after events other than chat were published (the hall's live lobby feed)."""
        self.referee: Referee | None = None
        """A contest's referee (:class:`Referee`), else ``None``."""
        self.timers_held = False
        """While true, the game's timers are not armed (a contest room waits for every
        entrant before any clock runs); :meth:`release_timers` arms them."""
        self.replicate: Callable[[list[Any]], None] | None = None
        """Set while other nodes follow this room (cross-node play, :mod:`gamehall.hall.cross_node`):
        called with every *step* of the room (a log entry, numbered events, a meta change,
        the close), after the commit that holds it, in the room's order."""

    # ---------------------------------------------------------------- read side (RoomPort)

    @property
    def game(self) -> Game:
        return self.state

    @property
    def config(self) -> Mapping[str, JSON]:
        return self._config

    @property
    def last_seq(self) -> int:
        return self._seq

    @property
    def grace_seconds(self) -> float:
        value = self._config.get("rejoin_grace", DEFAULT_GRACE_S)
        return float(value) if isinstance(value, (int, float)) else DEFAULT_GRACE_S

    @property
    def bot_takeover(self) -> bool:
        """Whether an in-hall bot takes over a seat whose player did not come back in time
        (set by the hall at creation: on by default outside tournament mode)."""
        return self.meta.get("bot_takeover") is True

    def info(self) -> RoomInfo:
        names = dict(self.state.seat_names())
        away = frozenset(
            m.seat for m in self.members.values() if m.status is SeatStatus.AWAY and m.seat is not None
        )
        extra = self.meta.get("extra")
        return RoomInfo(
            room_id=self.room_id,
            game=self.game_type.game_id,
            title=str(self.meta.get("title") or self.game_type.title),
            config=self._config,
            seats=names,
            away=away,
            spectators=self.spectator_names(),
            has_password=bool(self.meta.get("password_hash")),
            operator=_opt_str(self.meta.get("operator")),
            started=self.state.started,
            finished=self.state.finished,
            max_seats=self.max_seats(),
            created_seq=self.created_seq,
            extra=extra if isinstance(extra, dict) else {},
        )

    def max_seats(self) -> int:
        return self.game_type.seat_count(self._config) or len(self.state.seat_names())

    def spectator_names(self) -> tuple[str, ...]:
        return tuple(sorted(m.name for m in self.members.values() if m.seat is None))

    def deliveries_since(self, seq: int, seat: Seat | None) -> list[Delivery]:
        """The events after ``seq`` that ``seat`` may see.

        Raises:
            HallError: ``history_gone`` when the room no longer holds events that old (the
                caller then sends a fresh view instead).
        """
        if seq >= self._seq:
            return []
        oldest = self._history_seq if self._history else self._seq + 1
        if seq + 1 < oldest:
            raise HallError("history_gone", "Those events are too old; take a fresh view.")
        numbered = enumerate(self._history[seq + 1 - oldest :], seq + 1)
        return [Delivery(n, event) for n, event in numbered if event.visible_to(seat)]

    def timers(self) -> list[tuple[str, float]]:
        """The armed game timers as (key, seconds left)."""
        now = self._clock.now()
        return [(key, max(0.0, deadline - now)) for key, (_, deadline) in self._timers.items()]

    def member(self, name: str) -> Member | None:
        return self.members.get(name.lower())

    # ---------------------------------------------------------------- membership

    def join(self, name: str, listener: Listener | None) -> Seat:
        """Seat ``name`` (a new seat, or the held seat back). Returns the seat."""
        try:
            return self._join(name, listener)
        finally:
            self._changed()

    def _join(self, name: str, listener: Listener | None) -> Seat:
        member = self.member(name)
        if member is not None and member.seat is not None:
            if member.bot is not None:
                raise HallError("seat_taken_over", "A bot plays this seat now; it cannot be taken back.")
            if member.status is SeatStatus.AWAY:
                member.listener = listener
                self._back(member)
            else:
                member.listener = listener
            return member.seat
        if self.meta.get("contest") is not None:
            raise HallError("seat_reserved", "Every seat of this contest game is reserved for its entrants.")
        if member is not None:  # a spectator taking a seat
            self._drop_spectator(member)
        seat_box: list[Seat] = []

        def do_join() -> list[Event]:
            seat, events = self.state.seat_join(name)
            seat_box.append(seat)
            # the new member must be there to receive the join's own events (a full table may
            # start its game on this very join)
            self.members[name.lower()] = Member(name, seat, SeatStatus.SEATED, listener, self._arrival())
            return events

        self._input("join", None, {"name": name}, do_join)
        return seat_box[0]

    def spectate(self, name: str, listener: Listener | None) -> None:
        try:
            self._spectate(name, listener)
        finally:
            self._changed()

    def _spectate(self, name: str, listener: Listener | None) -> None:
        member = self.member(name)
        if member is not None:
            if member.seat is not None:
                raise HallError("already_in_room", "You have a seat in this room.")
            member.listener = listener
            return
        self.members[name.lower()] = Member(name, None, SeatStatus.SEATED, listener, self._arrival())
        self._publish([SpectatorsChanged(names=self.spectator_names())])

    def leave(self, name: str, *, reason: CloseReason = CloseReason.REQUESTED, text: str = "") -> None:
        """Release ``name``'s seat now (or end their spectating). No grace."""
        try:
            self._leave(name, reason, text)
        finally:
            self._changed()

    def _leave(self, name: str, reason: CloseReason, text: str) -> None:
        member = self.member(name)
        if member is None:
            raise HallError("not_in_room", "You are not in this room.")
        if member.seat is None:
            self._drop_spectator(member)
        else:
            why = ForfeitReason.PROCESS_VIOLATION if reason is CloseReason.KICKED else ForfeitReason.LEFT
            self._release(member, Trigger.LEAVE, why)
        if reason is not CloseReason.REQUESTED:
            self._tell_ended(member.listener, reason, text)

    def drop(self, name: str) -> None:
        """``name``'s connection is gone: hold a playing seat for the grace, release others."""
        try:
            self._drop(name)
        finally:
            self._changed()

    def _drop(self, name: str) -> None:
        member = self.member(name)
        if member is None:
            return
        member.listener = None
        if member.seat is None:
            self._drop_spectator(member)
            return
        if member.status is SeatStatus.AWAY:
            return
        if member.status is SeatStatus.PLAYING and self.grace_seconds > 0 and not self.state.finished:
            self._away(member)
        elif member.status is SeatStatus.PLAYING:  # a grace of 0: a drop is a forfeit
            self._release(member, Trigger.LEAVE, ForfeitReason.DISCONNECTED)
        else:
            self._release(member, Trigger.DROP, None)

    def rename(self, old: str, new: str) -> None:
        try:
            self._rename(old, new)
        finally:
            self._changed()

    def _rename(self, old: str, new: str) -> None:
        member = self.member(old)
        if member is None or member.seat is None:
            raise HallError("not_in_room", "You have no seat in this room.")
        seat = member.seat
        self._input("rename", seat, {"name": new}, lambda: self.state.seat_rename(seat, new))
        del self.members[old.lower()]
        member.name = new
        self.members[new.lower()] = member
        if self.is_operator(old):
            self._set_operator(new)

    def start(self) -> None:
        try:
            self._input("start", None, {}, self.state.start)
        finally:
            self._changed()

    def act(self, name: str, action: Action, *, seq: int | None = None) -> None:
        """Apply a seated member's action. ``seq`` is the room sequence number of the state
        the player decided on (the last event or view their client had seen), when their
        protocol carries one: an action decided on a state the room has since moved past is
        refused (:mod:`gamehall.hall.stale` says what counts). Without it nothing is checked.

        Raises:
            HallError: the user has no seat here; ``stale`` (nothing changed: the caller sends
                a fresh view).
            RuleError: the engine refused the action (nothing changed).
        """
        member = self.member(name)
        if member is None or member.seat is None:
            raise HallError("not_in_room", "You have no seat in this room.")
        seat = member.seat
        if seq is not None:
            self._stale.check(seat, seq)
        data = self.game_type.actions.encode(action)
        before = self._info_mark()
        try:
            self._input("act", seat, data, lambda: self.state.apply(seat, action))
        except RuleError as exc:
            if self.referee is not None:
                self.referee.refused(seat, exc.code)
            raise
        finally:
            if self._info_mark() != before:
                self._changed()

    def _info_mark(self) -> tuple[int, bool, bool]:
        """What of :meth:`info` an action or a game timer may change: the members (a seat the
        game released), whether the game started or finished. Play rarely changes it, so the
        directory re-indexes the room (:meth:`_changed`) only when the mark differs."""
        return len(self.members), self.state.started, self.state.finished

    def chat(self, sender: str, text: str) -> None:
        """Room chat goes through the numbered stream (so resume replays it) but not the game log."""
        self._publish([ChatSaid(sender=sender, text=text, scope="room")])

    def close(self, reason: CloseReason, text: str, *, result: JSON = None) -> None:
        """End the room now (operator stop, server shutdown) without finishing its game.
        Without ``result`` the log stays unfinished (a shutdown: the next start rebuilds the
        room); with one, the room is finished in the store with it (an operator's close)."""
        if self.closed:
            return
        self._shut(reason, text, result=result)

    # ---------------------------------------------------------------- the input pipeline

    def _input(self, kind: str, seat: Seat | None, data: JSON, call: Callable[[], list[Event]]) -> None:
        """Apply one input: engine first (raises and changes nothing if refused), then its log
        entry and its events into the outbox (committed, then delivered, after this turn),
        then timers."""
        if self.closed:
            raise HallError("closed", "This room is closed.")
        turn_before = self.state.to_move()
        events = call()
        turn_after = self.state.to_move()
        self._log_n += 1
        entry = LogEntry(self._log_n, kind, seat, data, self._wall_time())
        self._outbox.write(Append(self.room_id, entry))
        if self.replicate is not None:
            self._step(["entry", entry.n, entry.kind, entry.seat, entry.data, entry.at])
        first_seq = self._seq + 1  # _publish numbers the events in order from here
        self._publish(events)
        self._stale.note(
            kind=kind,
            actor=seat,
            before=turn_before,
            after=turn_after,
            seats=(m.seat for m in self.members.values() if m.seat is not None),
            numbered=enumerate(events, first_seq),
        )
        self._tell_view_watchers()
        self._after_change(kind)
        if self.referee is not None:
            self.referee.after_input(kind, seat)

    def note(self, seat: Seat | None, data: Mapping[str, JSON]) -> None:
        """Log a hall annotation that is not an input of the game (a contest's soft-timeout
        strike or refused move), so that a report recomputed from the log alone counts it.
        Replaying the log skips it."""
        if self.closed:
            return
        self._log_n += 1
        entry = LogEntry(self._log_n, "note", seat, dict(data), self._wall_time())
        self._outbox.write(Append(self.room_id, entry))
        if self.replicate is not None:
            self._step(["entry", entry.n, entry.kind, entry.seat, entry.data, entry.at])

    def forfeit(self, names: Sequence[str], why: ForfeitReason, text: str) -> None:
        """End the game of each of ``names`` now with ``why`` (a contest deadline or limit):
        every seat is typed first, so that a game that ends with the first release (too few
        players left) still records each of them; then each seat still in play is released,
        its connection told, and the release logged with its reason. Names holding no seat
        here are skipped."""
        try:
            members = [
                m for m in (self.member(name) for name in names) if m is not None and m.seat is not None
            ]
            if self.state.started and not self.state.finished:
                for member in members:
                    self._note_forfeit(member.seat, why)  # type: ignore[arg-type]
            for member in members:
                if self.closed or self.member(member.name) is not member:
                    continue
                listener = member.listener
                self._release(member, Trigger.LEAVE, why)
                self._tell_ended(listener, CloseReason.KICKED, text)
        finally:
            self._changed()

    def refused(self, name: str, code: str) -> None:
        """``name``'s protocol refused a game input of theirs before it became an action (a
        move out of turn, a malformed move): only a contest's referee counts it."""
        member = self.member(name)
        if self.referee is not None and member is not None and member.seat is not None:
            self.referee.refused(member.seat, code)

    def release_timers(self) -> None:
        """Arm the game's timers held back by :attr:`timers_held`."""
        self.timers_held = False
        self._sync_timers()

    def _after_change(self, kind: str = "") -> None:
        self._drop_released_by_the_game()
        if not self.state.started and not self.members and not self.closed:
            # everybody left a table whose game never started: nothing to wait for
            self._shut(CloseReason.ABORTED, "abandoned", result={"termination": "abandoned"})
            return
        for member in self.members.values():
            if member.status is SeatStatus.SEATED and member.seat is not None and self.state.started:
                member.status = step(member.status, Trigger.GAME_STARTS)
        self._sync_timers()
        if self.state.finished and not self.closed:
            outcome = self.state.outcome()
            result: dict[str, JSON] | None = None
            if outcome is not None:
                still_away = [
                    m.seat
                    for m in self.members.values()
                    if m.seat is not None and m.status is SeatStatus.AWAY
                ]
                result = room_result(
                    outcome, forfeits=self.forfeits, still_away=still_away, ended_by_release=kind == "leave"
                )
            aborted = result is not None and result["termination"] == "aborted"
            reason = CloseReason.ABORTED if aborted else CloseReason.GAME_OVER
            self._shut(reason, "aborted" if aborted else "finished", result=result or {})

    def _drop_released_by_the_game(self) -> None:
        """Seats the engine released on its own (a kick for too many skipped turns) stop being
        members here too, and their connections are told."""
        taken = self.state.seat_names()
        for member in [m for m in self.members.values() if m.seat is not None and m.seat not in taken]:
            self.members.pop(member.name.lower(), None)
            self._operator_gone(member.name)
            if self.state.started:
                self._note_forfeit(member.seat, ForfeitReason.TIMEOUT)  # type: ignore[arg-type]
            handle = self._graces.pop(member.seat, None)  # type: ignore[arg-type]
            if handle is not None:
                handle.cancel()
            member.status = step(member.status, Trigger.LEAVE)
            self._tell_ended(member.listener, CloseReason.INACTIVE, "Disconnected due to inactivity.")

    def _publish(self, events: Iterable[Event]) -> None:
        """Number the events and queue their deliveries to the members who may see them now
        (made after this turn's commit, see :mod:`gamehall.hall.outbox`). One queued call
        carries the whole fan-out of these events (:func:`_fan_out`): an accepted action's
        events reach every seat, and one queue entry per listener and event was a good part
        of an action's cost (docs/BENCHMARKS.md, "Accepted actions per CPU-second")."""
        changed = False
        fan_out: list[tuple[Delivery, list[Listener]]] = []
        members = self.members.values()
        if self.replicate is not None:
            events = list(events)
            self._step(["events", self._seq + 1, events])
        for event in events:
            self._seq += 1
            self._remember(self._seq, event)
            changed = changed or not isinstance(event, ChatSaid)
            listeners = [m.listener for m in members if m.listener is not None and event.visible_to(m.seat)]
            if listeners:
                # a fresh render cache shared by this fan-out (Delivery.sharing_renders)
                fan_out.append((Delivery(self._seq, event, {} if ENCODE_ONCE else None), listeners))
        if fan_out:
            self._outbox.send(self.room_id, partial(_fan_out, self.room_id, fan_out))
        if changed and self.on_change is not None:
            self.on_change(self)

    def _remember(self, seq: int, event: Event) -> None:
        """Keep event number ``seq`` for :meth:`deliveries_since` (see :data:`HISTORY_TRIM`)."""
        history = self._history
        if not history:
            self._history_seq = seq
        history.append(event)
        if len(history) >= HISTORY_LIMIT + HISTORY_TRIM:
            del history[:-HISTORY_LIMIT]
            self._history_seq = seq + 1 - HISTORY_LIMIT

    def _tell_view_watchers(self) -> None:
        for member in self.members.values():
            listener = member.listener
            if listener is not None and _watches_views(listener):
                self._outbox.send(self.room_id, partial(listener.room_changed, self.room_id, self._seq))

    def _tell_ended(self, listener: Listener | None, reason: CloseReason, text: str) -> None:
        """Queue ``ended`` for a member's connection (after this turn's deliveries to it)."""
        if listener is not None:
            self._outbox.send(self.room_id, partial(listener.ended, self.room_id, reason, text))

    # ---------------------------------------------------------------- timers

    def _sync_timers(self) -> None:
        if self.timers_held and not self.closed:
            return
        pending = () if self.closed else self.state.pending_timers()
        if not self._restored_deadlines and self._timers.keys() == {t.key for t in pending}:
            return  # the armed timers are the wanted ones (most inputs change no timer)
        wanted = {t.key: t.seconds for t in pending}
        for key in [k for k in self._timers if k not in wanted]:
            self._timers.pop(key)[0].cancel()
        restored, self._restored_deadlines = self._restored_deadlines, {}
        for key, seconds in wanted.items():
            if key in restored:  # first arming after a restart: the time it had left
                seconds = remaining_after_restart(restored[key], self._wall_time())
            if key not in self._timers:
                handle = self._clock.call_later(seconds, lambda key=key: self._fire(key))  # type: ignore[misc]
                self._timers[key] = (handle, self._clock.now() + seconds)

    def _fire(self, key: str) -> None:
        self._timers.pop(key, None)
        if self.closed:
            return
        before = self._info_mark()
        try:
            self._fire_now(key)
        finally:
            if self._info_mark() != before:
                self._changed()

    def _fire_now(self, key: str) -> None:
        try:
            self._input("timeout", None, {"key": key}, lambda: self.state.on_timeout(key))
        except RuleError as exc:  # a stale timer: the state moved on
            log.debug("room %s: timer %s ignored: %s", self.room_id, key, exc.reason)
            self._sync_timers()

    # ---------------------------------------------------------------- seat changes

    def _away(self, member: Member) -> None:
        seat = member.seat
        assert seat is not None
        self._input("away", seat, {}, lambda: self.state.seat_away(seat))
        if self.closed:  # the drop ended the game (Ursuppe plays out a game nobody is at)
            return
        member.status = step(member.status, Trigger.DROP)
        member.engine_away = True
        self._hold(member)

    def _hold(self, member: Member, seconds: float | None = None) -> None:
        seat = member.seat
        assert seat is not None
        hold = self.grace_seconds if seconds is None else seconds
        self._graces[seat] = self._clock.call_later(hold, lambda: self._grace_expired(member))

    def _back(self, member: Member) -> None:
        seat = member.seat
        assert seat is not None
        handle = self._graces.pop(seat, None)
        if handle is not None:
            handle.cancel()
        member.status = step(member.status, Trigger.BACK)
        if member.engine_away:
            member.engine_away = False
            self._input("back", seat, {}, lambda: self.state.seat_back(seat))
        else:  # held by the hall alone (after a restart): bring this connection up to date
            self._publish(self.state.resync(seat))

    def _grace_expired(self, member: Member) -> None:
        try:
            self._grace_over(member)
        finally:
            self._changed()

    def _grace_over(self, member: Member) -> None:
        """The player did not come back in time: a bot takes the seat over (the room's
        ``bot_takeover``), or the seat is released. Either way the seat forfeits."""
        if self.closed or member.status is not SeatStatus.AWAY:
            return
        self._graces.pop(member.seat, None)  # type: ignore[arg-type]
        if (
            self.bot_takeover
            and self.state.started
            and self._bot_driver is not None
            and self._others_human(member)
        ):
            self._note_forfeit(member.seat, ForfeitReason.DISCONNECTED)  # type: ignore[arg-type]
            if self._bot_driver(self, member.name, TAKEOVER_POLICY):
                return
        self._release(member, Trigger.GRACE_EXPIRES, ForfeitReason.DISCONNECTED)

    def _others_human(self, member: Member | None) -> bool:
        """Whether a seat other than ``member``'s is still a person's (playing or held): bots
        take over seats only for the people still at the table, never play on alone."""
        bots = bot_seats(self.meta)
        return any(
            m is not member and m.seat is not None and m.bot is None and m.seat not in bots
            for m in self.members.values()
        )

    def _release(self, member: Member, trigger: Trigger, why: ForfeitReason | None) -> None:
        seat = member.seat
        assert seat is not None
        handle = self._graces.pop(seat, None)
        if handle is not None:
            handle.cancel()
        self.members.pop(member.name.lower(), None)
        self._operator_gone(member.name)
        member.status = step(member.status, trigger)
        data: dict[str, JSON] = {}
        if why is not None and self.state.started and not self.state.finished:
            self._note_forfeit(seat, why)
            data["reason"] = self.forfeits[seat].value  # in the log too: a result recomputes from it
        self._forget_bot(seat)
        names = dict(self.state.seat_names())
        self._input("leave", seat, data, lambda: self.state.seat_leave(seat))
        if not self.closed and self.state.started and self.members and not self._others_human(None):
            # only in-hall bots are left: they never play on alone
            result = abandoned_to_bots_result(names, self.forfeits)
            self._shut(CloseReason.ABORTED, "aborted", result=result)

    def _note_forfeit(self, seat: Seat, why: ForfeitReason) -> None:
        """Record that ``seat`` forfeited (kept in the meta, so a restart still knows)."""
        if seat in self.forfeits:
            return
        self.forfeits[seat] = why
        self.meta["forfeits"] = {str(s): r.value for s, r in sorted(self.forfeits.items())}
        self.write_meta({"forfeits": self.meta["forfeits"]})

    # ---------------------------------------------------------------- in-hall bots

    def note_bot(self, seat: Seat, name: str, policy: str) -> None:
        """Record that an in-hall bot called ``name`` plays ``seat`` with ``policy``, so a
        restart seats it again (:func:`gamehall.hall.recovery.bot_seats`)."""
        self._set_bots({**bot_seats(self.meta), seat: (name, policy)})

    def _forget_bot(self, seat: Seat) -> None:
        bots = bot_seats(self.meta)
        if bots.pop(seat, None) is not None and not self.closed:
            self._set_bots(bots)

    def _set_bots(self, bots: Mapping[Seat, tuple[str, str]]) -> None:
        self.meta["bots"] = {str(s): {"name": n, "policy": p} for s, (n, p) in sorted(bots.items())}
        self.write_meta({"bots": self.meta["bots"]})

    def drive(self, name: str, listener: Listener, policy: str) -> Seat:
        """Let an in-hall bot (``listener``) play ``name``'s held seat from now on, under that
        name: a seat whose player did not come back (bot takeover), or a bot's own seat after
        a restart. The seat is back in play at once (the engine hears ``seat_back`` if it was
        told the seat was away; otherwise the bot gets the seat's resync).

        Raises:
            HallError: ``not_in_room`` when ``name`` holds no seat here.
        """
        try:
            return self._drive(name, listener, policy)
        finally:
            self._changed()

    def _drive(self, name: str, listener: Listener, policy: str) -> Seat:
        member = self.member(name)
        if member is None or member.seat is None:
            raise HallError("not_in_room", f"{name} holds no seat in this room.")
        seat = member.seat
        handle = self._graces.pop(seat, None)
        if handle is not None:
            handle.cancel()
        member.listener = listener
        member.bot = policy
        self.note_bot(seat, name, policy)
        if member.status is SeatStatus.AWAY:
            member.status = step(member.status, Trigger.BACK)
            if member.engine_away:
                member.engine_away = False
                self._input("back", seat, {}, lambda: self.state.seat_back(seat))
                return seat
        self._publish(self.state.resync(seat))
        return seat

    def _drop_spectator(self, member: Member) -> None:
        self.members.pop(member.name.lower(), None)
        self._operator_gone(member.name)
        if not self.closed:
            self._publish([SpectatorsChanged(names=self.spectator_names())])
            self._after_change()

    # ---------------------------------------------------------------- the operator

    @property
    def operator(self) -> str | None:
        """The user who decides for this room (start, kick, bots; issue 10 item 6): its
        creator, then, when the operator leaves, the member who came in earliest, humans
        before bots (jduplicate note §1; cg note §4.2 "the longest-present human")."""
        return _opt_str(self.meta.get("operator"))

    def is_operator(self, name: str) -> bool:
        operator = self.operator
        return operator is not None and operator.lower() == name.lower()

    def _arrival(self) -> int:
        self._arrivals += 1
        return self._arrivals

    def _operator_gone(self, name: str) -> None:
        """``name`` is no longer a member: if they were the operator, the operator passes on.
        A dropped operator whose seat is held stays the operator (still a member)."""
        if not self.is_operator(name) or self.closed:
            return
        remaining = sorted(self.members.values(), key=lambda m: (m.seat is None, m.joined))
        humans = [m for m in remaining if not getattr(m.listener, "is_bot", False)]
        successors = humans or remaining
        self._set_operator(successors[0].name if successors else None)

    def _set_operator(self, name: str | None) -> None:
        self.meta["operator"] = name
        self.write_meta(dict(self.meta))
        self._changed()

    def write_meta(self, update: dict[str, JSON]) -> None:
        """Queue a meta update (already made in :attr:`meta`) for the store and the followers."""
        self._outbox.write(MetaUpdate(self.room_id, update))
        if self.replicate is not None:
            self._step(["meta", update])

    def _step(self, step: list[Any]) -> None:
        """Queue ``step`` for the nodes following this room, after this turn's commit."""
        replicate = self.replicate
        if replicate is not None:
            self._outbox.send(self.room_id, partial(replicate, step))

    def _changed(self) -> None:
        if self._on_changed is not None and not self.closed:
            self._on_changed(self)
        if self.referee is not None and not self.closed:
            self.referee.changed()

    # ---------------------------------------------------------------- the end

    def _shut(self, reason: CloseReason, text: str, *, result: JSON) -> None:
        self.closed = True
        for handle, _ in self._timers.values():
            handle.cancel()
        self._timers.clear()
        for handle in self._graces.values():
            handle.cancel()
        self._graces.clear()
        if result is not None:
            self._outbox.write(Finish(self.room_id, result, self._wall_time()))
        self._publish([RoomClosed(reason=text)])
        members = list(self.members.values())
        for member in members:
            if member.seat is not None and member.status is not SeatStatus.LEFT:
                member.status = step(member.status, Trigger.GAME_OVER)
        self.members.clear()
        self._on_closed(self)
        if self.referee is not None:
            self.referee.closed()
        for member in members:
            self._tell_ended(member.listener, reason, text)
        self._step(["closed"])

    # ---------------------------------------------------------------- crash recovery

    def replay(
        self,
        entries: Iterable[LogEntry],
        observe: Callable[[LogEntry, list[Event]], None] | None = None,
        *,
        created_at: float = 0.0,
    ) -> None:
        """Rebuild the state from a log without publishing or logging anything. ``observe``
        sees each entry with the events it produced (``gamehall replay --events``). Also
        learns each pending timer's deadline (:class:`~gamehall.hall.recovery.TimerArming`)
        for :meth:`resume_after_restart`."""
        arming = TimerArming(created_at)
        for entry in entries:
            events = self._apply_entry(entry)
            self._log_n = entry.n
            arming.observe(self.state.pending_timers(), entry.at)
            if observe is not None:
                observe(entry, events)
        self._restored_deadlines = arming.deadlines(self.state.pending_timers())

    def _apply_entry(self, entry: LogEntry) -> list[Event]:
        data: Any = entry.data
        seat = entry.seat
        if entry.kind == "join":
            return self.state.seat_join(str(data["name"]))[1]
        if entry.kind == "start":
            return self.state.start()
        if entry.kind == "timeout":
            return self.state.on_timeout(str(data["key"]))
        if entry.kind == "note":  # a hall annotation (Room.note), not an input of the game
            return []
        if seat is None:
            raise ValueError(f"room {self.room_id}: log entry {entry.n} ({entry.kind}) has no seat")
        if entry.kind == "away":
            self._replayed_away |= {seat}
            return self.state.seat_away(seat)
        if entry.kind == "back":
            self._replayed_away -= {seat}
            return self.state.seat_back(seat)
        if entry.kind == "leave":
            self._replayed_away -= {seat}
            return self.state.seat_leave(seat)
        if entry.kind == "rename":
            return self.state.seat_rename(seat, str(data["name"]))
        if entry.kind == "act":
            return self.state.apply(seat, self.game_type.actions.decode(data))
        raise ValueError(f"room {self.room_id}: unknown log entry {entry.kind!r}")

    def resume_after_restart(self) -> None:
        """After :meth:`replay`: nobody is connected any more. Hold every seat of a running
        game for its grace and at least :data:`~gamehall.hall.recovery.RESTART_HOLD_MIN_S`,
        *without* telling the engine (a restart is not a drop: rounds go on as they were);
        re-arm the game's timers with the time they had left (at least the restart grace);
        release lobby seats, which have no grace. The hall then seats the room's bots again
        (:meth:`drive`)."""
        for seat, name in sorted(self.state.seat_names().items()):
            self.members[name.lower()] = Member(name, seat, SeatStatus.SEATED, None, self._arrival())
        hold = max(self.grace_seconds, RESTART_HOLD_MIN_S)
        for member in list(self.members.values()):
            if not self.state.started:
                self.drop(member.name)
                continue
            member.status = SeatStatus.AWAY
            member.engine_away = member.seat in self._replayed_away
            self._hold(member, hold)
        self._sync_timers()
        self._changed()


def _fan_out(room_id: str, fan_out: Sequence[tuple[Delivery, Sequence[Listener]]]) -> None:
    """Make one :meth:`Room._publish`'s deliveries, event by event, listener by listener (the
    order one queued call per delivery would have had). A listener that fails is logged and
    the others still get their events, as the outbox promises for its own calls."""
    for delivery, listeners in fan_out:
        for listener in listeners:
            try:
                listener.deliver(room_id, delivery)
            except Exception:
                log.exception("room %s: a listener failed on event %d", room_id, delivery.seq)


_VIEW_WATCHER_TYPES: dict[type, bool] = {}
"""Whether a listener class is a :class:`ViewWatcher`, learnt once per class: the room asks
after every input for every member, and ``isinstance`` against a runtime-checkable protocol
inspects the class's attributes every time (a fifth of an accepted action's cost)."""


def _watches_views(listener: Listener) -> TypeGuard[ViewWatcher]:
    """``isinstance(listener, ViewWatcher)``, asked once per listener class."""
    kind = type(listener)
    known = _VIEW_WATCHER_TYPES.get(kind)
    if known is None:
        known = _VIEW_WATCHER_TYPES[kind] = isinstance(listener, ViewWatcher)
    return known


def _opt_str(value: JSON) -> str | None:
    return value if isinstance(value, str) else None

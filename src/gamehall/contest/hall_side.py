"""The hall side of a contest: reserved rooms, per-move deadlines, typed reports (issue 14).

:func:`contest_hall` gives the runner a :class:`~gamehall.contest.ports.ContestHall` on a live
hall. ``play(order)`` sets a contest game up exactly as a crash recovery leaves a room (docs/recovery.md):
the room is created with the order's seed, every seat is joined for its entrant's login name in
seat order, the game is started, and every seat is then *held* for its owner
(:meth:`~gamehall.hall.room.Room.resume_after_restart`). So each legacy protocol's own "way back
into a held seat" is what puts an entrant at its table when it logs in with that name; no
protocol needed a contest dialogue of its own (docs/contest.md says what an entrant sends).

Nobody else may sit there (the room refuses every new seat once ``meta["contest"]`` is set),
no in-hall bot takes a seat over (``bot_takeover`` off), and the game's own timers wait until
every entrant is at the table: a contest game starts for everybody at once.

A :class:`Referee` then watches the room and applies the deadlines of
:class:`~gamehall.contest.ports.Deadlines`. Every forfeit it decides is a logged ``leave``
input carrying its reason, and every soft-timeout strike and refused move a logged ``note``,
so :func:`report_of` recomputes the whole report from the stored record alone.
"""

from __future__ import annotations

import asyncio
import logging
import re
import uuid
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from gamehall.contest.ports import GameOrder, GameReport, SeatReport
from gamehall.hall.hall import BOT_TAKEOVER, Hall
from gamehall.hall.lifecycle import SeatStatus
from gamehall.hall.results import abandoned_to_bots_result
from gamehall.hall.room import Room
from gamehall.protocols._core import Cancellable, CloseReason, HallError
from gamehall.protocols.cg.accounts import Accounts
from gamehall.rules._core import JSON, ForfeitReason, HeldTurn, RuleError, Seat, SeatEnd, SeatResult
from gamehall.store.base import MetaUpdate, RoomRecord

log = logging.getLogger(__name__)

NOTE_SOFT_TIMEOUT = "soft_timeout"
NOTE_ERROR = "error"
"""The ``contest`` values of a contest room's ``note`` log entries (see :meth:`Room.note`)."""

_WIRE_NAME = re.compile(r"[^A-Za-z0-9_]")
WIRE_NAME_LENGTH = 15
"""UrServer game names are 1..15 of ``[A-Za-z0-9_]``; the room title is such a name."""


def room_title(order: GameOrder) -> str:
    """The contest room's title, which is also its game name where a protocol lists games by
    name (UrServer ``LISTE``/``TEILNEHMEN``): ``<contest id>_<number>`` reduced to letters,
    digits and ``_``, at most 15 characters, keeping the number whole."""
    suffix = f"_{order.number}"
    stem = _WIRE_NAME.sub("", order.contest_id)[: WIRE_NAME_LENGTH - len(suffix)] or "contest"
    return stem + suffix


def contest_hall(hall: Hall, *, accounts: Callable[[], Accounts] | None = None) -> HallSide:
    """The contest side of ``hall`` (one per hall: every contest it runs shares it).
    ``accounts`` opens the server's protocol accounts (cg entrants play under theirs); the
    server hands it in when it builds the hall, so later callers pass the hall alone."""
    side = _sides.get(hall)
    if side is None:
        side = _sides[hall] = HallSide(hall)
    if accounts is not None:
        side.accounts = accounts
    return side


_sides: weakref.WeakKeyDictionary[Hall, HallSide] = weakref.WeakKeyDictionary()


class HallSide:
    """Implements :class:`gamehall.contest.ports.ContestHall` on a live hall."""

    def __init__(self, hall: Hall) -> None:
        self.hall = hall
        self.accounts: Callable[[], Accounts] | None = None
        """Opens the server's cg accounts (``None``: this hall serves no cg entrants)."""
        self._referees: dict[tuple[str, str], Referee] = {}  # (contest id, login lower) -> its game

    # ---------------------------------------------------------------- the contest board

    def open_contest(self, contest_id: str, title: str, game: str, organiser: str) -> None:
        self.hall.contests.open(contest_id, title, game, organiser)

    def publish(self, contest_id: str, snapshot: Mapping[str, JSON]) -> None:
        self.hall.contests.publish(contest_id, snapshot)

    def stop_requested(self, contest_id: str) -> bool:
        return self.hall.contests.stop_requested(contest_id)

    def close_contest(self, contest_id: str, snapshot: Mapping[str, JSON]) -> None:
        self.hall.contests.close(contest_id, snapshot)

    # ---------------------------------------------------------------- games

    async def play(self, order: GameOrder) -> GameReport:
        """Create the reserved room (module docstring), referee it to its end, report it.

        Raises:
            HallError: the game, config or seats cannot make a room (``config``,
                ``no_such_game``, ``seat_order`` when the engine did not seat the logins in
                the order's seat order, ``name_in_use`` for a login already playing).
        """
        room = self._reserved_room(order)
        referee = Referee(self.hall, room, order)
        keys = [(order.contest_id, login.lower()) for login in order.seats]
        for key in keys:
            self._referees[key] = referee
        try:
            await referee.start()
        except asyncio.CancelledError:
            referee.abandon()  # the runner gave the game up: nobody wins it
            raise
        finally:
            for key in keys:
                if self._referees.get(key) is referee:
                    del self._referees[key]
        self.hall.flush()  # the room's last writes (its result) are committed before it is read
        while not self.hall.outbox.idle:  # a store that commits in the background
            await asyncio.sleep(0.01)
        record = self.hall.store.load_room(room.room_id)
        if record is None:  # the store lost the room: nothing to recompute from
            raise HallError("no_such_room", f"The store has no room {room.room_id}.")
        return report_of(record, order)

    def forfeit(self, contest_id: str, login: str, reason: ForfeitReason) -> None:
        """End ``login``'s running game now with ``reason`` (an unknown login: nothing to do)."""
        referee = self._referees.get((contest_id, login.lower()))
        if referee is not None:
            referee.forfeit_soon(login, reason, "The contest ended your game.")

    def register_account(self, protocol: str, login: str, password: str) -> None:
        """Make sure ``login`` can log in over ``protocol`` with ``password``: a cg entrant
        needs a cg account (its seat is found by the account's uuid); the other protocols
        have no accounts and need nothing. An existing account is left as it is.

        Raises:
            HallError: ``no_account`` when the account cannot be made (no cg listener, names
                the cg policy refuses, registration failing).
        """
        if protocol != "cg":
            return
        accounts = self._cg_accounts()
        if accounts.find(login) is None and accounts.create(login, password) is None:
            raise HallError("no_account", f"No cg account could be made for {login}.")

    def _reserved_room(self, order: GameOrder) -> Room:
        hall = self.hall
        for login in order.seats:
            user = hall.user(login)
            if user is not None and (user.listener is not None or user.rooms):
                raise HallError("name_in_use", f"{login} is playing already.")
        cg_uuids = _cg_uuids(self._cg_accounts(), order.seats) if order.protocol == "cg" else None
        settings = {**order.config, BOT_TAKEOVER: False}
        room = hall.create_room(
            order.game,
            settings,
            operator=None,
            title=room_title(order),
            extra={"contest": order.contest_id, "contest_game": order.number},
            seed=order.seed,
        )
        room.timers_held = True
        try:
            for login in order.seats:
                room.join(login, None)
            if not room.state.started:
                room.start()
            seated = dict(room.state.seat_names())
            if seated != dict(enumerate(order.seats)):
                raise HallError("seat_order", f"The game seated {seated}, not the order's seats.")
        except (HallError, RuleError) as exc:
            room.close(CloseReason.ABORTED, "contest room not set up", result={"termination": "aborted"})
            if isinstance(exc, RuleError):
                raise HallError("config", f"The contest game cannot start: {exc.reason}") from None
            raise
        room.meta["contest"] = order.to_json()
        hall.outbox.write(MetaUpdate(room.room_id, {"contest": room.meta["contest"]}))
        if cg_uuids is not None:
            _record_cg_lobby(hall, room, cg_uuids)
        room.resume_after_restart()  # every seat held for its owner, as after a restart
        for login in order.seats:
            hall.restored_owner(login, room.room_id, None, order.protocol)
        return room

    def _cg_accounts(self) -> Accounts:
        """The server's cg accounts.

        Raises:
            HallError: ``no_account`` when this hall was given none (no cg service).
        """
        if self.accounts is None:
            raise HallError("no_account", "This server has no cg accounts.")
        return self.accounts()


# ------------------------------------------------------------------------------ cg


def _cg_uuids(accounts: Accounts, logins: tuple[str, ...]) -> list[str]:
    """The account uuid of each cg entrant, in seat order.

    Raises:
        HallError: ``no_account`` naming an entrant without an account (register it first:
            :meth:`HallSide.register_account`).
    """
    uuids = []
    for login in logins:
        account = accounts.find(login)
        if account is None:
            raise HallError("no_account", f"{login} has no cg account; register it before its game.")
        uuids.append(account.uuid)
    return uuids


def _record_cg_lobby(hall: Hall, room: Room, uuids: list[str]) -> None:
    """Give the contest room the cg lobby record a restart leaves (``extra.cg_lobby``,
    docs/recovery.md "Doppelkopf over cg"): the cg login of each entrant's account then
    rebuilds the lobby around the room and retakes the held seat, as after a restart."""
    from gamehall.protocols.cg import gamerules
    from gamehall.protocols.cg.lobbies import LOBBY_EXTRA, ROLE_PLAYER

    extra = room.meta.get("extra")
    extra = dict(extra) if isinstance(extra, dict) else {}
    extra[LOBBY_EXTRA] = {
        "lobby_id": uuid.uuid4().hex,
        "rules": gamerules.wire_rules(room.state.view(None)["rules"]),
        "game": room.game_type.game_id,
        "order": uuids,
        "roles": dict.fromkeys(uuids, ROLE_PLAYER),
        "bots": {},
    }
    room.meta["extra"] = extra
    hall.outbox.write(MetaUpdate(room.room_id, {"extra": extra}))


@dataclass(slots=True)
class _Clock:
    """One seat's move clock: since when it must act, for what (the decision's kind and, in a
    held-turn game, the turn), and its hard timer (``None``: stopped, the seat has answered)."""

    kind: str
    turn: int | None
    since: float
    hard: Cancellable | None


class Referee:
    """Applies one contest game's deadlines (:class:`~gamehall.contest.ports.Deadlines`).

    The room tells it what happened (:class:`gamehall.hall.room.Referee`); it measures at once
    and acts a moment later (:meth:`_review`, on the next loop turn), never from inside the
    room's own call. The rules, in order of time:

    - **connect**: every entrant has ``connect_s`` from the room's creation to take its seat;
      one that does not forfeits ``disconnected``. No move clock runs before every seat still
      in play has been taken once, and the game's own timers wait too.
    - **move**: a seat that must act (``to_move``) has a clock; an accepted move after
      ``soft_s`` is a soft-timeout strike (``soft_strikes`` of them: ``soft_timeout``), no move
      by ``hard_s`` is ``timeout``. A clock restarts after each accepted move of its seat and
      when the kind of decision changes.
    - **held turns** (:class:`~gamehall.rules._core.HeldTurn`: duplicate, boggle): a seat stays
      to move until the turn closes, so ``to_move`` cannot tell a sleeper from a seat that has
      answered. There the clock stops once the seat has moved in the current turn (a late
      first move is the strike) and a new clock starts with the next turn; a move withdrawn
      in the same turn takes the clock up again where it stopped, never with a fresh window.
    - **errors**: ``max_errors`` refused actions of a seat: ``rule_violation``.
    - **drop**: a seat whose connection dropped has ``connect_s`` to come back, else
      ``disconnected``; its move clock does not end the game meanwhile (the drop's rule does).
    """

    def __init__(self, hall: Hall, room: Room, order: GameOrder) -> None:
        self.hall = hall
        self.room = room
        self.order = order
        self.deadlines = order.deadlines
        self._clock = hall.clock
        self._done: asyncio.Future[None] | None = None
        self._logins = dict(enumerate(order.seats))
        self._arrived: set[Seat] = set()
        self._forfeited: set[Seat] = set()
        self._moving = False  # every seat has been taken once: move clocks and game timers run
        self._clocks: dict[Seat, _Clock] = {}
        self._away: dict[Seat, Cancellable] = {}
        self._strikes: dict[Seat, int] = {}
        self._errors: dict[Seat, int] = {}
        self._notes: list[tuple[Seat, dict[str, JSON]]] = []
        self._review_due = False
        self._connect: Cancellable | None = None

    async def start(self) -> None:
        """Referee the room until it closes."""
        self._done = asyncio.get_running_loop().create_future()
        self.room.referee = self
        self._connect = self._clock.call_later(self.deadlines.connect_s, self._connect_over)
        self._review()
        await self._done

    # ---------------------------------------------------------------- told by the room

    def after_input(self, kind: str, seat: Seat | None) -> None:
        if kind == "act" and seat is not None and self._answered(seat):
            self._answer(seat)
        self._review_soon()

    def _held_turn(self) -> HeldTurn | None:
        state = self.room.state
        return state if isinstance(state, HeldTurn) else None

    def _answered(self, seat: Seat) -> bool:
        """Whether an accepted action of ``seat`` answers its clock: any action, except in a
        held turn, where only a move standing in the clock's turn does (an empty submission
        is accepted but answers nothing). An action that closed the clock's turn answered it."""
        held = self._held_turn()
        if held is None:
            return True
        clock = self._clocks.get(seat)
        return held.moved_this_turn(seat) or (clock is not None and clock.turn != held.turn)

    def _answer(self, seat: Seat) -> None:
        """Stop ``seat``'s running clock; an answer after ``soft_s`` is a strike. Outside held
        turns the clock is dropped (the seat's next decision gets a fresh one); in a held turn
        it stays, stopped, so :meth:`_sync_clocks` knows the seat has answered this turn."""
        clock = self._clocks.get(seat)
        if clock is None or clock.hard is None:
            return
        clock.hard.cancel()
        clock.hard = None
        if self._clock.now() - clock.since > self.deadlines.soft_s:
            self._strikes[seat] = self._strikes.get(seat, 0) + 1
            self._notes.append((seat, {"contest": NOTE_SOFT_TIMEOUT}))
        if clock.turn is None:
            del self._clocks[seat]

    def refused(self, seat: Seat, code: str) -> None:
        self._errors[seat] = self._errors.get(seat, 0) + 1
        self._notes.append((seat, {"contest": NOTE_ERROR, "code": code}))
        self._review_soon()

    def changed(self) -> None:
        self._review_soon()

    def closed(self) -> None:
        for clock in self._clocks.values():
            if clock.hard is not None:
                clock.hard.cancel()
        self._clocks.clear()
        for handle in self._away.values():
            handle.cancel()
        self._away.clear()
        if self._connect is not None:
            self._connect.cancel()
        if self._done is not None and not self._done.done():
            self._done.set_result(None)

    # ---------------------------------------------------------------- deciding

    def _review_soon(self) -> None:
        if not self._review_due:
            self._review_due = True
            self._clock.call_later(0.0, self._review)

    def _review(self) -> None:
        """Log the pending notes, apply the limits, follow presence, resync the move clocks."""
        self._review_due = False
        room = self.room
        if room.closed:
            return
        notes, self._notes = self._notes, []
        for seat, data in notes:
            room.note(seat, data)
        for seat, count in self._strikes.items():
            if count >= self.deadlines.soft_strikes:
                self._forfeit(seat, ForfeitReason.SOFT_TIMEOUT, "Too many late moves.")
        for seat, count in self._errors.items():
            if count >= self.deadlines.max_errors:
                self._forfeit(seat, ForfeitReason.RULE_VIOLATION, "Too many refused moves.")
        if room.closed:
            return
        self._follow_presence()
        if not self._moving and self._arrived | self._forfeited >= set(self._logins):
            self._moving = True
            room.release_timers()
        if self._moving:
            self._sync_clocks()
        self._end_if_nobody_plays()

    def _follow_presence(self) -> None:
        for seat, login in self._logins.items():
            if seat in self._forfeited:
                continue
            member = self.room.member(login)
            if member is None or member.seat != seat:  # released by the game itself
                self._forfeited.add(seat)
                self._stop_clock(seat)
                continue
            here = member.listener is not None and member.status is SeatStatus.PLAYING
            if here:
                self._arrived.add(seat)
                handle = self._away.pop(seat, None)
                if handle is not None:
                    handle.cancel()
            elif seat in self._arrived and seat not in self._away:
                self._away[seat] = self._clock.call_later(
                    self.deadlines.connect_s, self._after(self._away_over, seat)
                )

    def _sync_clocks(self) -> None:
        """Give every seat that owes a decision a clock, and no other seat one (class
        docstring: a new kind of decision, or a new held turn, is a new clock)."""
        to_move = self.room.state.to_move()
        held = self._held_turn()
        turn = held.turn if held is not None else None
        now = self._clock.now()
        for seat in self._logins:
            moved = held is not None and held.moved_this_turn(seat)
            # A seat that moved in a held turn keeps its (stopped) clock even where to_move
            # drops it (duplicate): a withdrawn move must not come back to a fresh window.
            if seat in self._forfeited or not (moved or seat in to_move.seats):
                self._stop_clock(seat)
                continue
            clock = self._clocks.get(seat)
            if clock is None or clock.kind != to_move.kind or clock.turn != turn:
                self._stop_clock(seat)
                clock = self._clocks[seat] = _Clock(to_move.kind, turn, now, None)
            if moved:
                self._answer(seat)
            elif clock.hard is None:  # a new clock, or a held-turn move withdrawn: it runs on
                left = max(0.0, self.deadlines.hard_s - (now - clock.since))
                clock.hard = self._clock.call_later(left, self._after(self._hard_over, seat))

    @staticmethod
    def _after(call: Callable[[Seat], None], seat: Seat) -> Callable[[], None]:
        return lambda: call(seat)

    def _stop_clock(self, seat: Seat) -> None:
        clock = self._clocks.pop(seat, None)
        if clock is not None and clock.hard is not None:
            clock.hard.cancel()

    def abandon(self) -> None:
        """Close the room now as ``aborted`` (the runner stopped waiting for it)."""
        room = self.room
        if not room.closed:
            result = abandoned_to_bots_result(self._logins, room.forfeits)
            room.close(CloseReason.ABORTED, "aborted", result=result)

    def _end_if_nobody_plays(self) -> None:
        """A game every entrant forfeited has nobody left to end it (some games play on with
        empty seats): close it as aborted, every seat with its typed forfeit."""
        room = self.room
        if room.closed or not self._forfeited >= set(self._logins):
            return
        result = abandoned_to_bots_result(self._logins, room.forfeits)
        room.close(CloseReason.ABORTED, "aborted", result=result)

    # ---------------------------------------------------------------- the limits

    def _connect_over(self) -> None:
        self._connect = None
        absent = [seat for seat in self._logins if seat not in self._arrived]
        self._forfeit_all(absent, ForfeitReason.DISCONNECTED, "You did not take your seat in time.")
        self._review()

    def _away_over(self, seat: Seat) -> None:
        self._away.pop(seat, None)
        member = self.room.member(self._logins[seat])
        if member is not None and member.status is SeatStatus.AWAY:
            self._forfeit(seat, ForfeitReason.DISCONNECTED, "You did not come back in time.")
            self._review()

    def _hard_over(self, seat: Seat) -> None:
        self._clocks.pop(seat, None)
        member = self.room.member(self._logins[seat])
        if member is None or member.status is SeatStatus.AWAY:
            return  # a dropped seat: the drop's own deadline decides
        self._forfeit(seat, ForfeitReason.TIMEOUT, "No move before the hard deadline.")
        self._review()

    def forfeit_soon(self, login: str, reason: ForfeitReason, text: str) -> None:
        """The runner's forfeit (a killed process), applied on the next loop turn."""
        seat = next((s for s, name in self._logins.items() if name.lower() == login.lower()), None)
        if seat is None:
            return

        def now() -> None:
            self._forfeit(seat, reason, text)
            self._review()

        self._clock.call_later(0.0, now)

    def _forfeit(self, seat: Seat, reason: ForfeitReason, text: str) -> None:
        self._forfeit_all([seat], reason, text)

    def _forfeit_all(self, seats: list[Seat], reason: ForfeitReason, text: str) -> None:
        """End these seats' game at once (see :meth:`Room.forfeit`)."""
        seats = [seat for seat in seats if seat not in self._forfeited]
        if not seats or self.room.closed:
            return
        for seat in seats:
            self._forfeited.add(seat)
            self._stop_clock(seat)
        logins = [self._logins[seat] for seat in seats]
        order = self.order
        log.info("contest %s game %d: %s forfeit (%s)", order.contest_id, order.number, logins, reason.value)
        self.room.forfeit(logins, reason, text)


# ------------------------------------------------------------------------------ reports


def report_of(record: RoomRecord, order: GameOrder) -> GameReport:
    """The report of a contest game from its stored record alone: the stored result's scores
    and typed seat ends, the forfeit reasons of the log's ``leave`` entries for seats the
    result does not type, the ``note`` entries' soft-timeout and error counts. Ranks: seats
    that did not forfeit by score, best first (ties share a rank); every forfeited seat
    shares the rank after them. ``contest replay`` calls this to check ``play``'s report."""
    result: dict[str, JSON] = record.result if isinstance(record.result, dict) else {}
    stored_ends = _object(result.get("seats"))
    scores = _object(result.get("scores"))
    termination = str(result.get("termination", "unfinished"))
    logged = _logged_forfeits(record)
    soft, errors = _counted_notes(record)
    ends: dict[Seat, SeatEnd] = {}
    for seat in range(len(order.seats)):
        end = _seat_end(stored_ends.get(str(seat)))
        if end is None:
            reason = logged.get(seat)
            normal = SeatResult.NORMAL if termination not in ("aborted", "unfinished") else SeatResult.ABORTED
            end = SeatEnd(SeatResult.FORFEIT, reason) if reason is not None else SeatEnd(normal)
        ends[seat] = end
    points = {seat: _number(scores.get(str(seat))) for seat in ends}
    ranks = _ranks(points, {seat for seat, end in ends.items() if end.result is SeatResult.FORFEIT})
    seats = tuple(
        SeatReport(
            login=login,
            entrant=order.entrants.get(login, login),
            end=ends[seat],
            score=points[seat],
            rank=ranks[seat],
            soft_timeouts=soft.get(seat, 0),
            errors=errors.get(seat, 0),
        )
        for seat, login in enumerate(order.seats)
    )
    raw_winners = result.get("winners")
    winners = raw_winners if isinstance(raw_winners, list) else []
    extra: dict[str, JSON] = {
        "winners": [order.seats[w] for w in winners if isinstance(w, int) and 0 <= w < len(order.seats)]
    }
    return GameReport(order=order, room_id=record.room_id, termination=termination, seats=seats, extra=extra)


def _object(value: JSON) -> dict[str, JSON]:
    return value if isinstance(value, dict) else {}


def _seat_end(raw: JSON) -> SeatEnd | None:
    if not isinstance(raw, dict):
        return None
    try:
        result = SeatResult(raw.get("result"))
        reason = ForfeitReason(raw["reason"]) if raw.get("reason") else None
    except ValueError:
        return None
    return SeatEnd(result, reason)


def _logged_forfeits(record: RoomRecord) -> dict[Seat, ForfeitReason]:
    out: dict[Seat, ForfeitReason] = {}
    for entry in record.entries:
        data = entry.data
        if entry.kind == "leave" and entry.seat is not None and isinstance(data, dict):
            try:
                out.setdefault(entry.seat, ForfeitReason(data.get("reason")))
            except ValueError:
                continue
    return out


def _counted_notes(record: RoomRecord) -> tuple[dict[Seat, int], dict[Seat, int]]:
    soft: dict[Seat, int] = {}
    errors: dict[Seat, int] = {}
    for entry in record.entries:
        if entry.kind != "note" or entry.seat is None or not isinstance(entry.data, dict):
            continue
        which = entry.data.get("contest")
        target = soft if which == NOTE_SOFT_TIMEOUT else errors if which == NOTE_ERROR else None
        if target is not None:
            target[entry.seat] = target.get(entry.seat, 0) + 1
    return soft, errors


def _number(value: JSON) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def _ranks(points: Mapping[Seat, float], forfeited: set[Seat]) -> dict[Seat, int]:
    """1 = best; equal points share a rank; forfeited seats share the rank after the rest."""
    playing = sorted((s for s in points if s not in forfeited), key=lambda s: -points[s])
    ranks: dict[Seat, int] = {}
    for index, seat in enumerate(playing):
        previous = playing[index - 1] if index else None
        same = previous is not None and points[previous] == points[seat]
        ranks[seat] = ranks[previous] if same and previous is not None else index + 1
    for seat in forfeited:
        ranks[seat] = len(playing) + 1
    return ranks


__all__ = ["HallSide", "Referee", "contest_hall", "report_of", "room_title"]

"""Crash recovery and seat ownership rules of the hall (docs/recovery.md is the reference).

A restart must be invisible to a game. After :meth:`gamehall.hall.room.Room.replay` rebuilt a
room from its log, the hall:

- holds every seat of a running game for its grace, and at least :data:`RESTART_HOLD_MIN_S`
  (the connection was lost by the server, not by the player: even a room whose grace is 0,
  where a drop is a forfeit, does not forfeit anybody because the server died);
- re-attaches the room's in-hall bots to the seats they held (the room's meta records them,
  see :func:`bot_seats`), so they play on at once;
- re-arms every game timer with the time it had left. The log knows when each timer was
  armed (the wall time of the entry after which it first appeared, :class:`TimerArming`), so
  its deadline survives the restart. A timer that would have fired during the outage fires
  :data:`RESTART_GRACE_S` after the restart, not at once: players reconnecting get a moment
  to act before a default move is made for them.

A seat whose player does not come back within the grace is either taken over by an in-hall
bot (the room's ``bot_takeover`` meta, on by default outside tournament mode) or released; in
both cases the room's result records that seat as ``forfeit`` with reason ``disconnected``
(:mod:`gamehall.hall.results`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from gamehall.protocols._core import HallError, HeldSeat
from gamehall.rules._core import JSON, Action, ForfeitReason, Seat, Timer

if TYPE_CHECKING:
    from gamehall.hall.hall import Hall, User
    from gamehall.hall.room import Room
    from gamehall.store.base import RoomRecord

log = logging.getLogger(__name__)

RESTART_GRACE_S = 10.0
"""After a restart no game timer fires sooner than this: a timer that fell due during the
outage (or is due within this time) fires this long after the restart."""

RESTART_HOLD_MIN_S = 60.0
"""After a restart every seat of a running game is held at least this long, whatever the
room's grace (a restart is not a drop)."""


TAKEOVER_POLICY = "heuristic"
"""The policy of a bot taking over a seat whose player did not come back: the stronger one
every game has, so the other players keep a fair opponent."""


class TimerArming:
    """Follows a replayed log to learn when each pending timer was armed.

    A timer is armed right after the input whose change made it appear in the engine's
    ``pending_timers()`` (a new key means a new timer), and the hall stamps every log entry
    with the wall time it was accepted. So ``armed_at + seconds`` is the timer's deadline,
    derived from the log alone: nothing extra needs storing, and a log written before this
    existed recovers the same way.
    """

    def __init__(self, created_at: float) -> None:
        self._armed: dict[str, float] = {}
        self._created_at = created_at

    def observe(self, pending: Sequence[Timer], at: float) -> None:
        """After one replayed entry stamped ``at``: note the timers that are new now."""
        keys = {timer.key for timer in pending}
        self._armed = {key: self._armed.get(key, at) for key in keys}

    def deadlines(self, pending: Sequence[Timer]) -> dict[str, float]:
        """Each pending timer's wall-clock deadline."""
        return {t.key: self._armed.get(t.key, self._created_at) + t.seconds for t in pending}


def remaining_after_restart(deadline: float, now: float) -> float:
    """Seconds a restored timer still runs: what it had left, but at least the restart grace."""
    return max(deadline - now, RESTART_GRACE_S)


# ------------------------------------------------------------------------------ bot seats


def bot_seats(meta: Mapping[str, JSON]) -> dict[Seat, tuple[str, str]]:
    """The seats in-hall bots play, from a room's meta: ``{seat: (name, policy)}``.

    Stored as ``meta["bots"] = {"2": {"name": "Bot7", "policy": "random"}, ...}``, written when
    a bot takes a seat (seated on request, or taking over a seat whose player did not come
    back) so that a restart can seat the same bots again.
    """
    raw = meta.get("bots")
    out: dict[Seat, tuple[str, str]] = {}
    if isinstance(raw, dict):
        for seat, entry in raw.items():
            if isinstance(entry, dict) and str(seat).isdigit():
                out[int(seat)] = (str(entry.get("name", "")), str(entry.get("policy", "random")))
    return out


def forfeits_from_meta(meta: Mapping[str, JSON]) -> dict[Seat, ForfeitReason]:
    """The seats that forfeited during the game so far (``meta["forfeits"]``)."""
    raw = meta.get("forfeits")
    out: dict[Seat, ForfeitReason] = {}
    if isinstance(raw, dict):
        for seat, reason in raw.items():
            if str(seat).isdigit() and reason in {r.value for r in ForfeitReason}:
                out[int(seat)] = ForfeitReason(reason)
    return out


class BotSeat:
    """The handle an in-hall bot plays one held seat through, in place of a login session.

    Used when a bot plays a seat that is not its own user's: a human's seat it took over, or
    (after a restart) the seat of a bot whose process-local user is gone. It acts under the
    seat's member name, so the engine, the room log and every other player see the seat's
    moves exactly as before; no hall user is created, so the name is not blocked hall-wide.
    Shaped like the part of :class:`gamehall.hall.hall.Session` that a bot uses.
    """

    def __init__(self, hall: Hall, room_id: str, member_name: str) -> None:
        self._hall = hall
        self.room_id = room_id
        self._name = member_name

    @property
    def name(self) -> str:
        return self._name

    def room(self, room_id: str) -> Room:
        return self._hall.room(room_id)

    def seat_in(self, room_id: str) -> Seat | None:
        room = self._hall.directory.get(room_id)
        member = room.member(self._name) if room is not None else None
        return member.seat if member is not None and member.bot is not None else None

    def act(self, room_id: str, action: Action) -> None:
        room = self._hall.room(room_id)
        member = room.member(self._name)
        if member is None or member.bot is None:
            raise HallError("not_in_room", "This bot no longer plays a seat here.")
        room.act(self._name, action)

    def logout(self, *, dropped: bool) -> None:
        """Nothing to end: the seat's place in the room ends with the room."""


# ------------------------------------------------------------------------------ restore


def restore_rooms(hall: Hall) -> int:
    """Rebuild every unfinished room of ``hall``'s store (see the module docstring). A room
    whose game this hall does not serve, or whose log cannot be replayed, stays in the store
    untouched (and is logged). Returns how many rooms came back."""
    return sum(restore_record(hall, record) is not None for record in hall.store.unfinished_rooms())


def restore_record(hall: Hall, record: RoomRecord) -> Room | None:
    """:func:`restore_room`, or ``None`` (logged) when ``hall`` does not serve the room's game
    or its log cannot be replayed: the room stays in the store untouched. Used at a restart
    and when a node adopts a room whose owner died (:mod:`gamehall.cluster.adoption`)."""
    if record.game not in hall.game_types:
        log.warning("room %s: game %s is not served; left in the store", record.room_id, record.game)
        return None
    try:
        room = restore_room(hall, record)
    except Exception:
        log.exception("room %s: could not be rebuilt from its log; left in the store", record.room_id)
        return None
    log.info("room %s (%s) rebuilt from %d log entries", room.room_id, record.game, len(record.entries))
    return room


def restore_room(hall: Hall, record: RoomRecord) -> Room:
    """One room back: replayed, its human seats held for their owners (token digest and
    protocol from the meta), its bots seated again, its timers re-armed."""
    room = hall.add_restored_room(record)
    bots = bot_seats(record.meta)
    for seat, seat_name in room.state.seat_names().items():
        if seat in bots and bots[seat][0].lower() == seat_name.lower():
            continue  # a bot plays it: seated again below, no user of its own
        hold_for_owner(hall, room, seat_name)
    room.resume_after_restart()
    for seat, (bot_name, policy) in sorted(bots.items()):
        member = room.member(bot_name)
        if not room.closed and member is not None and member.seat == seat:
            hall.drive_seat(room, bot_name, policy)
    if room.closed:
        hall.room_closed(room)
    elif hall.cross_node is not None:
        hall.cross_node.adopted_here(room)  # players here that sat at it through its old owner
    return room


# ------------------------------------------------------------------------------ owners


def hold_for_owner(hall: Hall, room: Room, name: str) -> None:
    """``name``'s seat in ``room`` waits for its owner, who has no connection to this hall (a
    restart, or the node they were connected through died): the hall holds the name for them
    with the token digest and protocol the room's meta recorded, so that only they retake it."""
    key = name.lower()
    tokens, owners = room.meta.get("tokens"), room.meta.get("owners")
    token_hash = tokens.get(key) if isinstance(tokens, dict) else None
    protocol = owners.get(key) if isinstance(owners, dict) else None
    hall.restored_owner(
        name,
        room.room_id,
        token_hash if isinstance(token_hash, str) else None,
        protocol if isinstance(protocol, str) else None,
    )


def held_seats(hall: Hall, user: User, game: str | None) -> list[HeldSeat]:
    """The seats ``user`` holds in running rooms (of ``game`` if given), oldest room first:
    seats held for their grace (``away``) and seats attached to a live session. A seat a bot
    took over is no longer theirs and is not listed."""
    held: list[HeldSeat] = []
    for room_id in sorted(user.rooms):
        room = hall.room_if_any(room_id) if hall.cross_node is not None else hall.live_room(room_id)
        member = room.member(user.name) if room is not None else None
        if room is None or member is None or member.seat is None or member.bot is not None:
            continue
        if game is None or room.game_type.game_id == game:
            away = member.seat in room.info().away  # a replica's: as its owner published them
            held.append(HeldSeat(room_id, room.game_type.game_id, member.seat, away, room.created_seq))
    return sorted(held, key=lambda h: h.created_seq)


def retake_seat(hall: Hall, user: User, room_id: str) -> Room:
    """The room where ``user`` may take a held seat back.

    Raises:
        HallError: ``no_such_room``; ``not_in_room`` when ``user`` holds no seat there (never
            had one, released, or taken over by a bot).
    """
    room = hall.room(room_id)
    member = room.member(user.name)
    if room_id not in user.rooms or member is None or member.seat is None or member.bot is not None:
        raise HallError("not_in_room", "You hold no seat in this room.")
    return room

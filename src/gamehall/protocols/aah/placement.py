"""Where a legacy ``JOIN`` sits down, and what ``META`` says about that table (section 3.5, 3.2).

One server hosts several AAH tables on the one legacy port. A legacy client cannot choose a
table, so the server places it, in this order:

1. **rejoin**: a seat held (away) for this nick, ignoring case, in any AAH table, even one in
   game. Legacy AAH has no authentication: whoever knows the nick gets the seat back
   (documented limitation, 6.3);
2. a nick seated anywhere else (present, or held outside AAH) is refused "Nickname in use.";
3. the first *open* AAH table in creation order: lobby (not started), a free seat, flagged
   ``legacy_open`` (in its config, or ``extra.legacy_open`` from the web client) and without a
   password (the legacy client cannot send one);
4. otherwise a new table with the hall's defaults, unless ``max_tables`` AAH tables exist:
   refused "No open table; try again later.".

The functions here only read the hall or act through the user's own :class:`Session`, so they
stay inside the protocol layer's contract. They read the hall's indexes
(:meth:`HallPort.seats_of`, :meth:`HallPort.rooms_matching` with :func:`is_open` as the
placement rule, :meth:`HallPort.room_count`), never a list of every room: a join costs the
same with 10 tables or 3,000.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from typing import Final

from gamehall.protocols._core import HallError, HallPort, RoomInfo, Session
from gamehall.protocols.aah import texts
from gamehall.protocols.aah.meta import PROTOCOL_VERSION, ServerMeta
from gamehall.rules._core import JSON, RuleError, Seat

log = logging.getLogger(__name__)

GAME: Final = "aah"

DEFAULT_MAX_TABLES: Final = 16


class Refused(Exception):
    """The join cannot be placed; ``reason`` is the exact ``REFU`` text."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _same_nick(a: str, b: str) -> bool:
    return a.casefold() == b.casefold()


def _flag(config: Mapping[str, JSON], key: str) -> bool:
    return config.get(key) is not False


def is_open(info: RoomInfo) -> bool:
    """Whether a legacy ``JOIN`` may take a fresh seat at this table (3.5)."""
    return (
        info.game == GAME
        and not info.started
        and not info.finished
        and len(info.seats) < info.max_seats
        and not info.has_password
        and _flag(info.config, "legacy_open")
        and _flag(info.extra, "legacy_open")
    )


def held_table(hall: HallPort, nick: str) -> RoomInfo | None:
    """The AAH table holding a seat (away) for ``nick``, ignoring case, if any."""
    for info in hall.seats_of(nick):
        if info.game != GAME:
            continue
        for seat, name in info.seats.items():
            if seat in info.away and _same_nick(name, nick) and not info.finished:
                return info
    return None


def seated_elsewhere(hall: HallPort, nick: str) -> bool:
    """Whether ``nick`` holds a seat that a legacy join may not take back: a present seat in
    any room, or any seat outside AAH (3.5 step 2)."""
    for info in hall.seats_of(nick):
        for seat, name in info.seats.items():
            if _same_nick(name, nick) and (info.game != GAME or seat not in info.away):
                return True
    return False


def open_tables(hall: HallPort) -> Iterator[RoomInfo]:
    """The open AAH tables, first created first (lazily, from the hall's index)."""
    return hall.rooms_matching(GAME, is_open)


def landing_table(hall: HallPort, nick: str | None = None) -> RoomInfo | None:
    """The table a ``JOIN`` (of ``nick``, if known) would land at now; ``None`` when it would
    create a new one (or be refused)."""
    if nick is not None:
        held = held_table(hall, nick)
        if held is not None:
            return held
    return next(open_tables(hall), None)


def describe(
    info: RoomInfo | None, defaults: Mapping[str, JSON], version: int = PROTOCOL_VERSION
) -> ServerMeta:
    """The server ``META`` for a table, or for a table not created yet (the defaults, 0
    players), as the last paragraph of 3.2 asks."""
    config = info.config if info is not None else defaults
    return ServerMeta(
        version=version,
        playermax=_int(config, "playermax", 5),
        players=len(info.seats) if info is not None else 0,
        ruleset=str(config.get("ruleset", "Standard")),
        aplimit=_int(config, "aplimit", 8),
        timeout=_int(config, "timeout", 30),
    )


def _int(config: Mapping[str, JSON], key: str, default: int) -> int:
    value = config.get(key, default)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def place(hall: HallPort, session: Session) -> tuple[str, Seat]:
    """Seat the logged-in legacy user (see the module docstring). Returns ``(room_id, seat)``.

    The room delivers the join's own events to the session's listener while this runs.

    Raises:
        Refused: "No open table; try again later." (``max_tables`` reached, or the hall would
            not create a table).
    """
    for room_id in session.my_rooms():
        info = session.room(room_id).info()
        seat = session.seat_in(room_id)
        if info.game == GAME and seat is not None and seat in info.away and not info.finished:
            return room_id, session.join(room_id)
    for info in open_tables(hall):
        try:
            return info.room_id, session.join(info.room_id)
        except (HallError, RuleError) as exc:  # filled up or started meanwhile: try the next one
            log.debug("AAH placement: table %s refused %s: %s", info.room_id, session.name, exc)
    defaults = hall.game_defaults(GAME)
    if hall.room_count(GAME) >= _int(defaults, "max_tables", DEFAULT_MAX_TABLES):
        raise Refused(texts.NO_OPEN_TABLE)
    try:
        created = session.create_room(GAME)
        return created.room_id, session.join(created.room_id)
    except (HallError, RuleError) as exc:
        log.warning("AAH placement: no table could be created for %s: %s", session.name, exc)
        raise Refused(texts.NO_OPEN_TABLE) from None


__all__ = [
    "Refused",
    "describe",
    "held_table",
    "is_open",
    "landing_table",
    "open_tables",
    "place",
    "seated_elsewhere",
]

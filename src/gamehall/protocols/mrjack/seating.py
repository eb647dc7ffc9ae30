"""Where ``init(Spieler)`` sits down, where ``init(zuschauer)`` watches, and who ``ison``
lists (note 5, 4.1).

One server hosts several Mr. Jack games on the one port. Legacy seating (**Decision (ours)**,
note 5): ``init(R)`` takes seat ``R`` in the *first game, in creation order, that has not
started and still has ``R`` free* (games created from the browser included, unless they have a
password the legacy client cannot send); with none, a new game with the hall's defaults is
created, unless ``max_games`` games exist. ``init(zuschauer)`` watches the oldest game.

Both look-ups read the hall's indexes (:meth:`HallPort.rooms_matching` with
:func:`is_waiting` or :func:`is_watchable` as the rule, :meth:`HallPort.room_count`), never a
list of every game: a seat costs the same with 10 games running or 1,000. Whether the wanted
role is free is the game's own knowledge (a seat is not a role: the first player gets
``mrjack`` and may switch), so it is asked of the waiting games only, first created first; the
first one usually has it.

``ison`` lists every nick logged in over this protocol, in login order. The hall keeps no such
list, so :class:`Roster` keeps one per server (the seed's server hosted Mr. Jack only), in the
:class:`MrJackServices` every connection of that server shares.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Final

from gamehall.protocols._core import Clock, HallError, HallPort, RoomInfo, Session, served_here
from gamehall.protocols._spec import ServerResources
from gamehall.rules._core import JSON, ConfigError, RuleError, Seat
from gamehall.rules.mrjack.actions import Init

log = logging.getLogger(__name__)

GAME: Final = "mrjack"

DEFAULT_MAX_GAMES: Final = 50
"""``max_games`` (note 11, server options) when the hall's defaults do not name it."""


class NoSeat(Exception):
    """``init(R)`` found no game with ``R`` free and may not create one."""


class Roster:
    """The nicks logged in over this protocol on one server, in login order."""

    def __init__(self) -> None:
        self._nicks: dict[str, str] = {}  # lower-case -> as written, insertion = login order

    def add(self, nick: str) -> None:
        self._nicks[nick.lower()] = nick

    def remove(self, nick: str) -> None:
        self._nicks.pop(nick.lower(), None)

    def nicks(self) -> list[str]:
        return list(self._nicks.values())


@dataclass(frozen=True, slots=True)
class MrJackServices:
    """What the Mr. Jack connections of one server share: the hall, the clock, the roster."""

    hall: HallPort
    clock: Clock
    roster: Roster = field(default_factory=Roster)

    @classmethod
    def of(cls, resources: ServerResources) -> MrJackServices:
        return cls(resources.hall, resources.clock)


def server_option(hall: HallPort, key: str, default: JSON) -> JSON:
    """A server option of this protocol (``wire_style``, ``max_games``; note 11) from the hall's
    Mr. Jack defaults (``[games.mrjack]``, ``--set mrjack.KEY=VALUE``), or ``default`` while the
    game's settings do not carry it."""
    try:
        defaults: Mapping[str, JSON] = hall.game_defaults(GAME)
    except (HallError, ConfigError) as exc:
        log.warning("mrjack: no defaults from the hall (%s); %s=%r", exc, key, default)
        return default
    return defaults.get(key, default)


def max_games(hall: HallPort) -> int:
    value = server_option(hall, "max_games", DEFAULT_MAX_GAMES)
    return value if isinstance(value, int) and not isinstance(value, bool) else DEFAULT_MAX_GAMES


def _free_roles(session: Session, info: RoomInfo) -> list[str]:
    if not served_here(session, info.room_id):
        return []  # listed, but another node of the hall holds the game
    view = session.room(info.room_id).game.view(None)
    roles = view.get("roles", {})
    return [role for role, seat in roles.items() if seat is None] if isinstance(roles, dict) else []


def is_waiting(info: RoomInfo) -> bool:
    """The placement rule of ``init(R)``: a Mr. Jack game that has not started, has a seat free
    and no password (the legacy client cannot send one)."""
    return (
        info.game == GAME
        and not info.started
        and not info.finished
        and not info.has_password
        and len(info.seats) < info.max_seats
    )


def is_watchable(info: RoomInfo) -> bool:
    """The rule of ``init(zuschauer)``: a Mr. Jack game not finished and without a password."""
    return info.game == GAME and not info.finished and not info.has_password


def waiting_games(hall: HallPort, session: Session, role: str) -> Iterator[RoomInfo]:
    """Games a legacy ``init(role)`` may join, first created first (lazily, from the index)."""
    for info in hall.rooms_matching(GAME, is_waiting):
        if role in _free_roles(session, info):
            yield info


def seat(hall: HallPort, session: Session, role: str, max_games: int) -> tuple[str, Seat]:
    """Seat the user as ``role`` (see the module docstring). Returns ``(room_id, seat)``.

    The room delivers the join's events to the session's listener while this runs.

    Raises:
        NoSeat: no waiting game has ``role`` free and ``max_games`` games exist.
    """
    for info in waiting_games(hall, session, role):
        try:
            return info.room_id, _take(session, info.room_id, role)
        except (HallError, RuleError) as exc:  # taken meanwhile: try the next one
            log.debug("mrjack seating: %s refused %s: %s", info.room_id, session.name, exc)
    if hall.room_count(GAME) >= max_games:
        raise NoSeat(role)
    created = session.create_room(GAME)
    return created.room_id, _take(session, created.room_id, role)


def _take(session: Session, room_id: str, role: str) -> Seat:
    """Join, then switch to ``role`` if the game handed out the other one (an empty table gives
    ``mrjack`` first). A failed switch gives the seat back."""
    seat_number = session.join(room_id)
    view = session.room(room_id).game.view(seat_number)
    if view.get("you") != role:
        try:
            session.act(room_id, Init(role))
        except (HallError, RuleError):
            session.leave(room_id)
            raise
    return seat_number


def oldest_game(hall: HallPort, session: Session) -> RoomInfo | None:
    """The game ``init(zuschauer)`` watches: the oldest one without a password, running or
    waiting (the first of the index that ``session`` can reach: :func:`served_here`)."""
    return next((i for i in hall.rooms_matching(GAME, is_watchable) if served_here(session, i.room_id)), None)


def held_game(session: Session) -> tuple[str, str] | None:
    """A running game holding a seat (away) for this user: ``(room_id, role)``."""
    for room_id in session.my_rooms():
        room = session.room(room_id)
        info = room.info()
        seat_number = session.seat_in(room_id)
        if info.game == GAME and seat_number is not None and seat_number in info.away and not info.finished:
            role = room.game.view(seat_number).get("you")
            return room_id, str(role)
    return None


__all__ = [
    "DEFAULT_MAX_GAMES",
    "GAME",
    "MrJackServices",
    "NoSeat",
    "Roster",
    "held_game",
    "is_waiting",
    "is_watchable",
    "max_games",
    "oldest_game",
    "seat",
    "server_option",
    "waiting_games",
]

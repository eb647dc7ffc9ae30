"""The JDuplicate hall of one gamehall: its users and its games (note §1, §4).

JDuplicate has a hall of its own on top of gamehall's: the logged-in users (SERVERUSERLIST),
those not in a game (HALLUSERLIST), and the games by name (SERVERGAMELIST, GAMEINFOS). A game
is a hall room of game ``words``; the hall forgets the room when its game ends, but JDuplicate
keeps a GAMEOVER game listed until its last player leaves (§4.1), so the games live here, one
:class:`JdLobby` per server, shared by every JDuplicate connection of that server through its
:class:`JdServices`.

Connections reach each other through :class:`Member` (the dialogue): hall chat actions, the
GAMEINFOS broadcasts, kicks and the chat of a finished game whose room is gone.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Final, Protocol

from gamehall.protocols._core import Clock, HallError, HallPort, Session
from gamehall.protocols._spec import ServerResources
from gamehall.protocols.jduplicate import messages as m
from gamehall.protocols.jduplicate.table import WordsPort
from gamehall.rules._core import JSON, ConfigError

MAX_GAMES: Final = 100
MAX_USERS: Final = 500
MIN_TIME_PER_TURN: Final = 30
MAX_TIME_PER_TURN: Final = 600
SERVER_NAME: Final = "gamehall"
WELCOME_TEXT: Final = "Welcome to gamehall!"


class Member(Protocol):
    """A logged-in JDuplicate connection, as the others reach it."""

    @property
    def user_name(self) -> str: ...

    @property
    def game(self) -> JdGame | None: ...

    @property
    def session(self) -> Session | None: ...

    def send(self, message: m.ServerMessage) -> None: ...

    def kicked_out(self, game: JdGame, kicker: str, reason: str) -> None: ...


@dataclass(frozen=True, slots=True)
class Departure:
    """How a player is leaving, so every member words the engine's SeatLeft alike."""

    reason: str
    kicker: str | None = None


@dataclass(eq=False, slots=True)
class JdGame:
    """One game as JDuplicate lists it (GAMEINFOS fields, note §6)."""

    name: str
    room_id: str
    preset: str
    timeperturn: int
    maxplayers: int
    description: str
    table: WordsPort
    """The room's game, read only (kept after the hall let the room go)."""
    members: list[Member] = field(default_factory=list)
    """The JDuplicate connections playing in this game, in join order."""
    kicked: set[str] = field(default_factory=set)
    """Casefolded names kicked from this game (they may not rejoin: 40007)."""
    departing: dict[str, Departure] = field(default_factory=dict)
    room_open: bool = True
    gameinfos_pending: bool = False
    foreign: bool = False
    """Opened in the hall by another protocol (the browser) and listed here so that
    JDuplicate clients can join it; forgotten once its room is gone and no one is in it."""

    @property
    def rules(self) -> m.Rules:
        return m.Rules(self.table.rules.mode)

    @property
    def state(self) -> m.GameState:
        if self.table.finished:
            return m.GameState.GAMEOVER
        return m.GameState.INGAME if self.table.started else m.GameState.WAITING

    def players(self) -> tuple[str, ...]:
        """Players in join order, case kept: the room's seats, or once the room is gone (game
        over) the connections still in the game."""
        if self.room_open:
            names: Mapping[int, str] = self.table.seat_names()
            return tuple(names.values())
        return tuple(member.user_name for member in self.members)

    def operator(self) -> str:
        """The player who joined earliest (note §1: the creator, then the next oldest)."""
        players = self.players()
        return players[0] if players else ""

    def has_player(self, name: str) -> bool:
        return any(p.casefold() == name.casefold() for p in self.players())

    def everyone_inside(self) -> list[Member]:
        """The JDuplicate connections playing in the game, in join order."""
        return list(self.members)


class JdLobby:
    """The JDuplicate users and games of one hall (see the module docstring)."""

    def __init__(self, hall: HallPort, clock: Clock) -> None:
        self.hall = hall
        self.clock = clock
        self.users: dict[str, Member] = {}
        """Logged-in users by casefolded name, in login order."""
        self.reserved: set[str] = set()
        """Casefolded names taken by PLAYERNAME while CLIENTTYPE is awaited."""
        self.games: dict[str, JdGame] = {}
        """Games by casefolded name, in creation order."""
        self.creation_date = datetime.datetime.now(datetime.UTC).date()

    # ---------------------------------------------------------------- users

    def user_names(self) -> tuple[str, ...]:
        return tuple(sorted((u.user_name for u in self.users.values()), key=str.casefold))

    def hall_user_names(self) -> tuple[str, ...]:
        return tuple(sorted((u.user_name for u in self.users.values() if u.game is None), key=str.casefold))

    def hall_users(self) -> Iterator[Member]:
        return (u for u in list(self.users.values()) if u.game is None)

    def everyone(self, *, but: Member | None = None) -> Iterator[Member]:
        return (u for u in list(self.users.values()) if u is not but)

    def send_all(self, message: m.ServerMessage, *, but: Member | None = None) -> None:
        for user in self.everyone(but=but):
            user.send(message)

    def send_hall(self, message: m.ServerMessage, *, but: Member | None = None) -> None:
        for user in list(self.hall_users()):
            if user is not but:
                user.send(message)

    def name_taken(self, name: str) -> bool:
        key = name.casefold()
        return key in self.users or key in self.reserved

    # ---------------------------------------------------------------- games

    def game(self, name: str) -> JdGame | None:
        return self.games.get(name.casefold())

    def game_infos(self, game: JdGame) -> m.GameInfos:
        """GAMEINFOS of ``game`` now (note §6 field notes)."""
        return m.GameInfos(
            name=game.name,
            operator=self.operator_of(game),
            timeperturn=game.timeperturn,
            timeleft=self.time_left(game),
            rules=game.rules,
            description=game.description,
            maxplayers=game.maxplayers,
            state=game.state,
            turn=game.table.turn,
            dictionary=game.table.rules.dictionary,
            players=game.players(),
        )

    def time_left(self, game: JdGame) -> int:
        """Seconds left in the running turn or its grace (0 otherwise). A timer the room has not
        armed yet (the turn opens in this very batch of events) counts in full."""
        if game.state is not m.GameState.INGAME or not game.room_open:
            return 0
        try:
            armed = dict(self._room_timers(game))
        except HallError:
            armed = {}
        left = [
            armed.get(timer.key, timer.seconds)
            for timer in game.table.pending_timers()
            if timer.key.startswith(("turn:", "grace:"))
        ]
        return round(max(left)) if left else 0

    def operator_of(self, game: JdGame) -> str:
        """The game's operator: the hall room's operator while the room lives (the hall decides
        who may start and kick, docs/text-rule.md), else the earliest player (note §1). Both
        follow the same rule; the hall's also passes a leaving operator's place to a human before
        one of the hall's bots."""
        if game.room_open:
            for member in game.members:
                if member.session is not None:
                    try:
                        operator = member.session.room(game.room_id).info().operator
                    except HallError:
                        break
                    if operator is not None and game.has_player(operator):
                        return next(p for p in game.players() if p.casefold() == operator.casefold())
                    break
        return game.operator()

    def _room_timers(self, game: JdGame) -> list[tuple[str, float]]:
        """The room's armed timers, through any member's session (the lobby has none)."""
        for member in game.members:
            if member.session is not None:
                return member.session.room(game.room_id).timers()
        return []

    def broadcast_gameinfos(self, game: JdGame, *, but: Member | None = None) -> None:
        if self.game(game.name) is game:
            self.send_all(self.game_infos(game), but=but)

    def gameinfos_soon(self, game: JdGame) -> None:
        """GAMEINFOS to everyone once the room's current batch of events is out (timer-driven
        changes: a turn opens, the game ends)."""
        if game.gameinfos_pending:
            return
        game.gameinfos_pending = True

        def flush() -> None:
            game.gameinfos_pending = False
            self.broadcast_gameinfos(game)

        self.clock.call_later(0, flush)

    def remove_if_empty(self, game: JdGame) -> bool:
        """Drop a game without players from the list (GAMEENDED to everyone). Returns whether
        it went."""
        if game.players() or self.game(game.name) is not game:
            return False
        del self.games[game.name.casefold()]
        self.send_all(m.GameEnded(game.name))
        return True


@dataclass(frozen=True, slots=True)
class JdServices:
    """What the JDuplicate connections of one server share: the hall, the clock, the lobby."""

    hall: HallPort
    clock: Clock
    lobby: JdLobby

    @classmethod
    def of(cls, resources: ServerResources) -> JdServices:
        return cls.for_hall(resources.hall, resources.clock)

    @classmethod
    def for_hall(cls, hall: HallPort, clock: Clock) -> JdServices:
        """Fresh services (an empty lobby) over ``hall``."""
        return cls(hall, clock, JdLobby(hall, clock))


def min_time_per_turn(hall: HallPort) -> int:
    """The shortest time per turn a client may ask for: 30 s (note §11), or the hall's own
    default ``time_per_turn`` when the operator set it lower (fast games for bots and tests).
    **Decision (ours).**"""
    try:
        defaults: Mapping[str, JSON] = hall.game_defaults("words")
    except (HallError, ConfigError):
        return MIN_TIME_PER_TURN
    value = defaults.get("time_per_turn")
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value < MIN_TIME_PER_TURN:
        return value
    return MIN_TIME_PER_TURN


__all__ = [
    "MAX_GAMES",
    "MAX_TIME_PER_TURN",
    "MAX_USERS",
    "MIN_TIME_PER_TURN",
    "SERVER_NAME",
    "WELCOME_TEXT",
    "Departure",
    "JdGame",
    "JdLobby",
    "JdServices",
    "Member",
    "min_time_per_turn",
]

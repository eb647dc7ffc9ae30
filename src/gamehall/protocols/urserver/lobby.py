"""The UrServer games of one server, by their wire names (note 4 and 5.1).

A game is created by ``NEU`` (name, password, timeout) and lives in a hall room of game
"ursuppe". The hall forgets a room once its game is over, but the UrServer keeps an ended game
listed (status 2) while any connection is still in it, for the chat after the end; and it
keeps a waiting game for 30 minutes after its last connection left. So the games are kept
here, one :class:`UrLobby` per server, shared by every UrServer connection of that server through
its :class:`UrServices`.

Player and spectator names are per game on the wire but unique per hall among users, so each
connection logs in under a hall name of its own (its wire name, or with a ``-n`` suffix; not
``~``, a JDuplicate separator that the hall's text rule refuses in names) and the game maps
hall names back to wire names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Protocol

from gamehall.protocols._core import Cancellable, Clock, HallError, HallPort
from gamehall.protocols._spec import ServerResources
from gamehall.protocols._text import one_token
from gamehall.protocols.urserver.table import ListedUrsuppe, UrsuppePort
from gamehall.rules._core import JSON, ConfigError

MAX_GAMES: Final = 50
MAX_SPECTATORS: Final = 32
WAITING_GAME_LINGER_S: Final = 1800.0
"""A waiting game without any connection is removed after 30 minutes (note 4)."""


class Member(Protocol):
    """An UrServer connection inside a game, as the other connections reach it directly
    (chat, and departures after the hall room is gone)."""

    @property
    def colour(self) -> int | None: ...

    @property
    def wire_name(self) -> str: ...

    def send_lines(self, lines: Sequence[str]) -> None: ...

    def seat_back(self, colour: int, wire_name: str) -> None:
        """A held seat was retaken (``SPIELERIN_ANGEMELDET`` to the others)."""
        ...


@dataclass(eq=False, slots=True)
class UrGame:
    """One game as the UrServer lists it."""

    name: str
    players: int
    password: str | None
    timeout_ms: int
    table: UrsuppePort
    """The room's game, read only (kept after the hall let the room go; a game is listed only
    once its room is open, and a reopened room replaces it)."""
    room_id: str | None = None
    names: dict[str, str] = field(default_factory=dict)
    """Hall user name (lower case) -> wire name, for players and spectators."""
    members: list[Member] = field(default_factory=list)
    spectators: list[Member] = field(default_factory=list)
    ended: bool = False
    linger: Cancellable | None = None
    foreign: bool = False
    """Opened in the hall by another protocol (the browser): listed here so UrServer clients
    can join it; its password, if any, is checked by the hall."""
    locked: bool = False
    """A foreign game whose hall room has a password."""
    logged: set[str] = field(default_factory=set)
    """Which tournament log lines were written ("start", "result")."""

    @property
    def public(self) -> bool:
        return self.password is None and not self.locked

    @property
    def started(self) -> bool:
        return self.table.started

    @property
    def elsewhere(self) -> bool:
        """Listed from another node of the hall: shown by ``LISTE``, not playable here."""
        return isinstance(self.table, ListedUrsuppe)

    @property
    def status(self) -> int:
        """0 waiting, 1 running, 2 ended (seed)."""
        if self.ended or self.table.finished:
            return 2
        return 1 if self.started else 0

    def seated(self) -> int:
        return len(self.table.seat_names())

    def wire_name_of(self, hall_name: str) -> str:
        """The name on the wire: the UrServer name, or a browser user's name as one token
        (the text rule: spaces and control characters become ``_``).

        After a restart the map is empty (it lived in this process only); an UrServer player's
        hall name is its wire name, or that name with a ``~n`` suffix (another game's player
        had it), so the suffix is cut off again to give back the name it logged in with."""
        known = self.names.get(hall_name.lower())
        if known is not None:
            return known
        base, tilde, suffix = hall_name.rpartition("~")
        if tilde and suffix.isdigit() and base:
            hall_name = base
        return one_token(hall_name)

    def seat_wire_name(self, seat: int) -> str | None:
        if self.table is None:
            return None
        hall_name = self.table.seat_names().get(seat)
        return None if hall_name is None else self.wire_name_of(hall_name)

    def name_taken(self, wire_name: str) -> bool:
        """Whether a player or spectator of this game already uses ``wire_name``."""
        seated = set(self.table.seat_names().values())
        in_game = {self.wire_name_of(n) for n in seated} | {m.wire_name for m in self.spectators}
        return wire_name in in_game

    def everyone(self) -> list[Member]:
        return [*self.members, *self.spectators]


class UrLobby:
    """Every UrServer game of one server, in creation order."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.games: dict[str, UrGame] = {}
        self._login_counter = 0

    def add(self, game: UrGame) -> None:
        self.games[game.name] = game
        self._watch(game)

    def find(self, name: str) -> UrGame | None:
        return self.games.get(name)

    def listed(self) -> list[UrGame]:
        return list(self.games.values())

    def prune(self, live_rooms: set[str]) -> None:
        """Forget games nobody here is in that are over, or foreign games whose hall room is
        gone (a browser table that ended or was abandoned)."""
        for game in list(self.games.values()):
            self.prune_one(game, game.room_id in live_rooms)

    def prune_one(self, game: UrGame, room_live: bool) -> bool:
        """:meth:`prune` for one game whose room is (or is not) ``room_live``; returns whether
        the game was forgotten."""
        if game.everyone() or not (game.status == 2 or (game.foreign and not room_live)):
            return False
        del self.games[game.name]
        return True

    def next_login_suffix(self) -> int:
        self._login_counter += 1
        return self._login_counter

    def detach(self, game: UrGame, member: Member) -> None:
        """``member``'s connection left ``game``: an ended game with nobody left is removed,
        a waiting one lingers (note 4)."""
        if member in game.members:
            game.members.remove(member)
        if member in game.spectators:
            game.spectators.remove(member)
        self._watch(game)

    def _watch(self, game: UrGame) -> None:
        if game.everyone():
            if game.linger is not None:
                game.linger.cancel()
                game.linger = None
            return
        if game.status == 2:
            self.games.pop(game.name, None)
        elif game.status == 0 and game.linger is None:
            game.linger = self.clock.call_later(WAITING_GAME_LINGER_S, lambda: self._expire(game))

    def _expire(self, game: UrGame) -> None:
        game.linger = None
        if not game.everyone() and game.status == 0 and self.games.get(game.name) is game:
            del self.games[game.name]

    def attach(self, game: UrGame, member: Member, *, spectator: bool) -> None:
        (game.spectators if spectator else game.members).append(member)
        self._watch(game)


@dataclass(frozen=True, slots=True)
class UrServices:
    """What the UrServer connections of one server share: the hall, the clock, the lobby."""

    hall: HallPort
    clock: Clock
    lobby: UrLobby

    @classmethod
    def of(cls, resources: ServerResources) -> UrServices:
        return cls.for_hall(resources.hall, resources.clock)

    @classmethod
    def for_hall(cls, hall: HallPort, clock: Clock) -> UrServices:
        """Fresh services (an empty lobby) over ``hall``."""
        return cls(hall, clock, UrLobby(clock))


def server_option(hall: HallPort, key: str, default: JSON) -> JSON:
    """A server option of this protocol from the hall's Ursuppe defaults (``--set
    ursuppe.KEY=VALUE``): ``urserver_charset`` ("utf-8" or "latin-1", note 2) and
    ``max_games`` (note 11). ``default`` while the game's settings do not carry the key."""
    try:
        defaults: Mapping[str, JSON] = hall.game_defaults("ursuppe")
    except (HallError, ConfigError):
        return default
    return defaults.get(key, default)


def max_games(hall: HallPort) -> int:
    value = server_option(hall, "max_games", MAX_GAMES)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else MAX_GAMES


def output_charset(hall: HallPort) -> str:
    """The output charset: UTF-8, or ISO-8859-1 when the operator chose it."""
    value = server_option(hall, "urserver_charset", "utf-8")
    return (
        "latin-1"
        if isinstance(value, str) and value.lower() in ("latin-1", "iso-8859-1", "latin1")
        else "utf-8"
    )


Lookup = Callable[[str], UrGame | None]

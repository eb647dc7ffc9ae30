"""Load the reference Doppelkopf engine (not-na/cardgame) from a checkout, headless.

Used only by ``tools/dk_differential.py``, on demand. Nothing of the reference is copied into
this project: the checkout's path is given at run time and its modules are imported from
there. Its server is event driven (``cg.send_event`` to handlers, ``schedule_function`` for
delays, ``send_to_user`` for packets), so :class:`RefTable` provides a small stand-in for
``cg.CardGame`` and its server: events go straight to the handlers, scheduled functions run in
time order when :meth:`RefTable.drain` is called, and every packet is recorded.

Only the reference's networking and tooling modules are stubbed (``jwt``, bots, the cg
utilities that read config files): the game module itself runs unmodified.
"""

from __future__ import annotations

import heapq
import importlib
import itertools
import sys
import types
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any


def load_reference(checkout: Path) -> types.ModuleType:
    """Import ``cgserver.game.doppelkopf`` from ``checkout`` (a not-na/cardgame tree)."""
    checkout = checkout.resolve()
    game_py = checkout / "server" / "cgserver" / "game" / "doppelkopf.py"
    if not game_py.is_file():
        raise SystemExit(f"{game_py} not found: give the root of a not-na/cardgame checkout")
    if "cgserver.game.doppelkopf" in sys.modules:
        return sys.modules["cgserver.game.doppelkopf"]

    def stub(name: str, **attrs: Any) -> types.ModuleType:
        module = types.ModuleType(name)
        module.__dict__.update(attrs)
        sys.modules[name] = module
        return module

    for name in ("cache", "serializer", "time", "itch"):  # config files, updates: not needed
        stub(f"cg.util.{name}")
    cg = stub("cg", __path__=[str(checkout / "cg")])
    for sub in ("constants", "error", "event", "util"):
        setattr(cg, sub, importlib.import_module(f"cg.{sub}"))
    cg.CardGame = object  # only used in annotations

    class BotUser:  # the reference checks isinstance(user, BotUser) in statistics
        pass

    server = stub("cgserver", __path__=[str(checkout / "server" / "cgserver")], DEV_MODE=False)
    server.user = stub("cgserver.user", BotUser=BotUser, User=object)
    server.lobby = stub("cgserver.lobby", Lobby=object)
    stub("cgserver.game.bot")
    stub("jwt", encode=lambda *a, **k: "")
    return importlib.import_module("cgserver.game.doppelkopf")


class _User:
    def __init__(self, name: str) -> None:
        self.username = name
        self.cur_game: uuid.UUID | None = None


class _Lobby:
    def __init__(self, users: list[uuid.UUID], rules: dict[str, Any]) -> None:
        self.users = users
        self.gamerules = rules
        self.started = True
        self.game_data = None


class RefTable:
    """One reference game with four players, driven by events; packets are recorded.

    ``players[i]`` is the uuid of gamehall seat ``i``.
    """

    def __init__(self, module: types.ModuleType, gamerules: dict[str, Any]) -> None:
        self.players = [uuid.UUID(int=i + 1) for i in range(4)]
        self.users_uuid = {p: _User(f"p{i}") for i, p in enumerate(self.players)}
        lobby_id = uuid.uuid4()
        self.lobbies = {lobby_id: _Lobby(list(self.players), gamerules)}
        self.games: dict[uuid.UUID, Any] = {}
        self.serverid, self.secret = uuid.uuid4(), "x"
        self.handlers: dict[str, list[tuple[Callable[..., None], Any]]] = {}
        self.queue: list[tuple[float, int, Callable[..., None], tuple[Any, ...], dict[str, Any]]] = []
        self.clock = 0.0
        self.counter = itertools.count()
        self.sent: list[tuple[int, str, dict[str, Any]]] = []
        self.ended: list[dict[str, Any]] = []
        self.server = self
        self.event_manager = self
        self.add_event_listener("cg:game.dk.end_round", lambda _e, data: self.ended.append(data))
        self.game = module.DoppelkopfGame(self, lobby_id)
        self.games[self.game.game_id] = self.game

    # -- the cg.CardGame side ------------------------------------------------------------------

    def add_event_listener(
        self, event: str, func: Callable[..., None], flags: int = 0, group: Any = None
    ) -> None:
        self.handlers.setdefault(event, []).append((func, group))

    def del_group(self, group: Any) -> None:
        for event, entries in self.handlers.items():
            self.handlers[event] = [(f, g) for f, g in entries if g != group]

    def send_event(self, event: str, data: dict[str, Any] | None = None) -> None:
        for func, _group in list(self.handlers.get(event, [])):
            func(event, data or {})

    def info(self, *_args: Any, **_kw: Any) -> None:
        pass

    warn = debug = error = info

    # -- the server side -----------------------------------------------------------------------

    def send_to_user(self, user: uuid.UUID, packet: str, data: dict[str, Any]) -> None:
        self.sent.append((self.players.index(user), packet, dict(data)))

    def send_status_message(self, user: uuid.UUID, kind: str, msg: str, data: Any = None) -> None:
        self.send_to_user(user, "cg:status.message", {"type": kind, "message": msg})

    def schedule_function(self, func: Callable[..., None], delay: float, *args: Any, **kwargs: Any) -> None:
        heapq.heappush(self.queue, (self.clock + delay, next(self.counter), func, args, kwargs))

    def drain(self) -> None:
        """Run everything scheduled, in time order (the reference's delays pass at once)."""
        while self.queue:
            when, _n, func, args, kwargs = heapq.heappop(self.queue)
            self.clock = max(self.clock, when)
            func(0, *args, **kwargs)

    # -- driving -------------------------------------------------------------------------------

    def event(self, name: str, seat: int, **data: Any) -> None:
        """A player's input, as the reference's packet handlers turn it into an event."""
        self.send_event(name, {"player": self.players[seat].hex, **data})
        self.drain()

    @property
    def round(self) -> Any:
        return self.game.current_round

"""HTTP on the server's loop (aiohttp): the browser client, its WebSocket, metrics and checks.

Routes:

- ``GET /`` and ``GET /<file>``: the browser client, static files from the ``gamehall/web``
  package directory (``index.html`` for ``/``);
- ``GET /ws``: the web protocol (:mod:`gamehall.server.websocket`);
- ``GET /metrics``: Prometheus text exposition (:class:`gamehall.server.metrics.ServerMetrics`);
- ``GET /healthz``: ``{"status": "ok", "uptime_s", "rooms", "users", "connections"}``, and on a
  node of several (``--redis``) ``"node"`` (its id) and ``"rooms_owned"``;
- ``GET /room/{id}``, ``GET /contest/{id}``, ``GET /replay/{id}``, ``GET /host``: pages of the
  browser client with their own address (so a room's link can be shared): ``index.html`` (the
  first two), ``replay.html`` and ``host.html``, whatever the id (the page asks the API about it);
- ``GET /api/rooms``: the open rooms, as the web protocol's lobby lists them;
  ``GET /api/rooms?finished=1``: the recently finished games instead (``limit``, default 30),
  newest first, with their results, for the lobby's "Recent games";
- ``GET /api/rooms/{id}``: one room: ``{"live": true, "room": ...}`` while it is open,
  ``{"live": false, "finished": ...}`` once it has finished, 404 otherwise;
- ``GET /api/rooms/{id}/log``: a finished room's log from the store, for replays and audits.
  A running room's log is refused (409): its entries and seed would reveal hidden
  information (hands, submissions) while the game is still on;
- ``GET /api/rooms/{id}/replay``: a finished room rebuilt step by step as a spectator saw it
  (:mod:`gamehall.server.replay`), refused (409) while it runs;
- ``/api/host/*``: the host console (:mod:`gamehall.server.host`), behind the operator token;
- ``/api/contests``: the contests the hall shows (:mod:`gamehall.server.contests`).
"""

from __future__ import annotations

import importlib.resources
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import orjson
from aiohttp import web

from gamehall.protocols._core import RoomInfo
from gamehall.protocols.web.messages import room_json
from gamehall.rules._core import JSON, GameType
from gamehall.server.connection import WriteBarrier
from gamehall.server.contests import ContestApi
from gamehall.server.host import HostConsole
from gamehall.server.limits import ConnectionLimits
from gamehall.server.metrics import CONTENT_TYPE, ServerMetrics
from gamehall.server.replay import ReplayCache, ReplayError
from gamehall.server.tracker import ConnectionTracker
from gamehall.server.websocket import WebDialogueFactory, serve_websocket
from gamehall.store.base import RoomRecord

log = logging.getLogger("gamehall.server")

PUBLIC_META_KEYS = ("title", "operator", "extra")
"""Room meta a log may show; the rest (password hash, resume tokens) never leaves the server."""


class HallFacts(Protocol):
    """What the HTTP side reads from the hall."""

    def rooms(self, game: str | None = None) -> list[RoomInfo]: ...

    def stats(self) -> dict[str, int]: ...


class NodeFacts(Protocol):
    """What ``/healthz`` shows of a node of several (:class:`gamehall.cluster.Node`)."""

    node_id: str

    def rooms_owned(self) -> int: ...


class RoomLogs(Protocol):
    """What the HTTP side reads from the store."""

    def load_room(self, room_id: str) -> RoomRecord | None: ...

    def recent_rooms(self, limit: int = 50, game: str | None = None) -> list[RoomRecord]: ...


@dataclass(slots=True)
class WebContext:
    """Everything the handlers need, shared with the TCP side of the server."""

    hall: HallFacts
    store: RoomLogs
    dialogue_factory: WebDialogueFactory
    limits: ConnectionLimits
    metrics: ServerMetrics
    tracker: ConnectionTracker
    static_dir: Path | None = field(default_factory=lambda: default_static_dir())
    started: float = field(default_factory=time.monotonic)
    executor: Executor | None = None
    """Runs offloaded password hashes of browser connections (``None``: the loop's default)."""
    games: Mapping[str, GameType] = field(default_factory=dict)
    """The hosted games, for replays (a game not hosted here cannot be replayed here)."""
    host: HostConsole | None = None
    """The host console's API; without it ``/api/host/*`` is not routed (tests of other parts)."""
    replays: ReplayCache = field(default_factory=ReplayCache)
    contests: ContestApi | None = None
    """The contests' API; without it ``/api/contests`` is not routed (tests of other parts)."""
    before_write: WriteBarrier | None = None
    """The hall's write barrier (:meth:`~gamehall.hall.hall.Hall.write_barrier`): a WebSocket
    writes nothing before the commit of what it answers, as a TCP connection does."""
    node: NodeFacts | None = None
    """This node among several (``--redis``); ``/healthz`` then shows its id and owned rooms."""


def default_static_dir() -> Path | None:
    """The installed browser client (``gamehall/web``), or ``None`` if it is missing."""
    candidate = importlib.resources.files("gamehall").joinpath("web")
    path = Path(str(candidate))
    return path if path.is_dir() else None


def build_web_app(context: WebContext) -> web.Application:
    """The aiohttp application serving every route above."""
    handlers = _Handlers(context)
    app = web.Application(client_max_size=64 * 1024)
    app.router.add_get("/ws", handlers.websocket)
    app.router.add_get("/metrics", handlers.metrics)
    app.router.add_get("/healthz", handlers.healthz)
    app.router.add_get("/api/rooms", handlers.rooms)
    app.router.add_get("/api/rooms/{room_id}", handlers.room)
    app.router.add_get("/api/rooms/{room_id}/log", handlers.room_log)
    app.router.add_get("/api/rooms/{room_id}/replay", handlers.room_replay)
    app.router.add_get("/room/{room_id}", handlers.page("index.html"))
    app.router.add_get("/contest/{contest_id}", handlers.page("index.html"))
    app.router.add_get("/replay/{room_id}", handlers.page("replay.html"))
    app.router.add_get("/host", handlers.page("host.html"))
    if context.host is not None:
        context.host.add_routes(app)
    if context.contests is not None:
        context.contests.add_routes(app)
    app.router.add_get("/", handlers.static)
    app.router.add_get("/{path:.+}", handlers.static)
    return app


async def start_web(app: web.Application, host: str, port: int) -> tuple[web.AppRunner, int]:
    """Serve ``app`` on ``host:port`` on the running loop; returns the runner and bound port.

    Raises:
        OSError: the address cannot be bound.
    """
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=2.0)
    await runner.setup()
    site = web.TCPSite(runner, host, port, reuse_address=True)
    try:
        await site.start()
    except BaseException:
        await runner.cleanup()
        raise
    bound = next((int(address[1]) for address in runner.addresses if isinstance(address, tuple)), port)
    return runner, bound


def _json(value: JSON, status: int = 200) -> web.Response:
    return web.Response(body=orjson.dumps(value), status=status, content_type="application/json")


MAX_FINISHED_LISTED = 200


def finished_json(record: RoomRecord) -> dict[str, JSON]:
    """A finished room as "Recent games" lists it: who played, who won, and why it ended."""
    result = record.result if isinstance(record.result, dict) else {}
    names = result.get("names")
    scores = result.get("scores")
    winners = result.get("winners")
    title = record.meta.get("title")
    return {
        "id": record.room_id,
        "game": record.game,
        "title": title if isinstance(title, str) else record.game,
        "created_at": record.created_at,
        "finished_at": record.finished_at,
        "termination": result.get("termination"),
        "names": names if isinstance(names, dict) else {},
        "scores": scores if isinstance(scores, dict) else {},
        "winners": winners if isinstance(winners, list) else [],
    }


def log_json(record: RoomRecord) -> dict[str, JSON]:
    """A finished room's log as served by ``/api/rooms/{id}/log``: enough to replay it."""
    return {
        "room_id": record.room_id,
        "game": record.game,
        "config": record.config,
        "seed": str(record.seed),  # 64-bit: a string, so JavaScript does not round it
        "meta": {key: record.meta[key] for key in PUBLIC_META_KEYS if key in record.meta},
        "created_at": record.created_at,
        "finished_at": record.finished_at,
        "result": record.result,
        "entries": [
            {"n": entry.n, "kind": entry.kind, "seat": entry.seat, "data": entry.data, "at": entry.at}
            for entry in record.entries
        ],
    }


class _Handlers:
    def __init__(self, context: WebContext) -> None:
        self._context = context

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        context = self._context
        return await serve_websocket(
            request,
            context.dialogue_factory,
            context.limits,
            context.metrics,
            context.tracker,
            context.executor,
            context.before_write,
        )

    async def metrics(self, request: web.Request) -> web.Response:
        response = web.Response(text=self._context.metrics.render())
        response.headers["Content-Type"] = CONTENT_TYPE
        return response

    async def healthz(self, request: web.Request) -> web.Response:
        stats = self._context.hall.stats()
        health: dict[str, JSON] = {
            "status": "ok",
            "uptime_s": round(time.monotonic() - self._context.started, 3),
            "rooms": stats.get("rooms", 0),
            "users": stats.get("users", 0),
            "connections": len(self._context.tracker),
        }
        node = self._context.node
        if node is not None:
            health["node"] = node.node_id
            health["rooms_owned"] = node.rooms_owned()
        return _json(health)

    async def rooms(self, request: web.Request) -> web.Response:
        game = request.query.get("game") or None
        if request.query.get("finished") in ("1", "true", "yes"):
            try:
                limit = max(1, min(int(request.query.get("limit", "30")), MAX_FINISHED_LISTED))
            except ValueError:
                return _json({"error": "bad_request", "reason": "limit must be a number."}, 400)
            return _json(self._finished(limit, game))
        rooms: list[JSON] = [room_json(info) for info in self._context.hall.rooms(game)]
        return _json(rooms)

    def _finished(self, limit: int, game: str | None) -> list[JSON]:
        """Finished games, newest first (rooms abandoned before they started are left out)."""
        listed: list[JSON] = []
        for record in self._context.store.recent_rooms(limit=limit * 4 + 20, game=game):
            if not record.finished or not isinstance(record.result, dict):
                continue
            if record.result.get("termination") == "abandoned":
                continue
            listed.append(finished_json(record))
            if len(listed) >= limit:
                break
        return listed

    async def room(self, request: web.Request) -> web.Response:
        room_id = request.match_info["room_id"]
        for info in self._context.hall.rooms(None):
            if info.room_id == room_id:
                return _json({"live": True, "room": room_json(info)})
        record = self._context.store.load_room(room_id)
        if record is None or not record.finished:
            return _json({"error": "no_such_room", "reason": f"There is no room {room_id}."}, 404)
        return _json({"live": False, "finished": finished_json(record)})

    async def room_replay(self, request: web.Request) -> web.Response:
        room_id = request.match_info["room_id"]
        record = self._context.store.load_room(room_id)
        if record is None:
            return _json({"error": "no_such_room", "reason": f"There is no room {room_id}."}, 404)
        if not record.finished:
            reason = "The room is still running; its replay is published when it ends."
            return _json({"error": "room_running", "reason": reason}, 409)
        try:
            replay = self._context.replays.get(record, self._context.games)
        except ReplayError as exc:
            log.warning("replay of %s failed: %s", room_id, exc)
            return _json({"error": "no_replay", "reason": str(exc)}, 422)
        response = _json(replay)
        response.enable_compression()
        return response

    def page(self, name: str) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        """A page of the client served at an address of its own (``/room/ID`` ...)."""

        async def serve(request: web.Request) -> web.StreamResponse:
            base = self._context.static_dir
            if base is None or not (base / name).is_file():
                raise web.HTTPNotFound(text="The browser client is not installed.")
            return web.FileResponse(base / name)

        return serve

    async def room_log(self, request: web.Request) -> web.Response:
        room_id = request.match_info["room_id"]
        record = self._context.store.load_room(room_id)
        if record is None:
            return _json({"error": "no_such_room", "reason": f"There is no room {room_id}."}, 404)
        if not record.finished:
            reason = "The room is still running; its log is published when it ends."
            return _json({"error": "room_running", "reason": reason}, 409)
        return _json(log_json(record))

    async def static(self, request: web.Request) -> web.StreamResponse:
        base = self._context.static_dir
        if base is None:
            raise web.HTTPNotFound(text="The browser client is not installed.")
        relative = request.match_info.get("path", "") or "index.html"
        target = (base / relative).resolve()
        root = base.resolve()
        if not target.is_relative_to(root):
            raise web.HTTPNotFound()
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(target)

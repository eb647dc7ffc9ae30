"""The host console's HTTP side: ``/api/host/*``, guarded by the operator token.

The page itself (``/host``, ``web/host.html``) is public: it only holds a login form. Every
piece of data and every action is behind ``Authorization: Bearer TOKEN``, where TOKEN is the
server's operator token (``--operator-token``, ``[server] operator_token`` or
``GAMEHALL_OPERATOR_TOKEN``). Without a configured token the console is off: every request
answers 401 and says so. Tokens are compared in constant time.

Routes (JSON):

- ``GET /api/host/rooms``: live rooms with seats, their protocols and spectators;
- ``POST /api/host/rooms/{id}/close`` (``{"text"}`` optional): end a room, finished in the
  store as ``closed_by_host`` (never a win);
- ``POST /api/host/users/{name}/kick`` (``{"text"}`` optional): release the user's seats and
  close their connection;
- ``POST /api/host/notice`` (``{"text"}``): a notice to every connected user;
- ``GET /api/host/figures``: the ``/metrics`` figures the console charts (open connections,
  rooms, users, actions so far, the action-latency histogram).
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import orjson
from aiohttp import web

from gamehall.hall import Hall
from gamehall.hall import operator as hall_operator
from gamehall.protocols._core import HallError
from gamehall.rules._core import JSON
from gamehall.server.metrics import ServerMetrics
from gamehall.server.tracker import ConnectionTracker

log = logging.getLogger("gamehall.server")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _json(value: JSON, status: int = 200) -> web.Response:
    return web.Response(body=orjson.dumps(value), status=status, content_type="application/json")


@dataclass(slots=True)
class HostConsole:
    """What the console's handlers need: the hall, the figures and the token."""

    hall: Hall
    metrics: ServerMetrics
    tracker: ConnectionTracker
    token: str | None

    def authorized(self, request: web.Request) -> bool:
        if not self.token:
            return False
        scheme, _, given = request.headers.get("Authorization", "").partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), self.token.encode())

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/api/host/rooms", self._guard(self.rooms))
        app.router.add_post("/api/host/rooms/{room_id}/close", self._guard(self.close_room))
        app.router.add_post("/api/host/users/{name}/kick", self._guard(self.kick))
        app.router.add_post("/api/host/notice", self._guard(self.notice))
        app.router.add_get("/api/host/figures", self._guard(self.figures))

    def _guard(self, handler: Handler) -> Handler:
        async def guarded(request: web.Request) -> web.StreamResponse:
            if not self.authorized(request):
                reason = (
                    "This server has no operator token: start it with --operator-token."
                    if not self.token
                    else "The operator token is missing or wrong."
                )
                response = _json({"error": "unauthorized", "reason": reason}, 401)
                response.headers["WWW-Authenticate"] = 'Bearer realm="gamehall host"'
                return response
            try:
                return await handler(request)
            except HallError as exc:
                status = 404 if exc.code in ("no_such_room", "no_such_user") else 400
                return _json({"error": exc.code, "reason": exc.reason}, status)

        return guarded

    async def rooms(self, request: web.Request) -> web.Response:
        return _json({"rooms": hall_operator.live_rooms(self.hall)})

    async def close_room(self, request: web.Request) -> web.Response:
        room_id = request.match_info["room_id"]
        text = await _text(request, "Closed by the host.")
        hall_operator.close_room(self.hall, room_id, text)
        log.info("host closed room %s: %s", room_id, text)
        return _json({"ok": True, "room": room_id})

    async def kick(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        text = await _text(request, "Removed by the host.")
        left = hall_operator.kick_user(self.hall, name, text)
        log.info("host removed user %s (rooms %s): %s", name, left, text)
        return _json({"ok": True, "user": name, "rooms": list(left)})

    async def notice(self, request: web.Request) -> web.Response:
        text = await _text(request, "")
        hall_operator.notice(self.hall, text)
        log.info("host notice: %s", text)
        return _json({"ok": True})

    async def figures(self, request: web.Request) -> web.Response:
        stats = self.hall.stats()
        latency = self.metrics.action_latency
        return _json(
            {
                "connections": len(self.tracker),
                "rooms": stats.get("rooms", 0),
                "users": stats.get("users", 0),
                "seats": stats.get("seats", 0),
                "actions_total": latency.count,
                "latency_buckets": [[_bound(bound), count] for bound, count in latency.snapshot()],
            }
        )


def _bound(value: float) -> JSON:
    return None if value == float("inf") else value


async def _text(request: web.Request, default: str) -> str:
    """The optional ``{"text": ...}`` body of a host action."""
    if not request.can_read_body:
        return default
    try:
        body = orjson.loads(await request.read())
    except orjson.JSONDecodeError:
        raise HallError("bad_request", "The body is not JSON.") from None
    text = body.get("text") if isinstance(body, dict) else None
    if text is None:
        return default
    if not isinstance(text, str):
        raise HallError("bad_request", '"text" must be a string.')
    return text.strip() or default

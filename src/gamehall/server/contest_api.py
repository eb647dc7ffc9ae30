"""The contests' HTTP API (docs/contest.md, "The contest board"): what the lobby lists and
what ``/contest/ID`` shows, read from the hall's in-memory board, and the organiser's stop.

- ``GET /api/contests``: every contest the hall shows, one summary each, opened order.
- ``GET /api/contests/ID``: the contest's latest snapshot (standings, games, ratings) with
  the board's summary fields; 404 ``no_such_contest``.
- ``POST /api/contests/ID/stop`` with ``{"name": ..., "token": ...}``: the organiser, proven
  by the resume token of their browser session (``welcome.token`` of docs/web-protocol.md),
  asks the contest to stop after the games under way; 403 ``not_organiser``, 404
  ``no_such_contest``, 400 ``bad_request``.
"""

from __future__ import annotations

import orjson
from aiohttp import web

from gamehall.hall.hall import Hall, token_matches
from gamehall.protocols._core import HallError
from gamehall.rules._core import JSON

MAX_STOP_BODY = 4096


class ContestApi:
    """The handlers, on one hall's :class:`~gamehall.hall.contests.ContestBoard`."""

    def __init__(self, hall: Hall) -> None:
        self._hall = hall

    async def list(self, request: web.Request) -> web.Response:
        return _json([contest.summary() for contest in self._hall.contests.all()])

    async def one(self, request: web.Request) -> web.Response:
        contest = self._hall.contests.get(request.match_info["contest_id"])
        if contest is None:
            return _error("no_such_contest", "There is no such contest.", 404)
        return _json(contest.page())

    async def stop(self, request: web.Request) -> web.Response:
        contest_id = request.match_info["contest_id"]
        raw = await request.content.read(MAX_STOP_BODY + 1)
        try:
            body = orjson.loads(raw) if len(raw) <= MAX_STOP_BODY else None
        except orjson.JSONDecodeError:
            body = None
        name = body.get("name") if isinstance(body, dict) else None
        token = body.get("token") if isinstance(body, dict) else None
        if not isinstance(name, str) or not isinstance(token, str):
            return _error("bad_request", 'Send {"name": ..., "token": ...}.', 400)
        user = self._hall.user(name)
        if user is None or not token_matches(token, user.token_hash):
            return _error("not_organiser", "Only the contest's organiser can stop it.", 403)
        try:
            self._hall.contests.request_stop(contest_id, user.name)
        except HallError as exc:
            return _error(exc.code, exc.reason, 404 if exc.code == "no_such_contest" else 403)
        return _json({"stopping": True})


def _json(value: JSON, status: int = 200) -> web.Response:
    return web.Response(body=orjson.dumps(value), status=status, content_type="application/json")


def _error(code: str, reason: str, status: int) -> web.Response:
    return _json({"error": code, "reason": reason}, status)

"""Contests over HTTP: ``/api/contests`` for the lobby and the contest page (issue 14).

The contest board (the hall's own, ``hall.contests``: :class:`gamehall.hall.contests.ContestBoard`)
is read here and nowhere else in the server, through the few methods of :class:`ContestReader`.

Routes (JSON; errors are ``{"error", "reason"}`` as everywhere in docs/web-protocol.md §15):

- ``GET /api/contests``: every contest the hall shows, running ones first:
  ``[{"id", "title", "game", "game_title", "format", "organiser", "state", "played", "total",
  "failures"}]``;
- ``GET /api/contests/{id}``: the contest's latest snapshot (``ContestHall`` in
  :mod:`gamehall.contest.ports`) with the board's ``stop_requested``, plus ``game_title`` (a
  visitor who has not logged in has no game list to name it from) and ``rooms_playing``
  (``[{"number", "room_id"}]``: the contest's rooms open now, found by their ``extra.contest``,
  since the runner names a game's room only once the game is over); 404 ``no_such_contest``.
  It carries an ``ETag``: the page polls every 2 s with ``If-None-Match`` and gets a bodiless
  304 while nothing changed;
- ``POST /api/contests/{id}/stop``: the organiser asks the runner to stop after the games that
  are running. The organiser proves who they are the way a browser does on the WebSocket: with
  the session token ``welcome`` gave their name (``Authorization: Bearer TOKEN``; the browser
  keeps it in ``localStorage``). No token: 401 ``unauthorized``; a token that is not the
  organiser's session: 403 ``not_organiser``; a contest already over: 409 ``contest_over``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import orjson
from aiohttp import web

from gamehall.hall.hall import Hall, token_matches
from gamehall.protocols._core import HallError, RoomInfo
from gamehall.rules._core import JSON

LISTED = ("id", "title", "game", "format", "organiser", "state", "played", "total", "failures")
"""A contest's fields in the list (the lobby's row); its page fetches the rest."""

RUNNING = "running"

SessionCheck = Callable[[str, str], bool]
"""``(name, token) -> bool``: whether ``token`` is the live session token of user ``name``."""

LiveRooms = Callable[[str | None], list[RoomInfo]]
"""The hall's open rooms of a game (``Hall.rooms``)."""


class ContestEntry(Protocol):
    """One contest of the board, as the HTTP side reads it."""

    @property
    def organiser(self) -> str: ...

    @property
    def state(self) -> str:
        """``running``, ``finished`` or ``stopped``."""
        ...

    def page(self) -> dict[str, JSON]:
        """The latest snapshot with the board's own fields (id, title, game, organiser,
        state, played, total, failures, ``stop_requested``) on top."""
        ...


class ContestReader(Protocol):
    """What the HTTP side needs of the contest board, and all it may do with it."""

    def all(self) -> Sequence[ContestEntry]:
        """Every contest shown, in the order they were opened."""
        ...

    def get(self, contest_id: str) -> ContestEntry | None: ...

    def request_stop(self, contest_id: str, name: str) -> None:
        """Flag the contest for its runner to stop, ``name`` asking.

        Raises:
            HallError: ``no_such_contest``, or ``not_organiser`` for anyone but the organiser.
        """
        ...


def session_check(hall: Hall) -> SessionCheck:
    """The hall's own test of a browser's identity: the token of the user's current session
    (the one ``welcome`` sent and a reload resumes with), compared in constant time. A user
    the hall does not know (never logged in, or gone) has no session to match."""

    def holds_session(name: str, token: str) -> bool:
        user = hall.user(name)
        return user is not None and token_matches(token, user.token_hash)

    return holds_session


def _json(value: JSON, status: int = 200) -> web.Response:
    return web.Response(body=orjson.dumps(value), status=status, content_type="application/json")


def _error(status: int, code: str, reason: str) -> web.Response:
    return _json({"error": code, "reason": reason}, status)


@dataclass(slots=True)
class ContestApi:
    """The handlers of ``/api/contests``."""

    board: ContestReader
    holds_session: SessionCheck
    live_rooms: LiveRooms
    game_titles: Mapping[str, str]
    """Game id -> its title, for ``game_title``."""

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/api/contests", self.contests)
        app.router.add_get("/api/contests/{contest_id}", self.contest)
        app.router.add_post("/api/contests/{contest_id}/stop", self.stop)

    async def contests(self, request: web.Request) -> web.Response:
        listed = [self._listed(entry.page()) for entry in self.board.all()]
        listed.sort(key=lambda row: row["state"] != RUNNING)  # stable: opening order within
        return _json(listed)

    def _listed(self, page: Mapping[str, JSON]) -> dict[str, JSON]:
        row = {key: page.get(key) for key in LISTED}
        row["game_title"] = self._game_title(page)
        return row

    def _game_title(self, page: Mapping[str, JSON]) -> JSON:
        game = page.get("game")
        return self.game_titles.get(game, game) if isinstance(game, str) else None

    def _rooms_playing(self, contest_id: str, game: JSON) -> list[JSON]:
        """The contest's open rooms, by game number (the hall side marks each room's
        ``extra`` with ``contest`` and ``contest_game``)."""
        if not isinstance(game, str):
            return []
        playing: list[JSON] = []
        for info in self.live_rooms(game):
            if info.extra.get("contest") == contest_id:
                playing.append({"number": info.extra.get("contest_game"), "room_id": info.room_id})
        return playing

    async def contest(self, request: web.Request) -> web.Response:
        contest_id = request.match_info["contest_id"]
        entry = self.board.get(contest_id)
        if entry is None:
            return _error(404, "no_such_contest", f"There is no contest {contest_id}.")
        page = entry.page()
        page["game_title"] = self._game_title(page)
        page["rooms_playing"] = (
            self._rooms_playing(contest_id, page.get("game")) if entry.state == RUNNING else []
        )
        body = orjson.dumps(page)
        etag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
        if etag in request.headers.get("If-None-Match", ""):
            return web.Response(status=304, headers={"ETag": etag, "Cache-Control": "no-cache"})
        response = web.Response(body=body, content_type="application/json")
        response.headers["ETag"] = etag
        response.headers["Cache-Control"] = "no-cache"
        return response

    async def stop(self, request: web.Request) -> web.Response:
        contest_id = request.match_info["contest_id"]
        entry = self.board.get(contest_id)
        if entry is None:
            return _error(404, "no_such_contest", f"There is no contest {contest_id}.")
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            response = _error(401, "unauthorized", "Log in as the contest's organiser to stop it.")
            response.headers["WWW-Authenticate"] = 'Bearer realm="gamehall contest"'
            return response
        if not self.holds_session(entry.organiser, token):
            return _error(403, "not_organiser", "Only the contest's organiser may stop it.")
        if entry.state != RUNNING:
            return _error(409, "contest_over", f"The contest {contest_id} is over already.")
        try:
            self.board.request_stop(contest_id, entry.organiser)
        except HallError as exc:  # the board's own refusals (it was closed meanwhile, ...)
            return _error(404 if exc.code == "no_such_contest" else 403, exc.code, exc.reason)
        return _json({"ok": True, "contest": contest_id, "stop_requested": True})

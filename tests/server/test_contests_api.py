"""Contests over HTTP (docs/web-protocol.md §15, "Contests"): the list, the snapshot (with an
ETag, so the page's 2 s polls cost nothing while nothing changes), and Stop, which only the
organiser's browser session may press; and the board that keeps what the runner published.

The board is filled by a fake runner (tests/support/contest_fake.py) exactly as the runner fills
it through ``ContestHall``; the browsers are real WebSocket logins on a real server.
"""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest
from contest_fake import FakeRunner

from gamehall.config import ServerConfig
from gamehall.hall.contests import ContestBoard
from gamehall.protocols._core import HallError
from gamehall.server.app import running_server
from gamehall.store.memory import MemoryStore


def local_config() -> ServerConfig:
    return ServerConfig(bind="127.0.0.1", db=":memory:")


WebSocket = aiohttp.ClientWebSocketResponse


async def login(http: aiohttp.ClientSession, base: str, name: str) -> tuple[WebSocket, str]:
    """A browser's login: its WebSocket (kept open: the session lives as long as it) and the
    session token ``welcome`` gave it."""
    ws = await http.ws_connect(f"{base}/ws")
    await ws.send_json({"t": "hello", "v": 2, "name": name, "id": 1})
    welcome = await ws.receive_json(timeout=5)
    assert welcome["t"] == "welcome"
    return ws, str(welcome["token"])


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_the_list_shows_each_contest_with_its_progress_running_ones_first() -> None:
    async with running_server(local_config(), listen={"web": 0}, store=MemoryStore()) as srv:
        base = f"http://127.0.0.1:{srv.ports['web']}"
        over = FakeRunner(srv.contests, contest_id="c-over", title="Last week")
        over.open()
        over.finish_next()
        over.close()
        live = FakeRunner(srv.contests, contest_id="c-live", title="Tonight", game="aah")
        live.open()
        live.finish_next()
        live.finish_next()
        async with aiohttp.ClientSession() as http:
            response = await http.get(f"{base}/api/contests")
            assert response.status == 200
            listed = await response.json()
    common = {"format": "round-robin", "organiser": "olga", "total": 6}
    assert listed == [
        {"id": "c-live", "title": "Tonight", "game": "aah", "game_title": "Apps Against Humanity",
         "state": "running", "played": 2, "failures": 1, **common},
        {"id": "c-over", "title": "Last week", "game": "mrjack", "game_title": "Mr. Jack in New York",
         "state": "finished", "played": 1, "failures": 0, **common},
    ]  # fmt: skip


async def test_the_snapshot_is_what_the_runner_published_and_unchanged_polls_get_304() -> None:
    async with running_server(local_config(), listen={"web": 0}, store=MemoryStore()) as srv:
        base = f"http://127.0.0.1:{srv.ports['web']}"
        runner = FakeRunner(srv.contests)
        runner.open()
        runner.finish_next()
        async with aiohttp.ClientSession() as http:
            response = await http.get(f"{base}/api/contests/c-demo")
            assert response.status == 200
            snapshot = await response.json()
            added = {"stop_requested": False, "game_title": "Mr. Jack in New York", "rooms_playing": []}
            assert snapshot == {**runner.snapshot(), **added}
            assert snapshot["standings"][0]["name"] == "heuristic"
            etag = response.headers["ETag"]

            again = await http.get(f"{base}/api/contests/c-demo", headers={"If-None-Match": etag})
            assert again.status == 304 and await again.read() == b""
            runner.finish_next()  # the next game ends: the page's next poll gets it
            changed = await http.get(f"{base}/api/contests/c-demo", headers={"If-None-Match": etag})
            assert changed.status == 200 and (await changed.json())["played"] == 2

            missing = await http.get(f"{base}/api/contests/nope")
            assert missing.status == 404
            assert (await missing.json())["error"] == "no_such_contest"


async def test_a_contest_game_being_played_is_named_by_its_open_room() -> None:
    async with running_server(local_config(), listen={"web": 0}, store=MemoryStore()) as srv:
        base = f"http://127.0.0.1:{srv.ports['web']}"
        runner = FakeRunner(srv.contests, game="aah")
        runner.open()
        runner.start_next()  # the runner names a game's room only once the game is over
        extra = {"contest": "c-demo", "contest_game": 1}  # how the hall side marks its rooms
        room = srv.hall.create_room("aah", {}, operator=None, title="c-demo_1", extra=extra)
        srv.hall.create_room("aah", {}, operator=None, title="not a contest room")
        async with aiohttp.ClientSession() as http:
            snapshot = await (await http.get(f"{base}/api/contests/c-demo")).json()
            assert snapshot["games"][0]["state"] == "playing" and snapshot["games"][0]["room_id"] is None
            assert snapshot["rooms_playing"] == [{"number": 1, "room_id": room.room_id}]


async def test_only_the_organisers_browser_session_stops_a_contest() -> None:
    async with running_server(local_config(), listen={"web": 0}, store=MemoryStore()) as srv:
        base = f"http://127.0.0.1:{srv.ports['web']}"
        runner = FakeRunner(srv.contests, organiser="Olga")
        runner.open()
        stop = f"{base}/api/contests/c-demo/stop"
        async with aiohttp.ClientSession() as http:
            stranger_ws, stranger = await login(http, base, "sam")
            organiser_ws, organiser = await login(http, base, "olga")  # names ignore case

            nobody = await http.post(stop)
            assert nobody.status == 401 and nobody.headers["WWW-Authenticate"].startswith("Bearer")
            refused = await http.post(stop, headers=bearer(stranger))
            assert refused.status == 403
            assert (await refused.json())["error"] == "not_organiser"
            assert (await http.post(stop, headers=bearer("made-up-token"))).status == 403
            assert not srv.contests.stop_requested("c-demo")

            accepted = await http.post(stop, headers=bearer(organiser))
            assert accepted.status == 200
            assert await accepted.json() == {"ok": True, "contest": "c-demo", "stop_requested": True}
            assert srv.contests.stop_requested("c-demo")  # what the runner polls between games
            snapshot = await (await http.get(f"{base}/api/contests/c-demo")).json()
            assert snapshot["stop_requested"] is True and snapshot["state"] == "running"

            runner.close("stopped")
            over = await http.post(stop, headers=bearer(organiser))
            assert over.status == 409 and (await over.json())["error"] == "contest_over"
            unknown = await http.post(f"{base}/api/contests/nope/stop", headers=bearer(organiser))
            assert unknown.status == 404

            await organiser_ws.send_json({"t": "bye"})  # logged out: that session is gone
            await organiser_ws.close()
            await stranger_ws.close()
            other = FakeRunner(srv.contests, contest_id="c-next", organiser="olga")
            other.open()
            gone = await http.post(f"{base}/api/contests/c-next/stop", headers=bearer(organiser))
            assert gone.status == 403


def test_the_board_keeps_a_private_copy_and_its_own_fields_over_the_snapshots() -> None:
    board = ContestBoard()
    board.open("c1", "Night", "words", "olga")
    assert board.get("c1") is not None and board.get("c1").page()["state"] == "running"  # type: ignore[union-attr]
    published: dict[str, Any] = {"title": "Day", "organiser": "mallory", "played": 1, "standings": []}
    board.publish("c1", published)
    published["standings"].append({"name": "late"})  # the runner's dict, changed afterwards
    page = board.all()[0].page()
    assert (page["title"], page["organiser"], page["played"], page["standings"]) == ("Night", "olga", 1, [])
    board.publish("never-opened", {})  # nothing to show it with: ignored
    assert [c.contest_id for c in board.all()] == ["c1"]
    with pytest.raises(TypeError):
        board.publish("c1", {"when": object()})  # not JSON: refused where the bug is
    with pytest.raises(HallError) as refused:
        board.request_stop("c1", "mallory")
    assert refused.value.code == "not_organiser" and not board.stop_requested("c1")
    board.request_stop("c1", "OLGA")
    assert board.stop_requested("c1") and board.get("c1").page()["stop_requested"] is True  # type: ignore[union-attr]


def test_the_board_forgets_the_oldest_ended_contests_beyond_its_limit() -> None:
    board = ContestBoard(kept_over=2)
    for n in range(4):
        board.open(f"c{n}", f"Contest {n}", "aah", "olga")
    board.open("on", "Still on", "aah", "olga")
    for n in range(4):
        board.close(f"c{n}", {"state": "stopped" if n == 3 else "finished"})
    assert [c.contest_id for c in board.all()] == ["c2", "c3", "on"]
    assert [c.state for c in board.all()] == ["finished", "stopped", "running"]

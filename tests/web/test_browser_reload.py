"""Reloading the page mid-game keeps the seat, in every game (docs/recovery.md, issue 9).

For each of the five games a browser user (headless Chromium, the real server) creates a
table, fills it with in-hall bots and waits for the game to run; then the page is reloaded.
The reloaded page logs in again with the resume token it kept in localStorage, and must get
the same seat back on its new connection (not a spectator's place, not a new seat) and play
on: the test has the user's own moves, chosen by the game's bot policy on that seat's view,
sent through the reloaded page's connection, and checks that the room accepted them.

Marked ``browser``; skipped where Debian's Chromium is not installed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest
from browser_support import CHROMIUM, ServerThread, fresh_page, launched_chromium, serving

from gamehall.bots.hall_bots import make_policy
from gamehall.config import ServerConfig
from gamehall.hall.lifecycle import SeatStatus

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")

STEP_MS = 15_000
FAST = {"aah": {"autostart_delay": 1, "round_gap": 1}, "ursuppe": {"players": 3}}
T = TypeVar("T")

# through the page's own connection (app.js is a module: importing it again gives the same one;
# imported by its absolute path, since a room page has its own address /room/ID)
SEND_ACTION = """async ([room, action]) => {
  const { app } = await import("/app.js");
  try { await app.request({ t: "act", room, action }); return null; }
  catch (err) { return err && err.code ? err.code : String(err); }
}"""


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    config = ServerConfig(bind="127.0.0.1", db=":memory:", room_defaults=FAST)
    with serving({"web": 0}, config) as thread:
        yield thread


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with launched_chromium(sync_api) as browser:
        yield browser


def on_loop(server: ServerThread, read: Callable[[], T]) -> T:
    """Read the hall on the server's own loop (it is not thread-safe)."""

    async def call() -> T:
        return read()

    result: T = server.run(call())
    return result


def wait_until(check: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting until {what}")
        time.sleep(0.1)


@pytest.mark.parametrize("game", ["aah", "doppelkopf", "ursuppe", "mrjack", "words"])
def test_reloading_the_page_mid_game_keeps_the_seat_and_play_goes_on(
    game: str, server: ServerThread, chromium: Any
) -> None:
    name = f"reload{game[:6]}"
    hall = server.server.hall if server.server is not None else None
    assert hall is not None
    with fresh_page(chromium, width=1280, height=800, step_ms=STEP_MS) as page:
        page.goto(server.web_url)
        page.get_by_test_id("name-input").fill(name)
        page.get_by_test_id("login-button").click()
        page.get_by_test_id("create-room").wait_for()
        page.get_by_test_id("create-game").select_option(game)
        page.get_by_test_id("create-room").click()
        page.get_by_test_id("add-bot").wait_for()
        fill = page.get_by_test_id("fill-bots")
        if game == "mrjack":  # its own button seats the heuristic bot (a random one may accuse
            page.get_by_test_id("mj-add-bot").click()  # at once and end the game by the rules)
        else:
            (fill if fill.count() else page.get_by_test_id("add-bot")).click()
        room_id = on_loop(server, lambda: next(r.room_id for r in hall.rooms(game) if r.operator == name))
        room = on_loop(server, lambda: hall.room(room_id))
        full = lambda: len(room.state.seat_names()) == room.max_seats()  # noqa: E731
        wait_until(lambda: on_loop(server, full), "every seat taken")
        if not on_loop(server, lambda: room.state.started):
            page.get_by_test_id("start-game").click()
        wait_until(lambda: on_loop(server, lambda: room.state.started), f"the {game} game started")
        member = on_loop(server, lambda: room.member(name))
        assert member is not None and member.seat is not None
        seat, old_listener = member.seat, member.listener

        page.reload()
        page.get_by_test_id("table").wait_for()
        taken_back = lambda: member.listener is not old_listener and member.listener is not None  # noqa: E731
        wait_until(lambda: on_loop(server, taken_back), "the reloaded page took the seat back")
        assert page.get_by_test_id("spectating").count() == 0
        assert on_loop(server, lambda: (member.seat, member.status)) == (seat, SeatStatus.PLAYING), (
            hall.store.load_room(room_id)
        )
        assert on_loop(server, lambda: room.member(name)) is member

        # play on through the reloaded page: the user's own moves are accepted
        policy, rng = make_policy(game, "heuristic"), random.Random(5)
        logged_before = on_loop(server, lambda: room._log_n)
        codec = room.game_type.actions

        def my_acts() -> int:
            record = hall.store.load_room(room_id)
            assert record is not None
            new = [e for e in record.entries if e.n > logged_before]
            return sum(1 for e in new if e.kind == "act" and e.seat == seat)

        deadline = time.monotonic() + 40
        while on_loop(server, my_acts) < 1:
            assert time.monotonic() < deadline, f"no move of the reloaded {game} seat was accepted"
            assert not on_loop(server, lambda: room.closed), f"the {game} room ended"
            to_move, view = on_loop(server, lambda: (room.state.to_move().seats, room.state.view(seat)))
            action = policy.decide(view, seat, rng) if seat in to_move or game == "doppelkopf" else None
            if action is not None:
                page.evaluate(SEND_ACTION, [room_id, codec.encode(action)])
            time.sleep(0.2)
        assert on_loop(server, lambda: member.status) is SeatStatus.PLAYING
        page.get_by_test_id("leave-room").click()  # free the table for the next game

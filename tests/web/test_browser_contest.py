"""A contest's page (/contest/ID) in headless Chromium against the real server (issue 14).

A fake runner (tests/support/contest_fake.py) publishes a round-robin's snapshots to the
server's contest board as the real runner does; game 1's room is a real finished AAH room, so
its replay link leads to a real replay. A visitor who never logged in sees the standings, the
typed losses, the ratings, the crosstable and the chart, and sees the progress move as games
end; the lobby lists the contest; only the organiser gets Stop, and pressing it reaches the
runner's flag. Screenshots go to docs/screenshots/ (contest-*.png).

Marked ``browser``; skipped where Debian's Chromium is not installed.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import CHROMIUM, ServerThread, fresh_page, launched_chromium, serving
from contest_fake import FakeRunner

from gamehall.bots.hall_bots import add_bots
from gamehall.hall.operator import close_room

pytestmark = pytest.mark.browser

STEP_MS = 15_000
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    with serving({"web": 0}) as thread:
        yield thread


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with launched_chromium(sync_api) as browser:
        yield browser


def finished_room(server: ServerThread) -> str:
    """An AAH room three hall bots played for a moment, closed by the host: finished in the
    store, so it has a replay."""

    async def play() -> str:
        assert server.server is not None
        hall = server.server.hall
        settings = {"round_gap": 0.1, "autostart_delay": 1}
        room = hall.create_room("aah", settings, operator=None, title="Cup game 1")
        add_bots(hall, room.room_id, 3, "random", delay=0.01)
        await asyncio.sleep(2.0)
        if hall.directory.get(room.room_id) is not None:
            close_room(hall, room.room_id, "Enough for the test.")
        return room.room_id

    return str(server.run(play(), timeout=30))


def contest_room(server: ServerThread, contest_id: str, number: int) -> str:
    """An open room marked as game ``number`` of the contest, as the hall side marks them."""

    async def create() -> str:
        assert server.server is not None
        extra = {"contest": contest_id, "contest_game": number}
        title = f"{contest_id}_{number}"
        return server.server.hall.create_room("aah", {}, operator=None, title=title, extra=extra).room_id

    return str(server.run(create()))


def on_loop(server: ServerThread, step: Callable[[], None]) -> None:
    """Run a runner step on the server's loop, where the real runner runs."""

    async def call() -> None:
        step()

    server.run(call())


def test_a_visitor_follows_a_live_contest_and_its_replays(server: ServerThread, chromium: Any) -> None:
    assert server.server is not None
    runner = FakeRunner(server.server.contests, contest_id="cup", title="AAH bot cup", game="aah")
    runner.room_ids = [finished_room(server)]
    on_loop(server, runner.open)
    on_loop(server, runner.finish_next)
    url = f"{server.web_url}contest/cup"
    with fresh_page(chromium, width=1280, height=800, step_ms=STEP_MS) as page:
        page.goto(url)  # no login: a contest is public
        expect(page.get_by_test_id("contest-title")).to_have_text("AAH bot cup")
        expect(page.get_by_test_id("contest-facts")).to_contain_text("Apps Against Humanity · Round robin")
        progress = page.get_by_test_id("contest-progress-text")
        expect(progress).to_contain_text("1 of 6 games played")
        rows = page.get_by_test_id("standings-row")
        expect(rows).to_have_count(4)
        expect(rows.first).to_have_attribute("data-name", "heuristic")
        assert page.get_by_test_id("contest-stop").count() == 0  # not the organiser

        on_loop(server, runner.finish_next)  # game 2 ends: heuristic beats the sleeper by a timeout
        expect(progress).to_contain_text("2 of 6 games played")  # polled, no reload
        expect(page.get_by_test_id("contest-failures")).to_contain_text("1 failure")
        sleeper = page.locator('[data-testid="standings-row"][data-name="sleeper"]')
        expect(sleeper.locator('td[data-reason="timeout"]')).to_have_text("1")
        expect(sleeper).to_contain_text("0-0-1")
        expect(page.locator('[data-testid="standings"] thead')).to_contain_text("hard timeout")
        expect(page.get_by_test_id("crosstable")).to_contain_text("sleeper")
        series = page.locator('[data-testid="rating-chart"] svg .series')  # a line per entrant that played
        expect(series).to_have_count(3)
        assert {series.nth(i).get_attribute("data-name") for i in range(3)} == {
            "heuristic",
            "random",
            "sleeper",
        }
        on_loop(server, runner.start_next)
        playing = contest_room(server, "cup", 3)  # its room is open: it can be watched
        watch = page.locator('[data-testid="contest-game"][data-number="3"]').get_by_test_id("contest-watch")
        expect(watch).to_have_attribute("href", f"/room/{playing}")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "contest-1280x800.png"), full_page=True)

        first = page.locator('[data-testid="contest-game"][data-number="1"]')
        first.get_by_test_id("contest-replay").click()
        page.wait_for_url(re.compile(f"/replay/{runner.room_ids[0]}$"))
        expect(page.get_by_test_id("replay-step")).to_contain_text("Step 0 of")

    with fresh_page(chromium, width=390, height=844, step_ms=STEP_MS, locale="de-DE") as phone:
        phone.goto(url)
        expect(phone.get_by_test_id("contest-progress-text")).to_contain_text("2 von 6 Partien gespielt")
        expect(phone.get_by_test_id("contest-standings")).to_contain_text("Tabelle")
        phone.screenshot(path=str(SCREENSHOTS / "contest-de-390x844.png"), full_page=True)


def enter(page: Any, url: str, name: str) -> None:
    page.goto(url)
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("login-button").click()
    page.get_by_test_id("create-room").wait_for()


def test_the_lobby_lists_the_contest_and_only_the_organiser_may_stop_it(
    server: ServerThread, chromium: Any
) -> None:
    assert server.server is not None
    board = server.server.contests
    runner = FakeRunner(board, contest_id="night", title="Night cup", game="aah", organiser="olga")
    on_loop(server, runner.open)
    with (
        fresh_page(chromium, width=1280, height=800, step_ms=STEP_MS) as olga,
        fresh_page(chromium, width=1280, height=800, step_ms=STEP_MS) as sam,
    ):
        enter(olga, server.web_url, "olga")
        entry = olga.locator('[data-testid="lobby-contest"][data-contest="night"]')
        expect(entry).to_contain_text("Night cup")
        entry.get_by_test_id("contest-link").click()
        olga.wait_for_url(re.compile("/contest/night$"))
        stop = olga.get_by_test_id("contest-stop")
        expect(stop).to_be_visible()
        on_loop(server, runner.start_next)
        room_id = contest_room(server, "night", 1)
        olga.get_by_test_id("contest-watch").click()  # logged in: she watches at once
        olga.get_by_test_id("spectating").wait_for()
        expect(olga.locator(".room")).to_have_attribute("data-room", room_id)
        olga.go_back()  # back to the contest page
        expect(stop).to_be_visible()

        enter(sam, f"{server.web_url}", "sam")
        sam.goto(f"{server.web_url}contest/night")  # a reload resumes sam's session
        expect(sam.get_by_test_id("contest-title")).to_have_text("Night cup")
        expect(sam.get_by_test_id("connection-status")).to_have_text("Connected")
        assert sam.get_by_test_id("contest-stop").count() == 0

        olga.once("dialog", lambda dialog: dialog.accept())
        stop.click()
        expect(olga.get_by_test_id("contest-stopping")).to_be_visible()
        expect(olga.get_by_test_id("contest-state")).to_have_text("Stopping…")
        assert board.stop_requested("night")  # what the runner polls between games
        expect(sam.get_by_test_id("contest-state")).to_have_text("Stopping…")  # everyone sees it

        on_loop(server, lambda: runner.close("stopped"))
        expect(olga.get_by_test_id("contest-state")).to_have_text("Stopped")
        expect(stop).to_have_count(0)
        olga.get_by_test_id("contest-back").click()
        expect(olga.locator('[data-testid="lobby-contest"][data-contest="night"]')).to_contain_text("Stopped")

"""A browser user plays a round of Doppelkopf against three hall bots in headless Chromium
(Playwright), end to end: the real server, the web dialogue, the hall, the engine and the
``games/doppelkopf.js`` renderer. The user readies, answers the reservation, plays a legal card
whenever it is their turn (only those are enabled), sees the round result and ends the game.

Marked ``browser``; skipped where Debian's Chromium is not installed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import CHROMIUM, ServerThread, fresh_page, launched_chromium, serving

pytestmark = pytest.mark.browser

STEP_MS = 30_000

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture
def server() -> Iterator[ServerThread]:
    with serving({"web": 0}) as thread:
        yield thread


@pytest.fixture
def page(server: ServerThread) -> Iterator[Any]:
    with (
        launched_chromium(sync_api) as browser,
        fresh_page(browser, width=1280, height=900, step_ms=STEP_MS) as page,
    ):
        yield page


def test_browser_user_plays_a_doppelkopf_round_against_hall_bots(server: ServerThread, page: Any) -> None:
    assert server.server is not None
    page.goto(f"http://127.0.0.1:{server.server.ports['web']}/")
    page.get_by_test_id("name-input").fill("dora")
    page.get_by_test_id("login-button").click()
    page.get_by_test_id("create-room").wait_for()
    page.get_by_test_id("create-game").select_option("doppelkopf")
    page.get_by_test_id("create-title").fill("Doko night")
    page.get_by_test_id("create-room").click()
    page.get_by_test_id("dk-status").wait_for()
    # The hall derives a room's seat count from playermax/max_players/seats settings, which a
    # Doppelkopf table (always four) has none of, so the frame shows no bot buttons: ask for the
    # bots with the same message the "Fill seats with bots" button sends.
    page.evaluate(
        """async () => {
            const { app } = await import("/app.js");
            const roomId = document.querySelector(".room").dataset.room;
            app.run({ room: roomId, t: "bots", count: 3 });
        }"""
    )
    page.get_by_test_id("dk-ready").click()
    page.wait_for_selector('[data-testid="dk-answer-no"]')
    assert page.get_by_test_id("dk-card").count() == 12
    page.get_by_test_id("dk-answer-no").first.click()
    played = 0
    result = page.get_by_test_id("dk-round-result")
    while result.count() == 0:
        page.wait_for_selector('[data-testid="dk-card"]:enabled, [data-testid="dk-round-result"]')
        enabled = page.locator('[data-testid="dk-card"]:enabled')
        if enabled.count() and result.count() == 0:
            before = page.get_by_test_id("dk-card").count()
            enabled.first.click()
            page.wait_for_function(
                "n => document.querySelectorAll('[data-testid=\"dk-card\"]').length < n", arg=before
            )
            played += 1
    assert played == 12
    assert "wins" in result.inner_text() or "No winner" in result.inner_text()
    assert page.get_by_test_id("dk-summaries").count() == 1
    points = [int(t) for t in page.get_by_test_id("points").all_inner_texts()]
    assert sum(points) == 0 and len(points) == 4
    page.screenshot(path="/tmp/gamehall-browser-doppelkopf.png")
    page.get_by_test_id("dk-vote-end").click()
    page.get_by_test_id("game-over").wait_for()

"""A browser user plays a round of Doppelkopf against three hall bots in headless Chromium
(Playwright), end to end: the real server, the web dialogue, the hall, the engine and the
``games/doppelkopf.js`` renderer. The user readies, answers the reservation, plays a legal card
whenever it is their turn (only those are enabled), sees the round result and ends the game.

Marked ``browser``; skipped where Debian's Chromium is not installed.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

from gamehall.config import ServerConfig
from gamehall.server.app import Server, running_server
from gamehall.store.memory import MemoryStore

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
STEP_MS = 30_000

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")


class ServerThread:
    """The server on its own event loop in a background thread (Playwright's API is blocking)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="gamehall-server", daemon=True)
        self._context: Any = None
        self.server: Server | None = None

    def start(self) -> Server:
        self._thread.start()
        config = ServerConfig(bind="127.0.0.1", db=":memory:")
        self._context = running_server(config, listen={"web": 0}, store=MemoryStore())
        self.server = self.run(self._context.__aenter__())
        return self.server

    def run(self, coroutine: Coroutine[Any, Any, Any], timeout: float = 20.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def stop(self) -> None:
        if self._context is not None:
            self.run(self._context.__aexit__(None, None, None))
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)


@pytest.fixture
def server() -> Iterator[ServerThread]:
    thread = ServerThread()
    thread.start()
    try:
        yield thread
    finally:
        thread.stop()


@pytest.fixture
def page(server: ServerThread) -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.set_default_timeout(STEP_MS)
        try:
            yield page
            assert errors == [], f"JavaScript errors on the page: {errors}"
        finally:
            context.close()
            browser.close()


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

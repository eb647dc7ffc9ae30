"""Stale actions in the browser (docs/web-protocol.md, "Stale actions"), in headless Chromium
with the real server: two players in two tabs act on the same Doppelkopf table at once.

It is bert's turn. While anna's complaint (which takes the turn away from him) is on its way to
his tab, bert plays a card from the table he still sees. The server refuses the card as stale
(nothing is played), bert's tab shows a short notice and redraws the fresh table, and the game
goes on: anna withdraws her complaint and bert plays his card after all.

Bert's tab sees the server late because the test holds the frames the server sends it (a
WebSocket route), as a slow network would; nothing in the page is patched.

Marked ``browser``; skipped where Debian's Chromium is not installed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from browser_support import CHROMIUM, ServerThread, fresh_page, launched_chromium, serving

pytestmark = pytest.mark.browser

STEP_MS = 30_000

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")

SETTINGS = {
    "misplay": "penalize",  # complaints are possible
    "wedding": "None",  # no wedding questions to answer
    "turn_timeout_s": 600,  # no timer plays for anybody during the test
    "complaint_timeout_s": 600,
    "vote_timeout_s": 600,
}
ENABLED_CARD = '[data-testid="dk-card"]:enabled'


@pytest.fixture
def server() -> Iterator[ServerThread]:
    with serving({"web": 0}) as thread:
        yield thread


class HeldSocket:
    """Holds the frames the server sends one page while ``holding``; :meth:`release` delivers
    them in order. Frames the page sends go straight through."""

    def __init__(self, page: Any) -> None:
        self.holding = False
        self.held: list[str | bytes] = []
        self._route: Any = None
        page.route_web_socket("**/ws", self._connect)

    def _connect(self, route: Any) -> None:
        self._route = route
        route.connect_to_server().on_message(self._from_server)

    def _from_server(self, message: str | bytes) -> None:
        if self.holding:
            self.held.append(message)
        else:
            self._route.send(message)

    def release(self) -> None:
        # Frames that arrive while the held ones are sent join the queue, so order is kept;
        # callbacks run only inside Playwright calls, so none can slip in after the loop.
        while self.held:
            self._route.send(self.held.pop(0))
        self.holding = False


def log_in(page: Any, url: str, name: str) -> None:
    page.goto(url)
    page.evaluate("localStorage.setItem('gamehall.lang', 'en')")
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("login-button").click()
    page.get_by_test_id("create-room").wait_for()


def send(page: Any, message: dict[str, Any]) -> Any:
    """A request as the page's own buttons send it (app.run), answered or null."""
    return page.evaluate("async (msg) => (await import('/app.js')).app.run(msg)", message)


def click_if_there(page: Any, testid: str) -> None:
    page.evaluate(f"document.querySelector('[data-testid=\"{testid}\"]')?.click()")


def within(seconds: float, done: Callable[[], bool], pump: Any, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        pump.wait_for_timeout(50)


def test_a_card_played_on_a_table_the_turn_has_left_is_refused_with_a_notice_and_play_goes_on(
    server: ServerThread,
) -> None:
    with (
        launched_chromium(sync_api) as browser,
        fresh_page(browser, width=1280, height=800, step_ms=STEP_MS) as anna,
        fresh_page(browser, width=1280, height=800, step_ms=STEP_MS) as bert,
    ):
        bert_socket = HeldSocket(bert)
        log_in(anna, server.web_url, "anna")
        log_in(bert, server.web_url, "bert")
        send(anna, {"t": "create", "game": "doppelkopf", "title": "Two tabs", "settings": SETTINGS})
        anna.get_by_test_id("dk-status").wait_for()
        room_id = anna.evaluate("document.querySelector('.room').dataset.room")
        send(bert, {"t": "join", "room": room_id})
        bert.get_by_test_id("dk-status").wait_for()
        send(anna, {"t": "bots", "room": room_id, "count": 2})

        def bert_to_play() -> bool:
            """Move the round on (readiness, reservations, anna's cards) until bert must play."""
            for page in (anna, bert):
                click_if_there(page, "dk-ready")
                click_if_there(page, "dk-answer-no")
            if anna.locator(ENABLED_CARD).count():
                anna.locator(ENABLED_CARD).first.click()
            return bool(bert.locator(ENABLED_CARD).count())

        within(60, bert_to_play, anna, "bert's turn")
        cards_before = bert.get_by_test_id("dk-card").count()

        # Anna complains while bert's tab does not hear the server: his table still offers
        # his cards, and he plays one of them.
        bert_socket.holding = True
        anna.get_by_test_id("dk-complain").click()
        anna.get_by_test_id("dk-complaint-send").click()
        anna.get_by_test_id("dk-complaint-cancel").wait_for()  # the complaint is open
        bert.locator(ENABLED_CARD).first.click()
        within(10, lambda: any(b'"stale"' in _bytes(m) for m in bert_socket.held), bert, "the refusal")
        bert_socket.release()

        notice = bert.get_by_test_id("error")
        notice.wait_for()
        assert "The table changed before your move arrived" in notice.inner_text()
        # The fresh table: the complaint is pending, his card is still in his hand.
        bert.wait_for_function(
            "() => document.querySelectorAll('[data-testid=\"dk-card\"]:enabled').length === 0"
        )
        assert bert.get_by_test_id("dk-card").count() == cards_before
        assert "complaint is pending" in bert.get_by_test_id("dk-status").inner_text()

        # The game goes on: anna withdraws, and bert plays his card after all.
        anna.get_by_test_id("dk-complaint-cancel").click()
        bert.locator(ENABLED_CARD).first.wait_for()
        bert.locator(ENABLED_CARD).first.click()
        bert.wait_for_function(
            "n => document.querySelectorAll('[data-testid=\"dk-card\"]').length < n", arg=cards_before
        )


def _bytes(message: str | bytes) -> bytes:
    return message.encode() if isinstance(message, str) else message

"""A browser user plays two rounds of Doppelkopf against three hall bots in headless Chromium
(Playwright), end to end: the real server, the web dialogue, the hall, the engine and the
``games/doppelkopf.js`` renderer. The user readies, answers the reservation, plays a legal card
whenever it is their turn (only those are enabled), sees the round result and ends the game.

Along the way it checks what a Doppelkopf player expects of the table (issue 11): the hand
sorted by the game type's trump order, the seats in a fixed order with the user at the bottom,
who took the last trick, parties and announcements on the table, the result in words, the
points history unclipped at 1280x800, the game-over summary with its chart, and German terms.

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
        fresh_page(browser, width=1280, height=800, step_ms=STEP_MS) as page,
    ):
        yield page


NORMAL_TRUMPS = ["h10", "cq", "sq", "hq", "dq", "cj", "sj", "hj", "dj", "da", "d10", "dk", "d9"]
PLAIN = {"c": ["ca", "c10", "ck", "c9"], "s": ["sa", "s10", "sk", "s9"], "h": ["ha", "hk", "h9"]}


def expected_normal_order(values: list[str]) -> list[str]:
    """A normal game's hand as a player holds it: trumps high to low, then ♣, ♠, ♥ high to low."""
    order = NORMAL_TRUMPS + PLAIN["c"] + PLAIN["s"] + PLAIN["h"]
    return sorted(values, key=order.index)


LAST_TRICK_NAMED = """() => {
    const app = window.testApp;
    const room = app.state.rooms.get(document.querySelector(".room").dataset.room);
    const r = room.view.round;
    const line = document.querySelector('[data-testid="dk-last-winner"]');
    if (!r || r.last_trick_winner === null || !line) return true;
    const seat = room.view.seats.find((s) => s.seat === r.last_trick_winner);
    return line.textContent.includes(`taken by ${seat.name}:`);
}"""


def round_view(page: Any) -> Any:
    return page.evaluate(
        """async () => {
            const { app } = await import("/app.js");
            const room = app.state.rooms.get(document.querySelector(".room").dataset.room);
            return room.view.round;
        }"""
    )


def places(page: Any) -> dict[str, str]:
    seats = page.get_by_test_id("dk-seat")
    return {
        seats.nth(i).get_attribute("data-place"): seats.nth(i).get_attribute("data-seat") for i in range(4)
    }


def play_round(page: Any) -> int:
    """Play every card asked of us until the round result shows; checks the table on the way."""
    page.get_by_test_id("dk-ready").click()
    page.wait_for_selector('[data-testid="dk-answer-no"]')
    assert page.get_by_test_id("dk-card").count() == 12
    # Before play the hand is in the normal game's order (the game type is not public yet).
    values = [c.get_attribute("data-value") for c in page.get_by_test_id("dk-card").all()]
    assert values == expected_normal_order(values)
    page.get_by_test_id("dk-answer-no").first.click()
    played = 0
    result = page.get_by_test_id("dk-round-result")
    checked_play = False
    while result.count() == 0:
        page.wait_for_selector('[data-testid="dk-card"]:enabled, [data-testid="dk-round-result"]')
        enabled = page.locator('[data-testid="dk-card"]:enabled')
        if enabled.count() and result.count() == 0:
            if not checked_play:
                checked_play = True
                view = round_view(page)
                hand = page.get_by_test_id("dk-card").all()
                trumps = [c.get_attribute("data-trump") for c in hand]
                assert trumps == sorted(trumps, reverse=True), "trumps come first"
                if view["game_type"] in ("normal", "wedding", "poverty"):
                    values = [c.get_attribute("data-value") for c in hand]
                    assert values == expected_normal_order(values)
                # The turn is fully in view at 1280x800: the hand's cards are on screen.
                box = enabled.first.bounding_box()
                assert box is not None and box["y"] + box["height"] <= 800
                party = page.get_by_test_id("dk-my-party").inner_text()
                assert "Re" in party or "Kontra" in party or "not settled" in party
            before = page.get_by_test_id("dk-card").count()
            enabled.first.click()
            page.wait_for_function(
                "n => document.querySelectorAll('[data-testid=\"dk-card\"]').length < n", arg=before
            )
            played += 1
            if page.get_by_test_id("dk-last-winner").count():
                # The line names the seat the view says took the last trick (checked in one
                # go in the page, as the view moves on while bots play).
                page.evaluate('async () => { window.testApp = (await import("/app.js")).app; }')
                page.wait_for_function(LAST_TRICK_NAMED)
    return played


def test_browser_user_plays_a_doppelkopf_round_against_hall_bots(server: ServerThread, page: Any) -> None:
    assert server.server is not None
    page.goto(f"http://127.0.0.1:{server.server.ports['web']}/")
    page.evaluate("localStorage.setItem('gamehall.lang', 'en')")
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
    page.get_by_test_id("dk-ready").wait_for()
    first_places = places(page)
    my_seat = first_places["bottom"]
    assert page.locator('[data-testid="dk-seat"][data-place="bottom"] >> text=(you)').count() == 1
    assert play_round(page) == 12
    text = page.get_by_test_id("dk-round-result").inner_text()
    assert "wins with" in text or "Nobody wins" in text or "no points" in text
    assert "_" not in text and " n fox" not in text
    assert "Re:" in text and "Kontra:" in text  # the parties, named once the round is scored
    assert page.get_by_test_id("dk-last-winner").count() == 1
    points = [int(t) for t in page.get_by_test_id("points").all_inner_texts()]
    assert sum(points) == 0 and len(points) == 4

    # Round two: the seats keep their places (you at the bottom), though the dealer moved on.
    page.get_by_test_id("dk-vote-continue").click()
    page.get_by_test_id("dk-ready").wait_for()
    assert places(page) == first_places and places(page)["bottom"] == my_seat
    # On a 390 px phone nothing runs off the side and the decision is on screen.
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    ready = page.get_by_test_id("dk-ready").bounding_box()
    assert ready is not None and ready["x"] + ready["width"] <= 390 and ready["y"] + ready["height"] <= 844
    page.set_viewport_size({"width": 1280, "height": 800})
    play_round(page)
    page.screenshot(path="/tmp/gamehall-browser-doppelkopf.png")
    # The points history is not clipped at 1280 px: its table fits its box.
    history = page.get_by_test_id("dk-history")
    assert history.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    assert page.get_by_test_id("dk-summaries").locator("tbody tr").count() == 2

    # German: the player's own terms.
    page.get_by_test_id("language").select_option("de")
    page.get_by_text("Deine Karten").wait_for()
    assert "Nächstes Spiel" in page.get_by_test_id("dk-vote-continue").inner_text()
    assert page.evaluate("localStorage.getItem('gamehall.lang')") == "de"
    page.get_by_test_id("language").select_option("en")

    page.get_by_test_id("dk-vote-end").click()
    page.get_by_test_id("game-summary").wait_for()
    assert "Game over" in page.get_by_test_id("summary-headline").inner_text()
    assert page.get_by_test_id("summary-standings").locator("tbody tr").count() == 4
    chart = page.get_by_test_id("score-chart")
    assert chart.locator("polyline").count() == 4
    # One point per round plus the start, for each player.
    assert chart.locator("circle").count() == 4 * 3


def test_a_german_browser_gets_german_and_the_choice_is_remembered(server: ServerThread) -> None:
    with launched_chromium(sync_api) as browser:
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
        try:
            page = context.new_page()
            page.goto(server.web_url)
            assert page.get_by_test_id("language").input_value() == "de"
            assert page.evaluate("document.documentElement.lang") == "de"
            assert page.get_by_test_id("logout").inner_text() == "Abmelden"
            page.get_by_test_id("language").select_option("en")
            assert page.get_by_test_id("logout").inner_text() == "Log out"
            page.reload()
            assert page.get_by_test_id("language").input_value() == "en"  # remembered
        finally:
            context.close()

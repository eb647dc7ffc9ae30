"""A browser user plays Mr. Jack in New York in headless Chromium (Playwright), end to end: the
real server (HTTP, /ws, the web dialogue, the hall, the engine) and the ``games/mrjack.js``
renderer, on ephemeral ports.

Tables: one against an in-hall bot (the room frame's "Add a bot" button), where the user
switches to the detective first; one as Mr. Jack against a term-protocol wire bot, which legacy
seating puts at the browser's open table. In each the user plays every one of their turns of
round 1 through the board (card, part, then an offered hex; never an accusation), sees round 2
begin with the witness call in the log, then resigns and sees the game's end. A third table
(the renderer's "Play against a bot", ``round_end_mode=detective``) has the detective mark a
suspect at the round end; a fourth checks the layout at phone width.

Marked ``browser``; skipped where Debian's Chromium is not installed.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import CHROMIUM, ServerThread, fresh_page, launched_chromium, serving

pytestmark = pytest.mark.browser

SCREENSHOTS = Path("/tmp")
STEP_MS = 15_000
ROUND_1_DEADLINE_S = 20.0

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")

# Anything the user can do at the table right now (a card, a part, a target) or round 2's start.
ACTIONABLE = (
    '[data-testid="mj-card"]:enabled, [data-testid^="mj-part-"], [data-testid="hex-target"], '
    '[data-testid="mj-accuse-cancel"], [data-testid="game-over"]'
)


@pytest.fixture
def server() -> Iterator[ServerThread]:
    with serving({"mrjack": 0, "web": 0}) as thread:
        yield thread


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with launched_chromium(sync_api) as browser:
        yield browser


@pytest.fixture
def page(server: ServerThread, chromium: Any) -> Iterator[Any]:
    """A fresh browser context at 1280x800; fails on any page error or refused action."""
    with fresh_page(chromium, width=1280, height=800, step_ms=STEP_MS) as page:
        yield page


def create_table(
    page: Any, server: ServerThread, name: str, title: str, *, detective_marks: bool = False
) -> None:
    """Log in and create a Mr. Jack table (``round_end_mode=detective`` if asked)."""
    assert server.server is not None
    page.goto(f"http://127.0.0.1:{server.server.ports['web']}/")
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("login-button").click()
    page.get_by_test_id("create-room").wait_for()
    page.get_by_test_id("create-game").select_option("mrjack")
    page.get_by_test_id("create-title").fill(title)
    if detective_marks:
        page.locator("details summary").click()
        page.locator('[data-setting="round_end_mode"]').select_option("detective")
    page.get_by_test_id("create-room").click()
    page.get_by_test_id("mj-lobby").wait_for()
    assert page.get_by_test_id("mj-my-role").inner_text() == "Mr. Jack"


def round_number(page: Any) -> int:
    text = str(page.get_by_test_id("mj-status").inner_text())
    return int(text.split()[1]) if text.startswith("Round ") else 0


def play_round_one(page: Any) -> tuple[int, int]:
    """Make every move the table offers the user until round 2 begins; return the clicks made
    and how many accusations were offered (and called off at the confirmation).

    Each step uses the controls a person would: a free card's character on the board (the
    first pick) or an enabled character card, the first part button, then the first offered
    hex (a move, an ability target, the informant's new hex), so only what the view marks as
    legal is ever clicked."""
    clicks = accusations = picks = 0
    deadline = time.monotonic() + ROUND_1_DEADLINE_S
    while round_number(page) < 2:
        assert time.monotonic() < deadline, "round 1 did not end in time"
        page.wait_for_selector(
            f'{ACTIONABLE}, .mj-status:has-text("Round 2 of 8"), [data-testid="mj-fertig"]'
        )
        if round_number(page) >= 2 or page.get_by_test_id("game-over").count():
            break
        if page.get_by_test_id("mj-fertig").count():  # the detective's marking at the round end
            break
        before = page.get_by_test_id("mj-status").inner_text()
        card = first_present(page, "mj-card")
        parts = first_present(page, "mj-part-bewegen", "mj-part-faehigkeit", "mj-part-skip")
        target = card if card is not None else parts
        if card is not None and picks == 0:  # the first card of the round: click its character
            picks += 1
            page.locator('[data-testid="hex-target"][aria-label^="Play "]').first.click()
        elif target is not None:
            picks += card is not None
            target.click()
        elif page.get_by_test_id("hex-target").count():
            accusations += call_off_an_accusation(page)
            pick_hex(page, keyboard=clicks % 2 == 1)
        else:
            continue
        clicks += 1
        page.wait_for_function(
            "before => document.querySelector('[data-testid=\"mj-status\"]').innerText !== before", arg=before
        )
    return clicks, accusations


def call_off_an_accusation(page: Any) -> int:
    """If the board offers the detective an accusation, click it: a confirmation appears and
    nothing is sent; cancel it and the same targets are still offered. Returns 1 if it did."""
    accuse = page.locator('[data-testid="hex-target"][aria-label^="Accuse"]')
    if accuse.count() == 0:
        return 0
    offered = page.get_by_test_id("hex-target").count()
    accuse.first.click()
    page.get_by_test_id("mj-accuse-confirm").wait_for()
    page.get_by_test_id("mj-accuse-cancel").click()
    page.get_by_test_id("mj-accuse-confirm").wait_for(state="detached")
    assert page.get_by_test_id("hex-target").count() == offered
    return 1


def first_present(page: Any, *testids: str) -> Any:
    for testid in testids:
        locator = page.locator(f'[data-testid="{testid}"]:enabled')
        if locator.count():
            return locator.first
    return None


def pick_hex(page: Any, *, keyboard: bool = False) -> None:
    """Click (or focus and press Enter on) the first offered hex that is not an accusation (the
    detective's move onto another character); should only accusations be left, accuse."""
    targets = page.get_by_test_id("hex-target")
    for index in range(targets.count()):
        hex_group = targets.nth(index)
        if not str(hex_group.get_attribute("aria-label")).startswith("Accuse"):
            if keyboard:
                hex_group.press("Enter")
            else:
                hex_group.click()
            return
    targets.first.click()
    page.get_by_test_id("mj-accuse-confirm").click()


def resign_and_see_the_end(page: Any, screenshot: str) -> str:
    page.get_by_test_id("mj-resign").click()
    page.get_by_test_id("mj-resign-confirm").click()
    banner = page.get_by_test_id("game-over")
    banner.wait_for()
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / screenshot), full_page=True)
    return str(banner.inner_text())


def test_browser_detective_plays_round_one_against_a_hall_bot(server: ServerThread, page: Any) -> None:
    create_table(page, server, "holmes", "Manhattan manhunt")
    page.get_by_test_id("mj-role-detektiv").click()
    page.get_by_test_id("mj-role-mrjack").wait_for()  # now the detective, Mr. Jack's role is free
    assert page.get_by_test_id("mj-my-role").inner_text() == "the detective"
    page.get_by_test_id("add-bot").click()  # the room frame's button: a random hall bot
    page.locator('.mj-status:has-text("Round 1 of 8")').wait_for()
    assert page.get_by_test_id("mj-figure").count() == 8
    assert page.get_by_test_id("mj-jack-identity").count() == 0  # the detective never sees it
    clicks, accusations = play_round_one(page)
    assert clicks >= 6  # two activations: card, two parts, at least one target each
    assert accusations >= 1  # every detective move in round 1 can reach another character
    page.get_by_test_id("mj-log").get_by_text("The witness").wait_for()
    page.screenshot(path=str(SCREENSHOTS / "gamehall-browser-mrjack.png"), full_page=True)
    text = resign_and_see_the_end(page, "gamehall-browser-mrjack-end.png")
    assert "Mr. Jack wins" in text and "resigned" in text and "Mr. Jack was" in text
    # Game over at a glance: both roles with their result, and the suspects left over the rounds.
    assert page.get_by_test_id("summary-standings").locator("tbody tr").count() == 2
    chart = page.get_by_test_id("score-chart")
    assert chart.locator("polyline").count() == 1
    assert chart.locator("circle").count() >= 2  # the start (8 suspects) and round 1


def test_browser_mr_jack_plays_round_one_against_a_wire_bot(server: ServerThread, page: Any) -> None:
    from gamehall.bots.mrjack import MrJackPolicy
    from gamehall.bots.mrjack.wire import MrJackWireBot

    assert server.server is not None
    create_table(page, server, "jack", "Fog on the Hudson")
    # The heuristic detective accuses only a certain culprit, which round 1 never has (all eight
    # stay suspects until its witness call), so the user's whole round is played.
    bot = MrJackWireBot(
        "127.0.0.1",
        server.server.ports["mrjack"],
        "lestrade",
        "detektiv",
        policy=MrJackPolicy("heuristic"),
        think_time=0.02,
    )
    running = server.spawn(bot.run())
    try:
        page.locator('.mj-status:has-text("Round 1 of 8")').wait_for()
        page.locator(".mj-players", has_text="lestrade").wait_for()
        identity = page.get_by_test_id("mj-jack-identity")
        assert "Only you can see this" in identity.inner_text()
        clicks, accusations = play_round_one(page)
        assert accusations == 0  # Mr. Jack is never offered one
        assert page.get_by_test_id("game-over").count() == 0
        assert clicks >= 6
        page.screenshot(path=str(SCREENSHOTS / "gamehall-browser-mrjack-wire.png"))
        text = resign_and_see_the_end(page, "gamehall-browser-mrjack-wire-end.png")
        assert "Detective wins (lestrade)" in text and "resigned" in text
        result = running.result(10)
        assert result.winners == ["detektiv"] and result.errors == []
    finally:
        running.cancel()


def test_browser_detective_marks_suspects_at_the_round_end(server: ServerThread, page: Any) -> None:
    """``round_end_mode=detective``: after round 1 the detective clicks characters on the board
    to toggle their marks (each click flips one), then Done starts round 2."""
    create_table(page, server, "watson", "Marked men", detective_marks=True)
    page.get_by_test_id("mj-role-detektiv").click()
    page.get_by_test_id("mj-role-mrjack").wait_for()
    page.get_by_test_id("mj-bot-policy").select_option("random")
    page.get_by_test_id("mj-add-bot").click()
    page.locator('.mj-status:has-text("Round 1 of 8")').wait_for()
    play_round_one(page)
    if page.get_by_test_id("game-over").count():  # an accusation decided it (not made by us)
        return
    page.get_by_test_id("mj-fertig").wait_for()
    suspects = page.locator('[data-testid="mj-suspects"] li.suspect')
    assert suspects.count() == 8  # no automatic marks in this mode
    assert page.get_by_test_id("hex-target").count() == 8  # every character can be marked
    page.get_by_test_id("hex-target").first.click()
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=\"mj-suspects\"] li.suspect').length === 7"
    )
    page.get_by_test_id("mj-log").get_by_text("is cleared").wait_for()
    page.screenshot(path=str(SCREENSHOTS / "gamehall-browser-mrjack-marking.png"), full_page=True)
    page.get_by_test_id("mj-fertig").click()
    page.locator('.mj-status:has-text("Round 2 of 8")').wait_for()
    assert suspects.count() == 7


def test_browser_table_fits_a_phone(server: ServerThread, chromium: Any) -> None:
    """At 390 px the page does not scroll sideways (only the board does, inside its frame), and
    the character cards and the open move come before the board."""
    context = chromium.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(STEP_MS)
        create_table(page, server, "phone", "Pocket Manhattan")
        page.get_by_test_id("mj-add-bot").click()
        page.locator('.mj-status:has-text("Round 1 of 8")').wait_for()
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 1
        # Measured in one go in the page: the table redraws as the bot moves.
        page.locator(".mj-cards-panel").wait_for()
        cards_y, board_y = page.evaluate(
            """() => [document.querySelector('.mj-cards-panel').getBoundingClientRect().y,
                      document.querySelector('[data-testid="mj-board"]').getBoundingClientRect().y]"""
        )
        assert cards_y < board_y
        page.get_by_test_id("mj-figure").first.wait_for()
        page.screenshot(path=str(SCREENSHOTS / "gamehall-browser-mrjack-phone.png"), full_page=True)
    finally:
        context.close()

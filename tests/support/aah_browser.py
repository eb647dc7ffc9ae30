"""The steps of an Apps Against Humanity table that browser tests take through the page's own
controls (logging in, opening a table with quick timings, playing or judging), shared by the
single-server tests (tests/web/test_browser_aah.py) and the two-node one
(tests/web/test_browser_two_nodes.py), so that both drive the table the same way."""

from __future__ import annotations

from typing import Any

ACTIONABLE = '[data-testid="hand-card"]:enabled, [data-testid="judge-button"]'
"""What the user can do at the table right now: play a card or, as the Card Czar, judge."""


def enter(page: Any, url: str, name: str) -> None:
    """Log in from the name screen and wait for the lobby."""
    page.goto(url)
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("login-button").click()
    page.get_by_test_id("create-room").wait_for()


def enter_and_create_table(page: Any, url: str, name: str, title: str) -> None:
    """Log in from the name screen and create an AAH table with quick timings (a one-second
    gap between rounds, two points to win)."""
    enter(page, url, name)
    page.get_by_test_id("create-game").select_option("aah")
    page.get_by_test_id("create-title").fill(title)
    page.locator("details summary").click()
    page.locator('[data-setting="round_gap"]').fill("1")
    page.locator('[data-setting="aplimit"]').fill("2")
    page.get_by_test_id("create-room").click()
    page.get_by_test_id("aah-status").wait_for()


def play_or_judge(page: Any) -> None:
    """One move of the user, once :data:`ACTIONABLE` is on the page: judge (the first answer)
    as the Card Czar, otherwise play the first cards of the hand the black card asks for."""
    if page.get_by_test_id("judge-button").count() > 0:
        page.get_by_test_id("judge-button").first.click()
        return
    pick = int(page.get_by_test_id("black-pick").inner_text().split()[-1])
    for index in range(pick):
        page.get_by_test_id("hand-card").nth(index).click()
    if pick > 1:
        page.get_by_test_id("play-cards").click()

"""A German browser speaks German beyond the card tables (issue 11 item 7), in headless
Chromium (Playwright) against the real server:

- the name screen and the lobby come up in German, picked from the browser's language;
- at a Boggle table the second player (not the room's operator) is offered no Start button
  (the hall would refuse it with ``not_operator``) while the creator is, and once the round runs
  the Boggle panel is German;
- at a Mr. Jack table against a bot the pre-game panel, the move prompt, the character cards,
  the log and the legend are German.

Marked ``browser``; skipped where Debian's Chromium is not installed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import CHROMIUM, ServerThread, fresh_page, launched_chromium, serving

pytestmark = pytest.mark.browser

STEP_MS = 20_000

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

# The eight characters' abilities as a German player reads them on the cards.
GERMAN_ABILITIES = {
    "verschiebt eine Absperrung",
    "stellt eine Gaslaterne auf",
    "öffnet einen U-Bahn-Eingang",
    "macht aus einem Feld einen Park",
    "stellt eine Baustelle auf; fliegt über Gebäude",
    "bewegt eine andere Person (seine einzige Aktion)",
    "tauscht einen Nachbarn mit einer anderen Person",
    "bewegt einen Dampfer",
}


@pytest.fixture
def server() -> Iterator[ServerThread]:
    with serving({"web": 0}) as thread:
        yield thread


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with launched_chromium(sync_api) as browser:
        yield browser


def german_page(chromium: Any) -> Any:
    return fresh_page(chromium, width=1280, height=800, step_ms=STEP_MS, locale="de-DE")


def enter(page: Any, url: str, name: str) -> None:
    page.goto(url)
    expect(page.get_by_test_id("login-form")).to_contain_text("Willkommen in der Spielhalle")
    assert page.get_by_test_id("login-button").inner_text() == "Hereinkommen"
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("login-button").click()
    page.get_by_test_id("create-room").wait_for()


def test_a_german_browser_gets_a_german_lobby_boggle_and_mr_jack(server: ServerThread, chromium: Any) -> None:
    with german_page(chromium) as anna, german_page(chromium) as ben:
        enter(anna, server.web_url, "anna")
        assert anna.locator("#rooms-heading").inner_text() == "Räume"
        assert anna.get_by_test_id("create-room").inner_text() == "Eröffnen und hinsetzen"
        expect(anna.get_by_test_id("room-list")).to_contain_text("Noch keine Räume")

        # A Boggle table: anna creates it (its operator), ben joins from his lobby.
        anna.get_by_test_id("create-game").select_option("words")
        anna.locator("details summary").click()
        anna.locator('[data-setting="preset"]').select_option("BogEN")
        anna.locator('[data-setting="time_per_turn"]').fill("30")
        anna.get_by_test_id("create-room").click()
        anna.get_by_test_id("words-status").wait_for()
        enter(ben, server.web_url, "ben")
        expect(ben.get_by_test_id("room-row").locator(".status")).to_have_text("Wartet")
        ben.get_by_test_id("join-room").click()
        ben.get_by_test_id("words-status").wait_for()
        anna.locator(".seat-chips li").nth(1).wait_for()
        expect(anna.get_by_test_id("start-game")).to_have_text("Spiel starten")
        assert ben.get_by_test_id("start-game").count() == 0  # not the operator: no Start button
        anna.get_by_test_id("start-game").click()
        ben.get_by_test_id("boggle-cell").first.wait_for()
        assert ben.get_by_test_id("boggle-send").inner_text() == "Wort schicken"
        assert ben.get_by_test_id("boggle-word").get_attribute("placeholder") == "Wort eintippen"
        expect(ben.get_by_test_id("boggle-found-empty")).to_contain_text("Noch keins.")
        assert ben.get_by_test_id("boggle-grid").get_attribute("aria-label") == "Buchstabenraster"

        # A Mr. Jack table against a bot: ben plays Mr. Jack, the bot the detective.
        ben.get_by_test_id("leave-room").click()
        ben.get_by_test_id("leave-confirm").click()
        ben.get_by_test_id("create-game").select_option("mrjack")
        ben.get_by_test_id("create-room").click()
        lobby = ben.get_by_test_id("mj-lobby")
        expect(lobby).to_contain_text("Vor dem Spiel")
        expect(lobby).to_contain_text("Du spielst")
        ben.get_by_test_id("mj-add-bot").click()
        ben.locator('[data-testid="mj-card"]:enabled').first.wait_for()  # the detective picked first
        expect(ben.get_by_test_id("mj-status")).to_contain_text("Du bist dran")
        # Monk Eastman only moves others (no own move): pick a character that moves itself
        ben.locator('[data-testid="mj-card"]:enabled').filter(has_not_text="Monk Eastman").first.click()
        expect(ben.get_by_test_id("mj-log")).to_contain_text("wurde gespielt")  # at least ours
        move = ben.get_by_test_id("mj-part-bewegen")
        move.wait_for()
        assert move.inner_text().endswith(" bewegen")
        ben.locator('[data-testid="mj-part-bewegen"]').click()
        expect(ben.get_by_test_id("mj-status")).to_contain_text("klicke ein markiertes Feld")
        expect(ben.locator(".mj-legend")).to_contain_text("Straße")
        abilities = ben.locator(".mj-card-ability").all_inner_texts()
        assert len(abilities) == 4 and all(text in GERMAN_ABILITIES for text in abilities)
        expect(ben.get_by_test_id("mj-jack-identity")).to_contain_text("Insgeheim bist du")

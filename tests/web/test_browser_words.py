"""A browser user plays the word games in headless Chromium (Playwright), end to end: the real
server (HTTP, /ws, the web dialogue, the hall, the words engine) with an in-hall bot at the table.

- Duplicate: the user clicks the start square of the master move and types its letters, sends
  it, and sees the master move revealed with every player's score once the turn closes.
- Boggle: the user types a word found on the grid, sees it among the round's words, and sees
  the round's results (the grid's best word, each player's words) when the time is up.

Marked ``browser``; skipped where Debian's Chromium is not installed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import CHROMIUM, ServerThread, fresh_page, launched_chromium, serving

from gamehall.bots.words.grid import grid_words
from gamehall.rules.words.duplicate import DuplicateTable
from gamehall.rules.words.moves import Move
from gamehall.rules.words.settings import shared_lexicon

pytestmark = pytest.mark.browser

SCREENSHOTS = Path("/tmp")
STEP_MS = 20_000

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture
def server() -> Iterator[ServerThread]:
    with serving({"web": 0}) as thread:
        yield thread


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with launched_chromium(sync_api) as browser:
        yield browser


@pytest.fixture
def page(server: ServerThread, chromium: Any) -> Iterator[Any]:
    """A fresh browser context at 1280x800; fails on any page error."""
    with fresh_page(chromium, width=1280, height=800, step_ms=STEP_MS) as page:
        yield page


def create_words_table(page: Any, url: str, name: str, settings: dict[str, str]) -> str:
    """Log in, create a words room with ``settings`` (setting name -> value), add a bot, start;
    return the room id."""
    page.goto(url)
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("login-button").click()
    page.get_by_test_id("create-room").wait_for()
    page.get_by_test_id("create-game").select_option("words")
    page.locator("details summary").click()
    for setting, value in settings.items():
        field = page.locator(f'[data-setting="{setting}"]')
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(value)
        elif value in ("on", "off"):
            field.set_checked(value == "on")
        else:
            field.fill(value)
    page.get_by_test_id("create-room").click()
    page.get_by_test_id("words-status").wait_for()
    page.get_by_test_id("add-bot").click()
    page.locator(".seat-chips li").nth(1).wait_for()
    page.get_by_test_id("start-game").click()
    return str(page.locator(".room").get_attribute("data-room"))


def duplicate_table(server: ServerThread, room_id: str) -> DuplicateTable:
    assert server.server is not None
    game = server.server.hall.room(room_id).game
    assert isinstance(game, DuplicateTable)
    return game


def type_move(page: Any, move: Move) -> None:
    """Click the move's first square (twice for a down move) and type the tiles it places."""
    square = page.locator(f'[data-testid="square"][data-row="{move.row}"][data-col="{move.col}"]')
    square.click()
    if move.direction.name == "DOWN":
        square.click()
    page.keyboard.type("".join(tile.letter for _, tile in move.placed()))


def test_a_duplicate_turn_reveals_the_master_move_and_scores(server: ServerThread, page: Any) -> None:
    room_id = create_words_table(
        page,
        server.web_url,
        "alice",
        {"preset": "DupEN", "end_turn_when_all_moved": "on", "pause_s": "30", "grace_s": "2"},
    )
    page.get_by_test_id("rack-tile").first.wait_for()
    # A room created without a title is named by its mode, in words.
    assert page.locator(".room-header h2").inner_text() == "Duplicate (English)"
    # At 1280x800 the rack is in view during the timed turn.
    page.get_by_test_id("words-timer").wait_for()
    in_view = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="rack-tile"]')].map((el) => {
            const r = el.getBoundingClientRect();
            return r.top >= 0 && r.bottom <= window.innerHeight;
        })"""
    )
    assert in_view and all(in_view), in_view
    top = duplicate_table(server, room_id).top
    assert top is not None
    type_move(page, top)
    page.get_by_test_id("move-preview").get_by_text(f"{top.ref} {top.word.upper()}").wait_for()
    page.screenshot(path=str(SCREENSHOTS / "gamehall-browser-words-duplicate-draft.png"))
    page.get_by_test_id("submit-move").click()
    master = page.get_by_test_id("master-move")
    master.wait_for()
    assert master.inner_text().split(" · ")[0] == f"{top.ref} {top.word}"
    rows = page.get_by_test_id("turn-result")
    assert rows.count() == 2  # alice and the bot, each with a score
    mine = page.locator('[data-testid="turn-result"][data-seat="0"]')
    assert mine.get_attribute("data-status") == "ok"
    score = int(mine.locator("td").last.inner_text())
    assert 0 < score <= top.score
    totals = page.get_by_test_id("score-total").all_inner_texts()
    assert str(score) in totals
    # The master move is now on the board.
    row, col = top.squares()[0]
    first = page.locator(f'[data-testid="square"][data-row="{row}"][data-col="{col}"]')
    assert first.get_attribute("data-glyph") == top.word[0]
    page.screenshot(path=str(SCREENSHOTS / "gamehall-browser-words-duplicate.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.get_by_test_id("words-board").wait_for()
    page.screenshot(path=str(SCREENSHOTS / "gamehall-browser-words-duplicate-phone.png"), full_page=True)


def test_a_browser_user_finds_a_boggle_word(server: ServerThread, page: Any) -> None:
    create_words_table(
        page,
        server.web_url,
        "bob",
        {"preset": "BogEN", "rounds": "1", "time_per_turn": "8", "grace_s": "0"},
    )  # the dictionary is the host's choice (a server setting): BogEN's own, english-lp
    page.get_by_test_id("boggle-cell").first.wait_for()
    grid = tuple(page.get_by_test_id("boggle-grid").get_attribute("data-rows").split(","))
    words = grid_words(grid, shared_lexicon("english-lp"))
    word = max(words, key=len)
    page.get_by_test_id("boggle-word").fill(word)
    assert page.locator('[data-testid="boggle-cell"].on').count() == len(words[word])
    page.get_by_test_id("boggle-word").press("Enter")
    page.get_by_test_id("boggle-found").get_by_text(word, exact=True).wait_for()
    page.screenshot(path=str(SCREENSHOTS / "gamehall-browser-words-boggle.png"))
    results = page.get_by_test_id("round-results")
    results.wait_for()
    assert page.get_by_test_id("best-word").inner_text().startswith("Best word on the grid:")
    mine = page.locator('[data-testid="round-player"][data-seat="0"]')
    assert word in mine.inner_text()
    page.get_by_test_id("game-over").wait_for()
    assert page.locator(".room-header h2").inner_text() == "Boggle (English)"
    # Game over at a glance: the standings and each player's total over the rounds.
    assert "wins with" in page.get_by_test_id("summary-headline").inner_text()
    assert page.get_by_test_id("summary-standings").locator("tbody tr").count() == 2
    assert page.get_by_test_id("score-chart").locator("polyline").count() == 2
    page.screenshot(path=str(SCREENSHOTS / "gamehall-browser-words-boggle-results.png"))


def test_the_create_form_names_modes_in_words_and_a_slow_create_says_it_prepares_the_dictionary(
    server: ServerThread, page: Any
) -> None:
    page.goto(server.web_url)
    page.get_by_test_id("name-input").fill("carol")
    page.get_by_test_id("login-button").click()
    page.get_by_test_id("create-room").wait_for()
    page.get_by_test_id("create-game").select_option("words")
    page.locator("details summary").click()
    options = page.locator('[data-setting="preset"] option').all_inner_texts()
    assert "Duplicate (English)" in options and "Boggle 4\u00d74 (French)" in options
    assert not any(code in options for code in ("DupEN", "BogFR"))
    # The first build of a word list takes minutes: hold the server's reply to "create" (as a
    # server busy building would) and the browser says what it waits for.
    held: list[Any] = []
    sockets: list[Any] = []

    def relay(ws: Any) -> None:
        sockets.append(ws)
        server_ws = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            if isinstance(message, str) and '"t":"joined"' in message.replace(" ", "") and not held:
                held.append(message)
                return
            ws.send(message)

        server_ws.on_message(to_page)
        ws.on_message(lambda message: server_ws.send(message))

    page.route_web_socket("**/ws", relay)
    page.reload()
    page.get_by_test_id("create-room").wait_for()
    page.get_by_test_id("create-game").select_option("words")
    page.get_by_test_id("create-room").click()
    busy = page.get_by_test_id("busy")
    busy.wait_for()
    assert busy.inner_text() == "Preparing the dictionary…"
    # The reply arrives: the line goes and the table opens.
    sockets[-1].send(held[0])
    page.get_by_test_id("words-status").wait_for()
    assert page.get_by_test_id("busy").count() == 0

"""Two real browsers on two nodes of one hall play one Apps Against Humanity table, in headless
Chromium (Playwright) against two real ``gamehall serve`` processes that share a Redis prefix
and a PostgreSQL schema (docs/scale-out.md).

alice, on node a's web port, opens a table; bob, on node b's web port, sees it pushed into his
own lobby (the shared directory), joins it from there (node b forwards his moves to node a, the
owner, and renders the room's events for him), and alice fills the other seats with hall bots.
Both play the game to its end through the table's own controls (each picks cards or, as the
Card Czar, judges), and then both pages show the same table: the same seats and points, the
same round winners, the same final standings. The owner's log in the shared PostgreSQL store
lists alice's and bob's joins once each.

The cross-node protocol itself is tested without a browser in tests/cluster/test_cross_node.py;
this is what a person on node b sees.

Marked ``browser``; skipped where Debian's Chromium is not installed. Without Redis or
PostgreSQL it is skipped too, except under CI (``CI`` set), where it fails.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aah_browser import ACTIONABLE, enter, enter_and_create_table, play_or_judge
from browser_support import CHROMIUM, fresh_page, launched_chromium
from kill_restart import NodeProcess, joined
from redis_space import RedisSpace

pytestmark = pytest.mark.browser

SCREENSHOTS = Path("/tmp")
STEP_MS = 30_000  # a round waits for the bots' think time and the engine's short gaps
GAME_DEADLINE_S = 45.0
TTL = 2.0

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


@pytest.fixture
def nodes(
    tmp_path: Path, redis_space: RedisSpace, database: str
) -> Iterator[tuple[NodeProcess, NodeProcess]]:
    """Nodes ``a`` and ``b`` of one hall, started, and stopped afterwards (their logs go to
    the teardown's output, which pytest shows when the test failed)."""
    started = {
        node_id: NodeProcess.in_hall(redis_space, tmp_path, node_id, ttl=TTL, db=database) for node_id in "ab"
    }
    try:
        for node in started.values():
            node.start()
        yield started["a"], started["b"]
    finally:
        for node_id, node in started.items():
            node.stop()
            print(f"node {node_id}:\n{node.stderr()}")


def web_url(node: NodeProcess) -> str:
    return f"http://127.0.0.1:{node.ports['web']}/"


def play_to_the_end(pages: dict[str, Any]) -> dict[str, int]:
    """Move every page's user whenever the table offers them a move, until both pages show
    the game's end; returns how many moves each user made."""
    moves = dict.fromkeys(pages, 0)
    deadline = time.monotonic() + GAME_DEADLINE_S
    while not all(page.get_by_test_id("game-over").count() for page in pages.values()):
        assert time.monotonic() < deadline, f"the game did not end in time ({moves} moves made)"
        for name, page in pages.items():
            if page.locator(ACTIONABLE).count():
                play_or_judge(page)
                moves[name] += 1
                # the move was taken once the page offers none (until the next round)
                page.wait_for_function(f"() => !document.querySelector('{ACTIONABLE}')")
        next(iter(pages.values())).wait_for_timeout(50)
    return moves


def say(page: Any, text: str) -> None:
    page.get_by_test_id("chat-input").fill(text)
    page.get_by_test_id("chat-send").click()


def scores(page: Any) -> list[tuple[str, str]]:
    """The scoreboard's rows as (name, points), in seat order."""
    rows = page.get_by_test_id("scoreboard").locator("li")
    return [
        (str(row.locator(".name").inner_text()), str(row.get_by_test_id("points").inner_text()))
        for row in rows.all()
    ]


def test_a_browser_on_node_b_plays_node_a_s_aah_table_with_a_browser_on_node_a(
    nodes: tuple[NodeProcess, NodeProcess],
) -> None:
    node_a, node_b = nodes
    # Chromium is launched here, not in a fixture: Playwright's sync API runs an event loop in
    # this thread while it is open, and the async redis_space fixture needs the thread's own.
    with (
        launched_chromium(sync_api) as chromium,
        fresh_page(chromium, width=1280, height=800, step_ms=STEP_MS) as alice,
        fresh_page(chromium, width=1280, height=800, step_ms=STEP_MS) as bob,
    ):
        enter(bob, web_url(node_b), "bob")
        enter_and_create_table(alice, web_url(node_a), "alice", "Two nodes")
        room_id = str(alice.locator(".room").get_attribute("data-room"))

        # node a's table is pushed into bob's lobby on node b; he joins it from there
        row = bob.locator(f'[data-testid="room-row"][data-room="{room_id}"]')
        expect(row).to_contain_text("Two nodes")
        row.get_by_test_id("join-room").click()
        bob.get_by_test_id("aah-status").wait_for()
        expect(bob.locator(".room")).to_have_attribute("data-room", room_id)
        alice.locator(".seat-chips li", has_text="bob").wait_for()
        bob.locator(".seat-chips li", has_text="alice").wait_for()
        # room chat crosses the nodes both ways
        say(alice, "Anyone from the other node?")
        expect(bob.get_by_test_id("chat-log")).to_contain_text("alice: Anyone from the other node?")
        say(bob, "Here, on node b.")
        expect(alice.get_by_test_id("chat-log")).to_contain_text("bob: Here, on node b.")

        alice.get_by_test_id("fill-bots").click()
        for page in (alice, bob):
            page.locator(".seat-chips li").nth(4).wait_for()  # five seats on both nodes
        with contextlib.suppress(sync_api.TimeoutError):  # the full table's 3 s countdown may win
            alice.get_by_test_id("start-game").click(timeout=2000)

        moves = play_to_the_end({"alice": alice, "bob": bob})
        assert moves["alice"] >= 1 and moves["bob"] >= 1, moves
        bob.screenshot(path=str(SCREENSHOTS / "gamehall-browser-two-nodes-b.png"), full_page=True)

        # the game is over, so both tables stand still: what bob sees is what alice sees
        table = scores(alice)
        assert [name for name, _ in table][:2] == ["alice", "bob"]
        assert sorted(points for _, points in table)[-1] == "2"  # somebody won with two points
        assert scores(bob) == table
        winners = alice.get_by_test_id("round-winner-line").all_inner_texts()
        assert len(winners) >= 2
        expect(bob.get_by_test_id("round-winner-line")).to_have_text(winners)
        headline = alice.get_by_test_id("summary-headline").inner_text()
        assert "wins the game" in headline
        expect(bob.get_by_test_id("summary-headline")).to_have_text(headline)
        standings = alice.get_by_test_id("summary-standings").locator("tbody tr").all_inner_texts()
        expect(bob.get_by_test_id("summary-standings").locator("tbody tr")).to_have_text(
            standings, use_inner_text=True
        )

    record = node_a.room(room_id)  # node a owns the room: its log is in the shared store
    names = joined(record)
    assert names.count("alice") == 1 and names.count("bob") == 1, names
    assert record.finished

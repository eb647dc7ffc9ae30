"""Issue 14's "the standings page renders in Chromium", with a real contest.

The Mr. Jack demo (a strong bot and two random ones, round robin, 4 games per pairing, 3 at
once) runs on the real server with the real runner, entrant processes and hall side, exactly as
``gamehall contest run --demo`` plays it; only the server stays up after the last game (the CLI
stops it), so that the page can still be read. A visitor opens /contest/ID while it runs, sees
the progress advance, and after the end sees the standings in the runner's order (the strong
bot first) and follows a game's replay link.

Marked ``browser``; skipped where Debian's Chromium is not installed.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import CHROMIUM, ServerThread, fresh_page, launched_chromium

from gamehall.contest.launch import (
    HOST,
    RunOptions,
    default_hall_factory,
    demo_entrants,
    expected_order_holds,
    plan_contest,
    server_config,
)
from gamehall.contest.progress import ProgressLine
from gamehall.contest.runner import ContestResult, ContestRunner

pytestmark = pytest.mark.browser

STEP_MS = 15_000
CONTEST_S = 180.0
"""The whole demo: about 15 s on a quiet machine; generous for a busy one."""
GAMES = 12  # 3 pairings x 4 games

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


@pytest.fixture
def chromium() -> Iterator[Any]:
    with launched_chromium(sync_api) as browser:
        yield browser


def played(page: Any) -> int:
    """The number of games the progress line says are played ("N of 12 games played")."""
    text = page.get_by_test_id("contest-progress-text").inner_text()
    match = re.search(r"(\d+) of (\d+)", text)
    assert match is not None, text
    return int(match.group(1))


def test_a_visitor_watches_a_real_contest_to_its_standings_and_a_replay(
    chromium: Any, tmp_path: Path
) -> None:
    options = RunOptions(
        "mrjack", "round-robin", demo_entrants("mrjack"), tmp_path, seed=1, games_per_pairing=4, parallel=3
    )
    plan, contest_format = plan_contest(options)
    config, listen = server_config(plan, port_base=0)
    server = ServerThread(listen, config)
    server.start()
    try:
        assert server.server is not None
        hall_server = server.server
        runner = ContestRunner(
            plan,
            contest_format,
            default_hall_factory()(hall_server.hall),
            host=HOST,
            port=hall_server.ports[plan.protocol],
            progress=ProgressLine(io.StringIO(), tty=False),
        )
        running = server.spawn(runner.run())
        with fresh_page(chromium, width=1280, height=800, step_ms=STEP_MS) as page:
            page.goto(f"{server.web_url}contest/{plan.contest_id}")
            expect(page.get_by_test_id("contest-progress-text")).to_contain_text(f"of {GAMES} games played")
            first_seen = played(page)
            assert first_seen < GAMES, "the page was opened while the contest ran"
            page.wait_for_function(  # polled by the page itself, no reload
                f"""() => /([0-9]+) of {GAMES}/.test(
                    document.querySelector('[data-testid="contest-progress-text"]').textContent)
                    && Number(/([0-9]+) of/.exec(document.querySelector(
                    '[data-testid="contest-progress-text"]').textContent)[1]) > {first_seen}""",
                timeout=CONTEST_S * 1000,
            )

            result: ContestResult = running.result(CONTEST_S)
            assert len(result.reports) == GAMES and expected_order_holds(result.standings)
            expect(page.get_by_test_id("contest-progress-text")).to_contain_text(
                f"{GAMES} of {GAMES} games played"
            )
            rows = page.get_by_test_id("standings-row")
            expect(rows).to_have_count(3)
            names = [rows.nth(i).get_attribute("data-name") for i in range(3)]
            assert names == [row.name for row in result.standings.rows]
            assert names[0] == "strong"

            game = page.locator('[data-testid="contest-game"][data-number="1"]')
            game.get_by_test_id("contest-replay").click()
            first = next(report.room_id for report in result.reports if report.order.number == 1)
            page.wait_for_url(re.compile(f"/replay/{first}$"))
            expect(page.get_by_test_id("replay-step")).to_contain_text("Step 0 of")
    finally:
        server.stop()

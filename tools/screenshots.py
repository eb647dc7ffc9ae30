"""Screenshots of every game's browser table at 1280x800 and 390x844, into docs/screenshots/.

Run on demand (``make screenshots``): it starts the real server on ephemeral ports with an
in-memory store, plays each game in Debian's Chromium against the hall's bots up to a moment
that shows the table at work (your turn with the hand, a decision panel, the rack in a timed
turn), and saves one PNG per size. A Doppelkopf round is also played to its end for the
game-over summary with its chart. Needs /usr/bin/chromium and the test extras (Playwright).

    .venv/bin/python tools/screenshots.py [--only doppelkopf,words] [--out DIR] [--lang de]
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "support"))

from browser_support import CHROMIUM, ServerThread, launched_chromium, serving  # noqa: E402

from gamehall.config import ServerConfig  # noqa: E402

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
STEP_MS = 30_000
URSUPPE_SHORT = {"environment_deck": ["2:10", "1:14", "3:9"], "shuffle_deck": False, "timeout_ms": 120000}


def login_and_create(
    page: Any, url: str, name: str, game: str, title: str = "", settings: dict[str, str] | None = None
) -> None:
    page.goto(url)
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("login-button").click()
    page.get_by_test_id("create-room").wait_for()
    page.get_by_test_id("create-game").select_option(game)
    if title:
        page.get_by_test_id("create-title").fill(title)
    if settings:
        page.locator("details summary").first.click()
        for setting, value in settings.items():
            field = page.locator(f'[data-setting="{setting}"]')
            if field.evaluate("el => el.tagName") == "SELECT":
                field.select_option(value)
            else:
                field.fill(value)
    page.get_by_test_id("create-room").click()


def ask_bots(page: Any, count: int) -> None:
    """The message the room frame's bot buttons send (some tables have no such button)."""
    page.evaluate(
        """async (count) => {
            const { app } = await import("/app.js");
            await app.run({ t: "bots", room: app.state.current, count });
        }""",
        count,
    )


def aah(page: Any, url: str) -> None:
    login_and_create(page, url, "ann", "aah", "Friday cards")
    page.get_by_test_id("aah-status").wait_for()
    page.get_by_test_id("fill-bots").click()
    page.locator(".seat-chips li").nth(4).wait_for()
    if page.get_by_test_id("start-game").count():
        page.get_by_test_id("start-game").click()
    page.wait_for_selector('[data-testid="hand-card"]:enabled, [data-testid="judge-button"]', timeout=STEP_MS)
    for _ in range(2):  # two rounds first, so scores and round winners show
        if page.get_by_test_id("judge-button").count():
            page.get_by_test_id("judge-button").first.click()
        else:
            pick = int(page.get_by_test_id("black-pick").inner_text().split()[-1])
            for index in range(pick):
                page.get_by_test_id("hand-card").nth(index).click()
            if pick > 1:
                page.get_by_test_id("play-cards").click()
        page.get_by_test_id("round-winner").wait_for()
        page.wait_for_selector(
            '[data-testid="hand-card"]:enabled, [data-testid="judge-button"]', timeout=STEP_MS
        )


def doppelkopf(page: Any, url: str, name: str = "dora") -> None:
    # Each scene logs in under its own name: a name stays taken while its seat is held.
    login_and_create(page, url, name, "doppelkopf", "Doko night")
    page.get_by_test_id("dk-status").wait_for()
    ask_bots(page, 3)
    page.get_by_test_id("dk-ready").click()
    page.get_by_test_id("dk-answer-no").first.click()
    played = 0
    while played < 4:
        page.wait_for_selector('[data-testid="dk-card"]:enabled, [data-testid="dk-round-result"]')
        if page.get_by_test_id("dk-round-result").count():
            break
        before = page.get_by_test_id("dk-card").count()
        page.locator('[data-testid="dk-card"]:enabled').first.click()
        page.wait_for_function(
            "n => document.querySelectorAll('[data-testid=\"dk-card\"]').length < n", arg=before
        )
        played += 1
    page.wait_for_selector('[data-testid="dk-card"]:enabled, [data-testid="dk-round-result"]')


def doppelkopf_game_over(page: Any, url: str) -> None:
    doppelkopf(page, url, "doris")
    while not page.get_by_test_id("dk-round-result").count():
        page.wait_for_selector('[data-testid="dk-card"]:enabled, [data-testid="dk-round-result"]')
        if page.get_by_test_id("dk-round-result").count():
            break
        before = page.get_by_test_id("dk-card").count()
        page.locator('[data-testid="dk-card"]:enabled').first.click()
        page.wait_for_function(
            "n => document.querySelectorAll('[data-testid=\"dk-card\"]').length < n", arg=before
        )
    page.get_by_test_id("dk-vote-end").click()
    page.get_by_test_id("game-summary").wait_for()


def ursuppe(page: Any, url: str) -> None:
    login_and_create(page, url, "ursula", "ursuppe", "Soup night")
    page.get_by_test_id("ur-board").wait_for()
    ask_bots(page, 2)
    seen: set[str] = set()
    for _ in range(120):
        page.wait_for_selector("[data-testid=ur-decision], [data-testid=game-over]")
        if page.get_by_test_id("game-over").count():
            return
        request = page.get_by_test_id("ur-decision").get_attribute("data-request")
        phase = page.get_by_test_id("ursuppe").get_attribute("data-phase")
        if request == "ZUG_AMOEBE_SETZEN" and phase == "zellteilung":
            return  # cell division: the legal fields are highlighted
        seen.add(str(request))
        before = page.get_by_test_id("ur-status").inner_text()
        if request == "ZUG_AMOEBE_SETZEN":
            page.locator("button[data-testid=ur-field]").first.click()
        elif request == "ZUG_BEWEGEN" and page.get_by_test_id("ur-drift").count():
            page.get_by_test_id("ur-drift").click()
        elif request == "ZUG_BEWEGEN" and page.get_by_test_id("ur-no-second").count():
            page.get_by_test_id("ur-no-second").click()
        elif request == "ZUG_GEN_KAUFEN":
            page.get_by_test_id("ur-buy-nothing").click()
        else:
            page.get_by_test_id("ur-decision").locator("button:enabled").first.click()
        with contextlib.suppress(Exception):  # the same request again (a second amoeba): go on
            page.wait_for_function(
                "([before]) => !document.querySelector('[data-testid=ur-decision]') || "
                "document.querySelector('[data-testid=ur-status]').innerText !== before",
                arg=[before],
                timeout=5000,
            )


def words(page: Any, url: str) -> None:
    login_and_create(page, url, "wendy", "words", settings={"preset": "DupEN"})
    page.get_by_test_id("words-status").wait_for()
    page.get_by_test_id("add-bot").click()
    page.locator(".seat-chips li").nth(1).wait_for()
    page.get_by_test_id("start-game").click()
    page.get_by_test_id("rack-tile").first.wait_for()
    page.get_by_test_id("words-timer").wait_for()


def mrjack(page: Any, url: str) -> None:
    login_and_create(page, url, "holmes", "mrjack", "Manhattan manhunt")
    page.get_by_test_id("mj-lobby").wait_for()
    page.get_by_test_id("mj-role-detektiv").click()
    page.get_by_test_id("mj-role-mrjack").wait_for()
    page.get_by_test_id("add-bot").click()
    page.locator('.mj-status:has-text("Round 1 of 8")').wait_for()


SCENES: dict[str, Callable[[Any, str], None]] = {
    "aah": aah,
    "doppelkopf": doppelkopf,
    "doppelkopf-game-over": doppelkopf_game_over,
    "ursuppe": ursuppe,
    "words": words,
    "mrjack": mrjack,
}


def shoot(
    browser: Any, server: ServerThread, name: str, scene: Callable[[Any, str], None], out: Path, lang: str
) -> list[Path]:
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(f"localStorage.setItem('gamehall.lang', '{lang}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(STEP_MS)
    try:
        scene(page, server.web_url)
        page.wait_for_timeout(300)  # let a countdown tick once and fonts settle
        suffix = "" if lang == "en" else f"-{lang}"
        shots = []
        for size in (DESKTOP, PHONE):
            page.set_viewport_size(size)
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(150)
            path = out / f"{name}{suffix}-{size['width']}x{size['height']}.png"
            page.screenshot(path=str(path))
            shots.append(path)
        if errors:
            raise RuntimeError(f"{name}: JavaScript errors: {errors}")
        return shots
    except Exception:
        page.screenshot(path=str(out / f"failed-{name}.png"))
        print(
            f"{name}: failed (see {out / f'failed-{name}.png'}); JavaScript errors: {errors}", file=sys.stderr
        )
        raise
    finally:
        context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated scene names (default: all)")
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--lang", default="en", choices=("en", "de"))
    args = parser.parse_args(argv)
    if not CHROMIUM.exists():
        print("no /usr/bin/chromium: nothing to do", file=sys.stderr)
        return 1
    from playwright import sync_api

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    wanted = [n for n in args.only.split(",") if n] or list(SCENES)
    config = ServerConfig(bind="127.0.0.1", db=":memory:", room_defaults={"ursuppe": URSUPPE_SHORT})
    with serving({"web": 0}, config) as server, launched_chromium(sync_api) as browser:
        for name in wanted:
            started = time.monotonic()
            for path in shoot(browser, server, name, SCENES[name], out, args.lang):
                print(
                    f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}"
                    f"  {path.stat().st_size // 1024} KiB"
                )
            print(f"  {name}: {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

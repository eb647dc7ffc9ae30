"""A browser user plays a whole game of Ursuppe in headless Chromium (Playwright) against the
hall's in-process bots: the real server (HTTP, /ws, the web dialogue, the hall, the engine).

The rooms use a three-card environment deck, so the game ends after round 2. The user answers
every request through the renderer's panels (ready, start space, first amoebas on the board,
drift or roll and move, a meal, a gene purchase, a cell division, declines) until the game-over
banner shows. Marked ``browser``; skipped where Debian's Chromium is not installed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import CHROMIUM, ServerThread, fresh_page, launched_chromium, serving

from gamehall.config import ServerConfig

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")

SHORT_GAME = {"environment_deck": ["2:10", "1:14", "3:9"], "shuffle_deck": False, "timeout_ms": 60000}
STEP_MS = 30_000
SCREENSHOTS = Path("/tmp")


@pytest.fixture
def server() -> Iterator[ServerThread]:
    with serving(
        {"web": 0, "urserver": 0},
        ServerConfig(bind="127.0.0.1", db=":memory:", room_defaults={"ursuppe": SHORT_GAME}),
    ) as thread:
        yield thread


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with launched_chromium(sync_api) as browser:
        yield browser


@pytest.fixture
def page(server: ServerThread, chromium: Any) -> Iterator[Any]:
    with fresh_page(chromium, width=1280, height=900, step_ms=STEP_MS) as page:
        yield page


def answer(page: Any, request: str, seen: set[str]) -> None:
    """Click through one decision panel."""
    panel = page.get_by_test_id("ur-decision")
    first = panel.locator("button:enabled")
    if request == "ZUG_BEREIT":
        page.get_by_test_id("ur-ready").click()
    elif request == "ZUG_POSITION":
        page.get_by_test_id("ur-position").first.click()
    elif (
        request == "ZUG_AMOEBE_SETZEN"
        and page.locator("button[data-testid=ur-field]").count()
        and "aufbau" in page.get_by_test_id("ursuppe").get_attribute("data-phase")
    ):
        page.locator("button[data-testid=ur-field]").first.click()
    elif request == "ZUG_AMOEBE_SETZEN":
        page.get_by_test_id("ur-divide").click()
    elif request == "ZUG_BEWEGEN":
        if page.get_by_test_id("ur-move").count():
            page.locator("[data-testid=ur-move]:enabled").first.click()
        elif page.get_by_test_id("ur-drift").count() and "roll" in seen:
            page.get_by_test_id("ur-drift").click()
        elif page.get_by_test_id("ur-no-second").count():
            page.get_by_test_id("ur-no-second").click()
        else:
            seen.add("roll")
            page.get_by_test_id("ur-roll").click()
            page.get_by_test_id("ur-dice").wait_for()
    elif request == "ZUG_FRESSEN":
        target = (
            page.get_by_test_id("ur-meal")
            if page.get_by_test_id("ur-meal").count()
            else page.get_by_test_id("ur-starve")
        )
        target.first.click()
    elif request == "ZUG_GEN_KAUFEN":
        if "buy" not in seen:
            seen.add("buy")
            bp = int(page.locator("li.me [data-testid=ur-bp]").inner_text().split()[0])
            for box in page.locator("[data-testid=ur-gene]:enabled").all():
                price = int(box.get_attribute("data-price"))
                if price <= bp:
                    box.check()
                    page.get_by_test_id("ur-total").get_by_text(f"{price} of").wait_for()
                    seen.add("bought")
                    break
            page.get_by_test_id("ur-buy").click()
        else:
            page.get_by_test_id("ur-buy-nothing").click()
    else:
        first.last.click()


def test_browser_user_plays_a_whole_game_against_hall_bots(server: ServerThread, page: Any) -> None:
    page.goto(server.web_url)
    page.get_by_test_id("name-input").fill("ursula")
    page.get_by_test_id("login-button").click()
    page.get_by_test_id("create-room").wait_for()
    page.get_by_test_id("create-game").select_option("ursuppe")
    page.get_by_test_id("create-title").fill("Soup night")
    page.get_by_test_id("create-room").click()
    page.get_by_test_id("ur-status").wait_for()
    page.get_by_test_id("ur-board").wait_for()
    assert page.get_by_test_id("ur-field").count() == 19
    # Coordinates as the texts name them, x across and y down; BP and DP explained.
    assert page.get_by_test_id("ur-coord-x").count() == 5 and page.get_by_test_id("ur-coord-y").count() == 5
    assert "biopoints" in page.get_by_test_id("ur-legend").inner_text()
    assert "damage points" in page.get_by_test_id("ur-legend").inner_text()
    # Gene names in English with the German wire name beside, and what each does.
    page.get_by_test_id("ur-gene-pool").locator("summary").click()
    names = page.get_by_test_id("ur-gene-name").all_inner_texts()
    assert "Speed (GESCHWINDIGKEIT)" in names and "Armor (PANZERUNG)" in names
    assert "cannot be attacked in phase 1" in page.get_by_test_id("ur-gene-pool").inner_text()
    page.locator(".seat-chips li", has_text="ursula").wait_for()
    if page.get_by_test_id("fill-bots").count():
        page.get_by_test_id("fill-bots").click()
    else:  # a hall whose RoomInfo.max_seats does not read Ursuppe's "players" offers no button
        page.evaluate(
            """async () => {
                const { app } = await import("/app.js");
                await app.run({ t: "bots", room: app.state.current, count: 2 });
            }"""
        )
    seen: set[str] = set()
    done = page.get_by_test_id("game-over")
    for _ in range(200):
        page.wait_for_selector("[data-testid=ur-decision], [data-testid=game-over]")
        if done.count():
            break
        request = page.get_by_test_id("ur-decision").get_attribute("data-request")
        if request not in seen:
            seen.add(request)
            page.screenshot(path=str(SCREENSHOTS / f"gamehall-browser-ursuppe-{request}.png"))
        before = page.get_by_test_id("ur-status").inner_text()
        answer(page, request, seen)
        with contextlib.suppress(sync_api.TimeoutError):
            page.wait_for_function(
                "([before]) => !document.querySelector('[data-testid=ur-decision]') || "
                "document.querySelector('[data-testid=ur-status]').innerText !== before",
                arg=[before],
                timeout=5000,
            )
    assert done.count() == 1
    assert "wins" in done.inner_text()
    # The game-over summary: standings and each colour's score-track position over the rounds.
    assert page.get_by_test_id("summary-standings").locator("tbody tr").count() == 3
    assert page.get_by_test_id("score-chart").locator("polyline").count() == 3
    if "bought" in seen:
        assert page.locator("li.me [data-testid=ur-genes] .badge").count() >= 1
    page.screenshot(path=str(SCREENSHOTS / "gamehall-browser-ursuppe.png"))


def _view(kind: str, phase: str, **changes: Any) -> dict[str, Any]:
    """A real engine view of a 4-player table (seat 0 to answer ``kind``), with the seat's
    amoeba 0 at (1, 1) next to a foreign amoeba, and ``changes`` to seat 0's entry."""
    from gamehall.rules.ursuppe import new_game
    from gamehall.rules.ursuppe.state import Player

    table = new_game({"players": 4, "shuffle_deck": False}, 1)
    g = table.state
    for seat in range(4):
        g.seats[seat] = Player(seat, f"p{seat}", position=seat, bp=9)
    g.put_amoeba(0, 0, (1, 1))
    g.put_amoeba(1, 3, (1, 1))
    g.put_amoeba(0, 1, (3, 3))
    view = table.view(0)
    view["phase"] = phase
    view["round"] = 2
    view["my_request"] = kind
    view["to_move"] = {"seats": [0], "kind": kind}
    view["seats"][0].update(changes)
    return view


DECISIONS: list[tuple[str, str, dict[str, Any], dict[str, Any] | None, str, dict[str, Any]]] = [
    (
        "ZUG_KLAMMERN",
        "bewegen_und_fressen",
        {"genes": [10]},
        {
            "type": "ZugKlammern",
            "amoebe": 0,
            "mitfahr_farbe": 1,
            "mitfahr_amoebe": 3,
            "richtung": 3,
            "naehrstoffe": [0, 0, 0, 0],
        },
        "ur-ride",
        {"type": "Klammern", "amoebe": 0, "mitfahr_farbe": 1, "mitfahr_amoebe": 3},
    ),
    (
        "ZUG_ABWEHR",
        "bewegen_und_fressen",
        {"genes": [4, 5]},
        {
            "type": "ZugAbwehr",
            "amoebe": 0,
            "angreifende_farbe": 1,
            "angreifende_amoebe": 3,
            "was_darf_sie_tun": 2,
        },
        "ur-defend",
        {"type": "Verteidigung", "amoebe": 0},
    ),
    (
        "ZUG_ABWEHR",
        "bewegen_und_fressen",
        {"genes": [5]},
        {
            "type": "ZugAbwehr",
            "amoebe": 0,
            "angreifende_farbe": 1,
            "angreifende_amoebe": 3,
            "was_darf_sie_tun": 0,
        },
        "ur-flee-roll",
        {"type": "Wuerfeln"},
    ),
    (
        "ZUG_GENDEFEKTE",
        "umwelt_und_gendefekte",
        {"genes": [4, 7]},
        {"type": "ZugGendefekte", "defekt": 3},
        "ur-pay",
        {"type": "DefektAusgleichen", "gene": []},
    ),
    (
        "ZUG_AGGRESSION",
        "todesfaelle",
        {"genes": [18]},
        {"type": "ZugAggression"},
        "ur-aggression",
        {"type": "Aggression", "amoebe": 0, "gegen_farbe": 1, "gegen_amoebe": 3},
    ),
    (
        "ZUG_AGGRESSION",
        "todesfaelle",
        {"genes": [18]},
        {"type": "ZugAggression"},
        "ur-no-aggression",
        {"type": "KeineAggression"},
    ),
    (
        "ZUG_BEWEGEN",
        "bewegen_und_fressen",
        {"genes": [9]},
        {"type": "ZugBewegen", "amoebe": 0, "schritt": 1},
        "ur-tentacle",
        {"type": "Tentakel", "amoebe": 0, "naehrstoffe": [0, 0, 0, 0]},
    ),
    (
        "ZUG_BEWEGEN",
        "bewegen_und_fressen",
        {},
        {"type": "ZugBewegen", "amoebe": 0, "schritt": 2},
        "ur-no-second",
        {"type": "KeineZweiteBewegung", "amoebe": 0},
    ),
    (
        "ZUG_FRESSEN",
        "bewegen_und_fressen",
        {"genes": [14]},
        {"type": "ZugFressen", "amoebe": 0},
        "ur-parasite",
        {"type": "Parasitismus", "amoebe": 0, "gegen_farbe": 1},
    ),
    (
        "ZUG_FRESSEN",
        "bewegen_und_fressen",
        {},
        {"type": "ZugFressen", "amoebe": 0},
        "ur-meal",
        {"type": "Fressen", "amoebe": 0, "naehrstoffe": [0, 1, 1, 1]},
    ),
    (
        "ZUG_GEN_KAUFEN",
        "gene_kaufen",
        {"genes": [4, 5]},
        {"type": "ZugGenKaufen"},
        "ur-buy-nothing",
        {"type": "GenKaufen", "gene": [], "panzerung_abgeben": None},
    ),
    (
        "ZUG_AMOEBE_SETZEN",
        "zellteilung",
        {},
        {"type": "ZugAmoebeSetzen", "aufbau": False},
        "ur-divide",
        {"type": "AmoebenSetzen", "setzungen": []},
    ),
]


def test_every_decision_panel_sends_its_action(server: ServerThread, page: Any) -> None:
    page.goto(server.web_url)
    page.get_by_test_id("name-input").wait_for()
    for kind, phase, changes, event, testid, expected in DECISIONS:
        view = _view(kind, phase, **changes)
        sent = page.evaluate(
            """async ([view, event, testid]) => {
                const ur = await import("/games/ursuppe.js");
                const room = { id: "r1", seat: 0 };
                if (event) ur.onEvent(null, room, event);
                const sent = [];
                const act = (a) => sent.push(a);
                const ctx = { view, seat: 0, room, timers: [], ended: null, act, rerender: () => {} };
                const host = document.createElement("div");
                host.id = "ur-host";
                document.getElementById("ur-host")?.remove();
                document.body.appendChild(host);
                host.appendChild(ur.render(ctx));
                host.querySelector(`[data-testid=${testid}]`).click();
                return sent;
            }""",
            [view, event, testid],
        )
        assert sent == [expected], kind


def test_cell_division_highlights_the_legal_fields_and_drops_a_refused_block(
    server: ServerThread, page: Any
) -> None:
    from gamehall.rules.ursuppe import new_game
    from gamehall.rules.ursuppe.division import field_allowed
    from gamehall.rules.ursuppe.state import Player

    table = new_game({"players": 4, "shuffle_deck": False}, 1)
    g = table.state
    for seat in range(4):
        g.seats[seat] = Player(seat, f"p{seat}", position=seat, bp=9)
    g.put_amoeba(0, 0, (1, 1))
    g.put_amoeba(0, 1, (3, 3))
    own = [(1, 1), (3, 3)]
    expected = sorted(f for f in g.board.fields() if field_allowed(g, own, f, spores=False))
    far = next(f for f in g.board.fields() if f not in expected and f not in own)
    view = _view("ZUG_AMOEBE_SETZEN", "zellteilung")
    page.goto(server.web_url)
    page.get_by_test_id("name-input").wait_for()
    page.evaluate(
        """async ([view]) => {
            const ur = await import("/games/ursuppe.js");
            const room = { id: "division", seat: 0 };
            const host = document.createElement("div");
            host.id = "ur-host";
            document.body.appendChild(host);
            window.sent = [];
            window.reply = { ok: true };
            const ctx = { view, seat: 0, room, timers: [], ended: null,
              act: (a) => { window.sent.push(a); return Promise.resolve(window.reply); },
              rerender: () => host.replaceChildren(ur.render(ctx)) };
            window.urCtx = ctx;
            ctx.rerender();
        }""",
        [view],
    )
    legal = page.locator("[data-testid=ur-field][data-legal='1']")
    shown = sorted((int(c.get_attribute("data-x")), int(c.get_attribute("data-y"))) for c in legal.all())
    assert shown == expected and len(shown) > 0
    assert page.locator("button.ur-cell.legal").count() == len(expected)
    # 9 BP pay for one amoeba (6 BP): after planning one, no field is offered any more.
    x, y = expected[0]
    page.locator(f"[data-testid=ur-field][data-x='{x}'][data-y='{y}']").click()
    assert page.locator(".ur-cell.planned").count() == 1
    assert page.locator("[data-testid=ur-field][data-legal='1']").count() == 0
    page.get_by_test_id("ur-no-targets").wait_for()
    # The server refuses the block (as it would an illegal one): the plan is dropped.
    page.evaluate(
        """async ([x, y]) => {
            const ur = await import("/games/ursuppe.js");
            ur.planDivision("division", [2, x, y]);
            window.reply = null;
            window.urCtx.rerender();
        }""",
        list(far),
    )
    assert page.locator(".ur-cell.planned").count() == 2
    page.get_by_test_id("ur-divide").click()
    page.wait_for_function("() => document.querySelectorAll('.ur-cell.planned').length === 0")
    assert page.evaluate("window.sent")[-1]["type"] == "AmoebenSetzen"
    assert page.locator("[data-testid=ur-field][data-legal='1']").count() == len(expected)


def test_the_table_fits_a_390_px_phone(server: ServerThread, chromium: Any) -> None:
    with fresh_page(chromium, width=390, height=844, step_ms=STEP_MS) as phone:
        phone.goto(server.web_url)
        phone.get_by_test_id("name-input").wait_for()
        view = _view("ZUG_AMOEBE_SETZEN", "zellteilung")
        phone.evaluate(
            """async ([view]) => {
                const ur = await import("/games/ursuppe.js");
                const room = { id: "phone", seat: 0 };
                const host = document.createElement("main");
                const ctx = { view, seat: 0, room, timers: [], ended: null,
                  act: () => null, rerender: () => {} };
                host.appendChild(ur.render(ctx));
                document.getElementById("main").replaceChildren(host);
            }""",
            [view],
        )
        width = phone.evaluate("document.scrollingElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide"
        board = phone.get_by_test_id("ur-board").bounding_box()
        assert board is not None and board["x"] >= 0 and board["x"] + board["width"] <= 390
        assert phone.get_by_test_id("ur-divide").is_visible()

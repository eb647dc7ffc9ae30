"""The hall around the tables, in headless Chromium against the real server: a lobby that
updates itself, rooms with their own addresses and chat that survives a reload, settings a
player understands, Log out that sticks, replays of finished games, and the host console.

Marked ``browser``; skipped where Debian's Chromium is not installed.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import CHROMIUM, ServerThread, fresh_page, launched_chromium, serving

from gamehall.bots.hall_bots import add_bots
from gamehall.config import ServerConfig

pytestmark = pytest.mark.browser

STEP_MS = 15_000
TOKEN = "host token for the tests"

if not CHROMIUM.exists():
    pytest.skip("Chromium is not installed at /usr/bin/chromium", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    config = dataclasses.replace(ServerConfig(bind="127.0.0.1", db=":memory:"), operator_token=TOKEN)
    with serving({"web": 0}, config) as thread:
        yield thread


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with launched_chromium(sync_api) as browser:
        yield browser


def new_page(chromium: Any) -> Any:
    return fresh_page(chromium, width=1280, height=800, step_ms=STEP_MS)


def enter(page: Any, url: str, name: str) -> None:
    page.goto(url)
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("login-button").click()
    page.get_by_test_id("create-room").wait_for()


def create_aah_room(page: Any, title: str) -> str:
    page.get_by_test_id("create-game").select_option("aah")
    page.get_by_test_id("create-title").fill(title)
    page.get_by_test_id("create-room").click()
    page.get_by_test_id("back-to-lobby").wait_for()
    return str(page.locator(".room").get_attribute("data-room"))


def test_the_lobby_is_live_rooms_have_addresses_and_chat_survives_a_reload(
    server: ServerThread, chromium: Any
) -> None:
    with new_page(chromium) as ann, new_page(chromium) as bob:
        enter(ann, server.web_url, "ann")
        enter(bob, server.web_url, "bob")
        assert bob.get_by_test_id("refresh-rooms").count() == 0  # nothing to press: it is live
        room_id = create_aah_room(ann, "Live lobby")
        row = bob.locator(f'[data-testid="room-row"][data-room="{room_id}"]')
        expect(row).to_contain_text("Live lobby")  # pushed, no polling
        expect(row.get_by_test_id("room-link")).to_have_attribute("href", f"/room/{room_id}")
        expect(ann.get_by_test_id("room-link")).to_have_text(room_id)
        assert ann.url.endswith(f"/room/{room_id}")

        ann.get_by_test_id("invite-name").fill("bob")  # an invitation by name
        ann.get_by_test_id("invite-send").click()
        expect(bob.get_by_test_id("invitation-link")).to_have_attribute("href", f"/room/{room_id}")
        ann.get_by_test_id("chat-input").fill("Welcome, everyone!")
        ann.get_by_test_id("chat-send").click()
        expect(ann.get_by_test_id("chat-input")).to_have_attribute("maxlength", "1000")

        # carl follows the shared link, logs in, and watches; he sees what was said before him
        with new_page(chromium) as carl:
            carl.goto(f"{server.web_url}room/{room_id}")
            carl.get_by_test_id("name-input").fill("carl")
            carl.get_by_test_id("login-button").click()
            carl.get_by_test_id("linked-watch").click()
            carl.get_by_test_id("spectating").wait_for()
            expect(carl.get_by_test_id("chat-log")).to_contain_text("Welcome, everyone!")
            expect(row).to_contain_text("1", use_inner_text=True)  # bob's lobby: one watching
            carl.reload()
            carl.get_by_test_id("spectating").wait_for()
            expect(carl.get_by_test_id("chat-log")).to_contain_text("Welcome, everyone!")

        ann.get_by_test_id("leave-room").click()
        expect(row).to_have_count(0)  # the empty room closed: gone from bob's lobby at once


def test_a_player_who_joins_sees_what_was_said_before_and_their_own_arrival_after_it(
    server: ServerThread, chromium: Any
) -> None:
    """The joiner's own ``SeatJoined`` reaches the page before ``joined`` (which carries the
    room's recent chat): the page once dropped the chat then, as its log was not empty."""
    with new_page(chromium) as ida, new_page(chromium) as jon:
        enter(ida, server.web_url, "ida")
        enter(jon, server.web_url, "jon")
        room_id = create_aah_room(ida, "Said before")
        ida.get_by_test_id("chat-input").fill("Deal me in, whoever comes.")
        ida.get_by_test_id("chat-send").click()
        expect(ida.get_by_test_id("chat-log")).to_contain_text("Deal me in")
        jon.locator(f'[data-testid="room-row"][data-room="{room_id}"]').get_by_test_id("join-room").click()
        jon.get_by_test_id("back-to-lobby").wait_for()
        lines = jon.get_by_test_id("chat-log").locator("li")
        expect(lines).to_have_text(["ida: Deal me in, whoever comes.", "jon sat down."], use_inner_text=True)
        jon.get_by_test_id("leave-room").click()
        ida.get_by_test_id("leave-room").click()


def test_the_create_form_shows_grouped_player_settings_in_plain_words(
    server: ServerThread, chromium: Any
) -> None:
    with new_page(chromium) as page:
        enter(page, server.web_url, "dora")
        page.get_by_test_id("create-game").select_option("doppelkopf")
        page.locator("details summary").click()
        groups = page.locator('[data-testid="setting-group"] > legend').all_inner_texts()
        assert groups[:3] == ["Timing", "Cards", "Extra points"]
        expect(page.locator('label[for="setting-fox"]')).to_have_text("Fox (Fuchs)")
        for hidden in ("deal_interval_s", "trick_close_delay_s", "rejoin_grace", "resume"):
            assert page.locator(f'[data-setting="{hidden}"]').count() == 0
        assert "_" not in " ".join(page.locator(".settings label").all_inner_texts())
        solos = page.locator('[data-setting="solos"]')  # a set of options: a box each, in words
        expect(solos.locator('input[data-option="solo_queen"]')).to_be_checked()
        expect(solos).to_contain_text("Queens solo")
        solos.locator('input[data-option="solo_null"]').check()
        solos.locator('input[data-option="solo_queen"]').uncheck()
        page.get_by_test_id("create-room").click()
        page.get_by_test_id("back-to-lobby").wait_for()
        room_id = str(page.locator(".room").get_attribute("data-room"))
        assert server.server is not None
        [info] = [r for r in server.server.hall.rooms("doppelkopf") if r.room_id == room_id]
        assert "solo_null" in info.config["solos"] and "solo_queen" not in info.config["solos"]  # type: ignore[operator]
        page.get_by_test_id("leave-room").click()
        page.get_by_test_id("create-game").select_option("aah")
        assert page.locator('[data-setting="max_tables"]').count() == 0
        expect(page.locator('label[for="setting-aplimit"]')).to_have_text("Points to win")


def test_log_out_survives_a_reload(server: ServerThread, chromium: Any) -> None:
    with new_page(chromium) as page:
        enter(page, server.web_url, "erin")
        page.get_by_test_id("logout").click()
        page.get_by_test_id("name-input").wait_for()
        page.reload()
        page.get_by_test_id("name-input").wait_for()  # not logged in again behind our back
        expect(page.get_by_test_id("name-input")).to_have_value("erin")
        expect(page.get_by_test_id("connection-status")).not_to_have_text("Connected")


def play_a_bot_game(server: ServerThread) -> str:
    """Three hall bots play a short AAH game on the server; returns the finished room's id."""

    async def start() -> str:
        hall = server.server.hall if server.server is not None else None
        assert hall is not None
        settings = {"aplimit": 2, "round_gap": 0.1, "autostart_delay": 1}
        room = hall.create_room("aah", settings, operator=None, title="Bots' night")
        add_bots(hall, room.room_id, 3, "random", delay=0.01)
        return room.room_id

    return str(server.run(start()))


def test_a_finished_game_is_listed_and_replayed_step_by_step(server: ServerThread, chromium: Any) -> None:
    room_id = play_a_bot_game(server)
    with new_page(chromium) as page:
        enter(page, server.web_url, "fay")
        entry = page.locator(f'[data-testid="recent-game"][data-room="{room_id}"]')
        expect(entry).to_contain_text("Bots' night", timeout=60_000)  # pushed when it finishes
        expect(entry).to_contain_text("won")
        entry.get_by_test_id("replay-link").click()
        page.wait_for_url(re.compile(f"/replay/{room_id}"))
        step = page.get_by_test_id("replay-step")
        expect(step).to_contain_text("Step 0 of")
        total = int(re.search(r"of (\d+)", step.inner_text()).group(1))  # type: ignore[union-attr]
        page.get_by_test_id("replay-forward").click()
        expect(step).to_contain_text("Step 1 of")
        expect(page.get_by_test_id("replay-events")).to_contain_text("sat down")
        page.get_by_test_id("replay-last").click()
        expect(step).to_contain_text(f"Step {total} of {total}")
        result = page.get_by_test_id("replay-result")
        expect(result).to_be_visible()
        expect(result).to_contain_text("won")
        expect(result).to_contain_text("played to its end")
        expect(page.get_by_test_id("table")).to_contain_text("Bot")  # the AAH table, drawn
        page.get_by_test_id("replay-first").click()
        expect(step).to_contain_text("Step 0 of")
        expect(result).to_be_hidden()
        page.get_by_test_id("replay-play").click()
        expect(step).to_contain_text("Step 2 of")
        page.get_by_test_id("replay-play").click()  # pause
        # the room's own address leads to the replay once the game is over
        page.goto(f"{server.web_url}room/{room_id}")
        page.wait_for_url(re.compile(f"/replay/{room_id}"))
        page.get_by_test_id("replay-step").wait_for()


def test_the_host_console_asks_for_the_token_and_acts_on_the_hall(
    server: ServerThread, chromium: Any
) -> None:
    with new_page(chromium) as host, new_page(chromium) as gus:
        enter(gus, server.web_url, "gus")
        room_id = create_aah_room(gus, "Gus's table")
        host.goto(f"{server.web_url}host")
        host.get_by_test_id("host-token").fill("not the token")
        host.get_by_test_id("host-login-button").click()
        expect(host.get_by_test_id("host-login-error")).to_contain_text("wrong")
        host.get_by_test_id("host-token").fill(TOKEN)
        host.get_by_test_id("host-login-button").click()
        row = host.locator(f'[data-testid="host-room"][data-room="{room_id}"]')
        expect(row).to_contain_text("gus (web)")
        expect(host.get_by_test_id("host-chart")).to_have_count(4)
        expect(host.locator('[data-testid="host-chart"] svg polyline')).to_have_count(4)
        host.get_by_test_id("host-notice-input").fill("The hall closes in ten minutes.")
        host.get_by_test_id("host-notice-send").click()
        expect(gus.get_by_test_id("chat-log")).to_contain_text("The hall closes in ten minutes.")
        host.once("dialog", lambda dialog: dialog.accept())
        row.get_by_test_id("host-close").click()
        expect(row).to_have_count(0)
        expect(gus.get_by_test_id("room-ended")).to_be_visible()
        # removing a user: gus is sent back to the name screen, told why (a kick is not a ban)
        gus.get_by_test_id("back-to-lobby").click()
        room_id = create_aah_room(gus, "Gus again")
        row = host.locator(f'[data-testid="host-room"][data-room="{room_id}"]')
        host.once("dialog", lambda dialog: dialog.accept())
        row.get_by_test_id("host-kick-gus").click()
        expect(gus.get_by_test_id("login-error")).to_contain_text("Removed by the host")
        expect(row).to_have_count(0)  # his seat was released: the empty table closed


GAMES_FOR_REPLAY = {
    "aah": {"aplimit": 2, "round_gap": 0.1, "autostart_delay": 1},
    "doppelkopf": {},
    "mrjack": {},
    "ursuppe": {},
    "words": {"preset": "BogEN", "time_per_turn": 5, "grace_s": 0.0},
}


def bots_play_then_host_closes(server: ServerThread, game: str, seconds: float) -> str:
    """Hall bots fill a table of ``game`` and play for ``seconds``; then the host closes it, which
    finishes it in the store (a replay exists for every finished room)."""
    import asyncio

    from gamehall.hall.operator import close_room

    async def play() -> str:
        hall = server.server.hall if server.server is not None else None
        assert hall is not None
        room = hall.create_room(game, GAMES_FOR_REPLAY[game], operator=None, title=f"{game} replay")
        seats = room.max_seats()
        add_bots(hall, room.room_id, seats, "random", delay=0.01)
        if not room.state.started:
            room.start()
        await asyncio.sleep(seconds)
        if hall.directory.get(room.room_id) is not None:
            close_room(hall, room.room_id, "Enough for the test.")
        return room.room_id

    return str(server.run(play(), timeout=seconds + 30))


@pytest.mark.parametrize("game", sorted(GAMES_FOR_REPLAY))
def test_every_game_is_replayed_with_its_own_table(server: ServerThread, chromium: Any, game: str) -> None:
    room_id = bots_play_then_host_closes(server, game, 3.0)
    with new_page(chromium) as page:  # fails on any JavaScript error of the game's renderer
        page.goto(f"{server.web_url}replay/{room_id}")
        step = page.get_by_test_id("replay-step")
        expect(step).to_contain_text("Step 0 of")
        total = int(re.search(r"of (\d+)", step.inner_text()).group(1))  # type: ignore[union-attr]
        assert total > 4, f"{game}: the bots made too few moves to replay"
        for target in (total // 2, total):
            page.get_by_test_id("replay-slider").fill(str(target))
            expect(step).to_contain_text(f"Step {target} of {total}")
            assert page.get_by_test_id("table").inner_text().strip(), f"{game}: empty table at step {target}"
        ending = re.compile("host closed|played to its end")  # quick games may finish on their own
        expect(page.get_by_test_id("replay-result")).to_contain_text(ending)

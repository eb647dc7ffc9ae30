"""The pushed lobby, chat history and player-only settings of the web protocol, version 2
(docs/web-protocol.md, sections 3, 4 and 6), on the real hall and the AAH engine (MemoryStore,
FakeClock): nobody asks for the room list, yet every logged-in browser learns of each room
created, changed and closed; whoever joins or comes back sees what was said."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from gamehall.hall import FakeClock, Hall
from gamehall.hall.chat_memory import CHAT_MEMORY_LINES
from gamehall.protocols.web.dialogue import WebDialogue
from gamehall.rules.aah import GAME_TYPE as AAH
from gamehall.store.memory import MemoryStore


class Browser:
    def __init__(self, hall: Hall, clock: FakeClock) -> None:
        self.sent: list[dict[str, Any]] = []
        self.closed = False
        self._hall = hall
        self.dialogue = WebDialogue(hall, self._receive, self._close, clock)

    def _receive(self, text: str) -> None:
        self.sent.append(orjson.loads(text))

    def _close(self) -> None:
        self.closed = True

    def send(self, **message: Any) -> list[dict[str, Any]]:
        before = len(self.sent)
        self.dialogue.text_received(orjson.dumps(message).decode())
        self._hall.flush()  # the loop's turn ends: the hall delivers, then the dialogue answers
        return self.sent[before:]

    def hello(self, name: str, token: str | None = None) -> dict[str, Any]:
        [welcome, *_] = self.send(t="hello", v=2, name=name, token=token)
        assert welcome["t"] == "welcome", welcome
        return welcome

    def take(self, *kinds: str) -> list[dict[str, Any]]:
        out = [m for m in self.sent if not kinds or m["t"] in kinds]
        self.sent = [m for m in self.sent if kinds and m["t"] not in kinds]
        return out


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def hall(clock: FakeClock) -> Hall:
    return Hall(games={"aah": AAH}, store=MemoryStore(), clock=clock)


def logged_in(hall: Hall, clock: FakeClock, name: str) -> Browser:
    browser = Browser(hall, clock)
    browser.hello(name)
    return browser


PUSHES = ("room_created", "room_changed", "room_closed")


def test_every_browser_learns_of_rooms_created_changed_and_closed_without_asking(
    hall: Hall, clock: FakeClock
) -> None:
    ann, bob = logged_in(hall, clock, "ann"), logged_in(hall, clock, "bob")
    ann.dialogue.text_received(
        orjson.dumps({"t": "create", "game": "aah", "title": "Friday", "id": 1}).decode()
    )
    assert bob.take(*PUSHES) == []  # pushes leave once the turn is over, after its commit
    hall.flush()  # the turn ends
    [joined] = [m for m in ann.sent if m["t"] == "joined"]
    room = joined["room"]["id"]
    [created] = bob.take(*PUSHES)
    assert created["t"] == "room_created"
    assert created["room"]["id"] == room and created["room"]["title"] == "Friday"
    assert [s["name"] for s in created["room"]["seats"]] == ["ann"]
    assert [m["t"] for m in ann.take(*PUSHES)] == ["room_created"]  # the creator's lobby too

    bob.send(t="join", room=room)
    clock.run_due()
    [changed] = ann.take(*PUSHES)
    assert changed["t"] == "room_changed"
    assert [s["name"] for s in changed["room"]["seats"]] == ["ann", "bob"]
    assert bob.take(*PUSHES) == [changed]

    ann.send(t="chat", room=room, text="hello")  # chat shows nowhere in the lobby
    clock.run_due()
    assert bob.take(*PUSHES) == []

    ann.send(t="leave", room=room)
    bob.send(t="leave", room=room)  # the last one out of a table that never started closes it
    clock.run_due()
    assert ann.take(*PUSHES)[-1] == {"t": "room_closed", "room": room, "finished": False, "game": "aah"}


def test_a_browser_that_left_gets_no_pushes(hall: Hall, clock: FakeClock) -> None:
    ann, bob = logged_in(hall, clock, "ann"), logged_in(hall, clock, "bob")
    bob.send(t="bye")
    ann.send(t="create", game="aah")
    clock.run_due()
    assert bob.take(*PUSHES) == []
    assert hall.lobby.watcher_count == 1


def test_joiner_gets_the_room_chat_so_far_with_the_joined_message(hall: Hall, clock: FakeClock) -> None:
    ann, bob = logged_in(hall, clock, "ann"), logged_in(hall, clock, "bob")
    [joined] = [m for m in ann.send(t="create", game="aah") if m["t"] == "joined"]
    assert joined["chat"] == []
    room = joined["room"]["id"]
    for n in range(CHAT_MEMORY_LINES + 3):
        ann.send(t="chat", room=room, text=f"line {n}")
        clock.advance(2.1)  # under the chat rate limit (5 lines per 10 s)
    [joined] = [m for m in bob.send(t="join", room=room) if m["t"] == "joined"]
    lines = joined["chat"]
    assert len(lines) == CHAT_MEMORY_LINES  # the last 100
    assert lines[0]["text"] == "line 3" and lines[-1]["text"] == f"line {CHAT_MEMORY_LINES + 2}"
    assert {line["sender"] for line in lines} == {"ann"} and {line["kind"] for line in lines} == {"room"}


def test_a_reload_gets_the_room_chat_back(hall: Hall, clock: FakeClock) -> None:
    ann, bob, carl = (logged_in(hall, clock, name) for name in ("ann", "bob", "carl"))
    [joined] = [m for m in ann.send(t="create", game="aah") if m["t"] == "joined"]
    room = joined["room"]["id"]
    bob.send(t="join", room=room)
    carl.send(t="join", room=room)
    ann.send(t="start", room=room)
    bob.send(t="chat", room=room, text="good luck")
    token = next(m for m in ann.sent if m["t"] == "welcome")["token"]
    ann.dialogue.connection_lost()  # the page is reloaded: the seat is held
    again = Browser(hall, clock)
    again.hello("ann", token)
    [back] = again.take("joined")
    assert [(line["sender"], line["text"]) for line in back["chat"]] == [("bob", "good luck")]


def test_welcome_carries_the_hall_chat_and_notices_but_no_private_lines(hall: Hall, clock: FakeClock) -> None:
    ann = logged_in(hall, clock, "ann")
    logged_in(hall, clock, "bob")  # the whisper's addressee
    ann.send(t="shout", text="anyone for a game?")
    ann.send(t="whisper", to="bob", text="psst")
    hall.shout(None, "The server restarts at midnight.")
    welcome = Browser(hall, clock).hello("carl")
    assert [(line["kind"], line["sender"], line["text"]) for line in welcome["hall_chat"]] == [
        ("broadcast", "ann", "anyone for a game?"),
        ("notice", None, "The server restarts at midnight."),
    ]


def test_the_form_shows_player_settings_with_labels_and_groups_and_refuses_host_settings(
    hall: Hall, clock: FakeClock
) -> None:
    ann = Browser(hall, clock)
    [game] = ann.hello("ann")["games"]
    settings = {s["name"]: s for s in game["settings"]}
    assert "max_tables" not in settings and "rejoin_grace" not in settings
    assert settings["aplimit"]["label"] == "Points to win" and settings["aplimit"]["group"] == "Table"
    assert settings["czar_mode"]["choice_labels"]["winner"] == "The last round's winner"
    [error] = ann.send(t="create", game="aah", settings={"max_tables": 2}, id=4)
    assert (error["t"], error["code"], error["ref"]) == ("error", "config", 4)
    assert "max_tables" in error["reason"] and "server" in error["reason"]
    assert hall.rooms() == []


def test_version_1_clients_are_still_welcome(hall: Hall, clock: FakeClock) -> None:
    [welcome] = Browser(hall, clock).send(t="hello", v=1, name="ann")
    assert welcome["t"] == "welcome" and welcome["v"] == 1


def test_a_name_held_for_a_lost_connection_says_the_seat_is_waiting(hall: Hall, clock: FakeClock) -> None:
    ann, bob, carl = (logged_in(hall, clock, name) for name in ("ann", "bob", "carl"))
    [joined] = [m for m in ann.send(t="create", game="aah") if m["t"] == "joined"]
    room = joined["room"]["id"]
    bob.send(t="join", room=room)
    carl.send(t="join", room=room)
    ann.send(t="start", room=room)
    ann.dialogue.connection_lost()  # the browser was closed: the seat waits for the grace
    [error] = Browser(hall, clock).send(t="hello", v=2, name="ann", id=1)
    assert error["code"] == "name_in_use"
    assert "held" in error["reason"] and "same browser" in error["reason"]


def test_a_member_invites_an_online_user_by_name(hall: Hall, clock: FakeClock) -> None:
    ann, bob = logged_in(hall, clock, "ann"), logged_in(hall, clock, "bob")
    [joined] = [m for m in ann.send(t="create", game="aah", title="Come play") if m["t"] == "joined"]
    room = joined["room"]["id"]
    assert joined["room"]["extra"] == {"origin": "web"}  # a browser table (cg clients are offered it)
    assert ann.send(t="invite", room=room, name="BOB", id=5) == [{"t": "ok", "ref": 5}]
    [invited] = bob.take("invited")
    assert invited["by"] == "ann" and invited["room"]["id"] == room
    assert invited["room"]["title"] == "Come play"
    [error] = ann.send(t="invite", room=room, name="nobody", id=6)
    assert (error["code"], error["ref"]) == ("no_such_user", 6)
    [error] = bob.send(t="invite", room=room, name="ann", id=7)
    assert error["code"] == "not_in_room"  # only someone in the room may invite to it
    bob.send(t="join", room=room)
    [error] = [m for m in ann.send(t="invite", room=room, name="bob", id=8) if m["t"] == "error"]
    assert error["code"] == "already_in_room"

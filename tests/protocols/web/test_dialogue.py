"""The web dialogue against the real hall (MemoryStore, FakeClock): docs/web-protocol.md, from
hello to game over, errors included.

The dialogue is game-agnostic, so most cases use "tally", a tiny game defined here: seats take
turns adding 1-3 to a shared total; whoever reaches the target wins. It has what the protocol must
carry: a private event (``Secret``, for one seat only), a turn timer, an action codec, a view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
import pytest

from gamehall.hall import FakeClock, Hall
from gamehall.protocols._core import Delivery
from gamehall.protocols.web.dialogue import WebDialogue
from gamehall.rules._config import ConfigSchema, Setting
from gamehall.rules._core import (
    JSON,
    Action,
    ActionCodec,
    Event,
    GameInProgress,
    GameType,
    IllegalAction,
    NotYourTurn,
    Outcome,
    RuleError,
    Seat,
    SeatAway,
    SeatBack,
    SeatJoined,
    SeatLeft,
    SeatRenamed,
    TableFull,
    Termination,
    Timer,
    ToMove,
    only,
)
from gamehall.store.memory import MemoryStore

# --------------------------------------------------------------------------------------------
# "tally": the smallest game that exercises the whole protocol
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Add(Action):
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Added(Event):
    seat: Seat
    amount: int
    total: int
    tags: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True, kw_only=True)
class Secret(Event):
    seat: Seat
    word: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Won(Event):
    seat: Seat


class Tally:
    def __init__(self, config: Mapping[str, JSON], seed: int) -> None:
        self.max_seats = int(config["playermax"])
        self.target = int(config["target"])
        self.names: dict[Seat, str] = {}
        self.total = 0
        self.turn: Seat | None = None
        self.moves = 0
        self.winner: Seat | None = None
        self._started = False

    def seat_join(self, name: str) -> tuple[Seat, list[Event]]:
        if self._started:
            raise GameInProgress("The game has started.")
        if len(self.names) >= self.max_seats:
            raise TableFull("No seat is free.")
        seat = max(self.names, default=-1) + 1
        self.names[seat] = name
        return seat, [
            SeatJoined(seat=seat, name=name),
            Secret(seat=seat, word=f"w{seat}", audience=only(seat)),
        ]

    def seat_away(self, seat: Seat) -> list[Event]:
        return [SeatAway(seat=seat, name=self.names[seat])]

    def seat_back(self, seat: Seat) -> list[Event]:
        return [SeatBack(seat=seat, name=self.names[seat])]

    def seat_leave(self, seat: Seat) -> list[Event]:
        return [SeatLeft(seat=seat, name=self.names.pop(seat))]

    def resync(self, seat: Seat) -> list[Event]:
        return []

    def seat_rename(self, seat: Seat, name: str) -> list[Event]:
        old, self.names[seat] = self.names[seat], name
        return [SeatRenamed(seat=seat, old=old, new=name)]

    def start(self) -> list[Event]:
        if len(self.names) < 2:
            raise RuleError("Two seats are needed.", code="too_few")
        self._started = True
        self.turn = min(self.names)
        return []

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        assert isinstance(action, Add)
        if seat != self.turn:
            raise NotYourTurn("Not your turn.")
        if not 1 <= action.amount <= 3:
            raise IllegalAction("Add 1 to 3.", amount=action.amount)
        self.total += action.amount
        self.moves += 1
        events: list[Event] = [
            Added(seat=seat, amount=action.amount, total=self.total, tags=frozenset({"b", "a"}))
        ]
        if self.total >= self.target:
            self.winner, self.turn = seat, None
            events.append(Won(seat=seat))
        else:
            self._pass_turn()
        return events

    def _pass_turn(self) -> None:
        seats = sorted(self.names)
        assert self.turn is not None
        later = [s for s in seats if s > self.turn]
        self.turn = later[0] if later else seats[0]

    def pending_timers(self) -> Sequence[Timer]:
        return [Timer(f"turn-{self.moves}", 20.0)] if self.turn is not None else []

    def on_timeout(self, key: str) -> list[Event]:
        self.moves += 1
        self._pass_turn()
        return []

    def to_move(self) -> ToMove:
        return ToMove(frozenset() if self.turn is None else frozenset({self.turn}), "add")

    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        return Outcome(
            {s: int(s == self.winner) for s in self.names}, frozenset({self.winner}), Termination.NORMAL
        )

    def view(self, seat: Seat | None) -> dict[str, JSON]:
        return {
            "game": "tally",
            "total": self.total,
            "turn": self.turn,
            "me": seat,
            "secret": None if seat is None else f"w{seat}",
        }

    def seat_names(self) -> Mapping[Seat, str]:
        return dict(self.names)

    @property
    def started(self) -> bool:
        return self._started

    @property
    def finished(self) -> bool:
        return self.winner is not None


TALLY = GameType(
    game_id="tally",
    title="Tally",
    schema=ConfigSchema(
        "tally",
        [
            Setting("playermax", 3, "int", low=2, high=4, help="Seats at the table"),
            Setting("target", 5, "int", low=2, high=50),
            Setting("rejoin_grace", 60, "int", low=0, high=600),
        ],
    ),
    new_game=Tally,
    actions=ActionCodec([Add]),
    seat_count=lambda config: int(config["playermax"]),  # type: ignore[call-overload]
)


# --------------------------------------------------------------------------------------------
# A browser, as the dialogue sees it
# --------------------------------------------------------------------------------------------


LOBBY_PUSHES = ("room_created", "room_changed", "room_closed")


class Browser:
    """One WebSocket connection: what was sent to it, whether it was closed. The pushed lobby
    (``room_*`` messages, which follow on the next clock tick) is kept apart in ``lobby``, so
    the room conversations below read as the protocol's room traffic alone."""

    def __init__(self, hall: Hall, clock: FakeClock) -> None:
        self.sent: list[dict[str, Any]] = []
        self.lobby: list[dict[str, Any]] = []
        self.closed = False
        self.token = ""
        self._hall = hall
        self.dialogue = WebDialogue(hall, self._receive, self._close, clock)

    def _receive(self, text: str) -> None:
        message = orjson.loads(text)
        (self.lobby if message["t"] in LOBBY_PUSHES else self.sent).append(message)

    def _close(self) -> None:
        self.closed = True

    def send(self, **message: Any) -> list[dict[str, Any]]:
        """Send one message; return what came back (synchronously)."""
        return self.raw(orjson.dumps(message).decode())

    def raw(self, text: str) -> list[dict[str, Any]]:
        before = len(self.sent)
        self.dialogue.text_received(text)
        self._hall.flush()  # the loop's turn ends: the hall delivers, then the dialogue answers
        return self.sent[before:]

    def take(self) -> list[dict[str, Any]]:
        self._hall.flush()  # what reached the browser once the loop's turn is over
        out, self.sent = self.sent, []
        return out

    def hello(self, name: str, token: str | None = None) -> dict[str, Any]:
        replies = self.send(t="hello", v=1, name=name, token=token)
        assert replies[0]["t"] == "welcome", replies
        self.token = replies[0]["token"]
        return replies[0]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def hall(clock: FakeClock) -> Hall:
    return Hall(games={"tally": TALLY}, store=MemoryStore(), clock=clock, defaults={"tally": {"target": 6}})


def browser(hall: Hall, clock: FakeClock, name: str | None = None) -> Browser:
    b = Browser(hall, clock)
    if name is not None:
        b.hello(name)
    return b


def room_of(replies: list[dict[str, Any]]) -> str:
    """The room id in the ``joined`` reply among ``replies``."""
    [joined] = [m for m in replies if m["t"] in ("joined", "spectating")]
    return str(joined["room"]["id"])


def kinds(messages: list[dict[str, Any]]) -> list[str]:
    return [m["t"] for m in messages]


def table(hall: Hall, clock: FakeClock) -> tuple[Browser, Browser, str]:
    """ann creates a room, bob joins, ann starts it; both logs emptied."""
    ann, bob = browser(hall, clock, "ann"), browser(hall, clock, "bob")
    room = room_of(ann.send(t="create", game="tally", title="Friday"))
    bob.send(t="join", room=room)
    ann.send(t="start", room=room)
    clock.run_due()
    ann.take()
    bob.take()
    return ann, bob, room


# --------------------------------------------------------------------------------------------
# Handshake
# --------------------------------------------------------------------------------------------


def test_hello_gets_welcome_with_token_and_every_game_with_its_settings_form(
    hall: Hall, clock: FakeClock
) -> None:
    welcome = browser(hall, clock).hello("ann")
    assert welcome["v"] == 1 and welcome["name"] == "ann" and welcome["token"]
    [game] = welcome["games"]
    assert game["id"] == "tally" and game["title"] == "Tally" and game["actions"] == ["Add"]
    settings = {s["name"]: s for s in game["settings"]}
    assert settings["target"]["default"] == 6  # the hall's default, not the schema's 5
    assert settings["playermax"] == {
        "name": "playermax",
        "label": "Playermax",  # no label given: the name, readable
        "group": "More",
        "choice_labels": {},
        "default": 3,
        "kind": "int",
        "low": 2,
        "high": 4,
        "choices": [],
        "help": "Seats at the table",
    }


def test_wrong_version_is_refused_and_the_socket_stays_open(hall: Hall, clock: FakeClock) -> None:
    b = browser(hall, clock)
    [error] = b.send(t="hello", v=3, name="ann", id=1)
    assert error == {
        "t": "error",
        "code": "unsupported_version",
        "ref": 1,
        "reason": "This server speaks version 2 of the web protocol, not 3.",
    }
    assert not b.closed
    b.hello("ann")


def test_name_in_use_without_the_token(hall: Hall, clock: FakeClock) -> None:
    browser(hall, clock, "ann")
    [error] = browser(hall, clock).send(t="hello", v=1, name="ANN")
    assert error["code"] == "name_in_use"


def test_requests_before_hello_are_refused(hall: Hall, clock: FakeClock) -> None:
    [error] = browser(hall, clock).send(t="rooms", id="r")
    assert (error["code"], error["ref"]) == ("not_logged_in", "r")


def test_hello_twice_is_refused(hall: Hall, clock: FakeClock) -> None:
    [error] = browser(hall, clock, "ann").send(t="hello", v=1, name="ann")
    assert error["code"] == "already_logged_in"


# --------------------------------------------------------------------------------------------
# Malformed input: an error that names the problem, and the socket stays open
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code", "words", "ref"),
    [
        ('{"t":"join","room":', "bad_json", "Malformed JSON", None),
        ('{"t":"teleport","id":4}', "unknown_type", "'teleport'", 4),
        ('{"t":"join","id":"j5"}', "bad_message", "'room' is missing", "j5"),
        ('"hello"', "bad_message", "JSON object", None),
    ],
)
def test_malformed_message_gets_an_error_and_the_socket_stays_open(
    hall: Hall, clock: FakeClock, text: str, code: str, words: str, ref: int | str | None
) -> None:
    b = browser(hall, clock, "ann")
    [error] = b.raw(text)
    assert error["t"] == "error" and error["code"] == code and words in error["reason"]
    assert error["ref"] == ref
    assert not b.closed
    assert b.send(t="ping", data=7, id=9) == [{"t": "pong", "data": 7, "ref": 9}]


# --------------------------------------------------------------------------------------------
# Lobby
# --------------------------------------------------------------------------------------------


def test_create_seats_the_creator_and_the_lobby_lists_the_room(hall: Hall, clock: FakeClock) -> None:
    ann = browser(hall, clock, "ann")
    replies = ann.send(
        t="create", game="tally", settings={"playermax": 2}, password="pw", title="Friday", id=1
    )
    assert kinds(replies) == ["event", "event", "joined", "view"]  # the join's own events come first
    assert [m["event"]["type"] for m in replies[:2]] == ["SeatJoined", "Secret"]
    joined, view = replies[2:]
    room = joined["room"]
    assert joined["seat"] == 0 and joined["ref"] == 1
    assert room["title"] == "Friday" and room["password"] is True and room["operator"] == "ann"
    assert room["seats"] == [{"seat": 0, "name": "ann", "away": False}]
    assert room["max_seats"] == 2 and room["status"] == "waiting"
    assert view["view"] == {"game": "tally", "total": 0, "turn": None, "me": 0, "secret": "w0"}
    bob = browser(hall, clock, "bob")
    [rooms] = bob.send(t="rooms", game="tally")
    assert [r["id"] for r in rooms["rooms"]] == [room["id"]]


def test_create_with_bad_settings_names_the_setting(hall: Hall, clock: FakeClock) -> None:
    [error] = browser(hall, clock, "ann").send(t="create", game="tally", settings={"target": 99})
    assert error["code"] == "config" and "target" in error["reason"]


def test_join_needs_the_password(hall: Hall, clock: FakeClock) -> None:
    ann, bob = browser(hall, clock, "ann"), browser(hall, clock, "bob")
    room = room_of(ann.send(t="create", game="tally", password="pw"))
    assert bob.send(t="join", room=room, password="no")[0]["code"] == "wrong_password"
    assert kinds(bob.send(t="join", room=room, password="pw"))[-2:] == ["joined", "view"]


def test_a_joiner_is_announced_to_the_room_with_event_then_view_on_the_next_tick(
    hall: Hall, clock: FakeClock
) -> None:
    ann, bob = browser(hall, clock, "ann"), browser(hall, clock, "bob")
    room = room_of(ann.send(t="create", game="tally"))
    ann.take()
    bob.send(t="join", room=room)
    [event] = ann.take()
    assert event == {
        "t": "event",
        "room": room,
        "seq": event["seq"],
        "event": {"type": "SeatJoined", "seat": 1, "name": "bob"},
    }
    clock.run_due()
    [view] = ann.take()
    assert view["t"] == "view" and view["seq"] >= event["seq"] and view["seat"] == 0


def test_private_events_reach_only_their_seat_and_never_carry_the_audience(
    hall: Hall, clock: FakeClock
) -> None:
    ann, bob = browser(hall, clock, "ann"), browser(hall, clock, "bob")
    room = room_of(ann.send(t="create", game="tally"))
    bob.send(t="join", room=room)
    clock.run_due()
    everything = ann.take() + bob.take()
    secrets = [
        (m["event"]["seat"], m["event"]["word"])
        for m in everything
        if m["t"] == "event" and m["event"]["type"] == "Secret"
    ]
    assert secrets == [(0, "w0"), (1, "w1")]  # ann's log first: each only its own
    assert [m["event"]["type"] for m in ann.sent if m["t"] == "event"] == []
    assert all("audience" not in m.get("event", {}) for m in everything)


def test_spectator_sees_the_spectator_view(hall: Hall, clock: FakeClock) -> None:
    ann, eve = browser(hall, clock, "ann"), browser(hall, clock, "eve")
    room = room_of(ann.send(t="create", game="tally"))
    replies = eve.send(t="spectate", room=room)
    assert kinds(replies) == ["event", "spectating", "view"]
    assert replies[0]["event"] == {"type": "SpectatorsChanged", "names": ["eve"]}
    assert replies[2]["seat"] is None and replies[2]["view"]["secret"] is None


def test_leave_and_kick(hall: Hall, clock: FakeClock) -> None:
    ann, bob = browser(hall, clock, "ann"), browser(hall, clock, "bob")
    room = room_of(ann.send(t="create", game="tally"))
    bob.send(t="join", room=room)
    assert bob.send(t="kick", room=room, seat=0)[0]["code"] == "not_operator"
    assert {"t": "ok", "ref": 3} in ann.send(t="kick", room=room, seat=1, id=3)
    ended = [m for m in bob.take() if m["t"] == "ended"]
    assert ended == [{"t": "ended", "room": room, "reason": "kicked", "text": "Kicked by an administrator."}]
    assert ann.send(t="leave", room=room, id=4) == [{"t": "left", "room": room, "ref": 4}]
    assert ann.send(t="view", room=room)[0]["code"] in ("not_in_room", "no_such_room")


def test_bots_need_the_operator_and_a_hall_with_bots(hall: Hall, clock: FakeClock) -> None:
    ann, bob = browser(hall, clock, "ann"), browser(hall, clock, "bob")
    room = room_of(ann.send(t="create", game="tally"))
    bob.send(t="join", room=room)
    assert bob.send(t="bots", room=room)[0]["code"] == "not_operator"
    assert ann.send(t="bots", room=room, count=99)[0]["code"] == "bad_count"
    assert ann.send(t="bots", room=room)[0]["code"] == "no_bots"  # this hall was built without bots


# --------------------------------------------------------------------------------------------
# Playing
# --------------------------------------------------------------------------------------------


def test_an_action_is_acknowledged_then_its_events_then_one_view(hall: Hall, clock: FakeClock) -> None:
    ann, bob, room = table(hall, clock)
    replies = ann.send(t="act", room=room, action={"type": "Add", "amount": 2}, id="m1")
    assert kinds(replies) == ["event", "ok", "view"]
    event, ok, view = replies
    assert event["event"] == {"type": "Added", "seat": 0, "amount": 2, "total": 2, "tags": ["a", "b"]}
    assert ok == {"t": "ok", "ref": "m1"}
    assert view["view"]["total"] == 2 and view["view"]["turn"] == 1 and view["seq"] == event["seq"]
    assert view["timers"] == [{"key": "turn-1", "seconds_left": 20.0}]
    assert kinds(bob.take()) == ["event"]
    clock.run_due()
    assert kinds(bob.take()) == ["view"]


def test_timers_count_down_in_the_view(hall: Hall, clock: FakeClock) -> None:
    ann, _, room = table(hall, clock)
    clock.advance(7.5)
    [view] = ann.send(t="view", room=room, id=1)
    assert view["timers"] == [{"key": "turn-0", "seconds_left": 12.5}] and view["ref"] == 1


def test_rule_errors_and_malformed_actions_are_errors_with_the_engine_code(
    hall: Hall, clock: FakeClock
) -> None:
    ann, bob, room = table(hall, clock)
    [error] = bob.send(t="act", room=room, action={"type": "Add", "amount": 1}, id=1)
    assert error == {"t": "error", "code": "not_your_turn", "reason": "Not your turn.", "ref": 1}
    assert ann.send(t="act", room=room, action={"type": "Add", "amount": 9})[0]["code"] == "illegal_action"
    [error] = ann.send(t="act", room=room, action={"type": "Jump"})
    assert error["code"] == "malformed_action" and "'Jump'" in error["reason"]
    [error] = ann.send(t="act", room=room, action={"type": "Add", "amount": "2"})
    assert error["code"] == "malformed_action" and "Add.amount" in error["reason"]
    assert not ann.closed


def test_an_action_decided_on_a_view_the_turn_has_moved_past_gets_stale_and_a_fresh_view(
    hall: Hall, clock: FakeClock
) -> None:
    """docs/web-protocol.md, "Stale actions": bob clicks on the view numbered ``seq`` while ann's
    move (which makes it bob's turn) is on its way to him."""
    ann, bob, room = table(hall, clock)
    [decided_on] = [m for m in ann.send(t="view", room=room) if m["t"] == "view"]
    assert decided_on["view"]["turn"] == 0  # ann's turn: bob's click is a move for later
    ann.send(t="act", room=room, action={"type": "Add", "amount": 2})
    clock.run_due()
    bob.take()  # ann's event and the fresh view, which bob had not looked at yet

    replies = bob.send(t="act", room=room, action={"type": "Add", "amount": 1}, seq=decided_on["seq"], id=7)

    assert kinds(replies) == ["error", "view"]
    error, view = replies
    assert error["code"] == "stale" and error["ref"] == 7 and "nothing was played" in error["reason"]
    assert view["view"]["total"] == 2 and view["view"]["turn"] == 1 and "ref" not in view
    clock.run_due()
    assert bob.take() == replies  # no second view follows: the one owed went with the error
    replies = bob.send(t="act", room=room, action={"type": "Add", "amount": 1}, seq=view["seq"], id=8)
    assert kinds(replies) == ["event", "ok", "view"] and replies[2]["view"]["total"] == 3
    [error] = ann.send(t="act", room=room, action={"type": "Add", "amount": 1}, seq="latest", id=9)
    assert error["code"] == "bad_message" and "'seq'" in error["reason"]


def test_game_over_sends_the_final_view_then_ended(hall: Hall, clock: FakeClock) -> None:
    ann, bob, room = table(hall, clock)
    for who, amount in [(ann, 3), (bob, 1), (ann, 3)]:
        who.send(t="act", room=room, action={"type": "Add", "amount": amount})
    tail = ann.take()[-5:]
    assert [m["t"] for m in tail] == ["event", "event", "view", "ended", "ok"]
    assert [m["event"]["type"] for m in tail[:2]] == ["Won", "RoomClosed"]
    assert tail[2]["view"]["total"] == 7 and tail[2]["timers"] == []
    assert tail[3] == {"t": "ended", "room": room, "reason": "game_over", "text": "finished"}
    clock.run_due()
    bob_tail = bob.take()
    assert [m["t"] for m in bob_tail[-2:]] == ["view", "ended"]


# --------------------------------------------------------------------------------------------
# Chat
# --------------------------------------------------------------------------------------------


def test_room_private_and_broadcast_chat(hall: Hall, clock: FakeClock) -> None:
    ann, bob, room = table(hall, clock)
    carl = browser(hall, clock, "carl")
    carl.take()
    assert kinds(ann.send(t="chat", room=room, text="hi", id=1)) == ["event", "ok", "view"]
    [said] = [m for m in bob.take() if m["t"] == "event"]
    assert said["event"] == {
        "type": "ChatSaid",
        "sender": "ann",
        "text": "hi",
        "scope": "room",
        "to": None,
        "room": room,
    }
    ann.send(t="whisper", to="carl", text="psst")
    assert carl.take() == [
        {
            "t": "hall",
            "event": {"type": "ChatSaid", "sender": "ann", "text": "psst", "scope": "private", "to": "carl"},
        }
    ]
    assert bob.take() == []
    ann.send(t="shout", text="all")
    assert [m["event"]["scope"] for m in bob.take() + carl.take()] == ["broadcast", "broadcast"]
    assert ann.send(t="whisper", to="nobody", text="x")[0]["code"] == "no_such_user"


# --------------------------------------------------------------------------------------------
# Dropped connections and resume
# --------------------------------------------------------------------------------------------


def test_reload_resumes_with_the_token_and_a_fresh_view_of_each_room(hall: Hall, clock: FakeClock) -> None:
    ann, bob, room = table(hall, clock)
    bob.dialogue.connection_lost()
    assert [m["event"]["type"] for m in ann.take() if m["t"] == "event"] == ["SeatAway"]
    ann.send(t="act", room=room, action={"type": "Add", "amount": 1})
    again = browser(hall, clock)
    replies = again.send(t="hello", v=1, name="bob", token=bob.token)
    assert kinds(replies) == ["welcome", "event", "joined", "view"]
    assert replies[1]["event"] == {"type": "SeatBack", "seat": 1, "name": "bob"}
    assert replies[2]["seat"] == 1 and replies[3]["view"]["secret"] == "w1"
    replies = again.send(t="resume", room=room, since=0)
    assert replies[-1]["t"] == "view"
    events = [m["event"] for m in replies if m["t"] == "event"]
    assert [e["type"] for e in events] == [
        "SeatJoined",
        "SeatJoined",
        "Secret",
        "SeatAway",
        "Added",
        "SeatBack",
    ]
    assert events[2] == {"type": "Secret", "seat": 1, "word": "w1"}  # bob's own, never ann's
    assert bob.closed is False  # the old socket was already gone; nothing is sent to it
    again.send(t="act", room=room, action={"type": "Add", "amount": 1})
    assert [m["event"]["type"] for m in ann.take() if m["t"] == "event"][-1] == "Added"  # playing again


def test_a_second_login_with_the_token_replaces_the_first_connection(hall: Hall, clock: FakeClock) -> None:
    first = browser(hall, clock)
    token = first.hello("ann")["token"]
    room = room_of(first.send(t="create", game="tally"))
    second = browser(hall, clock)
    second.hello("ann", token)
    assert first.closed and first.take()[-1] == {
        "t": "bye",
        "reason": "replaced",
        "text": "Logged in from another connection.",
    }
    first.dialogue.connection_lost()  # must not log the new connection out
    assert kinds(second.send(t="view", room=room)) == ["view"]


def test_bye_releases_seats_and_closes(hall: Hall, clock: FakeClock) -> None:
    ann = browser(hall, clock, "ann")
    room = room_of(ann.send(t="create", game="tally"))
    assert kinds(ann.send(t="bye")) == ["bye"]
    assert ann.closed
    assert room not in [info.room_id for info in hall.rooms()]  # seat released; the empty lobby room closed
    assert ann.send(t="ping") == []  # input after close is discarded


def test_deliveries_to_a_closed_dialogue_are_dropped(hall: Hall, clock: FakeClock) -> None:
    b = browser(hall, clock, "ann")
    b.dialogue.connection_lost()
    b.dialogue.deliver("x", Delivery(1, SeatJoined(seat=0, name="z")))
    assert b.take()[-1]["t"] == "welcome"


def test_a_server_bug_behind_one_request_is_an_error_and_the_socket_stays_open(
    hall: Hall, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    b = browser(hall, clock, "ann")

    def broken(game: str | None = None) -> list[Any]:
        raise KeyError("oops")

    monkeypatch.setattr(hall, "rooms", broken)
    [error] = b.send(t="rooms", id=1)
    assert (error["code"], error["ref"]) == ("server_error", 1)
    assert not b.closed


def test_settings_only_the_server_sets_are_hidden_from_the_form_and_refused(clock: FakeClock) -> None:
    from gamehall.rules.doppelkopf import GAME_TYPE as DOPPELKOPF

    hall = Hall(games={"doppelkopf": DOPPELKOPF}, store=MemoryStore(), clock=clock)
    ann = browser(hall, clock)
    [welcome] = ann.send(t="hello", v=1, name="ann")
    [game] = welcome["games"]
    assert "resume" not in {setting["name"] for setting in game["settings"]}
    [error] = ann.send(t="create", game="doppelkopf", settings={"resume": "x"}, id=7)
    assert error["t"] == "error" and error["code"] == "config" and "resume" in error["reason"]
    assert hall.rooms() == []


def test_a_room_password_is_checked_off_the_loop_before_the_hall_call(hall: Hall, clock: FakeClock) -> None:
    """Issue 10: the dialogue hands the scrypt to ``offload`` and answers only when it is done."""
    ann = browser(hall, clock, "ann")
    room = room_of(ann.send(t="create", game="tally", password="pw"))
    parked: list[tuple[Any, Any]] = []
    bob = Browser(hall, clock)
    bob.dialogue = WebDialogue(
        hall, bob._receive, bob._close, clock, offload=lambda work, done: parked.append((work, done))
    )
    bob.hello("bob")
    assert bob.send(t="join", room=room, password="no") == []  # waiting for the worker
    work, done = parked.pop()
    done(work())
    assert bob.take()[-1]["code"] == "wrong_password"
    assert bob.send(t="join", room=room, password="pw") == []
    work, done = parked.pop()
    done(work())
    assert kinds(bob.take())[-2:] == ["joined", "view"]


# --------------------------------------------------------------------------------------------
# Encode once (docs/architecture.md): one event, one JSON text for every browser of the room
# --------------------------------------------------------------------------------------------


def _record_texts(b: Browser) -> list[str]:
    """The raw texts sent to ``b`` from now on (to compare them as objects)."""
    texts: list[str] = []
    send = b.dialogue._send_text

    def recording(text: str) -> None:
        texts.append(text)
        send(text)

    b.dialogue._send_text = recording
    return texts


def test_encode_once_an_event_is_one_text_for_every_browser(
    hall: Hall, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    from render_counting import count_calls

    from gamehall.protocols.web import dialogue as web_dialogue

    ann, bob, room = table(hall, clock)
    eve = browser(hall, clock, "eve")
    eve.send(t="spectate", room=room)
    texts = [_record_texts(b) for b in (ann, bob, eve)]
    calls = count_calls(monkeypatch, web_dialogue, "event_json")
    ann.send(t="act", room=room, action={"type": "Add", "amount": 2})
    events = [[t for t in sent if '"t":"event"' in t] for sent in texts]
    assert len(events[0]) == 1 and events[0] == events[1] == events[2]
    assert events[0][0] is events[1][0] is events[2][0]
    assert len(calls) == 1


def test_encode_once_a_private_event_reaches_its_seat_alone_same_bytes_as_without_the_cache(
    clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each seat's ``Secret`` goes to that seat only, and every browser's events are the same
    with the shared cache as without it (the old path)."""
    from render_counting import per_listener

    def play() -> list[list[str]]:
        hall = Hall(
            games={"tally": TALLY}, store=MemoryStore(), clock=clock, defaults={"tally": {"target": 6}}
        )
        ann, bob, eve = (browser(hall, clock, name) for name in ("ann", "bob", "eve"))
        room = room_of(ann.send(t="create", game="tally"))
        bob.send(t="join", room=room)
        eve.send(t="spectate", room=room)
        ann.send(t="start", room=room)
        clock.run_due()
        ann.send(t="act", room=room, action={"type": "Add", "amount": 2})
        bob.send(t="rename", room=room, name="rob")
        clock.run_due()
        events = ([m for m in b.sent if m["t"] == "event"] for b in (ann, bob, eve))
        return [orjson.dumps(sent).decode().replace(room, "ROOM") for sent in events]

    shared = play()
    per_listener(monkeypatch)
    assert play() == shared
    secrets = [
        [m["event"]["word"] for m in orjson.loads(sent) if m["event"]["type"] == "Secret"] for sent in shared
    ]
    assert secrets == [["w0"], ["w1"], []]

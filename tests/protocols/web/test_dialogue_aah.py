"""One Apps Against Humanity round played through the web dialogue, on the real engine and hall
(MemoryStore, FakeClock): the JSON the browser client renders (docs/web-protocol.md, section 8)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from gamehall.hall import FakeClock, Hall
from gamehall.protocols.web.dialogue import WebDialogue
from gamehall.rules.aah import GAME_TYPE
from gamehall.store.memory import MemoryStore


class Browser:
    def __init__(self, hall: Hall, clock: FakeClock, name: str) -> None:
        self.sent: list[dict[str, Any]] = []
        self._hall = hall
        self.dialogue = WebDialogue(
            hall, lambda text: self.sent.append(orjson.loads(text)), lambda: None, clock
        )
        self.send(t="hello", v=1, name=name)

    def send(self, **message: Any) -> list[dict[str, Any]]:
        before = len(self.sent)
        self.dialogue.text_received(orjson.dumps(message).decode())
        self._hall.flush()  # the loop's turn ends: the hall delivers, then the dialogue answers
        return self.sent[before:]

    def view(self) -> dict[str, Any]:
        return [m for m in self.sent if m["t"] == "view"][-1]

    def events(self) -> list[dict[str, Any]]:
        return [m["event"] for m in self.sent if m["t"] == "event"]


@pytest.fixture
def table() -> tuple[FakeClock, list[Browser], str]:
    clock = FakeClock()
    hall = Hall(games={"aah": GAME_TYPE}, store=MemoryStore(), clock=clock, seed_source=lambda: 1234)
    ann, bob, cat = (Browser(hall, clock, n) for n in ("ann", "bob", "cat"))
    [joined] = [
        m for m in ann.send(t="create", game="aah", settings={"autostart_delay": 0}) if m["t"] == "joined"
    ]
    room = joined["room"]["id"]
    bob.send(t="join", room=room)
    cat.send(t="join", room=room)
    ann.send(t="start", room=room)
    clock.run_due()
    return clock, [ann, bob, cat], room


def test_a_round_from_deal_to_winner_in_json(table: tuple[FakeClock, list[Browser], str]) -> None:
    clock, browsers, room = table
    views = {b: b.view()["view"] for b in browsers}
    first = views[browsers[0]]
    assert first["game"] == "aah" and first["phase"] == "pick" and first["round"] == 1
    assert first["black"]["pick"] >= 1 and len(first["seats"]) == 3
    assert browsers[0].view()["timers"][0]["seconds_left"] == pytest.approx(30.0)
    for b in browsers:  # each hand is the seat's own: dealt cards never reach other seats
        own = {c["id"] for c in views[b]["hand"]}
        dealt = {e["card"]["card_id"] for e in b.events() if e["type"] == "WhiteDealt"}
        assert dealt <= own | set(views[b]["my_submission"]) and len(own) >= 10
        assert all("audience" not in e for e in b.events())

    czar_seat = first["czar"]
    czar = next(b for b in browsers if b.view()["seat"] == czar_seat)
    for b in browsers:
        if b is czar:
            continue
        view = b.view()["view"]
        cards = [c["id"] for c in view["hand"][: view["black"]["pick"]]]
        replies = b.send(t="act", room=room, action={"type": "Pick", "card_ids": cards}, id="p")
        assert {"t": "ok", "ref": "p"} in replies
    clock.run_due()
    judging = czar.view()["view"]
    assert judging["phase"] == "judge" and len(judging["submissions"]) == 2
    [refused] = czar.send(t="act", room=room, action={"type": "Pick", "card_ids": [1]})
    assert refused["t"] == "error"  # the czar does not pick
    winner_card = judging["submissions"][0]["cards"][0]["id"]
    czar.send(t="act", room=room, action={"type": "Judge", "card_id": winner_card})
    clock.run_due()
    for b in browsers:
        [won] = [e for e in b.events() if e["type"] == "RoundWon"]
        assert won["card_id"] == winner_card and won["cards"][0] == {
            "card_id": winner_card,
            "text": judging["submissions"][0]["cards"][0]["text"],
        }
        after = b.view()["view"]
        assert after["last_round"]["winner"] == won["seat"]
        assert sum(s["points"] for s in after["seats"]) == 1


def test_a_malformed_pick_names_the_field(table: tuple[FakeClock, list[Browser], str]) -> None:
    _, browsers, room = table
    [error] = browsers[0].send(t="act", room=room, action={"type": "Pick", "card_ids": "7"})
    assert error["code"] == "malformed_action" and "Pick.card_ids" in error["reason"]

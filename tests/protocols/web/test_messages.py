"""Events, rooms and games as the web protocol writes them (docs/web-protocol.md, section 5)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from gamehall.protocols._core import RoomInfo
from gamehall.protocols.web.messages import event_json, room_json, to_json
from gamehall.rules._core import Event, only


class Colour(enum.Enum):
    RED = "red"


@dataclass(frozen=True, slots=True)
class Card:
    card_id: int
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Dealt(Event):
    seat: int
    cards: tuple[Card, ...]
    colour: Colour
    scores: dict[int, int]
    marks: frozenset[str]


def test_an_event_becomes_its_class_name_and_fields_without_the_audience() -> None:
    event = Dealt(
        seat=2,
        cards=(Card(7, "x"), Card(9, "y")),
        colour=Colour.RED,
        scores={0: 1, 2: 3},
        marks=frozenset({"b", "a"}),
        audience=only(2),
    )
    assert event_json(event) == {
        "type": "Dealt",
        "seat": 2,
        "cards": [{"card_id": 7, "text": "x"}, {"card_id": 9, "text": "y"}],
        "colour": "red",
        "scores": {"0": 1, "2": 3},
        "marks": ["a", "b"],
    }


def test_unsortable_sets_are_still_lists_and_unknown_values_strings() -> None:
    assert sorted(map(str, to_json(frozenset({1, "a"})))) == ["1", "a"]
    assert to_json(object.__new__(object)).startswith("<object")


def test_a_room_for_the_lobby() -> None:
    info = RoomInfo(
        room_id="aah-1",
        game="aah",
        title="Friday",
        config={"playermax": 5},
        seats={1: "bob", 0: "ann"},
        away=frozenset({1}),
        spectators=("eve",),
        has_password=True,
        operator="ann",
        started=True,
        finished=False,
        max_seats=5,
        created_seq=1,
    )
    assert room_json(info) == {
        "id": "aah-1",
        "game": "aah",
        "title": "Friday",
        "status": "playing",
        "seats": [{"seat": 0, "name": "ann", "away": False}, {"seat": 1, "name": "bob", "away": True}],
        "max_seats": 5,
        "spectators": ["eve"],
        "password": True,
        "operator": "ann",
        "config": {"playermax": 5},
        "extra": {},
    }

"""The action codec: actions to JSON for the room log and the browser, and back, with every
malformed shape refused as MalformedAction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import pytest

from gamehall.rules._core import Action, ActionCodec, MalformedAction


@dataclass(frozen=True, slots=True)
class Place(Action):
    where: tuple[int, int, int]
    cards: tuple[int, ...]
    side: Literal["left", "right"]
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Pass(Action):
    name = "pass"


CODEC = ActionCodec([Place, Pass])


@pytest.mark.parametrize(
    "action",
    [Place((1, 2, 3), (), "left"), Place((0, 0, 9), (4, 5), "right", "hi"), Pass()],
)
def test_round_trip(action: Action) -> None:
    encoded = CODEC.encode(action)
    assert CODEC.decode(encoded) == action


def test_wire_names() -> None:
    assert CODEC.encode(Pass()) == {"type": "pass"}
    assert CODEC.encode(Place((1, 2, 3), (7,), "left"))["where"] == [1, 2, 3]


@pytest.mark.parametrize(
    "obj",
    [
        [],
        {"type": "Nope"},
        {"type": 3},
        {"type": "Place", "where": [1, 2], "cards": [], "side": "left"},  # wrong length
        {"type": "Place", "where": [1, 2, "x"], "cards": [], "side": "left"},
        {"type": "Place", "where": [1, 2, 3], "cards": [True], "side": "left"},  # bool is not int
        {"type": "Place", "where": [1, 2, 3], "cards": [], "side": "up"},
        {"type": "Place", "where": [1, 2, 3], "cards": []},  # missing field
        {"type": "Place", "where": [1, 2, 3], "cards": [], "side": "left", "extra": 1},
        {"type": "Place", "where": [1, 2, 3], "cards": [], "side": "left", "note": 5},
    ],
)
def test_malformed_shapes_are_refused(obj: object) -> None:
    with pytest.raises(MalformedAction):
        CODEC.decode(obj)  # type: ignore[arg-type]

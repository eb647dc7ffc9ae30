"""The view of an Ursuppe table: a seat sees its own pending request (the prompt a resync
would send, the answers the rules accept now, the timeout move) and nothing hidden; the
deck's order never shows."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from gamehall.rules.ursuppe import ACTIONS, new_game
from gamehall.rules.ursuppe import events as ev
from gamehall.rules.ursuppe.actions import Wuerfeln
from gamehall.rules.ursuppe.engine import UrsuppeTable

ACTIONS_CHECKED = 250
"""Setup and a few rounds of random answers (or the whole game, if shorter)."""


def _started(seed: int, players: int) -> UrsuppeTable:
    table = new_game({"players": players}, seed)
    for seat in range(players):
        table.seat_join(f"p{seat}")
    return table


def _prompt_fields(event: object) -> dict[str, object]:
    return {
        f.name: list(v) if isinstance(v := getattr(event, f.name), tuple) else v
        for f in dataclasses.fields(event)  # type: ignore[arg-type]
        if f.name != "audience"
    }


@pytest.mark.parametrize("seed", range(2))
def test_the_awaited_seat_sees_its_request_as_the_engine_holds_it(seed: int) -> None:
    players = 3 + seed % 2
    table = _started(seed, players)
    rng = random.Random(seed)
    rolled_answers = 0
    for _ in range(ACTIONS_CHECKED):
        if table.finished:
            break
        to_move = table.to_move()
        seat = min(to_move.seats)
        view = json.loads(json.dumps(table.view(seat)))
        request = view["request"]
        (prompt,) = table.resync(seat)
        assert request["kind"] == to_move.kind == view["my_request"]
        assert request["prompt"] == _prompt_fields(prompt)
        assert ACTIONS.decode(request["default"]) == table.default_action(seat)
        block = isinstance(prompt, ev.ZugGenKaufen) or (
            isinstance(prompt, ev.ZugAmoebeSetzen) and not prompt.aufbau
        )
        if block:
            assert request["answers"] is None
            action = table.default_action(seat)
        else:  # (a block's listing is what the view avoids: not computed here either)
            legal = table.legal_actions(seat)
            assert [ACTIONS.decode(a) for a in request["answers"]] == legal
            action = rng.choice(legal)
        for other in [*range(players), None]:
            if other not in to_move.seats:
                assert table.view(other)["request"] is None
        table.apply(seat, action)
        if isinstance(action, Wuerfeln) and table.to_move().seats == {seat}:
            after = table.view(seat)["request"]
            assert after is not None and {"type": "Wuerfeln"} not in after["answers"]
            rolled_answers += 1
    assert rolled_answers > 0, "a roll's answers were checked at least once"


def test_the_deck_order_never_shows_in_any_view() -> None:
    table = _started(5, 3)
    twin = _started(5, 3)
    twin.state.deck = list(reversed(twin.state.deck))
    assert table.state.deck != twin.state.deck
    for seat in [0, 1, 2, None]:
        assert table.view(seat) == twin.view(seat)

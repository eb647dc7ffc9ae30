"""JOINGAMEREQUEST of a game the lobby lists, and a held seat at login, use the hall's
indexes (issue 12 item 5): no listing of every ``words`` room per join."""

from __future__ import annotations

from typing import Any

import pytest
from jduplicate_dialogue_support import JdHarness

from gamehall.protocols.jduplicate import messages as m


def test_joining_a_listed_game_lists_no_rooms(monkeypatch: pytest.MonkeyPatch) -> None:
    harness = JdHarness()
    for name in ("g1", "g2", "g3"):  # each creator stays in its game, so the games stay
        harness.user(f"owner{name}").send(m.CreateGameRequest(name, 120, "DupEN", 8, ""))
    jim = harness.user("jim")
    harness.take_all()

    def listed(*_args: Any) -> Any:
        raise AssertionError("a join listed every room")

    monkeypatch.setattr(harness.hall, "rooms", listed)
    jim.send(m.JoinGameRequest("g2"))
    assert any(line.startswith("PLAYERJOINED|jim") for line in jim.take())

"""JOINGAMEREQUEST of a game the lobby lists, and a held seat at login, use the hall's
indexes (issue 12 item 5): no listing of every ``words`` room per join."""

from __future__ import annotations

from typing import Any

import pytest
from jduplicate_dialogue_support import JdHarness

from gamehall.protocols.jduplicate import messages as m


def test_joining_a_listed_game_lists_no_rooms(monkeypatch: pytest.MonkeyPatch) -> None:
    harness = JdHarness()
    ams = harness.user("ams")
    for name in ("g1", "g2", "g3"):
        ams.send(m.CreateGameRequest(name, 120, "DupEN", 8, ""))
        ams.send(m.LeaveGameRequest(""))
    jim = harness.user("jim")
    harness.take_all()

    def listed(*_args: Any) -> Any:
        raise AssertionError("a join listed every room")

    monkeypatch.setattr(harness.hall, "rooms", listed)
    jim.send(m.JoinGameRequest("g2"))
    assert any(line.startswith("PLAYERJOINED|jim") for line in jim.take())

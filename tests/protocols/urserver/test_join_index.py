"""A ``TEILNEHMEN`` of a game the lobby lists looks its room up by id (issue 12 item 5): no
listing of every Ursuppe room per join."""

from __future__ import annotations

from typing import Any

import pytest
from urserver_support import UrHarness


def test_joining_a_listed_game_lists_no_rooms(monkeypatch: pytest.MonkeyPatch) -> None:
    harness = UrHarness()
    for n in range(3):
        harness.new_game(f"soup{n}", password="x")
    scans: list[str] = []
    real = harness.hall.rooms

    def counted(*args: Any) -> Any:
        scans.append("rooms")
        return real(*args)

    monkeypatch.setattr(harness.hall, "rooms", counted)
    client = harness.join("ann", "soup1")
    assert any(line.startswith("SPIELERIN_AKZEPTIERT") for line in client.lines())
    assert scans == []


def test_an_unknown_name_still_finds_a_table_opened_in_the_browser() -> None:
    """Only a name the lobby does not list costs a look at every room, and finds it there."""
    harness = UrHarness()
    owner = harness.connect("owner")  # a hall user opening a room the way the browser does
    session = harness.hall.login("webby", owner.dialogue, protocol="web")
    room = session.create_room("ursuppe", {"players": 3}, title="websoup")
    session.join(room.room_id)
    client = harness.join("ann", "websoup", password="")
    assert any(line.startswith("SPIELERIN_AKZEPTIERT") for line in client.lines())

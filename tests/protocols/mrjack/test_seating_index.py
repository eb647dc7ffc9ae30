"""Seating reads the hall's indexes (issue 12 item 5): ``init(R)`` and ``init(zuschauer)``
never list every room, however many games run."""

from __future__ import annotations

from typing import Any

import pytest
from mrjack_wire_support import JackHarness


def no_scans(harness: JackHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    def listed(*_args: Any) -> Any:
        raise AssertionError("a join listed every room")

    monkeypatch.setattr(harness.hall, "rooms", listed)
    monkeypatch.setattr(harness.hall.directory, "rooms", listed)


def test_init_seats_and_watches_without_listing_the_rooms(monkeypatch: pytest.MonkeyPatch) -> None:
    harness = JackHarness(max_games=10)
    for n in range(3):  # three running games before the clock starts
        harness.login(f"jack{n}", "mrjack").take()
        harness.login(f"det{n}", "detektiv").take()
    no_scans(harness, monkeypatch)
    jack = harness.login("latejack", "mrjack")
    det = harness.login("latedet", "detektiv")
    watcher = harness.login("fan", "zuschauer")
    assert "ok('Du bist mrjack')." in jack.lines()
    assert "ok('Du bist detektiv')." in det.lines()
    assert not any(line.startswith("err(") for line in watcher.lines())
    monkeypatch.undo()
    assert harness.games() == 4  # the late pair filled a new game

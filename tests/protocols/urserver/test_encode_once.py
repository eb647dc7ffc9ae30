"""Encode once on the UrServer wire (docs/architecture.md): a table line that reads the same for
every connection is rendered once for the table; requests (``ZUG_*``) go to their seat alone,
and every connection reads the same with the shared cache as without it."""

from __future__ import annotations

import pytest
from render_counting import count_calls, per_listener
from urserver_support import UrClient, UrHarness, answer_default

from gamehall.protocols.urserver import render


def _table() -> tuple[UrHarness, list[UrClient], list[UrClient]]:
    """A started game of anna, bert and cleo, watched by eve and tom."""
    harness = UrHarness()
    harness.new_game()
    watchers = [harness.connect(name) for name in ("eve", "tom")]
    for watcher in watchers:
        watcher.send("ZUSCHAUEN soup1", f"NAME {watcher.name}")
    players = [harness.join(name) for name in ("anna", "bert", "cleo")]
    return harness, players, watchers


def _play(harness: UrHarness, players: list[UrClient], steps: int) -> None:
    for _ in range(steps):
        if not answer_default(harness, players):
            return


def test_a_table_line_is_rendered_once_and_the_watchers_get_the_same_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    harness, players, (eve, tom) = _table()
    calls = count_calls(monkeypatch, render, "event_lines")
    marks = len(eve.wire.writes), len(tom.wire.writes)
    _play(harness, players, 40)
    seen_eve, seen_tom = eve.wire.writes[marks[0] :], tom.wire.writes[marks[1] :]
    assert seen_eve and seen_eve == seen_tom
    assert all(a is b for a, b in zip(seen_eve, seen_tom, strict=True))
    rendered = [id(args[0]) for args in calls]
    assert len(rendered) == len(set(rendered))  # no event rendered twice


def test_requests_stay_with_their_seat_and_nothing_changes_without_the_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def play() -> list[list[str]]:
        harness, players, watchers = _table()
        _play(harness, players, 60)
        return [client.lines() for client in (*players, *watchers)]

    shared = play()
    per_listener(monkeypatch)
    assert play() == shared
    watchers = shared[3:]
    assert not [line for lines in watchers for line in lines if line.startswith("ZUG_")]
    assert all(any(line.startswith("ZUG_") for line in lines) for lines in shared[:3])

"""Encode once on the Mr. Jack wire (docs/architecture.md): the connections of a game share the
line of an event that reads the same for them; chat, which reads differently for its writer
and for spectators, is rendered per kind of reader, and Jack's identity stays his."""

from __future__ import annotations

import random

import pytest
from mrjack_wire_support import JackHarness, TermClient
from render_counting import count_calls, per_listener

from gamehall.protocols._core import ChatSaid
from gamehall.protocols.mrjack import dialogue as mrjack_dialogue
from gamehall.rules.mrjack import Aktion, Aktiv, Fertig, Ziel
from gamehall.rules.mrjack.events import Jack


def _line_of(action: object) -> str:
    if isinstance(action, Aktiv):
        return f"aktiv({action.farbe})."
    if isinstance(action, Aktion):
        return f"aktion({action.aktion})."
    if isinstance(action, Ziel):
        return f"ziel({action.koordinate})."
    assert isinstance(action, Fertig)
    return "fertig."


def _table() -> tuple[JackHarness, TermClient, TermClient, TermClient, TermClient]:
    """Mr. Jack, the detective and two spectators; every greeting taken."""
    h = JackHarness(setup=None, seed=3)
    jack = h.login("jack", "mrjack")
    first = h.login("first", "zuschauer")
    second = h.login("second", "zuschauer")
    det = h.login("det", "detektiv")
    for client in (jack, first, second, det):
        client.take()
    return h, jack, det, first, second


def _moves(h: JackHarness, clients: dict[int, TermClient], count: int, seed: int = 1) -> None:
    """``count`` random legal actions through the wire (the game may end earlier)."""
    rng = random.Random(seed)
    game = h.game()
    for _ in range(count):
        if not h.games():
            return
        (seat,) = game.to_move().seats
        clients[seat].send(_line_of(rng.choice(game.legal_actions(seat))))


def test_every_event_is_rendered_once_and_the_spectators_get_the_same_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    h, jack, det, first, second = _table()
    calls = count_calls(monkeypatch, mrjack_dialogue, "event_terms")
    marks = len(first.wire.writes), len(second.wire.writes)
    _moves(h, {0: jack, 1: det}, 12)
    seen_first, seen_second = first.wire.writes[marks[0] :], second.wire.writes[marks[1] :]
    assert seen_first and seen_first == seen_second
    assert all(a is b for a, b in zip(seen_first, seen_second, strict=True))
    rendered = [id(args[0]) for args in calls]
    assert len(rendered) == len(set(rendered))  # no event rendered twice


def test_chat_is_rendered_per_kind_of_reader_and_reaches_only_the_opponent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, jack, det, first, second = _table()
    calls = count_calls(monkeypatch, mrjack_dialogue, "event_terms")
    jack.send("chat('Guten Abend').")
    chat_renders = [args for args in calls if isinstance(args[0], ChatSaid)]
    # the writer (no line), the opponent (the line), the spectators (no line: one rendering)
    assert sorted((args[1], args[2]) for args in chat_renders) == [
        ("det", False),
        ("first", True),
        ("jack", False),
    ]
    assert det.take() == ["chat('Guten Abend')."]
    assert jack.take() == first.take() == second.take() == []


def test_with_or_without_the_cache_every_connection_reads_the_same_and_jack_stays_secret(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def play() -> list[list[str]]:
        h, jack, det, first, second = _table()
        jack.send("chat('hallo').")
        _moves(h, {0: jack, 1: det}, 60)
        return [client.lines() for client in (jack, det, first, second)]

    calls = count_calls(monkeypatch, mrjack_dialogue, "event_terms")
    shared = play()
    jack_told = [args for args in calls if isinstance(args[0], Jack)]
    per_listener(monkeypatch)
    assert play() == shared
    assert len(jack_told) == 1 and jack_told[0][1] == "jack"  # rendered for Mr. Jack alone
    assert not [line for lines in shared[1:] for line in lines if line.startswith("jack(")]


def test_the_render_key_holds_everything_the_lines_read_of_the_connection() -> None:
    """For chat from either player or from a browser, and every event of a random game:
    connections with equal :func:`render_key` get equal lines."""
    from gamehall.protocols.mrjack.messages import event_terms, render_key
    from gamehall.rules.mrjack import GAME_TYPE

    game = GAME_TYPE.new_game(GAME_TYPE.schema.defaults(), 2)
    events = [*game.seat_join("jack")[1], *game.seat_join("det")[1]]  # two seats: it starts
    events += [ChatSaid(sender=name, text="hi") for name in ("jack", "det", "webby")]
    rng = random.Random(2)
    while game.outcome() is None and (seats := game.to_move().seats):
        (seat,) = seats
        events += game.apply(seat, rng.choice(game.legal_actions(seat)))  # type: ignore[attr-defined]
    assert any(isinstance(event, Jack) for event in events) and game.outcome() is not None
    readers = [("jack", False), ("det", False), ("first", True), ("second", True)]
    for event in events:
        by_key: dict[object, list[object]] = {}
        for name, watching in readers:
            lines = event_terms(event, name, watching)
            by_key.setdefault(render_key(event, name, watching), []).append(lines)
        for rendered in by_key.values():
            assert all(lines == rendered[0] for lines in rendered), event

"""Encode once on the JDuplicate wire (docs/architecture.md): the players of one wire syntax
share the frames of a table event; 0.2 and 1.0 players get their own, a request for the players
who have not played yet stays theirs, and every player reads the same with the shared cache as
without it.

ams and luc speak 0.2, jim 1.0; one turn of duplicate with the timeout (as in
test_dialogue_duplicate)."""

from __future__ import annotations

from collections import Counter

import pytest
from jduplicate_dialogue_support import V10, JdClient, JdHarness
from render_counting import count_calls, per_listener

from gamehall.protocols.jduplicate import dialogue as jd_dialogue
from gamehall.protocols.jduplicate import messages as m

GAME = "ams's game"
BISE_H8 = m.Moves(
    (m.Tile(8, "H", "B"), m.Tile(9, "H", "I"), m.Tile(10, "H", "S"), m.Tile(11, "H", "E", True))
)


def _three_players() -> tuple[JdHarness, JdClient, JdClient, JdClient]:
    harness = JdHarness(bags=["BIS?RTU"])
    ams, luc, jim = harness.user("ams"), harness.user("luc"), harness.user("jim", V10)
    ams.send(m.CreateGameRequest(GAME, 120, "DupEN", 8, ""))
    luc.send(m.JoinGameRequest(GAME))
    jim.send(m.JoinGameRequest(GAME))
    harness.take_all()
    return harness, ams, luc, jim


def _one_turn(harness: JdHarness, ams: JdClient) -> None:
    ams.send(m.StartGameRequest())
    ams.send(BISE_H8)
    harness.advance(120)  # the others are asked for their moves
    harness.advance(5)  # the turn ends


def test_a_table_event_is_rendered_once_per_wire_syntax(monkeypatch: pytest.MonkeyPatch) -> None:
    harness, ams, luc, _ = _three_players()
    calls = count_calls(monkeypatch, jd_dialogue, "table_messages")
    marks = len(ams.wire.writes), len(luc.wire.writes)
    _one_turn(harness, ams)
    per_event = Counter(id(args[0]) for args in calls)
    assert per_event and max(per_event.values()) <= 2  # 0.2 and 1.0, never once per player
    frames = [f for f in ams.wire.writes[marks[0] :] if f[2:8] in (b"STARTG", b"ENDOFT", b"SCORES")]
    same_for_luc = [f for f in luc.wire.writes[marks[1] :] if f[2:8] in (b"STARTG", b"ENDOFT", b"SCORES")]
    assert len(frames) == 3 and all(a is b for a, b in zip(frames, same_for_luc, strict=True))


def test_requests_stay_with_their_players_and_nothing_changes_without_the_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def play() -> list[list[str]]:
        harness, ams, luc, jim = _three_players()
        _one_turn(harness, ams)
        return [client.take() for client in (ams, luc, jim)]

    shared = play()
    per_listener(monkeypatch)
    assert play() == shared
    asked = [[line for line in lines if line.startswith("MOVESREQUEST")] for lines in shared]
    assert asked[0] == [] and asked[1] and asked[2]  # ams has played: not asked

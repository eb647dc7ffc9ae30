"""Misplay refuse vs penalize, and the complaint flow of the seed (note §7, checklist §11.13-18)."""

from __future__ import annotations

import pytest
from dk_helpers import all_healthy, all_ready, card, find, full_table, play, rig

from gamehall.rules._core import IllegalAction, WrongPhase
from gamehall.rules.doppelkopf.actions import (
    AccusationVote,
    Accuse,
    Announce,
    Answer,
    AnswerSolo,
    CancelAccusation,
    PickMove,
    PlayCard,
)
from gamehall.rules.doppelkopf.engine import DoppelkopfTable
from gamehall.rules.doppelkopf.events import (
    Accused,
    Announced,
    Asked,
    CardPlayed,
    GameEnded,
    MovesListed,
    RoundEnded,
    ScoreChanged,
    TrickTaken,
    Verdict,
)

A, B, C, D = 0, 1, 2, 3
HANDS = [["c9", "cq"], ["ck", "hk"], ["cq", "h9"], ["ca", "s9"]]
PENALIZE = {"misplay": "penalize"}


def table_for(config: dict[str, object] | None = None) -> DoppelkopfTable:
    table, _ = full_table(config)
    rig(table, HANDS)
    all_healthy(table)
    return table


def scores(events: list[object]) -> dict[int, tuple[int, int]]:
    return {e.seat: (e.points, e.change) for e in events if isinstance(e, ScoreChanged)}


def test_refuse_mode_refuses_a_revoke_and_complaints() -> None:
    table = table_for()
    play(table, A, "c9")
    with pytest.raises(IllegalAction) as revoke:
        play(table, B, "hk")
    assert revoke.value.code == "pc_wrong_card"
    with pytest.raises(IllegalAction) as disabled:
        table.apply(A, Accuse(B, "wrong_card"))
    assert disabled.value.code == "complaint.disabled"
    assert table.s.points == [0, 0, 0, 0]


def test_wrong_card_golden_flow() -> None:
    table = table_for(PENALIZE)
    play(table, A, "c9")
    played = play(table, B, "hk")  # revoke: B holds ♣K
    assert find(played, CardPlayed)[0].value == "hk"
    events = table.apply(A, Accuse(B, "wrong_card"))
    assert find(events, Accused)[0].audience is None
    listed = find(events, MovesListed)[0]
    assert listed.audience == frozenset({A})
    assert listed.moves == ((1, "announcement", "reservation_no"), (5, "card", "hk"))
    with pytest.raises(WrongPhase):
        play(table, C, "cq")  # play is frozen until the verdict
    events = table.apply(A, PickMove(5))
    verdict = find(events, Verdict)[0]
    assert (verdict.verdict, verdict.punished, verdict.move) == ("guilty", B, (5, "card", "hk"))
    assert scores(events) == {A: (1, 1), B: (-3, -3), C: (1, 1), D: (1, 1)}
    play(table, C, "cq")


def test_picking_a_legal_move_punishes_the_accuser() -> None:
    table = table_for(PENALIZE)
    play(table, A, "c9")
    play(table, B, "ck")
    table.apply(C, Accuse(B, "wrong_card"))
    with pytest.raises(IllegalAction) as bad:
        table.apply(C, PickMove(0))  # not one of B's moves
    assert bad.value.code == "complaint.invalid_move"
    events = table.apply(C, PickMove(5))
    assert find(events, Verdict)[0].verdict == "wrong"
    assert scores(events) == {A: (1, 1), B: (1, 1), C: (-3, -3), D: (1, 1)}


def test_cancel_and_timeout_punish_the_accuser() -> None:
    table = table_for(PENALIZE)
    table.apply(A, Accuse(B, "wrong_announcement"))
    with pytest.raises(IllegalAction) as busy:
        table.apply(C, Accuse(D, "wrong_card"))
    assert busy.value.code == "complaint.busy"
    events = table.apply(A, CancelAccusation())
    assert find(events, Verdict)[0].verdict == "cancelled"
    assert table.s.points == [-3, 1, 1, 1]
    table.apply(D, Accuse(C, "wrong_card"))
    (timer,) = table.pending_timers()
    assert timer.key.startswith("complaint:") and timer.seconds == 60.0
    events = table.on_timeout(timer.key)
    assert find(events, Verdict)[0].verdict == "cancelled" and find(events, Verdict)[0].punished == D


def test_a_guilty_move_is_punished_once() -> None:
    table = table_for(PENALIZE)
    play(table, A, "c9")
    play(table, B, "hk")
    table.apply(A, Accuse(B, "wrong_card"))
    table.apply(A, PickMove(5))
    table.apply(D, Accuse(B, "wrong_card"))
    events = table.apply(D, PickMove(5))
    assert find(events, Verdict)[0].verdict == "wrong"


def test_illegal_announcement_is_accepted_without_effect() -> None:
    table = table_for(PENALIZE)
    events = table.apply(B, Announce("re"))  # B is Kontra
    assert find(events, Announced)[0].legal is False
    assert table.round.announcements == []
    move_id = table.round.moves[-1].id
    table.apply(A, Accuse(B, "wrong_announcement"))
    events = table.apply(A, PickMove(move_id))
    assert find(events, Verdict)[0].verdict == "guilty"


def test_played_early() -> None:
    table = table_for(PENALIZE)
    events = play(table, C, "h9")  # A is due
    assert find(events, CardPlayed)[0].early is True
    assert table.to_move().seats == {A}
    play(table, A, "c9")
    play(table, B, "ck")
    events = play(table, D, "ca")  # C already has a card down: D completes the trick
    taken = find(events, TrickTaken)[0]
    assert taken.winner == D  # evaluated in seat order from the leader: ♣9 ♣K ♥9 ♣A
    assert table.round.moves[4].flags == ["early"]  # C held no plain club: ♥9 followed the rules
    events = table.apply(A, Accuse(C, "played_early"))
    assert find(events, Verdict)[0].verdict == "guilty"
    events = table.apply(B, Accuse(C, "played_early"))
    assert find(events, Verdict)[0].verdict == "wrong"  # punished already


def test_early_card_is_judged_once_the_led_card_is_known() -> None:
    table, _ = full_table(PENALIZE)
    rig(table, [["c9", "cq"], ["ck", "hk"], ["c10", "h9"], ["ca", "s9"]])
    all_healthy(table)
    play(table, C, "h9")
    assert table.round.moves[-1].flags == ["early"]
    play(table, A, "c9")
    assert table.round.moves[4].flags == ["early", "wrong_card"]


def test_played_early_after_an_on_turn_card_is_wrong() -> None:
    table = table_for(PENALIZE)
    play(table, C, "h9")
    for seat, value in ((A, "c9"), (B, "ck"), (D, "ca"), (D, "s9"), (A, "cq"), (B, "hk"), (C, "cq")):
        play(table, seat, value)
    events = table.apply(A, Accuse(C, "played_early"))
    assert find(events, Verdict)[0].verdict == "wrong"


def test_external_accusation_vote() -> None:
    table = table_for(PENALIZE)
    events = table.apply(A, Accuse(B, "external"))
    assert sorted(e.target for e in find(events, Asked)) == [C, D]
    table.apply(C, AccusationVote(True))
    events = table.apply(D, AccusationVote(True))
    assert find(events, Verdict)[0].punished == B
    table.apply(A, Accuse(B, "external"))
    events = table.apply(C, AccusationVote(False))
    assert find(events, Verdict)[0].punished == A
    table.apply(A, Accuse(B, "external"))
    table.apply(C, AccusationVote(True))
    (timer,) = table.pending_timers()
    events = table.on_timeout(timer.key)
    assert find(events, Verdict)[0].punished == A


def test_penalty_abort_round() -> None:
    table = table_for({**PENALIZE, "penalty_abort": "round"})
    play(table, A, "c9")
    play(table, B, "hk")
    table.apply(A, Accuse(B, "wrong_card"))
    events = table.apply(A, PickMove(5))
    end = find(events, RoundEnded)[0]
    assert (end.winner, end.game_summary) == (None, ("penalty_abort",))
    assert end.point_change == (1, -3, 1, 1)
    assert table.round.phase == "end"


def test_penalty_abort_game_and_false_accusations_never_abort() -> None:
    table = table_for({**PENALIZE, "penalty_abort": "game"})
    table.apply(A, Accuse(B, "wrong_card"))
    table.apply(A, CancelAccusation())
    assert not table.finished
    play(table, A, "c9")
    play(table, B, "hk")
    table.apply(C, Accuse(B, "wrong_card"))
    events = table.apply(C, PickMove(table.round.moves[-2].id))
    assert find(events, GameEnded)[0].reason == "penalty_abort"
    outcome = table.outcome()
    assert outcome is not None and outcome.termination.value == "rule_violation"


def test_accusations_need_another_seat() -> None:
    table = table_for(PENALIZE)
    with pytest.raises(IllegalAction) as invalid:
        table.apply(A, Accuse(A, "wrong_card"))
    assert invalid.value.code == "complaint.invalid"


def test_penalty_in_phase_end_lands_in_the_round_row() -> None:
    table = table_for(PENALIZE)
    for seat, value in (
        (A, "c9"),
        (B, "ck"),
        (C, "cq"),
        (D, "ca"),
        (C, "h9"),
        (D, "s9"),
        (A, "cq"),
        (B, "hk"),
    ):
        table.apply(seat, PlayCard(card(table, seat, value)))
    assert table.round.phase == "end"
    before = list(table.s.summaries[-1]["point_change"])
    table.apply(A, Accuse(B, "wrong_card"))
    table.apply(A, CancelAccusation())
    after = table.s.summaries[-1]["point_change"]
    assert [a - b for a, b in zip(after, before, strict=True)] == [-3, 1, 1, 1]
    assert table.s.summaries[-1]["points"] == table.s.points


def test_an_accusation_during_the_reservations_freezes_the_answers() -> None:
    table, _ = full_table(PENALIZE)
    all_ready(table)
    table.apply(A, Answer("reservation", False))
    table.apply(C, Accuse(A, "wrong_announcement"))
    assert table.to_move().seats == {C} and table.to_move().kind == "pick_move"
    with pytest.raises(WrongPhase):
        table.apply(B, Answer("reservation", False))
    events = table.apply(C, PickMove(0))  # reservation_no was legal
    assert find(events, Verdict)[0].verdict == "wrong"
    table.apply(B, Answer("reservation", False))


def test_an_announcement_barred_by_a_null_solo_is_flagged() -> None:
    table, _ = full_table({**PENALIZE, "solos": ["solo_null"]})
    all_ready(table)
    for seat in range(4):
        table.apply(seat, Answer("reservation", seat == B))
    table.apply(B, AnswerSolo("solo_null"))
    table.apply(B, Announce("re"))
    events = table.apply(B, Announce("no90"))
    assert find(events, Announced)[0].legal is False
    assert [a.kind for a in table.round.announcements] == ["re"]
    assert table.round.moves[-1].flags == ["wrong_announcement"]

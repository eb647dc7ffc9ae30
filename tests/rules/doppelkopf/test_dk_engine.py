"""The table: seats, dealer rotation, votes, timers, views, save/load and determinism."""

from __future__ import annotations

import json

import pytest
from dk_helpers import all_healthy, all_ready, find, full_table, hands_with, random_game, rig, types_of

from gamehall.rules._core import Game, GameInProgress, MalformedAction, NotYourTurn, SeatLeft, WrongPhase
from gamehall.rules.doppelkopf import GAME_TYPE
from gamehall.rules.doppelkopf.actions import (
    CODEC,
    Accuse,
    Announce,
    Answer,
    AnswerSolo,
    PlayCard,
    Ready,
    Vote,
    WeddingClarification,
)
from gamehall.rules.doppelkopf.engine import DoppelkopfTable
from gamehall.rules.doppelkopf.events import (
    Answered,
    Asked,
    ButtonsChanged,
    GameEnded,
    GameStarted,
    HandDealt,
    HandShown,
    PhaseChanged,
    RoundStarted,
    Turn,
)


def test_the_table_is_a_game_and_starts_with_four_seats() -> None:
    table = GAME_TYPE.new_game(GAME_TYPE.schema.defaults(), 5)
    assert isinstance(table, Game)
    events = []
    for name in "ABC":
        _, joined = table.seat_join(name)
        events += joined
    assert not table.started
    with pytest.raises(WrongPhase):
        table.start()
    _, joined = table.seat_join("D")
    assert table.started
    assert [type(e) for e in joined[1:4]] == [GameStarted, RoundStarted, HandDealt]
    with pytest.raises(GameInProgress):
        table.seat_join("E")


def test_deal_events_hide_hand_values() -> None:
    _, events = full_table()
    shown = find(events, HandShown)
    assert [e.audience for e in shown] == [frozenset({s}) for s in range(4)]
    assert all(e.audience is None for e in find(events, HandDealt))
    assert find(events, RoundStarted)[0].player_list == (0, 1, 2, 3)
    _, open_events = full_table({"open_cards": True})
    assert all(e.audience is None for e in find(open_events, HandShown))


def test_view_hides_other_hands() -> None:
    table, _ = full_table()
    mine = table.view(1)["round"]
    assert len(mine["hand"]) == 12 and mine["hands"] is None
    assert table.view(None)["round"]["hand"] == []
    assert {c["id"] for c in mine["hand"]} == set(table.round.hands[1])


def test_views_are_json_and_leak_no_hidden_card() -> None:
    table, _ = full_table({"poverty": "circulate"})
    all_healthy(table)
    for _ in range(5):
        seat = next(iter(table.to_move().seats))
        table.apply(seat, next(a for a in table.legal_actions(seat) if isinstance(a, PlayCard)))
    for seat in (None, 0, 1, 2, 3):
        text = json.dumps(table.view(seat))
        for other in range(4):
            if other != seat:
                assert not any(card in text for card in table.round.hands[other])
    view = table.view(0)
    view["summaries"].append({})
    view["rules"]["solos"].append("x")
    assert table.s.summaries == [] and "x" not in table.rules["solos"]


def test_questions_go_to_their_target_only() -> None:
    table, _ = full_table()
    events = all_ready(table)
    asked = find(events, Asked)[0]
    assert (asked.kind, asked.target, asked.audience) == ("reservation", 0, frozenset({0}))
    assert table.view(0)["round"]["question"] == "reservation"
    assert table.view(1)["round"]["question"] is None


def test_dealer_rotation_and_round_numbers() -> None:
    table, _ = full_table()
    while table.round.phase != "end":
        seat = next(iter(table.to_move().seats))
        table.apply(seat, table.legal_actions(seat)[0])
    for seat in range(4):
        events = table.apply(seat, Vote("continue", True))
    started = find(events, RoundStarted)[0]
    assert started.round == 2 and started.player_list == (1, 2, 3, 0)
    all_healthy(table)
    assert next(iter(table.to_move().seats)) == 1


def test_votes_end_and_cancel() -> None:
    table, _ = full_table()
    with pytest.raises(WrongPhase):
        table.apply(0, Vote("end", True))
    table.apply(0, Vote("cancel", True))
    table.apply(1, Vote("cancel", False))
    assert "cancel" not in table.s.votes
    for seat in range(4):
        events = table.apply(seat, Vote("cancel", True))
    assert find(events, GameEnded)[0].reason == "cancel"
    outcome = table.outcome()
    assert table.finished and outcome is not None and outcome.termination.value == "aborted"


def test_away_seats_do_not_block_a_vote() -> None:
    table, _ = full_table()
    table.seat_away(3)
    for seat in range(3):
        events = table.apply(seat, Vote("cancel", True))
    assert find(events, GameEnded)


def test_leaving_a_running_game_ends_it() -> None:
    table, _ = full_table()
    events = table.seat_leave(2)
    assert isinstance(events[0], SeatLeft) and find(events, GameEnded)[0].reason == "left"
    with pytest.raises(WrongPhase):
        table.apply(0, Ready())


def test_illegal_action_changes_nothing() -> None:
    table, _ = full_table()
    before = table.to_json()
    with pytest.raises(WrongPhase):
        table.apply(2, Answer("reservation", False))
    assert table.to_json() == before
    all_ready(table)
    before = table.to_json()
    with pytest.raises(NotYourTurn):
        table.apply(2, Answer("reservation", False))
    assert table.to_json() == before


def test_timers_apply_default_moves() -> None:
    table, _ = full_table({"turn_timeout_s": 5})
    (timer,) = table.pending_timers()
    assert timer.key.startswith("ready:") and timer.seconds == 5.0
    events = table.on_timeout(timer.key)
    assert find(events, Asked)[0].kind == "reservation"
    with pytest.raises(WrongPhase):
        table.on_timeout(timer.key)  # stale
    for _ in range(4):
        (timer,) = table.pending_timers()
        events = table.on_timeout(timer.key)
    assert find(events, PhaseChanged)[-1].game_type == "normal"  # everyone healthy
    (timer,) = table.pending_timers()
    assert timer.key.startswith("card:")
    events = table.on_timeout(timer.key)
    assert find(events, Turn)[-1].current_player == 1


def test_a_whole_session_runs_on_timers_alone() -> None:
    table, _ = full_table()
    for _ in range(200):
        (timer,) = table.pending_timers()
        table.on_timeout(timer.key)
        if table.s.round_number == 3:
            break
    assert len(table.s.summaries) == 2
    assert sum(table.s.points) == 0


def test_resync_repeats_private_state() -> None:
    table, _ = full_table()
    all_healthy(table)
    events = table.resync(2)
    assert all(e.audience == frozenset({2}) for e in events)
    assert find(events, HandShown)[0].seat == 2 and find(events, ButtonsChanged)


def test_save_load_round_trip_is_exact() -> None:
    table = random_game(3, {"misplay": "penalize", "poverty": "circulate"}, max_rounds=2)
    for candidate in (table, mid_round_table()):
        data = candidate.to_json()
        text = json.dumps(data, sort_keys=True)
        restored = DoppelkopfTable.from_json(json.loads(text))
        assert restored.to_json() == data
        assert restored.view(1) == candidate.view(1)
        assert restored.pending_timers() == candidate.pending_timers()


def mid_round_table() -> DoppelkopfTable:
    table, _ = full_table({"pigs": "two_on_play"})
    all_healthy(table)
    for _ in range(6):
        seat = next(iter(table.to_move().seats))
        table.apply(seat, next(a for a in table.legal_actions(seat) if isinstance(a, PlayCard)))
    return table


def test_a_restored_table_plays_on_identically() -> None:
    table = mid_round_table()
    copy = DoppelkopfTable.from_json(json.loads(json.dumps(table.to_json())))
    for _ in range(30):
        seat = min(table.to_move().seats)
        action = table.legal_actions(seat)[-1]
        assert copy.apply(seat, action) == table.apply(seat, action)


def test_same_seed_same_inputs_same_events() -> None:
    def run(seed: int) -> list[object]:
        table, events = full_table(seed=seed)
        for _ in range(60):
            seat = min(table.to_move().seats)
            events += table.apply(seat, table.legal_actions(seat)[0])
        return events

    assert run(11) == run(11)
    assert run(11) != run(12)


def test_actions_round_trip_through_the_codec() -> None:
    table, _ = full_table()
    all_healthy(table)
    for action in table.legal_actions(0):
        assert CODEC.decode(json.loads(json.dumps(CODEC.encode(action)))) == action


def test_golden_round_opening() -> None:
    """The engine side of the note's §5.1 transcript, event by event."""
    table, events = full_table()
    assert types_of(events[4:]) == ["GameStarted", "RoundStarted"] + ["HandDealt"] * 4 + ["HandShown"] * 4 + [
        "PhaseChanged"
    ]
    events = all_ready(table)
    assert types_of(events) == ["Answered"] * 4 + ["PhaseChanged", "Asked"]
    trail = []
    for seat in range(4):
        trail += table.apply(seat, Answer("reservation", False))
    assert types_of(trail) == ["Answered", "Asked"] * 3 + ["Answered"] + ["ButtonsChanged"] * 4 + [
        "PhaseChanged",
        "Turn",
    ]
    assert [(e.kind, e.seat) for e in find(trail, Answered)] == [("reservation_no", s) for s in range(4)]
    turn = find(trail, Turn)[0]
    assert (turn.current_trick, turn.total_tricks, turn.current_player) == (1, 12, 0)


def test_the_card_timer_keeps_running_across_unrelated_inputs() -> None:
    table, _ = full_table()
    rig(table, hands_with({0: ["cq"], 2: ["cq"]}))
    all_healthy(table)
    (before,) = table.pending_timers()
    table.apply(1, Announce("kontra"))
    assert table.pending_timers() == [before]
    seat = next(iter(table.to_move().seats))
    table.apply(seat, next(a for a in table.legal_actions(seat) if isinstance(a, PlayCard)))
    (after,) = table.pending_timers()
    assert after.key != before.key


def test_view_lists_the_playable_cards_of_the_due_seat() -> None:
    table, _ = full_table()
    rig(table, [["c9", "cq"], ["ck", "hk"], ["cq", "h9"], ["ca", "s9"]])
    all_healthy(table)
    assert len(table.view(0)["round"]["playable"]) == 2
    table.apply(0, PlayCard(table.view(0)["round"]["playable"][0]))  # ♣9
    assert [table.round.values[c] for c in table.view(1)["round"]["playable"]] == ["ck"]
    assert table.view(2)["round"]["playable"] == []


@pytest.mark.parametrize(
    "action",
    [Vote("resign", True), Accuse(1, "cheating"), Announce("no120"), WeddingClarification("bogus")],
)
def test_actions_built_in_process_are_checked_too(action: object) -> None:
    table, _ = full_table({"misplay": "penalize", "wedding": "wish_trick"})
    rig(table, hands_with({0: ["cq", "cq"]}))
    all_ready(table)
    for seat in range(4):
        table.apply(seat, Answer("reservation", seat == 0))
    if isinstance(action, WeddingClarification):
        table.apply(0, AnswerSolo(None))
        table.apply(0, Answer("wedding", True))
    elif isinstance(action, Announce):
        table.apply(0, AnswerSolo("solo_queen"))
    with pytest.raises(MalformedAction):
        table.apply(0, action)  # type: ignore[arg-type]

"""Section 6.2 and 6.3: drops (seat held), releases, a czar leaving mid-round, waiting for
players, aborting, and the state replay for a seat that comes back."""

from __future__ import annotations

import pytest
from aah_engine_support import (
    assert_census,
    czar,
    fire,
    hand_ids,
    kinds,
    lobby,
    next_round,
    of_type,
    pickers,
    play_all,
    started,
    timer_kind,
    tiny_deck,
    win_round,
)

from gamehall.rules._core import RuleError, SeatAway, SeatBack, SeatLeft, Termination
from gamehall.rules.aah.actions import Judge, Pick
from gamehall.rules.aah.events import (
    Broadcast,
    CzarAndBlack,
    GameAborted,
    GameStarted,
    Points,
    Revealed,
    RoundStarted,
    RoundVoid,
    TableClosed,
    WhiteDealt,
)

# -- drops (seat held) -----------------------------------------------------------------------


def test_a_dropped_picker_is_no_longer_awaited_and_its_finished_cards_count() -> None:
    table, _ = started(4, seed=3)
    a, b, c = pickers(table)
    table.apply(a, Pick((hand_ids(table, a)[0],)))
    events = table.seat_away(a)
    name = table.seat_names()[a]
    assert events == [
        SeatAway(seat=a, name=name),
        Broadcast(topic="seat_held", text=f"{name} lost connection; the seat is held for 60 seconds."),
    ]
    assert pickers(table) == [b, c]
    table.apply(b, Pick((hand_ids(table, b)[0],)))
    events = table.apply(c, Pick((hand_ids(table, c)[0],)))
    assert len(of_type(events, Revealed)) == 3
    assert table.seat_names()[a] == name  # still held


def test_a_dropped_pickers_partial_submission_returns_to_its_hand_silently() -> None:
    table, _ = started(4, seed=3, deck=tiny_deck(blacks=((2, 1),) * 20))
    a, b, c = pickers(table)
    table.apply(a, Pick((hand_ids(table, a)[0],)))
    table.seat_away(a)
    table.apply(b, Pick(tuple(hand_ids(table, b)[:2])))
    events = table.apply(c, Pick(tuple(hand_ids(table, c)[:2])))
    assert kinds(events) == ["CardPlayed", "CardPlayed", "Revealed", "Revealed"]
    assert len(table.view(a)["hand"]) == 10
    assert_census(table)


def test_last_picker_dropping_ends_the_pick_phase() -> None:
    table, _ = started(4, seed=3)
    a, b, c = pickers(table)
    for seat in (a, b):
        table.apply(seat, Pick((hand_ids(table, seat)[0],)))
    events = table.seat_away(c)
    assert kinds(events) == ["SeatAway", "Broadcast", "Revealed", "Revealed"]


@pytest.mark.parametrize("phase", ["pick", "judge"])
def test_czar_dropping_mid_round_voids_it(phase: str) -> None:
    table, _ = started(4, seed=4)
    the_czar = czar(table)
    name = table.seat_names()[the_czar]
    if phase == "judge":
        play_all(table)
    else:
        seat = pickers(table)[0]
        table.apply(seat, Pick((hand_ids(table, seat)[0],)))
    events = table.seat_away(the_czar)
    assert kinds(events)[:3] == ["SeatAway", "Broadcast", "RoundVoid"]
    assert events[2] == RoundVoid(
        cause="czar_left", text=f"Card Czar {name} left mid-round. Terminating round."
    )
    returned = of_type(events, WhiteDealt)
    assert len(returned) == (3 if phase == "judge" else 1)
    assert kinds(events)[-5:] == ["Points"] * 4 + ["Broadcast"]
    assert timer_kind(table) == "gap"
    assert_census(table)
    fire(table, "gap")  # three seats still present: the next round starts
    assert table.view(None)["phase"] == "pick" and czar(table) != the_czar


def test_czar_leaving_mid_round_voids_it() -> None:
    table, _ = started(4, seed=4)
    the_czar = czar(table)
    name = table.seat_names()[the_czar]
    events = table.seat_leave(the_czar)
    assert kinds(events)[:2] == ["SeatLeft", "RoundVoid"]
    assert events[1].text == f"Card Czar {name} left mid-round. Terminating round."
    assert_census(table)


# -- releases of non-czar seats ------------------------------------------------------------------


def test_released_picker_cards_are_discarded_and_the_phase_may_end() -> None:
    table, _ = started(4, seed=3)
    a, b, c = pickers(table)
    table.apply(a, Pick((hand_ids(table, a)[0],)))
    table.apply(b, Pick((hand_ids(table, b)[0],)))
    discarded_before = table.card_census().white_discard
    events = table.seat_leave(c)
    assert kinds(events) == ["SeatLeft", "Revealed", "Revealed"]
    assert table.card_census().white_discard == discarded_before + 10
    assert_census(table)


def test_released_seat_in_judging_has_its_submission_withdrawn() -> None:
    table, _ = started(4, seed=3)
    a = pickers(table)[0]
    play_all(table)
    withdrawn = table.view(a)["my_submission"][0]
    assert table.seat_leave(a) == [SeatLeft(seat=a, name=_name(a))]
    assert len(table.view(None)["submissions"]) == 2
    with pytest.raises(RuleError) as caught:
        table.apply(czar(table), Judge(withdrawn))
    assert caught.value.code == "card_not_played"
    assert len(table.legal_actions(czar(table))) == 2
    assert_census(table)


def _name(seat: int) -> str:
    return ("alice", "bob", "carol", "dave", "erin")[seat]


def test_judging_with_no_submission_left_is_void() -> None:
    table, _ = started(4, seed=3, min_players=2)
    a = pickers(table)[0]
    table.apply(a, Pick((hand_ids(table, a)[0],)))
    fire(table, "pick")  # the other two are skipped; need = 1, so judging starts with a's card
    assert timer_kind(table) == "judge"
    events = table.seat_leave(a)
    assert kinds(events)[:2] == ["SeatLeft", "RoundVoid"]
    assert events[1] == RoundVoid(cause="none_left", text="Too few players made a choice; the round is void.")
    assert_census(table)


# -- too few players ---------------------------------------------------------------------------


def test_leave_below_min_players_aborts() -> None:
    table, _ = started(3, seed=1)
    events = table.seat_leave(1)
    assert events == [
        SeatLeft(seat=1, name="bob"),
        GameAborted(text="Not enough players to continue."),
        TableClosed(cause="aborted", text="Game ended by server or administrator."),
    ]
    assert table.finished and table.view(None)["phase"] == "aborted"
    outcome = table.outcome()
    assert outcome is not None and outcome.termination is Termination.ABORTED
    assert table.pending_timers() == []


def test_waiting_for_held_seats_then_resuming() -> None:
    table, _ = started(4, seed=1)
    win_round(table)
    table.seat_away(0)
    table.seat_away(1)
    events = fire(table, "gap")
    assert events == [Broadcast(topic="waiting", text="Waiting for players to reconnect.")]
    view = table.view(None)
    assert view["phase"] == "waiting" and view["czar"] is None
    assert table.pending_timers() == []
    assert table.to_move().seats == frozenset()
    events = table.seat_back(1)
    assert kinds(events)[-2:] == ["Broadcast", "Broadcast"]
    assert events[-1] == Broadcast(topic="next_round", text="The next round will begin in 5 seconds.")
    assert timer_kind(table) == "gap"
    fire(table, "gap")
    assert table.view(None)["phase"] == "pick"
    assert 0 not in pickers(table) and czar(table) != 0


def test_waiting_ends_in_an_abort_when_graces_expire() -> None:
    table, _ = started(4, seed=1)
    win_round(table)
    table.seat_away(0)
    table.seat_away(1)
    fire(table, "gap")
    assert table.seat_leave(0) == [SeatLeft(seat=0, name="alice")]  # 3 seats: still waiting for bob
    assert table.view(None)["phase"] == "waiting"
    assert table.seat_leave(1)[-1] == TableClosed(
        cause="aborted", text="Game ended by server or administrator."
    )


# -- rejoin (6.3, 10.5) ------------------------------------------------------------------------


def test_rejoin_in_the_pick_phase_replays_the_table_to_the_returning_seat() -> None:
    table, _ = started(4, seed=1)
    carol = next(s for s in pickers(table))
    name = table.seat_names()[carol]
    hand = hand_ids(table, carol)
    table.seat_away(carol)
    events = table.seat_back(carol)
    me = frozenset({carol})
    others = frozenset({0, 1, 2, 3}) - me
    assert events[0] == SeatBack(seat=carol, name=name)
    assert events[1] == GameStarted(audience=me)
    assert events[2:6] == [Points(seat=s, name=_name(s), points=0, audience=me) for s in range(4)]
    restored = events[6:16]
    assert [e.card.card_id for e in restored] == hand
    assert all(isinstance(e, WhiteDealt) and e.reason == "restore" and e.audience == me for e in restored)
    assert events[16] == RoundStarted(round=1, audience=me)
    assert isinstance(events[17], CzarAndBlack) and events[17].audience == me
    assert events[18] == Broadcast(topic="seat_back", text=f"{name} has reconnected.", audience=others)
    assert len(events) == 19
    assert carol in pickers(table)


def test_rejoin_in_judging_replays_the_reveals_in_the_round_order() -> None:
    table, _ = started(4, seed=1)
    returning = pickers(table)[0]
    reveals = of_type(play_all(table), Revealed)
    table.seat_away(returning)
    events = table.seat_back(returning)
    replayed = of_type(events, Revealed)
    assert [e.cards for e in replayed] == [e.cards for e in reveals]
    assert all(e.audience == frozenset({returning}) for e in replayed)


def test_rejoin_during_the_gap_sends_no_round() -> None:
    table, _ = started(4, seed=1)
    win_round(table)
    table.seat_away(2)
    events = table.seat_back(2)
    assert of_type(events, RoundStarted) == [] and of_type(events, CzarAndBlack) == []


def test_a_seat_that_missed_the_draw_step_is_topped_up_on_return() -> None:
    table, _ = started(4, seed=1, aplimit=100)
    away = next(s for s in pickers(table) if s != (czar(table) + 1) % 4)
    table.apply(away, Pick((hand_ids(table, away)[0],)))
    table.seat_away(away)
    next_round(table)  # away during the draw step: still 9 cards
    assert len(table.view(away)["hand"]) == 9
    events = table.seat_back(away)
    assert len(of_type(events, WhiteDealt)) == 10
    assert len(hand_ids(table, away)) == 10
    assert_census(table)


def test_rejoin_keeps_points_and_seat() -> None:
    table, _ = started(4, seed=1, aplimit=100)
    winner = pickers(table)[0]
    next_round(table, winner=winner)
    table.seat_away(winner)
    table.seat_back(winner)
    assert table.view(None)["seats"][winner]["points"] == 1
    assert table.seat_names()[winner] == _name(winner)


def test_back_for_a_seat_that_is_not_away_is_refused() -> None:
    table, _ = started(3)
    with pytest.raises(RuleError) as caught:
        table.seat_back(0)
    assert caught.value.code == "not_away"
    with pytest.raises(RuleError) as caught:
        table.seat_leave(7)
    assert caught.value.code == "not_seated"


def test_resync_replays_the_table_to_one_seat_and_changes_nothing() -> None:
    table, _ = started(4, seed=1)
    seat = pickers(table)[0]
    play_all(table)
    views = [table.view(s) for s in (None, 0, 1, 2, 3)]
    events = table.resync(seat)
    assert [table.view(s) for s in (None, 0, 1, 2, 3)] == views
    assert all(event.audience == frozenset({seat}) for event in events)
    table.seat_away(seat)
    replay = table.seat_back(seat)[1:-1]  # without SeatBack and the notice to the others
    assert events == replay


def test_resync_in_the_lobby_sends_nothing() -> None:
    assert lobby(3).resync(1) == []

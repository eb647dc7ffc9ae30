"""Timers of sections 5.7-5.9: the pick timeout (skips, partial cards back, void when too
few finished), the czar timeout, kicking after repeated skips, and stale timers."""

from __future__ import annotations

from aah_engine_support import (
    assert_census,
    czar,
    fire,
    hand_ids,
    kinds,
    of_type,
    pickers,
    play_all,
    started,
    timer_kind,
    tiny_deck,
)

from gamehall.rules._core import SeatLeft, Termination
from gamehall.rules.aah.actions import Pick
from gamehall.rules.aah.events import (
    Broadcast,
    CzarTimedOut,
    GameAborted,
    PickTimedOut,
    Points,
    RoundVoid,
    SeatKicked,
    TableClosed,
    WhiteDealt,
)


def test_pick_timeout_with_one_submission_voids_the_round_and_returns_cards() -> None:
    table, _ = started(3, seed=8)
    the_czar = czar(table)
    player, idler = pickers(table)
    idler_name = table.seat_names()[idler]
    card_id = hand_ids(table, player)[2]
    table.apply(player, Pick((card_id,)))
    events = fire(table, "pick")
    assert kinds(events) == [
        "PickTimedOut",
        "Broadcast",
        "RoundVoid",
        "WhiteDealt",
        "Points",
        "Points",
        "Points",
        "Broadcast",
    ]
    assert events[0] == PickTimedOut(seat=idler, audience=frozenset({idler}))
    assert events[1] == Broadcast(
        topic="pick_timeout",
        text=f"Player {idler_name} failed to make a choice within the time-limit and has been skipped.",
    )
    assert events[2] == RoundVoid(cause="too_few", text="Too few players made a choice; the round is void.")
    returned = events[3]
    assert isinstance(returned, WhiteDealt)
    assert (returned.seat, returned.card.card_id, returned.reason) == (player, card_id, "return")
    assert returned.audience == frozenset({player})
    assert events[-1].text == "The next round will begin in 5 seconds."
    assert all(e.seat != the_czar for e in of_type(events, PickTimedOut))
    assert card_id in hand_ids(table, player)
    assert table.view(None)["last_round"] == {
        "winner": None,
        "winner_name": None,
        "card_id": None,
        "submissions": [],
    }
    assert_census(table)
    assert kinds(fire(table, "gap"))[-2:] == ["RoundStarted", "CzarAndBlack"]


def test_partial_submission_goes_back_on_timeout() -> None:
    table, _ = started(4, seed=1, deck=tiny_deck(blacks=((2, 1),) * 20))
    first, second, partial = pickers(table)
    for seat in (first, second):
        table.apply(seat, Pick(tuple(hand_ids(table, seat)[:2])))
    half = hand_ids(table, partial)[0]
    table.apply(partial, Pick((half,)))
    events = fire(table, "pick")
    assert kinds(events) == ["PickTimedOut", "Broadcast", "WhiteDealt", "Revealed", "Revealed"]
    assert events[2] == WhiteDealt(
        seat=partial, card=events[2].card, reason="return", audience=frozenset({partial})
    )
    assert events[2].card.card_id == half
    assert len(hand_ids(table, partial)) == 10
    assert timer_kind(table) == "judge"


def test_czar_timeout_voids_the_round_and_the_next_round_follows() -> None:
    table, _ = started(3, seed=2)
    the_czar = czar(table)
    czar_name = table.seat_names()[the_czar]
    play_all(table)
    (timer,) = table.pending_timers()
    assert timer.seconds == 60
    events = fire(table, "judge")
    assert events[0] == CzarTimedOut(seat=the_czar, audience=frozenset({the_czar}))
    assert events[1] == RoundVoid(
        cause="czar_timeout",
        text=f"Card Czar {czar_name} failed to pick winner within the time-limit and so the round has ended.",
    )
    returns = of_type(events, WhiteDealt)
    assert [e.seat for e in returns] == sorted(set(range(3)) - {the_czar})
    assert kinds(events)[len(returns) + 2 :] == ["Points"] * 3 + ["Broadcast"]
    assert [len(hand_ids(table, s)) for s in range(3)] == [10, 10, 10]
    assert_census(table)
    assert timer_kind(table) == "gap" and table.pending_timers()[0].seconds == 5
    fire(table, "gap")
    assert czar(table) == (the_czar + 1) % 3


def test_a_seat_is_kicked_after_kick_after_skips_timeouts_in_a_row() -> None:
    table, _ = started(4, seed=5, kick_after_skips=2)
    next_czar = (czar(table) + 1) % 4
    idler = next(s for s in pickers(table) if s != next_czar)
    idler_name = table.seat_names()[idler]
    for round_no in (1, 2):
        for seat in pickers(table):
            if seat != idler:
                table.apply(seat, Pick((hand_ids(table, seat)[0],)))
        events = fire(table, "pick")
        if round_no == 1:
            assert not of_type(events, SeatKicked)
            fire(table, "judge")
            fire(table, "gap")
    assert kinds(events)[:5] == ["PickTimedOut", "Broadcast", "SeatKicked", "SeatLeft", "Revealed"]
    assert events[2] == SeatKicked(seat=idler, name=idler_name, audience=frozenset({idler}))
    assert events[2].text == "Disconnected due to inactivity."
    assert events[3] == SeatLeft(seat=idler, name=idler_name)
    assert idler not in table.seat_names()
    assert table.view(None)["phase"] == "judge"
    assert_census(table)
    # the hall learns of the kick from the events and may still close the seat as usual
    assert table.seat_away(idler) == [] and table.seat_leave(idler) == []


def test_completing_a_submission_resets_the_skip_count() -> None:
    table, _ = started(5, seed=9, kick_after_skips=2, aplimit=100)
    idler = pickers(table)[0]
    for round_no in range(4):
        plays_this_round = round_no % 2 == 1
        for seat in pickers(table):
            if seat != idler or plays_this_round:
                table.apply(seat, Pick((hand_ids(table, seat)[0],)))
        if table.view(None)["phase"] == "pick":
            assert not of_type(fire(table, "pick"), SeatKicked)
        fire(table, "judge")
        fire(table, "gap")
    assert idler in table.seat_names()


def test_a_kick_that_leaves_too_few_seats_aborts() -> None:
    table, _ = started(3, seed=5, kick_after_skips=1)
    events = fire(table, "pick")
    assert isinstance(events[2], SeatKicked)
    assert kinds(events)[-2:] == ["GameAborted", "TableClosed"]
    assert events[-2] == GameAborted(text="Not enough players to continue.")
    assert events[-1] == TableClosed(cause="aborted", text="Game ended by server or administrator.")
    outcome = table.outcome()
    assert outcome is not None and outcome.termination is Termination.ABORTED and not outcome.winners
    assert table.finished and table.pending_timers() == []


def test_czar_timeout_counts_as_a_skip() -> None:
    table, _ = started(4, seed=5, kick_after_skips=1)
    the_czar = czar(table)
    play_all(table)
    events = fire(table, "judge")
    kicked = of_type(events, SeatKicked)
    assert [e.seat for e in kicked] == [the_czar]
    assert kinds(events)[-2:] == ["SeatKicked", "SeatLeft"]
    assert timer_kind(table) == "gap"


def test_stale_timer_keys_change_nothing() -> None:
    table, _ = started(3)
    pick_key = table.pending_timers()[0].key
    play_all(table)
    assert table.on_timeout(pick_key) == []
    assert table.on_timeout("nonsense") == []
    assert timer_kind(table) == "judge"


def test_points_after_a_void_round_are_for_every_seat() -> None:
    table, _ = started(4, seed=1)
    events = fire(table, "pick")
    assert [e.seat for e in of_type(events, Points)] == [0, 1, 2, 3]

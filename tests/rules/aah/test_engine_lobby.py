"""Section 5.2 (lobby, start, autostart countdown) and 7.2 (rename in the lobby only)."""

from __future__ import annotations

import pytest
from aah_engine_support import fire, kinds, lobby, timer_kind, tiny_deck

from gamehall.rules._core import GameInProgress, RuleError, SeatJoined, SeatLeft, SeatRenamed, TableFull
from gamehall.rules.aah.events import CountdownCancelled, CountdownShortened, CountdownStarted, GameStarted
from gamehall.rules.aah.table import new_game


def test_seats_are_numbered_in_join_order_and_never_reused() -> None:
    table = new_game({"autostart_delay": 0}, 1, deck=tiny_deck())
    assert table.seat_join("alice")[0] == 0
    assert table.seat_join("bob")[0] == 1
    table.seat_leave(0)
    seat, events = table.seat_join("carol")
    assert seat == 2
    assert events == [SeatJoined(seat=2, name="carol")]
    assert table.seat_names() == {1: "bob", 2: "carol"}


def test_join_refused_when_full_or_started() -> None:
    table = lobby(3, playermax=3)
    with pytest.raises(TableFull, match=r"Player limit reached\."):
        table.seat_join("dave")
    table = lobby(3)
    table.start()
    with pytest.raises(GameInProgress, match=r"Game in progress; joining prohibited\."):
        table.seat_join("dave")


def test_join_refuses_a_name_in_use_ignoring_case_and_an_empty_name() -> None:
    table = lobby(2)
    with pytest.raises(RuleError) as caught:
        table.seat_join("ALICE")
    assert caught.value.code == "name_in_use"
    with pytest.raises(RuleError) as caught:
        table.seat_join("")
    assert caught.value.code == "name_invalid"


def test_lobby_drop_frees_the_seat_at_once() -> None:
    table = lobby(2)
    assert table.seat_away(1) == [SeatLeft(seat=1, name="bob")]
    assert table.seat_names() == {0: "alice"}


# -- start ---------------------------------------------------------------------------------


def test_start_needs_min_players() -> None:
    table = lobby(2, min_players=3)
    with pytest.raises(RuleError) as caught:
        table.start()
    assert caught.value.code == "not_enough_players"
    assert not table.started


def test_start_twice_is_refused() -> None:
    table = lobby(3)
    table.start()
    with pytest.raises(RuleError) as caught:
        table.start()
    assert caught.value.code == "already_started"


# -- autostart (5.2) -------------------------------------------------------------------------


def test_countdown_starts_when_min_players_are_seated_and_starts_the_game() -> None:
    table = new_game({"autostart_delay": 15}, 1, deck=tiny_deck())
    table.seat_join("alice")
    assert table.seat_join("bob")[1] == [SeatJoined(seat=1, name="bob")]
    assert table.pending_timers() == []
    _, events = table.seat_join("carol")
    assert kinds(events) == ["SeatJoined", "CountdownStarted"]
    assert events[1] == CountdownStarted(
        topic="countdown", text="The game will start in 15 seconds.", seconds=15
    )
    (timer,) = table.pending_timers()
    assert timer.seconds == 15 and timer_kind(table) == "autostart"
    started = fire(table, "autostart")
    assert isinstance(started[0], GameStarted)
    assert table.started


def test_countdown_is_cancelled_when_a_seat_leaves_below_min_players() -> None:
    table = new_game({"autostart_delay": 15}, 1, deck=tiny_deck())
    for name in ("alice", "bob", "carol"):
        table.seat_join(name)
    key = table.pending_timers()[0].key
    events = table.seat_leave(2)
    assert events == [
        SeatLeft(seat=2, name="carol"),
        CountdownCancelled(topic="countdown_cancelled", text="Start cancelled; waiting for players."),
    ]
    assert table.pending_timers() == []
    assert table.on_timeout(key) == []  # a timer that fired late changes nothing
    assert not table.started
    _, events = table.seat_join("dave")
    assert kinds(events) == ["SeatJoined", "CountdownStarted"]


def test_countdown_is_cut_to_three_seconds_when_the_table_fills() -> None:
    table = new_game({"autostart_delay": 15, "playermax": 4}, 1, deck=tiny_deck())
    for name in ("alice", "bob", "carol"):
        table.seat_join(name)
    long_key = table.pending_timers()[0].key
    _, events = table.seat_join("dave")
    assert events == [SeatJoined(seat=3, name="dave"), CountdownShortened(seconds=3)]
    (timer,) = table.pending_timers()
    assert timer.key != long_key and timer.seconds == 3
    assert table.on_timeout(long_key) == []
    assert kinds(fire(table, "autostart_short"))[0] == "GameStarted"


def test_a_table_full_at_min_players_counts_down_three_seconds() -> None:
    table = new_game({"autostart_delay": 15, "playermax": 3}, 1, deck=tiny_deck())
    table.seat_join("alice")
    table.seat_join("bob")
    _, events = table.seat_join("carol")
    assert events[1] == CountdownStarted(
        topic="countdown", text="The game will start in 3 seconds.", seconds=3
    )
    assert table.pending_timers()[0].seconds == 3


def test_a_leave_that_keeps_min_players_keeps_the_countdown() -> None:
    table = new_game({"autostart_delay": 15}, 1, deck=tiny_deck())
    for name in ("alice", "bob", "carol", "dave"):
        table.seat_join(name)
    key = table.pending_timers()[0].key
    assert table.seat_leave(3) == [SeatLeft(seat=3, name="dave")]
    assert table.pending_timers()[0].key == key


def test_no_countdown_when_autostart_is_off() -> None:
    table = lobby(5, autostart_delay=0)
    assert table.pending_timers() == []


def test_start_by_operator_during_countdown_stops_the_countdown() -> None:
    table = new_game({"autostart_delay": 15}, 1, deck=tiny_deck())
    for name in ("alice", "bob", "carol"):
        table.seat_join(name)
    key = table.pending_timers()[0].key
    table.start()
    assert timer_kind(table) == "pick"
    assert table.on_timeout(key) == []


# -- rename (7.2) ----------------------------------------------------------------------------


def test_rename_in_the_lobby() -> None:
    table = lobby(2)
    assert table.seat_rename(1, "Bobby") == [SeatRenamed(seat=1, old="bob", new="Bobby")]
    assert table.seat_rename(1, "BOBBY") == [SeatRenamed(seat=1, old="Bobby", new="BOBBY")]
    assert table.seat_names() == {0: "alice", 1: "BOBBY"}


def test_rename_to_a_name_in_use_is_refused() -> None:
    table = lobby(2)
    with pytest.raises(RuleError) as caught:
        table.seat_rename(1, "Alice")
    assert caught.value.code == "name_in_use"
    assert caught.value.reason == "Nickname in use; unchanged."
    assert table.seat_names()[1] == "bob"


def test_rename_during_the_game_is_refused() -> None:
    table = lobby(3)
    table.start()
    with pytest.raises(RuleError) as caught:
        table.seat_rename(1, "robert")
    assert caught.value.code == "rename_in_game"
    assert caught.value.reason == "Cannot change nickname during a game."
    assert table.seat_names()[1] == "bob"

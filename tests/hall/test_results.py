"""The stored result of a room (gamehall.hall.results): the engine's outcome merged with how
each seat ended. Rule cases from issue 9's table."""

from __future__ import annotations

from gamehall.hall.results import describe_seats, room_result
from gamehall.rules._core import ForfeitReason, Outcome, SeatEnd, SeatResult, Termination

NAMES = {0: "ann", 1: "ben", 2: "cy"}


def test_an_aborted_game_has_no_winners_even_if_the_engine_names_one() -> None:
    """Words: recorded ``aborted`` with ``winners: [0]``."""
    outcome = Outcome({0: 40, 1: 10}, frozenset({0}), Termination.ABORTED, {0: "ann", 1: "ben"})
    result = room_result(outcome, forfeits={}, still_away=[], ended_by_release=True)
    assert result["termination"] == "aborted" and result["winners"] == []
    assert result["seats"] == {"0": {"result": "aborted"}, "1": {"result": "aborted"}}


def test_a_seat_that_forfeited_never_wins() -> None:
    """Ursuppe: a released seat is played with defaults to the end and may top the scores."""
    outcome = Outcome({0: 30, 1: 20, 2: 10}, frozenset({0}), Termination.NORMAL, NAMES)
    result = room_result(
        outcome, forfeits={0: ForfeitReason.DISCONNECTED}, still_away=[], ended_by_release=False
    )
    assert result["termination"] == "normal" and result["winners"] == []
    assert result["seats"]["0"] == {"result": "forfeit", "reason": "disconnected"}
    assert result["seats"]["1"] == {"result": "normal"}


def test_a_release_that_ends_the_game_is_a_forfeit_and_held_seats_do_not_win() -> None:
    """Mr. Jack after a restart: one seat's grace ends, the engine says the other side won
    by "left", but that side never came back either."""
    outcome = Outcome({0: 0, 1: 1}, frozenset({1}), Termination.LEFT, {0: "ann", 1: "ben"})
    result = room_result(
        outcome, forfeits={0: ForfeitReason.DISCONNECTED}, still_away=[1], ended_by_release=True
    )
    assert result["termination"] == "aborted" and result["winners"] == []
    assert result["seats"]["1"] == {"result": "forfeit", "reason": "disconnected"}


def test_a_release_against_a_present_opponent_is_a_forfeit_win() -> None:
    outcome = Outcome({0: 0, 1: 1}, frozenset({1}), Termination.LEFT, {0: "ann", 1: "ben"})
    result = room_result(outcome, forfeits={0: ForfeitReason.LEFT}, still_away=[], ended_by_release=True)
    assert result["termination"] == "forfeit" and result["winners"] == [1]
    assert result["seats"] == {"0": {"result": "forfeit", "reason": "left"}, "1": {"result": "normal"}}


def test_the_engines_own_seat_ends_are_kept() -> None:
    ends = {1: SeatEnd(SeatResult.FORFEIT, ForfeitReason.RULE_VIOLATION)}
    outcome = Outcome({0: 1, 1: 0}, frozenset({0}), Termination.RULE_VIOLATION, {0: "a", 1: "b"}, ends)
    result = room_result(outcome, forfeits={1: ForfeitReason.LEFT}, still_away=[], ended_by_release=False)
    assert result["seats"]["1"] == {"result": "forfeit", "reason": "rule_violation"}
    assert result["winners"] == [0] and result["termination"] == "rule_violation"


def test_replay_describes_each_seats_end() -> None:
    outcome = Outcome({0: 3, 1: 1}, frozenset({0}), Termination.NORMAL, {0: "ann", 1: "ben"})
    result = room_result(outcome, forfeits={1: ForfeitReason.TIMEOUT}, still_away=[], ended_by_release=False)
    assert describe_seats(result) == ["seat 0 ann: normal", "seat 1 ben: forfeit (timeout)"]
    assert describe_seats({"termination": "abandoned"}) == []

"""Classic scrabble (JDuplicate note §8.4, checklist 10): turns in join order, each rack seen by its
owner alone, moves refereed at once (a non-word is refused and may be retried), passes,
exchanges, the timeout, and the two ends with their rack adjustments (``out``, ``passes``).

Racks are set by hand after the deal, so each case reads with the tiles it needs.
"""

from __future__ import annotations

import pytest
from words_modes_support import fire, of_type, table, visible

from gamehall.rules._core import GameInProgress, IllegalAction, NotYourTurn, WrongPhase
from gamehall.rules.words.actions import ChangeLetters, Moves, StartTurn
from gamehall.rules.words.events import (
    GameEnded,
    HandDealt,
    LettersChanged,
    MovesRequested,
    ScoresUpdated,
    TurnEnded,
    TurnResult,
    TurnStarted,
)
from gamehall.rules.words.moves import NotInDictionary
from gamehall.rules.words.scrabble import ScrabbleTable

SCR = {"preset": "ScrEN"}
BISE_H8 = Moves(((7, 7, "B"), (7, 8, "I"), (7, 9, "S"), (7, 10, "e")))
PASS = Moves(())


def started(players: tuple[str, ...] = ("ams", "jim"), **config: object) -> ScrabbleTable:
    game, _ = table({**SCR, **config}, players)
    assert isinstance(game, ScrabbleTable)
    game.racks[0] = list("BIS?RTU")
    game.racks[1] = list("AEINRST")
    return game


def test_the_deal_sends_each_rack_to_its_owner_only_and_seat_0_plays_first() -> None:
    game, events = table(SCR, ("ams", "jim", "luc"))
    hands = of_type(events, HandDealt)
    assert [(h.seat, h.audience) for h in hands] == [(s, frozenset({s})) for s in (0, 1, 2)]  # type: ignore[attr-defined]
    assert all(len(h.letters) == 7 for h in hands)  # type: ignore[attr-defined]
    assert visible(hands, None) == []
    start = of_type(events, TurnStarted)[0]
    assert start == TurnStarted(turn=1, seconds=120.0, player=0, player_name="ams")
    assert len(game.bag) == 100 - 21  # type: ignore[attr-defined]


def test_a_move_scores_goes_on_the_board_and_the_rack_is_refilled() -> None:
    game = started()
    events = game.apply(0, BISE_H8)
    assert [type(e) for e in events] == [TurnEnded, HandDealt, ScoresUpdated, TurnStarted]
    ended = events[0]
    assert isinstance(ended, TurnEnded)
    assert (ended.ref, ended.word, ended.score) == ("H8", "BISe", 10)
    assert ended.results == (TurnResult(0, "ams", "H8", "BISe", 10, "ok"),)
    hand = events[1]
    assert isinstance(hand, HandDealt) and hand.audience == frozenset({0})
    assert hand.letters[:3] == ("R", "T", "U") and len(hand.letters) == 7
    assert game.players[0].total == 10 and game.board.rows()[7] == ".......BISe...."
    assert events[3] == TurnStarted(turn=2, seconds=120.0, player=1, player_name="jim")


def test_out_of_turn_and_non_words_are_refused_and_the_player_may_retry() -> None:
    game = started()
    with pytest.raises(NotYourTurn):
        game.apply(1, PASS)
    with pytest.raises(NotInDictionary) as error:
        game.apply(0, Moves(((7, 7, "B"), (7, 8, "I"), (7, 9, "T"))))
    assert error.value.code == "not_in_dictionary" and error.value.detail["word"] == "BIT"
    assert game.current == 0 and game.racks[0] == list("BIS?RTU")
    assert of_type(game.apply(0, BISE_H8), TurnEnded)


def test_a_pass_and_an_exchange_score_nothing() -> None:
    game = started()
    passed = game.apply(0, PASS)
    assert of_type(passed, TurnEnded)[0].results == (TurnResult(0, "ams", "-", "-", 0, "pass"),)  # type: ignore[attr-defined]
    bag_before = sorted(game.bag)
    changed = game.apply(1, ChangeLetters(("A", "E")))
    assert changed[0] == LettersChanged(seat=1, count=2)
    assert of_type(changed, TurnEnded)[0].results[0].status == "exchange"  # type: ignore[attr-defined]
    rack = game.racks[1]
    assert len(rack) == 7 and sorted(game.bag + rack) == sorted([*bag_before, *"AEINRST"])
    assert game.scoreless_turns == 2


def test_exchange_errors() -> None:
    game = started()
    with pytest.raises(IllegalAction) as missing:
        game.apply(0, ChangeLetters(("Z",)))
    assert missing.value.code == "letter_not_in_hand" and missing.value.detail["glyph"] == "Z"
    game.bag = game.bag[:6]
    with pytest.raises(IllegalAction) as small:
        game.apply(0, ChangeLetters(("B",)))
    assert small.value.code == "bag_too_small" and small.value.detail["count"] == 6
    with pytest.raises(WrongPhase):
        game.apply(0, StartTurn())


def test_the_blank_is_exchanged_as_star_or_question_mark() -> None:
    game = started()
    blanks = game.bag.count("?") + 1
    game.apply(0, ChangeLetters(("*",)))
    assert game.bag.count("?") + game.racks[0].count("?") == blanks


def test_a_timeout_requests_the_move_then_counts_as_a_pass() -> None:
    game = started()
    assert fire(game) == [MovesRequested(turn=1, grace=5.0, audience=frozenset({0}))]
    timed_out = fire(game)
    assert of_type(timed_out, TurnEnded)[0].results[0].status == "timeout"  # type: ignore[attr-defined]
    assert game.current == 1


def test_six_scoreless_turns_end_the_game_and_each_rack_is_subtracted() -> None:
    game = started()
    game.players[0].total = game.players[1].total = 50
    events = []
    for turn in range(6):
        events = game.apply(turn % 2, PASS)
    end = events[-1]
    assert isinstance(end, GameEnded) and end.reason == "passes"
    # BIS?RTU is worth 3+1+1+0+1+1+1 = 8, AEINRST 7.
    assert {s.name: s.total for s in end.ranking} == {"ams": 42, "jim": 43}
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == frozenset({1})


def test_going_out_with_an_empty_bag_takes_the_other_racks() -> None:
    game = started()
    game.bag = []
    game.racks[0] = list("BISE")
    game.racks[1] = list("QZ")
    events = game.apply(0, Moves(((7, 7, "B"), (7, 8, "I"), (7, 9, "S"), (7, 10, "E"))))
    end = events[-1]
    assert isinstance(end, GameEnded) and end.reason == "out"
    # BISE at H8: (3+1+1+1) x 2 = 12; jim's QZ is worth 20.
    assert {s.name: s.total for s in end.ranking} == {"ams": 32, "jim": -20}


def test_a_leaver_returns_the_rack_and_is_skipped() -> None:
    game = started(("ams", "jim", "luc"))
    bag = len(game.bag)
    events = game.seat_leave(0)
    assert len(game.bag) == bag + 7 and 0 not in game.racks
    assert of_type(events, TurnStarted)[0] == TurnStarted(turn=2, seconds=120.0, player=1, player_name="jim")
    game.apply(1, PASS)
    assert game.current == 2
    game.apply(2, PASS)
    assert game.current == 1


def test_nobody_joins_a_running_scrabble_game_and_the_table_holds_four() -> None:
    game = started(join_after_start=True)
    with pytest.raises(GameInProgress):
        game.seat_join("luc")
    assert game.rules.max_players == 4
    crowded, _ = table({**SCR, "max_players": 32}, (), start=False)
    assert crowded.rules.max_players == 4


def test_racks_are_hidden_from_other_seats_and_spectators() -> None:
    game = started()
    assert game.view(0)["rack"] == list("BIS?RTU")
    assert game.view(1)["rack"] == list("AEINRST")
    assert game.view(None)["rack"] is None
    assert game.view(None)["rack_sizes"] == {"0": 7, "1": 7}
    assert "bag" not in game.view(0)
    resync = game.resync(1)
    assert all(e.audience == frozenset({1}) for e in resync)
    assert of_type(resync, HandDealt)[0].letters == tuple("AEINRST")  # type: ignore[attr-defined]

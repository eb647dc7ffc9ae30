"""Duplicate turns (JDuplicate note §8.3, §4.1, checklist 7-9, 11): the shared rack, submissions
checked at once for geometry and rack but silently for the dictionary, MOVESREQUEST and the
grace, ENDOFTURN with the top placed on the board, SCORES, and the end of the game.

The lexicon is the note's fixture; a bag in a chosen order fixes the racks.
"""

from __future__ import annotations

import pytest
from words_modes_support import fire, of_type, table, visible

from gamehall.rules._core import GameInProgress, IllegalAction, MalformedAction, SeatJoined, WrongPhase
from gamehall.rules.words.actions import ChangeLetters, Moves, StartTurn
from gamehall.rules.words.duplicate import DuplicateTable
from gamehall.rules.words.events import (
    GameEnded,
    GameStarted,
    HandDealt,
    MovesRequested,
    ScoresUpdated,
    SubmissionRecorded,
    TurnEnded,
    TurnResult,
    TurnStarted,
)
from gamehall.rules.words.lexicon import Lexicon
from gamehall.rules.words.moves import PlacementError

DUP = {"preset": "DupEN"}
BISE_H8 = Moves(((7, 7, "B"), (7, 8, "I"), (7, 9, "S"), (7, 10, "e")))
BIT_H8 = Moves(((7, 7, "B"), (7, 8, "I"), (7, 9, "T")))


def started(players: tuple[str, ...] = ("ams", "jim", "luc"), **config: object) -> DuplicateTable:
    game, _ = table({**DUP, **config}, players, lexicon=Lexicon.from_words(["BISE"]), bag="BIS?RTU")
    assert isinstance(game, DuplicateTable)
    return game


def test_start_opens_turn_one_with_the_same_rack_for_everyone() -> None:
    game, events = table(DUP, ("ams", "jim"), lexicon=Lexicon.from_words(["BISE"]), bag="BIS?RTU")
    started_events = events[2:]
    assert [type(e) for e in started_events] == [GameStarted, TurnStarted, HandDealt]
    hand = started_events[2]
    assert isinstance(hand, HandDealt)
    assert hand.audience is None and hand.seat is None
    assert sorted(hand.letters) == sorted("BIS?RTU") and hand.kept == 0 and hand.rejected == 0
    assert game.view(0)["rack"] == game.view(None)["rack"] == list(hand.letters)


def test_a_turn_scores_each_submission_and_places_the_top() -> None:
    game = started()
    recorded = game.apply(0, BISE_H8)
    assert recorded == [SubmissionRecorded(turn=1, seat=0, tiles=BISE_H8.tiles, audience=frozenset({0}))]
    assert game.apply(1, BIT_H8)  # not a word: no error now (hidden validity)
    request = fire(game)
    assert request == [MovesRequested(turn=1, grace=5.0, audience=frozenset({2}))]
    closing = fire(game)
    ended, scores = closing[0], closing[1]
    assert ended == TurnEnded(
        turn=1,
        ref="H5",
        word="BISe",
        score=10,
        tiles=((7, 4, "B"), (7, 5, "I"), (7, 6, "S"), (7, 7, "e")),
        results=(
            TurnResult(0, "ams", "H8", "BISe", 10, "ok"),
            TurnResult(1, "jim", "H8", "BIT", 0, "invalid"),
            TurnResult(2, "luc", "-", "-", 0, "none"),
        ),
    )
    assert isinstance(scores, ScoresUpdated)
    assert scores.toptotal == 10
    assert [(s.name, s.total, s.last) for s in scores.scores] == [
        ("ams", 10, 10),
        ("jim", 0, 0),
        ("luc", 0, 0),
    ]
    assert game.board.rows()[7] == "....BISe......."
    # The reliquat R T U and an empty bag cannot give two vowels: the game ends (bag).
    assert isinstance(closing[-1], GameEnded) and closing[-1].reason == "bag"
    assert game.finished and game.outcome() is not None


def test_errors_of_form_rack_and_geometry_come_at_once_and_change_nothing() -> None:
    game = started()
    with pytest.raises(PlacementError) as error:
        game.apply(0, Moves(((7, 7, "Z"), (7, 8, "I"))))
    assert error.value.code == "not_in_rack" and error.value.detail["glyph"] == "Z"
    with pytest.raises(PlacementError) as error:
        game.apply(0, Moves(((0, 0, "B"), (0, 1, "I"))))
    assert error.value.code == "first_move_centre"
    with pytest.raises(PlacementError) as error:
        game.apply(0, Moves(((7, 7, "?"), (7, 8, "I"))))
    assert error.value.code == "bad_blank"
    with pytest.raises(MalformedAction) as malformed:
        game.apply(0, Moves(((7, 7, "1"),)))
    assert malformed.value.code == "bad_format"
    with pytest.raises(IllegalAction) as change:
        game.apply(0, ChangeLetters(("B",)))
    assert change.value.code == "change_not_allowed"
    with pytest.raises(WrongPhase):
        game.apply(0, StartTurn())
    assert game.submissions == {}


def test_the_last_submission_counts_and_an_empty_one_withdraws() -> None:
    game = started(("ams",))
    game.apply(0, BIT_H8)
    game.apply(0, BISE_H8)
    assert game.submissions[0].move is not None
    game.apply(0, Moves(()))
    assert 0 not in game.submissions
    game.apply(0, BISE_H8)
    closing = fire(game)
    assert of_type(closing, TurnEnded)[0].results == (TurnResult(0, "ams", "H8", "BISe", 10, "ok"),)


def test_the_grace_ends_early_once_everyone_has_answered() -> None:
    game = started(("ams", "jim"))
    game.apply(0, BISE_H8)
    assert fire(game) == [MovesRequested(turn=1, grace=5.0, audience=frozenset({1}))]
    closing = game.apply(1, BIT_H8)
    assert isinstance(closing[1], TurnEnded)


def test_end_turn_when_all_moved_closes_the_turn_without_waiting() -> None:
    game = started(("ams", "jim"), end_turn_when_all_moved=True)
    assert not of_type(game.apply(0, BISE_H8), TurnEnded)
    assert of_type(game.apply(1, BISE_H8), TurnEnded)


def test_moves_are_refused_between_turns_and_before_the_start() -> None:
    words = ["BISE", "BE", "BI", "ES", "IS", "RE", "TU", "UT", "ER", "ET", "TE", "SU", "US"]
    game, _ = table({**DUP, "pause_s": 5.0}, ("ams", "jim"), lexicon=Lexicon.from_words(words), start=False)
    with pytest.raises(WrongPhase) as early:
        game.apply(0, BISE_H8)
    assert early.value.code == "not_in_progress"
    game.bag = list("BISERTUBISERTU")  # type: ignore[attr-defined]
    game.start()
    fire(game)
    fire(game)
    assert game.phase.value == "pause"
    with pytest.raises(WrongPhase) as closed:
        game.apply(0, BISE_H8)
    assert closed.value.code == "turn_closed"
    assert of_type(fire(game), TurnStarted)


def test_a_late_joiner_gets_the_turn_and_the_rack_for_itself() -> None:
    game = started(("ams",))
    seat, events = game.seat_join("jim")
    assert isinstance(events[0], SeatJoined) and events[0].audience is None
    catch_up = events[1:]
    assert {type(e) for e in catch_up} == {ScoresUpdated, TurnStarted, HandDealt}
    assert all(e.audience == frozenset({seat}) for e in catch_up)


def test_joining_after_the_start_can_be_forbidden() -> None:
    game = started(("ams",), join_after_start=False)
    with pytest.raises(GameInProgress):
        game.seat_join("jim")


def test_a_returning_player_gets_their_total_back() -> None:
    game = started(("ams", "jim"), pause_s=5.0)
    game.apply(1, BISE_H8)
    fire(game)
    fire(game)
    assert game.players[1].total == 10 and game.phase.value == "pause"
    game.seat_leave(1)
    assert [s.name for s in game.standings()] == ["jim", "ams"]  # the leaver stays, frozen
    seat, _ = game.seat_join("Jim")
    assert game.players[seat].total == 10 and len(game.players) == 2


def test_submissions_stay_hidden_until_the_turn_ends() -> None:
    game = started(("ams", "jim"))
    events = game.apply(0, BISE_H8)
    assert visible(events, 1) == [] and visible(events, None) == []
    assert game.view(0)["submission"] == [list(t) for t in BISE_H8.tiles]
    assert game.view(1)["submission"] is None and game.view(None)["submission"] is None
    assert "bag" not in game.view(None)


def test_the_solo_bonus_goes_to_the_one_strictly_best_move() -> None:
    game = started(("ams", "jim"), solo_bonus=10)
    game.apply(0, BISE_H8)
    game.apply(1, BIT_H8)
    ended = of_type(fire(game), TurnEnded)[0]
    assert isinstance(ended, TurnEnded)
    assert ended.results[0].score == 20 and game.players[0].total == 20


def test_no_legal_move_ends_the_game_nomove() -> None:
    _, events = table(DUP, ("ams",), lexicon=Lexicon.from_words(["ZZZ"]), bag="BIS?RTU")
    assert isinstance(events[-1], GameEnded) and events[-1].reason == "nomove"


def test_a_player_leaving_during_the_grace_can_complete_the_turn() -> None:
    game = started(("ams", "jim"))
    game.apply(0, BISE_H8)
    fire(game)
    closing = game.seat_leave(1)
    ended = of_type(closing, TurnEnded)[0]
    assert isinstance(ended, TurnEnded)
    assert [r.name for r in ended.results] == ["ams"]


def test_the_french_preset_counts_y_as_a_vowel() -> None:
    game, events = table(
        {"preset": "fr"}, ("ams",), lexicon=Lexicon.from_words(["YBBB", "BY"]), bag="YYBBBBB"
    )
    hand = of_type(events, HandDealt)[0]
    assert isinstance(hand, HandDealt) and hand.rejected == 0 and sorted(hand.letters) == sorted("YYBBBBB")
    assert game.letters.name == "FR" and game.view(None)["dictionary"] == "francais"

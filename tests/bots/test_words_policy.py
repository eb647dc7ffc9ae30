"""The in-hall word-game bot: every action it sends is legal, the heuristic style finds the
master move in duplicate and the best boggle word, and the words it traces are real words."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from gamehall.bots.hall_bots import make_policy
from gamehall.bots.words import WordsPolicy, choose_move, move_tiles
from gamehall.bots.words.choose import pool_size
from gamehall.bots.words.grid import best_first, grid_words
from gamehall.protocols._core import HallError
from gamehall.rules._core import JSON
from gamehall.rules.words import new_game
from gamehall.rules.words.actions import ChangeLetters, Moves, StartTurn
from gamehall.rules.words.board import Board
from gamehall.rules.words.boggle import best_word, trace
from gamehall.rules.words.movegen import best_move
from gamehall.rules.words.settings import shared_lexicon
from gamehall.rules.words.words_table import WordsTable

QUICK: Mapping[str, JSON] = {"pause_s": 0.0, "grace_s": 0.0}
ENGLISH = shared_lexicon("english")


def seated(config: Mapping[str, JSON], players: int, seed: int = 7) -> WordsTable:
    game = new_game({**QUICK, **config}, seed, ENGLISH)
    for index in range(players):
        game.seat_join(f"bot{index}")
    game.start()
    return game


def fire(game: WordsTable) -> None:
    (timer,) = game.pending_timers()
    game.on_timeout(timer.key)


def test_make_policy_knows_both_word_styles() -> None:
    assert isinstance(make_policy("words", "heuristic"), WordsPolicy)
    assert (
        make_policy("words", "random").decide({"mode": "duplicate", "phase": "pause"}, 0, random.Random())
        is None
    )
    with pytest.raises(HallError):
        make_policy("words", "clever")


def test_the_heuristic_bot_plays_the_master_move_every_duplicate_turn() -> None:
    game = seated({"preset": "DupEN"}, 1)
    policy = WordsPolicy("heuristic")
    rng = random.Random(1)
    for _ in range(6):
        view = game.view(0)
        board = Board.from_rows(view["board"])
        top = best_move(board, view["rack"], ENGLISH)
        assert top is not None
        action = policy.decide(view, 0, rng)
        assert action == Moves(move_tiles(top))
        game.apply(0, action)
        assert policy.decide(game.view(0), 0, rng) is None  # submitted: nothing more to do
        fire(game)
        last = game.view(0)["last_turn"]
        assert isinstance(last, dict)
        assert last["results"] == [
            {"seat": 0, "name": "bot0", "ref": top.ref, "word": top.word, "score": top.score, "status": "ok"}
        ]


def test_a_whole_duplicate_game_of_random_bots_sends_only_valid_moves_below_the_top() -> None:
    game = seated({"preset": "DupEN"}, 2, seed=11)
    policies = [WordsPolicy("random"), WordsPolicy("random")]
    rng = random.Random(5)
    turns = 0
    while not game.finished and turns < 60:
        for seat, policy in enumerate(policies):
            action = policy.decide(game.view(seat), seat, rng)
            assert isinstance(action, Moves)
            game.apply(seat, action)
        fire(game)
        turns += 1
        last = game.view(0)["last_turn"]
        assert isinstance(last, dict)
        for line in last["results"]:
            assert line["status"] == "ok"
            assert 0 < line["score"] <= last["score"]
    assert game.finished and game.end_reason in ("bag", "nomove")


def test_weaker_bots_pick_among_more_moves() -> None:
    assert pool_size(1.0) == 1
    assert pool_size(0.6) < pool_size(0.0)
    board = Board.empty()
    rng = random.Random(3)
    tops = {choose_move(board, "RETAINS", ENGLISH, rng, 0.0) for _ in range(20)}
    assert len(tops) > 1
    assert choose_move(board, "RETAINS", ENGLISH, rng, 1.0) == best_move(board, "RETAINS", ENGLISH)


@pytest.mark.parametrize("style", ["heuristic", "random"])
def test_scrabble_bots_play_a_whole_game_with_legal_moves_exchanges_and_passes(style: str) -> None:
    game = seated({"preset": "ScrEN"}, 2, seed=3)
    policy = WordsPolicy(style)
    rng = random.Random(2)
    kinds: set[str] = set()
    for _ in range(200):
        if game.finished:
            break
        (seat,) = game.to_move().seats
        action = policy.decide(game.view(seat), seat, rng)
        assert policy.decide(game.view(1 - seat), 1 - seat, rng) is None  # not their turn
        assert isinstance(action, (Moves, ChangeLetters))
        kinds.add(type(action).__name__ if action != Moves(()) else "pass")
        game.apply(seat, action)  # raises if refused
    assert game.finished
    assert "Moves" in kinds


def test_a_scrabble_bot_without_a_move_exchanges_then_passes() -> None:
    view: dict[str, JSON] = {
        "mode": "scrabble",
        "phase": "open",
        "current": 0,
        "letters": "EN",
        "dictionary": "english",
        "board": ["." * 15] * 15,
        "rack": ["Q", "Q", "X", "Z", "J", "V", "V"],
        "bag_count": 40,
    }
    policy = WordsPolicy("heuristic")
    assert policy.decide(view, 0, random.Random()) == ChangeLetters(("Q", "Q", "X", "Z", "J", "V", "V"))
    assert policy.decide({**view, "bag_count": 3}, 0, random.Random()) == Moves(())


def test_boggle_words_are_real_words_traced_on_the_grid() -> None:
    game = seated({"preset": "BogEN", "dictionary": "english", "rounds": 2}, 1)
    grid = tuple(game.view(0)["grid"])
    found = grid_words(grid, ENGLISH)
    top = best_word(grid, ENGLISH)
    assert found and top is not None and best_first(found)[0] == top[0]
    for word, path in found.items():
        assert word in ENGLISH
        assert trace(grid, path)[0] == word
    policy = WordsPolicy("heuristic")
    rng = random.Random(4)
    sent = 0
    while (action := policy.decide(game.view(0), 0, rng)) is not None:
        assert isinstance(action, Moves)
        game.apply(0, action)
        sent += 1
    assert sent == min(len(found), 40)
    fire(game)
    results = game.view(0)["last_words"]["0"]
    assert len(results) == sent and all(line["status"] == "ok" for line in results)
    assert game.view(0)["phase"] == "wait_start"
    assert policy.decide(game.view(0), 0, rng) == StartTurn()


def test_random_boggle_bots_send_a_handful_of_words() -> None:
    game = seated({"preset": "BogEN", "dictionary": "english"}, 2)
    policy = WordsPolicy("random")
    rng = random.Random(9)
    sent = 0
    while (action := policy.decide(game.view(1), 1, rng)) is not None:
        game.apply(1, action)
        sent += 1
    assert 0 < sent <= 8
    assert policy.decide(game.view(1), 1, rng) is None
    assert WordsPolicy("random").decide(game.view(1), 1, rng) is not None  # another bot: its own plan

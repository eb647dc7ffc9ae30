"""The top-move search (bounds, pruning, bingo checks) finds the same top as sorting every move.

The lexicon is a deterministic slice of ENABLE (every 25th word, plus every two-letter word),
large enough for bingos through board letters, small enough to build in a blink.
"""

from __future__ import annotations

import random

import pytest

from gamehall.rules.words.board import Board, Direction
from gamehall.rules.words.letters import ENGLISH, FRENCH
from gamehall.rules.words.lexicon import Lexicon, read_bundled_words
from gamehall.rules.words.movegen import best_move, generate_moves
from gamehall.rules.words.moves import apply_move, validate_move

TILES = "".join(ENGLISH.bag())


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    words = read_bundled_words("enable")
    return Lexicon.from_words([w for i, w in enumerate(words) if i % 25 == 0 or len(w) == 2], name="slice")


def random_position(rng: random.Random, lexicon: Lexicon, turns: int) -> Board:
    board = Board.empty()
    for _ in range(turns):
        moves = generate_moves(board, "".join(rng.sample(TILES, 7)), lexicon)
        if moves:
            board = apply_move(board, rng.choice(moves[:20]))
    return board


@pytest.mark.parametrize("seed", range(30))
def test_top_equals_the_first_of_all_moves(lexicon: Lexicon, seed: int) -> None:
    rng = random.Random(seed)
    board = random_position(rng, lexicon, turns=rng.randint(1, 12))
    for _ in range(3):
        rack = "".join(rng.sample(TILES, 7))
        if rng.random() < 0.3:
            rack = rack[:5] + "??"
        letters = rng.choice((ENGLISH, FRENCH))
        every = generate_moves(board, rack, lexicon, letters)
        top = best_move(board, rack, lexicon, letters)
        if not every:
            assert top is None
            continue
        assert top == every[0], f"\n{board}\nrack {rack}"
        assert validate_move(board, rack, top.placed(), lexicon, letters).score == top.score


def test_bingo_through_a_board_letter_is_found(lexicon: Lexicon) -> None:
    # A lexicon where the only bingo needs the board's X: the bingo check must not prune it.
    lex = Lexicon.from_words(["AX", "EXTRAINS", "TRAINS", "RAINS"])
    board = Board.from_fen("15/15/15/15/15/15/15/7X7/15/15/15/15/15/15/15")
    top = best_move(board, "AEINRST", lex)
    assert top is not None and top.word == "EXTRAINS" and top.tiles_used == 7
    assert top == generate_moves(board, "AEINRST", lex)[0]


def test_empty_board_top_is_across() -> None:
    lex = Lexicon.from_words(["QI", "ZA"])
    # QI and ZA both score (10 + 1) x 2 = 22 from H7 across or 8G down: across, then QI < ZA.
    top = best_move(Board.empty(), "QIZA", lex)
    assert top is not None and (top.ref, top.direction, top.word, top.score) == (
        "H7",
        Direction.ACROSS,
        "QI",
        22,
    )


def test_empty_board_down_moves_mirror_the_across_moves(lexicon: Lexicon) -> None:
    board = Board.empty()
    moves = generate_moves(board, "AEINRS?", lexicon)
    across = {(m.row, m.col, m.word, m.score) for m in moves if m.direction is Direction.ACROSS}
    down = {(m.col, m.row, m.word, m.score) for m in moves if m.direction is Direction.DOWN}
    assert across == down and len(moves) == 2 * len(across) > 100
    for move in moves[::37]:
        assert validate_move(board, "AEINRS?", move.placed(), lexicon) == move

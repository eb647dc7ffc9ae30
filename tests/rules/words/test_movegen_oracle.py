"""The GADDAG generator finds exactly the moves a brute-force enumeration finds, with the same scores.

Small boards (7x7 with every premium type) and a small lexicon keep the brute force fast; boards
are built by playing seeded random legal moves, so the positions have cross-words, blanks on the
board and tiles at the edges.
"""

from __future__ import annotations

import random

import pytest
from words_oracle import brute_force_moves, key

from gamehall.rules.words.board import Board, BoardLayout
from gamehall.rules.words.letters import ENGLISH, FRENCH, LetterSet
from gamehall.rules.words.lexicon import Lexicon
from gamehall.rules.words.movegen import best_move, generate_moves
from gamehall.rules.words.moves import apply_move

SMALL = BoardLayout(
    "small",
    (
        "T..d..T",
        ".D.t.D.",
        "..t.d..",
        "d..D..d",
        "..d.t..",
        ".D.t.D.",
        "T..d..T",
    ),
    (3, 3),
)

_WORD_TEXT = """AA AB AD AE AG AH AI AL AM AN AR AS AT AW AX AY BA BE BI BO BY DE DO ED EH EL EM EN ER ES EX
        FA GO HA HE HI HM HO ID IF IN IS IT JO KA LA LI LO MA ME MI MO MU MY NA NE NO NU OD OE OF OH OI
        OM ON OP OR OS OW OX OY PA PE PI RE SH SI SO TA TI TO UH UM UN UP US UT WE WO XI XU YA YE YO ZA
        CAT CATS ACT ACTS SCAT TACO COAT COATS OAT OATS TOE TOES NOTE NOTES TONE TONES STONE ONSET EAT
        EATS TEA TEAS SEAT ETA ETAS RAT RATS TAR TARS ARTS STAR RATE RATES TEAR TEARS STARE ASTER
        RETAINS STAINER NASTIER RETINAS ANTSIER AIRS SIR SIRE RISE IRE IRES TIRE TIRES TIER TIERS
        QI QAT ZAX JAB JOB HEX MAX WAX AXE OXEN BOX FOX SEX SIX NIX ZIT ZITS ZED ZEDS DOZE DOZES"""
WORDS = sorted(set(_WORD_TEXT.split()))


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return Lexicon.from_words(WORDS, name="small")


def random_rack(rng: random.Random, size: int, blanks: int) -> str:
    letters = "AAEEIIOOUSSTTRRNNLDCBMHXZQJ"
    return "".join(rng.choice(letters) for _ in range(size - blanks)) + "?" * blanks


def play_random_position(rng: random.Random, lexicon: Lexicon, turns: int) -> Board:
    board = Board.empty(SMALL)
    for _ in range(turns):
        moves = generate_moves(board, random_rack(rng, 7, rng.choice((0, 0, 1))), lexicon)
        if moves:
            board = apply_move(board, rng.choice(moves))
    return board


def assert_same_as_oracle(board: Board, rack: str, lexicon: Lexicon, letters: LetterSet = ENGLISH) -> None:
    generated = generate_moves(board, rack, lexicon, letters)
    keys = [key(m) for m in generated]
    assert len(keys) == len(set(keys)), "a move was generated twice"
    expected = brute_force_moves(board, rack, lexicon, WORDS, letters)
    extra, missing = set(keys) - expected, expected - set(keys)
    assert not extra and not missing, f"\n{board}\nrack {rack}: extra {extra}, missing {missing}"
    top = best_move(board, rack, lexicon, letters)
    if not expected:
        assert top is None
    else:
        assert top is not None and top.score == max(score for *_, score in expected)


@pytest.mark.parametrize("rack", ["AEINRST", "CAT", "S?", "??A", "QIXZ", "E"])
def test_empty_board_matches_brute_force(lexicon: Lexicon, rack: str) -> None:
    assert_same_as_oracle(Board.empty(SMALL), rack, lexicon)


@pytest.mark.parametrize("seed", range(24))
def test_random_positions_match_brute_force(lexicon: Lexicon, seed: int) -> None:
    rng = random.Random(seed)
    board = play_random_position(rng, lexicon, turns=rng.randint(1, 6))
    racks = [random_rack(rng, 3, 0), random_rack(rng, 3, 1), random_rack(rng, 4, 2), random_rack(rng, 7, 0)]
    for rack in racks:
        assert_same_as_oracle(board, rack, lexicon)


def test_french_values_match_brute_force(lexicon: Lexicon) -> None:
    rng = random.Random(99)
    board = play_random_position(rng, lexicon, turns=4)
    assert_same_as_oracle(board, "ZEDSXA?", lexicon, FRENCH)


def test_every_generated_move_is_legal_on_a_standard_board(lexicon: Lexicon) -> None:
    rng = random.Random(7)
    board = Board.empty()
    for _ in range(12):
        moves = generate_moves(board, random_rack(rng, 7, 1), lexicon)
        if moves:
            board = apply_move(board, rng.choice(moves))
    assert board.tile_count() > 10
    assert_same_as_oracle(board, "ATS?", lexicon)

"""The GADDAG generator finds exactly the moves a brute-force enumeration finds, with the same scores.

The oracle below enumerates placements naively and asks the referee. Small boards (7x7 with every
premium type) and a small lexicon keep it fast; boards are built by playing seeded random legal
moves, so the positions have cross-words, blanks on the board and tiles at the edges.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable

import pytest

from gamehall.rules.words.board import Board, BoardLayout, Direction
from gamehall.rules.words.letters import BLANK, ENGLISH, FRENCH, LetterSet, Tile
from gamehall.rules.words.lexicon import Lexicon
from gamehall.rules.words.movegen import best_move, generate_moves
from gamehall.rules.words.moves import Move, PlacementError, apply_move, validate_move

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


# The oracle: shares nothing with the generator. For every segment of every line it tries every
# lexicon word of that length that agrees with the tiles already there, every way of covering the
# holes with rack tiles (blank or real where both are possible), and asks the referee.

MoveKey = tuple[int, int, Direction, str, int]


def key(move: Move) -> MoveKey:
    return (move.row, move.col, move.direction, move.word, move.score)


def brute_force_moves(
    board: Board, rack: str, lexicon: Lexicon, words: Iterable[str], letters: LetterSet
) -> set[MoveKey]:
    layout = board.layout
    rack_counts = Counter(rack)
    by_length: dict[int, list[str]] = {}
    for word in words:
        by_length.setdefault(len(word), []).append(word)
    found: set[MoveKey] = set()
    for direction in Direction:
        lines = layout.height if direction is Direction.ACROSS else layout.width
        size = layout.width if direction is Direction.ACROSS else layout.height
        for line in range(lines):
            for first in range(size):
                for last in range(first + 1, size):
                    across = direction is Direction.ACROSS
                    squares = [(line, p) if across else (p, line) for p in range(first, last + 1)]
                    for candidate in by_length.get(len(squares), []):
                        for placement in _placements(board, squares, candidate, rack_counts):
                            try:
                                move = validate_move(board, rack, placement, lexicon, letters)
                            except PlacementError:
                                continue
                            found.add(key(move))
    return found


def _placements(
    board: Board, squares: list[tuple[int, int]], word: str, rack: Counter[str]
) -> Iterable[list[tuple[tuple[int, int], Tile]]]:
    holes = []
    for square, letter in zip(squares, word, strict=True):
        tile = board[square]
        if tile is None:
            holes.append((square, letter))
        elif tile.letter != letter:
            return
    if not holes or len(holes) > sum(rack.values()):
        return
    options = []
    for _square, letter in holes:
        choices = []
        if rack[letter]:
            choices.append(False)
        if rack[BLANK]:
            choices.append(True)
        if not choices:
            return
        options.append(choices)
    for blanks in itertools.product(*options):
        spent = [BLANK if is_blank else letter for (_, letter), is_blank in zip(holes, blanks, strict=True)]
        used = Counter(spent)
        if all(used[t] <= rack[t] for t in used):
            yield [(square, Tile(letter, blank=b)) for (square, letter), b in zip(holes, blanks, strict=True)]


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
    assert generated == sorted(generated, key=Move.sort_key), "moves come best first, in tie-break order"
    expected = brute_force_moves(board, rack, lexicon, WORDS, letters)
    extra, missing = set(keys) - expected, expected - set(keys)
    assert not extra and not missing, f"\n{board}\nrack {rack}: extra {extra}, missing {missing}"
    top = best_move(board, rack, lexicon, letters)
    if not expected:
        assert top is None
    else:
        assert top is not None and top.score == max(score for *_, score in expected)
        if not board.is_empty or not board.layout.symmetric:
            assert top == generated[0]


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

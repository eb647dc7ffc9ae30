"""Scoring and the placement referee, on hand-verified positions of the standard board (§8.2, §13).

The fixture lexicon is the JDuplicate note's: BISE BISES ASK RETAINS STAINER CAT CATS QUIT QUITE
(EN values), plus the few words a case names.
"""

from __future__ import annotations

import pytest

from gamehall.rules.words.board import Board, Direction
from gamehall.rules.words.letters import ENGLISH, FRENCH, Tile
from gamehall.rules.words.lexicon import Lexicon
from gamehall.rules.words.movegen import best_move, generate_moves
from gamehall.rules.words.moves import (
    Move,
    NotInDictionary,
    PlacementError,
    apply_move,
    validate_move,
    words_formed,
)

FIXTURE = ["BISE", "BISES", "ASK", "RETAINS", "STAINER", "CAT", "CATS", "QUIT", "QUITE"]


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return Lexicon.from_words([*FIXTURE, "AT", "TA", "AX", "XI", "OX", "QI", "ZA", "ZAX"])


def across(row: str, col: int, letters: str) -> list[tuple[tuple[int, int], Tile]]:
    """Tiles spelling ``letters`` across from square ``row``+``col`` (1-based column); lower = blank."""
    r = ord(row) - 65
    return [((r, col - 1 + i), Tile(ch.upper(), ch.islower())) for i, ch in enumerate(letters)]


def down(col: int, row: str, letters: str) -> list[tuple[tuple[int, int], Tile]]:
    r = ord(row) - 65
    return [((r + i, col - 1), Tile(ch.upper(), ch.islower())) for i, ch in enumerate(letters)]


def bise_board(lexicon: Lexicon) -> Board:
    return apply_move(Board.empty(), validate_move(Board.empty(), "BIS?", across("H", 8, "BISe"), lexicon))


# -- golden scores of §13.5 and §13.6 ------------------------------------------------------------


def test_bise_with_a_blank_on_the_star_scores_10(lexicon: Lexicon) -> None:
    move = validate_move(Board.empty(), "BIS*RTU", across("H", 8, "BISe"), lexicon)
    # (B3 + I1 + S1 + e0) x2 for the centre star = 10
    assert (move.ref, move.word, move.score) == ("H8", "BISe", 10)
    assert move.new == (True, True, True, True) and move.blanks_used == 1


def test_ask_hooks_bises_and_scores_15(lexicon: Lexicon) -> None:
    move = validate_move(bise_board(lexicon), "ASK", down(12, "G", "ASK"), lexicon)
    # ASK on G12, H12, I12; H12 is a double letter: A1 + S2 + K5 = 8.
    # BISeS through the new S on H12: B3 + I1 + S1 + e0 + S2 = 7.
    assert (move.ref, move.word, move.score) == ("12G", "ASK", 15)
    formed = words_formed(bise_board(lexicon), move)
    assert [(w.word, w.score) for w in formed] == [("ASK", 8), ("BISeS", 7)]


@pytest.mark.parametrize(("col", "score"), [(2, 66), (5, 64)])
def test_retains_bingo(lexicon: Lexicon, col: int, score: int) -> None:
    # H2: 7 letters + 1 for the DL under T (H4), x2 for the star, +50 = 66; H5: 7 x2 + 50 = 64.
    move = validate_move(Board.empty(), "AEINRST", across("H", col, "RETAINS"), lexicon)
    assert move.score == score


def test_top_tie_break_prefers_the_lowest_column() -> None:
    top = best_move(Board.empty(), "BIS*RTU", Lexicon.from_words(["BISE"]))
    assert top is not None and (top.ref, top.word, top.score) == ("H5", "BISe", 10)


def test_top_of_retains_stainer_is_h2_retains_66() -> None:
    top = best_move(Board.empty(), "AEINRST", Lexicon.from_words(["RETAINS", "STAINER"]))
    assert top is not None and (top.ref, top.word, top.score) == ("H2", "RETAINS", 66)


# -- every premium type, cross-words and the generator agreeing ---------------------------------


def board_with(*tiles: tuple[int, int, str]) -> Board:
    """The standard board with single tiles at (row, col)."""
    board = Board.empty()
    return board.with_tiles(((row, col), Tile(ch.upper(), ch.islower())) for row, col, ch in tiles)


@pytest.mark.parametrize(
    ("existing", "placed", "word", "score", "why"),
    [
        ((0, 1, "A"), ((0, 0), Tile("Z")), "ZA", 33, "Z on A1, a triple word: (10 + 1) x 3"),
        ((0, 4, "A"), ((0, 3), Tile("Z")), "ZA", 21, "Z on A4, a double letter: 20 + 1"),
        ((1, 2, "A"), ((1, 1), Tile("Z")), "ZA", 22, "Z on B2, a double word: (10 + 1) x 2"),
        ((5, 6, "A"), ((5, 5), Tile("Z")), "ZA", 31, "Z on F6, a triple letter: 30 + 1"),
        ((5, 6, "A"), ((5, 5), Tile("Z", blank=True)), "zA", 1, "a blank on F6 is worth 0 x 3"),
        ((0, 1, "a"), ((0, 0), Tile("Z")), "Za", 30, "a blank on the board is worth 0: (10 + 0) x 3"),
    ],
)
def test_each_premium_square_kind(
    lexicon: Lexicon,
    existing: tuple[int, int, str],
    placed: tuple[tuple[int, int], Tile],
    word: str,
    score: int,
    why: str,
) -> None:
    move = validate_move(board_with(existing), "Z?", [placed], lexicon)
    assert (move.word, move.score) == (word, score), why


def test_premiums_count_only_under_new_tiles(lexicon: Lexicon) -> None:
    # Z already on A1 (a triple word): A on A2 and X on A3 are plain, so ZAX = 10 + 1 + 8 = 19.
    move = validate_move(board_with((0, 0, "Z")), "AX", across("A", 2, "AX"), lexicon)
    assert (move.word, move.score) == ("ZAX", 19)


def test_a_cross_word_doubles_too(lexicon: Lexicon) -> None:
    # A on B3 and on C2; Z on B2 (a double word) forms ZA across and ZA down: 22 + 22 = 44.
    board = board_with((1, 2, "A"), (2, 1, "A"))
    move = validate_move(board, "Z", [((1, 1), Tile("Z"))], lexicon)
    assert (move.direction, move.word, move.score) == (Direction.ACROSS, "ZA", 44)
    assert [(w.direction, w.word, w.score) for w in words_formed(board, move)] == [
        (Direction.ACROSS, "ZA", 22),
        (Direction.DOWN, "ZA", 22),
    ]
    assert move in generate_moves(board, "Z", lexicon)


def test_hand_verified_position_with_hooks(lexicon: Lexicon) -> None:
    board = apply_move(Board.empty(), validate_move(Board.empty(), "ZAX", across("H", 6, "ZAX"), lexicon))
    # ZAX on H6, H7, H8 (the star, a double word): (10 + 1 + 8) x 2 = 38 was the first move.
    assert board.rows()[7] == ".....ZAX......."
    # XI down from H8: the X is on the board, I on I8 (plain): 8 + 1 = 9; the star is not reused.
    xi = validate_move(board, "I", [((8, 7), Tile("I"))], lexicon)
    assert (xi.ref, xi.word, xi.score) == ("8H", "XI", 9)
    # OX down ending on H8: O on G8 (plain): 1 + 8 = 9.
    ox = validate_move(board, "O", [((6, 7), Tile("O"))], lexicon)
    assert (ox.ref, ox.word, ox.score) == ("8G", "OX", 9)
    # QI across on G6-G7 above ZA would form QZ and IA down: the referee names QZ.
    with pytest.raises(NotInDictionary) as bad:
        validate_move(board, "QI", across("G", 6, "QI"), lexicon)
    assert bad.value.detail["word"] == "QZ"
    top = best_move(board, "OIQ", lexicon)
    assert top is not None and top.score == max(m.score for m in generate_moves(board, "OIQ", lexicon))


def test_generated_and_refereed_scores_agree_on_premiums() -> None:
    lex = Lexicon.from_words(["QUIT", "QUITE", "AT", "TA", "TAT", "TI", "IT", "QI", "ZA", "ZAX", "AX"])
    board = Board.from_fen("15/15/15/15/15/15/15/4QUIT7/15/15/15/15/15/15/15")
    for move in generate_moves(board, "ZAXTE?", lex):
        assert validate_move(board, "ZAXTE?", move.placed(), lex) == move


def test_blank_scores_zero_even_on_a_letter_premium() -> None:
    lex = Lexicon.from_words(["ZAX"])
    # Z blank on H8 star, A on H9, X on H10: (0 + 1 + 8) x 2 = 18.
    move = validate_move(Board.empty(), "?AX", across("H", 8, "zAX"), lex)
    assert (move.word, move.score, move.blanks_used) == ("zAX", 18, 1)
    assert move.rack_tiles == "?AX"


def test_french_values(lexicon: Lexicon) -> None:
    # ZAX across through the star with FR values: Z10 + A1 + X10 = 21, x2 = 42.
    move = validate_move(Board.empty(), "ZAX", across("H", 6, "ZAX"), lexicon, FRENCH)
    assert move.score == 42
    assert validate_move(Board.empty(), "ZAX", across("H", 6, "ZAX"), lexicon, ENGLISH).score == 38


# -- the referee's error codes, in rule order ----------------------------------------------------


@pytest.mark.parametrize(
    ("rack", "placement", "code"),
    [
        ("CAT", [], "too_short"),
        ("CAT", [((7, 15), Tile("C"))], "off_board"),
        ("CAT", [((7, 7), Tile("C")), ((7, 7), Tile("A"))], "duplicate_square"),
        ("CAT", [((7, 7), Tile("C")), ((7, 8), Tile("Q"))], "not_in_rack"),
        ("CAT", [((7, 7), Tile("C")), ((7, 8), Tile("A", blank=True))], "not_in_rack"),
        ("C?", [((7, 7), Tile("C")), ((7, 8), Tile("1", blank=True))], "bad_blank"),
        ("CAT", [((7, 7), Tile("C")), ((8, 8), Tile("A"))], "not_in_line"),
        ("CAT", [((7, 7), Tile("C")), ((7, 9), Tile("A"))], "gap"),
        ("CAT", across("H", 2, "CAT"), "first_move_centre"),
        ("C", [((7, 7), Tile("C"))], "too_short"),
        ("CTA", across("H", 7, "CTA"), "not_in_dictionary"),
    ],
)
def test_referee_errors_on_an_empty_board(lexicon: Lexicon, rack: str, placement: list, code: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(PlacementError) as error:
        validate_move(Board.empty(), rack, placement, lexicon)
    assert error.value.code == code


def test_referee_errors_on_a_board_with_tiles(lexicon: Lexicon) -> None:
    board = bise_board(lexicon)
    with pytest.raises(PlacementError) as occupied:
        validate_move(board, "CAT", [((7, 7), Tile("C"))], lexicon)
    assert occupied.value.code == "occupied"
    with pytest.raises(PlacementError) as far:
        validate_move(board, "CAT", across("A", 1, "CAT"), lexicon)
    assert far.value.code == "not_connected"
    with pytest.raises(NotInDictionary) as bad:
        validate_move(board, "CATS", across("I", 8, "CATS"), lexicon)
    # CATS under BISe makes BC, IA, ST, eS: the main word is fine, the first cross-word is not.
    assert bad.value.code == "not_in_dictionary" and bad.value.detail["word"] == "BC"


def test_a_single_tile_reads_across_when_it_forms_words_both_ways() -> None:
    lex = Lexicon.from_words(["AT", "TA", "TAT", "ATT"])
    # A on H8 and on I9; T on I8 forms AT down and TA across.
    board = Board.from_fen("15/15/15/15/15/15/15/7A7/8A6/15/15/15/15/15/15")
    move = validate_move(board, "T", [((8, 7), Tile("T"))], lex)
    assert (move.direction, move.word) == (Direction.ACROSS, "TA")
    generated = [m for m in generate_moves(board, "T", lex) if m.tiles_used == 1 and m.start == (8, 7)]
    assert generated == [move]


def test_move_helpers(lexicon: Lexicon) -> None:
    move = Move(6, 11, Direction.DOWN, "ASK", (True, True, True), 15)
    assert move.ref == "12G" and move.squares() == [(6, 11), (7, 11), (8, 11)]
    assert str(move) == "12G ASK 15" and move.tiles_used == 3

"""Board geometry and letter sets, as the JDuplicate note §8.1 gives them."""

from __future__ import annotations

from collections import Counter

import pytest

from gamehall.rules.words.board import STANDARD, Board, BoardLayout, Direction, move_ref, square_name
from gamehall.rules.words.letters import ENGLISH, FRENCH, LETTER_SETS, Tile, parse_rack


def test_standard_board_premium_counts_and_start() -> None:
    counts = Counter("".join(STANDARD.premiums))
    assert (counts["T"], counts["D"], counts["t"], counts["d"]) == (8, 17, 12, 24)
    assert (STANDARD.width, STANDARD.height, STANDARD.start) == (15, 15, (7, 7))
    assert STANDARD.premiums[7][7] == "D" and STANDARD.symmetric


@pytest.mark.parametrize(
    ("square", "letter", "word"),
    [((0, 0), 1, 3), ((1, 1), 1, 2), ((5, 5), 3, 1), ((0, 3), 2, 1), ((7, 7), 1, 2), ((0, 1), 1, 1)],
)
def test_multipliers(square: tuple[int, int], letter: int, word: int) -> None:
    assert STANDARD.letter_multiplier(*square) == letter
    assert STANDARD.word_multiplier(*square) == word


def test_layout_checks_its_shape() -> None:
    with pytest.raises(ValueError):
        BoardLayout("bad", ("...", ".."), (0, 0))
    with pytest.raises(ValueError):
        BoardLayout("bad", ("...", "..x"), (0, 0))
    with pytest.raises(ValueError):
        BoardLayout("bad", ("...", "..."), (5, 0))
    assert not BoardLayout("lopsided", ("T.", "d."), (0, 0)).symmetric


def test_names_and_references() -> None:
    assert square_name(7, 7) == "H8" and square_name(0, 14) == "A15"
    assert move_ref(7, 3, Direction.ACROSS) == "H4" and move_ref(0, 7, Direction.DOWN) == "8A"


def test_fen_and_rows() -> None:
    board = Board.from_fen("15/15/15/15/15/15/15/1EnGUARD6D/15/15/15/15/15/15/15")
    assert board.rows()[7] == ".EnGUARD......D"
    assert board[7, 2] == Tile("N", blank=True) and board[7, 1] == Tile("E")
    assert board.tile_count() == 8 and not board.is_empty and Board.empty().is_empty
    assert [square for square, _ in board.tiles()][:2] == [(7, 1), (7, 2)]
    with pytest.raises(ValueError):
        Board.from_fen("15/15")
    with pytest.raises(ValueError):
        board.with_tiles([((7, 1), Tile("A"))])


def test_letter_sets_totals() -> None:
    assert (len(ENGLISH.bag()), sum(g.count * g.value for g in ENGLISH.glyphs)) == (100, 187)
    assert (len(FRENCH.bag()), sum(g.count * g.value for g in FRENCH.glyphs)) == (102, 197)
    assert ENGLISH.vowels == frozenset("AEIOU") and FRENCH.vowels == frozenset("AEIOUY")
    assert ENGLISH.value("Q") == 10 and FRENCH.value("K") == 10 and ENGLISH.value("?") == 0
    assert FRENCH.letter_values[ord("M") - 65] == 2 and ENGLISH.letter_values[ord("M") - 65] == 3
    assert ENGLISH.by_glyph["?"].is_vowel and ENGLISH.by_glyph["?"].is_consonant
    assert set(LETTER_SETS) == {"EN", "FR"}


def test_racks_and_tiles() -> None:
    assert parse_rack("aei*?") == ("A", "E", "I", "?", "?")
    assert ENGLISH.rack_value("QZ*") == 20
    with pytest.raises(ValueError):
        parse_rack("A1")
    assert Tile("E", blank=True).glyph == "e" and Tile("E").glyph == "E"

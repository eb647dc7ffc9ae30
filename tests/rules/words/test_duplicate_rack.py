"""The duplicate rack draw (JDuplicate note §8.3, golden test 7): the reliquat kept, the rack
topped up to seven, the vowel/consonant minimum (2/2 up to turn 15, then 1/1; the blank counts as
both), the whole-rack rejection and the forced redraw, and when the game must end (``bag``)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gamehall.rules._core import Rng
from gamehall.rules.words.bag import (
    can_meet_minimum,
    draw,
    draw_duplicate_rack,
    meets_minimum,
    remove_tiles,
    vowels_and_consonants,
)
from gamehall.rules.words.letters import ENGLISH, FRENCH


def first_draw_vowels(seed: int) -> int:
    return vowels_and_consonants(draw(ENGLISH.bag(), 7, Rng(seed)), ENGLISH)[0]


def test_a_first_rack_with_one_vowel_is_rejected_and_redrawn_with_two_of_each() -> None:
    seed = next(s for s in range(1000) if first_draw_vowels(s) == 1)
    bag = ENGLISH.bag()
    rack, rejected = draw_duplicate_rack(bag, [], Rng(seed), ENGLISH, turn=1)
    assert rejected == 1
    vowels, consonants = vowels_and_consonants(rack, ENGLISH)
    assert len(rack) == 7 and vowels >= 2 and consonants >= 2
    assert len(bag) == 100 - 7


def test_a_rack_that_meets_the_minimum_keeps_the_reliquat_first() -> None:
    bag = list("AEIOUE")
    rack, rejected = draw_duplicate_rack(bag, ["R", "S", "T"], Rng(3), ENGLISH, turn=2)
    assert rejected == 0 and rack[:3] == ("R", "S", "T") and len(rack) == 7 and len(bag) == 2


def test_a_failing_reliquat_goes_back_too() -> None:
    bag = list("BCDFGHAE")
    rack, rejected = draw_duplicate_rack(bag, ["R", "S", "T", "L", "N"], Rng(5), ENGLISH, turn=1)
    assert sorted(bag + list(rack)) == sorted("BCDFGHAERSTLN")
    assert rejected == 1 and {"A", "E"} <= set(rack)


def test_from_turn_16_one_vowel_and_six_consonants_are_accepted() -> None:
    rack = list("ABCDFGH")
    assert meets_minimum(rack, ENGLISH, 16)
    assert not meets_minimum(rack, ENGLISH, 15)
    accepted, rejected = draw_duplicate_rack(list(rack), [], Rng(0), ENGLISH, turn=16)
    assert rejected == 0 and sorted(accepted) == rack


def test_the_blank_counts_as_vowel_and_consonant_and_y_is_a_vowel_in_french() -> None:
    assert vowels_and_consonants("?BCDFGH", ENGLISH) == (1, 7)
    assert meets_minimum(list("??"), ENGLISH, 1)
    assert vowels_and_consonants("YY", FRENCH) == (2, 0)
    assert vowels_and_consonants("YY", ENGLISH) == (0, 2)


def test_the_game_ends_when_the_minimum_cannot_be_met_or_under_two_tiles() -> None:
    assert not can_meet_minimum(["A"], ENGLISH, 30)
    assert not can_meet_minimum(list("BCDFA"), ENGLISH, 1)
    assert can_meet_minimum(list("BCDFA"), ENGLISH, 16)
    assert can_meet_minimum(list("AB"), ENGLISH, 16)


def test_remove_tiles_spends_blanks_as_question_marks() -> None:
    assert remove_tiles(list("BIS?RTU"), "BIS?") == ["R", "T", "U"]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 25), st.integers(0, 6))
def test_every_drawn_rack_meets_the_minimum_whenever_the_pool_allows(seed: int, turn: int, kept: int) -> None:
    rng = Rng(seed)
    bag = ENGLISH.bag()
    reliquat = draw(bag, kept, rng)
    del bag[: rng.below(len(bag))]
    if not can_meet_minimum(reliquat + bag, ENGLISH, turn):
        return
    before = len(bag) + len(reliquat)
    rack, rejected = draw_duplicate_rack(bag, reliquat, rng, ENGLISH, turn)
    assert meets_minimum(rack, ENGLISH, turn)
    assert len(rack) == min(7, before) and len(rack) + len(bag) == before
    if not rejected:
        assert list(rack[:kept]) == reliquat

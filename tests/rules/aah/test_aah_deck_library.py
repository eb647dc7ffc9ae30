"""The deck library (AAH note 9.4) and a table's deck (5.3): packs by name, deck directories,
building the shuffled piles with unique card ids, and the deck size check."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from gamehall.rules._core import ConfigError, Rng
from gamehall.rules.aah.cards import BlackCard, Pack, WhiteCard
from gamehall.rules.aah.deck import MAX_CARD_ID, DeckLibrary, check_deck_size, load_bundled_pack

ORIGINAL = "gamehall Original"


def pack(name: str, whites: list[str], blacks: list[BlackCard] | None = None) -> Pack:
    return Pack(name, tuple(whites), tuple(blacks or ()))


# --------------------------------------------------------------------------------------------
# Packs by name
# --------------------------------------------------------------------------------------------


def test_name_clash_keeps_the_first_pack_and_warns(caplog: pytest.LogCaptureFixture) -> None:
    first, second = pack("Same", ["First."]), pack("Same", ["Second."])
    library = DeckLibrary([first])
    with caplog.at_level(logging.WARNING):
        assert library.add(second, "late.json") is False
    assert library.get("Same") is first
    assert "late.json" in caplog.text and "'Same'" in caplog.text


def test_names_are_in_load_order() -> None:
    library = DeckLibrary([pack("B", []), pack("A", []), pack("C", [])])
    assert library.names() == ["B", "A", "C"]
    assert "A" in library and "D" not in library
    assert len(library) == 3


def test_unknown_pack_name_is_a_key_error() -> None:
    with pytest.raises(KeyError, match="Nope"):
        DeckLibrary().get("Nope")


def test_load_dir_reads_xml_and_json_and_skips_what_it_cannot_read(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "a-kitchen.xml").write_bytes(
        b"\xef\xbb\xbf<deck><name>Kitchen</name><cards><white><card>A whisk.</card></white></cards></deck>"
    )
    (tmp_path / "b-garden.json").write_text(
        json.dumps([{"name": "Garden", "white": [{"text": "A rake."}]}, {"name": "Shed", "white": []}])
    )
    (tmp_path / "c-broken.json").write_text("{oops")
    (tmp_path / "d-broken.xml").write_text("<!DOCTYPE deck><deck/>")
    (tmp_path / "e-clash.json").write_text(json.dumps({"name": "Kitchen", "white": ["Another whisk."]}))
    (tmp_path / "notes.txt").write_text("not a deck")
    (tmp_path / "sub.json").mkdir()

    library = DeckLibrary()
    with caplog.at_level(logging.WARNING):
        added = library.load_dir(tmp_path)

    assert added == 3
    assert library.names() == ["Kitchen", "Garden", "Shed"]
    assert library.get("Kitchen").whites == ("A whisk.",)
    assert "c-broken.json" in caplog.text
    assert "d-broken.xml" in caplog.text
    assert "e-clash.json" in caplog.text


def test_load_dir_on_a_missing_directory_logs_and_adds_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    library = DeckLibrary.bundled()
    with caplog.at_level(logging.ERROR):
        assert library.load_dir(tmp_path / "absent") == 0
    assert "absent" in caplog.text
    assert library.names() == [ORIGINAL]


def test_bundled_deck_comes_first_and_operator_packs_cannot_replace_it(tmp_path: Path) -> None:
    (tmp_path / "fake.json").write_text(json.dumps({"name": ORIGINAL, "white": ["Impostor."]}))
    library = DeckLibrary.bundled()
    assert library.load_dir(tmp_path) == 0
    assert library.get(ORIGINAL) is load_bundled_pack()


# --------------------------------------------------------------------------------------------
# A table's deck (5.3)
# --------------------------------------------------------------------------------------------


def build(seed: int, *, pick1_only: bool = False) -> tuple[list[WhiteCard], list[BlackCard]]:
    return DeckLibrary.bundled().build_game_deck([ORIGINAL], Rng(seed), pick1_only=pick1_only)


def test_every_white_card_gets_a_unique_id_in_range() -> None:
    for seed in range(20):
        whites, _ = build(seed)
        ids = [card.card_id for card in whites]
        assert len(set(ids)) == len(ids)
        assert all(1 <= card_id <= MAX_CARD_ID for card_id in ids)


def test_the_deck_holds_every_card_of_the_pack_once() -> None:
    whites, blacks = build(7)
    original = load_bundled_pack()
    assert sorted(card.text for card in whites) == sorted(original.whites)
    assert sorted(blacks, key=repr) == sorted(original.blacks, key=repr)


def test_same_seed_same_deck() -> None:
    assert build(42) == build(42)


def test_different_seed_different_deck() -> None:
    (whites_a, blacks_a), (whites_b, blacks_b) = build(1), build(2)
    assert [c.card_id for c in whites_a] != [c.card_id for c in whites_b]
    assert [c.text for c in whites_a] != [c.text for c in whites_b]
    assert blacks_a != blacks_b


def test_piles_are_shuffled() -> None:
    whites, blacks = build(3)
    original = load_bundled_pack()
    assert tuple(card.text for card in whites) != original.whites
    assert tuple(blacks) != original.blacks


def test_packs_merge_and_duplicate_white_texts_are_kept_once() -> None:
    library = DeckLibrary(
        [
            pack("One", ["Shared.", "Only in one.", "Shared."], [BlackCard("A _.")]),
            pack("Two", ["Shared.", "Only in two."], [BlackCard("A _."), BlackCard("_ and _.", 2)]),
        ]
    )
    whites, blacks = library.build_game_deck(["One", "Two", "One"], Rng(5), pick1_only=False)
    assert sorted(card.text for card in whites) == ["Only in one.", "Only in two.", "Shared."]
    assert sorted(blacks, key=repr) == sorted(
        [BlackCard("A _."), BlackCard("A _."), BlackCard("_ and _.", 2)], key=repr
    )


def test_pick1_only_leaves_out_the_bigger_prompts() -> None:
    _, all_blacks = build(9)
    _, blacks = build(9, pick1_only=True)
    assert blacks and all(black.pick == 1 for black in blacks)
    assert len(blacks) == sum(1 for black in all_blacks if black.pick == 1)


@pytest.mark.parametrize(("names", "message"), [([], "at least one"), ([ORIGINAL, "Missing"], "Missing")])
def test_bad_pack_choice_is_a_config_error(names: list[str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        DeckLibrary.bundled().build_game_deck(names, Rng(1), pick1_only=False)


# --------------------------------------------------------------------------------------------
# Deck size check (5.3)
# --------------------------------------------------------------------------------------------


def whites_of(n: int) -> list[WhiteCard]:
    return [WhiteCard(i + 1, f"White {i}.") for i in range(n)]


def blacks_of(pick1: int, bigger: int = 0) -> list[BlackCard]:
    return [BlackCard(f"Black {i} _.") for i in range(pick1)] + [
        BlackCard(f"Big {i} _ _.", 2) for i in range(bigger)
    ]


@pytest.mark.parametrize("playermax", [3, 5, 8])
def test_exactly_twenty_whites_per_seat_and_twenty_blacks_is_enough(playermax: int) -> None:
    check_deck_size(whites_of(20 * playermax), blacks_of(20), playermax, False)
    check_deck_size(whites_of(20 * playermax), blacks_of(20), playermax, True)


@pytest.mark.parametrize("playermax", [3, 5, 8])
def test_one_white_short_is_refused(playermax: int) -> None:
    with pytest.raises(ConfigError, match=f"{20 * playermax - 1} white cards"):
        check_deck_size(whites_of(20 * playermax - 1), blacks_of(20), playermax, False)


def test_one_black_short_is_refused() -> None:
    with pytest.raises(ConfigError, match="19 black cards"):
        check_deck_size(whites_of(100), blacks_of(19), 5, False)


def test_pick1_only_counts_only_pick1_blacks() -> None:
    check_deck_size(whites_of(100), blacks_of(19, 1), 5, False)
    with pytest.raises(ConfigError, match="19 pick-1 black cards"):
        check_deck_size(whites_of(100), blacks_of(19, 1), 5, True)


@pytest.mark.parametrize("pick1_only", [False, True])
def test_bundled_deck_is_big_enough_for_the_largest_table(pick1_only: bool) -> None:
    whites, blacks = build(11, pick1_only=pick1_only)
    check_deck_size(whites, blacks, 8, pick1_only)

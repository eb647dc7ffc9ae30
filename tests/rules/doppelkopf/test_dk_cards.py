"""Cards, decks and the trump order of every game type (note §6.1)."""

from __future__ import annotations

import pytest

from gamehall.rules._core import Rng
from gamehall.rules.doppelkopf.cards import (
    SOLO_ORDER,
    card_id,
    card_id_key,
    card_ids,
    deal,
    deal_steps,
    deck_values,
    eyes_of,
    ranking_for,
    tricks_per_round,
)

SUITS = ("c", "s", "h", "d")


def trumps_high_to_low(game_type: str, **kw: object) -> list[str]:
    ranking = ranking_for(
        game_type,
        heart10=bool(kw.get("heart10", True)),
        shift_h10=bool(kw.get("shift", False)),
        joker=str(kw.get("joker", "None")),
    )
    values = sorted(set(deck_values("with_all", str(kw.get("joker", "None")))))
    trumps = [v for v in values if ranking.is_trump(v)]
    return sorted(trumps, key=ranking.strength, reverse=True)


@pytest.mark.parametrize(
    ("without9", "size", "tricks"), [("with_all", 48, 12), ("with_four", 44, 11), ("without", 40, 10)]
)
def test_deck_sizes_and_eyes(without9: str, size: int, tricks: int) -> None:
    values = deck_values(without9, "None")
    assert len(values) == size
    assert sum(eyes_of(v) for v in values) == 240
    assert tricks_per_round(without9) == tricks
    assert sum(deal_steps(size)) == size and len(deal_steps(size)) == 16


def test_joker_replaces_a_diamond_nine_or_king() -> None:
    assert deck_values("with_all", "over_h10").count("d9") == 1
    assert "j0" in deck_values("with_all", "over_h10")
    assert deck_values("without", "over_pigs").count("dk") == 1


KEY = card_id_key(7)


def test_deal_gives_each_seat_its_share_with_fresh_hex_ids() -> None:
    dealt = deal(Rng(7), "with_all", "None", id_key=KEY, deal_no=1)
    assert [len(h) for h in dealt.hands] == [12, 12, 12, 12]
    assert all(len(c) == 32 and int(c, 16) >= 0 for c in dealt.values)
    again = deal(Rng(7), "with_all", "None", id_key=KEY, deal_no=1)
    assert again == dealt
    assert deal(Rng(8), "with_all", "None", id_key=KEY, deal_no=1).values != dealt.values
    next_deal = deal(Rng(7), "with_all", "None", id_key=KEY, deal_no=2)
    assert not set(next_deal.values) & set(dealt.values)  # fresh ids every deal


def test_card_ids_say_nothing_about_the_shuffle() -> None:
    # Issue 10 item 7: ids are keyed hashes of (deal, position), not draws from the shuffling
    # generator. Two different shuffles under the same key give the same id sequence: the ids
    # are independent of which card lies where, so seeing them tells nothing about the deck.
    first = deal(Rng(1), "with_all", "None", id_key=KEY, deal_no=3)
    second = deal(Rng(2), "with_all", "None", id_key=KEY, deal_no=3)
    assert first.stack == second.stack
    assert [first.values[c] for c in first.stack] != [second.values[c] for c in second.stack]
    # Across many deals, an id's rank among its deal's ids does not follow the card's value
    # or stack position: the rank correlation over 200 deals stays near zero.
    from statistics import correlation

    ranks, positions, value_index = [], [], []
    order = sorted(set(deck_values("with_all", "None")))
    for deal_no in range(200):
        dealt = deal(Rng(deal_no), "with_all", "None", id_key=KEY, deal_no=deal_no)
        by_rank = {c: i for i, c in enumerate(sorted(dealt.stack))}
        for position, c in enumerate(dealt.stack):
            ranks.append(by_rank[c])
            positions.append(position)
            value_index.append(order.index(dealt.values[c]))
    assert abs(correlation(ranks, positions)) < 0.05
    assert abs(correlation(ranks, value_index)) < 0.05


def test_card_ids_depend_on_the_secret_key() -> None:
    one = deal(Rng(1), "with_all", "None", id_key=card_id_key(1), deal_no=1)
    other = deal(Rng(1), "with_all", "None", id_key=card_id_key(2), deal_no=1)
    assert not set(one.stack) & set(other.stack)


def test_normal_trump_order() -> None:
    assert trumps_high_to_low("normal") == [
        "h10",
        "cq",
        "sq",
        "hq",
        "dq",
        "cj",
        "sj",
        "hj",
        "dj",
        "da",
        "d10",
        "dk",
        "d9",
    ]


def test_without_heart10_the_heart_ten_is_plain() -> None:
    order = trumps_high_to_low("normal", heart10=False)
    assert order[0] == "cq" and "h10" not in order


def test_joker_placement() -> None:
    assert trumps_high_to_low("normal", joker="over_h10")[:2] == ["j0", "h10"]
    over_pigs = ranking_for("normal", heart10=True, shift_h10=False, joker="over_pigs")
    assert over_pigs.strength("j0") > 90  # above pigs (promoted to 90)
    assert trumps_high_to_low("solo_queen", joker="over_h10")[0] == "j0"


@pytest.mark.parametrize(("solo", "suit"), [("solo_clubs", "c"), ("solo_spades", "s"), ("solo_hearts", "h")])
def test_colour_solo_replaces_diamonds(solo: str, suit: str) -> None:
    order = trumps_high_to_low(solo)
    assert order[:9] == ["h10", "cq", "sq", "hq", "dq", "cj", "sj", "hj", "dj"]
    low = [v for v in [suit + "a", suit + "10", suit + "k", suit + "9"] if v != "h10"]
    assert order[9:] == low
    assert not ranking_for(solo, heart10=True, shift_h10=False, joker="None").is_trump("da")


@pytest.mark.parametrize(
    ("solo", "role"), [("solo_hearts", "s10"), ("solo_spades", "c10"), ("solo_clubs", "d10")]
)
def test_shifted_heart10(solo: str, role: str) -> None:
    order = trumps_high_to_low(solo, shift=True)
    assert order[0] == role
    if solo != "solo_hearts":
        assert "h10" not in order


def test_diamond_and_null_solo_keep_normal_trumps() -> None:
    assert trumps_high_to_low("solo_diamonds") == trumps_high_to_low("normal")
    assert trumps_high_to_low("solo_null") == trumps_high_to_low("normal")


@pytest.mark.parametrize(
    ("solo", "expected"),
    [
        ("solo_queen", ["cq", "sq", "hq", "dq"]),
        ("solo_jack", ["cj", "sj", "hj", "dj"]),
        ("solo_king", ["ck", "sk", "hk", "dk"]),
        ("solo_aces", ["ca", "sa", "ha", "da"]),
        ("solo_10s", ["c10", "s10", "h10", "d10"]),
        ("solo_9s", ["c9", "s9", "h9", "d9"]),
        ("solo_brothel", ["cq", "sq", "hq", "dq", "cj", "sj", "hj", "dj"]),
        ("solo_monastery", ["ck", "sk", "hk", "dk", "cj", "sj", "hj", "dj"]),
        ("solo_noble_brothel", ["ck", "sk", "hk", "dk", "cq", "sq", "hq", "dq"]),
        ("solo_picture", ["ck", "sk", "hk", "dk", "cq", "sq", "hq", "dq", "cj", "sj", "hj", "dj"]),
        ("solo_pure_clubs", ["ca", "c10", "ck", "cq", "cj", "c9"]),
        ("solo_pure_spades", ["sa", "s10", "sk", "sq", "sj", "s9"]),
        ("solo_pure_hearts", ["ha", "h10", "hk", "hq", "hj", "h9"]),
        ("solo_pure_diamonds", ["da", "d10", "dk", "dq", "dj", "d9"]),
        ("solo_fleshless", []),
        ("solo_boneless", []),
    ],
)
def test_solo_trumps(solo: str, expected: list[str]) -> None:
    assert trumps_high_to_low(solo) == expected


def test_every_solo_has_a_ranking() -> None:
    for solo in SOLO_ORDER:
        ranking = ranking_for(solo, heart10=True, shift_h10=False, joker="None")
        for value in deck_values("with_all", "None"):
            ranking.strength(value)


def test_plain_suit_order_in_a_queen_solo() -> None:
    ranking = ranking_for("solo_queen", heart10=True, shift_h10=False, joker="None")
    spades = sorted(["sa", "s10", "sk", "sj", "s9"], key=ranking.strength, reverse=True)
    assert spades == ["sa", "s10", "sk", "sj", "s9"]
    assert ranking.classify("h10") == "h"


def test_pig_and_superpig_values() -> None:
    normal = ranking_for("normal", heart10=True, shift_h10=False, joker="None")
    assert normal.pig_value() == "da"
    assert normal.superpig_value("with_all") == "d9"
    assert normal.superpig_value("with_four") == "dk"
    assert ranking_for("solo_hearts", heart10=True, shift_h10=False, joker="None").pig_value() == "ha"
    assert ranking_for("solo_queen", heart10=True, shift_h10=False, joker="None").pig_value() is None


def test_card_ids_replay_exactly_and_the_key_is_never_shown() -> None:
    from dk_helpers import full_table

    from gamehall.rules.doppelkopf.engine import DoppelkopfTable

    table, _ = full_table(seed=123456789)
    again, _ = full_table(seed=123456789)
    assert table.round.values == again.round.values and table.round.hands == again.round.hands
    restored = DoppelkopfTable.from_json(table.to_json())
    assert restored.round.values == table.round.values
    for seat in (None, 0, 1, 2, 3):
        shown = repr(table.view(seat))
        assert "123456789" not in shown and card_id_key(123456789).hex() not in shown


def test_card_ids_of_a_deal_are_the_hmac_of_each_position() -> None:
    """The batched ids (keyed hash states made once per deal) equal one HMAC per card, so
    stored games deal the same ids as before; keys longer than a block are hashed first."""
    for key in (card_id_key(7), b"k" * 64, b"long key " * 10):
        assert card_ids(key, 3, 48) == [card_id(key, 3, position) for position in range(48)]

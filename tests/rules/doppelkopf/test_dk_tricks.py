"""Following suit and who takes the trick (note §6.1, checklist §10.6 and §11.9)."""

from __future__ import annotations

import pytest

from gamehall.rules.doppelkopf.cards import ranking_for
from gamehall.rules.doppelkopf.tricks import PIG_STRENGTH, TieRules, legal_cards, trick_winner

NORMAL = ranking_for("normal", heart10=True, shift_h10=False, joker="None")


def winner(
    values: list[str],
    *,
    game: str = "normal",
    last: bool = False,
    ties: TieRules | None = None,
    promoted: dict[str, int] | None = None,
) -> int:
    ids = [f"id{i}" for i in range(len(values))]
    ranking = ranking_for(game, heart10=True, shift_h10=False, joker="None")
    return trick_winner(
        ids,
        dict(zip(ids, values, strict=True)),
        ranking,
        last_trick=last,
        ties=ties or TieRules(),
        promoted=promoted,
    )


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        (["ca", "c10", "ck", "c9"], 0),  # led suit, highest
        (["c10", "ca", "ck", "c9"], 1),
        (["ca", "c10", "d9", "ck"], 2),  # lowest trump beats the led ace
        (["ca", "sa", "ha", "c9"], 0),  # off-suit aces do not win
        (["dq", "cq", "h10", "dj"], 2),  # ♥10 is the highest trump
        (["cj", "sq", "da", "hq"], 1),
        (["ca", "ca", "c10", "ck"], 0),  # equal cards: the first wins
        (["h9", "hk", "ha", "h9"], 2),  # hearts have no 10 as a plain suit
    ],
)
def test_trick_winner_normal(cards: list[str], expected: int) -> None:
    assert winner(cards) == expected


def test_second_heart10_per_rule() -> None:
    trick = ["h10", "cq", "h10", "d9"]
    assert winner(trick, ties=TieRules(heart10_prio="first")) == 0
    assert winner(trick, ties=TieRules(heart10_prio="second")) == 2
    last_rules = TieRules(heart10_prio="first", heart10_lasttrick="second")
    assert winner(trick, ties=last_rules) == 0
    assert winner(trick, last=True, ties=last_rules) == 2


def test_charlie_prio_in_the_last_trick_only() -> None:
    trick = ["cj", "sa", "cj", "c9"]
    assert winner(trick, last=True, ties=TieRules(charlie_prio="second")) == 2
    assert winner(trick, last=True, ties=TieRules(charlie_prio="first")) == 0
    assert winner(trick, last=False, ties=TieRules(charlie_prio="second")) == 0


def test_promoted_pig_beats_heart10() -> None:
    assert winner(["h10", "da", "cq", "d9"], promoted={"id1": PIG_STRENGTH}) == 1


@pytest.mark.parametrize(
    ("game", "cards", "expected"),
    [
        ("solo_queen", ["cj", "dq", "ca", "cq"], 3),
        ("solo_queen", ["ha", "h10", "hk", "dj"], 0),  # ♥10 is plain in a queen solo
        ("solo_jack", ["dj", "cq", "cj", "sa"], 2),
        ("solo_fleshless", ["dq", "cq", "da", "d10"], 2),
        ("solo_pure_hearts", ["ca", "h9", "c10", "sa"], 1),
        ("solo_clubs", ["da", "ca", "d10", "dk"], 1),  # ♦ plain, ♣ trump
        ("solo_picture", ["cq", "dk", "hq", "sj"], 1),
    ],
)
def test_trick_winner_solos(game: str, cards: list[str], expected: int) -> None:
    assert winner(cards, game=game) == expected


def test_follow_suit() -> None:
    values = {"a": "ca", "b": "c9", "c": "cq", "d": "h9", "led": "ck"}
    hand = ["a", "b", "c", "d"]
    assert legal_cards(hand, values, "led", NORMAL) == ["a", "b"]  # ♣Q is a trump, not a club
    values["led"] = "dj"
    assert legal_cards(hand, values, "led", NORMAL) == ["c"]
    values["led"] = "s9"
    assert legal_cards(hand, values, "led", NORMAL) == hand
    assert legal_cards(hand, values, None, NORMAL) == hand


def test_follow_suit_depends_on_the_game_type() -> None:
    queen = ranking_for("solo_queen", heart10=True, shift_h10=False, joker="None")
    values = {"a": "cq", "b": "cj", "led": "ck"}
    assert legal_cards(["a", "b"], values, "led", queen) == ["b"]

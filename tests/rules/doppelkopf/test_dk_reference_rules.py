"""Rules settled by the differential run against the reference engine (issue 15, note §6.3 and
§6.5): each a fixed deal and play with its exact scores and summary codes.

The expected figures were checked by hand and agree with the reference engine on the same deal
(``tools/dk_differential.py`` replays these deals too, see docs/doppelkopf-differential.md).
"""

from __future__ import annotations

from typing import Any

from dk_helpers import all_healthy, all_ready, find, full_table, play_tricks, rig

from gamehall.rules.doppelkopf.actions import Announce, Answer, AnswerSolo, PlayCard, WeddingClarification
from gamehall.rules.doppelkopf.engine import DoppelkopfTable
from gamehall.rules.doppelkopf.events import RoundEnded, WeddingTrickDecided
from gamehall.rules.doppelkopf.scoring import RoundFacts, score_round

# Seat 0 holds twelve top trumps (one ♣Q), seat 2 the other ♣Q and eleven trumps: Re takes every
# trick (240 eyes) whatever Kontra discards. Kontra holds both ♦9 and plain cards only.
ALL_TRICKS = [
    ["h10", "h10", "cq", "sq", "sq", "hq", "hq", "dq", "dq", "sj", "cj", "cj"],
    ["d9", "ca", "ca", "sa", "sa", "c10", "c10", "s10", "ck", "ck", "c9", "c9"],
    ["cq", "da", "da", "d10", "d10", "dk", "dk", "sj", "hj", "hj", "dj", "dj"],
    ["d9", "ha", "ha", "s10", "hk", "hk", "sk", "sk", "s9", "s9", "h9", "h9"],
]


def play_out(table: DoppelkopfTable) -> list[Any]:
    """Every seat plays its first legal card (in hand order) until the round ends."""
    events: list[Any] = []
    while table.round.phase == "tricks":
        seat = next(iter(table.to_move().seats))
        events += table.apply(seat, PlayCard(table.referee().legal_plays(seat)[0]))
    return events


def ended(events: list[Any]) -> RoundEnded:
    (result,) = find(events, RoundEnded)
    return result


# -- 1. the wedding's "diamonds" wish -------------------------------------------------------------

WEDDING = [
    ["d9", "cq", "cq", "ha"],
    ["da", "ca", "sa", "hk"],
    ["d10", "c10", "s10", "h9"],
    ["dk", "c9", "s9", "h9"],
]


def wedding_with_wish(first_trick: list[str]) -> tuple[DoppelkopfTable, list[Any]]:
    table, _ = full_table({"wedding": "wish_trick"})
    hands = [list(h) for h in WEDDING]
    rig(table, hands)
    all_ready(table)
    for seat in table.round.player_list:
        table.apply(seat, Answer("reservation", seat == 0))
    table.apply(0, AnswerSolo(None))
    table.apply(0, Answer("wedding", True))
    table.apply(0, WeddingClarification("diamonds"))
    return table, play_tricks(table, [first_trick])


def test_wish_diamonds_is_met_by_four_plain_rank_diamonds() -> None:
    # ♦ are trumps in a wedding: "diamonds" means ♦9/♦10/♦K/♦A only, as the reference reads it.
    table, events = wedding_with_wish(["d9", "da", "d10", "dk"])  # seat 1 wins with ♦A
    assert find(events, WeddingTrickDecided)[0].partner == 1
    events = play_tricks(
        table, [["ca", "c10", "c9", "cq"], ["cq", "sa", "s10", "s9"], ["ha", "hk", "h9", "h9"]]
    )
    result = ended(events)
    assert result.game_type == "wedding" and result.re_seats == (0, 1)
    assert result.eyes == (88, 0) and result.winner is None
    # No target reached in a 16-card deal: Re's gain (Kontra black) nets with Re's loss (no90).
    assert result.game_summary == ("no_win", "no90", "no60", "no30", "black", "no90")
    assert result.reference_summary == ("no_win", "black", "no90")
    assert result.point_change == (3, 3, -3, -3)


def test_wish_diamonds_is_not_met_by_a_diamond_jack() -> None:
    hands = [["d9", "cq", "cq"], ["da", "c9", "s9"], ["dj", "h9", "h9"], ["dk", "ck", "sk"]]
    table, _ = full_table({"wedding": "wish_trick"})
    rig(table, hands)
    all_ready(table)
    for seat in table.round.player_list:
        table.apply(seat, Answer("reservation", seat == 0))
    table.apply(0, AnswerSolo(None))
    table.apply(0, Answer("wedding", True))
    table.apply(0, WeddingClarification("diamonds"))
    events = play_tricks(table, [["d9", "da", "dj", "dk"]])  # ♦J wins: no partner yet
    assert not find(events, WeddingTrickDecided) and table.round.re_seats is None


# -- 4. hobgoblin: one point per ♠K in the trick the ♠Q wins ------------------------------------

HOBGOBLIN = [["sk", "cq"], ["sk", "c9"], ["sq", "cq"], ["s9", "ck"]]


def test_hobgoblin_counts_each_spade_king() -> None:
    table, _ = full_table({"hobgoblin": True})
    rig(table, [list(h) for h in HOBGOBLIN])
    all_healthy(table)
    result = ended(play_tricks(table, [["sk", "sk", "sq", "s9"], ["cq", "ck", "cq", "c9"]]))
    assert result.extras == (("hobgoblin", "hobgoblin"), ())
    assert result.eyes == (21, 0) and result.winner is None
    assert result.game_summary == (
        "no_win", "no90", "no60", "no30", "black", "no90", "no60", "no30", "p_hobgoblin", "p_hobgoblin"
    )  # fmt: skip
    assert result.reference_summary == ("no_win", "black", "no30", "p_hobgoblin", "p_hobgoblin")
    assert result.point_change == (3, -3, 3, -3)  # 4 - 3 + 2 hobgoblins


# -- 2. dk.re_kontra doubling with no winner ----------------------------------------------------


def test_doubling_re_kontra_multiplies_nothing_without_a_winner() -> None:
    for rule in ("*2", "*2_extra", "+2"):
        table, _ = full_table({"hobgoblin": True, "re_kontra": rule})
        rig(table, [list(h) for h in HOBGOBLIN])
        all_healthy(table)
        table.apply(0, Announce("re"))
        table.apply(1, Announce("kontra"))
        result = ended(play_tricks(table, [["sk", "sk", "sq", "s9"], ["cq", "ck", "cq", "c9"]]))
        assert result.winner is None
        assert result.point_change == (3, -3, 3, -3), rule  # as without the calls
        assert result.reference_summary == ("no_win", "black", "no30", "p_hobgoblin", "p_hobgoblin")
        assert result.game_summary[:3] == ("no_win", "re", "kontra")  # gamehall clients see the calls


def test_re_kontra_rules_with_no_winner_in_the_facts() -> None:
    facts = RoundFacts(
        "normal", 150, 90, ("re", "no90"), ("kontra", "no90"), ("fox",), (), re_kontra_rule="*2"
    )
    assert score_round(facts).re_value == 1 + 1  # got past Kontra's no90, a fox; not x4


# -- 3. dk.coward ---------------------------------------------------------------------------------


def coward_round(rule: str, *announce: str) -> RoundEnded:
    table, _ = full_table({"coward": rule, "fox": False})
    rig(table, [list(h) for h in ALL_TRICKS])
    all_healthy(table)
    for kind in announce:
        table.apply(0, Announce(kind))
    return ended(play_out(table))


def test_coward_flips_the_sign_before_the_extras() -> None:
    result = coward_round("210_no_re")
    assert result.eyes == (240, 0) and result.winner == "re"
    assert result.extras == (("doppelkopf", "charlie"), ())  # trick 2 has 43 eyes; ♣J wins the last
    # win 1 + four tiers = 5, flipped to -5, then +2 extras: -3 (flipped after the extras: -7).
    assert result.point_change == (-3, 3, -3, 3)
    assert result.game_summary == (
        "re_win",
        "no90",
        "no60",
        "no30",
        "black",
        "cowardice",
        "p_doppelkopf",
        "p_charlie",
    )
    assert result.reference_summary == ("re_win", "black", "cowardice", "p_doppelkopf", "p_charlie")


def test_own_re_spares_a_coward_under_210_no_re() -> None:
    result = coward_round("210_no_re", "re")
    assert "cowardice" not in result.game_summary
    assert result.point_change == (9, -9, 9, -9)  # 5 + 2 (re) + 2 extras


def test_240_no_u90_punishes_240_eyes_without_an_own_no90() -> None:
    without_re = coward_round("240_no_u90")
    assert without_re.point_change == (-3, 3, -3, 3)  # no own re: punished as under 210_no_re
    with_re = coward_round("240_no_u90", "re")
    assert "cowardice" in with_re.game_summary
    assert with_re.point_change == (-5, 5, -5, 5)  # -(5 + 2) + 2
    with_no90 = coward_round("240_no_u90", "re", "no90")
    assert "cowardice" not in with_no90.game_summary
    # 1 + 4 tiers + c_no90 + 2 (re) = 8, + 2 extras
    assert with_no90.point_change == (10, -10, 10, -10)


def test_coward_doubling_after_extras_still_doubles() -> None:
    facts = RoundFacts(
        "normal", 215, 25, (), ("kontra",), ("fox",), (), re_kontra_rule="*2_extra", coward_rule="210_no_re"
    )
    # win 1 + tiers no90/no60/no30 = 4, flipped to -4, +1 fox = -3, then x2 for Kontra's call
    assert score_round(facts).re_value == -6


# -- 5. what vanilla clients see ------------------------------------------------------------------


def test_reference_summary_keeps_only_the_highest_of_each_ladder() -> None:
    facts = RoundFacts("normal", 205, 35, ("re", "no90", "no60"), ("kontra", "no90"), (), ("fox",))
    score = score_round(facts)
    assert score.summary == (
        "re_win", "re", "kontra", "no90", "no60", "c_no90", "c_no60", "fc_no90", "120vs_no90", "n_fox"
    )  # fmt: skip
    assert score.reference_summary == (
        "re_win",
        "re",
        "kontra",
        "no60",
        "c_no60",
        "fc_no90",
        "120vs_no90",
        "n_fox",
    )


def test_reference_summary_of_a_no_win_round() -> None:
    facts = RoundFacts("normal", 150, 90, ("re", "no90"), ("kontra", "no90"), ("fox",), ("charlie",))
    score = score_round(facts)
    # No re/kontra codes; Kontra's got-past block comes before Re's; each extra once.
    assert score.reference_summary == ("no_win", "120vs_no90", "p_fox", "n_charlie")


def test_reference_summary_of_a_null_solo_lists_the_calls_last() -> None:
    facts = RoundFacts("solo_null", 95, 145, ("re",), (), (), (), null_game=True)
    score = score_round(facts)
    assert score.summary == ("kontra_win", "re", "o30", "o60", "o90")
    assert score.reference_summary == ("kontra_win", "o90", "re")


# -- found by the differential run ----------------------------------------------------------------


def test_heart10_tie_rule_only_for_the_card_in_the_heart10_role() -> None:
    # In a pure spades solo the ♥10 is a plain heart: of two, the first played wins.
    from gamehall.rules.doppelkopf.cards import ranking_for
    from gamehall.rules.doppelkopf.tricks import TieRules, trick_winner

    values = {"a": "h10", "b": "h10", "c": "h9", "d": "c9"}
    ties = TieRules("second", "second", "first")
    pure = ranking_for("solo_pure_spades", heart10=True, shift_h10=False, joker="None")
    assert trick_winner(["a", "b", "c", "d"], values, pure, last_trick=False, ties=ties) == 0
    normal = ranking_for("normal", heart10=True, shift_h10=False, joker="None")
    assert trick_winner(["a", "b", "c", "d"], values, normal, last_trick=False, ties=ties) == 1


def test_a_pig_caught_by_superpigs_is_a_fox() -> None:
    from gamehall.rules.doppelkopf.actions import CallPigs

    table, _ = full_table({"pigs": "two_on_play", "superpigs": "on_play"})
    rig(table, [["da", "da", "cq"], ["d9", "d9", "c9"], ["cq", "h9", "h9"], ["dk", "sk", "sk"]])
    all_healthy(table)
    table.apply(0, CallPigs())
    play_tricks(table, [["da"]])
    table.apply(1, CallPigs(superpigs=True))
    result = ended(play_out(table))
    assert table.round.tricks[0].winner == 1  # the superpig beats the pig
    assert result.extras == ((), ("fox", "fox"))  # both of Re's ♦A caught, although pigs

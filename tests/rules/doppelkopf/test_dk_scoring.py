"""Winning, game value, summary codes, payout and buck rounds (note §6.5, checklist §11.11-12)."""

from __future__ import annotations

from gamehall.rules.doppelkopf.scoring import (
    BuckRounds,
    RoundFacts,
    buck_causes,
    payout,
    score_round,
    targets,
)


def facts(
    re_eyes: int,
    re_ann: tuple[str, ...] = (),
    kontra_ann: tuple[str, ...] = (),
    re_extras: tuple[str, ...] = (),
    kontra_extras: tuple[str, ...] = (),
    **kw: object,
) -> RoundFacts:
    return RoundFacts(
        game_type=str(kw.pop("game_type", "normal")),
        re_eyes=re_eyes,
        kontra_eyes=240 - re_eyes,
        re_announced=re_ann,
        kontra_announced=kontra_ann,
        re_extras=re_extras,
        kontra_extras=kontra_extras,
        **kw,
    )  # type: ignore[arg-type]


def test_checklist_example_normal_game() -> None:
    score = score_round(facts(144, ("re",), (), ("fox",), ("fox", "charlie")))
    assert score.summary == ("re_win", "re", "p_fox", "n_fox", "n_charlie")
    assert score.winner == "re" and score.re_value == 2
    assert payout(score.re_value, [0, 2], ramsch=False, multiplier=1) == [2, -2, 2, -2]


def test_solo_payout_and_buck() -> None:
    assert payout(1, [3], ramsch=False, multiplier=1) == [-1, -1, -1, 3]
    assert payout(1, [3], ramsch=False, multiplier=2) == [-2, -2, -2, 6]
    assert payout(-2, [0, 1], ramsch=True, multiplier=1) == [2, 2, -2, -2]


def test_targets() -> None:
    assert targets((), ()) == (121, 120)
    assert targets((), ("kontra",)) == (120, 121)
    assert targets(("re", "no90"), ()) == (151, 90)
    assert targets(("re", "no90"), ("kontra", "no60")) == (151, 181)
    assert targets(("re", "no90", "no60", "no30", "black"), ()) == (240, 1)


def test_kontra_wins_with_120() -> None:
    assert score_round(facts(120)).winner == "kontra"
    assert score_round(facts(120, (), ("kontra",))).winner == "re"
    assert score_round(facts(121)).summary == ("re_win",)


def test_eye_tiers() -> None:
    assert score_round(facts(151)).summary == ("re_win", "no90")
    assert score_round(facts(240)).summary == ("re_win", "no90", "no60", "no30", "black")
    assert score_round(facts(240)).re_value == 5
    assert score_round(facts(85)).summary == ("kontra_win", "no90")
    assert score_round(facts(85)).re_value == -2


def test_fulfilled_and_failed_denials() -> None:
    score = score_round(facts(190, ("re", "no90", "no60")))
    assert score.summary == ("re_win", "re", "no90", "no60", "c_no90", "c_no60")
    assert score.re_value == 1 + 2 + 2 + 2  # win, tiers, fulfilled, re
    failed = score_round(facts(140, ("re", "no90")))
    assert failed.winner == "kontra"
    assert failed.summary == ("kontra_win", "re", "fc_no90")
    assert failed.re_value == -(1 + 1 + 2)


def test_got_past_a_denial() -> None:
    score = score_round(facts(110, ("re", "no90", "no60")))
    assert score.winner == "kontra"
    assert "120vs_no90" in score.summary and "120vs_no60" in score.summary


def test_no_win_nets_both_eye_blocks() -> None:
    score = score_round(facts(150, ("re", "no90"), ("kontra", "no90")))
    assert score.winner is None and score.summary[0] == "no_win"
    assert score.summary == ("no_win", "re", "kontra", "120vs_no90")
    assert score.re_value == 1  # Re got past Kontra's no90; Kontra did not get past Re's
    balanced = score_round(facts(120, ("re", "no90"), ("kontra", "no90")))
    assert balanced.winner is None and balanced.re_value == 0


def test_re_kontra_rules() -> None:
    assert score_round(facts(130, ("re",), ("kontra",))).re_value == 1 + 4
    doubled = score_round(facts(130, ("re",), ("kontra",), ("fox",), re_kontra_rule="*2"))
    assert doubled.re_value == 1 * 4 + 1
    after = score_round(facts(130, ("re",), ("kontra",), ("fox",), re_kontra_rule="*2_extra"))
    assert after.re_value == (1 + 1) * 4


def test_cowardice() -> None:
    score = score_round(facts(215, coward_rule="210_no_re"))
    assert score.summary[-1] == "cowardice" and score.re_value < 0
    assert score_round(facts(215, ("re",), coward_rule="210_no_re")).re_value > 0
    full = score_round(facts(240, ("re",), coward_rule="240_no_u90"))
    assert "cowardice" in full.summary


def test_null_solo() -> None:
    win = score_round(facts(0, null_game=True, game_type="solo_null"))
    assert win.winner == "re" and win.re_value == 2
    loss = score_round(facts(95, null_game=True, game_type="solo_null"))
    assert loss.summary == ("kontra_win", "o30", "o60", "o90") and loss.re_value == -4
    black = score_round(facts(240, null_game=True, game_type="solo_boneless"))
    assert black.summary[-1] == "black" and black.re_value == -9


def test_buck_rounds_succession() -> None:
    buck = BuckRounds("succession")
    assert buck.multiplier() == 1
    buck.add(["draw", "solo_lost"], 2)
    assert buck.queue == 4
    for _ in range(4):
        assert buck.multiplier() == 2
        buck.use_one()
    assert buck.multiplier() == 1


def test_buck_rounds_parallel() -> None:
    buck = BuckRounds("parallel")
    buck.add(["draw"], 2)
    buck.add(["solo_lost"], 1)
    assert buck.multiplier() == 4
    buck.use_one()
    assert buck.multiplier() == 2
    buck.use_one()
    assert buck.multiplier() == 1


def test_buck_causes() -> None:
    draw = score_round(facts(120))
    seen = buck_causes(
        enabled=["4hearts", "draw", "0points", "re_kontra_lost", "solo_lost"],
        four_hearts_trick=True,
        eyes=(120, 120),
        score=draw,
        announced_loser=True,
        solo_lost=False,
    )
    assert seen == ["4hearts", "draw", "re_kontra_lost"]
    coward = score_round(facts(215, coward_rule="210_no_re"))
    assert buck_causes(
        enabled=["0points"],
        four_hearts_trick=False,
        eyes=(215, 25),
        score=coward,
        announced_loser=False,
        solo_lost=False,
    ) == ["0points"]
    assert buck_causes(
        enabled=["draw"],
        four_hearts_trick=True,
        eyes=(120, 120),
        score=draw,
        announced_loser=False,
        solo_lost=True,
    ) == ["draw"]

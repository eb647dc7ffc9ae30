"""Throwing a hand, pigs and superpigs (note §6.2, §6.3)."""

from __future__ import annotations

import pytest
from dk_helpers import all_healthy, all_ready, card, find, full_table, hands_with, play, play_tricks, rig

from gamehall.rules._core import IllegalAction, NotYourTurn
from gamehall.rules.doppelkopf.actions import Answer, AnswerSolo, CallPigs, PlayCard, Throw
from gamehall.rules.doppelkopf.events import Asked, PigsCalled, RoundEnded, TrickTaken
from gamehall.rules.doppelkopf.reservations import throw_cases_met

CASES = ["5_9", "5_k", "4_9+4_k", "9_all_c", "k_all_c", "7full", "t<hj", "t<dj"]


@pytest.mark.parametrize(
    ("hand", "met"),
    [
        (["c9", "c9", "s9", "s9", "h9", "ca", "sa", "ha", "cq", "dq", "hj", "dk"], ["5_9"]),
        (["ck", "ck", "sk", "sk", "hk", "ca", "sa", "ha", "cq", "dq", "hj", "c10"], ["5_k"]),
        (["c9", "c9", "s9", "h9", "ck", "ck", "sk", "hk", "cq", "dq", "hj", "da"], ["4_9+4_k"]),
        (["c9", "s9", "h9", "dk", "ca", "ca", "sa", "ha", "cq", "dq", "hj", "c10"], []),
        (["c9", "s9", "h9", "d9", "ca", "ca", "sa", "ha", "cq", "dq", "hj", "c10"], ["9_all_c"]),
        (["ck", "sk", "hk", "dk", "ca", "c9", "s9", "h9", "cq", "dq", "hj", "c10"], ["k_all_c"]),
        (["ca", "ca", "sa", "sa", "ha", "c10", "s10", "c9", "cq", "dq", "hj", "hk"], ["7full"]),
        (["dj", "da", "d9", "ca", "ca", "sa", "sa", "ha", "c10", "s10", "c9", "hk"], ["7full", "t<hj"]),
        (
            ["da", "d9", "dk", "ca", "ca", "sa", "sa", "hk", "c10", "s10", "c9", "hk"],
            ["7full", "t<hj", "t<dj"],
        ),
    ],
)
def test_throw_cases(hand: list[str], met: list[str]) -> None:
    assert throw_cases_met(hand, CASES) == met


THROWABLE = ["c9", "c9", "s9", "s9", "h9", "ca", "sa", "ha", "cq", "dq", "hj", "dk"]


def test_throw_in_w_for_ready_voids_the_round() -> None:
    table, _ = full_table({"throw": "throw", "throw_cases": ["5_9"]})
    rig(table, hands_with({2: THROWABLE}))
    with pytest.raises(IllegalAction) as refused:
        table.apply(0, Throw())
    assert refused.value.code == "invalid_throw"
    events = table.apply(2, Throw())
    end = find(events, RoundEnded)[0]
    assert (end.game_type, end.winner, end.point_change) == ("throw", None, (0, 0, 0, 0))


def test_throw_needs_the_rule() -> None:
    table, _ = full_table({"throw_cases": ["5_9"]})
    rig(table, hands_with({2: THROWABLE}))
    with pytest.raises(IllegalAction):
        table.apply(2, Throw())


def test_throw_as_a_reservation() -> None:
    table, _ = full_table({"throw": "reservation", "throw_cases": ["5_9"]})
    rig(table, hands_with({2: THROWABLE}))
    all_ready(table)
    for seat in range(4):
        table.apply(seat, Answer("reservation", seat == 2))
    table.apply(2, AnswerSolo(None))
    events = table.apply(2, Answer("throw", True))
    assert find(events, RoundEnded)[0].game_type == "throw"


def pig_table(config: dict[str, object]):  # type: ignore[no-untyped-def]
    table, _ = full_table({"fox": True, **config})
    rig(table, [["da", "da", "c9"], ["h10", "cq", "s9"], ["d9", "d9", "h9"], ["cq", "ck", "sk"]])
    return table


def test_pigs_as_a_reservation_outrank_the_heart10() -> None:
    table = pig_table({"pigs": "two_reservation"})
    all_ready(table)
    for seat in range(4):
        table.apply(seat, Answer("reservation", seat == 0))
    table.apply(0, AnswerSolo(None))
    events = table.apply(0, Answer("pigs", True))
    assert find(events, PigsCalled)[0].seat == 0
    table.apply(0, Answer("wedding", False))
    play(table, 0, "da")
    events = play(table, 1, "h10")
    events += play(table, 2, "d9")
    events += play(table, 3, "cq")
    assert find(events, TrickTaken)[0].winner == 0


def test_pigs_reservation_needs_both() -> None:
    table = pig_table({"pigs": "two_reservation"})
    all_ready(table)
    for seat in range(4):
        table.apply(seat, Answer("reservation", seat == 1))
    table.apply(1, AnswerSolo(None))
    with pytest.raises(IllegalAction) as refused:
        table.apply(1, Answer("pigs", True))
    assert refused.value.code == "invalid_pigs"


def test_superpigs_as_a_reservation() -> None:
    table = pig_table({"pigs": "two_reservation", "superpigs": "reservation"})
    all_ready(table)
    for seat in range(4):
        table.apply(seat, Answer("reservation", seat == 0))
    table.apply(0, AnswerSolo(None))
    table.apply(0, Answer("pigs", True))
    table.apply(0, Answer("superpigs", False))
    table.apply(1, Answer("superpigs", False))
    events = table.apply(2, Answer("superpigs", True))
    assert find(events, PigsCalled)[0].kind == "superpigs"
    table.apply(0, Answer("wedding", False))
    events = play(table, 0, "da") + play(table, 1, "h10") + play(table, 2, "d9") + play(table, 3, "cq")
    assert find(events, TrickTaken)[0].winner == 2


def test_pigs_on_play_force_the_next_card() -> None:
    table = pig_table({"pigs": "two_on_play"})
    all_healthy(table)
    with pytest.raises(NotYourTurn):
        table.apply(1, CallPigs())
    events = table.apply(0, CallPigs())
    assert find(events, PigsCalled)[0].kind == "pigs"
    with pytest.raises(IllegalAction) as refused:
        table.apply(0, PlayCard(card(table, 0, "c9")))
    assert refused.value.code == "pc_called_pigs"
    events = play(table, 0, "da") + play(table, 1, "h10") + play(table, 2, "d9") + play(table, 3, "cq")
    assert find(events, TrickTaken)[0].winner == 0


def test_pigs_call_refused_without_the_rule_or_the_cards() -> None:
    table = pig_table({})
    all_healthy(table)
    with pytest.raises(IllegalAction) as refused:
        table.apply(0, CallPigs())
    assert refused.value.code == "invalid_pigs"
    table = pig_table({"pigs": "two_on_play"})
    all_healthy(table)
    play(table, 0, "c9")
    with pytest.raises(IllegalAction):
        table.apply(1, CallPigs())


def test_one_first_pig_status_lasts_one_trick() -> None:
    table, _ = full_table({"pigs": "one_first"})
    rig(table, [["da", "da", "c9"], ["h10", "h10", "s9"], ["d9", "d9", "h9"], ["cq", "ck", "sk"]])
    all_healthy(table)
    table.apply(0, CallPigs())
    events = play(table, 0, "da") + play(table, 1, "h10") + play(table, 2, "d9") + play(table, 3, "cq")
    assert find(events, TrickTaken)[0].winner == 0
    with pytest.raises(IllegalAction):
        table.apply(0, CallPigs())  # one_first: the first pig only
    events = play(table, 0, "da") + play(table, 1, "h10") + play(table, 2, "d9") + play(table, 3, "ck")
    assert find(events, TrickTaken)[0].winner == 1


def test_superpigs_on_play_outrank_called_pigs() -> None:
    table, _ = full_table({"pigs": "two_on_play", "superpigs": "on_play"})
    rig(table, [["da", "da", "c9"], ["h10", "cq", "s9"], ["d9", "d9", "h9"], ["cq", "ck", "sk"]])
    all_healthy(table)
    table.apply(0, CallPigs())
    play(table, 0, "da")
    play(table, 1, "h10")
    events = table.apply(2, CallPigs(superpigs=True))
    assert find(events, PigsCalled)[0].kind == "superpigs"
    with pytest.raises(IllegalAction) as refused:
        play(table, 2, "h9")
    assert refused.value.code == "pc_called_superpigs"
    events = play(table, 2, "d9") + play(table, 3, "cq")
    assert find(events, TrickTaken)[0].winner == 2


def test_superpigs_on_pig_need_pigs_first() -> None:
    table, _ = full_table({"pigs": "two_on_play", "superpigs": "on_pig"})
    rig(table, [["c9", "c9", "c9"], ["h10", "cq", "s9"], ["d9", "d9", "h9"], ["cq", "ck", "sk"]])
    all_healthy(table)
    play(table, 0, "c9")
    play(table, 1, "s9")
    with pytest.raises(IllegalAction) as refused:
        table.apply(2, CallPigs(superpigs=True))
    assert refused.value.code == "invalid_superpigs_call"


def test_pigs_are_asked_of_everyone_in_a_colour_solo() -> None:
    table, _ = full_table({"pigs": "two_reservation"})
    rig(table, hands_with({3: ["ha", "ha"]}))
    all_ready(table)
    for seat in range(4):
        table.apply(seat, Answer("reservation", seat == 0))
    events = table.apply(0, AnswerSolo("solo_hearts"))
    assert find(events, Asked)[-1].kind == "pigs"
    for seat in range(3):
        table.apply(seat, Answer("pigs", False))
    table.apply(3, Answer("pigs", True))
    assert [table.round.values[c] for c in table.round.pig_ids] == ["ha", "ha"]
    assert table.round.phase == "tricks"


def test_one_on_fox_needs_a_fox_brought_home() -> None:
    table, _ = full_table({"pigs": "one_on_fox"})
    rig(table, [["cq", "da", "da"], ["dk", "s9", "c9"], ["cq", "h9", "h9"], ["dj", "sk", "sk"]])
    all_healthy(table)
    with pytest.raises(IllegalAction):
        table.apply(0, CallPigs())  # no fox brought home yet
    play_tricks(table, [["da", "dk", "cq", "dj"]])  # the partner takes seat 0's fox home
    play(table, 2, "h9")
    play(table, 3, "sk")
    table.apply(0, CallPigs())  # one of the pair is left
    events = play(table, 0, "da") + play(table, 1, "s9")
    assert find(events, TrickTaken)[0].winner == 0  # the pig wins the trick


def test_one_pig_rules_need_the_holder_of_both() -> None:
    for rule in ("one_first", "one_on_play", "one_on_fox"):
        table, _ = full_table({"pigs": rule})
        rig(table, [["cq", "da", "c9"], ["da", "h10", "s9"], ["cq", "h9", "h9"], ["dk", "sk", "sk"]])
        all_healthy(table)
        with pytest.raises(IllegalAction) as refused:
            table.apply(0, CallPigs())  # a single ♦A is no pig
        assert refused.value.code == "invalid_pigs"


def test_one_first_only_while_both_are_in_hand() -> None:
    table, _ = full_table({"pigs": "one_first"})
    rig(table, [["cq", "da", "da"], ["dk", "s9", "c9"], ["cq", "h9", "h9"], ["dj", "sk", "sk"]])
    all_healthy(table)
    play_tricks(table, [["da", "dk", "cq", "dj"]])
    play(table, 2, "h9")
    play(table, 3, "sk")
    with pytest.raises(IllegalAction) as refused:
        table.apply(0, CallPigs())
    assert refused.value.code == "invalid_pigs"


def test_superpigs_on_pig_only_right_after_the_pig_call() -> None:
    table, _ = full_table({"pigs": "two_on_play", "superpigs": "on_pig"})
    rig(table, [["da", "da", "c9"], ["h10", "cq", "s9"], ["d9", "d9", "h9"], ["cq", "ck", "sk"]])
    all_healthy(table)
    table.apply(0, CallPigs())
    play(table, 0, "da")
    play(table, 1, "h10")  # the call is two moves back now
    with pytest.raises(IllegalAction) as refused:
        table.apply(2, CallPigs(superpigs=True))
    assert refused.value.code == "invalid_superpigs_call"


def test_superpigs_on_play_need_pigs_first() -> None:
    table, _ = full_table({"pigs": "two_on_play", "superpigs": "on_play"})
    rig(table, [["c9", "c9", "c9"], ["h10", "cq", "s9"], ["d9", "d9", "h9"], ["cq", "ck", "sk"]])
    all_healthy(table)
    play(table, 0, "c9")
    play(table, 1, "s9")
    with pytest.raises(IllegalAction) as refused:
        table.apply(2, CallPigs(superpigs=True))
    assert refused.value.code == "invalid_superpigs_call"

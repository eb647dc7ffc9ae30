"""Doppelkopf bot policies on the engine's own views: every decision is accepted by the table,
the heuristic follows suit sensibly and announces strong hands, and in-hall bots finish games."""

from __future__ import annotations

import random

import pytest

from gamehall.bots.doppelkopf import DoppelkopfPolicy
from gamehall.bots.doppelkopf.policy import choose_card, ranking_of
from gamehall.bots.hall_bots import make_policy
from gamehall.rules.doppelkopf import DoppelkopfTable, new_game
from gamehall.rules.doppelkopf.actions import Announce, PlayCard, Vote


def full_table(seed: int, **config: object) -> DoppelkopfTable:
    table = new_game(dict(config), seed)
    for name in "ABCD":
        table.seat_join(name)
    return table


def play_rounds(
    table: DoppelkopfTable, policies: list[DoppelkopfPolicy], rng: random.Random, rounds: int
) -> int:
    """Let the bots play; a human-like seat 0 votes to continue, then to end. Returns moves."""
    moves = 0
    for _ in range(2000):
        if table.finished:
            return moves
        waiting = sorted(table.to_move().seats)
        acted = False
        for seat in waiting:
            action = policies[seat].decide(table.view(seat), seat, rng)
            if action is not None:
                table.apply(seat, action)
                moves += 1
                acted = True
                break
        if not acted:
            assert table.to_move().kind == "vote", table.to_move()
            kind = "end" if len(table.view(0)["summaries"]) >= rounds else "continue"
            table.apply(0, Vote(kind, True))  # type: ignore[arg-type]
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("style", ["random", "heuristic"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bots_play_whole_games_without_a_refused_move(style: str, seed: int) -> None:
    table = full_table(seed)
    policies = [DoppelkopfPolicy(style) for _ in range(4)]
    moves = play_rounds(table, policies, random.Random(seed), rounds=2)
    assert table.finished and len(table.view(0)["summaries"]) == 2
    assert moves > 90
    assert sum(table.view(0)["points"]) == 0


def test_the_random_policy_never_announces_and_answers_no() -> None:
    table = full_table(4)
    policy = DoppelkopfPolicy("random")
    rng = random.Random(0)
    for _ in range(60):
        if table.view(0)["round"]["phase"] == "end":
            break
        seat = sorted(table.to_move().seats)[0]
        action = policy.decide(table.view(seat), seat, rng)
        assert action is not None and not isinstance(action, Announce)
        table.apply(seat, action)
    assert table.view(0)["round"]["announcements"] == []


def test_the_heuristic_wins_cheaply_and_otherwise_throws_the_least() -> None:
    ranking = ranking_of({"rules": {}}, {"game_type": "normal"})
    hand = {"a": "sa", "b": "s9", "c": "sk", "d": "h10"}
    led_spades = {"cards": [{"value": "s10"}]}
    assert choose_card(["a", "b", "c"], hand, led_spades, ranking) == "a"  # only the ace beats the ten
    led_higher = {"cards": [{"value": "sa"}]}
    assert choose_card(["b", "c"], hand, led_higher, ranking) == "b"  # cannot win: the 9 (0 eyes)
    assert choose_card(["a", "b", "c", "d"], hand, None, ranking) == "a"  # lead a plain ace
    trump_led = {"cards": [{"value": "dj"}]}
    assert choose_card(["d"], hand, trump_led, ranking) == "d"


def test_the_heuristic_announces_a_hand_full_of_high_trumps() -> None:
    table = full_table(4)
    view = table.view(0)
    rnd = dict(view["round"])
    rnd.update(phase="tricks", rebtn_lbl="re", game_type="normal", playable=[c["id"] for c in rnd["hand"]])
    strong = ["h10", "h10", "cq", "sq", "hq", "dq", "cj", "sj", "d9", "s9", "c9", "h9"]
    rnd["hand"] = [{"id": f"id{i}", "value": v} for i, v in enumerate(strong)]
    rnd["playable"] = [c["id"] for c in rnd["hand"]]
    rnd["trick"] = {"number": 1, "leader": 0, "cards": [None] * 4}
    view = {**view, "round": rnd, "to_move": {"seats": [0], "kind": "play_card"}, "votes": {}}
    assert DoppelkopfPolicy("heuristic").decide(view, 0, random.Random(0)) == Announce("re")
    assert isinstance(DoppelkopfPolicy("random").decide(view, 0, random.Random(0)), PlayCard)


def test_bots_follow_a_human_end_vote_and_wait_otherwise() -> None:
    table = full_table(5)
    policies = [DoppelkopfPolicy("random") for _ in range(4)]
    rng = random.Random(1)
    while table.view(0)["round"]["phase"] != "end":
        seat = sorted(table.to_move().seats)[0]
        action = policies[seat].decide(table.view(seat), seat, rng)
        assert action is not None
        table.apply(seat, action)
    assert all(policies[s].decide(table.view(s), s, rng) is None for s in range(1, 4))
    table.apply(0, Vote("end", True))
    assert policies[1].decide(table.view(1), 1, rng) == Vote("end", True)


def test_make_policy_knows_doppelkopf() -> None:
    assert isinstance(make_policy("doppelkopf", "heuristic"), DoppelkopfPolicy)

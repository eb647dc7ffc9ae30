"""The AAH bot policy on hand-written engine views: every decision is legal, none is made out
of turn, and a given rng always gives the same decision."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gamehall.bots.aah import AahPolicy
from gamehall.rules.aah.actions import Judge, Pick
from gamehall.rules.aah.cards import BlackCard, WhiteCard
from gamehall.rules.aah.table import new_game

HAND = [
    {"id": 11, "text": "A goose."},
    {"id": 12, "text": "Forty identical umbrellas."},
    {"id": 13, "text": "Soup."},
    {"id": 14, "text": "A tax form written in crayon."},
    {"id": 15, "text": "Lukewarm tea."},
]


def seats(czar: int, done: tuple[int, ...] = ()) -> list[dict[str, Any]]:
    return [
        {"seat": s, "name": n, "present": True, "points": 0, "czar": s == czar, "done": s in done}
        for s, n in enumerate(["alice", "bob", "carol"])
    ]


def pick_view(
    pick: int = 1, czar: int = 1, my_submission: tuple[int, ...] = (), **extra: Any
) -> dict[str, Any]:
    view: dict[str, Any] = {
        "phase": "pick",
        "round": 3,
        "czar": czar,
        "black": {"text": "_____ and _____ walk into a bar.", "pick": pick, "draw": 1},
        "hand": [card for card in HAND if card["id"] not in my_submission],
        "my_submission": list(my_submission),
        "submissions": [],
        "seats": seats(czar),
    }
    view.update(extra)
    return view


def judge_view(czar: int = 0) -> dict[str, Any]:
    return {
        "phase": "judge",
        "round": 3,
        "czar": czar,
        "black": {"text": "The best breakfast is _____.", "pick": 1, "draw": 1},
        "hand": HAND,
        "my_submission": [],
        "submissions": [
            {"cards": [{"id": 41, "text": "Toast."}]},
            {"cards": [{"id": 42, "text": "An entire orchestra of kazoos."}]},
            {"cards": [{"id": 43, "text": "Cold pizza."}]},
        ],
        "seats": seats(czar, done=(1, 2)),
    }


POLICIES = [AahPolicy("random"), AahPolicy("heuristic")]
HAND_IDS = {card["id"] for card in HAND}


@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: p.style)
@pytest.mark.parametrize("pick", [1, 2, 3])
def test_pick_plays_the_right_number_of_distinct_cards_from_the_hand(policy: AahPolicy, pick: int) -> None:
    for seed in range(50):
        action = policy.decide(pick_view(pick=pick), seat=0, rng=random.Random(seed))
        assert isinstance(action, Pick)
        assert len(action.card_ids) == pick
        assert len(set(action.card_ids)) == pick
        assert set(action.card_ids) <= HAND_IDS


@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: p.style)
def test_pick_completes_a_partial_submission_without_reusing_its_cards(policy: AahPolicy) -> None:
    for seed in range(50):
        action = policy.decide(pick_view(pick=3, my_submission=(12,)), seat=0, rng=random.Random(seed))
        assert isinstance(action, Pick)
        assert len(action.card_ids) == 2
        assert 12 not in action.card_ids
        assert set(action.card_ids) <= HAND_IDS - {12}


@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: p.style)
def test_no_pick_when_the_submission_is_complete_or_done(policy: AahPolicy) -> None:
    rng = random.Random(1)
    assert policy.decide(pick_view(pick=2, my_submission=(11, 13)), seat=0, rng=rng) is None
    view = pick_view(pick=1)
    view["seats"] = seats(czar=1, done=(0,))
    assert policy.decide(view, seat=0, rng=rng) is None


@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: p.style)
def test_czar_never_picks(policy: AahPolicy) -> None:
    for seed in range(20):
        assert policy.decide(pick_view(czar=0), seat=0, rng=random.Random(seed)) is None


@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: p.style)
def test_small_hand_plays_what_it_has(policy: AahPolicy) -> None:
    view = pick_view(pick=3, hand=[HAND[0]])
    assert policy.decide(view, seat=0, rng=random.Random(0)) == Pick((11,))
    assert policy.decide(pick_view(pick=1, hand=[]), seat=0, rng=random.Random(0)) is None


@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: p.style)
def test_only_the_czar_judges_and_only_revealed_ids(policy: AahPolicy) -> None:
    revealed = {41, 42, 43}
    for seed in range(50):
        action = policy.decide(judge_view(czar=0), seat=0, rng=random.Random(seed))
        assert isinstance(action, Judge)
        assert action.card_id in revealed
        assert policy.decide(judge_view(czar=0), seat=1, rng=random.Random(seed)) is None


@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: p.style)
def test_judge_names_the_first_card_of_a_multi_card_submission(policy: AahPolicy) -> None:
    view = judge_view(czar=2)
    view["submissions"] = [
        {"cards": [{"id": 51, "text": "One."}, {"id": 52, "text": "Two."}]},
        {"cards": [{"id": 61, "text": "Three."}, {"id": 62, "text": "Four."}]},
    ]
    for seed in range(30):
        action = policy.decide(view, seat=2, rng=random.Random(seed))
        assert isinstance(action, Judge)
        assert action.card_id in (51, 61)


@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: p.style)
@pytest.mark.parametrize("phase", ["lobby", "waiting", "gap", "over", "aborted"])
def test_nothing_to_do_outside_pick_and_judge(policy: AahPolicy, phase: str) -> None:
    for seat in (0, 1):
        view = pick_view(czar=1)
        view["phase"] = phase
        assert policy.decide(view, seat=seat, rng=random.Random(0)) is None


def test_judge_without_submissions_does_nothing() -> None:
    view = judge_view(czar=0)
    view["submissions"] = []
    assert AahPolicy().decide(view, seat=0, rng=random.Random(0)) is None
    with pytest.raises(ValueError):
        AahPolicy().choose_submission([], random.Random(0))


@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: p.style)
def test_deterministic_given_the_rng(policy: AahPolicy) -> None:
    for seed in range(20):
        first = policy.decide(pick_view(pick=2), seat=0, rng=random.Random(seed))
        again = policy.decide(pick_view(pick=2), seat=0, rng=random.Random(seed))
        assert first == again
        assert policy.decide(judge_view(), seat=0, rng=random.Random(seed)) == policy.decide(
            judge_view(), seat=0, rng=random.Random(seed)
        )


def test_random_style_uses_the_whole_hand() -> None:
    played = {
        AahPolicy("random").decide(pick_view(), seat=0, rng=random.Random(seed)).card_ids[0]  # type: ignore[union-attr]
        for seed in range(200)
    }
    assert played == HAND_IDS


def test_heuristic_plays_the_longest_cards_and_crowns_the_longest_submission() -> None:
    policy = AahPolicy("heuristic")
    assert policy.decide(pick_view(pick=2), seat=0, rng=random.Random(5)) == Pick((14, 12))
    assert policy.decide(judge_view(), seat=0, rng=random.Random(5)) == Judge(42)


def test_heuristic_breaks_ties_with_the_rng() -> None:
    cards = [(1, "same"), (2, "same"), (3, "same")]
    chosen = {AahPolicy("heuristic").choose_cards(cards, 1, random.Random(seed))[0] for seed in range(60)}
    assert chosen == {1, 2, 3}


def test_unknown_style_is_refused() -> None:
    with pytest.raises(ValueError, match="style"):
        AahPolicy("clever")


# -- against the real engine ---------------------------------------------------------------------


def _engine_deck() -> tuple[list[WhiteCard], list[BlackCard]]:
    whites = [WhiteCard(i, f"Answer number {i}{'!' * (i % 7)}") for i in range(1, 301)]
    shapes = [(1, 1), (2, 1), (3, 2), (1, 1), (2, 1)] * 8
    blacks = [
        BlackCard(f"Prompt {i}: " + " ".join(["_____"] * pick), pick, draw)
        for i, (pick, draw) in enumerate(shapes)
    ]
    return whites, blacks


@pytest.mark.parametrize("style", ["random", "heuristic"])
@pytest.mark.parametrize("players", [3, 5])
def test_policy_plays_whole_engine_games_without_a_rule_error(style: str, players: int) -> None:
    """Every seat asks the policy on its own view; only timers of the gap between rounds fire,
    so every round must be completed by the policy's picks and judgements alone."""
    table = new_game(
        {"autostart_delay": 0, "aplimit": 3, "min_players": 3}, seed=players, deck=_engine_deck()
    )
    for name in ["alice", "bob", "carol", "dave", "erin"][:players]:
        table.seat_join(name)
    table.start()
    policy, rng = AahPolicy(style), random.Random(7)
    judged = 0
    for _ in range(10_000):
        if table.outcome() is not None:
            break
        acted = False
        for seat in range(players):
            action = policy.decide(table.view(seat), seat, rng)
            if action is not None:
                table.apply(seat, action)  # a RuleError here fails the test
                judged += isinstance(action, Judge)
                acted = True
        if not acted:
            (timer,) = table.pending_timers()
            assert timer.key.startswith("gap"), timer.key  # never a pick or czar timeout
            table.on_timeout(timer.key)
    outcome = table.outcome()
    assert outcome is not None and len(outcome.winners) == 1
    assert max(outcome.scores.values()) == 3 and judged == sum(outcome.scores.values())

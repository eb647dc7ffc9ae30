"""An illegal action changes nothing, for every action type, with no copy to roll back to.

The engine checks every rule before its first change (issue 12 item 6). These tests hold it to
that: a table is walked to a random point of a random game (legal moves, now and then a wild
one, poverty hands rigged at some tables so that the rare phases are reached too), then one
action of the type under test, with drawn arguments, is tried from a drawn seat. If the engine
refuses it, the state must equal a deep copy taken just before, field by field.
"""

from __future__ import annotations

import contextlib
import copy
import pickle
import random
import typing
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from dk_helpers import full_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamehall.rules._core import Action, RuleError
from gamehall.rules.doppelkopf.actions import (
    ACTION_CLASSES,
    AccusationVote,
    Accuse,
    Announce,
    Answer,
    AnswerSolo,
    BlackSowSolo,
    CallPigs,
    CancelAccusation,
    PassCards,
    PickMove,
    PlayCard,
    PovertyAccept,
    PovertyDecline,
    PovertyReturn,
    Ready,
    ReturnCards,
    Throw,
    Vote,
    WeddingClarification,
)
from gamehall.rules.doppelkopf.cards import SOLO_ORDER
from gamehall.rules.doppelkopf.engine import DoppelkopfTable

CONFIGS: list[dict[str, Any]] = [
    {},
    {"misplay": "penalize", "poverty": "circulate", "pigs": "two_on_play", "superpigs": "on_play"},
    {"misplay": "penalize", "poverty": "circulate_duty", "wedding": "wish_trick"},
    {"throw": "throw", "throw_cases": ["5_9", "5_k", "7full", "t<dj"], "solos": list(SOLO_ORDER)},
    {"poverty": "sell", "poverty_consequence": "black_sow", "pigs": "two_reservation"},
    {"misplay": "penalize", "solos": list(SOLO_ORDER), "solo_prio": "prio", "wedding": "wish_trick"},
]
"""Rule sets that between them open every phase: complaints, poverty, wedding wishes, throws,
solos, pigs asked in the reservations and called in play."""


def rig_poor_hand(table: DoppelkopfTable, rng: random.Random) -> None:
    """Make one seat poor (at most 3 trumps) by swapping cards with the others, before anyone
    acts, so that the poverty questions come up (a dealt poverty is rare)."""
    rnd = table.round
    ranking = table.referee().ranking()
    poor = rng.randrange(4)
    hand = rnd.hands[poor]
    trumps = [c for c in hand if ranking.is_trump(rnd.values[c])]
    plain = [
        (s, c) for s in range(4) if s != poor for c in rnd.hands[s] if not ranking.is_trump(rnd.values[c])
    ]
    rng.shuffle(plain)
    for trump, (seat, other) in zip(trumps[rng.randint(1, 3) :], plain, strict=False):
        i, j = hand.index(trump), rnd.hands[seat].index(other)
        hand[i], rnd.hands[seat][j] = other, trump
    rnd.dealt = [list(h) for h in rnd.hands]


def walk(config_index: int, seed: int, steps: int) -> Iterator[DoppelkopfTable]:
    """The table before each of ``steps`` random inputs: mostly legal, one in ten drawn from
    every type; stops early when the game ends."""
    rng = random.Random(seed)
    table, _ = full_table(CONFIGS[config_index], seed)
    rigged_deal = 0
    for _ in range(steps):
        if table.finished:
            return
        yield table
        rnd = table.round
        if rnd.phase == "w_for_ready" and rigged_deal != table.s.deal_count and not any(rnd.ready):
            rigged_deal = table.s.deal_count
            if table.rules["poverty"] != "None" and rng.random() < 0.5:
                rig_poor_hand(table, rng)
        seat = rng.randrange(4)
        legal = table.legal_actions(seat)
        if legal and rng.random() < 0.9:
            # say solo_no most of the time, so that poverty and wedding questions follow
            healthy = isinstance(legal[0], AnswerSolo) and rng.random() < 0.7
            table.apply(seat, legal[0] if healthy else rng.choice(legal))
            continue
        with contextlib.suppress(RuleError):
            table.apply(seat, wild(table, rng))
    if not table.finished:
        yield table


def walked(config_index: int, seed: int, steps: int) -> DoppelkopfTable | None:
    """The table after the walk, or None when the game ended on the way."""
    last = None
    for table in walk(config_index, seed, steps):
        last = table
    return None if last is None or last.finished else last


def wild(table: DoppelkopfTable, rng: random.Random) -> Action:
    """Any action at all, with arguments from the current deal (or just outside it)."""
    kind = rng.choice(ACTION_CLASSES)
    return ARGUMENTS[kind](table, lambda options: rng.choice(list(options)))


Pick = Callable[[typing.Sequence[Any]], Any]


def _ids(table: DoppelkopfTable) -> list[str]:
    return [*table.round.values, "0" * 32]


def _three(table: DoppelkopfTable, pick: Pick) -> tuple[str, ...]:
    rnd = table.round
    own = rnd.hands[pick(range(4))]
    pool = own if own and pick([True, False]) else _ids(table)
    return tuple(pick(pool) for _ in range(pick([2, 3, 3, 3, 4])))


def _literal(action: type[Action], field: str) -> tuple[Any, ...]:
    return typing.get_args(typing.get_type_hints(action)[field])


ARGUMENTS: dict[type[Action], Callable[[DoppelkopfTable, Pick], Action]] = {
    Ready: lambda t, p: Ready(),
    Throw: lambda t, p: Throw(),
    Answer: lambda t, p: Answer(
        p([*_literal(Answer, "question"), "solo", "poverty_accept"]), p([True, False])
    ),
    AnswerSolo: lambda t, p: AnswerSolo(p([None, *SOLO_ORDER, "normal"])),
    PassCards: lambda t, p: PassCards(_three(t, p)),
    PovertyAccept: lambda t, p: PovertyAccept(),
    PovertyDecline: lambda t, p: PovertyDecline(),
    ReturnCards: lambda t, p: ReturnCards(_three(t, p)),
    PovertyReturn: lambda t, p: PovertyReturn(p(range(-1, 5))),
    WeddingClarification: lambda t, p: WeddingClarification(
        p([*_literal(WeddingClarification, "trick"), "x"])
    ),
    BlackSowSolo: lambda t, p: BlackSowSolo(p([*SOLO_ORDER, "wedding"])),
    PlayCard: lambda t, p: PlayCard(p(_ids(t))),
    Announce: lambda t, p: Announce(p([*_literal(Announce, "kind"), "no120"])),
    CallPigs: lambda t, p: CallPigs(p([True, False])),
    Accuse: lambda t, p: Accuse(p(range(-1, 5)), p([*_literal(Accuse, "kind"), "cheating"])),
    PickMove: lambda t, p: PickMove(p(range(-1, len(t.round.moves) + 2))),
    CancelAccusation: lambda t, p: CancelAccusation(),
    AccusationVote: lambda t, p: AccusationVote(p([True, False])),
    Vote: lambda t, p: Vote(p([*_literal(Vote, "kind"), "resign"]), p([True, False])),
}
"""How to draw each action type's arguments: legal values, and values no client should send."""


def test_every_action_type_has_arguments() -> None:
    assert set(ARGUMENTS) == set(ACTION_CLASSES)


@pytest.mark.parametrize("action_type", ACTION_CLASSES, ids=lambda t: t.__name__)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    config_index=st.integers(0, len(CONFIGS) - 1),
    seed=st.integers(0, 2**16),
    steps=st.integers(0, 160),
    seat=st.integers(-1, 4),
    data=st.data(),
)
def test_a_refused_action_changes_nothing(
    action_type: type[Action], config_index: int, seed: int, steps: int, seat: int, data: st.DataObject
) -> None:
    table = walked(config_index, seed, steps)
    if table is None:
        return
    action = ARGUMENTS[action_type](table, lambda options: data.draw(st.sampled_from(list(options))))
    before = copy.deepcopy(table.s)
    try:
        table.apply(seat, action)
    except RuleError:
        assert table.s == before, f"{action!r} from seat {seat} was refused but changed the state"


def test_refusals_reach_every_action_type_in_every_phase() -> None:
    """The property above is not vacuous: along seeded walks, at every sixth step, every
    action type is tried on a copy of the table; each type is refused many times, and the
    refusals happen in every phase (complaints, poverty and wedding questions included)."""
    refused = dict.fromkeys(ACTION_CLASSES, 0)
    phases: set[str] = set()
    for seed in range(18):
        for step, table in enumerate(walk(seed % len(CONFIGS), seed, 200)):
            if step % 6:
                continue
            rnd = table.round
            phases.add("complaint" if rnd.complaint else rnd.question.kind if rnd.question else rnd.phase)
            rng = random.Random(step)
            pick: Pick = lambda options, rng=rng: rng.choice(list(options))  # noqa: E731
            for action_type in ACTION_CLASSES:
                trial = pickle.loads(pickle.dumps(table))
                action = ARGUMENTS[action_type](trial, pick)
                try:
                    trial.apply(rng.randrange(4), action)
                except RuleError:
                    refused[action_type] += 1
                    assert trial.s == table.s, action
    assert min(refused.values()) >= 40, refused
    expected = {"w_for_ready", "reservation", "solo", "poverty_accept", "tricks", "complaint", "end"}
    assert expected <= phases, phases


def test_state_equality_sees_a_change() -> None:
    """The comparison the tests rely on notices an accepted action's change."""
    table, _ = full_table({}, 3)
    before = copy.deepcopy(table.s)
    table.apply(0, Ready())
    assert table.s != before


def test_a_timer_never_meets_a_refusal() -> None:
    """Timeouts run without a rollback copy too: at every fourth step of seeded walks, the
    pending timer's default moves (on a copy of the table) are all accepted."""
    fired = 0
    for seed in range(12):
        for step, table in enumerate(walk(seed % len(CONFIGS), seed, 200)):
            timers = table.pending_timers()
            if step % 4 or not timers:
                continue
            trial = pickle.loads(pickle.dumps(table))
            trial.on_timeout(timers[0].key)  # a RuleError here fails the test
            fired += 1
    assert fired > 100

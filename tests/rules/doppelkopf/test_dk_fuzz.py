"""Any action from any seat at any time: a RuleError or a consistent state, never a crash."""

from __future__ import annotations

import pickle
import random

import pytest
from dk_helpers import full_table

from gamehall.rules._core import Action, RuleError
from gamehall.rules.doppelkopf.actions import (
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


def noise(table: DoppelkopfTable, rng: random.Random) -> Action:
    rnd = table.round
    ids = list(rnd.values)
    three = tuple(rng.sample(ids, 3))
    return rng.choice(
        [
            Ready(),
            Throw(),
            Answer(
                rng.choice(["reservation", "throw", "pigs", "superpigs", "poverty", "wedding"]),
                rng.random() < 0.5,
            ),  # type: ignore[arg-type]
            AnswerSolo(rng.choice([None, *SOLO_ORDER])),
            PassCards(three),
            ReturnCards(three),
            PovertyAccept(),
            PovertyDecline(),
            PovertyReturn(rng.randrange(4)),
            WeddingClarification("trump"),
            BlackSowSolo(rng.choice(SOLO_ORDER)),
            PlayCard(rng.choice(ids)),
            Announce(rng.choice(["re", "kontra", "no90", "no60", "no30", "black"])),  # type: ignore[arg-type]
            CallPigs(rng.random() < 0.5),
            Accuse(rng.randrange(4), rng.choice(["wrong_card", "external"])),
            PickMove(rng.randrange(len(rnd.moves) + 1)),
            CancelAccusation(),
            AccusationVote(rng.random() < 0.5),
            Vote(rng.choice(["continue", "end", "cancel"]), rng.random() < 0.3),  # type: ignore[arg-type]
        ]
    )


def cards_in_play(table: DoppelkopfTable) -> int:
    rnd = table.round
    held = sum(len(h) for h in rnd.hands)
    on_table = sum(1 for c in (rnd.trick.cards if rnd.trick else []) if c is not None)
    taken = sum(1 for t in rnd.tricks for c in t.cards if c is not None)
    in_transit = (
        len(rnd.poverty.passed) if rnd.poverty and rnd.poverty.taker is None and rnd.poverty.passed else 0
    )
    return held + on_table + taken + in_transit


@pytest.mark.parametrize("seed", range(12))
def test_random_inputs_never_break_the_table(seed: int) -> None:
    rng = random.Random(seed)
    penalize = {"misplay": "penalize", "poverty": "circulate", "pigs": "two_on_play"}
    config = penalize if seed % 2 else {}
    table, _ = full_table(config, seed)
    for _ in range(400):
        if table.finished:
            break
        seat = rng.randrange(4)
        legal = table.legal_actions(seat)
        action = rng.choice(legal) if legal and rng.random() < 0.7 else noise(table, rng)
        before = pickle.loads(pickle.dumps(table.s))
        try:
            table.apply(seat, action)
        except RuleError:
            assert table.s == before
        assert cards_in_play(table) == len(table.round.values)


@pytest.mark.parametrize("seed", range(3))
def test_refused_trick_moves_change_nothing(seed: int) -> None:
    """Cards, announcements and pig calls run without a rollback copy (checked first): at every
    step of random games, every refused one of them leaves the state exactly as it was."""
    rng = random.Random(seed)
    config = [{}, {"misplay": "penalize"}, {"pigs": "two_on_play", "superpigs": "on_play"}][seed % 3]
    table, _ = full_table(config, seed)
    refused = 0
    for _ in range(150):
        if table.finished or table.round.phase == "end":
            break
        rnd = table.round
        tries: list[tuple[int, Action]] = [(s, PlayCard(c)) for s in range(4) for c in rnd.hands[s]]
        tries += [
            (s, Announce(k)) for s in range(4) for k in ("re", "kontra", "no90", "no60", "no30", "black")
        ]  # type: ignore[arg-type]
        tries += [(s, CallPigs(sp)) for s in range(4) for sp in (False, True)]
        for seat, action in rng.sample(tries, 4):
            if action in table.legal_actions(seat):
                continue
            before = pickle.loads(pickle.dumps(table.s))
            try:
                table.apply(seat, action)
            except RuleError:
                refused += 1
                assert table.s == before, action
        seat = rng.choice(sorted(table.to_move().seats))
        table.apply(seat, rng.choice(table.legal_actions(seat)))
    assert refused > 30

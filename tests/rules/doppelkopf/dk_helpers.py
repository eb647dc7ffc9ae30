"""Shared helpers for the Doppelkopf rule tests: tables, rigged deals and seeded random play."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Mapping, Sequence
from typing import Any

from gamehall.rules._core import Action, Event, RuleError
from gamehall.rules.doppelkopf.actions import Accuse, Answer, PlayCard, Ready, Vote
from gamehall.rules.doppelkopf.cards import deck_values
from gamehall.rules.doppelkopf.engine import DoppelkopfTable
from gamehall.rules.doppelkopf.state import RoundState


def full_table(config: Mapping[str, Any] | None = None, seed: int = 1) -> tuple[DoppelkopfTable, list[Event]]:
    """A started table with four seats (A, B, C, D = seats 0..3)."""
    table = DoppelkopfTable(dict(config or {}), seed)
    events: list[Event] = []
    for name in "ABCD":
        _, joined = table.seat_join(name)
        events += joined
    return table, events


def rig(table: DoppelkopfTable, hands: Sequence[Sequence[str]]) -> None:
    """Replace the current deal's hands by these values (by seat), keeping fresh ids."""
    rnd = table.round
    values: dict[str, str] = {}
    new_hands: list[list[str]] = []
    for seat, hand in enumerate(hands):
        ids = [f"{seat:02d}{i:02d}" + "0" * 28 for i in range(len(hand))]
        values.update(zip(ids, hand, strict=True))
        new_hands.append(ids)
    rnd.values = values
    rnd.hands = new_hands
    rnd.dealt = [list(h) for h in new_hands]
    rnd.stack = [c for h in new_hands for c in h]
    rnd.tricks_total = len(hands[0])


def card(table: DoppelkopfTable, seat: int, value: str) -> str:
    """The id of a card of ``value`` in ``seat``'s hand."""
    rnd = table.round
    return next(c for c in rnd.hands[seat] if rnd.values[c] == value)


def play(table: DoppelkopfTable, seat: int, value: str) -> list[Event]:
    return table.apply(seat, PlayCard(card(table, seat, value)))


def all_ready(table: DoppelkopfTable) -> list[Event]:
    events: list[Event] = []
    for seat in range(4):
        events += table.apply(seat, Ready())
    return events


def all_healthy(table: DoppelkopfTable) -> list[Event]:
    """Everyone ready, everyone ``reservation_no``: a normal game starts."""
    events = all_ready(table)
    for seat in list(table.round.player_list):
        events += table.apply(seat, Answer("reservation", False))
    return events


def play_tricks(table: DoppelkopfTable, tricks: Sequence[Sequence[str]]) -> list[Event]:
    """Play tricks given as values in play order from whoever is due."""
    events: list[Event] = []
    for trick in tricks:
        for value in trick:
            seat = next(iter(table.to_move().seats))
            events += play(table, seat, value)
    return events


def random_game(seed: int, config: Mapping[str, Any] | None = None, max_rounds: int = 3) -> DoppelkopfTable:
    """Play random legal actions (seeded) until the table ends or ``max_rounds`` deals end."""
    chooser = random.Random(seed)
    table, _ = full_table(config, seed)
    for _ in range(5000):
        if table.finished:
            return table
        rnd = table.s.round
        assert rnd is not None
        if rnd.phase == "end":
            vote = "end" if rnd.number >= max_rounds else "continue"
            for seat in range(4):
                if not table.finished and table.round.phase == "end":
                    table.apply(seat, Vote(vote, True))  # type: ignore[arg-type]
            continue
        if table.rules["misplay"] == "penalize" and chooser.random() < 0.03:
            accuser = chooser.randrange(4)
            kind = chooser.choice(["wrong_card", "wrong_announcement", "played_early", "external"])
            with contextlib.suppress(RuleError):
                table.apply(accuser, Accuse((accuser + chooser.randrange(1, 4)) % 4, kind))
            continue
        movers = sorted(table.to_move().seats)
        seat = chooser.choice(movers)
        actions: list[Action] = table.legal_actions(seat)
        assert actions, f"seat {seat} must act but has no legal action"
        table.apply(seat, chooser.choice(actions))
    raise AssertionError("game did not finish")


def round_state(table: DoppelkopfTable) -> RoundState:
    return table.round


def hands_with(fixed: Mapping[int, Sequence[str]], size: int = 12) -> list[list[str]]:
    """Four hands of ``size`` cards: the ``fixed`` values first, the rest from a full deck."""
    rest = deck_values("with_all", "None")
    hands: list[list[str]] = [list(fixed.get(seat, [])) for seat in range(4)]
    for hand in hands:
        for value in hand:
            rest.remove(value)
    for hand in hands:
        while len(hand) < size:
            hand.append(rest.pop(0))
    return hands


def types_of(events: Sequence[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


def find(events: Sequence[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]

"""Ursuppe bot policies for bots seated inside the hall: "random" (any legal answer) and
"heuristic" (eats well, buys sensible genes, divides where the food is).

The engine's view does not carry the details of the pending request (which amoeba, the dice
rolled), so these policies decide on the table itself: :meth:`UrsuppePolicy.decide_table`
reads the table's ``legal_actions`` (every answer the request accepts now) and the state;
gene purchases and phase-4 divisions are built step by step (:mod:`.judgement`) rather than
listed, since the listing explodes with many BP.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from gamehall.bots.ursuppe.judgement import best_meal, choose_division, choose_purchase, food_at
from gamehall.rules._core import Action, Seat
from gamehall.rules.ursuppe import actions as act
from gamehall.rules.ursuppe import events as ev
from gamehall.rules.ursuppe.engine import UrsuppeTable
from gamehall.rules.ursuppe.state import TableState

POLICIES = ("random", "heuristic")


class UrsuppePolicy:
    """One of :data:`POLICIES`."""

    def __init__(self, name: str = "random") -> None:
        if name not in POLICIES:
            raise ValueError(f"unknown Ursuppe policy {name!r}")
        self.name = name

    @property
    def heuristic(self) -> bool:
        return self.name == "heuristic"

    def decide(self, view: Mapping[str, Any], seat: Seat, rng: random.Random) -> Action | None:
        """The view alone does not say which amoeba is asked: hall bots call
        :meth:`decide_table`; from a view only the ready answer is certain."""
        return act.Bereit() if view.get("my_request") == "ZUG_BEREIT" else None

    def decide_table(self, table: UrsuppeTable, seat: Seat, rng: random.Random) -> Action | None:
        """The answer of ``seat`` to its pending request, or ``None`` if none is pending."""
        to_move = table.to_move()
        if seat not in to_move.seats:
            return None
        g = table.state
        prompts = table.resync(seat)
        prompt = prompts[0] if prompts else None
        if to_move.kind == "ZUG_GEN_KAUFEN":
            return choose_purchase(g, seat, rng, heuristic=self.heuristic)
        if isinstance(prompt, ev.ZugAmoebeSetzen) and not prompt.aufbau:
            return choose_division(g, seat, rng, heuristic=self.heuristic)
        legal = table.legal_actions(seat)
        if not legal:
            return table.default_action(seat)
        if not self.heuristic:
            return _random_answer(legal, rng)
        return _heuristic_answer(table, g, seat, legal, rng)


def _random_answer(legal: list[Action], rng: random.Random) -> Action:
    """Any legal answer; pre-commands (roll, tentacle, parasitism) less often, so a turn ends."""
    answers = [a for a in legal if not isinstance(a, (act.Wuerfeln, act.Tentakel, act.Parasitismus))]
    if answers and (len(answers) == len(legal) or rng.random() < 0.7):
        return rng.choice(answers)
    return rng.choice(legal)


def _heuristic_answer(
    table: UrsuppeTable, g: TableState, seat: Seat, legal: list[Action], rng: random.Random
) -> Action:
    first = legal[0]
    if isinstance(first, act.Position):
        return max(legal, key=lambda a: a.position if isinstance(a, act.Position) else -1)
    if isinstance(first, act.AmoebeSetzen):
        return max(
            (a for a in legal if isinstance(a, act.AmoebeSetzen)),
            key=lambda a: (food_at(g, seat, (a.x, a.y)), -a.amoebe),
        )
    moves = [a for a in legal if isinstance(a, (act.Bewegen, act.Flucht))]
    if moves:
        return _move(g, seat, legal, moves)
    meals = [a for a in legal if isinstance(a, act.Fressen)]
    if meals:
        return _eat(g, seat, legal, meals)
    if any(isinstance(a, act.Verteidigung) for a in legal) and g.seats[seat].bp >= 1:
        return next(a for a in legal if isinstance(a, act.Verteidigung))
    attacks = [a for a in legal if isinstance(a, act.Aggression)]
    if attacks and g.seats[seat].bp >= 3:
        return attacks[0]
    declines = [
        a
        for a in legal
        if isinstance(a, (act.NichtKlammern, act.KeineFlucht, act.KeineVerteidigung, act.KeineAggression))
    ]
    if declines:
        return declines[0]
    default = table.default_action(seat)
    return default if default is not None else rng.choice(legal)


def _amoeba_of(g: TableState, seat: Seat, number: int) -> Any:
    return g.amoebas.get((seat, number))


def _move(g: TableState, seat: Seat, legal: list[Action], moves: Sequence[Action]) -> Action:
    """Move where the food is; roll (if allowed and affordable) when the drift leads nowhere
    good; skip the second step when the field is good enough."""
    number = getattr(moves[0], "amoebe", 0)
    amoeba = _amoeba_of(g, seat, number)
    if amoeba is None:
        return moves[0]

    def value(a: Action) -> int:
        target = g.board.target(amoeba.feld, getattr(a, "richtung", 5)) or amoeba.feld
        return food_at(g, seat, target)

    best = max(moves, key=value)
    here = food_at(g, seat, amoeba.feld)
    skip = next((a for a in legal if isinstance(a, act.KeineZweiteBewegung)), None)
    if skip is not None and value(best) <= here:
        return skip
    roll = next((a for a in legal if isinstance(a, act.Wuerfeln)), None)
    if roll is not None and value(best) < 20 and g.seats[seat].bp >= 3:
        return roll
    return best


def _eat(g: TableState, seat: Seat, legal: list[Action], meals: Sequence[Action]) -> Action:
    options = [a.naehrstoffe for a in meals if isinstance(a, act.Fressen) and sum(a.naehrstoffe) > 0]
    if options:
        amoeba = _amoeba_of(g, seat, getattr(meals[0], "amoebe", 0))
        chosen = best_meal(g, amoeba, options) if amoeba is not None else options[0]
        return act.Fressen(getattr(meals[0], "amoebe", 0), chosen)
    struggle = next((a for a in legal if isinstance(a, act.Ueberlebenskampf)), None)
    if struggle is not None and g.seats[seat].bp >= 1:
        return struggle
    return meals[0]

"""Ursuppe bot policies for bots seated inside the hall: "random" (any legal answer) and
"heuristic" (eats well, buys sensible genes, divides where the food is).

A policy decides from the seat's view alone, like any player: the view's ``request`` lists
the answers the rules accept now (after a roll, only what the dice allow) and the timeout
move, and the rest of the view is rebuilt into a table state (:mod:`.seen`) for the
judgement of fields and meals. Gene purchases and phase-4 divisions are not listed in the
view (the listing explodes with many BP); they are built step by step on the rebuilt state
(:mod:`.judgement`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from gamehall.bots.ursuppe.judgement import best_meal, choose_division, choose_purchase, food_at
from gamehall.bots.ursuppe.seen import state_from_view
from gamehall.rules._core import Action, Seat
from gamehall.rules.ursuppe import actions as act
from gamehall.rules.ursuppe.actions import ACTIONS
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
        """The answer of ``seat`` to the request its view shows, or ``None`` if none is
        pending."""
        request = view.get("request")
        if not request:
            return None
        g = state_from_view(view)
        prompt = request["prompt"]
        if request["kind"] == "ZUG_GEN_KAUFEN":
            return choose_purchase(g, seat, rng, heuristic=self.heuristic)
        if request["kind"] == "ZUG_AMOEBE_SETZEN" and not prompt.get("aufbau", True):
            return choose_division(g, seat, rng, heuristic=self.heuristic)
        default = ACTIONS.decode(request["default"])
        legal = [ACTIONS.decode(answer) for answer in request["answers"] or ()]
        if not legal:
            return default
        if not self.heuristic:
            return _random_answer(legal, rng)
        return _heuristic_answer(g, seat, legal, default)


def _random_answer(legal: list[Action], rng: random.Random) -> Action:
    """Any legal answer; pre-commands (roll, tentacle, parasitism) less often, so a turn ends."""
    answers = [a for a in legal if not isinstance(a, (act.Wuerfeln, act.Tentakel, act.Parasitismus))]
    if answers and (len(answers) == len(legal) or rng.random() < 0.7):
        return rng.choice(answers)
    return rng.choice(legal)


def _heuristic_answer(g: TableState, seat: Seat, legal: list[Action], default: Action) -> Action:
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
    return default


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

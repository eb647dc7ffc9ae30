"""Helpers for the Ursuppe rule tests: hand-built positions, a flow driver, scripted dice and
seeded random-legal games.

Rule cases build a :class:`TableState` by hand (seats, positions, amoebas, genes) and run one
flow of the rulebook on it through :class:`Driver`, which checks every action exactly like the
engine does before the flow sees it. Whole games go through the public table API.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable
from typing import Any

from gamehall.rules._core import Action, Event, Rng, RuleError
from gamehall.rules.ursuppe import new_game
from gamehall.rules.ursuppe.engine import UrsuppeTable
from gamehall.rules.ursuppe.errors import error_number
from gamehall.rules.ursuppe.flow import Flow, Request
from gamehall.rules.ursuppe.genes import Gene
from gamehall.rules.ursuppe.state import CUBES_PER_COLOUR, Amoeba, Player, TableState


class ScriptedRng(Rng):
    """An Rng whose dice (``between``) come from a list, so tests name every roll."""

    def __init__(self, rolls: Iterable[int]) -> None:
        super().__init__(0)
        self.rolls = list(rolls)

    def between(self, low: int, high: int) -> int:
        value = self.rolls.pop(0)
        assert low <= value <= high
        return value


def fresh_state(players: int = 3, **config: Any) -> TableState:
    """A table state with every seat taken, colour c on ladder space c, no amoebas yet and
    the deck in its listed order."""
    table = new_game({"players": players, "shuffle_deck": False, **config}, 1)
    g = table.state
    for farbe in range(players):
        g.seats[farbe] = Player(farbe, f"p{farbe}", position=farbe)
    return g


def put(g: TableState, farbe: int, nummer: int, feld: tuple[int, int], schaden: int = 0) -> Amoeba:
    amoeba = g.put_amoeba(farbe, nummer, feld)
    amoeba.schaden = schaden
    return amoeba


def give(g: TableState, farbe: int, *genes: Gene, bought_in: int = 0) -> None:
    for gene in genes:
        g.seats[farbe].genes[gene] = bought_in


class Driver:
    """Runs one flow like the engine: check, then send; collects the events."""

    def __init__(self, g: TableState, flow: Flow[Any]) -> None:
        self.g = g
        self.flow = flow
        self.result: Any = None
        self.request: Request | None = None
        self.events: list[Event] = []
        g.out = []
        self._advance(lambda: next(flow))

    def _advance(self, step: Any) -> None:
        try:
            request = step()
        except StopIteration as stop:
            self.result = stop.value
            self.request = None
        else:
            if request is not self.request:
                self.g.out += [request.prompt(seat) for seat in sorted(request.seats)]
            self.request = request
        self.events += self.g.out
        self.g.out = []

    def send(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action``; returns the events it caused. Raises the request's RuleError."""
        request = self.request
        assert request is not None, "the flow is over"
        if seat not in request.seats:
            raise AssertionError(f"seat {seat} is not asked by {request.kind}")
        if not isinstance(action, request.accepts):
            raise AssertionError(f"{action} does not answer {request.kind}")
        request.check(seat, action)
        before = len(self.events)
        self._advance(lambda: self.flow.send((seat, action)))
        return self.events[before:]

    def refused(self, seat: int, action: Action) -> int | None:
        """The seed error number ``action`` gets (the state must stay unchanged)."""
        assert self.request is not None and seat in self.request.seats
        try:
            self.request.check(seat, action)
        except RuleError as error:
            return error_number(error)
        return None

    @property
    def kind(self) -> str | None:
        return self.request.kind if self.request is not None else None


def kinds(events: Iterable[Event]) -> list[str]:
    return [type(event).__name__ for event in events]


def cube_totals(g: TableState) -> list[int]:
    return [g.supply[c] + sum(cubes[c] for cubes in g.cubes.values()) for c in g.colours]


def check_invariants(table: UrsuppeTable) -> None:
    """Cube conservation, BP never negative, at most 7 amoebas, unique ladder positions."""
    g = table.state
    assert cube_totals(g) == [CUBES_PER_COLOUR] * g.players
    assert all(count >= 0 for cubes in g.cubes.values() for count in cubes)
    assert all(p.bp >= 0 for p in g.seats.values())
    for farbe in g.colours:
        assert len(g.amoebas_of(farbe)) <= 7
    positions = [p.position for p in g.seats.values() if p.position >= 0]
    assert len(positions) == len(set(positions))
    for amoeba in g.amoebas.values():
        assert g.board.playable(amoeba.feld)


def seated_table(players: int, seed: int, **config: Any) -> UrsuppeTable:
    table = new_game({"players": players, "timeout_ms": 1000, **config}, seed)
    for i in range(players):
        table.seat_join(f"spielerin{i}")
    return table


def random_game(players: int, seed: int, *, invariants: bool = False, timeouts: float = 0.0) -> UrsuppeTable:
    """A whole game where every decision is a uniformly random legal action (choices from
    ``random.Random(seed)``); with ``timeouts`` that share of decisions is a fired timer."""
    table = seated_table(players, seed)
    chooser = random.Random(seed)
    while not table.finished:
        if timeouts and chooser.random() < timeouts:
            (timer,) = table.pending_timers()
            table.on_timeout(timer.key)
        else:
            seat = min(table.to_move().seats)
            table.apply(seat, chooser.choice(table.legal_actions(seat)))
        if invariants:
            check_invariants(table)
    return table


def replay(players: int, seed: int, actions: list[tuple[int, Action]]) -> UrsuppeTable:
    table = seated_table(players, seed)
    for seat, action in actions:
        table.apply(seat, action)
    return table


def random_prefix(players: int, seed: int, length: int) -> list[tuple[int, Action]]:
    """The first ``length`` actions of the seeded random game."""
    table = seated_table(players, seed)
    chooser = random.Random(seed)
    actions: list[tuple[int, Action]] = []
    while len(actions) < length and not table.finished:
        seat = min(table.to_move().seats)
        action = chooser.choice(table.legal_actions(seat))
        table.apply(seat, action)
        actions.append((seat, action))
    return actions


def perft(players: int, seed: int, prefix: list[tuple[int, Action]], depth: int) -> int:
    """Leaf count of the decision tree ``depth`` decisions deep below the position after
    ``prefix`` (each branch replays the game from the seed)."""
    table = replay(players, seed, prefix)
    if depth == 0 or table.finished:
        return 1
    seat = min(table.to_move().seats)
    return sum(perft(players, seed, [*prefix, (seat, a)], depth - 1) for a in table.legal_actions(seat))


class KeepOrderRng(ScriptedRng):
    """Scripted dice, and shuffles that keep the order (start order = colour order)."""

    def shuffle(self, items: list[Any]) -> None:
        return None


def line(event: Event) -> str:
    """An event as one readable line, close to its UrServer form: ``@seat`` for a request,
    then the class name and the field values (vectors joined by ``:``, pairs by ``,``)."""
    values = []
    for f in dataclasses.fields(event):
        if f.name == "audience":
            continue
        value = getattr(event, f.name)
        if isinstance(value, tuple):
            parts = [",".join(map(str, v)) if isinstance(v, tuple) else str(int(v)) for v in value]
            value = ":".join(parts) or "-"
        values.append(str(value))
    who = "" if event.audience is None else "@" + ",".join(map(str, sorted(event.audience))) + " "
    return who + " ".join([type(event).__name__, *values])

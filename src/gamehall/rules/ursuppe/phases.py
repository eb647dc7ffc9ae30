"""The game from start to end, in the rulebook's order (note 6.1 and 6.2).

Setup: everyone confirms readiness, the players choose start spaces in a random order, then
place a first amoeba (ascending ladder order) and a second one (descending). Each round has
six phases: 1 move and eat (ascending order), 2 environment and gene defects, 3 buy genes,
4 cell division, 5 deaths, 6 scoring (all descending). The flows of each phase live in their
own modules; this one holds the order, phase 1's feeding request and phase 5.
"""

from __future__ import annotations

from gamehall.rules._core import Action, Seat
from gamehall.rules.ursuppe import events as ev
from gamehall.rules.ursuppe.actions import (
    Aggression,
    Bereit,
    Fressen,
    KeineAggression,
    Parasitismus,
    Position,
    Ueberlebenskampf,
)
from gamehall.rules.ursuppe.combat import (
    DEATH_RELEASE,
    aggression_targets,
    attack,
    check_aggression,
    check_struggle,
    struggle_targets,
)
from gamehall.rules.ursuppe.division import cell_division, place_first_amoebas
from gamehall.rules.ursuppe.errors import fehler
from gamehall.rules.ursuppe.feeding import (
    Meal,
    check_meal,
    check_parasitism,
    eat,
    legal_meals,
    parasitism_victims,
)
from gamehall.rules.ursuppe.flow import Flow, Request
from gamehall.rules.ursuppe.genes import Gene
from gamehall.rules.ursuppe.genetics import buying, environment_and_defects
from gamehall.rules.ursuppe.movement import move_amoeba
from gamehall.rules.ursuppe.scoring import game_over, score
from gamehall.rules.ursuppe.state import Amoeba, TableState


def play(g: TableState) -> Flow[None]:
    """The whole game after ``SPIEL_BEGINNT``."""
    yield from setup(g)
    while True:
        g.round += 1
        g.fled.clear()
        g.defended.clear()
        g.out.append(ev.Runde(nummer=g.round))
        yield from move_and_eat(g)
        yield from environment_and_defects(g)
        yield from buying(g)
        yield from cell_division(g)
        yield from deaths(g)
        score(g)
        if game_over(g):
            g.phase = "beendet"
            g.out.append(ev.SpielBeendet())
            return


# -- setup -------------------------------------------------------------------------------------


def setup(g: TableState) -> Flow[None]:
    g.phase = "bereit"
    ready = Request(
        kind="ZUG_BEREIT",
        seats=set(g.colours),
        prompt=lambda seat: ev.ZugBereit(audience=frozenset({seat})),
        accepts=(Bereit,),
        check=lambda seat, action: None,
        default=lambda seat: Bereit(),
        legal=lambda seat: [Bereit()],
        timeout_factor=3,
    )
    while ready.seats:
        seat, _ = yield ready
        ready.seats.discard(seat)
        g.out.append(ev.Bereit(farbe=seat))
    g.phase = "startposition"
    start_order = list(g.colours)
    g.rng.shuffle(start_order)
    for farbe in start_order:
        _, action = yield position_request(g, farbe)
        assert isinstance(action, Position)
        g.seats[farbe].position = action.position
        g.out.append(ev.Position(farbe=farbe, position=action.position))
    g.phase = "aufbau"
    yield from place_first_amoebas(g)


def position_request(g: TableState, farbe: int) -> Request:
    def taken() -> tuple[bool, ...]:
        positions = {p.position for p in g.seats.values()}
        return tuple(p in positions for p in g.colours)

    def check(seat: Seat, action: Action) -> None:
        assert isinstance(action, Position)
        if action.position not in g.colours or taken()[action.position]:
            raise fehler(22, f"Start space {action.position} is not free.")

    def free() -> list[int]:
        return [p for p, is_taken in enumerate(taken()) if not is_taken]

    return Request(
        kind="ZUG_POSITION",
        seats={farbe},
        prompt=lambda seat: ev.ZugPosition(belegt=taken(), audience=frozenset({seat})),
        accepts=(Position,),
        check=check,
        default=lambda seat: Position(free()[0]),
        legal=lambda seat: [Position(p) for p in free()],
    )


# -- phase 1 -------------------------------------------------------------------------------------


def move_and_eat(g: TableState) -> Flow[None]:
    """Phase 1: ascending order; each amoeba on the board (number order) moves, then eats.
    Amoebas killed earlier in the phase are skipped."""
    g.phase = "bewegen_und_fressen"
    for farbe in g.ascending():
        for amoeba in g.amoebas_of(farbe):
            if not g.alive(amoeba):
                continue
            yield from move_amoeba(g, amoeba)
            yield from feed_amoeba(g, amoeba)


def feed_request(g: TableState, meal: Meal) -> Request:
    """``ZUG_FRESSEN``: pre-command PARASITISMUS, answer FRESSEN or UEBERLEBENSKAMPF."""
    amoeba = meal.amoeba

    def check(seat: Seat, action: Action) -> None:
        if isinstance(action, Parasitismus):
            check_parasitism(g, meal, action.amoebe, action.gegen_farbe)
        elif isinstance(action, Fressen):
            check_meal(g, meal, action.amoebe, action.naehrstoffe)
        elif isinstance(action, Ueberlebenskampf):
            check_struggle(g, amoeba, action.amoebe, action.fremde_farbe, action.fremde_amoebe)

    def legal(seat: Seat) -> list[Action]:
        actions: list[Action] = []
        if meal.victim is None:
            actions += [Parasitismus(amoeba.nummer, victim) for victim in parasitism_victims(g, meal)]
        actions += [Fressen(amoeba.nummer, v) for v in legal_meals(g, meal)]
        actions += [Ueberlebenskampf(amoeba.nummer, *victim.ident) for victim in struggle_targets(g, amoeba)]
        return actions

    return Request(
        kind="ZUG_FRESSEN",
        seats={amoeba.farbe},
        prompt=lambda seat: ev.ZugFressen(amoebe=amoeba.nummer, audience=frozenset({seat})),
        accepts=(Parasitismus, Fressen, Ueberlebenskampf),
        check=check,
        default=lambda seat: Fressen(amoeba.nummer, legal_meals(g, meal)[0]),
        legal=legal,
    )


def feed_amoeba(g: TableState, amoeba: Amoeba) -> Flow[None]:
    meal = Meal(amoeba)
    request = feed_request(g, meal)
    while True:
        _, action = yield request
        if isinstance(action, Parasitismus):
            meal.victim = action.gegen_farbe
        elif isinstance(action, Fressen):
            eat(g, meal, action.naehrstoffe)
            return
        elif isinstance(action, Ueberlebenskampf):
            victim = g.amoebas[(action.fremde_farbe, action.fremde_amoebe)]
            yield from attack(g, amoeba, victim, phase=1)
            return


# -- phase 5 -------------------------------------------------------------------------------------


def deaths(g: TableState) -> Flow[None]:
    """Phase 5: natural deaths (descending order, amoebas in number order), then each
    AGGRESSION owner may attack once."""
    g.phase = "todesfaelle"
    order = g.descending()
    for farbe in order:
        for amoeba in g.amoebas_of(farbe):
            if amoeba.schaden >= g.death_threshold(farbe):
                g.remove(amoeba, DEATH_RELEASE)
    for farbe in order:
        if Gene.AGGRESSION not in g.seats[farbe].genes:
            continue
        _, action = yield aggression_request(g, farbe)
        if isinstance(action, Aggression):
            attacker = g.amoebas[(farbe, action.amoebe)]
            victim = g.amoebas[(action.gegen_farbe, action.gegen_amoebe)]
            g.out.append(
                ev.Aggression(
                    farbe=farbe, amoebe=attacker.nummer, gegnerin=victim.farbe, gegen_amoebe=victim.nummer
                )
            )
            yield from attack(g, attacker, victim, phase=5)


def aggression_request(g: TableState, farbe: int) -> Request:
    def check(seat: Seat, action: Action) -> None:
        if isinstance(action, Aggression):
            check_aggression(g, farbe, action.amoebe, action.gegen_farbe, action.gegen_amoebe)

    def legal(seat: Seat) -> list[Action]:
        attacks: list[Action] = [
            Aggression(attacker.nummer, victim.farbe, victim.nummer)
            for attacker, victim in aggression_targets(g, farbe)
        ]
        return [KeineAggression(), *attacks]

    return Request(
        kind="ZUG_AGGRESSION",
        seats={farbe},
        prompt=lambda seat: ev.ZugAggression(audience=frozenset({seat})),
        accepts=(Aggression, KeineAggression),
        check=check,
        default=lambda seat: KeineAggression(),
        legal=legal,
    )

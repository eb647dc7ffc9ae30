"""Attacks: Struggle for Survival (phase 1) and Aggression (phase 5), note 6.4.

The attacker pays 1 BP and the victim is named to all. A victim with a usable defence gene
(FLUCHT: flee with a rolled move; VERTEIDIGUNG: pay 1 BP and fight with dice) is asked with
``ZUG_ABWEHR``, again after an option failed while the other remains, and once more for a
second flight step if it has Speed. A fight is one die each, higher wins, ties re-rolled; a
loser with GEN_AUSDAUER re-rolls once per attack. The attack fails if the victim won a fight
or is no longer on the attacker's field, otherwise it succeeds: in phase 1 the victim dies
(1 cube per colour) and the attacker counts as fed; in phase 5 the victim dies (2 per colour),
or with PANZERUNG takes a damage point and dies only at its threshold. A failed Struggle
leaves the attacker starving (+1 damage point).
"""

from __future__ import annotations

from dataclasses import dataclass

from gamehall.rules._core import Action, Seat
from gamehall.rules.ursuppe import events as ev
from gamehall.rules.ursuppe.actions import Flucht, KeineFlucht, KeineVerteidigung, Verteidigung, Wuerfeln
from gamehall.rules.ursuppe.errors import fehler
from gamehall.rules.ursuppe.feeding import meal_fits
from gamehall.rules.ursuppe.flow import Flow, Request
from gamehall.rules.ursuppe.genes import Gene
from gamehall.rules.ursuppe.movement import (
    Step,
    allowed_directions,
    check_direction,
    check_roll,
    default_direction,
    execute_move,
    roll,
    roll_cost,
)
from gamehall.rules.ursuppe.state import Amoeba, TableState

STRUGGLE_RELEASE = 1
"""Cubes per colour a victim of Struggle leaves."""
DEATH_RELEASE = 2
"""Cubes per colour a natural death or an Aggression kill leaves."""

FLIGHT_ONLY, DEFENCE_ONLY, BOTH = 0, 1, 2
"""``wasDarfSieTun`` codes of ZUG_ABWEHR."""


# -- who may attack whom -------------------------------------------------------------------------


def target_amoeba(g: TableState, farbe: int, amoebe: int) -> Amoeba | None:
    return g.amoebas.get((farbe, amoebe)) if farbe in g.colours else None


def check_struggle(g: TableState, attacker: Amoeba, amoebe: int, farbe: int, nummer: int) -> None:
    """``UEBERLEBENSKAMPF amoebe farbe nummer`` (note 6.4 step 7)."""
    if not g.owns(attacker.farbe, Gene.UEBERLEBENSKAMPF):
        raise fehler(10, "UEBERLEBENSKAMPF is not yours.")
    if amoebe != attacker.nummer:
        raise fehler(1, f"Amoeba {amoebe} is not the one to feed.")
    if (farbe, nummer) == attacker.ident:
        raise fehler(31, "An amoeba cannot attack itself.")
    if farbe not in g.colours:
        raise fehler(22, "No such colour.")
    victim = target_amoeba(g, farbe, nummer)
    if victim is None or victim.feld != attacker.feld:
        raise fehler(2, "The victim is not on this field.")
    if farbe == attacker.farbe:
        raise fehler(22, "An amoeba does not attack its own colour.")
    if g.owns(farbe, Gene.PANZERUNG):
        raise fehler(31, "The victim is armored.")
    if meal_fits(g, attacker):
        raise fehler(31, "The amoeba does not have to starve.")
    if g.seats[attacker.farbe].bp < 1:
        raise fehler(18, "An attack costs 1 BP.")


def struggle_targets(g: TableState, attacker: Amoeba) -> list[Amoeba]:
    """Foreign, unarmored amoebas the starving ``attacker`` may attack (empty if it may not)."""
    if (
        not g.owns(attacker.farbe, Gene.UEBERLEBENSKAMPF)
        or g.seats[attacker.farbe].bp < 1
        or meal_fits(g, attacker)
    ):
        return []
    return [
        victim
        for victim in g.amoebas_at(attacker.feld)
        if victim.farbe != attacker.farbe and not g.owns(victim.farbe, Gene.PANZERUNG)
    ]


def check_aggression(g: TableState, farbe: int, amoebe: int, gegen_farbe: int, gegen_amoebe: int) -> None:
    """``AGGRESSION amoebe gegenFarbe gegenAmoebe`` (note 6.4 step 7)."""
    attacker = target_amoeba(g, farbe, amoebe)
    if attacker is None:
        raise fehler(2, f"Amoeba {amoebe} is not on the board.")
    if gegen_farbe == farbe or gegen_farbe not in g.colours:
        raise fehler(22, "The victim must be another colour in play.")
    victim = target_amoeba(g, gegen_farbe, gegen_amoebe)
    if victim is None or victim.feld != attacker.feld:
        raise fehler(2, "The victim is not on this field.")
    if g.seats[farbe].bp < 1:
        raise fehler(18, "An attack costs 1 BP.")


def aggression_targets(g: TableState, farbe: int) -> list[tuple[Amoeba, Amoeba]]:
    if g.seats[farbe].bp < 1:
        return []
    return [
        (attacker, victim)
        for attacker in g.amoebas_of(farbe)
        for victim in g.amoebas_at(attacker.feld)
        if victim.farbe != farbe
    ]


# -- the attack --------------------------------------------------------------------------------


@dataclass(slots=True)
class Defence:
    """What the victim of one attack still may do."""

    attacker: Amoeba
    victim: Amoeba
    flight_open: bool
    defence_open: bool
    second_flight: bool = False
    won: bool = False

    @property
    def on_field(self) -> bool:
        return self.victim.feld == self.attacker.feld


def can_flee(g: TableState, d: Defence) -> bool:
    if not d.flight_open:
        return False
    return d.second_flight or g.seats[d.victim.farbe].bp >= 1 or g.owns(d.victim.farbe, Gene.STROMLINIENFORM)


def can_defend(g: TableState, d: Defence) -> bool:
    return d.defence_open and d.on_field and g.seats[d.victim.farbe].bp >= 1


def attack(g: TableState, attacker: Amoeba, victim: Amoeba, phase: int) -> Flow[bool]:
    """Run one attack after the attacker's command was accepted; returns its success."""
    g.change_bp(attacker.farbe, -1)
    g.out.append(
        ev.AmoebeAngegriffen(
            angegriffene_farbe=victim.farbe,
            angegriffene_amoebe=victim.nummer,
            angreifende_farbe=attacker.farbe,
            angreifende_amoebe=attacker.nummer,
        )
    )
    d = Defence(
        attacker,
        victim,
        flight_open=g.owns(victim.farbe, Gene.FLUCHT) and victim.ident not in g.fled,
        defence_open=g.owns(victim.farbe, Gene.VERTEIDIGUNG) and victim.ident not in g.defended,
    )
    if can_flee(g, d) or can_defend(g, d):
        g.out.append(ev.Abwehr(farbe=victim.farbe, amoebe=victim.nummer))
        yield from defend(g, d)
    success = not d.won and g.alive(victim) and d.on_field
    if phase == 1:
        if success:
            g.remove(victim, STRUGGLE_RELEASE)
        else:
            g.damage(attacker)
    elif success:
        if g.owns(victim.farbe, Gene.PANZERUNG):
            g.damage(victim)
            if victim.schaden >= g.death_threshold(victim.farbe):
                g.remove(victim, DEATH_RELEASE)
        else:
            g.remove(victim, DEATH_RELEASE)
    return success


def defend(g: TableState, d: Defence) -> Flow[None]:
    """The ZUG_ABWEHR prompts of one attack, until the victim is safe or out of options."""
    while not d.won and (can_flee(g, d) or can_defend(g, d)):
        flee, fight = can_flee(g, d), can_defend(g, d)
        code = BOTH if flee and fight else FLIGHT_ONLY if flee else DEFENCE_ONLY
        step = Step(d.victim, number=2 if d.second_flight else 1, flight=True, free_roll=d.second_flight)
        request = defence_request(g, d, step, code)
        while True:
            _, action = yield request
            if isinstance(action, Wuerfeln):
                roll(g, step)
                continue
            if isinstance(action, Flucht):
                yield from execute_move(g, step, action.richtung, exclude=d.attacker)
                g.fled.add(d.victim.ident)
                if not d.second_flight and g.owns(d.victim.farbe, Gene.GESCHWINDIGKEIT):
                    d.second_flight = True
                else:
                    d.flight_open = d.second_flight = False
            elif isinstance(action, KeineFlucht):
                d.flight_open = d.second_flight = False
            elif isinstance(action, Verteidigung):
                g.change_bp(d.victim.farbe, -1)
                g.defended.add(d.victim.ident)
                d.defence_open = False
                d.won = fight_with_dice(g, d.attacker.farbe, d.victim.farbe)
                result = ev.VerteidigungErfolgreich if d.won else ev.VerteidigungErfolglos
                g.out.append(result(farbe=d.victim.farbe, amoebe=d.victim.nummer))
            elif isinstance(action, KeineVerteidigung):
                d.defence_open = False
                g.out.append(ev.VerteidigungErfolglos(farbe=d.victim.farbe, amoebe=d.victim.nummer))
            break


def fight_with_dice(g: TableState, attacker: int, victim: int) -> bool:
    """One die each, higher wins, ties re-rolled; a loser with GEN_AUSDAUER re-rolls the
    fight once per attack. Returns whether the victim won."""

    def roll_off() -> bool:
        while True:
            a, v = g.rng.between(1, 6), g.rng.between(1, 6)
            if a != v:
                return v > a

    victim_won = roll_off()
    persisted: set[int] = set()
    while True:
        loser = attacker if victim_won else victim
        if loser in persisted or not g.owns(loser, Gene.GEN_AUSDAUER):
            return victim_won
        persisted.add(loser)
        victim_won = roll_off()


def defence_request(g: TableState, d: Defence, step: Step, code: int) -> Request:
    """``ZUG_ABWEHR amoebe angreifendeFarbe angreifendeAmoebe code``."""
    victim = d.victim

    def flight_allowed() -> None:
        if not g.owns(victim.farbe, Gene.FLUCHT):
            raise fehler(10, "FLUCHT is not yours.")
        if code == DEFENCE_ONLY:
            if not d.flight_open:
                raise fehler(37, "The amoeba has already fled.")
            raise fehler(18, "Fleeing costs 1 BP.")

    def defence_allowed() -> None:
        if not g.owns(victim.farbe, Gene.VERTEIDIGUNG):
            raise fehler(10, "VERTEIDIGUNG is not yours.")
        if code == FLIGHT_ONLY:
            if not d.defence_open:
                raise fehler(38, "The amoeba has already defended itself.")
            if g.seats[victim.farbe].bp < 1:
                raise fehler(18, "Defending costs 1 BP.")
            raise fehler(22, "The amoeba has left the attacker's field.")
        if step.rolled:
            raise fehler(34, "After rolling the amoeba must flee.")

    def check(seat: Seat, action: Action) -> None:
        number = getattr(action, "amoebe", victim.nummer)
        if number != victim.nummer:
            raise fehler(1, f"Amoeba {number} is not the one attacked.")
        if isinstance(action, Wuerfeln):
            flight_allowed()
            check_roll(g, step)
        elif isinstance(action, Flucht):
            flight_allowed()
            check_direction(g, step, action.amoebe, action.richtung)
        elif isinstance(action, KeineFlucht):
            flight_allowed()
            if step.rolled:
                raise fehler(34, "After rolling the amoeba must flee.")
        elif isinstance(action, (Verteidigung, KeineVerteidigung)):
            defence_allowed()

    def default(seat: Seat) -> Action:
        if step.rolled:
            return Flucht(victim.nummer, default_direction(g, step))
        if code == DEFENCE_ONLY:
            return KeineVerteidigung(victim.nummer)
        return KeineFlucht(victim.nummer)

    def legal(seat: Seat) -> list[Action]:
        if step.rolled:
            return [Flucht(victim.nummer, r) for r in sorted(allowed_directions(g, step))]
        actions: list[Action] = []
        if code != DEFENCE_ONLY:
            if g.seats[victim.farbe].bp >= roll_cost(g, step):
                actions.append(Wuerfeln())
            actions.append(KeineFlucht(victim.nummer))
        if code != FLIGHT_ONLY:
            actions += [Verteidigung(victim.nummer), KeineVerteidigung(victim.nummer)]
        return actions

    attacker = d.attacker
    return Request(
        kind="ZUG_ABWEHR",
        seats={victim.farbe},
        prompt=lambda seat: ev.ZugAbwehr(
            amoebe=victim.nummer,
            angreifende_farbe=attacker.farbe,
            angreifende_amoebe=attacker.nummer,
            was_darf_sie_tun=code,
            audience=frozenset({seat}),
        ),
        accepts=(Wuerfeln, Flucht, KeineFlucht, Verteidigung, KeineVerteidigung),
        check=check,
        default=default,
        legal=legal,
    )

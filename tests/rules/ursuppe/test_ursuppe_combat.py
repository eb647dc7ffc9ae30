"""Attacks (note 6.4): Struggle for Survival in phase 1, Aggression in phase 5, and the
victim's answers (Escape, Defense with dice, Persistence, Armor); natural deaths (7.9)."""

from __future__ import annotations

from ursuppe_support import Driver, ScriptedRng, fresh_state, give, kinds, put

from gamehall.rules.ursuppe import events as ev
from gamehall.rules.ursuppe.actions import (
    Aggression,
    Flucht,
    KeineAggression,
    KeineFlucht,
    KeineVerteidigung,
    NichtKlammern,
    Ueberlebenskampf,
    Verteidigung,
    Wuerfeln,
)
from gamehall.rules.ursuppe.genes import Gene
from gamehall.rules.ursuppe.phases import deaths, feed_amoeba
from gamehall.rules.ursuppe.state import TableState


def _struggle(players: int = 3, rolls: list[int] | None = None):  # type: ignore[no-untyped-def]
    """Colour 0's amoeba 1 starves on (1,1) (no cubes there) next to colour 1's amoeba 2."""
    g = fresh_state(players)
    g.rng = ScriptedRng(rolls or [])
    g.cubes[(1, 1)] = [0] * players
    attacker = put(g, 0, 1, (1, 1))
    victim = put(g, 1, 2, (1, 1))
    give(g, 0, Gene.UEBERLEBENSKAMPF)
    return g, attacker, victim


def _attack(g: TableState, attacker):  # type: ignore[no-untyped-def]
    d = Driver(g, feed_amoeba(g, attacker))
    return d, d.send(0, Ueberlebenskampf(1, 1, 2))


def test_an_undefended_struggle_kills_and_leaves_one_cube_per_colour() -> None:
    g, attacker, _victim = _struggle()
    d, events = _attack(g, attacker)
    assert events == [
        ev.Biopunkte(farbe=0, differenz=-1),
        ev.AmoebeAngegriffen(
            angegriffene_farbe=1, angegriffene_amoebe=2, angreifende_farbe=0, angreifende_amoebe=1
        ),
        ev.AmoebeEntfernt(farbe=1, amoebe=2),
        ev.Naehrstoff(farbe=0, anzahl=1, x=1, y=1),
        ev.Naehrstoff(farbe=1, anzahl=1, x=1, y=1),
        ev.Naehrstoff(farbe=2, anzahl=1, x=1, y=1),
    ]
    assert (1, 2) not in g.amoebas and attacker.schaden == 0 and d.request is None


def test_struggle_refusals() -> None:
    g, attacker, _victim = _struggle()
    d = Driver(g, feed_amoeba(g, attacker))
    assert d.refused(0, Ueberlebenskampf(1, 0, 1)) == 31  # itself
    assert d.refused(0, Ueberlebenskampf(1, 1, 5)) == 2  # not on the board
    own = put(g, 0, 4, (1, 1))
    assert d.refused(0, Ueberlebenskampf(1, 0, own.nummer)) == 22
    give(g, 1, Gene.PANZERUNG)
    assert d.refused(0, Ueberlebenskampf(1, 1, 2)) == 31
    del g.seats[1].genes[Gene.PANZERUNG]
    g.seats[0].bp = 0
    assert d.refused(0, Ueberlebenskampf(1, 1, 2)) == 18
    g.seats[0].bp = 4
    g.cubes[(1, 1)] = [0, 2, 2]
    assert d.refused(0, Ueberlebenskampf(1, 1, 2)) == 31  # a meal is possible
    g.cubes[(1, 1)] = [0, 0, 0]
    del g.seats[0].genes[Gene.UEBERLEBENSKAMPF]
    assert d.refused(0, Ueberlebenskampf(1, 1, 2)) == 10
    give(g, 0, Gene.AGGRESSION)  # Aggression includes Struggle
    assert d.refused(0, Ueberlebenskampf(1, 1, 2)) is None


def test_a_won_defence_saves_the_victim_and_the_attacker_starves() -> None:
    g, attacker, victim = _struggle(rolls=[3, 3, 2, 5])  # a tie, then attacker 2 vs victim 5
    give(g, 1, Gene.VERTEIDIGUNG)
    d, events = _attack(g, attacker)
    assert kinds(events)[-2:] == ["Abwehr", "ZugAbwehr"]
    assert events[-1] == ev.ZugAbwehr(
        amoebe=2, angreifende_farbe=0, angreifende_amoebe=1, was_darf_sie_tun=1, audience=frozenset({1})
    )
    assert d.refused(1, KeineFlucht(2)) == 10
    events = d.send(1, Verteidigung(2))
    assert events == [
        ev.Biopunkte(farbe=1, differenz=-1),
        ev.VerteidigungErfolgreich(farbe=1, amoebe=2),
        ev.AmoebeSchaden(farbe=0, amoebe=1),
    ]
    assert g.alive(victim) and attacker.schaden == 1 and (1, 2) in g.defended


def test_a_lost_defence_kills_the_victim() -> None:
    g, attacker, _victim = _struggle(rolls=[6, 1])
    give(g, 1, Gene.VERTEIDIGUNG)
    d, _ = _attack(g, attacker)
    events = d.send(1, Verteidigung(2))
    assert kinds(events) == ["Biopunkte", "VerteidigungErfolglos", "AmoebeEntfernt", *["Naehrstoff"] * 3]


def test_persistence_re_rolls_a_lost_fight_once() -> None:
    g, attacker, _victim = _struggle(rolls=[6, 1, 2, 4])
    give(g, 1, Gene.VERTEIDIGUNG, Gene.GEN_AUSDAUER)
    d, _ = _attack(g, attacker)
    assert kinds(d.send(1, Verteidigung(2)))[1] == "VerteidigungErfolgreich"
    g, attacker, _victim = _struggle(rolls=[1, 6, 6, 1, 1, 6])  # both persist: three fights
    give(g, 1, Gene.VERTEIDIGUNG, Gene.GEN_AUSDAUER)
    give(g, 0, Gene.GEN_AUSDAUER)
    d, _ = _attack(g, attacker)
    assert kinds(d.send(1, Verteidigung(2)))[1] == "VerteidigungErfolgreich"
    assert g.rng.rolls == []  # type: ignore[attr-defined]


def test_declining_the_defence_loses() -> None:
    g, attacker, _victim = _struggle()
    give(g, 1, Gene.VERTEIDIGUNG)
    d, _ = _attack(g, attacker)
    assert kinds(d.send(1, KeineVerteidigung(2)))[:2] == ["VerteidigungErfolglos", "AmoebeEntfernt"]


def test_an_escape_moves_the_victim_away_and_the_attack_fails() -> None:
    g, attacker, victim = _struggle(rolls=[3, 1])
    give(g, 1, Gene.FLUCHT)
    d, events = _attack(g, attacker)
    assert events[-1].was_darf_sie_tun == 0  # type: ignore[attr-defined]
    assert d.refused(1, Flucht(2, 3)) == 20
    assert d.refused(1, Verteidigung(2)) == 10
    d.send(1, Wuerfeln())
    assert d.refused(1, KeineFlucht(2)) == 34
    events = d.send(1, Flucht(2, 3))
    assert events == [
        ev.Bewegung(farbe=1, amoebe=2, richtung=3, flucht=True),
        ev.AmoebeSchaden(farbe=0, amoebe=1),
    ]
    assert victim.feld == (2, 1) and g.seats[1].bp == 3


def test_escape_then_defence_when_the_flight_stays_put() -> None:
    g, attacker, victim = _struggle(rolls=[2, 2, 1, 5])
    g.cubes[(1, 0)] = [0, 0, 0]
    attacker.feld = victim.feld = (1, 0)  # north is the edge
    give(g, 1, Gene.FLUCHT, Gene.VERTEIDIGUNG)
    d, events = _attack(g, attacker)
    assert events[-1].was_darf_sie_tun == 2  # type: ignore[attr-defined]
    d.send(1, Wuerfeln())
    events = d.send(1, Flucht(2, 5))
    assert events[-1].was_darf_sie_tun == 1  # type: ignore[attr-defined]
    assert kinds(d.send(1, Verteidigung(2)))[:2] == ["Biopunkte", "VerteidigungErfolgreich"]


def test_speed_gives_the_victim_a_second_free_flight_step() -> None:
    g, attacker, victim = _struggle(rolls=[3, 3, 3, 3])
    give(g, 1, Gene.FLUCHT, Gene.GESCHWINDIGKEIT)
    d, _ = _attack(g, attacker)
    d.send(1, Wuerfeln())
    events = d.send(1, Flucht(2, 3))
    assert events[-1] == ev.ZugAbwehr(
        amoebe=2, angreifende_farbe=0, angreifende_amoebe=1, was_darf_sie_tun=0, audience=frozenset({1})
    )
    assert d.send(1, Wuerfeln()) == [ev.Wuerfel(farbe=1, wuerfel1=3, wuerfel2=3)]  # free
    d.send(1, Flucht(2, 3))
    assert victim.feld == (3, 1) and g.seats[1].bp == 3


def test_the_timeout_default_after_a_flight_roll_flees_with_the_first_die() -> None:
    g, attacker, _victim = _struggle(rolls=[6, 2])
    give(g, 1, Gene.FLUCHT)
    d, _ = _attack(g, attacker)
    assert d.request is not None and d.request.default(1) == KeineFlucht(2)
    d.send(1, Wuerfeln())
    assert d.request.default(1) == Flucht(2, 5)


# -- phase 5 -------------------------------------------------------------------------------------


def test_natural_deaths_leave_two_cubes_per_colour_and_life_expectancy_helps() -> None:
    g = fresh_state(4)
    dying = put(g, 0, 0, (1, 1), schaden=2)
    survivor = put(g, 1, 0, (2, 1), schaden=2)
    give(g, 1, Gene.LEBENSERWARTUNG)
    d = Driver(g, deaths(g))
    assert d.events == [
        ev.AmoebeEntfernt(farbe=0, amoebe=0),
        *[ev.Naehrstoff(farbe=c, anzahl=2, x=1, y=1) for c in range(4)],
    ]
    assert not g.alive(dying) and g.alive(survivor) and d.request is None
    assert g.cubes[(1, 1)] == [4, 4, 4, 4]


def test_aggression_is_asked_once_even_without_a_target() -> None:
    g = fresh_state(3)
    put(g, 0, 0, (1, 1))
    give(g, 0, Gene.AGGRESSION)
    d = Driver(g, deaths(g))
    assert d.events == [ev.ZugAggression(audience=frozenset({0}))]
    assert d.request is not None and d.request.legal(0) == [KeineAggression()]
    d.send(0, KeineAggression())
    assert d.request is None


def test_aggression_kills_a_foreign_amoeba_on_the_same_field() -> None:
    g = fresh_state(3)
    put(g, 0, 0, (1, 1))
    put(g, 1, 3, (1, 1))
    put(g, 2, 3, (2, 1))
    give(g, 0, Gene.AGGRESSION)
    d = Driver(g, deaths(g))
    assert d.refused(0, Aggression(0, 2, 3)) == 2
    assert d.refused(0, Aggression(0, 0, 0)) == 22
    assert d.refused(0, Aggression(5, 1, 3)) == 2
    events = d.send(0, Aggression(0, 1, 3))
    assert kinds(events) == [
        "Aggression",
        "Biopunkte",
        "AmoebeAngegriffen",
        "AmoebeEntfernt",
        *["Naehrstoff"] * 3,
    ]
    assert events[-1] == ev.Naehrstoff(farbe=2, anzahl=2, x=1, y=1)
    assert d.request is None  # once per round


def test_aggression_against_armor_gives_a_damage_point_and_kills_at_the_threshold() -> None:
    g = fresh_state(3)
    put(g, 0, 0, (1, 1))
    armored = put(g, 1, 3, (1, 1))
    give(g, 0, Gene.AGGRESSION)
    give(g, 1, Gene.PANZERUNG)
    d = Driver(g, deaths(g))
    assert kinds(d.send(0, Aggression(0, 1, 3)))[-1] == "AmoebeSchaden"
    assert armored.schaden == 1 and g.alive(armored)
    armored.schaden = 1
    d = Driver(g, deaths(g))
    events = d.send(0, Aggression(0, 1, 3))
    assert kinds(events)[3:5] == ["AmoebeSchaden", "AmoebeEntfernt"]


def test_the_attacker_is_not_asked_to_ride_along_with_its_fleeing_victim() -> None:
    g, attacker, _victim = _struggle(rolls=[3, 1])
    give(g, 1, Gene.FLUCHT)
    give(g, 0, Gene.KLAMMERN)
    give(g, 2, Gene.KLAMMERN)
    put(g, 2, 0, (1, 1))
    d, _ = _attack(g, attacker)
    d.send(1, Wuerfeln())
    events = d.send(1, Flucht(2, 3))
    assert events[-1].audience == frozenset({2})  # only the bystander is asked
    assert kinds(d.send(2, NichtKlammern(0, 1, 2))) == ["Bewegung", "AmoebeSchaden"]


def test_a_streamlined_victim_flees_without_bp() -> None:
    g, attacker, victim = _struggle(rolls=[3, 1])
    give(g, 1, Gene.FLUCHT, Gene.STROMLINIENFORM)
    g.seats[1].bp = 0
    d, _ = _attack(g, attacker)
    assert d.send(1, Wuerfeln()) == [ev.Wuerfel(farbe=1, wuerfel1=3, wuerfel2=1)]
    d.send(1, Flucht(2, 3))
    assert victim.feld == (2, 1)


def test_without_bp_the_victims_genes_do_not_help() -> None:
    g, attacker, victim = _struggle()
    give(g, 1, Gene.FLUCHT, Gene.VERTEIDIGUNG)
    g.seats[1].bp = 0
    _, events = _attack(g, attacker)
    assert "Abwehr" not in kinds(events) and not g.alive(victim)

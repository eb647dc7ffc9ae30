"""Phase 1 movement (note 6.3, 7.3): drift, dice, obstacles, the movement genes, tentacles
and riders. Each case builds the position by hand and runs one amoeba's move."""

from __future__ import annotations

from ursuppe_support import Driver, ScriptedRng, fresh_state, give, kinds, put

from gamehall.rules.ursuppe import events as ev
from gamehall.rules.ursuppe.actions import (
    Bewegen,
    KeineZweiteBewegung,
    Klammern,
    NichtKlammern,
    Tentakel,
    Wuerfeln,
)
from gamehall.rules.ursuppe.environment import EnvironmentCard
from gamehall.rules.ursuppe.genes import Gene
from gamehall.rules.ursuppe.movement import move_amoeba


def _mover(drift: int = 1, feld: tuple[int, int] = (1, 1), players: int = 3, rolls: list[int] | None = None):  # type: ignore[no-untyped-def]
    g = fresh_state(players)
    g.card = EnvironmentCard(drift, 10)
    g.rng = ScriptedRng(rolls or [])
    amoeba = put(g, 0, 0, feld)
    return g, amoeba


def test_drift_moves_with_the_card_without_a_roll() -> None:
    g, amoeba = _mover(drift=3)
    d = Driver(g, move_amoeba(g, amoeba))
    assert kinds(d.events) == ["ZugBewegen"]
    events = d.send(0, Bewegen(0, 3))
    assert events == [ev.Bewegung(farbe=0, amoebe=0, richtung=3)]
    assert amoeba.feld == (2, 1) and d.request is None


def test_drift_into_the_edge_only_accepts_stay() -> None:
    g, amoeba = _mover(drift=1, feld=(0, 1))
    d = Driver(g, move_amoeba(g, amoeba))
    assert d.refused(0, Bewegen(0, 1)) == 32
    assert d.refused(0, Bewegen(0, 3)) == 20
    assert d.refused(0, Bewegen(1, 5)) == 1
    assert d.refused(0, Bewegen(0, 7)) == 22
    assert d.send(0, Bewegen(0, 5)) == [ev.Bewegung(farbe=0, amoebe=0, richtung=5)]
    assert amoeba.feld == (0, 1)


def test_drift_into_an_invalid_cell_or_the_compass_is_a_stay() -> None:
    g, amoeba = _mover(drift=4, feld=(2, 1))  # south of (2,1) is the compass
    d = Driver(g, move_amoeba(g, amoeba))
    assert d.refused(0, Bewegen(0, 4)) == 32
    d.send(0, Bewegen(0, 5))
    g, amoeba = _mover(drift=2, feld=(0, 1))  # north of (0,1) is the invalid corner
    assert Driver(g, move_amoeba(g, amoeba)).refused(0, Bewegen(0, 2)) == 32


def test_a_card_without_drift_means_stay() -> None:
    g, amoeba = _mover(drift=5)
    d = Driver(g, move_amoeba(g, amoeba))
    assert d.refused(0, Bewegen(0, 1)) == 20
    d.send(0, Bewegen(0, 5))
    assert amoeba.feld == (1, 1)


def test_a_roll_costs_one_bp_and_only_the_first_die_counts() -> None:
    g, amoeba = _mover(rolls=[3, 4])
    d = Driver(g, move_amoeba(g, amoeba))
    events = d.send(0, Wuerfeln())
    assert events == [ev.Wuerfel(farbe=0, wuerfel1=3, wuerfel2=4), ev.Biopunkte(farbe=0, differenz=-1)]
    assert d.refused(0, Wuerfeln()) == 24
    assert d.refused(0, Bewegen(0, 4)) == 32
    assert d.refused(0, Bewegen(0, 1)) == 32  # the drift no longer applies after a roll
    d.send(0, Bewegen(0, 3))
    assert amoeba.feld == (2, 1) and g.seats[0].bp == 3


def test_rolling_without_bp_is_refused_unless_streamlined() -> None:
    g, amoeba = _mover(rolls=[1, 1])
    g.seats[0].bp = 0
    d = Driver(g, move_amoeba(g, amoeba))
    assert d.refused(0, Wuerfeln()) == 18
    give(g, 0, Gene.STROMLINIENFORM)
    assert d.send(0, Wuerfeln()) == [ev.Wuerfel(farbe=0, wuerfel1=1, wuerfel2=1)]


def test_movement_one_may_use_either_die() -> None:
    g, amoeba = _mover(rolls=[3, 4])
    give(g, 0, Gene.BEWEGUNG1)
    d = Driver(g, move_amoeba(g, amoeba))
    d.send(0, Wuerfeln())
    assert d.refused(0, Bewegen(0, 2)) == 32
    d.send(0, Bewegen(0, 4))
    assert amoeba.feld == (1, 2)


def test_movement_two_chooses_freely_but_must_roll() -> None:
    g, amoeba = _mover(drift=5, rolls=[1, 1])
    give(g, 0, Gene.BEWEGUNG2)
    d = Driver(g, move_amoeba(g, amoeba))
    assert d.refused(0, Bewegen(0, 2)) == 20
    d.send(0, Wuerfeln())
    d.send(0, Bewegen(0, 2))
    assert amoeba.feld == (1, 0)


def test_a_six_gives_a_free_choice_including_stay() -> None:
    g, amoeba = _mover(rolls=[6, 2])
    d = Driver(g, move_amoeba(g, amoeba))
    d.send(0, Wuerfeln())
    assert {a.richtung for a in d.request.legal(0) if isinstance(a, Bewegen)} == {1, 2, 3, 4, 5}  # type: ignore[union-attr]
    d.send(0, Bewegen(0, 5))


def test_a_rolled_direction_into_an_obstacle_must_be_sent_as_stay() -> None:
    g, amoeba = _mover(feld=(0, 1), rolls=[1, 1])
    d = Driver(g, move_amoeba(g, amoeba))
    d.send(0, Wuerfeln())
    assert d.refused(0, Bewegen(0, 1)) == 32
    d.send(0, Bewegen(0, 5))
    assert amoeba.feld == (0, 1) and g.seats[0].bp == 3


def test_speed_grants_a_free_rolled_second_step_after_a_rolled_first() -> None:
    g, amoeba = _mover(rolls=[3, 3, 4, 4])
    give(g, 0, Gene.GESCHWINDIGKEIT)
    g.cubes[(2, 1)] = [2, 2, 2]
    d = Driver(g, move_amoeba(g, amoeba))
    d.send(0, Wuerfeln())
    events = d.send(0, Bewegen(0, 3))
    assert events[-1] == ev.ZugBewegen(amoebe=0, schritt=2, audience=frozenset({0}))
    assert d.refused(0, Bewegen(0, 1)) == 20  # the second step cannot drift
    assert d.send(0, Wuerfeln()) == [ev.Wuerfel(farbe=0, wuerfel1=4, wuerfel2=4)]  # free
    assert d.refused(0, KeineZweiteBewegung(0)) == 34
    assert d.refused(0, Bewegen(0, 4)) == 32  # south of (2,1) is the compass
    d.send(0, Bewegen(0, 5))
    assert amoeba.feld == (2, 1)
    assert d.request is None and g.seats[0].bp == 3


def test_speed_second_step_may_be_skipped_and_needs_a_rolled_first() -> None:
    g, amoeba = _mover(rolls=[3, 3])
    give(g, 0, Gene.GEN_AUSDAUER)  # Persistence includes Speed
    d = Driver(g, move_amoeba(g, amoeba))
    d.send(0, Wuerfeln())
    d.send(0, Bewegen(0, 3))
    assert d.send(0, KeineZweiteBewegung(0)) == []
    assert d.request is None
    g, amoeba = _mover(drift=3)
    give(g, 0, Gene.GESCHWINDIGKEIT)
    d = Driver(g, move_amoeba(g, amoeba))
    assert d.refused(0, KeineZweiteBewegung(0)) == 30
    d.send(0, Bewegen(0, 3))
    assert d.request is None  # a drift does not unlock the second step


def test_tentacle_carries_cubes_to_the_new_field() -> None:
    g, amoeba = _mover(drift=3, players=4)
    give(g, 0, Gene.TENTAKEL)
    d = Driver(g, move_amoeba(g, amoeba))
    assert d.refused(0, Tentakel(0, (1, 1, 1, 1))) == 35  # 4 players carry 3
    assert d.refused(0, Tentakel(0, (0, 3, 0, 0))) == 19
    assert d.refused(0, Tentakel(0, (0, 0, 0))) == 22
    assert d.send(0, Tentakel(0, (1, 2, 0, 0))) == []
    assert d.refused(0, Tentakel(0, (1, 0, 0, 0))) == 36
    events = d.send(0, Bewegen(0, 3))
    assert events == [ev.Bewegung(farbe=0, amoebe=0, richtung=3, tentakel=(1, 2, 0, 0))]
    assert g.cubes[(1, 1)] == [1, 0, 2, 2] and g.cubes[(2, 1)] == [3, 4, 2, 2]


def test_tentacle_needs_the_gene_and_stays_put_on_a_stay() -> None:
    g, amoeba = _mover(drift=5)
    d = Driver(g, move_amoeba(g, amoeba))
    assert d.refused(0, Tentakel(0, (1, 0, 0))) == 10
    give(g, 0, Gene.TENTAKEL)
    d.send(0, Tentakel(0, (2, 0, 0)))
    d.send(0, Bewegen(0, 5))
    assert g.cubes[(1, 1)] == [2, 2, 2]


def test_holding_may_stay_instead_of_drifting() -> None:
    g, amoeba = _mover(drift=3)
    d = Driver(g, move_amoeba(g, amoeba))
    assert d.refused(0, Bewegen(0, 5)) == 20
    give(g, 0, Gene.KLAMMERN)
    d.send(0, Bewegen(0, 5))
    assert amoeba.feld == (1, 1)


def test_holding_amoebas_are_asked_to_ride_along_in_descending_order() -> None:
    g, amoeba = _mover(drift=3)
    rider_low = put(g, 1, 4, (1, 1))
    rider_high = put(g, 2, 0, (1, 1))
    stays = put(g, 1, 5, (2, 3))
    give(g, 1, Gene.KLAMMERN)
    give(g, 2, Gene.KLAMMERN)
    g.cubes[(1, 1)] = [2, 2, 2]
    d = Driver(g, move_amoeba(g, amoeba))
    events = d.send(0, Bewegen(0, 3))
    assert events == [
        ev.ZugKlammern(
            amoebe=0,
            mitfahr_farbe=0,
            mitfahr_amoebe=0,
            richtung=3,
            naehrstoffe=(0, 0, 0),
            audience=frozenset({2}),
        )
    ]
    assert d.refused(2, Klammern(1, 0, 0)) == 1
    assert d.refused(2, Klammern(0, 1, 0)) == 22
    d.send(2, NichtKlammern(0, 0, 0))
    events = d.send(1, Klammern(4, 0, 0))
    assert events == [ev.Bewegung(farbe=0, amoebe=0, richtung=3, klammern=((1, 4),))]
    assert rider_low.feld == (2, 1) and rider_high.feld == (1, 1) and stays.feld == (2, 3)

"""Phase 1 feeding (note 7.4): patterns, the check order of FRESSEN, excretion, starvation,
the feeding genes (Frugality, Substitution) and Parasitism."""

from __future__ import annotations

import pytest
from ursuppe_support import Driver, fresh_state, give, kinds, put

from gamehall.rules.ursuppe import events as ev
from gamehall.rules.ursuppe.actions import Fressen, Parasitismus
from gamehall.rules.ursuppe.feeding import allowed_patterns
from gamehall.rules.ursuppe.genes import Gene
from gamehall.rules.ursuppe.phases import feed_amoeba


@pytest.mark.parametrize(
    ("players", "frugality", "substitution", "expected"),
    [
        (4, False, False, {(1, 1, 1)}),
        (4, True, False, {(1, 1, 1), (1, 1)}),
        (4, False, True, {(1, 1, 1), (2, 2)}),
        (4, True, True, {(1, 1, 1), (2, 2), (1, 1), (2, 1), (3,)}),
        (3, False, False, {(2, 1)}),
        (3, False, True, {(2, 1), (4,)}),
    ],
)
def test_meal_patterns_per_gene_set(
    players: int, frugality: bool, substitution: bool, expected: set[tuple[int, ...]]
) -> None:
    assert allowed_patterns(players, frugality, substitution) == expected


def _feeder(players: int = 4, cubes: list[int] | None = None):  # type: ignore[no-untyped-def]
    g = fresh_state(players)
    amoeba = put(g, 0, 3, (1, 1))
    if cubes is not None:
        g.cubes[(1, 1)] = list(cubes)
    return g, amoeba, Driver(g, feed_amoeba(g, amoeba))


def test_a_four_player_meal_eats_one_of_each_other_colour_and_excretes_two() -> None:
    g, _, d = _feeder(4)
    assert kinds(d.events) == ["ZugFressen"]
    events = d.send(0, Fressen(3, (0, 1, 1, 1)))
    assert events == [
        ev.Fressen(farbe=0, amoebe=3, naehrstoffe=(0, 1, 1, 1)),
        ev.Naehrstoff(farbe=0, anzahl=2, x=1, y=1),
    ]
    assert g.cubes[(1, 1)] == [4, 1, 1, 1]
    assert g.supply == [55 - 38 - 2, 55 - 38 + 1, 55 - 38 + 1, 55 - 38 + 1]


def test_the_check_order_of_fressen() -> None:
    g, _, d = _feeder(4)
    assert d.refused(0, Fressen(2, (0, 1, 1, 1))) == 1
    assert d.refused(0, Fressen(3, (0, 1, 1))) == 22
    assert d.refused(0, Fressen(3, (1, 1, 1, 0))) == 7
    assert d.refused(0, Fressen(3, (0, 3, 0, 0))) == 19
    assert d.refused(0, Fressen(3, (0, 0, 0, 0))) == 12
    assert d.refused(0, Fressen(3, (0, 2, 2, 0))) == 33
    assert d.refused(0, Fressen(3, (0, 1, 1, 0))) == 12
    g.cubes[(1, 1)] = [2, 2, 2, 2]
    assert d.refused(0, Fressen(3, (0, 2, 1, 0))) == 10  # {2,1} needs Frugality + Substitution
    g, _, d = _feeder(3, cubes=[2, 3, 3])
    assert d.refused(0, Fressen(3, (0, 3, 0))) == 22  # {3} is no meal with 3 players


def test_a_pattern_another_gene_would_allow_is_refused_with_ten() -> None:
    g, _, d = _feeder(4)
    give(g, 0, Gene.GENUEGSAMKEIT)
    assert d.refused(0, Fressen(3, (0, 2, 1, 0))) == 10  # needs Substitution as well
    assert d.refused(0, Fressen(3, (0, 2, 2, 0))) == 33  # more than Frugality's largest meal
    assert d.refused(0, Fressen(3, (0, 1, 1, 0))) is None  # Frugality's {1,1}


def test_three_players_eat_two_of_one_colour_and_one_of_the_other() -> None:
    g, _, d = _feeder(3)
    assert d.refused(0, Fressen(3, (0, 1, 1))) == 12
    d.send(0, Fressen(3, (0, 1, 2)))
    assert g.cubes[(1, 1)] == [4, 1, 0]


def test_substitution_eats_four_of_one_colour() -> None:
    g, _, d = _feeder(3, cubes=[0, 4, 0])
    give(g, 0, Gene.ERSATZKOST)
    assert d.refused(0, Fressen(3, (0, 0, 0))) == 12
    d.send(0, Fressen(3, (0, 4, 0)))
    assert g.cubes[(1, 1)] == [2, 0, 0]


def test_starving_gives_a_damage_point_and_no_excretion() -> None:
    g, amoeba, d = _feeder(4, cubes=[5, 1, 1, 0])
    events = d.send(0, Fressen(3, (0, 0, 0, 0)))
    assert events == [
        ev.Fressen(farbe=0, amoebe=3, naehrstoffe=(0, 0, 0, 0)),
        ev.AmoebeSchaden(farbe=0, amoebe=3),
    ]
    assert amoeba.schaden == 1 and g.cubes[(1, 1)] == [5, 1, 1, 0]


def test_excretion_is_limited_by_the_supply() -> None:
    g, _, d = _feeder(4)
    g.supply[0] = 1
    events = d.send(0, Fressen(3, (0, 1, 1, 1)))
    assert events[-1] == ev.Naehrstoff(farbe=0, anzahl=1, x=1, y=1)
    g, _, d = _feeder(4)
    g.supply[0] = 0
    assert kinds(d.send(0, Fressen(3, (0, 1, 1, 1)))) == ["Fressen"]


def test_the_default_meal_is_the_smallest_legal_vector_or_starving() -> None:
    g, _, d = _feeder(4)
    give(g, 0, Gene.GENUEGSAMKEIT)
    assert d.request is not None and d.request.default(0) == Fressen(3, (0, 0, 1, 1))
    g, _, d = _feeder(4, cubes=[3, 3, 0, 0])
    assert d.request is not None and d.request.default(0) == Fressen(3, (0, 0, 0, 0))


def test_parasitism_eats_one_cube_less_at_the_neighbours_cost() -> None:
    g, _, d = _feeder(4, cubes=[0, 1, 1, 0])
    put(g, 2, 0, (1, 1))
    assert d.refused(0, Parasitismus(3, 2)) == 10
    give(g, 0, Gene.PARASITISMUS)
    assert d.refused(0, Parasitismus(3, 1)) == 2  # colour 1 has no amoeba here
    assert d.refused(0, Parasitismus(3, 0)) == 22
    g.seats[2].bp = 0
    assert d.refused(0, Parasitismus(3, 2)) == 22
    g.seats[2].bp = 4
    assert d.send(0, Parasitismus(3, 2)) == []
    assert d.refused(0, Parasitismus(3, 2)) == 22
    assert d.refused(0, Fressen(3, (0, 0, 0, 0))) == 12
    events = d.send(0, Fressen(3, (0, 1, 1, 0)))
    assert events == [
        ev.Parasitismus(farbe=0, amoebe=3, gegen_farbe=2),
        ev.Biopunkte(farbe=2, differenz=-1),
        ev.Fressen(farbe=0, amoebe=3, naehrstoffe=(0, 1, 1, 0)),
        ev.Naehrstoff(farbe=0, anzahl=2, x=1, y=1),
    ]


def test_parasitism_is_refused_for_an_amoeba_that_starves_anyway() -> None:
    g, _, d = _feeder(4, cubes=[0, 1, 0, 0])
    put(g, 2, 0, (1, 1))
    give(g, 0, Gene.PARASITISMUS)
    assert d.refused(0, Parasitismus(3, 2)) == 23


def test_parasitism_refuses_a_full_meal() -> None:
    g, _, d = _feeder(4)
    put(g, 2, 0, (1, 1))
    give(g, 0, Gene.PARASITISMUS)
    d.send(0, Parasitismus(3, 2))
    assert d.refused(0, Fressen(3, (0, 1, 1, 1))) in (10, 22, 33)
    assert d.refused(0, Fressen(3, (0, 1, 0, 1))) is None

"""The gene table (note 3.3) and the genes whose effect is pure bookkeeping: Intelligence and
Ray Protection in scoring and defects, the inclusions of the advanced genes."""

from __future__ import annotations

import pytest

from gamehall.rules.ursuppe.genes import GENES, Gene, has_effect, ladder_weight, mutation_points, total_copies

TABLE = {
    # number: (price, MP, copies 3p, copies 4p, replaces)
    0: (2, 3, 1, 2, ()),
    1: (3, 2, 2, 2, ()),
    2: (3, 3, 1, 1, ()),
    3: (4, 3, 1, 2, ()),
    4: (4, 4, 1, 1, ()),
    5: (4, 4, 1, 2, ()),
    6: (4, 4, 1, 1, ()),
    7: (5, -2, 1, 2, ()),
    8: (5, 4, 1, 1, ()),
    9: (5, 4, 1, 2, ()),
    10: (5, 4, 1, 1, ()),
    11: (5, 5, 1, 2, ()),
    12: (6, 5, 0, 1, ()),
    13: (6, 4, 2, 2, ()),
    14: (6, 5, 0, 1, ()),
    15: (6, 5, 1, 2, ()),
    16: (4, 4, 1, 1, (3,)),
    17: (5, 5, 1, 2, (1,)),
    18: (5, 5, 1, 1, (13,)),
    19: (6, 6, 1, 1, (4, 5)),
}


@pytest.mark.parametrize("number", sorted(TABLE))
def test_every_gene_has_the_notes_price_mp_copies_and_basic_gene(number: int) -> None:
    info = GENES[Gene(number)]
    price, mp, copies_3p, copies_4p, replaces = TABLE[number]
    assert (info.price, info.mutation_points, info.copies(3), info.copies(4)) == (
        price,
        mp,
        copies_3p,
        copies_4p,
    )
    assert tuple(int(g) for g in info.replaces) == replaces


def test_wire_names_and_totals() -> None:
    assert [g.name for g in Gene][:3] == ["INTELLIGENZ", "BEWEGUNG1", "SPOREN"]
    assert Gene(16).name == "GEN_AUSDAUER" and Gene(19).name == "PANZERUNG"
    assert total_copies(3) == 20 and total_copies(4) == 30


def test_intelligence_counts_for_scoring_and_ray_protection_does_not() -> None:
    assert ladder_weight([Gene.INTELLIGENZ]) == 1
    assert ladder_weight([Gene.STRAHLENSCHUTZ]) == 0
    assert ladder_weight([Gene.PANZERUNG, Gene.BEWEGUNG2]) == 4


def test_ray_protection_lowers_mp_and_covers_four() -> None:
    assert mutation_points([Gene.STRAHLENSCHUTZ, Gene.PANZERUNG]) == 4
    assert GENES[Gene.STRAHLENSCHUTZ].surrender_value == 4
    assert GENES[Gene.PANZERUNG].surrender_value == 6


def test_advanced_genes_keep_the_basic_effect_except_armor() -> None:
    assert has_effect([Gene.GEN_AUSDAUER], Gene.GESCHWINDIGKEIT)
    assert has_effect([Gene.AGGRESSION], Gene.UEBERLEBENSKAMPF)
    assert has_effect([Gene.BEWEGUNG2], Gene.BEWEGUNG1)
    assert not has_effect([Gene.PANZERUNG], Gene.VERTEIDIGUNG)
    assert not has_effect([Gene.PANZERUNG], Gene.FLUCHT)


def test_every_gene_says_what_it_does() -> None:
    from gamehall.rules.ursuppe.genes import EFFECTS

    assert set(EFFECTS) == set(Gene) and all(EFFECTS.values())

"""What an Ursuppe bot thinks a position is worth, on the engine's own table state.

Both the in-hall policy (:mod:`.policy`, which rebuilds a table state from the seat's view)
and the wire bot (:mod:`.wire`, which rebuilds one from the STATUS and SPIELFELD blocks) ask these
functions; they only read the state and use the engine's own rule functions, so they never
suggest a move the rules would refuse for a reason the state shows.

Purchases and divisions are built one item at a time and checked with the engine's block
check after each step, instead of listing every possible block (with many BP that listing
grows into the hundreds of thousands).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from gamehall.rules._core import RuleError
from gamehall.rules.ursuppe.actions import AmoebenSetzen, GenKaufen
from gamehall.rules.ursuppe.board import Field
from gamehall.rules.ursuppe.division import check_division, division_cost
from gamehall.rules.ursuppe.feeding import Meal, patterns_for, vectors
from gamehall.rules.ursuppe.genes import GENES, Gene, mutation_points
from gamehall.rules.ursuppe.genetics import check_purchase
from gamehall.rules.ursuppe.state import AMOEBAS_PER_COLOUR, Amoeba, TableState

GENE_PRIORITY: tuple[Gene, ...] = (
    Gene.ERSATZKOST,
    Gene.GENUEGSAMKEIT,
    Gene.TEILUNGSRATE,
    Gene.LEBENSERWARTUNG,
    Gene.STRAHLENSCHUTZ,
    Gene.INTELLIGENZ,
    Gene.BEWEGUNG1,
    Gene.VERTEIDIGUNG,
    Gene.UEBERLEBENSKAMPF,
    Gene.STROMLINIENFORM,
    Gene.BEWEGUNG2,
    Gene.GEN_AUSDAUER,
    Gene.GESCHWINDIGKEIT,
)
"""Genes a heuristic bot wants, best first: eat more easily, divide cheaply, survive, score."""

MP_COMFORT = 12
"""A heuristic bot does not buy genes that would lift its MP above this (defects hurt)."""


def food_at(g: TableState, farbe: int, feld: Field) -> int:
    """How good ``feld`` is to eat on for ``farbe``: the cubes of other colours there, and a
    bonus when a meal fits."""
    cubes = g.cubes.get(feld)
    if cubes is None:
        return -100
    others = sum(c for colour, c in enumerate(cubes) if colour != farbe)
    probe = Amoeba(farbe, -1, feld)
    fits = bool(vectors(g, probe, patterns_for(g, Meal(probe))))
    crowd = sum(1 for a in g.amoebas.values() if a.feld == feld)
    return others + (20 if fits else 0) - 2 * crowd


def best_meal(g: TableState, amoeba: Amoeba, options: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """The meal that leaves the field richest: take from the colours there are most of."""
    here = g.cubes[amoeba.feld]

    def left_after(v: tuple[int, ...]) -> tuple[int, int]:
        remaining = [here[c] - n for c, n in enumerate(v) if c != amoeba.farbe]
        return (min(remaining) if remaining else 0, -sum(v))

    return max(options, key=left_after)


def _purchase_ok(g: TableState, farbe: int, genes: list[int]) -> bool:
    try:
        check_purchase(g, farbe, GenKaufen(tuple(genes)))
    except RuleError:
        return False
    return True


def choose_purchase(g: TableState, farbe: int, rng: random.Random, *, heuristic: bool) -> GenKaufen:
    """A block of genes this player may buy: greedy by priority (heuristic, keeping BP for
    a division and MP in check) or a random affordable choice."""
    player = g.seats[farbe]
    chosen: list[int] = []
    if heuristic:
        amoebas = len(g.amoebas_of(farbe))
        reserve = division_cost(g, farbe) * (2 if amoebas < 4 else 1 if amoebas < AMOEBAS_PER_COLOUR else 0)
        owned = list(player.genes)
        for gene in GENE_PRIORITY:
            price = GENES[gene].price
            spent = sum(GENES[Gene(n)].price for n in chosen)
            if player.bp - spent - price < reserve:
                continue
            mp = mutation_points([*owned, *(Gene(n) for n in chosen), gene])
            if gene is not Gene.STRAHLENSCHUTZ and mp > MP_COMFORT:
                continue
            if _purchase_ok(g, farbe, [*chosen, int(gene)]):
                chosen.append(int(gene))
        return GenKaufen(tuple(chosen))
    genes = [int(gene) for gene in Gene]
    rng.shuffle(genes)
    for number in genes:
        if rng.random() < 0.3 and _purchase_ok(g, farbe, [*chosen, number]):
            chosen.append(number)
    return GenKaufen(tuple(chosen))


def choose_division(g: TableState, farbe: int, rng: random.Random, *, heuristic: bool) -> AmoebenSetzen:
    """New amoebas one at a time, each on the best (or a random) field the rules allow, while
    the BP last (heuristic) or a coin says so (random)."""
    block: list[tuple[int, ...]] = []
    taken = {a.nummer for a in g.amoebas_of(farbe)}
    while len(taken) < AMOEBAS_PER_COLOUR:
        if not heuristic and block and rng.random() < 0.4:
            break
        number = min(set(range(AMOEBAS_PER_COLOUR)) - taken)
        options = []
        for feld in g.board.fields():
            attempt = (*block, (number, *feld))
            try:
                check_division(g, farbe, attempt)
            except RuleError:
                continue
            options.append(feld)
        if not options:
            break
        if heuristic:
            feld = max(options, key=lambda f: (food_at(g, farbe, f), -f[1], -f[0]))
        else:
            feld = rng.choice(options)
        block.append((number, *feld))
        taken.add(number)
    return AmoebenSetzen(tuple(block))

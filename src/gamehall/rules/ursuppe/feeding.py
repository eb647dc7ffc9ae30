"""Phase 1, second half: feeding, excretion and starvation (note 6.3 step 7 and 7.4).

An amoeba eats cubes of other colours from its own field in one of the allowed *patterns*
(multisets of counts): 4 players {1,1,1}, 3 players {2,1}. GENUEGSAMKEIT (Frugality) allows one
cube less, ERSATZKOST (Substitution) one colour fewer and one cube more; each gene is applied
at most once, in either order. PARASITISMUS, declared before the meal, takes one more cube off
every allowed pattern and costs the named neighbour 1 BP. A fed amoeba excretes 2 cubes of its
own colour (as far as the supply lasts); an amoeba that cannot eat starves (+1 damage point),
unless it attacks instead (UEBERLEBENSKAMPF, see :mod:`.combat`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

from gamehall.rules._core import RuleError
from gamehall.rules.ursuppe import events as ev
from gamehall.rules.ursuppe.errors import fehler
from gamehall.rules.ursuppe.genes import Gene
from gamehall.rules.ursuppe.state import Amoeba, TableState

Pattern = tuple[int, ...]
"""A meal shape: the nonzero counts per colour, largest first."""

EXCRETION = 2


def base_pattern(players: int) -> Pattern:
    return (1, 1, 1) if players == 4 else (2, 1)


def _shape(counts: Iterable[int]) -> Pattern:
    return tuple(sorted((c for c in counts if c > 0), reverse=True))


def one_cube_less(pattern: Pattern) -> set[Pattern]:
    """Frugality (and Parasitism): one cube fewer, at least one cube left."""
    result = set()
    for i in range(len(pattern)):
        smaller = list(pattern)
        smaller[i] -= 1
        if sum(smaller) >= 1:
            result.add(_shape(smaller))
    return result


def one_colour_fewer(pattern: Pattern) -> set[Pattern]:
    """Substitution: one colour fewer and one cube more, spread as evenly as possible
    ({1,1,1} -> {2,2}, {1,1} -> {3}, {2,1} -> {4})."""
    parts = len(pattern) - 1
    if parts < 1:
        return set()
    total = sum(pattern) + 1
    return {_shape(total // parts + (1 if i < total % parts else 0) for i in range(parts))}


def allowed_patterns(players: int, frugality: bool, substitution: bool) -> frozenset[Pattern]:
    """The closure of the base meal under the owned genes, each applied at most once."""
    found: set[tuple[Pattern, frozenset[str]]] = {(base_pattern(players), frozenset())}
    frontier = list(found)
    while frontier:
        pattern, used = frontier.pop()
        moves: list[tuple[str, set[Pattern]]] = []
        if frugality and "F" not in used:
            moves.append(("F", one_cube_less(pattern)))
        if substitution and "S" not in used:
            moves.append(("S", one_colour_fewer(pattern)))
        for gene, results in moves:
            for result in results:
                item = (result, used | {gene})
                if item not in found:
                    found.add(item)
                    frontier.append(item)
    return frozenset(pattern for pattern, _ in found)


def parasitic(patterns: Iterable[Pattern]) -> frozenset[Pattern]:
    """Parasitism: every allowed pattern with one cube removed."""
    return frozenset(small for pattern in patterns for small in one_cube_less(pattern))


# -- one amoeba's meal ---------------------------------------------------------------------------


@dataclass(slots=True)
class Meal:
    """The feeding decision of one amoeba; ``victim`` is the colour named by PARASITISMUS."""

    amoeba: Amoeba
    victim: int | None = None


def patterns_for(g: TableState, meal: Meal) -> frozenset[Pattern]:
    farbe = meal.amoeba.farbe
    patterns = allowed_patterns(g.players, g.owns(farbe, Gene.GENUEGSAMKEIT), g.owns(farbe, Gene.ERSATZKOST))
    return parasitic(patterns) if meal.victim is not None else patterns


def vectors(g: TableState, amoeba: Amoeba, patterns: Iterable[Pattern]) -> set[tuple[int, ...]]:
    """Every meal vector of these patterns that fits the amoeba's field."""
    here = g.cubes[amoeba.feld]
    others = [c for c in g.colours if c != amoeba.farbe]
    found = set()
    for pattern in patterns:
        for colours in itertools.permutations(others, len(pattern)):
            if all(here[c] >= count for c, count in zip(colours, pattern, strict=True)):
                vector = [0] * g.players
                for c, count in zip(colours, pattern, strict=True):
                    vector[c] = count
                found.add(tuple(vector))
    return found


def meal_fits(g: TableState, amoeba: Amoeba) -> bool:
    """Whether any meal (without Parasitism) is possible: then starving is not allowed."""
    return bool(vectors(g, amoeba, patterns_for(g, Meal(amoeba))))


def all_gene_patterns(players: int) -> frozenset[Pattern]:
    """What some player with every feeding gene in the game could eat (for FEHLER 10)."""
    patterns = allowed_patterns(players, players == 4, True)
    return patterns | parasitic(patterns) if players == 4 else patterns


def check_meal(g: TableState, meal: Meal, amoebe: int, vector: tuple[int, ...]) -> None:
    """The check order of note 7.4 for ``FRESSEN amoebe v``."""
    amoeba = meal.amoeba
    if amoebe != amoeba.nummer:
        raise fehler(1, f"Amoeba {amoebe} is not the one to feed.")
    if len(vector) != g.players or min(vector) < 0:
        raise fehler(22, "A meal is one non-negative count per colour.")
    if vector[amoeba.farbe] > 0:
        raise fehler(7, "An amoeba does not eat its own colour.")
    if any(want > have for want, have in zip(vector, g.cubes[amoeba.feld], strict=True)):
        raise fehler(19, "These cubes are not on the field.")
    patterns = patterns_for(g, meal)
    total = sum(vector)
    if total == 0:
        if vectors(g, amoeba, patterns):
            raise fehler(12, "A meal is possible, so the amoeba may not starve.")
        return
    if total > max(sum(p) for p in patterns):
        raise fehler(33, "That is more than the amoeba needs.")
    if total < min(sum(p) for p in patterns):
        raise fehler(12, "That is too small a meal.")
    shape = _shape(vector)
    if shape not in patterns:
        if shape in all_gene_patterns(g.players):
            raise fehler(10, "That meal needs a gene you do not have.")
        raise fehler(22, "That is not an allowed meal.")


def check_parasitism(g: TableState, meal: Meal, amoebe: int, gegen_farbe: int) -> None:
    """``PARASITISMUS amoebe gegenFarbe`` (Decision (ours), note 7.4)."""
    amoeba = meal.amoeba
    if not g.owns(amoeba.farbe, Gene.PARASITISMUS):
        raise fehler(10, "PARASITISMUS is not yours.")
    if amoebe != amoeba.nummer:
        raise fehler(1, f"Amoeba {amoebe} is not the one to feed.")
    if meal.victim is not None:
        raise fehler(22, "Parasitism is already declared for this meal.")
    if gegen_farbe not in g.colours or gegen_farbe == amoeba.farbe:
        raise fehler(22, "The victim must be another colour in play.")
    if not any(other.farbe == gegen_farbe for other in g.amoebas_at(amoeba.feld)):
        raise fehler(2, "The victim has no amoeba on this field.")
    if g.seats[gegen_farbe].bp < 1:
        raise fehler(22, "The victim has no BP to lose.")
    if not vectors(g, amoeba, patterns_for(g, Meal(amoeba, gegen_farbe))):
        raise fehler(23, "Parasitism is only for an amoeba that can eat.")


def parasitism_victims(g: TableState, meal: Meal) -> list[int]:
    victims = []
    for colour in g.colours:
        try:
            check_parasitism(g, meal, meal.amoeba.nummer, colour)
        except RuleError:
            continue
        victims.append(colour)
    return victims


def legal_meals(g: TableState, meal: Meal) -> list[tuple[int, ...]]:
    """Every accepted ``FRESSEN`` vector, smallest first (all zeros if none fits)."""
    options = sorted(vectors(g, meal.amoeba, patterns_for(g, meal)))
    return options or [(0,) * g.players]


def eat(g: TableState, meal: Meal, vector: tuple[int, ...]) -> None:
    """Apply a checked ``FRESSEN``: the meal and excretion, or starvation."""
    amoeba = meal.amoeba
    here = g.cubes[amoeba.feld]
    if sum(vector) == 0:
        g.out.append(ev.Fressen(farbe=amoeba.farbe, amoebe=amoeba.nummer, naehrstoffe=vector))
        g.damage(amoeba)
        return
    if meal.victim is not None:
        g.out.append(ev.Parasitismus(farbe=amoeba.farbe, amoebe=amoeba.nummer, gegen_farbe=meal.victim))
        g.change_bp(meal.victim, -1)
    for colour, count in enumerate(vector):
        here[colour] -= count
        g.supply[colour] += count
    g.out.append(ev.Fressen(farbe=amoeba.farbe, amoebe=amoeba.nummer, naehrstoffe=vector))
    g.place_cubes(amoeba.farbe, EXCRETION, amoeba.feld)

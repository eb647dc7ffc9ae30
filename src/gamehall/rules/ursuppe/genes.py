"""The 20 genes of Ursuppe as one data table (spec note section 3.3).

Numbers and wire names come from the seed; price (BP), mutation points (MP), copies per player
count and the basic gene an advanced gene replaces come from the rulebook. The effects live
where the rulebook uses them (movement, feeding, combat, division, scoring); this module only
answers "does this player have the effect of gene X?", because two advanced genes include a
basic one (GEN_AUSDAUER gives Speed, AGGRESSION gives Struggle for Survival, A16/A17) and
BEWEGUNG2 supersedes BEWEGUNG1.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass


class Gene(enum.IntEnum):
    """Gene numbers as on the wire (seed, "Index Gene")."""

    INTELLIGENZ = 0
    BEWEGUNG1 = 1
    SPOREN = 2
    GESCHWINDIGKEIT = 3
    VERTEIDIGUNG = 4
    FLUCHT = 5
    ERSATZKOST = 6
    STRAHLENSCHUTZ = 7
    STROMLINIENFORM = 8
    TENTAKEL = 9
    KLAMMERN = 10
    LEBENSERWARTUNG = 11
    GENUEGSAMKEIT = 12
    UEBERLEBENSKAMPF = 13
    PARASITISMUS = 14
    TEILUNGSRATE = 15
    GEN_AUSDAUER = 16
    BEWEGUNG2 = 17
    AGGRESSION = 18
    PANZERUNG = 19


@dataclass(frozen=True, slots=True)
class GeneInfo:
    """One row of the gene table.

    ``replaces`` is the basic gene(s) an advanced gene is bought over (one of them for
    PANZERUNG); ``surrender_value`` is what the gene pays against defects in phase 2 (its MP,
    except STRAHLENSCHUTZ which covers 4).
    """

    gene: Gene
    price: int
    mutation_points: int
    copies_3p: int
    copies_4p: int
    replaces: tuple[Gene, ...] = ()

    @property
    def advanced(self) -> bool:
        return bool(self.replaces)

    @property
    def ladder_weight(self) -> int:
        """Weight in phase 6: advanced genes count double, STRAHLENSCHUTZ not at all."""
        if self.gene is Gene.STRAHLENSCHUTZ:
            return 0
        return 2 if self.advanced else 1

    @property
    def surrender_value(self) -> int:
        return 4 if self.gene is Gene.STRAHLENSCHUTZ else self.mutation_points

    def copies(self, players: int) -> int:
        return self.copies_3p if players == 3 else self.copies_4p


G = Gene
GENES: dict[Gene, GeneInfo] = {
    info.gene: info
    for info in (
        GeneInfo(G.INTELLIGENZ, 2, 3, 1, 2),
        GeneInfo(G.BEWEGUNG1, 3, 2, 2, 2),
        GeneInfo(G.SPOREN, 3, 3, 1, 1),
        GeneInfo(G.GESCHWINDIGKEIT, 4, 3, 1, 2),
        GeneInfo(G.VERTEIDIGUNG, 4, 4, 1, 1),
        GeneInfo(G.FLUCHT, 4, 4, 1, 2),
        GeneInfo(G.ERSATZKOST, 4, 4, 1, 1),
        GeneInfo(G.STRAHLENSCHUTZ, 5, -2, 1, 2),
        GeneInfo(G.STROMLINIENFORM, 5, 4, 1, 1),
        GeneInfo(G.TENTAKEL, 5, 4, 1, 2),
        GeneInfo(G.KLAMMERN, 5, 4, 1, 1),
        GeneInfo(G.LEBENSERWARTUNG, 5, 5, 1, 2),
        GeneInfo(G.GENUEGSAMKEIT, 6, 5, 0, 1),
        GeneInfo(G.UEBERLEBENSKAMPF, 6, 4, 2, 2),
        GeneInfo(G.PARASITISMUS, 6, 5, 0, 1),
        GeneInfo(G.TEILUNGSRATE, 6, 5, 1, 2),
        GeneInfo(G.GEN_AUSDAUER, 4, 4, 1, 1, (G.GESCHWINDIGKEIT,)),
        GeneInfo(G.BEWEGUNG2, 5, 5, 1, 2, (G.BEWEGUNG1,)),
        GeneInfo(G.AGGRESSION, 5, 5, 1, 1, (G.UEBERLEBENSKAMPF,)),
        GeneInfo(G.PANZERUNG, 6, 6, 1, 1, (G.VERTEIDIGUNG, G.FLUCHT)),
    )
}
"""Every gene by number (spec note 3.3)."""

EFFECTS: dict[Gene, str] = {
    G.INTELLIGENZ: "scoring: counts 1 in the gene weight; no effect in play",
    G.BEWEGUNG1: "movement: a rolled move may use either die",
    G.SPOREN: "division: new amoebas may go on any field without an own amoeba",
    G.GESCHWINDIGKEIT: "movement/combat: a free, rolled second step after a rolled move or flight",
    G.VERTEIDIGUNG: "combat: when attacked, pay 1 BP and fight with dice",
    G.FLUCHT: "combat: when attacked, roll and flee like a move",
    G.ERSATZKOST: "feeding: one colour fewer and one cube more",
    G.STRAHLENSCHUTZ: "genetics: MP -2, covers 4 when surrendered; scoring: weight 0",
    G.STROMLINIENFORM: "movement/combat: rolling for a move or flight costs no BP",
    G.TENTAKEL: "movement: carry up to 2 (3p) or 3 (4p) cubes along on a step",
    G.KLAMMERN: "movement: stay instead of drifting; ride along with a leaving amoeba",
    G.LEBENSERWARTUNG: "deaths: an amoeba dies at 3 damage points instead of 2",
    G.GENUEGSAMKEIT: "feeding: one cube less",
    G.UEBERLEBENSKAMPF: "combat: a starving amoeba may attack one on its field (1 BP)",
    G.PARASITISMUS: "feeding: one cube less, a neighbour of another colour pays 1 BP",
    G.TEILUNGSRATE: "division: a new amoeba costs 4 BP instead of 6",
    G.GEN_AUSDAUER: "combat: a lost fight is re-rolled once; includes Speed",
    G.BEWEGUNG2: "movement: after the roll, any direction",
    G.AGGRESSION: "phases: once per round in phase 5, attack a foreign amoeba; includes Struggle",
    G.PANZERUNG: "combat: cannot be attacked in phase 1; in phase 5 a hit is one damage point",
}
"""What each gene does and which module of the rulebook applies it."""

INCLUDED_BY: dict[Gene, Gene] = {
    G.GESCHWINDIGKEIT: G.GEN_AUSDAUER,
    G.UEBERLEBENSKAMPF: G.AGGRESSION,
    G.BEWEGUNG1: G.BEWEGUNG2,
}
"""Basic effects an advanced gene keeps (A16, A17; Movement II supersedes Movement I)."""


def has_effect(owned: Iterable[Gene], gene: Gene) -> bool:
    """Whether a player owning ``owned`` has the effect of ``gene`` (directly or included)."""
    owned_set = set(owned)
    return gene in owned_set or INCLUDED_BY.get(gene) in owned_set


def advanced_over(basic: Gene) -> tuple[Gene, ...]:
    """The advanced genes bought over ``basic``."""
    return tuple(info.gene for info in GENES.values() if basic in info.replaces)


def mutation_points(owned: Iterable[Gene]) -> int:
    """A player's MP: the sum over owned genes (STRAHLENSCHUTZ counts -2)."""
    return sum(GENES[gene].mutation_points for gene in owned)


def ladder_weight(owned: Iterable[Gene]) -> int:
    """The gene weight used by the phase-6 table."""
    return sum(GENES[gene].ladder_weight for gene in owned)


def total_copies(players: int) -> int:
    return sum(info.copies(players) for info in GENES.values())

"""Phase 6: scoring on the ladder with leapfrogging, and the end of the game (note 7.10).

Each player advances by two table values: one for the amoebas on the board, one for the
gene weight (advanced genes 2, STRAHLENSCHUTZ 0, others 1). Markers move in descending order;
spaces held by other markers are skipped while counting (leapfrog), so no two markers ever
share a space. The game ends after phase 6 once a marker reaches the finish zone
(``ladder_length - finish_zone``, 40 by default) or after the round that revealed the last
environment card. The highest position wins.
"""

from __future__ import annotations

from collections.abc import Collection

from gamehall.rules.ursuppe import events as ev
from gamehall.rules.ursuppe.genes import ladder_weight
from gamehall.rules.ursuppe.state import TableState

AMOEBA_SPACES = {0: 0, 1: 0, 2: 0, 3: 1, 4: 2, 5: 4, 6: 5, 7: 6}
"""Spaces by number of amoebas on the board."""


def amoeba_spaces(count: int) -> int:
    return AMOEBA_SPACES[min(count, 7)]


def gene_spaces(weight: int) -> int:
    """Spaces by gene weight: 0-2 -> 0, 3 -> 1, 4 -> 2, 5 -> 3, 6+ -> 4."""
    return max(0, min(weight, 6) - 2)


def advance(g: TableState, farbe: int) -> int:
    return amoeba_spaces(len(g.amoebas_of(farbe))) + gene_spaces(ladder_weight(g.seats[farbe].genes))


def leapfrog(start: int, spaces: int, occupied: Collection[int]) -> int:
    """Move ``spaces`` free spaces forward from ``start``, skipping ``occupied`` ones."""
    position = start
    while spaces > 0:
        position += 1
        if position not in occupied:
            spaces -= 1
    return position


def score(g: TableState) -> None:
    """Advance every marker (descending order) and announce all positions."""
    g.phase = "wertung"
    for farbe in g.descending():
        spaces = advance(g, farbe)
        if spaces > 0:
            player = g.seats[farbe]
            occupied = {g.seats[other].position for other in g.colours if other != farbe}
            player.position = leapfrog(player.position, spaces, occupied)
    for farbe in g.colours:
        g.out.append(ev.Punkte(farbe=farbe, punkte=g.seats[farbe].position))
    g.position_history.append((g.round, {farbe: g.seats[farbe].position for farbe in g.colours}))


def game_over(g: TableState) -> bool:
    return g.last_card_revealed or any(g.seats[c].position >= g.finish_line for c in g.colours)

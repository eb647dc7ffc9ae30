"""The primordial soup: 19 playable fields on a 5x5 grid, stored as data (spec note 3.4).

``x`` runs west to east and ``y`` north to south, both 0-based. ``#`` marks an invalid cell,
``C`` the island with the compass; both are obstacles, as is the edge. Other amoebas are not
obstacles. A layout is a mask of five strings, so layout B (layout A rotated by 180 degrees)
or another board is a data change only.
"""

from __future__ import annotations

import enum
from collections.abc import Collection

Field = tuple[int, int]
"""A cell as ``(x, y)``."""

LAYOUTS: dict[str, tuple[str, ...]] = {
    "A": ("#....", ".....", "..C..", ".....", "###.#"),
    "B": ("#.###", ".....", "..C..", ".....", "....#"),
}
"""Board masks by name; B is A turned by 180 degrees."""


class Direction(enum.IntEnum):
    """Directions as on the wire (seed, "Richtungen")."""

    WESTEN = 1
    NORDEN = 2
    OSTEN = 3
    SUEDEN = 4
    STEHEN = 5


STAY = Direction.STEHEN
DIRECTIONS = tuple(Direction)
STEPS: dict[Direction, tuple[int, int]] = {
    Direction.WESTEN: (-1, 0),
    Direction.NORDEN: (0, -1),
    Direction.OSTEN: (1, 0),
    Direction.SUEDEN: (0, 1),
    Direction.STEHEN: (0, 0),
}


class Board:
    """The geometry of one board: which cells are playable and how steps work.

    Neighbours and step targets are computed once per board, since bots and legal-move
    listings ask for them very often.
    """

    __slots__ = ("_fields", "_neighbours", "_playable", "_targets", "mask")

    def __init__(self, mask: tuple[str, ...]) -> None:
        self.mask = mask
        self._playable = frozenset(
            (x, y) for y, row in enumerate(mask) for x, cell in enumerate(row) if cell == "."
        )
        self._fields = [cell for cell in self.cells() if cell in self._playable]
        self._targets: dict[tuple[Field, int], Field | None] = {}
        for cell in self._fields:
            for direction, (dx, dy) in STEPS.items():
                moved = (cell[0] + dx, cell[1] + dy)
                self._targets[cell, direction] = moved if moved in self._playable else None
        self._neighbours = {
            cell: [t for d in DIRECTIONS if d != STAY if (t := self._targets[cell, d]) is not None]
            for cell in self._fields
        }

    @classmethod
    def layout(cls, name: str) -> Board:
        return cls(LAYOUTS[name])

    @property
    def width(self) -> int:
        return len(self.mask[0])

    @property
    def height(self) -> int:
        return len(self.mask)

    def cells(self) -> list[Field]:
        """Every cell in row-major order (y first, then x), playable or not."""
        return [(x, y) for y in range(self.height) for x in range(self.width)]

    def fields(self) -> list[Field]:
        """The playable fields in row-major order."""
        return list(self._fields)

    def playable(self, cell: Field) -> bool:
        return cell in self._playable

    def target(self, start: Field, direction: int) -> Field | None:
        """The field one step from ``start``, or ``None`` if an obstacle is in the way."""
        if direction == STAY:
            return start
        return self._targets.get((start, direction))

    def effective(self, start: Field, direction: int) -> Direction:
        """``direction`` if it can be carried out from ``start``, else "stay" (7.3: at an
        obstacle the client must send 5)."""
        if direction == STAY or self.target(start, direction) is None:
            return STAY
        return Direction(direction)

    def neighbours(self, cell: Field) -> list[Field]:
        """Orthogonally adjacent playable fields."""
        return self._neighbours.get(cell, [])

    def adjacent_to_any(self, cell: Field, others: Collection[Field]) -> bool:
        return any(other in others for other in self.neighbours(cell))

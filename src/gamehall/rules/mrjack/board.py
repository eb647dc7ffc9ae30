"""The New York board as data (note section 10): every hex with its label, kind, geometric
neighbours and printed content, plus the one-way ferry links and the neighbour rule.

Labels are the seed's ``Koordinate`` terms (``a1``, ``f5``, ...). Internally a hex also has
doubled coordinates ``(column, row)`` (10.1): flat-topped hexes in vertical columns, columns
with an odd letter index (b d f ...) sit half a hex higher than the even ones (c e g ...).
The neighbour lists are written out below exactly as the note publishes them; the tests check
them against :func:`geometric_neighbours` so the data and the rule cannot drift apart.

Only what never changes lives here (kinds, printed buildings, the printed metro entrance,
ports, quays, the exit). What moves during a game - characters, tiles, the two investigation
tiles, steamers, the informant - is in :mod:`.state`, starting from :data:`START_LAYOUT`.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass


class Kind(enum.Enum):
    """What a hex is (10.2)."""

    STREET = "street"
    QUAY_EMBARK = "quay_embark"
    QUAY_LAND = "quay_land"
    PORT = "port"
    LAND_EXIT = "land_exit"
    LIBERTY = "liberty"


@dataclass(frozen=True, slots=True)
class Hex:
    """One node of the board: its label, kind, geometric neighbours, printed content and the
    directed ferry links that leave it."""

    label: str
    kind: Kind
    neighbours: tuple[str, ...]
    printed_building: bool = False
    printed_metro: bool = False
    ferry_to: tuple[str, ...] = ()

    @property
    def column(self) -> int:
        return column_index(self.label)

    @property
    def row(self) -> int:
        return doubled_row(self.label)


# label  kind  neighbours  printed content (building / metro_printed / ferry>X,Y)
_NODES = """
a1  liberty     -                    ferry>f9,h2
b5  quay_embark b6,c4,c5             ferry>a1
b6  street      b5,c5,c6             -
c4  street      b5,c5,d4,d5          -
c5  street      b5,b6,c4,c6,d5,d6    -
c6  street      b6,c5,c7,d6,d7       -
c7  port        c6,d7,d8             -
d4  quay_embark c4,d5,e3,e4          ferry>a1
d5  street      c4,c5,d4,d6,e4,e5    -
d6  street      c5,c6,d5,d7,e5,e6    -
d7  street      c6,c7,d6,d8,e6,e7    -
d8  street      c7,d7,e7,e8          -
e3  street      d4,e4,f3,f4          -
e4  street      d4,d5,e3,e5,f4,f5    -
e5  street      d5,d6,e4,e6,f5,f6    building
e6  street      d6,d7,e5,e7,f6,f7    building
e7  street      d7,d8,e6,e8,f7,f8    -
e8  street      d8,e7,f8,f9          -
f2  port        f3,g2                -
f3  street      e3,f2,f4,g2,g3       -
f4  street      e3,e4,f3,f5,g3,g4    -
f5  street      e4,e5,f4,f6,g4,g5    -
f6  street      e5,e6,f5,f7,g5,g6    -
f7  street      e6,e7,f6,f8,g6,g7    -
f8  street      e7,e8,f7,f9,g7,g8    -
f9  quay_land   e8,f8,g8             -
g2  street      f2,f3,g3,h2,h3       -
g3  street      f3,f4,g2,g4,h3,h4    -
g4  street      f4,f5,g3,g5,h4,h5    -
g5  street      f5,f6,g4,g6,h5,h6    -
g6  street      f6,f7,g5,g7,h6,h7    -
g7  street      f7,f8,g6,g8,h7,h8    -
g8  street      f8,f9,g7,h8,h9       -
h2  quay_land   g2,h3,i2             -
h3  street      g2,g3,h2,h4,i2,i3    -
h4  street      g3,g4,h3,h5,i3,i4    -
h5  street      g4,g5,h4,h6,i4,i5    metro_printed
h6  street      g5,g6,h5,h7,i5,i6    -
h7  street      g6,g7,h6,h8,i6,i7    -
h8  street      g7,g8,h7,h9,i7       -
h9  port        g8,h8                -
i2  street      h2,h3,i3,j2,j3       -
i3  street      h3,h4,i2,i4,j3,j4    -
i4  street      h4,h5,i3,i5,j4,j5    -
i5  street      h5,h6,i4,i6,j5,j6    -
i6  street      h6,h7,i5,i7,j6,j7    -
i7  street      h7,h8,i6,j7          -
j2  street      i2,j3,k2             -
j3  street      i2,i3,j2,j4,k2,k3    -
j4  street      i3,i4,j3,j5,k3,k4    -
j5  street      i4,i5,j4,j6,k4,k5    -
j6  street      i5,i6,j5,j7,k5,k6    -
j7  street      i6,i7,j6,k6,k7       -
k2  street      j2,j3,k3,l2,l3       -
k3  street      j3,j4,k2,k4,l3,l4    building
k4  street      j4,j5,k3,k5,l4,l5    -
k5  street      j5,j6,k4,k6,l5,l6    -
k6  street      j6,j7,k5,k7,l6,l7    building
k7  street      j7,k6,l7,l8          -
l2  street      k2,l3,m1,m2          -
l3  street      k2,k3,l2,l4,m2,m3    -
l4  street      k3,k4,l3,l5,m3,m4    building
l5  street      k4,k5,l4,l6,m4,m5    -
l6  street      k5,k6,l5,l7,m5,m6    building
l7  street      k6,k7,l6,l8,m6,m7    -
l8  street      k7,l7,l9,m7,m8       -
l9  port        l8,m8                -
m1  port        l2,m2,n2             -
m2  street      l2,l3,m1,m3,n2,n3    -
m3  street      l3,l4,m2,m4,n3,n4    -
m4  street      l4,l5,m3,m5,n4,n5    -
m5  street      l5,l6,m4,m6,n5,n6    -
m6  street      l6,l7,m5,m7,n6,n7    -
m7  street      l7,l8,m6,m8,n7,n8    -
m8  street      l8,l9,m7,n8,n9       -
n2  street      m1,m2,n3             -
n3  street      m2,m3,n2,n4          -
n4  street      m3,m4,n3,n5          -
n5  street      m4,m5,n4,n6          -
n6  street      m5,m6,n5,n7,o6       -
n7  street      m6,m7,n6,n8,o6       -
n8  street      m7,m8,n7,n9          -
n9  street      m8,n8                -
o6  land_exit   n6,n7                -
"""

LABEL_PATTERN = re.compile(r"^[a-o][1-9][0-9]*$")
"""The shape of a coordinate term (section 3)."""


def column_index(label: str) -> int:
    """The letter index of a label's column: ``a`` = 0 ... ``o`` = 14."""
    return ord(label[0]) - ord("a")


def doubled_row(label: str) -> int:
    """The doubled row of a label (10.1): ``2(n-1)`` in odd-index columns, one more in even."""
    number = int(label[1:])
    return 2 * (number - 1) + (0 if column_index(label) % 2 == 1 else 1)


def label_at(column: int, row: int) -> str:
    """The label of doubled coordinates ``(column, row)`` (no check that the hex exists)."""
    return f"{chr(ord('a') + column)}{row // 2 + 1}"


def _parse(table: str) -> dict[str, Hex]:
    hexes: dict[str, Hex] = {}
    for line in table.strip().splitlines():
        label, kind, neighbours, content = line.split()
        ferry: tuple[str, ...] = ()
        if content.startswith("ferry>"):
            ferry = tuple(content.removeprefix("ferry>").split(","))
        hexes[label] = Hex(
            label=label,
            kind=Kind(kind),
            neighbours=() if neighbours == "-" else tuple(neighbours.split(",")),
            printed_building=content == "building",
            printed_metro=content == "metro_printed",
            ferry_to=ferry,
        )
    return hexes


BOARD: Mapping[str, Hex] = _parse(_NODES)
"""Every hex by label (84 nodes)."""

LIBERTY_ISLAND = "a1"
LAND_EXIT = "o6"
PORTS: tuple[str, ...] = tuple(h.label for h in BOARD.values() if h.kind is Kind.PORT)
QUAYS_EMBARK: tuple[str, ...] = tuple(h.label for h in BOARD.values() if h.kind is Kind.QUAY_EMBARK)
QUAYS_LAND: tuple[str, ...] = tuple(h.label for h in BOARD.values() if h.kind is Kind.QUAY_LAND)
PRINTED_BUILDINGS: frozenset[str] = frozenset(h.label for h in BOARD.values() if h.printed_building)
PRINTED_METRO: frozenset[str] = frozenset(h.label for h in BOARD.values() if h.printed_metro)
STREETS: tuple[str, ...] = tuple(h.label for h in BOARD.values() if h.kind is Kind.STREET)
FERRY_LINKS: tuple[tuple[str, str], ...] = tuple(
    (h.label, target) for h in BOARD.values() for target in h.ferry_to
)
"""The four directed ferry links: ``b5->a1``, ``d4->a1``, ``a1->f9``, ``a1->h2``."""


def is_label(text: str) -> bool:
    """Whether ``text`` names a hex of this board."""
    return text in BOARD


def neighbours(label: str) -> tuple[str, ...]:
    """The geometric neighbours of a hex, as stored in the board data."""
    return BOARD[label].neighbours


def geometric_neighbours(label: str) -> tuple[str, ...]:
    """The neighbours the coordinate rule of 10.1 gives: ``(c, r±2)`` and ``(c±1, r±1)``
    that exist on the board. Liberty Island is virtual and has none."""
    if BOARD[label].kind is Kind.LIBERTY:
        return ()
    column, row = column_index(label), doubled_row(label)
    found: list[str] = []
    for dc, dr in ((0, -2), (0, 2), (-1, -1), (-1, 1), (1, -1), (1, 1)):
        c, r = column + dc, row + dr
        if not 0 <= c <= 14 or r < 0:
            continue
        candidate = label_at(c, r)
        if candidate in BOARD and doubled_row(candidate) == r and BOARD[candidate].kind is not Kind.LIBERTY:
            found.append(candidate)
    return tuple(sorted(found, key=sort_key))


def sort_key(label: str) -> tuple[str, int]:
    """Order of coordinate lists (4.2): column letter, then row number (``c4 < c5 < d4``)."""
    return label[0], int(label[1:])


def sorted_labels(labels: set[str] | frozenset[str] | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """``labels`` in :func:`sort_key` order, without duplicates."""
    return tuple(sorted(set(labels), key=sort_key))


# --------------------------------------------------------------------------------------------
# Starting layout (10.3); the characters' start hexes are in :mod:`.characters`
# --------------------------------------------------------------------------------------------

START_TILES: Mapping[str, str] = {
    "c5": "metro",
    "l3": "metro",
    "m7": "metro",
    "d6": "laterne",
    "n7": "laterne",
}
"""Removable tiles on the board at the start, by hex, with the side that is up (``Art``)."""

START_INVESTIGATION_TILES: tuple[tuple[str, str], ...] = (("f3", "g2"), ("l8", "m8"))
"""The two two-hex investigation tiles, each in stored order (``update_Absp`` order)."""

START_STEAMERS: tuple[str, ...] = ("f2", "l9")
START_INFORMANT = LIBERTY_ISLAND

"""Letter sets (glyphs, how many tiles of each, their values, vowels) and tiles.

The sets are data, one ``glyph count value class`` line per glyph as the JDuplicate note (§8.1)
describes: ``V`` vowel, ``C`` consonant, ``VC`` both (the blank). Counts and values follow the
standard English and French sets; in French, Y is a vowel. French accents are ignored on tiles
(É plays as E), which is why every word list is normalised to A-Z.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

BLANK = "?"
"""The blank in a rack. ``*`` (the JDuplicate spelling) is accepted wherever a rack is parsed."""

BLANK_ALIASES = frozenset({"?", "*"})

_EN_TABLE = """
A 9 1 V
B 2 3 C
C 2 3 C
D 4 2 C
E 12 1 V
F 2 4 C
G 3 2 C
H 2 4 C
I 9 1 V
J 1 8 C
K 1 5 C
L 4 1 C
M 2 3 C
N 6 1 C
O 8 1 V
P 2 3 C
Q 1 10 C
R 6 1 C
S 4 1 C
T 6 1 C
U 4 1 V
V 2 4 C
W 2 4 C
X 1 8 C
Y 2 4 C
Z 1 10 C
? 2 0 VC
"""

_FR_TABLE = """
A 9 1 V
B 2 3 C
C 2 3 C
D 3 2 C
E 15 1 V
F 2 4 C
G 2 2 C
H 2 4 C
I 8 1 V
J 1 8 C
K 1 10 C
L 5 1 C
M 3 2 C
N 6 1 C
O 6 1 V
P 2 3 C
Q 1 8 C
R 6 1 C
S 6 1 C
T 6 1 C
U 6 1 V
V 2 4 C
W 1 10 C
X 1 10 C
Y 1 10 V
Z 1 10 C
? 2 0 VC
"""


@dataclass(frozen=True, slots=True)
class Glyph:
    """One line of a letter set: a glyph (A-Z or the blank), its tile count, value and class."""

    glyph: str
    count: int
    value: int
    klass: str

    @property
    def is_vowel(self) -> bool:
        return "V" in self.klass

    @property
    def is_consonant(self) -> bool:
        return "C" in self.klass


@dataclass(frozen=True, slots=True)
class LetterSet:
    """A language's tiles: glyphs in order, with counts, values and vowel/consonant classes."""

    name: str
    glyphs: tuple[Glyph, ...]

    def __deepcopy__(self, memo: dict[int, object]) -> LetterSet:
        """Frozen: a copy of a game shares it."""
        return self

    @classmethod
    def parse(cls, name: str, table: str) -> LetterSet:
        """Read ``glyph count value class`` lines (blank lines ignored)."""
        glyphs = []
        for line in table.split("\n"):
            if line.strip():
                glyph, count, value, klass = line.split()
                glyphs.append(Glyph(glyph, int(count), int(value), klass))
        return cls(name, tuple(glyphs))

    @property
    def by_glyph(self) -> Mapping[str, Glyph]:
        return {g.glyph: g for g in self.glyphs}

    def value(self, letter: str) -> int:
        """The value of a tile showing ``letter`` (the blank, ``?``, is worth 0)."""
        return self.by_glyph[letter].value

    @property
    def letter_values(self) -> tuple[int, ...]:
        """The value of A..Z, indexed by letter number (A = 0): what the move generator reads."""
        values = self.by_glyph
        return tuple(values[chr(65 + i)].value for i in range(26))

    @property
    def vowels(self) -> frozenset[str]:
        """The letters that count as vowels (the blank counts as both vowel and consonant)."""
        return frozenset(g.glyph for g in self.glyphs if g.is_vowel and g.glyph != BLANK)

    def bag(self) -> list[str]:
        """Every tile of a full bag, in letter-set order (``?`` for blanks)."""
        return [g.glyph for g in self.glyphs for _ in range(g.count)]

    def rack_value(self, rack: Iterable[str]) -> int:
        """The total face value of ``rack`` (end-of-game penalties)."""
        return sum(self.value(normalise_rack_tile(t)) for t in rack)


def normalise_rack_tile(tile: str) -> str:
    """A rack tile as the engine writes it: upper-case A-Z, or ``?`` for a blank (``*`` accepted)."""
    return BLANK if tile in BLANK_ALIASES else tile.upper()


def parse_rack(rack: str | Iterable[str]) -> tuple[str, ...]:
    """The tiles of a rack written as ``"AEINST?"`` / ``"AEINST*"`` or a sequence of tiles.

    Raises:
        ValueError: a tile is neither a letter A-Z nor a blank.
    """
    tiles = tuple(normalise_rack_tile(t) for t in rack)
    for tile in tiles:
        if tile != BLANK and not ("A" <= tile <= "Z" and len(tile) == 1):
            raise ValueError(f"not a tile: {tile!r}")
    return tiles


ENGLISH = LetterSet.parse("EN", _EN_TABLE)
FRENCH = LetterSet.parse("FR", _FR_TABLE)
LETTER_SETS: Mapping[str, LetterSet] = {"EN": ENGLISH, "FR": FRENCH}


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile on the board: the letter it shows and whether it is a blank played as that letter."""

    letter: str
    blank: bool = False

    @property
    def glyph(self) -> str:
        """The JDuplicate / FEN spelling: upper case, or lower case for a blank."""
        return self.letter.lower() if self.blank else self.letter

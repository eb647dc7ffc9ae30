"""Board geometry and board contents.

Squares are ``(row, col)`` with ``row`` 0.. from the top (JDuplicate's letters A..O) and ``col`` 0..
from the left (JDuplicate's x = 1..15). A :class:`BoardLayout` is the empty board: its size, the
start square and the premium squares, written as the JDuplicate note draws them (§8.1):
``T`` triple word, ``D`` double word (the start square is a ``D``), ``t`` triple letter,
``d`` double letter, ``.`` plain. A :class:`Board` is a layout with tiles on it; it is immutable,
and playing a move gives a new board.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from gamehall.rules.words.letters import Tile

Square = tuple[int, int]
"""(row, col), both counted from 0 at the top left."""

ROW_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

_LETTER_MULTIPLIER = {".": 1, "d": 2, "t": 3, "D": 1, "T": 1}
_WORD_MULTIPLIER = {".": 1, "d": 1, "t": 1, "D": 2, "T": 3}


class Direction(enum.Enum):
    """Which way a word reads: across (along a row) or down (along a column)."""

    ACROSS = "across"
    DOWN = "down"

    @property
    def step(self) -> Square:
        """The (row, col) offset from one letter of a word to the next."""
        return (0, 1) if self is Direction.ACROSS else (1, 0)

    @property
    def other(self) -> Direction:
        return Direction.DOWN if self is Direction.ACROSS else Direction.ACROSS


@dataclass(frozen=True, slots=True)
class BoardLayout:
    """An empty board: name, premium squares (one string per row) and the start square."""

    name: str
    premiums: tuple[str, ...]
    start: Square

    def __post_init__(self) -> None:
        widths = {len(row) for row in self.premiums}
        if len(widths) != 1 or not set("".join(self.premiums)) <= set(_LETTER_MULTIPLIER):
            raise ValueError("premium rows must have equal length and use only . d t D T")
        if not self.on_board(*self.start):
            raise ValueError("the start square must be on the board")

    @property
    def height(self) -> int:
        return len(self.premiums)

    @property
    def width(self) -> int:
        return len(self.premiums[0])

    @property
    def symmetric(self) -> bool:
        """Whether the layout is its own transpose (start square included), as the standard board is.

        On such a board an empty-board move scores the same across and down.
        """
        return (
            self.width == self.height
            and self.start[0] == self.start[1]
            and all(self.premiums[r][c] == self.premiums[c][r] for r in range(self.height) for c in range(r))
        )

    def on_board(self, row: int, col: int) -> bool:
        return 0 <= row < self.height and 0 <= col < self.width

    def letter_multiplier(self, row: int, col: int) -> int:
        """2 on a ``d`` square, 3 on a ``t`` square, else 1 (applies to a newly placed tile only)."""
        return _LETTER_MULTIPLIER[self.premiums[row][col]]

    def word_multiplier(self, row: int, col: int) -> int:
        """2 on a ``D`` square, 3 on a ``T`` square, else 1 (applies to a newly placed tile only)."""
        return _WORD_MULTIPLIER[self.premiums[row][col]]


STANDARD = BoardLayout(
    "standard",
    (
        "T..d...T...d..T",
        ".D...t...t...D.",
        "..D...d.d...D..",
        "d..D...d...D..d",
        "....D.....D....",
        ".t...t...t...t.",
        "..d...d.d...d..",
        "T..d...D...d..T",
        "..d...d.d...d..",
        ".t...t...t...t.",
        "....D.....D....",
        "d..D...d...D..d",
        "..D...d.d...D..",
        ".D...t...t...D.",
        "T..d...T...d..T",
    ),
    (7, 7),
)
"""The standard 15x15 board; the start square H8 is (7, 7)."""


def square_name(row: int, col: int) -> str:
    """JDuplicate's name of a square: row letter then column number (``H8`` for (7, 7))."""
    return f"{ROW_NAMES[row]}{col + 1}"


def move_ref(row: int, col: int, direction: Direction) -> str:
    """JDuplicate's (French) reference of a word starting at (row, col).

    Row letter first means across (``H4``), column number first means down (``8A``).
    """
    if direction is Direction.ACROSS:
        return f"{ROW_NAMES[row]}{col + 1}"
    return f"{col + 1}{ROW_NAMES[row]}"


@dataclass(frozen=True, slots=True)
class Board:
    """A layout and the tiles on it: ``cells[row][col]`` is a :class:`Tile` or ``None``."""

    layout: BoardLayout
    cells: tuple[tuple[Tile | None, ...], ...]

    @classmethod
    def empty(cls, layout: BoardLayout = STANDARD) -> Board:
        return cls(layout, tuple((None,) * layout.width for _ in range(layout.height)))

    @classmethod
    def from_rows(cls, rows: Iterable[str], layout: BoardLayout = STANDARD) -> Board:
        """A board from one string per row: ``.`` empty, upper case a tile, lower case a blank."""
        cells = []
        for text in rows:
            cells.append(tuple(None if ch == "." else Tile(ch.upper(), blank=ch.islower()) for ch in text))
        board = cls(layout, tuple(cells))
        if len(cells) != layout.height or any(len(row) != layout.width for row in cells):
            raise ValueError("rows do not match the layout's size")
        return board

    @classmethod
    def from_fen(cls, fen: str, layout: BoardLayout = STANDARD) -> Board:
        """A board from a FEN-like string (rows split by ``/``, digits count empty squares).

        This is the notation of the wolges benchmark positions; lower case marks a blank.
        """
        rows = []
        for part in fen.split("/"):
            text = []
            number = ""
            for ch in part:
                if ch.isdigit():
                    number += ch
                    continue
                if number:
                    text.append("." * int(number))
                    number = ""
                text.append(ch)
            if number:
                text.append("." * int(number))
            rows.append("".join(text))
        return cls.from_rows(rows, layout)

    def __getitem__(self, square: Square) -> Tile | None:
        row, col = square
        return self.cells[row][col]

    def rows(self) -> list[str]:
        """One string per row, as :meth:`from_rows` reads them."""
        return ["".join("." if t is None else t.glyph for t in row) for row in self.cells]

    def tiles(self) -> Iterator[tuple[Square, Tile]]:
        """Every tile on the board, in row order (A1, A2, ..., then B1, ...)."""
        for row, cells in enumerate(self.cells):
            for col, tile in enumerate(cells):
                if tile is not None:
                    yield (row, col), tile

    @property
    def is_empty(self) -> bool:
        return all(tile is None for row in self.cells for tile in row)

    def tile_count(self) -> int:
        return sum(tile is not None for row in self.cells for tile in row)

    def with_tiles(self, placed: Iterable[tuple[Square, Tile]]) -> Board:
        """A new board with ``placed`` added (squares must be empty; the referee checks that)."""
        cells = [list(row) for row in self.cells]
        for (row, col), tile in placed:
            if cells[row][col] is not None:
                raise ValueError(f"square {square_name(row, col)} is occupied")
            cells[row][col] = tile
        return Board(self.layout, tuple(tuple(row) for row in cells))

    def __str__(self) -> str:
        return "\n".join(self.rows())

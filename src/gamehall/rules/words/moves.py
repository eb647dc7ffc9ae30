"""Moves, the placement referee and scoring (JDuplicate note §8.2).

A :class:`Move` is a word on a line of the board: its first square, its direction and its letters
(lower case for a blank), with which letters are newly placed and the score. The move generator
produces moves; :func:`validate_move` turns a player's raw placement (tiles on squares) into a
move, or says exactly which rule it breaks with a :class:`PlacementError` code that the protocol
dialogues map to their own messages.

**Scoring.** Every word formed scores: the main word, and each perpendicular word of two or more
letters through a new tile. A word is the sum of its letter values, with letter premiums counted
only under newly placed tiles, times every word premium under a newly placed tile of that word.
Blanks are worth 0. Placing all seven rack tiles adds :data:`BINGO_BONUS`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from gamehall.rules._core import IllegalAction
from gamehall.rules.words.board import Board, Direction, Square, move_ref, square_name
from gamehall.rules.words.letters import BLANK, ENGLISH, LetterSet, Tile, parse_rack
from gamehall.rules.words.lexicon import Lexicon

BINGO_BONUS = 50
BINGO_TILES = 7

Placement = Sequence[tuple[Square, Tile]]
"""What a player sends: tiles on squares, in any order."""


class PlacementError(IllegalAction):
    """A placement breaks a rule of §8.2; ``code`` says which, ``detail`` carries the evidence.

    Codes, in the order the referee checks them: ``too_short`` (no tile, or no word of 2 letters),
    ``off_board``, ``duplicate_square``, ``occupied``, ``bad_blank``, ``not_in_rack``,
    ``not_in_line``, ``gap``, ``first_move_centre``, ``not_connected``, ``not_in_dictionary``.
    """

    default_code = "illegal_placement"


class NotInDictionary(PlacementError):
    """A word formed by the placement is not in the lexicon (``detail["word"]`` names it)."""

    default_code = "not_in_dictionary"


@dataclass(frozen=True, slots=True)
class WordFormed:
    """One word a move forms: where it starts, which way it reads, its letters and its score."""

    row: int
    col: int
    direction: Direction
    word: str
    score: int


class Move(NamedTuple):
    """A placement as the engine records it (immutable; a named tuple because the generator makes
    tens of thousands of them and a tuple is the cheapest immutable record to build).

    ``word`` is the whole main word, board tiles included, lower case where a blank stands;
    ``new[i]`` says whether letter ``i`` of ``word`` is placed by this move. ``score`` includes the
    cross-words and the bingo bonus.
    """

    row: int
    col: int
    direction: Direction
    word: str
    new: tuple[bool, ...]
    score: int

    @property
    def start(self) -> Square:
        return (self.row, self.col)

    @property
    def ref(self) -> str:
        """The French-convention reference (``H4`` across, ``8A`` down)."""
        return move_ref(self.row, self.col, self.direction)

    def squares(self) -> list[Square]:
        """The squares of the main word, first to last."""
        drow, dcol = self.direction.step
        return [(self.row + i * drow, self.col + i * dcol) for i in range(len(self.word))]

    def placed(self) -> list[tuple[Square, Tile]]:
        """The tiles this move puts on the board, with their squares."""
        return [
            (square, Tile(ch.upper(), blank=ch.islower()))
            for square, ch, new in zip(self.squares(), self.word, self.new, strict=True)
            if new
        ]

    @property
    def tiles_used(self) -> int:
        return sum(self.new)

    @property
    def blanks_used(self) -> int:
        return sum(1 for ch, new in zip(self.word, self.new, strict=True) if new and ch.islower())

    @property
    def rack_tiles(self) -> str:
        """The rack tiles spent, ``?`` for a blank (what leaves the rack)."""
        return "".join(
            BLANK if ch.islower() else ch for ch, new in zip(self.word, self.new, strict=True) if new
        )

    def sort_key(self) -> tuple[int, int, int, int, int, str, str]:
        """The top's tie-break (§8.3): score, fewest blanks, row, column, across first, word.

        Last (ours, so the order is total): the word as written, where an upper-case letter
        sorts before a blank's lower case, so of two spellings the one with blanks later wins.
        """
        return (
            -self.score,
            self.blanks_used,
            self.row,
            self.col,
            0 if self.direction is Direction.ACROSS else 1,
            self.word.upper(),
            self.word,
        )

    def __str__(self) -> str:
        return f"{self.ref} {self.word} {self.score}"


def apply_move(board: Board, move: Move) -> Board:
    """The board after ``move`` (which must fit the board it was generated or validated on)."""
    return board.with_tiles(move.placed())


def words_formed(board: Board, move: Move, letters: LetterSet = ENGLISH) -> list[WordFormed]:
    """The main word and every cross-word of ``move`` on ``board`` (the board before the move)."""
    placed = dict(move.placed())
    return _words_and_scores(board, placed, move.direction, letters.letter_values)


def validate_move(
    board: Board,
    rack: str | Iterable[str],
    placement: Placement,
    lexicon: Lexicon,
    letters: LetterSet = ENGLISH,
) -> Move:
    """Check a player's placement against the rules and return it as a scored :class:`Move`.

    Raises:
        PlacementError: with the code of the first rule broken (order of §8.2; see the class).
        NotInDictionary: a word formed is not in ``lexicon`` (checked last).
    """
    placed = _checked_squares(board, placement)
    _check_rack(parse_rack(rack), placed.values())
    direction = _checked_line(board, placed)
    _check_connection(board, placed)
    formed = _words_and_scores(board, placed, direction, letters.letter_values)
    for word in formed:
        if word.word.upper() not in lexicon:
            raise NotInDictionary(f"{word.word.upper()} is not in the dictionary.", word=word.word.upper())
    main = formed[0]
    drow, dcol = direction.step
    new = tuple((main.row + i * drow, main.col + i * dcol) in placed for i in range(len(main.word)))
    bonus = BINGO_BONUS if len(placed) == BINGO_TILES else 0
    return Move(main.row, main.col, direction, main.word, new, sum(w.score for w in formed) + bonus)


def _fail(code: str, reason: str, **detail: Any) -> PlacementError:
    return PlacementError(reason, code=code, **detail)


def _checked_squares(board: Board, placement: Placement) -> dict[Square, Tile]:
    if not placement:
        raise _fail("too_short", "A move must place at least one tile.")
    placed: dict[Square, Tile] = {}
    for (row, col), tile in placement:
        if not board.layout.on_board(row, col):
            raise _fail("off_board", "A tile is outside the board.", square=(row, col))
        if (row, col) in placed:
            raise _fail("duplicate_square", "Two tiles on one square.", square=(row, col))
        if board[row, col] is not None:
            raise _fail("occupied", f"{square_name(row, col)} is occupied.", square=(row, col))
        placed[row, col] = tile
    return placed


def _check_rack(rack: Sequence[str], tiles: Iterable[Tile]) -> None:
    available = Counter(rack)
    for tile in tiles:
        if not (len(tile.letter) == 1 and "A" <= tile.letter <= "Z"):
            code = "bad_blank" if tile.blank else "not_in_rack"
            raise _fail(code, f"{tile.letter!r} is not a letter.", glyph=tile.glyph)
        needed = BLANK if tile.blank else tile.letter
        if available[needed] == 0:
            raise _fail("not_in_rack", f"{needed} is not in the rack.", glyph=needed)
        available[needed] -= 1


def _checked_line(board: Board, placed: Mapping[Square, Tile]) -> Direction:
    """The direction of the main word; checks one line and no gap."""
    rows = {row for row, _ in placed}
    cols = {col for _, col in placed}
    if len(placed) == 1:
        ((row, col),) = placed
        across = _occupied(board, row, col - 1) or _occupied(board, row, col + 1)
        down = _occupied(board, row - 1, col) or _occupied(board, row + 1, col)
        if across or not down:
            direction = Direction.ACROSS
        else:
            direction = Direction.DOWN
    elif len(rows) == 1:
        direction = Direction.ACROSS
    elif len(cols) == 1:
        direction = Direction.DOWN
    else:
        raise _fail("not_in_line", "The tiles are not on one row or one column.")
    drow, dcol = direction.step
    first = min(placed)
    last = max(placed)
    row, col = first
    while (row, col) != last:
        row, col = row + drow, col + dcol
        if (row, col) not in placed and board[row, col] is None:
            raise _fail("gap", "The word has a gap.", square=(row, col))
    return direction


def _occupied(board: Board, row: int, col: int) -> bool:
    return board.layout.on_board(row, col) and board[row, col] is not None


def _check_connection(board: Board, placed: Mapping[Square, Tile]) -> None:
    if board.is_empty:
        if board.layout.start not in placed:
            start = square_name(*board.layout.start)
            raise _fail("first_move_centre", f"The first move must cover {start}.")
        return
    for row, col in placed:
        for drow, dcol in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            if _occupied(board, row + drow, col + dcol):
                return
    raise _fail("not_connected", "The word does not touch any tile on the board.")


def _words_and_scores(
    board: Board, placed: Mapping[Square, Tile], direction: Direction, values: Sequence[int]
) -> list[WordFormed]:
    """The main word first, then each cross-word through a new tile, in square order."""
    main = _word_through(board, placed, min(placed), direction, values)
    if len(main.word) < 2:
        raise _fail("too_short", "The move forms no word of two or more letters.")
    formed = [main]
    for square in sorted(placed):
        cross = _word_through(board, placed, square, direction.other, values)
        if len(cross.word) >= 2:
            formed.append(cross)
    return formed


def _word_through(
    board: Board, placed: Mapping[Square, Tile], square: Square, direction: Direction, values: Sequence[int]
) -> WordFormed:
    """The maximal run of tiles (board and new) through ``square`` along ``direction``, scored."""
    layout = board.layout
    drow, dcol = direction.step

    def tile_at(row: int, col: int) -> Tile | None:
        if not layout.on_board(row, col):
            return None
        return placed.get((row, col)) or board[row, col]

    row, col = square
    while tile_at(row - drow, col - dcol) is not None:
        row, col = row - drow, col - dcol
    start = (row, col)
    letters = []
    total = 0
    multiplier = 1
    while (tile := tile_at(row, col)) is not None:
        letters.append(tile.glyph)
        value = 0 if tile.blank else values[ord(tile.letter) - 65]
        if (row, col) in placed:
            value *= layout.letter_multiplier(row, col)
            multiplier *= layout.word_multiplier(row, col)
        total += value
        row, col = row + drow, col + dcol
    return WordFormed(start[0], start[1], direction, "".join(letters), total * multiplier)

"""A brute-force move enumerator, the oracle the GADDAG generator is checked against.

It shares nothing with the generator: for every segment of every line it tries every lexicon
word of that length that agrees with the tiles already there, every way of covering the holes
with rack tiles (a blank or a real tile where both are possible), and asks the referee
(:func:`validate_move`) whether the placement is legal and what it scores.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable

from gamehall.rules.words.board import Board, Direction
from gamehall.rules.words.letters import BLANK, LetterSet, Tile
from gamehall.rules.words.lexicon import Lexicon
from gamehall.rules.words.moves import Move, PlacementError, validate_move

MoveKey = tuple[int, int, Direction, str, int]


def key(move: Move) -> MoveKey:
    return (move.row, move.col, move.direction, move.word, move.score)


def brute_force_moves(
    board: Board, rack: str, lexicon: Lexicon, words: Iterable[str], letters: LetterSet
) -> set[MoveKey]:
    layout = board.layout
    rack_counts = Counter(rack)
    by_length: dict[int, list[str]] = {}
    for word in words:
        by_length.setdefault(len(word), []).append(word)
    found: set[MoveKey] = set()
    for direction in Direction:
        lines = layout.height if direction is Direction.ACROSS else layout.width
        size = layout.width if direction is Direction.ACROSS else layout.height
        for line in range(lines):
            for first in range(size):
                for last in range(first + 1, size):
                    across = direction is Direction.ACROSS
                    squares = [(line, p) if across else (p, line) for p in range(first, last + 1)]
                    for candidate in by_length.get(len(squares), []):
                        for placement in _placements(board, squares, candidate, rack_counts):
                            try:
                                move = validate_move(board, rack, placement, lexicon, letters)
                            except PlacementError:
                                continue
                            found.add(key(move))
    return found


def _placements(
    board: Board, squares: list[tuple[int, int]], word: str, rack: Counter[str]
) -> Iterable[list[tuple[tuple[int, int], Tile]]]:
    holes = []
    for square, letter in zip(squares, word, strict=True):
        tile = board[square]
        if tile is None:
            holes.append((square, letter))
        elif tile.letter != letter:
            return
    if not holes or len(holes) > sum(rack.values()):
        return
    options = []
    for _square, letter in holes:
        choices = []
        if rack[letter]:
            choices.append(False)
        if rack[BLANK]:
            choices.append(True)
        if not choices:
            return
        options.append(choices)
    for blanks in itertools.product(*options):
        spent = [BLANK if is_blank else letter for (_, letter), is_blank in zip(holes, blanks, strict=True)]
        used = Counter(spent)
        if all(used[t] <= rack[t] for t in used):
            yield [(square, Tile(letter, blank=b)) for (square, letter), b in zip(holes, blanks, strict=True)]

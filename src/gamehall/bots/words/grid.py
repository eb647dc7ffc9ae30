"""Every word a boggle grid holds, with a path that traces it (what a bot submits).

A depth-first walk over the grid, following the lexicon's left-to-right trie
(:meth:`~gamehall.rules.words.gaddag.Gaddag.forward`) so a path stops as soon as no word starts
with what it spells. A ``Q`` cell reads ``QU``, as the engine scores it.
"""

from __future__ import annotations

from gamehall.rules.words.boggle import MIN_LENGTH, cell_text, word_points
from gamehall.rules.words.lexicon import Lexicon

Cell = tuple[int, int]
Path = tuple[tuple[int, int, str], ...]
"""A word's path as the ``Moves`` action carries it: ``(row, col, grid glyph)`` in order."""


def grid_words(grid: tuple[str, ...] | list[str], lexicon: Lexicon) -> dict[str, Path]:
    """Every word of ``lexicon`` (at least :data:`MIN_LENGTH` letters) traceable on ``grid``,
    each with the first path found in row order."""
    gaddag = lexicon.gaddag
    rows = len(grid)
    cols = len(grid[0]) if rows else 0
    found: dict[str, Path] = {}

    def visit(cell: Cell, node: int, word: str, path: tuple[Cell, ...]) -> None:
        accepted = False
        for ch in cell_text(grid[cell[0]][cell[1]]):
            if node < 0:
                return
            code = ord(ch) - 65
            if not word:
                node, accepted = gaddag.forward(code), False
            else:
                accepted = gaddag.accepts_after(node, code)
                node = gaddag.child(node, code)
            word += ch
        path += (cell,)
        if accepted and len(word) >= MIN_LENGTH and word not in found:
            found[word] = tuple((r, c, grid[r][c]) for r, c in path)
        if node < 0:
            return
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                nxt = (cell[0] + dr, cell[1] + dc)
                if (dr or dc) and 0 <= nxt[0] < rows and 0 <= nxt[1] < cols and nxt not in path:
                    visit(nxt, node, word, path)

    for r in range(rows):
        for c in range(cols):
            visit((r, c), gaddag.root, "", ())
    return found


def best_first(words: dict[str, Path]) -> list[str]:
    """The words by points, then length, then alphabetically: the order a strong player sends."""
    return sorted(words, key=lambda word: (-word_points(word), -len(word), word))

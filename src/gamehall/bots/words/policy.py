"""The in-hall word-game bot: what a seat plays, from its own view of the table.

Two styles, as :func:`~gamehall.bots.hall_bots.make_policy` names them:

- ``"heuristic"``: the master. Duplicate and scrabble: the top move. Boggle: every word it finds
  on the grid, best first (up to :data:`HEURISTIC_WORDS`).
- ``"random"``: a weaker player. Duplicate and scrabble: one of the best few moves
  (:data:`RANDOM_STRENGTH`, see :func:`~.choose.pool_size`). Boggle: a random handful of the
  grid's words (:data:`RANDOM_WORDS`), short ones as likely as long ones.

Scrabble without a playable move: exchange the whole rack while the bag holds a full rack, else
pass. Boggle: the operator bot opens the next round (StartTurn) when the game waits for one.
Every choice is deterministic given the ``random.Random`` passed in.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from gamehall.bots.words.choose import choose_move, move_tiles
from gamehall.bots.words.grid import Path, best_first, grid_words
from gamehall.rules._core import Action
from gamehall.rules.words.actions import ChangeLetters, Moves, StartTurn
from gamehall.rules.words.board import Board
from gamehall.rules.words.letters import LETTER_SETS
from gamehall.rules.words.lexicon import Lexicon
from gamehall.rules.words.settings import shared_lexicon

STYLES: Final = ("random", "heuristic")
HEURISTIC_STRENGTH: Final = 1.0
RANDOM_STRENGTH: Final = 0.6
HEURISTIC_WORDS: Final = 40
RANDOM_WORDS: Final = 8
RACK_SIZE: Final = 7
PLAYING: Final = frozenset({"open", "grace"})


class WordsPolicy:
    """A word-game bot of one ``style`` (``"random"`` or ``"heuristic"``)."""

    def __init__(self, style: str = "heuristic") -> None:
        if style not in STYLES:
            raise ValueError(f"unknown words bot style {style!r}; choose one of {', '.join(STYLES)}")
        self.style = style
        self.strength = HEURISTIC_STRENGTH if style == "heuristic" else RANDOM_STRENGTH
        self._plans: dict[tuple[int, tuple[str, ...]], list[tuple[str, Path]]] = {}

    def decide(self, view: Mapping[str, Any], seat: int, rng: random.Random) -> Action | None:
        """The action ``seat`` takes now given its engine ``view``, or ``None`` (nothing to do)."""
        mode = view.get("mode")
        phase = view.get("phase")
        if mode == "boggle":
            if phase == "wait_start" and view.get("operator") == seat:
                return StartTurn()
            if phase in PLAYING:
                return self._boggle_word(view, rng)
            return None
        if phase not in PLAYING:
            return None
        if mode == "duplicate":
            if seat in (view.get("submitted") or ()):
                return None
            return self._placement(view, rng)
        if mode == "scrabble" and view.get("current") == seat:
            return self._placement(view, rng) or self._scoreless(view)
        return None

    # ---------------------------------------------------------------- duplicate and scrabble

    def _placement(self, view: Mapping[str, Any], rng: random.Random) -> Moves | None:
        """The chosen move on the view's board and rack, or ``None`` if the rack cannot play."""
        rack = [str(tile) for tile in view.get("rack") or ()]
        if not rack:
            return None
        board = Board.from_rows(str(row) for row in view["board"])
        letters = LETTER_SETS[str(view["letters"])]
        move = choose_move(board, rack, _lexicon(view), rng, self.strength, letters)
        return Moves(move_tiles(move)) if move is not None else None

    @staticmethod
    def _scoreless(view: Mapping[str, Any]) -> Action:
        """Scrabble with no move: change every tile if the bag allows it, else pass."""
        rack = tuple(str(tile) for tile in view.get("rack") or ())
        if rack and int(view.get("bag_count") or 0) >= RACK_SIZE:
            return ChangeLetters(rack)
        return Moves(())

    # ---------------------------------------------------------------- boggle

    def _boggle_word(self, view: Mapping[str, Any], rng: random.Random) -> Moves | None:
        """The next word of this round's plan not sent yet, or ``None`` when the plan is done."""
        grid = tuple(str(row) for row in view.get("grid") or ())
        if not grid:
            return None
        key = (int(view.get("turn") or 0), grid)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plan(grid, _lexicon(view), rng)
            self._plans = {key: plan}  # one round at a time: forget the earlier grids
        sent = set(view.get("words") or ())
        for word, path in plan:
            if word not in sent:
                return Moves(path)
        return None

    def _plan(self, grid: tuple[str, ...], lexicon: Lexicon, rng: random.Random) -> list[tuple[str, Path]]:
        """The words this bot will send this round, in sending order."""
        words = grid_words(grid, lexicon)
        if self.style == "heuristic":
            chosen = best_first(words)[:HEURISTIC_WORDS]
        else:
            ordered = sorted(words)
            chosen = rng.sample(ordered, min(RANDOM_WORDS, len(ordered)))
        return [(word, words[word]) for word in chosen]


def _lexicon(view: Mapping[str, Any]) -> Lexicon:
    """The table's lexicon, shared with the engine (loaded once per process)."""
    return shared_lexicon(str(view["dictionary"]))

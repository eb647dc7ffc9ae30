"""Word games (duplicate, scrabble, boggle): the shared foundation (spec note ``jduplicate.md``).

- :mod:`.letters`: letter sets EN and FR (counts, values, vowels), racks and tiles;
- :mod:`.board`: the board layout (premium squares, start square) and board contents;
- :mod:`.lexicon`: word lists (bundled or a user file), normalisation, the cached GADDAG;
- :mod:`.moves`: moves, the placement referee (:func:`~.moves.validate_move`) and scoring;
- :mod:`.movegen`: every legal move of a rack (:func:`~.movegen.generate_moves`) and the top
  (:func:`~.movegen.best_move`), built on :mod:`.linesearch`, :mod:`.bounds`,
  :mod:`.topsearch`, :mod:`.anagrams` and :mod:`.gaddag`.

Only :mod:`.lexicon` reads files (the bundled lists in ``data/`` and its cache); everything else
is pure.

The games themselves: :mod:`.settings` (room settings, the predefined games, shared lexicons),
:mod:`.words_table` (seats, operator, scores, phases), :mod:`.duplicate`, :mod:`.scrabble` and
:mod:`.boggle` (one mode each, built on :mod:`.bag` and :mod:`.placing`), :mod:`.actions` and
:mod:`.events`. ``GAME_TYPE`` (game id ``words``) is what the hall registers.
"""

from __future__ import annotations

from collections.abc import Mapping

from gamehall.rules._core import JSON, GameType
from gamehall.rules.words.actions import ACTIONS, ChangeLetters, Moves, StartTurn
from gamehall.rules.words.boggle import BoggleTable
from gamehall.rules.words.duplicate import DuplicateTable
from gamehall.rules.words.lexicon import Lexicon
from gamehall.rules.words.scrabble import ScrabbleTable
from gamehall.rules.words.settings import (
    PRESETS,
    SCHEMA,
    Preset,
    Rules,
    default_title,
    resolve,
    seat_count,
    shared_lexicon,
)
from gamehall.rules.words.words_table import WordsTable

TABLES: Mapping[str, type[WordsTable]] = {
    "duplicate": DuplicateTable,
    "scrabble": ScrabbleTable,
    "boggle": BoggleTable,
}


def new_game(config: Mapping[str, JSON], seed: int, lexicon: Lexicon | None = None) -> WordsTable:
    """A table for ``config`` (its mode picks the class). ``lexicon`` replaces the configured
    dictionary (tests use small in-memory lexicons); otherwise it is loaded once per process.

    Raises:
        ConfigError: a setting is invalid or the dictionary cannot be found.
    """
    rules = resolve(config)
    table_class = TABLES[rules.mode]
    return table_class(rules, seed, lexicon if lexicon is not None else shared_lexicon(rules.dictionary))


def _new_game(config: Mapping[str, JSON], seed: int) -> WordsTable:
    return new_game(config, seed)


GAME_TYPE = GameType(
    game_id="words",
    title="Duplicate, Scrabble, Boggle",
    schema=SCHEMA,
    new_game=_new_game,
    actions=ACTIONS,
    seat_count=seat_count,
    default_title=default_title,
)

__all__ = [
    "ACTIONS",
    "GAME_TYPE",
    "PRESETS",
    "SCHEMA",
    "TABLES",
    "BoggleTable",
    "ChangeLetters",
    "DuplicateTable",
    "Moves",
    "Preset",
    "Rules",
    "ScrabbleTable",
    "StartTurn",
    "WordsTable",
    "new_game",
]

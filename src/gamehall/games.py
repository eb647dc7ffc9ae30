"""The games this server hosts, and the legacy protocol each one speaks.

One table maps a game id to its engine (``rules``) and to the module whose ``make_dialogue``
serves its legacy TCP protocol; the server, the CLI and the bots all read it, so adding a game is
one row here plus its packages.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
from collections.abc import Sequence
from dataclasses import dataclass

from gamehall.rules._core import GameType


@dataclass(frozen=True, slots=True)
class GameEntry:
    game_id: str
    rules_module: str  # exports GAME_TYPE
    protocol: str  # the port/flag name: --<protocol>-port
    dialogue_module: str  # exports make_dialogue(hall, wire, clock)
    default_port: int


GAMES: tuple[GameEntry, ...] = (
    GameEntry("aah", "gamehall.rules.aah", "aah", "gamehall.protocols.aah.dialogue", 11235),
    GameEntry("doppelkopf", "gamehall.rules.doppelkopf", "cg", "gamehall.protocols.cg.dialogue", 11225),
    GameEntry("ursuppe", "gamehall.rules.ursuppe", "urserver", "gamehall.protocols.urserver.dialogue", 4711),
    GameEntry("mrjack", "gamehall.rules.mrjack", "mrjack", "gamehall.protocols.mrjack.dialogue", 4712),
    GameEntry("words", "gamehall.rules.words", "jduplicate", "gamehall.protocols.jduplicate.dialogue", 4713),
)


def game_types(*, deck_dirs: Sequence[str] = (), words_dirs: Sequence[str] = ()) -> dict[str, GameType]:
    """Every hosted game's GameType, by game id.

    ``deck_dirs`` are the operator's extra AAH deck folders: their packs join the bundled deck,
    and rooms may name them in their ``packs`` setting. ``words_dirs`` are the operator's word-list
    folders: each ``NAME.txt[.gz]`` becomes the dictionary id ``NAME`` of the word games. Rooms
    choose decks and dictionaries by these names only, never by path.

    Raises:
        FileNotFoundError: a words folder does not exist.
    """
    types: dict[str, GameType] = {}
    for entry in GAMES:
        module = importlib.import_module(entry.rules_module)
        game_type = module.GAME_TYPE
        assert isinstance(game_type, GameType)
        types[entry.game_id] = game_type
    if deck_dirs and "aah" in types:
        types["aah"] = _aah_with_decks(types["aah"], deck_dirs)
    if words_dirs and "words" in types:
        from gamehall.rules.words.lexicon import add_words_dir

        for folder in words_dirs:
            add_words_dir(folder)
    return types


def _aah_with_decks(game_type: GameType, deck_dirs: Sequence[str]) -> GameType:
    from gamehall.rules.aah.deck import DeckLibrary
    from gamehall.rules.aah.table import new_game

    library = DeckLibrary.bundled()
    for folder in deck_dirs:
        library.load_dir(folder)
    return dataclasses.replace(game_type, new_game=functools.partial(new_game, library=library))


def entry_for(game_id: str) -> GameEntry:
    for entry in GAMES:
        if entry.game_id == game_id:
            return entry
    raise KeyError(game_id)

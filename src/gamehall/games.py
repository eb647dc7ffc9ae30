"""The games this server hosts, and the legacy protocol each one speaks.

One table maps a game to its engine (:class:`~gamehall.rules._core.GameType`) and to the
:class:`~gamehall.protocols._spec.ProtocolSpec` of its legacy TCP protocol; the server, the CLI
and the bots all read it, so adding a game is one row here plus its packages. Both halves are
imported by name: what the server hosts is what this module lists, checked by mypy.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gamehall.protocols._spec import TcpProtocol
from gamehall.protocols.aah.spec import PROTOCOL as AAH_PROTOCOL
from gamehall.protocols.cg.spec import PROTOCOL as CG_PROTOCOL
from gamehall.protocols.jduplicate.spec import PROTOCOL as JDUPLICATE_PROTOCOL
from gamehall.protocols.mrjack.spec import PROTOCOL as MRJACK_PROTOCOL
from gamehall.protocols.urserver.spec import PROTOCOL as URSERVER_PROTOCOL
from gamehall.protocols.web.spec import PROTOCOL as WEB_PROTOCOL
from gamehall.rules import aah, doppelkopf, mrjack, ursuppe, words
from gamehall.rules._core import GameType


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One hosted game: its engine and the spec of the legacy protocol that serves it."""

    game_type: GameType
    spec: TcpProtocol[Any]

    @property
    def game_id(self) -> str:
        return self.game_type.game_id

    @property
    def protocol(self) -> str:
        """The listener's name: ``--<protocol>-port``."""
        return self.spec.name

    @property
    def default_port(self) -> int:
        return self.spec.default_port


GAMES: tuple[GameEntry, ...] = (
    GameEntry(aah.GAME_TYPE, AAH_PROTOCOL),
    GameEntry(doppelkopf.GAME_TYPE, CG_PROTOCOL),
    GameEntry(ursuppe.GAME_TYPE, URSERVER_PROTOCOL),
    GameEntry(mrjack.GAME_TYPE, MRJACK_PROTOCOL),
    GameEntry(words.GAME_TYPE, JDUPLICATE_PROTOCOL),
)

WEB = WEB_PROTOCOL
"""The browser's protocol, served on the HTTP listener for every game."""


def game_types(*, deck_dirs: Sequence[str] = (), words_dirs: Sequence[str] = ()) -> dict[str, GameType]:
    """Every hosted game's GameType, by game id.

    ``deck_dirs`` are the operator's extra AAH deck folders: their packs join the bundled deck,
    and rooms may name them in their ``packs`` setting. ``words_dirs`` are the operator's word-list
    folders: each ``NAME.txt[.gz]`` becomes the dictionary id ``NAME`` of the word games. Rooms
    choose decks and dictionaries by these names only, never by path.

    Raises:
        FileNotFoundError: a words folder does not exist.
    """
    types = {entry.game_id: entry.game_type for entry in GAMES}
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

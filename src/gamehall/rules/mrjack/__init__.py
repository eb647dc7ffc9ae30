"""Mr. Jack in New York: the rules engine of one table (spec note ``mrjack-newyork.md``).

``GAME_TYPE`` is what the hall registers; :func:`new_game` builds a :class:`MrJackGame`
waiting for its two players. Terms follow the German seed: colours (``rot`` ... ``weiss``),
actions (``aktiv``, ``aktion``, ``ziel``, ``fertig``, ``aufgeben``), ``Aktion`` values
(``bewegen``, ``faehigkeit``, ``skip``) and coordinates (``a1`` ... ``o6``). The events are in
:mod:`.events`, the refusals in :mod:`.errors`, the board in :mod:`.board`.
"""

from __future__ import annotations

from collections.abc import Mapping

from gamehall.rules._core import JSON, GameType
from gamehall.rules.mrjack.actions import (
    ACTIONS,
    DETEKTIV,
    MRJACK,
    Aktion,
    Aktiv,
    Aufgeben,
    Fertig,
    Init,
    Ziel,
)
from gamehall.rules.mrjack.engine import MrJackGame, new_game
from gamehall.rules.mrjack.settings import SCHEMA, Rules, check_config
from gamehall.rules.mrjack.setup import Setup
from gamehall.rules.mrjack.state import Phase


def _new_game(config: Mapping[str, JSON], seed: int) -> MrJackGame:
    return new_game(config, seed)


GAME_TYPE = GameType(
    game_id="mrjack",
    title="Mr. Jack in New York",
    schema=SCHEMA,
    new_game=_new_game,
    actions=ACTIONS,
    seat_count=lambda config: 2,
)

__all__ = [
    "ACTIONS",
    "DETEKTIV",
    "GAME_TYPE",
    "MRJACK",
    "SCHEMA",
    "Aktion",
    "Aktiv",
    "Aufgeben",
    "Fertig",
    "Init",
    "MrJackGame",
    "Phase",
    "Rules",
    "Setup",
    "Ziel",
    "check_config",
    "new_game",
]

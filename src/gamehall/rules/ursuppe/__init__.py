"""Ursuppe (Primordial Soup): the rules engine of one table (spec note ``urserver-ursuppe.md``).

``GAME_TYPE`` is what the hall registers; :func:`new_game` builds an :class:`UrsuppeTable`.
Actions (:mod:`.actions`) and events (:mod:`.events`) are named after the UrServer 1.13
commands and messages; refusals carry the seed's FEHLER number (:mod:`.errors`). The rulebook
is split by concept: board, genes, environment, movement, feeding, combat, genetics (defects
and buying), division, scoring, and the order of it all in :mod:`.phases`.
"""

from __future__ import annotations

from collections.abc import Mapping

from gamehall.rules._core import JSON, GameType
from gamehall.rules.ursuppe.actions import ACTIONS
from gamehall.rules.ursuppe.engine import UrsuppeTable, new_game
from gamehall.rules.ursuppe.errors import error_number
from gamehall.rules.ursuppe.settings import SCHEMA, check_config


def _new_game(config: Mapping[str, JSON], seed: int) -> UrsuppeTable:
    return new_game(config, seed)


GAME_TYPE = GameType(
    game_id="ursuppe",
    title="Ursuppe",
    schema=SCHEMA,
    new_game=_new_game,
    actions=ACTIONS,
)

__all__ = ["ACTIONS", "GAME_TYPE", "SCHEMA", "UrsuppeTable", "check_config", "error_number", "new_game"]

"""Apps Against Humanity: the rules engine of one table (spec note ``aah.md``, sections 5-6).

``GAME_TYPE`` is what the hall registers; :func:`new_game` builds an :class:`AahTable` in its
lobby. The events a table emits are in :mod:`.events` (with their legacy frames), the ways it
refuses an input in :mod:`.errors`.
"""

from __future__ import annotations

from collections.abc import Mapping

from gamehall.rules._core import JSON, GameType
from gamehall.rules.aah.actions import ACTIONS, Judge, Pick
from gamehall.rules.aah.settings import SCHEMA, check_config
from gamehall.rules.aah.table import AahTable, CardCensus, new_game


def _new_game(config: Mapping[str, JSON], seed: int) -> AahTable:
    return new_game(config, seed)


def _seat_count(config: Mapping[str, JSON]) -> int:
    value = config["playermax"]
    assert isinstance(value, int)
    return value


GAME_TYPE = GameType(
    game_id="aah",
    title="Apps Against Humanity",
    schema=SCHEMA,
    new_game=_new_game,
    actions=ACTIONS,
    seat_count=_seat_count,
)

__all__ = [
    "ACTIONS",
    "GAME_TYPE",
    "SCHEMA",
    "AahTable",
    "CardCensus",
    "Judge",
    "Pick",
    "check_config",
    "new_game",
]

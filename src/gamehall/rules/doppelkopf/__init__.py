"""Doppelkopf: the rules engine of the cg game service (spec note ``cg-doppelkopf.md``).

``GAME_TYPE`` is what the hall hosts: the ``doppelkopf`` settings (every ``dk.*`` rule key),
the engine and the action codec. Modules follow the rulebook: cards, settings, reservations,
announcements, tricks, scoring (and extras), complaints; engine ties them into a table.
"""

from gamehall.rules._core import GameType
from gamehall.rules.doppelkopf.actions import CODEC
from gamehall.rules.doppelkopf.engine import DoppelkopfTable, new_game
from gamehall.rules.doppelkopf.settings import RULE_KEYS, SCHEMA

GAME_TYPE = GameType(
    game_id="doppelkopf",
    title="Doppelkopf",
    schema=SCHEMA,
    new_game=new_game,
    actions=CODEC,
    seat_count=lambda config: 4,
)

__all__ = ["GAME_TYPE", "RULE_KEYS", "SCHEMA", "DoppelkopfTable", "new_game"]

"""Ursuppe (Primordial Soup): the rules engine of one table (spec note ``urserver-ursuppe.md``).

``GAME_TYPE`` is what the hall registers; :func:`new_game` builds an :class:`UrsuppeTable`.
Actions (:mod:`.actions`) and events (:mod:`.events`) are named after the UrServer 1.13
commands and messages; refusals carry the seed's FEHLER number (:mod:`.errors`). The rulebook
is split by concept: board, genes, environment, movement, feeding, combat, genetics (defects
and buying), division, scoring, and the order of it all in :mod:`.phases`.

Rule questions the note leaves open, decided here (tests pin them):

- Struggle for Survival only attacks another colour (own amoeba: FEHLER 22); an attacker with
  KLAMMERN is not asked to ride along with its fleeing victim.
- A ``TENTAKEL`` must carry at least one cube (FEHLER 22); a second ``PARASITISMUS`` in the
  same meal gives FEHLER 22; ``KEINE_ZWEITE_BEWEGUNG`` on the first prompt gives FEHLER 30.
- Substitution spreads the extra cube evenly ({1,1,1} -> {2,2}, never {3,1}), which gives the
  note's five 4-player patterns with both feeding genes.
- Escape and Defense are used at most once per amoeba and round; Defense is only offered while
  the victim is still on the attacker's field. An option outside ``wasDarfSieTun`` is refused
  with 37/38 if already used, 18 if unaffordable, 22 if the victim has left the field; after a
  flight roll only ``FLUCHT`` is accepted (34).
- The timeout meal after a Parasitism declaration is the smallest meal under that declaration
  (the declaration stands).
- Division: "at most one own amoeba -> anywhere" is judged per placement, so a player who
  starts the phase with none places the free amoeba and then one more anywhere.
- An Armor owner may buy VERTEIDIGUNG or FLUCHT again (Armor grants neither); a basic gene
  included in an owned advanced gene (3 in 16, 1 in 17, 13 in 18) cannot be bought (22).
- A seat that is away is played with defaults at once, like one that has left (A28); it gets
  its pending request again when it is back.
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


def _seat_count(config: Mapping[str, JSON]) -> int:
    value = config["players"]
    assert isinstance(value, int)
    return value


GAME_TYPE = GameType(
    game_id="ursuppe",
    title="Ursuppe",
    schema=SCHEMA,
    new_game=_new_game,
    actions=ACTIONS,
    seat_count=_seat_count,
)

__all__ = ["ACTIONS", "GAME_TYPE", "SCHEMA", "UrsuppeTable", "check_config", "error_number", "new_game"]

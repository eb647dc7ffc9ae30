"""Every protocol's game survives losing its node (issue 13, "Failover and drain").

For each of the five protocols one game is played by that protocol's wire bots
(:mod:`crash_tables`, the same bots and checks as ``tests/e2e/test_crash_*.py``) through a relay
that stands for a load balancer: node ``b`` while it is up, else node ``a``
(:mod:`node_failover`). Two ``gamehall serve`` nodes share one Redis prefix and one PostgreSQL
schema (lease ttl 2 s), so the room is created on node ``b``. Mid-game (the log at a length
drawn from a seed) node ``b`` is killed with ``kill -9``; node ``a`` adopts the room from the
log, the bots reconnect through the relay and retake their seats by the crash-recovery rules
(docs/recovery.md), and the game ends normally with every log entry from before the kill
unchanged and each bot's result as the single-node crash tests judge it.

Node ``b`` is killed while the bots play, without holding them first: a kill may fall between
a move and its commit. From the kill the relay holds what the bots send on their new
connections (to node ``a``) until node ``a`` has adopted the room
(``test_a_game_goes_on_after_its_node_is_killed_mid_move``). A load balancer does not wait:
``test_players_back_before_the_adoption_retake_their_seats`` lets the logins through after
the dead node's names and rooms left the hall but before the adoption; the hall must hold the
names for the room meanwhile (docs/scale-out.md, "Failover and drain": before 84f69f9 the
returning players got fresh logins there, and the adopted room's seats stayed empty).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from crash_tables import TABLES, check_outcome
from node_failover import failover_game
from redis_space import RedisSpace

SEED = 21


async def _play(tmp_path: Path, space: RedisSpace, db: str, protocol: str, *, early_returns: bool) -> None:
    seed = SEED
    table = TABLES[protocol](seed)
    outcome = await failover_game(
        tmp_path, space=space, db=db, game=table.game, protocol=table.protocol, clients=table.clients,
        seed=seed, span=table.span, paused=False, returns_before_adoption=early_returns,
        settings=table.settings,
    )  # fmt: skip
    check_outcome(table, outcome, paused=True)  # the one kill falls early enough for every game


@pytest.mark.parametrize("protocol", ["aah", "cg", "urserver", "mrjack", "jduplicate"])
async def test_a_game_goes_on_after_its_node_is_killed_mid_move(
    tmp_path: Path, redis_space: RedisSpace, database: str, protocol: str
) -> None:
    await _play(tmp_path, redis_space, database, protocol, early_returns=False)


@pytest.mark.parametrize("protocol", ["aah", "cg", "urserver", "mrjack", "jduplicate"])
async def test_players_back_before_the_adoption_retake_their_seats(
    tmp_path: Path, redis_space: RedisSpace, database: str, protocol: str
) -> None:
    """The players' logins reach the survivor after the dead node's names expired and its
    rooms left the shared directory, before the survivor adopted the room (its lease held off
    a few seconds: an adoption scan that comes late). The hall must hold their names for the
    room meanwhile (docs/scale-out.md, "Failover and drain", the decision on a name that
    still sits at a dead node's room) so that they retake their seats once it is adopted."""
    await _play(tmp_path, redis_space, database, protocol, early_returns=True)

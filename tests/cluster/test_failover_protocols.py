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

Unpaused runs kill while the bots play (a kill may fall between a move and its commit);
paused runs hold the bots' input first and also check that the adopted room is the same
(log and spectator view).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from crash_tables import TABLES, check_outcome
from node_failover import failover_game
from postgres_support import postgres_schema
from redis_space import RedisSpace

import gamehall

SEED = 21


@pytest.fixture
def database(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    # the children run the gamehall under test, wherever this run imports it from
    monkeypatch.setenv("PYTHONPATH", str(Path(gamehall.__file__).parents[1]))
    with postgres_schema() as url:
        yield url


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
async def test_returning_players_log_in_while_the_room_waits_for_adoption(
    tmp_path: Path, redis_space: RedisSpace, database: str, protocol: str
) -> None:
    await _play(tmp_path, redis_space, database, protocol, early_returns=True)

"""AAH survives ``kill -9`` on PostgreSQL (issue 13): the crash harness of issue 9 with
``--db postgresql://...`` (a fresh schema). Three 0.2.0 client emulators play, the server is
killed at seeded log positions and restarted on the same database; it rebuilds the room from
the PostgreSQL log, the bots retake their seats, the game ends normally and no committed log
entry is lost (the harness compares the log before each kill with the log after the restart).
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Sequence
from pathlib import Path

from kill_restart import crash_game
from postgres_support import postgres_schema

from gamehall.bots.aah import AahWireBot
from gamehall.bots.aah.wire import BotStats

# five points to win: at least five rounds (about 19 log entries), past both kill points (10 and 16)
SETTINGS = ("aah.autostart_delay=1", "aah.round_gap=0.2", "aah.timeout=60", "aah.aplimit=5")


async def test_aah_on_postgresql_goes_on_after_kill_9_at_seeded_log_positions(tmp_path: Path) -> None:
    rng = random.Random(7)
    bots: list[AahWireBot] = []

    def clients(port: int) -> Sequence[Awaitable[BotStats]]:
        bots.extend(
            AahWireBot("127.0.0.1", port, name, rng=random.Random(rng.getrandbits(64)), strict=True)
            for name in ("alice", "bob", "carol")
        )
        return [bot.run() for bot in bots]

    with postgres_schema() as url:
        outcome = await crash_game(
            tmp_path, game="aah", protocol="aah", clients=clients, seed=7, kills=2,
            span=(6, 24), paused=True, settings=SETTINGS, db=url,
        )  # fmt: skip
    assert len(outcome.kills) == 2
    result = outcome.record.result
    assert result is not None and result["termination"] == "normal", result
    assert all(not stats.violations for stats in outcome.results)
    assert all(bot.reconnects == 2 for bot in bots)

"""Mr. Jack survives ``kill -9`` (issue 9): two wire bots play a game, the server is killed at
log positions chosen from a seed and restarted on the same store, the bots retake their seats
(``nick`` + ``init``, then the game's catch-up and the pending request) and the game ends by its
rules; no log entry is lost and a spectator sees the same board before and after each restart."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Sequence
from pathlib import Path

import pytest
from kill_restart import CrashOutcome, crash_game

from gamehall.bots.mrjack.wire import BotResult, MrJackWireBot

SETTINGS = ("mrjack.rejoin_grace=60", "mrjack.turn_timeout_s=60")
# a bot's pause per move: the harness polls the log and must see each kill point before the end
THINK_S = 0.03


async def _play(tmp_path: Path, seed: int, kills: int, *, paused: bool, attempts: int = 1) -> None:
    """One game with ``kills`` kills; the server deals each game afresh, and a random
    detective may accuse in the first rounds, so a game that ends before its first kill is
    played again (up to ``attempts`` games) rather than counted as a pass."""
    for attempt in range(attempts):
        outcome, bots = await _one_game(tmp_path / f"game{attempt}", seed, kills, paused=paused)
        if outcome.kills or not paused:
            break
    # a random kill point may lie past a short game's end (soak): then there is nothing to kill
    assert outcome.kills or not paused, "every game ended before the first kill"
    result = outcome.record.result
    assert result is not None and result["termination"] == "normal", result
    assert [len(r.winners) for r in outcome.results] == [1, 1]
    assert outcome.results[0].winners == outcome.results[1].winners
    assert all(bot.reconnects == len(outcome.kills) for bot in bots)


async def _one_game(
    directory: Path, seed: int, kills: int, *, paused: bool
) -> tuple[CrashOutcome, list[MrJackWireBot]]:
    directory.mkdir()
    rng = random.Random(seed)
    bots: list[MrJackWireBot] = []

    def clients(port: int) -> Sequence[Awaitable[BotResult]]:
        bots.extend(
            MrJackWireBot(
                "127.0.0.1", port, nick, role, rng=random.Random(rng.getrandbits(64)), think_time=THINK_S
            )
            for nick, role in (("jacky", "mrjack"), ("sherlock", "detektiv"))
        )
        return [bot.run() for bot in bots]

    outcome = await crash_game(
        directory, game="mrjack", protocol="mrjack", clients=clients, seed=seed, kills=kills,
        span=(3, 60), paused=paused, settings=SETTINGS,
    )  # fmt: skip
    return outcome, bots


async def test_mrjack_goes_on_after_kill_9_at_seeded_log_positions(tmp_path: Path) -> None:
    await _play(tmp_path, seed=4, kills=2, paused=True, attempts=3)


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(100))
async def test_mrjack_soak_kill_9_at_a_random_moment(tmp_path: Path, seed: int) -> None:
    await _play(tmp_path, seed=seed, kills=1, paused=False)

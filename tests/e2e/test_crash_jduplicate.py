"""Duplicate Scrabble over JDuplicate survives ``kill -9`` (issue 9): two wire bots (one 0.2,
one 1.0) play a game, the server is killed at log positions chosen from a seed and restarted on
the same store, the bots log in again under their names and are put back into their game with
their totals, and the game ends by its rules; no log entry is lost and a spectator sees the same
board before and after each restart."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Sequence
from pathlib import Path

import pytest
from kill_restart import crash_game

from gamehall.bots.words.wire import BotResult, GameSpec, WordsWireBot, WordsWirePlayer
from gamehall.protocols.jduplicate.messages import Version

SETTINGS = ("words.pause_s=0", "words.grace_s=1", "words.end_turn_when_all_moved=true")


async def _play(tmp_path: Path, seed: int, kills: int, *, paused: bool) -> None:
    rng = random.Random(seed)
    bots: list[WordsWireBot] = []
    spec = GameSpec("crash", "DupEN", 60, 2, 2)

    def clients(port: int) -> Sequence[Awaitable[BotResult]]:
        for name, version, create in (("ann", Version.V02, True), ("bob", Version.V10, False)):
            player = WordsWirePlayer(name, version, create=spec if create else None,
                                     join=None if create else spec.name, strength=1.0,
                                     rng=random.Random(rng.getrandbits(64)))  # fmt: skip
            bots.append(WordsWireBot("127.0.0.1", port, player, write_interval_s=0.1))

        async def joiner() -> BotResult:
            await asyncio.sleep(0.5)  # the game exists before bob asks to join it
            return await bots[1].run()

        return [bots[0].run(), joiner()]

    outcome = await crash_game(
        tmp_path, game="words", protocol="jduplicate", clients=clients, seed=seed, kills=kills,
        span=(6, 30), paused=paused, settings=SETTINGS,
    )  # fmt: skip
    # a random kill point may lie past a short game's end (soak): then there is nothing to kill
    assert outcome.kills or not paused, "the game ended before the first kill"
    result = outcome.record.result
    assert result is not None and result["termination"] == "normal", result
    ann, bob = outcome.results
    assert ann.end_reason and ann.ranking == bob.ranking  # both were back for the end
    assert all(bot.reconnects == len(outcome.kills) for bot in bots)


async def test_duplicate_goes_on_after_kill_9_at_seeded_log_positions(tmp_path: Path) -> None:
    await _play(tmp_path, seed=3, kills=2, paused=True)


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(100))
async def test_duplicate_soak_kill_9_at_a_random_moment(tmp_path: Path, seed: int) -> None:
    await _play(tmp_path, seed=seed, kills=1, paused=False)

"""Many AAH wire bots at once, for ``gamehall bots --game aah`` and load tests."""

from __future__ import annotations

import asyncio
import logging
import random
import re
from typing import Any, Final

from gamehall.bots.aah.policy import AahPolicy
from gamehall.bots.aah.wire import GAME_ENDED, AahWireBot, BotStats

log = logging.getLogger(__name__)

NICK_PATTERN: Final = re.compile(r"[A-Za-z0-9_|]{1,20}")


async def run_bots(
    host: str,
    port: int,
    count: int,
    *,
    names_prefix: str = "bot",
    policy: AahPolicy | str | None = None,
    stop_after_games: int | None = 1,
    seed: int | None = None,
    strict: bool = False,
    timeout: float | None = None,
    **bot_options: Any,
) -> list[BotStats]:
    """Run ``count`` wire bots named ``<names_prefix><n>`` against ``HOST:PORT`` at once.

    Each bot plays ``stop_after_games`` games (``None``: until cancelled or ``timeout``),
    reconnecting after each ``DISC`` "The game has ended."; it stops early when refused or cut
    off mid-game, or when the server cannot be reached. ``policy`` is an :class:`AahPolicy` or
    a style name (``"random"``, ``"heuristic"``). ``bot_options`` go to :class:`AahWireBot`
    (``think_time``, ``ping_probe``...). Returns one :class:`BotStats` per bot, in name order.

    Raises:
        ValueError: a generated name is not a valid nick, or an unknown policy style.
        LegacyClientCrash: with ``strict=True``, the first crash condition any bot met (the
            other bots are stopped).
        TimeoutError: ``timeout`` seconds passed first (every bot is stopped).
    """
    names = [f"{names_prefix}{number}" for number in range(1, count + 1)]
    for name in names:
        if not NICK_PATTERN.fullmatch(name):
            raise ValueError(f"bot name {name!r} is not a valid AAH nick (1-20 of A-Z a-z 0-9 _ |)")
    master = random.Random(seed)
    chosen = policy if isinstance(policy, AahPolicy) else AahPolicy(policy or "random")

    async def one(name: str) -> BotStats:
        stats = BotStats(name)
        rng = random.Random(master.getrandbits(64))
        games = 0
        while stop_after_games is None or games < stop_after_games:
            bot = AahWireBot(
                host, port, name, policy=chosen, rng=rng, strict=strict, stats=stats, **bot_options
            )
            try:
                await bot.run()
            except OSError as error:
                log.warning("%s: cannot reach %s:%s: %s", name, host, port, error)
                break
            if bot.refused is not None:
                log.warning("%s: refused: %s", name, bot.refused)
            if bot.disconnected != GAME_ENDED:
                break
            games += 1
            log.info("%s: game %d over, winner %s, %d rounds", name, games, bot.game_winner, bot.round_number)
        return stats

    tasks = [asyncio.create_task(one(name)) for name in names]
    try:
        async with asyncio.timeout(timeout):
            return list(await asyncio.gather(*tasks))
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


__all__ = ["NICK_PATTERN", "run_bots"]

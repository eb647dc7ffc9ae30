"""The client side of ``bench_aah.py``: AAH wire bots in a worker process, measured in a window.

A worker (:func:`bot_worker`, the target of a ``spawn`` process) joins its bots to the server in
batches, so the server's 1.5 s META grace is never the bottleneck, tells the parent how many
were accepted, then waits for the parent's ``("measure", seconds)``. Over that window it counts
what its bots did and received, and sends back a :class:`WindowResult`:

- actions: ``PICK`` and ``CZPK`` frames *sent* inside the window, each with its latency to the
  bot's own confirmation (``ping_probe``: the ``PONG`` after the ``PICK`` frames; ``CZPK``:
  the ``RWIN`` broadcast), see :mod:`gamehall.bots.aah.wire`;
- frames received by all bots (what the server delivered) and ``UNRG`` refusals;
- the worker's own CPU time, to show when the clients, not the server, are the limit.

The clients' garbage collector is off inside the window (after a collection and
``gc.freeze()``): with thousands of bots a full collection pauses a client for a second or
more, which would show up as server latency. The server's collector is left as it is.

Everything is bounded: joins time out, the window is capped, and the worker closes its bots and
exits after reporting (or when the parent goes away).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import math
import random
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from gamehall.bots.aah import AahPolicy, AahWireBot, BotStats

LOOPBACK = "127.0.0.1"
JOIN_TIMEOUT_S = 20.0
MAX_WINDOW_S = 120.0
CONFIRM_GRACE_S = 5.0
PARENT_TIMEOUT_S = 300.0
PHASE_BUCKETS = 20


@dataclass(slots=True)
class WindowResult:
    """What one worker's bots did inside the measured window (latencies in seconds)."""

    bots: int = 0
    seconds: float = 0.0
    actions: int = 0
    unconfirmed: int = 0
    """Actions still unconfirmed :data:`CONFIRM_GRACE_S` after the window: their latency is
    ``inf`` in the lists below (so they count in the percentiles, not in the rates)."""
    pick_latencies: list[float] = field(default_factory=list)
    czpk_latencies: list[float] = field(default_factory=list)
    frames_received: int = 0
    unrg: int = 0
    rounds: int = 0
    cpu_s: float = 0.0
    closed_bots: int = 0
    violations: list[str] = field(default_factory=list)
    phase_counts: list[int] = field(default_factory=lambda: [0] * PHASE_BUCKETS)
    """Actions by the time of the second they were sent in (50 ms buckets of the monotonic
    clock, which all processes share): how synchronised the tables' rounds are."""


@dataclass(frozen=True, slots=True)
class _Snapshot:
    at: float
    cpu: float
    frames: int
    unrg: int
    rounds: int

    @classmethod
    def of(cls, stats: list[BotStats]) -> _Snapshot:
        return cls(
            time.perf_counter(),
            time.process_time(),
            sum(s.frames_received for s in stats),
            sum(s.unrg for s in stats),
            sum(s.rounds for s in stats),
        )


async def join_all(
    port: int, names: list[str], *, batch: int, seed: int, **bot_options: Any
) -> tuple[list[AahWireBot], list[str]]:
    """Connect bots named ``names`` in batches of ``batch``, each batch waiting (bounded) until
    every bot of it was accepted or refused. Returns the accepted bots and the refusal texts
    (or errors) of the others, whose sockets are closed."""
    master = random.Random(seed)
    policy = AahPolicy("random")
    accepted: list[AahWireBot] = []
    problems: list[str] = []
    for start in range(0, len(names), batch):
        bots = [
            AahWireBot(
                LOOPBACK,
                port,
                name,
                policy=policy,
                rng=random.Random(master.getrandbits(64)),
                strict=False,
                **bot_options,
            )
            for name in names[start : start + batch]
        ]
        results = await asyncio.gather(*(bot.connect() for bot in bots), return_exceptions=True)
        connected = []
        for bot, result in zip(bots, results, strict=True):
            if isinstance(result, BaseException):
                problems.append(f"{bot.name}: {result!r}")
            else:
                connected.append(bot)

        async def settled(bot: AahWireBot) -> None:
            def answered() -> bool:
                return bot.accepted or bot.refused is not None

            with contextlib.suppress(TimeoutError, ConnectionError):
                await bot.wait_for(answered, JOIN_TIMEOUT_S)

        await asyncio.gather(*(settled(bot) for bot in connected))
        for bot in connected:
            if bot.accepted:
                accepted.append(bot)
            else:
                problems.append(f"{bot.name}: {bot.refused or 'no ACKN'}")
                await bot.close()
    return accepted, problems


def _window_actions(bots: list[AahWireBot], since: float, until: float) -> WindowResult:
    result = WindowResult(bots=len(bots))
    for bot in bots:
        for record in reversed(bot.stats.actions):
            if record.sent_at < since:
                break
            if record.sent_at >= until:
                continue
            result.actions += 1
            result.phase_counts[int(record.sent_at % 1.0 * PHASE_BUCKETS) % PHASE_BUCKETS] += 1
            latency = record.latency
            if latency is None:  # not confirmed within the grace: counted as infinitely late
                result.unconfirmed += 1
                latency = math.inf
            if record.command == "CZPK":
                result.czpk_latencies.append(latency)
            else:
                result.pick_latencies.append(latency)
        result.violations.extend(bot.stats.violations[:3])
        if bot.closed:
            result.closed_bots += 1
    return result


async def measure_window(bots: list[AahWireBot], seconds: float) -> WindowResult:
    """Count what ``bots`` do in the next ``seconds`` (capped), then wait up to
    :data:`CONFIRM_GRACE_S` for the window's last actions to be confirmed."""
    stats = [bot.stats for bot in bots]
    gc.collect()
    gc.freeze()  # the bots' long-lived objects: no collection walks them again
    gc.disable()  # and none pauses the clients inside the window (memory grows for a bounded time)
    try:
        before = _Snapshot.of(stats)
        await asyncio.sleep(min(seconds, MAX_WINDOW_S))
        after = _Snapshot.of(stats)
        await asyncio.sleep(CONFIRM_GRACE_S)
    finally:
        gc.enable()
    result = _window_actions(bots, before.at, after.at)
    result.seconds = after.at - before.at
    result.frames_received = after.frames - before.frames
    result.unrg = after.unrg - before.unrg
    result.rounds = after.rounds - before.rounds
    result.cpu_s = after.cpu - before.cpu
    return result


def bot_worker(
    pipe: Connection, port: int, names: list[str], batch: int, seed: int, core: int | None
) -> None:
    """Worker process body (see the module docstring). Messages to the parent:
    ``("joined", accepted, problems)`` then ``("result", WindowResult)`` or ``("error", text)``."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _server_process import pin, raise_nofile_limit

    raise_nofile_limit()
    if core is not None:
        pin(0, core)
    from bench_echo_baseline import _new_loop

    loop = _new_loop()

    async def parent_says() -> Any:
        if not await asyncio.to_thread(pipe.poll, PARENT_TIMEOUT_S):
            raise TimeoutError("the parent sent nothing")
        return pipe.recv()

    async def main() -> None:
        bots, problems = await join_all(port, names, batch=batch, seed=seed, ping_probe=True, think_time=0.0)
        try:
            pipe.send(("joined", len(bots), problems[:10]))
            command, seconds = await parent_says()
            if command != "measure":
                return
            pipe.send(("result", await measure_window(bots, float(seconds))))
        finally:
            for bot in bots:
                bot.send_raw(b"DISC\x03")
            await asyncio.gather(*(bot.close() for bot in bots), return_exceptions=True)

    try:
        loop.run_until_complete(asyncio.wait_for(main(), PARENT_TIMEOUT_S + MAX_WINDOW_S))
    except Exception as error:
        with contextlib.suppress(OSError):
            pipe.send(("error", repr(error)))
    finally:
        loop.close()

"""The added latency of a cross-node action (issue 13, "Tests and benchmarks").

Two nodes (``a`` and ``b``) on one Redis prefix and one PostgreSQL schema. Each AAH table is
created on node ``a`` by a player connected there; its two other players connect to node
``b`` and sit at it through node ``b`` (cross-node play: their inputs are forwarded to node
``a``, which applies and commits them and sends the room's steps back). Every player is an AAH
wire bot timing each of its actions at the client: from sending ``PICK``/``CZPK`` to the frame
that confirms it (``docs/BENCHMARKS.md`` explains the bots' confirmations). So one run measures
side by side, at the same tables:

- **same node**: the actions of the players connected to the room's own node;
- **cross node**: the actions of the players connected to the other node.

The difference is what cross-node play adds: the check on a copy of the game, a Redis stream
each way, and the follower's outbox. A second configuration, every player on node ``a``, is
the baseline without any forwarding in the room.

Usage::

    python bench/bench_cross_node.py [--tables 20] [--rounds 6]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from _server_process import ChildServer, gamehall_server, machine_summary
from bench_nodes import POSTGRES_URL, REDIS_URL, fresh_hall
from bench_targets import server_environ

from gamehall.bots.aah import AahWireBot
from gamehall.bots.aah.stats import BotStats

SETTINGS: dict[str, object] = {
    "autostart_delay": 1,
    "round_gap": 0.2,
    "timeout": 60,
    "aplimit": 50,  # no game ends within the measured rounds
    "max_tables": 5000,
}
LEASE_TTL_S = 10.0


@dataclass
class Latencies:
    """Action latencies (ms) of the players of one kind."""

    samples: list[float] = field(default_factory=list)

    def add(self, stats: BotStats) -> None:
        self.samples += [
            (a.confirmed_at - a.sent_at) * 1000 for a in stats.actions if a.confirmed_at is not None
        ]

    def row(self, label: str) -> str:
        if not self.samples:
            return f"| {label} | 0 | - | - | - |"
        ordered = sorted(self.samples)

        def pct(p: float) -> float:
            return ordered[min(len(ordered) - 1, int(p * len(ordered)))]

        p50 = statistics.median(ordered)
        return f"| {label} | {len(ordered)} | {p50:.1f} | {pct(0.9):.1f} | {pct(0.99):.1f} |"


@contextlib.contextmanager
def two_nodes(db: str, redis: str, prefix: str) -> Iterator[list[ChildServer]]:
    with contextlib.ExitStack() as stack:
        servers = []
        for node_id in "ab":
            args = ["--redis", redis, "--redis-prefix", prefix, "--node-id", node_id]
            args += ["--lease-ttl", str(LEASE_TTL_S)]
            gc_log = str(Path(stack.enter_context(tempfile.TemporaryDirectory())) / "gc.log")
            servers.append(
                stack.enter_context(
                    gamehall_server(
                        SETTINGS, core=None, environ=server_environ(), gc_log=gc_log, db=db, args=args
                    )
                )
            )
        yield servers


async def seat_table(
    home: int, away: Sequence[int], index: int, rounds: int, rng: random.Random
) -> list[tuple[bool, asyncio.Future[BotStats]]]:
    """One table: its first player on the home node, then one after the other the others (on
    ``away``'s ports); returns (cross-node?, the bot's task) per player."""
    players: list[tuple[bool, asyncio.Future[BotStats]]] = []
    for seat, port in enumerate([home, *away]):
        bot = AahWireBot("127.0.0.1", port, f"t{index}p{seat}", rng=random.Random(rng.getrandbits(64)))
        task = asyncio.ensure_future(bot.run(rounds))
        players.append((port != home, task))
        while not bot.accepted:  # seated before the next player looks for a table
            if task.done():
                task.result()
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # the seat reaches the other node's lobby
    return players


async def measure(
    servers: list[ChildServer], tables: int, rounds: int, cross: bool
) -> tuple[Latencies, Latencies]:
    rng = random.Random(7)
    home = servers[0].port
    away = [servers[1].port if cross else home] * 2
    players: list[tuple[bool, asyncio.Future[BotStats]]] = []
    for index in range(tables):
        players += await seat_table(home, away, index, rounds, rng)
        print(f"  table {index + 1} seated", file=sys.stderr, flush=True)
    same, other = Latencies(), Latencies()
    for is_cross, task in players:
        stats = await task
        (other if is_cross else same).add(stats)
    return same, other


def run(args: argparse.Namespace) -> str:
    rows = []
    for cross in (False, True):
        with (
            fresh_hall(POSTGRES_URL, REDIS_URL) as hall,
            two_nodes(hall.db, hall.redis, hall.prefix) as servers,
        ):
            began = time.perf_counter()
            same, other = asyncio.run(measure(servers, args.tables, args.rounds, cross))
            took = time.perf_counter() - began
        if cross:
            rows.append(same.row("cross-node tables: players on the room's node (same node)"))
            rows.append(other.row("cross-node tables: players on the other node (cross node)"))
        else:
            rows.append(same.row("baseline: every player on the room's node"))
        print(f"  {'cross' if cross else 'baseline'} run: {took:.1f} s", file=sys.stderr)
    header = [
        f"cross-node action latency: {args.tables} AAH tables x 3 bots, {args.rounds} rounds, "
        f"nodes a and b on Redis + PostgreSQL, load average {os.getloadavg()[0]:.2f}",
        ", ".join(f"{k}: {v}" for k, v in machine_summary().items()),
        "",
        "| players | actions | p50 ms | p90 ms | p99 ms |",
        "|---|---|---|---|---|",
    ]
    return "\n".join([*header, *rows])


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=6)
    print(run(parser.parse_args(argv)))


if __name__ == "__main__":
    main()

"""One gamehall node against two on the same machine, at the table counts where one saturates.

Issue 13: a hall of several nodes (Redis leases, PostgreSQL store, docs/scale-out.md) should
carry more tables than one process. This bench plays the AAH wire load of
``bench_targets.py`` (``_aah_load``: raw asyncio seats on uvloop, one client process, three
seats per table, think time 0, 1 s between rounds, no game ends in the run) against:

- ``1 node, SQLite``: ``gamehall serve`` as one process with its embedded store (the
  baseline of every earlier section of docs/BENCHMARKS.md);
- ``1 node, Redis+PG``: the same process as node ``a`` of a hall (``--redis``, ``--db
  postgresql://``): what the cluster machinery costs one node;
- ``2 nodes, Redis+PG``: nodes ``a`` and ``b`` on one Redis prefix and one PostgreSQL schema,
  each with half the tables; each table's three seats connect to their table's node (every
  node has its own tables, no forwarding).

For each table count N (``--tables 300 600 900``), each configuration in turn: fresh servers
(a fresh PostgreSQL schema and Redis prefix, dropped afterwards), N tables seated, a settle
time, then a measured window (``--seconds``): p99 of ``PICK`` completing the picks -> ``REVL``
and of ``CZPK`` -> ``RWIN`` at the clients, accepted actions per second, rounds per table and
second (1 s between rounds makes an unhurried table play about 0.8), every node's CPU share
(``/proc``, 100 % = one core: a node is one Python thread, so near 100 % it is saturated),
the load generator's, and the whole machine's busy cores (PostgreSQL, Redis and every other
process included). Nothing is pinned: the nodes, the clients, PostgreSQL and Redis share the
machine's cores as the scheduler likes, which is what "two nodes on this machine" means.

Each run first waits (at most ``--quiet-wait`` seconds) for other work on the machine to fall
below half a core, and reports what it found ("other before") and, for the window, "other":
the busy cores that were neither the nodes nor the clients (PostgreSQL, Redis, other work).

A configuration saturates at the first N where a node's CPU reaches 90 %, or the tables play
slower than 85 % of that configuration's pace at the smallest N; when no node was near a full
core but the machine was (1.8 of 2 cores busy), the report says that the machine was the limit.

Run (PostgreSQL with trust auth and a database ``test``, Redis; both on 127.0.0.1)::

    .venv/bin/python bench/bench_nodes.py --tables 300 600 900 1200 --seconds 20
    .venv/bin/python bench/bench_nodes.py --tables 200 --seconds 5 --configs sqlite two  # smoke
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import math
import os
import secrets
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent))

import psycopg
from _aah_load import Load
from _server_process import (
    ChildServer,
    gamehall_server,
    machine_summary,
    raise_nofile_limit,
    wait_for_quiet,
)
from bench_echo_baseline import _new_loop, _percentile
from bench_targets import SEATS, START_SETTLE_S, game_settings, server_environ
from redis import Redis

POSTGRES_URL = "postgresql://127.0.0.1:5432/test"
REDIS_URL = "redis://127.0.0.1:6379/0"
LEASE_TTL_S = 10.0
SATURATED_CPU = 0.9
SLOWED_PACE = 0.85
MACHINE_FULL = 1.8
"""Busy cores (of 2) past which the machine, not a node, is the limit."""
QUIET_BELOW = 0.5
"""Busy cores of other work under which a run starts without waiting further."""


@dataclass(frozen=True, slots=True)
class Config:
    key: str
    name: str
    nodes: int
    cluster: bool


CONFIGS = {
    "sqlite": Config("sqlite", "1 node, SQLite", 1, cluster=False),
    "pg": Config("pg", "1 node, Redis+PG", 1, cluster=True),
    "two": Config("two", "2 nodes, Redis+PG", 2, cluster=True),
}


# ---- the shared services: one PostgreSQL schema and one Redis prefix per run ------------------


@dataclass(frozen=True, slots=True)
class Hall:
    """Where one run's nodes meet: a database URL on a fresh schema and a key prefix."""

    db: str
    redis: str
    prefix: str


@contextlib.contextmanager
def fresh_hall(postgres: str, redis: str) -> Iterator[Hall]:
    """A new PostgreSQL schema and Redis prefix, dropped (schema, every key) afterwards: a run
    must not find the unfinished rooms of the one before (its nodes would adopt them)."""
    schema = f"bench_nodes_{secrets.token_hex(6)}"
    prefix = f"bench-nodes-{secrets.token_hex(6)}:"
    with psycopg.connect(postgres, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in postgres else "?"
    url = f"{postgres}{separator}options={quote(f'-csearch_path={schema}')}"
    try:
        yield Hall(url, redis, prefix)
    finally:
        with psycopg.connect(postgres, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")
        client = Redis.from_url(redis)
        try:
            keys = list(client.scan_iter(match=prefix + "*", count=1000))
            for start in range(0, len(keys), 1000):
                client.delete(*keys[start : start + 1000])
        finally:
            client.close()


@contextlib.contextmanager
def nodes(config: Config, tables: Sequence[int], hall: Hall | None) -> Iterator[list[ChildServer]]:
    """The configuration's server processes, node ``i`` sized for ``tables[i]`` tables."""
    with contextlib.ExitStack() as stack:
        servers = []
        for index, count in enumerate(tables):
            node_id = "ab"[index]
            args: list[str] = []
            if hall is not None:
                args = ["--redis", hall.redis, "--redis-prefix", hall.prefix]
                args += ["--node-id", node_id, "--lease-ttl", str(LEASE_TTL_S)]
            gc_log = str(Path(stack.enter_context(tempfile.TemporaryDirectory())) / "gc.log")
            servers.append(
                stack.enter_context(
                    gamehall_server(
                        game_settings(count),
                        core=None,
                        environ=server_environ(),
                        gc_log=gc_log,  # the child that lifts aah.max_tables past 1,000
                        db=None if hall is None else hall.db,
                        args=args,
                    )
                )
            )
        yield servers


# ---- one run ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Run:
    """One configuration at one table count: what its measured window showed."""

    config: Config
    tables: list[int]
    """Full (three-seat) tables per node."""
    seconds: float
    revl: list[float]
    rwin: list[float]
    actions: int
    rounds: int
    node_cpu: list[float]
    client_cpu: float
    machine_busy: float
    """Busy cores of the whole machine in the window: these nodes, the clients, PostgreSQL,
    Redis, the kernel and every other process."""
    quiet_before: float
    """Busy cores besides this bench in the second before the run (``wait_for_quiet``)."""
    join_s: float
    ended_seats: int
    load_average: float

    @property
    def total_tables(self) -> int:
        return sum(self.tables)

    @property
    def other(self) -> float:
        """Busy cores that were neither the nodes nor the clients (PostgreSQL, Redis, other
        work on the machine)."""
        return self.machine_busy - sum(self.node_cpu) - self.client_cpu

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    @property
    def pace(self) -> float:
        """Rounds per table and second (every seat sees each round's ``RWIN``)."""
        if not self.seconds or not self.total_tables:
            return 0.0
        return self.rounds / SEATS / self.total_tables / self.seconds

    @property
    def cpu_us_per_action(self) -> float:
        """Node CPU (all nodes together) per accepted action, in microseconds: what an action
        costs the nodes, whoever else shares the cores."""
        return sum(self.node_cpu) / self.actions_per_s * 1e6 if self.actions_per_s else math.nan

    @staticmethod
    def p99_ms(samples: list[float]) -> float:
        return _percentile(sorted(samples), 0.99) * 1000 if samples else math.nan


async def play(
    config: Config, servers: list[ChildServer], tables: list[int], seconds: float, quiet: float
) -> Run:
    """Seat each node's tables (all nodes at once), let them start, measure ``seconds``."""
    loads = [Load(server.port) for server in servers]
    try:
        began = time.perf_counter()
        await asyncio.gather(*(load.seat(count * SEATS) for load, count in zip(loads, tables, strict=True)))
        join_s = time.perf_counter() - began
        await asyncio.sleep(START_SETTLE_S)
        gc.collect()
        gc.freeze()
        gc.disable()  # a pause of the load generator would pass for server latency
        try:
            before = [server.usage() for server in servers]
            client_before = time.process_time()
            for load in loads:
                load.start_window()
            await asyncio.sleep(seconds)
            windows = [load.take() for load in loads]
            after = [server.usage() for server in servers]
            client_after = time.process_time()
        finally:
            gc.enable()
        ended = sum(load.ended_seats for load in loads)
        seated = [load.full_tables for load in loads]
    finally:
        for load in loads:
            await load.close()
    wall = after[0].at - before[0].at
    return Run(
        config=config,
        tables=seated,
        seconds=wall,
        revl=[sample for window in windows for sample in window.revl],
        rwin=[sample for window in windows for sample in window.rwin],
        actions=sum(window.actions - window.unrg for window in windows),
        rounds=sum(window.rounds for window in windows),
        node_cpu=[a.cpu_share_since(b) for a, b in zip(after, before, strict=True)],
        client_cpu=(client_after - client_before) / wall if wall > 0 else 0.0,
        machine_busy=after[0].machine_share_since(before[0]),
        quiet_before=quiet,
        join_s=join_s,
        ended_seats=ended,
        load_average=os.getloadavg()[0],
    )


def run(config: Config, tables: int, args: argparse.Namespace) -> Run:
    """``config`` at ``tables`` tables, split evenly over its nodes, on fresh servers, once
    the machine is quiet (at most ``--quiet-wait`` seconds of waiting)."""
    quiet = wait_for_quiet(args.quiet_wait, QUIET_BELOW) if args.quiet_wait > 0 else math.nan
    split = [tables // config.nodes + (1 if i < tables % config.nodes else 0) for i in range(config.nodes)]
    with contextlib.ExitStack() as stack:
        hall = stack.enter_context(fresh_hall(args.postgres, args.redis)) if config.cluster else None
        servers = stack.enter_context(nodes(config, split, hall))
        loop = _new_loop()
        try:
            return loop.run_until_complete(play(config, servers, split, args.seconds, quiet))
        finally:
            loop.close()


# ---- the report ---------------------------------------------------------------------------------


def format_runs(runs: Sequence[Run]) -> str:
    lines = [
        "| config | tables | per node | p99 REVL ms | p99 RWIN ms | actions/s | rounds/table/s | "
        "server CPU per node | node CPU µs/action | client CPU | other | machine busy | other before | "
        "load avg |",
        "|---|---:|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in runs:
        per_node = " + ".join(str(t) for t in r.tables)
        cpu = " / ".join(f"{name} {share:.0%}" for name, share in zip("ab", r.node_cpu, strict=False))
        lines.append(
            f"| {r.config.name} | {r.total_tables} | {per_node} | {Run.p99_ms(r.revl):.1f} | "
            f"{Run.p99_ms(r.rwin):.1f} | {r.actions_per_s:,.0f} | {r.pace:.2f} | {cpu} | "
            f"{r.cpu_us_per_action:.0f} | "
            f"{r.client_cpu:.0%} | {r.other:.2f} | {r.machine_busy:.2f} | {r.quiet_before:.2f} | "
            f"{r.load_average:.1f} |"
        )
    return "\n".join(lines)


def saturation(runs: Sequence[Run]) -> list[str]:
    """Per configuration, the first table count where a node's CPU reaches
    :data:`SATURATED_CPU` or the pace drops below :data:`SLOWED_PACE` of its first run's."""
    notes = []
    for config in CONFIGS.values():
        mine = [r for r in runs if r.config == config]
        if not mine:
            continue
        first = mine[0].pace
        for r in mine:
            if max(r.node_cpu) >= SATURATED_CPU or r.pace < SLOWED_PACE * first:
                limit = (
                    f"; the machine was full ({r.machine_busy:.2f} busy cores, {r.other:.2f} of them "
                    "other work): the machine, not the node, was the limit"
                    if max(r.node_cpu) < SATURATED_CPU and r.machine_busy >= MACHINE_FULL
                    else ""
                )
                notes.append(
                    f"{config.name}: saturated at {r.total_tables} tables (busiest node "
                    f"{max(r.node_cpu):.0%} CPU, {r.pace:.2f} rounds/table/s against {first:.2f} "
                    f"at {mine[0].total_tables}{limit})"
                )
                break
        else:
            notes.append(
                f"{config.name}: not saturated up to {mine[-1].total_tables} tables "
                f"(busiest node {max(mine[-1].node_cpu):.0%} CPU)"
            )
    return notes


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[300, 600, 900], help="table counts N")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window per run")
    parser.add_argument(
        "--configs", nargs="+", choices=sorted(CONFIGS), default=["sqlite", "pg", "two"], help="what to run"
    )
    parser.add_argument("--postgres", default=POSTGRES_URL, help="a database where a schema may be made")
    parser.add_argument("--redis", default=REDIS_URL)
    parser.add_argument(
        "--quiet-wait", type=float, default=30.0, help="seconds to wait for a quiet machine before each run"
    )
    args = parser.parse_args(argv)
    soft, hard = raise_nofile_limit()
    summary = machine_summary()
    print(
        f"machine: {summary['cores']} cores, {summary['cpu']}; Python {summary['python']}; "
        f"RLIMIT_NOFILE {soft}/{hard}; load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}; "
        f"nothing pinned; window {args.seconds:.0f} s",
        flush=True,
    )
    runs: list[Run] = []
    for tables in args.tables:
        for key in args.configs:
            config = CONFIGS[key]
            print(f"-- {config.name}, {tables} tables ...", flush=True)
            done = run(config, tables, args)
            runs.append(done)
            print(format_runs([done]).splitlines()[-1], flush=True)
            if done.ended_seats:
                print(f"   ! {done.ended_seats} seats lost their game or connection", flush=True)
    print()
    print(format_runs(runs))
    print()
    for note in saturation(runs):
        print(note)
    print(f"load average at the end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()

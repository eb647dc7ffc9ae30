"""Issue 12's targets in one command, each beside a baseline measured in the same run.

One run at one table count N (``--tables 1000``, then ``--tables 3000``) prints one table,
``measure | baseline | value | target | met?``, and a second one that says where the server's
core saturates. The servers are real child processes (``gamehall serve`` on a fresh SQLite
file in a temporary directory, ``aah.max_tables`` lifted past N, every loop bounded, 127.0.0.1
only), pinned to core 0; this process, the whole load generator, runs on core 1
(``_aah_load``: raw asyncio protocols on uvloop, one process) and reports its own CPU share.

Steps, in order (``--quick``: short windows, for a 1-2 minute smoke run):

1. **echo**: the raw uvloop echo server (``bench_echo_baseline``) with 3N connections, closed
   loop (round trips per echo CPU-second, the baseline of the CPU rows), then paced at one
   round trip per connection and second (its p99 is the baseline of the latency rows: what
   the loop and loopback alone give for a load shaped like the game's).
2. **PING -> PONG**: the real server, 3N connections, closed loop (``bench_aah.round_trips``).
3. **games** on the same server: N tables x 3 seats join in steps (N/4, N/2, 3N/4, N, or
   ``--steps``: the sweep that locates where the core saturates); after
   each step the tables play for a short measured interval (server and client CPU share,
   accepted actions, rounds, latency): the saturation table. At N the measured window is
   ``--seconds`` long: the latency rows (at the clients: the ``PICK`` completing a round's
   picks -> each seat's ``REVL``; ``CZPK`` -> each seat's ``RWIN``), accepted actions per server
   CPU-second (``/proc/PID/stat`` before and after), and the longest full (generation 2)
   collection: ``gamehall_gc_pause_seconds_max`` from the server's ``/metrics`` before and
   after the window, with the bench's own gc log of the server for the window alone (the
   metric is the longest *since start*: it shows a window's pause only when that pause is the
   longest so far).
4. **joins and memory**: a fresh server, N 3-seat lobby tables that never start, then timed
   joins (``_joins.join_run``): joins per second with N tables open (baseline: the average
   while the N tables filled), RSS growth per seat from ``/proc`` (baseline: the echo server's
   RSS per idle connection, ``_idle.idle_plain``).
5. **Doppelkopf** (``--reference PATH``, a not-na/cardgame checkout): ``bench_doppelkopf.py
   --parts reference`` in a child, its games per CPU-second against the reference engine.

Run::

    .venv/bin/python bench/bench_targets.py --tables 1000 --seconds 60 --reference /tmp/cardgame
    .venv/bin/python bench/bench_targets.py --tables 3000 --seconds 60 --reference /tmp/cardgame
    .venv/bin/python bench/bench_targets.py --tables 300 --quick
    .venv/bin/python bench/bench_targets.py --tables 3000 --steps 250,500,1000,1500,2000 --skip-joins

The last one is the sweep that finds the knee (docs/BENCHMARKS.md section 20). Past the knee
a saturated server admits about one connection per loop turn (libuv accepts one per
iteration), so at 3,000 tables fewer tables than asked are seated and the report says so.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_aah
from _aah_load import JOINS_IN_FLIGHT, Load, Window
from _idle import idle_plain
from _joins import LOBBY, join_run
from _server_process import (
    CLIENT_CORE,
    SERVER_CORE,
    ChildServer,
    echo_server,
    gamehall_server,
    longest_full_collection_ms,
    machine_summary,
    pin,
    raise_nofile_limit,
    read_gc_log,
)
from bench_echo_baseline import _new_loop, _percentile, measure_round_trips

BENCH_DIR = Path(__file__).resolve().parent
THIS_SRC = BENCH_DIR.parent / "src"
"""The server runs this tree's sources, whatever checkout the venv has installed."""
SEATS = 3
PACED_INTERVAL_S = 1.0
"""One round trip per connection and second: about a game's pace per seat."""
START_SETTLE_S = 3.0
"""After a step's joins: the 1 s autostart countdown, the deal and a first round."""
METRICS_TIMEOUT_S = 10.0
DK_TIMEOUT_S = 900.0


@dataclass(frozen=True, slots=True)
class Plan:
    """How long each part runs (``--quick`` shortens every part)."""

    tables: int
    window_s: float
    step_s: float
    transport_s: float
    steps: tuple[int, ...]
    timed_joins: int
    dk_games: int
    dk_repeats: int
    join_budget_s: float | None
    """Seconds a step may spend starting joins (``None``: ``_aah_load``'s own budget)."""
    joins_in_flight: int


def parse_steps(text: str) -> tuple[int, ...]:
    """``--steps 250,500,1000``: the table counts measured on the way to N, ascending."""
    try:
        steps = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of table counts: {text!r}") from None
    if not steps or steps[0] < 1:
        raise argparse.ArgumentTypeError(f"table counts must be positive: {text!r}")
    return steps


def make_plan(args: argparse.Namespace) -> Plan:
    tables = max(4, args.tables)
    fractions = (1 / 3, 2 / 3) if args.quick else (1 / 4, 1 / 2, 3 / 4)
    on_the_way = args.steps or {max(1, round(tables * f)) for f in fractions}
    steps = (*sorted(step for step in on_the_way if step < tables), tables)
    return Plan(
        tables=tables,
        window_s=args.seconds or (10.0 if args.quick else 60.0),
        step_s=3.0 if args.quick else 10.0,
        transport_s=3.0 if args.quick else 10.0,
        steps=steps,
        timed_joins=min(570, tables) if args.quick else 570,
        dk_games=20 if args.quick else 200,
        dk_repeats=1 if args.quick else 3,
        join_budget_s=args.join_budget,
        joins_in_flight=args.joins_in_flight,
    )


def server_environ() -> dict[str, str]:
    return {**bench_aah.SERVER_LIMITS, "PYTHONPATH": str(THIS_SRC)}


def game_settings(tables: int) -> dict[str, object]:
    """``bench_aah``'s game tables (3 seats, start 1 s after filling, 1 s between rounds, 100
    points to win so no game ends in the run), with room for N tables."""
    return {**bench_aah.game_settings(tables, 100), "max_tables": tables + 16}


# ---- measuring -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Interval:
    """One measured interval of the games at ``tables`` tables."""

    tables: int
    seconds: float
    window: Window
    server_cpu: float
    client_cpu: float
    other_cpu: float
    server_core_busy: float
    """How busy the server's core was, by anyone (the server, other work, the kernel)."""

    @property
    def actions_per_s(self) -> float:
        return (self.window.actions - self.window.unrg) / self.seconds if self.seconds else 0.0

    @property
    def actions_per_cpu_s(self) -> float:
        return self.actions_per_s / self.server_cpu if self.server_cpu > 0 else 0.0

    @property
    def rounds_per_table_s(self) -> float:
        return self.window.rounds / SEATS / self.tables / self.seconds if self.seconds else 0.0

    def p99_ms(self, samples: list[float]) -> float:
        return _percentile(sorted(samples), 0.99) * 1000 if samples else math.nan


async def measure_interval(load: Load, server: ChildServer, tables: int, seconds: float) -> Interval:
    """Record ``seconds`` of play; the clients' collector is off meanwhile (a pause of the load
    generator would pass for server latency)."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        before, client_before = server.usage(), time.process_time()
        load.start_window()
        await asyncio.sleep(seconds)
        window = load.take()
        after, client_after = server.usage(), time.process_time()
    finally:
        gc.enable()
    wall = after.at - before.at
    client = (client_after - client_before) / wall if wall > 0 else 0.0
    server_cpu = after.cpu_share_since(before)
    other = after.machine_share_since(before) - server_cpu - client
    core = after.core_share_since(before, SERVER_CORE)
    return Interval(tables, wall, window, server_cpu, client, other, core)


async def gc_pause_metric(port: int) -> float:
    """``gamehall_gc_pause_seconds_max{generation="2"}`` from ``/metrics`` (seconds)."""
    deadline = time.monotonic() + METRICS_TIMEOUT_S
    while True:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            body = (await asyncio.wait_for(reader.read(), METRICS_TIMEOUT_S)).decode("utf-8", "replace")
            writer.close()
            found = re.search(r'^gamehall_gc_pause_seconds_max\{generation="2"\} (\S+)$', body, re.M)
            if found:
                return float(found.group(1))
        except (OSError, TimeoutError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"no gamehall_gc_pause_seconds_max on port {port}")
        await asyncio.sleep(0.2)


@dataclass(frozen=True, slots=True)
class GameResult:
    steps: list[Interval]
    joined_s: list[float]
    gc_idle_s: float
    gc_before_s: float
    gc_after_s: float
    gc_window_ms: float
    gc_window_full: int
    refusals: list[str]
    ended_seats: int


async def play_games(server: ChildServer, plan: Plan, gc_log: str) -> GameResult:
    """Step 3 of the module docstring."""
    load = Load(server.port)
    steps: list[Interval] = []
    joined_s: list[float] = []
    try:
        gc_idle = await gc_pause_metric(server.web_port)
        for tables in plan.steps:
            seats = (tables - load.full_tables) * SEATS
            joined_s.append(await load.seat(seats, plan.join_budget_s, plan.joins_in_flight))
            await asyncio.sleep(START_SETTLE_S)
            if tables < plan.tables:
                steps.append(await measure_interval(load, server, load.full_tables, plan.step_s))
        gc_before = await gc_pause_metric(server.web_port)
        since = time.perf_counter()
        steps.append(await measure_interval(load, server, load.full_tables, plan.window_s))
        until = time.perf_counter()
        gc_after = await gc_pause_metric(server.web_port)
        ended = load.ended_seats
    finally:
        await load.close()
    pauses = read_gc_log(gc_log, since, until)
    return GameResult(
        steps,
        joined_s,
        gc_idle,
        gc_before,
        gc_after,
        longest_full_collection_ms(gc_log, since, until),
        pauses.full,
        load.refusals,
        ended,
    )


# ---- the parts -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Echo:
    per_cpu_s: float
    paced_p99_ms: float
    row: bench_aah.Row


def echo_part(plan: Plan) -> Echo:
    connections = plan.tables * SEATS
    with echo_server(plan.transport_s * 2 + 120, core=SERVER_CORE) as echo:
        row = bench_aah.round_trips(echo, connections, plan.transport_s, "echo (raw uvloop)")
        loop = _new_loop()
        try:
            paced = loop.run_until_complete(
                measure_round_trips(
                    echo.port, connections=connections, duration=plan.transport_s, interval=PACED_INTERVAL_S
                )
            )
        finally:
            loop.close()
    return Echo(row.per_cpu_second, paced.p99_us / 1000, row)


def games_part(plan: Plan) -> tuple[bench_aah.Row, GameResult]:
    gc_log = str(Path(tempfile.mkdtemp(prefix="gamehall-targets-")) / "gc.log")
    with gamehall_server(
        game_settings(plan.tables), core=SERVER_CORE, environ=server_environ(), gc_log=gc_log, web=True
    ) as server:
        ping = bench_aah.round_trips(server, plan.tables * SEATS, plan.transport_s, "gamehall PING -> PONG")
        loop = _new_loop()
        try:
            result = loop.run_until_complete(play_games(server, plan, gc_log))
        finally:
            loop.close()
    return ping, result


@dataclass(frozen=True, slots=True)
class Joins:
    per_s: float
    per_cpu_s: float
    """The timed joins per server CPU-second: the capacity figure, less sensitive to load."""
    fill_per_s: float
    bytes_per_seat: float
    echo_bytes_per_conn: float
    problems: int


def joins_part(plan: Plan) -> Joins:
    lobby = {**LOBBY, "max_tables": plan.tables + plan.timed_joins // SEATS + 16}
    gc_log = str(Path(tempfile.mkdtemp(prefix="gamehall-targets-")) / "gc.log")

    def start() -> AbstractContextManager[ChildServer]:
        return gamehall_server(lobby, core=SERVER_CORE, environ=server_environ(), gc_log=gc_log)

    row = join_run(start, plan.tables, plan.timed_joins, "this tree")
    echo = idle_plain(lambda: echo_server(600, core=SERVER_CORE), plan.tables * SEATS, "echo")
    return Joins(
        row.joins_per_s,
        row.joins_per_cpu_s,
        row.seats / row.fill_s if row.fill_s else 0.0,
        row.bytes_per_seat,
        echo.per_connection,
        row.problems,
    )


@dataclass(frozen=True, slots=True)
class Doppelkopf:
    gamehall_per_s: float
    reference_per_s: float

    @property
    def ratio(self) -> float:
        return self.gamehall_per_s / self.reference_per_s if self.reference_per_s else 0.0


DK_ROW = re.compile(r"^(gamehall|reference)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)")


def parse_reference_table(text: str) -> Doppelkopf | None:
    """The games per CPU-second of ``gamehall`` and ``reference`` (the reference as published)
    from the table ``bench_doppelkopf.py --parts reference`` prints."""
    found = {m.group(1): float(m.group(5)) for m in map(DK_ROW.match, text.splitlines()) if m}
    if "gamehall" not in found or "reference" not in found:
        return None
    return Doppelkopf(found["gamehall"], found["reference"])


def doppelkopf_part(plan: Plan, checkout: Path) -> tuple[Doppelkopf | None, str]:
    command = [
        sys.executable,
        str(BENCH_DIR / "bench_doppelkopf.py"),
        *("--parts", "reference", "--reference", str(checkout)),
        *("--games", str(plan.dk_games), "--repeats", str(plan.dk_repeats)),
    ]
    env = {**os.environ, "PYTHONPATH": str(THIS_SRC)}
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=DK_TIMEOUT_S, env=env, check=False
        )
    except subprocess.TimeoutExpired:
        return None, f"bench_doppelkopf.py did not finish within {DK_TIMEOUT_S:.0f} s"
    parsed = parse_reference_table(done.stdout)
    if parsed is None:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        return None, f"bench_doppelkopf.py --parts reference gave no table ({tail[0]})"
    return parsed, done.stdout.strip()


# ---- the report ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Target:
    measure: str
    baseline: str
    value: str
    target: str
    met: bool | None  # None: not measured


def verdict(met: bool | None) -> str:
    return "n/a" if met is None else ("yes" if met else "**no**")


def targets(
    plan: Plan, echo: Echo, ping: bench_aah.Row, games: GameResult, joins: Joins | None, dk: Doppelkopf | None
) -> list[Target]:
    window = games.steps[-1]
    revl, rwin = window.p99_ms(window.window.revl), window.p99_ms(window.window.rwin)
    paced = f"echo paced p99 {echo.paced_p99_ms:.2f} ms"
    full_ms = games.gc_window_ms
    ping_ratio = ping.per_cpu_second / echo.per_cpu_s if echo.per_cpu_s else 0.0
    rows = [
        Target(
            f"p99 PICK completing the picks -> REVL, {window.tables} tables",
            paced,
            f"{revl:.1f} ms",
            "<= 10 ms",
            revl <= 10,
        ),
        Target(f"p99 CZPK -> RWIN, {window.tables} tables", paced, f"{rwin:.1f} ms", "<= 10 ms", rwin <= 10),
        Target(
            f"longest full collection in {window.seconds:.0f} s, {window.tables} tables",
            f"before the tables joined {games.gc_idle_s * 1000:.1f} ms",
            f"{full_ms:.1f} ms ({games.gc_window_full} full)",
            "<= 10 ms",
            full_ms <= 10,
        ),
        Target(
            "accepted actions per server CPU-second",
            f"echo {echo.per_cpu_s:,.0f} rt/CPU-s",
            f"{window.actions_per_cpu_s:,.0f}",
            ">= 12,000",
            window.actions_per_cpu_s >= 12_000,
        ),
    ]
    if joins is not None:
        rows += [
            Target(
                f"joins per second, {plan.tables} tables open",
                f"filling 0->{plan.tables}: {joins.fill_per_s:,.0f}/s",
                f"{joins.per_s:,.0f} ({joins.per_cpu_s:,.0f} per server CPU-s)",
                ">= 1,000",
                joins.per_s >= 1000,
            ),
            Target(
                "RSS per joined seat, 3-seat tables",
                f"echo {joins.echo_bytes_per_conn:,.0f} B/conn",
                f"{joins.bytes_per_seat:,.0f} B",
                "<= 6,144 B",
                joins.bytes_per_seat <= 6144,
            ),
        ]
    rows.append(
        Target(
            "Doppelkopf games/CPU-s vs reference engine",
            "not measured" if dk is None else f"reference {dk.reference_per_s:.1f} games/CPU-s",
            "--reference PATH" if dk is None else f"{dk.ratio:.2f}x ({dk.gamehall_per_s:.1f})",
            ">= 5x",
            None if dk is None else dk.ratio >= 5,
        )
    )
    rows.append(
        Target(
            "PING->PONG vs raw uvloop echo, per CPU-second",
            f"echo {echo.per_cpu_s:,.0f} rt/CPU-s",
            f"{ping_ratio:.2f} ({ping.per_cpu_second:,.0f})",
            ">= 0.7",
            ping_ratio >= 0.7,
        )
    )
    return rows


def format_targets(rows: Sequence[Target]) -> str:
    lines = ["| measure | baseline (same run) | value | target | met? |", "|---|---|---:|---:|---|"]
    lines += [f"| {r.measure} | {r.baseline} | {r.value} | {r.target} | {verdict(r.met)} |" for r in rows]
    return "\n".join(lines)


SATURATED_CPU = 0.9
SLOWED_PACE = 0.85


def saturation(steps: Sequence[Interval]) -> str:
    """Where the server's core saturates: the first step whose server CPU share reaches
    :data:`SATURATED_CPU`, or whose tables play slower than :data:`SLOWED_PACE` of the first
    step's pace; otherwise the table count a full core would carry at the last step's CPU per
    table (a linear estimate). When the core was full but the server had less than
    :data:`SATURATED_CPU` of it, other work on the machine took the rest: said so, because
    then the figure is the machine's, not the server's."""
    first_pace = steps[0].rounds_per_table_s
    for step in steps:
        if step.server_cpu >= SATURATED_CPU or step.rounds_per_table_s < SLOWED_PACE * first_pace:
            shared = (
                f"; its core was {step.server_core_busy:.0%} busy: other work took the rest"
                if step.server_cpu < SATURATED_CPU and step.server_core_busy >= SATURATED_CPU
                else ""
            )
            return (
                f"the server core saturates at about {step.tables} tables "
                f"(server CPU {step.server_cpu:.0%}, {step.rounds_per_table_s:.2f} rounds/table/s "
                f"against {first_pace:.2f} at {steps[0].tables}{shared})"
            )
    last = steps[-1]
    estimate = last.tables / last.server_cpu if last.server_cpu > 0 else math.inf
    return (
        f"not saturated at {last.tables} tables (server CPU {last.server_cpu:.0%}); "
        f"at its CPU per table a full core carries about {estimate:,.0f} tables"
    )


def format_steps(steps: Sequence[Interval], joined_s: Sequence[float]) -> str:
    lines = [
        "| tables | seconds | server CPU | server core busy | client CPU | other | actions/s | "
        "actions/CPU-s | rounds/table/s | p99 REVL ms | p99 RWIN ms | join s |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for step, join_s in zip(steps, joined_s, strict=True):
        lines.append(
            f"| {step.tables} | {step.seconds:.0f} | {step.server_cpu:.0%} | {step.server_core_busy:.0%} | "
            f"{step.client_cpu:.0%} | "
            f"{step.other_cpu:.0%} | {step.actions_per_s:,.0f} | {step.actions_per_cpu_s:,.0f} | "
            f"{step.rounds_per_table_s:.2f} | {step.p99_ms(step.window.revl):.1f} | "
            f"{step.p99_ms(step.window.rwin):.1f} | {join_s:.1f} |"
        )
    return "\n".join(lines)


def client_note(steps: Sequence[Interval]) -> str:
    busiest = max(steps, key=lambda s: s.client_cpu)
    limit = (
        "the load generator may have been the limit"
        if busiest.client_cpu >= SATURATED_CPU
        else "not the limit"
    )
    return (
        f"load generator (this process, core {CLIENT_CORE}): at most {busiest.client_cpu:.0%} of a core "
        f"(at {busiest.tables} tables): {limit}"
    )


# ---- main ------------------------------------------------------------------------------------


T = TypeVar("T")


def timed(what: str, part: Callable[[], T]) -> T:
    began = time.monotonic()
    print(f"-- {what} ...", flush=True)
    result = part()
    print(f"   done in {time.monotonic() - began:.0f} s", flush=True)
    return result


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000, help="AAH tables of 3 seats (1000, 3000)")
    parser.add_argument(
        "--seconds", type=float, default=0.0, help="measured window at N tables (60; quick 10)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="short windows and steps: a 1-2 minute smoke run"
    )
    parser.add_argument(
        "--reference", type=Path, default=None, help="a not-na/cardgame checkout (Doppelkopf row)"
    )
    parser.add_argument(
        "--steps",
        type=parse_steps,
        default=None,
        help="table counts measured on the way to N, e.g. 250,500,1000,1500,2000 (N/4, N/2, 3N/4)",
    )
    parser.add_argument(
        "--join-budget",
        type=float,
        default=None,
        help="seconds each step may spend starting joins (default 30 s + 20 ms per seat); past "
        "saturation a larger one does not help: the server accepts about one connection per loop turn",
    )
    parser.add_argument(
        "--joins-in-flight",
        type=int,
        default=JOINS_IN_FLIGHT,
        help=f"joins under way at once ({JOINS_IN_FLIGHT}); more seat faster while the server's core "
        "has room",
    )
    parser.add_argument("--skip-joins", action="store_true", help="leave out the joins and memory part")
    parser.add_argument(
        "--quiet-wait", type=float, default=None, help="seconds to wait for an idle machine (60; quick 0)"
    )
    args = parser.parse_args(argv)
    plan = make_plan(args)
    bench_aah.QUIET_WAIT_S[0] = (
        args.quiet_wait if args.quiet_wait is not None else (0.0 if args.quick else 60.0)
    )
    soft, hard = raise_nofile_limit()
    pinned = (os.cpu_count() or 1) >= 2 and pin(0, CLIENT_CORE)
    summary = machine_summary()
    print(
        f"machine: {summary['cores']} cores, {summary['cpu']}; Python {summary['python']}; uvloop "
        f"{summary['uvloop']}; RLIMIT_NOFILE {soft}/{hard}; load average {os.getloadavg()[0]:.1f}; "
        f"{'server core 0, clients core 1' if pinned else 'not pinned'}; {plan.tables} tables, "
        f"window {plan.window_s:.0f} s{' (quick)' if args.quick else ''}",
        flush=True,
    )
    echo = timed("echo baselines", lambda: echo_part(plan))
    ping, games = timed("PING -> PONG, then the games", lambda: games_part(plan))
    joins = None if args.skip_joins else timed("joins and memory per seat", lambda: joins_part(plan))
    dk: Doppelkopf | None = None
    dk_text = "Doppelkopf: not measured (no --reference)"
    if args.reference is not None:
        checkout: Path = args.reference
        dk, dk_text = timed("Doppelkopf against the reference", lambda: doppelkopf_part(plan, checkout))
    print()
    print(format_targets(targets(plan, echo, ping, games, joins, dk)))
    print()
    print(format_steps(games.steps, games.joined_s))
    print()
    if games.steps[-1].tables < plan.tables:
        print(
            f"only {games.steps[-1].tables} of {plan.tables} tables were seated: the joins' budget ran "
            "out while the playing tables kept the server busy (the server did not keep up)"
        )
    print(saturation(games.steps))
    print(client_note(games.steps))
    window = games.steps[-1]
    print(
        f"window: {len(window.window.revl)} REVL and {len(window.window.rwin)} RWIN samples, "
        f"{window.window.actions} actions, {window.window.unrg} UNRG, {window.window.frames} frames; "
        f"/metrics gc gen-2 max {games.gc_before_s * 1000:.1f} ms before the window, "
        f"{games.gc_after_s * 1000:.1f} ms after (the longest since start); gc log in the window: "
        f"{games.gc_window_full} full, longest {games.gc_window_ms:.1f} ms"
    )
    print(
        f"seats refused on the way (retried): {len(games.refusals)}; seats whose game ended: "
        f"{games.ended_seats}; joins refused in the joins part: {joins.problems if joins else 0}"
    )
    for refusal in sorted(set(games.refusals))[:3]:
        print(f"  ! {refusal}")
    print(f"echo closed loop: {echo.row.per_second:,.0f} rt/s at {echo.row.server_cpu:.0%} of its core")
    print(dk_text)


if __name__ == "__main__":
    main()

"""The whole AAH stack under load: legacy-protocol bots against the real server, beside echo.

Three parts, each printing one table with its baseline measured in the same run:

1. **games** (per table count N): the raw uvloop echo server of ``bench_echo_baseline`` with
   3N connections each keeping one ``PING`` in flight (the ceiling); the real server answering
   the same ``PING`` frames on 3N fresh connections (codec, connection and dialogue, no hall);
   then N tables of 3 wire bots (think time 0, ``ping_probe``) playing for a fixed window:
   accepted actions (``PICK`` + ``CZPK``) per second, frames delivered per second, and the
   action-to-confirmation latency (``PICK`` -> the ``PONG`` of the probe sent right after it;
   ``CZPK`` -> the ``RWIN`` broadcast). Server CPU share and RSS come from ``/proc``.
2. **idle**: server RSS per idle connection, 10,000 plain connected sockets that sent nothing
   (echo server beside it), and bots that joined a lobby table and wait (a fresh server each).
3. **profile** (``--profile FILE``): one game run with the server under ``python -m cProfile``,
   then the top costs (the figures of that run are not used: cProfile slows the server).

Every server is a child process on 127.0.0.1 with a fresh SQLite file; every loop is bounded
in count and time; everything stops by itself. On a machine with two or more cores the servers
are pinned to core 0 and every client (this process and its workers) to core 1 (``--no-pin``
lets the OS place them), so a figure says what one server core does.

Run::

    .venv/bin/python bench/bench_aah.py --tables 10,100,1000 --duration 10
    .venv/bin/python bench/bench_aah.py --parts idle --idle 10000 --idle-joined 4000
    .venv/bin/python bench/bench_aah.py --parts profile --tables 300 --profile /tmp/aah.prof
    .venv/bin/python bench/bench_aah.py --parts joins [--join-playing] --baseline-src /tmp/base/src
    .venv/bin/python bench/bench_aah.py --parts ping --tables 10,100 --duration 5 \
        --baseline-src ../main/src --ping-rounds 2   # echo, baseline PING, this tree's PING
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import pstats
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _aah_clients import WindowResult, bot_worker
from _server_process import (
    CLIENT_CORE,
    SERVER_CORE,
    ChildServer,
    GcPauses,
    echo_server,
    gamehall_server,
    machine_summary,
    pin,
    raise_nofile_limit,
    read_gc_log,
    wait_for_quiet,
)
from bench_echo_baseline import EchoResult, _new_loop, _percentile, measure_round_trips

PING = b"PING\x03"  # answered with PONG\x03: the same 5-byte round trip as the echo baseline
SEATS_PER_TABLE = 3
MAX_TABLES = 1000  # the aah.max_tables ceiling of the settings schema
MAX_DURATION_S = 60.0
JOIN_BATCH = 12
"""Bots joining at once: a larger batch can keep the server busy past the 1.5 s META grace."""
SERVER_LIMITS = {
    # the per-connection input budget (500/s) would throttle the saturating PING clients
    "GAMEHALL_RATE_LIMIT_PER_S": "1000000",
    "GAMEHALL_RATE_LIMIT_BURST": "1000000",
    "GAMEHALL_MAX_CONNECTIONS": "19000",
}


def game_settings(tables: int, aplimit: int) -> dict[str, object]:
    """Room defaults for the game runs: 3-seat tables that start 1 s after they fill, a high
    points limit so no game ends inside the window, the shortest gap between rounds."""
    return {
        "playermax": SEATS_PER_TABLE,
        "min_players": SEATS_PER_TABLE,
        "aplimit": aplimit,
        "timeout": 60,
        "round_gap": 1,
        "autostart_delay": 1,
        "rejoin_grace": 0,
        "max_tables": min(MAX_TABLES, tables + 16),
    }


# ---- measuring -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Row:
    """One line of a table: what was measured, how fast, how late, at what server cost."""

    what: str
    connections: int
    per_second: float
    p50_ms: float
    p99_ms: float
    server_cpu: float  # CPU seconds per wall second (1.0 = one core busy)
    client_cpu: float  # the same for all client processes together
    other_cpu: float  # busy cores outside the server and the clients (other work, kernel)

    @property
    def per_cpu_second(self) -> float:
        return self.per_second / self.server_cpu if self.server_cpu > 0 else 0.0


QUIET_WAIT_S = [60.0]
"""How long to wait for other work on the machine to stop before each measurement (--quiet-wait)."""


def _quiet(own_pids: Sequence[int], busy_below: float = 0.25) -> None:
    """Wait (bounded) for other work on the machine to stop, and say if it did not."""
    other = wait_for_quiet(QUIET_WAIT_S[0], busy_below, own_pids)
    if other >= busy_below:
        print(f"  (other work kept {other:.2f} cores busy before this measurement)")


def round_trips(server: ChildServer, connections: int, duration: float, what: str) -> Row:
    """Ping-pong ``PING`` frames on ``connections`` fresh connections to ``server`` (the CPU
    shares cover the whole call, connecting included)."""
    loop = _new_loop()
    try:
        _quiet([server.pid])
        before, client_before = server.usage(), time.process_time()
        result: EchoResult = loop.run_until_complete(
            measure_round_trips(server.port, connections=connections, duration=duration, message=PING)
        )
        after, client_after = server.usage(), time.process_time()
    finally:
        loop.close()
    wall = after.at - before.at
    client_cpu = (client_after - client_before) / wall if wall > 0 else 0.0
    return Row(
        what,
        result.connections,
        result.per_second,
        result.p50_us / 1000,
        result.p99_us / 1000,
        after.cpu_share_since(before),
        client_cpu,
        after.machine_share_since(before) - after.cpu_share_since(before) - client_cpu,
    )


@dataclass(slots=True)
class GameRun:
    """The bots' side of one game window, merged over the workers."""

    joined: int
    problems: list[str]
    window: WindowResult
    server_cpu: float
    server_rss: int
    client_cpu: float
    join_s: float
    other_cpu: float
    core_busy: tuple[float, float]
    gc_pauses: GcPauses


def _merge(results: Sequence[WindowResult]) -> WindowResult:
    total = WindowResult()
    for part in results:
        total.bots += part.bots
        total.seconds = max(total.seconds, part.seconds)
        total.actions += part.actions
        total.unconfirmed += part.unconfirmed
        total.pick_latencies += part.pick_latencies
        total.czpk_latencies += part.czpk_latencies
        total.frames_received += part.frames_received
        total.unrg += part.unrg
        total.rounds += part.rounds
        total.cpu_s += part.cpu_s
        total.closed_bots += part.closed_bots
        total.violations += part.violations
        total.phase_counts = [a + b for a, b in zip(total.phase_counts, part.phase_counts, strict=True)]
    return total


def play_games(
    server: ChildServer,
    tables: int,
    *,
    duration: float,
    warmup: float,
    clients: int,
    pinned: bool,
    gc_log: str | None = None,
) -> GameRun:
    """Seat ``tables`` x 3 wire bots in ``clients`` worker processes, let the games run for
    ``warmup`` seconds, then measure ``duration`` seconds."""
    names = [f"b{n}" for n in range(tables * SEATS_PER_TABLE)]
    context = multiprocessing.get_context("spawn")
    pipes, workers = [], []
    for index in range(clients):
        parent_end, child_end = context.Pipe()
        share = names[index::clients]
        core = CLIENT_CORE if pinned else None
        worker = context.Process(
            target=bot_worker,
            args=(child_end, server.port, share, JOIN_BATCH, 1000 + index, core),
            daemon=True,
        )
        worker.start()
        pipes.append(parent_end)
        workers.append(worker)
    try:
        join_budget = 60.0 + len(names) / 10
        joined, problems = 0, list[str]()
        join_started = time.perf_counter()
        for pipe in pipes:
            message = _receive(pipe, join_budget)
            joined += message[1]
            problems += message[2]
        join_s = time.perf_counter() - join_started
        time.sleep(warmup)
        _quiet([server.pid, *(worker.pid for worker in workers if worker.pid is not None)])
        before = server.usage()
        for pipe in pipes:
            pipe.send(("measure", duration))
        time.sleep(duration)
        after = server.usage()
        gc_pauses = read_gc_log(gc_log, before.at, after.at) if gc_log else GcPauses(0, 0.0, 0.0)
        window = _merge([_receive(pipe, 30.0)[1] for pipe in pipes])
        client_cpu = window.cpu_s / window.seconds if window.seconds else 0.0
        return GameRun(
            joined,
            problems,
            window,
            after.cpu_share_since(before),
            after.rss,
            client_cpu,
            join_s,
            after.machine_share_since(before) - after.cpu_share_since(before) - client_cpu,
            (after.core_share_since(before, SERVER_CORE), after.core_share_since(before, CLIENT_CORE)),
            gc_pauses,
        )
    finally:
        for worker in workers:
            worker.join(10.0)
            if worker.is_alive():
                worker.kill()


def _receive(pipe: Connection, timeout: float) -> tuple[Any, ...]:
    if not pipe.poll(timeout):
        raise RuntimeError(f"a bot worker sent nothing within {timeout:.0f} s")
    message = pipe.recv()
    if message[0] == "error":
        raise RuntimeError(f"a bot worker failed: {message[1]}")
    return tuple(message)


def game_rows(run: GameRun) -> list[Row]:
    """The game window as table rows: all actions, then PICK and CZPK alone, then frames."""
    window = run.window
    seconds = window.seconds or 1.0
    both = sorted(window.pick_latencies + window.czpk_latencies)
    picks = sorted(window.pick_latencies)
    judged = sorted(window.czpk_latencies)
    cpu, client, other = run.server_cpu, run.client_cpu, run.other_cpu

    def ms(values: list[float], fraction: float) -> float:
        return _percentile(values, fraction) * 1000

    def count(values: list[float]) -> int:
        return sum(1 for value in values if value != math.inf)

    confirmed = count(both)
    bots = window.bots
    return [
        Row(
            "AAH actions (PICK+CZPK)",
            bots,
            confirmed / seconds,
            ms(both, 0.5),
            ms(both, 0.99),
            cpu,
            client,
            other,
        ),
        Row(
            "  PICK -> PONG probe",
            bots,
            count(picks) / seconds,
            ms(picks, 0.5),
            ms(picks, 0.99),
            cpu,
            client,
            other,
        ),
        Row(
            "  CZPK -> RWIN",
            bots,
            count(judged) / seconds,
            ms(judged, 0.5),
            ms(judged, 0.99),
            cpu,
            client,
            other,
        ),
        Row("  frames delivered", bots, window.frames_received / seconds, 0.0, 0.0, cpu, client, other),
    ]


# ---- printing --------------------------------------------------------------------------------


def format_rows(title: str, rows: Sequence[Row], baseline: Row) -> str:
    """A fixed-width table; ``vs echo`` compares per second and per server CPU second."""
    header = (
        f"{'measure':<26} {'conns':>5} {'per s':>9} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'srv CPU':>7} {'cli CPU':>7} {'other':>6} {'per CPU-s':>9} {'vs echo':>7} {'vs echo/CPU':>11}"
    )
    lines = [title, header, "-" * len(header)]
    for row in rows:
        latency = f"{row.p50_ms:>7.2f} {row.p99_ms:>7.2f}" if row.p99_ms else f"{'':>7} {'':>7}"
        ratio = row.per_second / baseline.per_second if baseline.per_second else 0.0
        ratio_cpu = row.per_cpu_second / baseline.per_cpu_second if baseline.per_cpu_second else 0.0
        lines.append(
            f"{row.what:<26} {row.connections:>5} {row.per_second:>9.0f} {latency} "
            f"{row.server_cpu:>7.1%} {row.client_cpu:>7.1%} {row.other_cpu:>6.0%} {row.per_cpu_second:>9.0f} "
            f"{ratio:>7.2f} {ratio_cpu:>11.2f}"
        )
    lines.append(
        "CPU: cores busy (1 = 100%) from /proc; 'other' = busy cores outside server and clients "
        "(other work on the machine, kernel); vs echo/CPU = per server CPU-second; "
        "latency inf = not confirmed within 5 s"
    )
    return "\n".join(lines)


def run_games_part(tables: int, args: argparse.Namespace) -> None:
    """Part 1 for one table count: echo, server PING, then the games."""
    connections = tables * SEATS_PER_TABLE
    duration = min(args.duration, MAX_DURATION_S)
    transport_s = min(args.transport_duration or duration, MAX_DURATION_S)
    with echo_server(transport_s + QUIET_WAIT_S[0] + 60, core=SERVER_CORE if args.pin else None) as echo:
        baseline = round_trips(echo, connections, transport_s, "echo (raw uvloop)")
    settings = game_settings(tables, args.aplimit)
    gc_log = str(Path(tempfile.mkdtemp(prefix="gamehall-bench-gc-")) / "gc.log")
    core = SERVER_CORE if args.pin else None
    environ = server_environ(args.server_src)
    with gamehall_server(settings, core=core, environ=environ, gc_log=gc_log) as server:
        ping = round_trips(server, connections, transport_s, "gamehall PING -> PONG")
        clients = args.clients or 1
        run = play_games(
            server,
            tables,
            duration=duration,
            warmup=args.warmup,
            clients=clients,
            pinned=args.pin,
            gc_log=gc_log,
        )
    window = run.window
    placement = "pinned: server core 0, clients core 1" if args.pin else "not pinned"
    rounds_per_s = window.rounds / SEATS_PER_TABLE / window.seconds if window.seconds else 0.0
    title = (
        f"== {tables} tables x {SEATS_PER_TABLE} bots, {duration:.0f} s window after {args.warmup:.0f} s "
        f"warm-up; {clients} client process(es); {placement}"
    )
    print(format_rows(title, [baseline, ping, *game_rows(run)], baseline))
    print(
        f"joined {run.joined}/{connections} in {run.join_s:.1f} s ({run.joined / run.join_s:.0f}/s); "
        f"table rounds/s {rounds_per_s:.0f}; unconfirmed {window.unconfirmed}; UNRG {window.unrg}; "
        f"bots closed {window.closed_bots}; violations {len(window.violations)}; "
        f"server RSS {run.server_rss / 2**20:.0f} MiB; cores busy (anyone): "
        f"core {SERVER_CORE} {run.core_busy[0]:.0%}, core {CLIENT_CORE} {run.core_busy[1]:.0%}"
    )
    pauses = run.gc_pauses
    print(
        f"server garbage collections in the window: {pauses.full} full, longest pause "
        f"{pauses.longest_ms:.0f} ms, {pauses.total_ms:.0f} ms in all (pauses of 5 ms or more)"
    )
    busiest = max(window.phase_counts) / window.actions if window.actions else 0.0
    print(
        f"busiest 50 ms of the second (monotonic clock) holds {busiest:.0%} of the actions "
        "(5% if the rounds of the tables were spread evenly over the second)"
    )
    for problem in run.problems[:5] + window.violations[:5]:
        print(f"  ! {problem}")
    print()


# ---- idle connections ------------------------------------------------------------------------


def run_idle_part(args: argparse.Namespace) -> None:
    """Part 2: RSS per idle connection (see :mod:`_idle`)."""
    from _idle import idle_joined, idle_plain

    core = SERVER_CORE if args.pin else None
    rows = [
        idle_plain(lambda: echo_server(600, core=core), args.idle, "echo (raw uvloop), plain sockets"),
        idle_plain(
            lambda: gamehall_server({}, core=core, environ=SERVER_LIMITS),
            args.idle,
            "gamehall, plain sockets",
        ),
    ]
    if args.idle_joined:
        lobby = {"playermax": 8, "min_players": 8, "autostart_delay": 0, "max_tables": MAX_TABLES}
        rows.append(
            idle_joined(
                lambda: gamehall_server(lobby, core=core, environ=SERVER_LIMITS),
                min(args.idle_joined, 8 * MAX_TABLES),
                "gamehall, joined lobby",
            )
        )
    header = (
        f"{'server':<34} {'conns':>6} {'RSS before':>11} {'RSS after':>10} {'bytes/conn':>10} {'vs echo':>7}"
    )
    print(
        "== idle connections (target <= 8 KiB = 8192 bytes per connection); "
        f"RLIMIT_NOFILE {machine_summary()['nofile']}"
    )
    print(header)
    print("-" * len(header))
    base = rows[0].per_connection
    for row in rows:
        print(
            f"{row.what:<34} {row.connections:>6} {row.before / 2**20:>9.1f}Mi {row.after / 2**20:>8.1f}Mi "
            f"{row.per_connection:>10.0f} {row.per_connection / base if base else 0:>7.1f}"
        )
    print()


# ---- joins with many tables open, memory per seat ----------------------------------------------


THIS_SRC = Path(__file__).resolve().parent.parent / "src"
"""This tree's sources: "this tree" runs them, not whatever copy the venv has installed (a
worktree's venv may point at another checkout)."""


def server_environ(src: str | None) -> dict[str, str]:
    """The server limits, and ``PYTHONPATH`` to run the server from ``src`` (another source
    tree) or from this tree."""
    environ = dict(SERVER_LIMITS)
    environ["PYTHONPATH"] = str(Path(src).resolve() if src else THIS_SRC)
    return environ


def run_joins_part(args: argparse.Namespace) -> None:
    """Part 4: joins per second with ``--join-tables`` tables open, and RSS per joined seat,
    for this tree and (``--baseline-src``) a baseline tree in the same run."""
    from _joins import LOBBY, PLAYING, PLAYING_WAIT_S, format_join_rows, join_run

    core = SERVER_CORE if args.pin else None
    tables = min(args.join_tables, MAX_TABLES - 10)
    trees = [("this tree", None)]
    if args.baseline_src:
        trees.insert(0, (f"baseline {args.baseline_name}", args.baseline_src))
    rows = []
    for what, src in trees:
        settle = wait_for_quiet(QUIET_WAIT_S[0])
        print(f"  ({what}: machine busy {settle:.0%} of a core outside this bench before the run)")

        gc_log = str(Path(tempfile.mkdtemp(prefix="gamehall-bench-gc-")) / "gc.log")

        def start(src: str | None = src, gc_log: str = gc_log) -> Any:
            settings = PLAYING if args.join_playing else LOBBY
            return gamehall_server(settings, core=core, environ=server_environ(src), gc_log=gc_log)

        wait_s = PLAYING_WAIT_S if args.join_playing else 0.0
        rows.append(join_run(start, tables, args.join_timed, what, gc_log, wait_s=wait_s))
    print(format_join_rows(rows, tables, "playing" if args.join_playing else "lobby"))
    print()


# ---- profile ---------------------------------------------------------------------------------


def run_profile_part(args: argparse.Namespace) -> None:
    """Part 3: a game run with the server under cProfile, then its top costs."""
    tables = args.profile_tables
    profile_to = str(Path(args.profile).resolve())
    settings = game_settings(tables, args.aplimit)
    core = SERVER_CORE if args.pin else None
    with gamehall_server(settings, core=core, environ=SERVER_LIMITS, profile_to=profile_to) as server:
        run = play_games(
            server,
            tables,
            duration=args.duration,
            warmup=args.warmup,
            clients=args.clients or 1,
            pinned=args.pin,
        )
    print(
        f"== profile of the server, {tables} tables, {args.duration:.0f} s window "
        f"(under cProfile: {run.window.actions / (run.window.seconds or 1):.0f} actions/s, "
        f"server CPU {run.server_cpu:.0%})"
    )
    stats = pstats.Stats(profile_to)
    stats.sort_stats("tottime").print_stats(args.profile_top)
    stats.sort_stats("cumulative").print_stats(args.profile_top)


# ---- PING alone, two trees ---------------------------------------------------------------------


def run_ping_part(tables: int, args: argparse.Namespace) -> None:
    """Part 5: the echo row and the ``PING -> PONG`` row of part 1 without the games, for a
    baseline tree (``--baseline-src``) and this tree, ``--ping-rounds`` times in turn, so that
    a change to the server's read/parse/write path is measured against its baseline and the
    echo ceiling in one run (issue 12)."""
    connections = tables * SEATS_PER_TABLE
    transport_s = min(args.transport_duration or args.duration, MAX_DURATION_S)
    core = SERVER_CORE if args.pin else None
    trees = [("PING this tree", str(THIS_SRC))]
    if args.baseline_src:
        trees.insert(0, (f"PING {args.baseline_name}", args.baseline_src))
    for round_number in range(1, max(1, args.ping_rounds) + 1):
        with echo_server(transport_s + QUIET_WAIT_S[0] + 60, core=core) as echo:
            baseline = round_trips(echo, connections, transport_s, "echo (raw uvloop)")
        rows = [baseline]
        for what, src in trees:
            with gamehall_server(
                game_settings(tables, args.aplimit), core=core, environ=server_environ(src)
            ) as server:
                rows.append(round_trips(server, connections, transport_s, what))
        title = f"== PING -> PONG, {connections} connections, {transport_s:.0f} s each, round {round_number}"
        print(format_rows(title, rows, baseline))
        print()


# ---- main ------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--parts", default="games,idle", help="games,idle,profile,joins,ping (comma-separated)"
    )
    parser.add_argument("--tables", default="10,100,1000", help="concurrent table counts (max 1000)")
    parser.add_argument("--duration", type=float, default=10.0, help="measured seconds per run (max 60)")
    parser.add_argument(
        "--transport-duration",
        type=float,
        default=0.0,
        help="seconds of the echo and PING rows (default: --duration)",
    )
    parser.add_argument("--warmup", type=float, default=4.0, help="seconds of play before measuring")
    parser.add_argument("--clients", type=int, default=1, help="bot worker processes")
    parser.add_argument(
        "--aplimit", type=int, default=100, help="points to win (high: games outlast the run)"
    )
    parser.add_argument(
        "--quiet-wait", type=float, default=60.0, help="seconds to wait for an idle machine per measurement"
    )
    parser.add_argument("--no-pin", dest="pin", action="store_false", help="do not pin server and clients")
    parser.add_argument("--idle", type=int, default=10_000, help="plain idle connections")
    parser.add_argument(
        "--idle-joined", type=int, default=4000, help="idle bots seated in lobbies (0 = skip)"
    )
    parser.add_argument(
        "--profile",
        default=str(Path(tempfile.gettempdir()) / "gamehall-aah.prof"),
        help="cProfile output of the profile part",
    )
    parser.add_argument("--join-tables", type=int, default=800, help="open tables in the joins part")
    parser.add_argument("--join-timed", type=int, default=570, help="joins timed in the joins part")
    parser.add_argument(
        "--join-playing",
        action="store_true",
        help="the joins part's tables start their game (RSS per seat of a table in play)",
    )
    parser.add_argument(
        "--baseline-src", default=None, help="a source tree (its src/) run as the joins part's baseline"
    )
    parser.add_argument("--baseline-name", default="main", help="what the baseline tree is, for the table")
    parser.add_argument("--server-src", default=None, help="run the games part's server from this src/ tree")
    parser.add_argument("--profile-tables", type=int, default=300, help="tables in the profile run")
    parser.add_argument(
        "--ping-rounds", type=int, default=1, help="rounds of the ping part (echo, baseline, this)"
    )
    parser.add_argument("--profile-top", type=int, default=25, help="functions listed per sort")
    args = parser.parse_args(argv)
    QUIET_WAIT_S[0] = max(0.0, args.quiet_wait)
    parts = {part.strip() for part in args.parts.split(",") if part.strip()}
    soft, hard = raise_nofile_limit()
    if args.pin and (os.cpu_count() or 1) < 2:
        args.pin = False
    if args.pin:
        pin(0, CLIENT_CORE)
    summary = machine_summary()
    print(
        f"machine: {summary['cores']} cores, {summary['cpu']}; Python {summary['python']}; "
        f"uvloop {summary['uvloop']}; RLIMIT_NOFILE {soft}/{hard} (the server inherits it)\n"
    )
    if "games" in parts:
        for tables in [int(t) for t in args.tables.split(",") if t]:
            run_games_part(min(tables, MAX_TABLES), args)
    if "idle" in parts:
        run_idle_part(args)
    if "profile" in parts:
        run_profile_part(args)
    if "joins" in parts:
        run_joins_part(args)
    if "ping" in parts:
        for tables in [int(t) for t in args.tables.split(",") if t]:
            run_ping_part(min(tables, MAX_TABLES), args)


if __name__ == "__main__":
    main()

"""Ursuppe: whole random games per second, in-process and over TCP, each table beside a
baseline measured in the same run.

1. **inprocess** (3 and 4 players): the engine alone, no I/O, per CPU-second of this process
   (so other work on the machine does not bend the figures). Baselines: *default moves* (the
   bare engine: every request answered with its timeout move, ``default_action``, no policy
   work at all; these games are short, so games/s and actions/s both matter) and *replay*
   (the recorded actions of the random-policy games below, applied again with nothing else:
   the engine's cost for exactly those games). Then *random policy from its view* (the hall
   bot's work: the awaited seat's view, the policy's decision on it, ``apply``), *random +
   views* (plus the view of every seat and a spectator after each action, as the hall builds
   them for its listeners) and *heuristic* (every seat heuristic, from its view).
2. **tcp**: the real server (``python -m gamehall.cli serve``, every listener but UrServer's
   off) as a child process on a fresh SQLite file, and T tables of UrServer wire bots
   (``gamehall.bots.ursuppe.wire.run_bots``, random policy) in this process, each table
   playing G games back to back (a game: ``NEU`` or ``LISTE``/``TEILNEHMEN``, the whole game
   with ``STATUS``/``SPIELFELD`` before each real decision, ``ABMELDEN``). The bots' own write
   pacing (kept under the server's default flood guard) is lifted and the server's rate limit
   raised, so the figures show the server, not the pacing. Baseline: the raw uvloop echo
   server of ``bench_echo_baseline`` with the same number of connections (one 5-byte frame in
   flight each): round trips per second, the ceiling of any line protocol on this machine.

On a machine with two or more cores the server is pinned to core 0 and the clients to core 1.
``games/cpu-s`` (games per CPU-second of the server) is the figure to compare when other work
shares the machine (``other cpu``). Every loop is bounded in games and in time, everything
listens on 127.0.0.1 only and stops by itself.

Run::

    .venv/bin/python bench/bench_ursuppe.py --games 100 --tables 1,4,16 --games-per-table 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _server_process import (
    CLIENT_CORE,
    LOOPBACK,
    SERVER_CORE,
    ChildServer,
    free_port,
    machine_summary,
    pin,
    raise_nofile_limit,
    wait_for_quiet,
)
from bench_echo_baseline import _new_loop, run_echo_baseline

from gamehall.bots.ursuppe import UrsuppePolicy, wire
from gamehall.config import DEFAULT_PORTS
from gamehall.rules._core import Action, Seat
from gamehall.rules.ursuppe import new_game
from gamehall.rules.ursuppe.engine import UrsuppeTable

MAX_ACTIONS_PER_GAME = 20_000
"""A random game takes a few hundred actions; a guard, not a limit."""
TCP_TIMEOUT_S = 600.0
QUIET_WAIT_S = [30.0]
"""How long to wait (at most) for other work on the machine to stop before a measurement."""


def quiet(*own_pids: int) -> None:
    """Wait (bounded) until the machine is nearly idle besides us, and say if it was not."""
    other = wait_for_quiet(QUIET_WAIT_S[0], 0.25, own_pids)
    if other >= 0.25:
        print(f"  (other work kept {other:.2f} cores busy before this measurement)")


# ---- in-process ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the in-process table."""

    what: str
    games: int
    actions: int
    seconds: float  # CPU seconds of this process (robust when other work shares the machine)
    rounds: int

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds if self.seconds > 0 else 0.0


def started(seed: int, players: int) -> UrsuppeTable:
    table = new_game({"players": players, "timeout_ms": 0}, seed)
    for seat in range(players):
        table.seat_join(f"p{seat}")
    return table


Chooser = Callable[[UrsuppeTable, Seat, random.Random], Action]


def default_move(table: UrsuppeTable, seat: Seat, rng: random.Random) -> Action:
    action = table.default_action(seat)
    assert action is not None, "the awaited seat always has a default move"
    return action


def from_view(policy_name: str) -> Chooser:
    policy = UrsuppePolicy(policy_name)

    def choose(table: UrsuppeTable, seat: Seat, rng: random.Random) -> Action:
        action = policy.decide(table.view(seat), seat, rng)
        assert action is not None, "the awaited seat always has a request"
        return action

    return choose


def play(
    seed: int, players: int, choose: Chooser, *, views: bool
) -> tuple[list[tuple[Seat, Action]], UrsuppeTable]:
    """One whole game from ``seed``; returns the actions applied and the finished table."""
    table = started(seed, players)
    rng = random.Random(seed)
    played: list[tuple[Seat, Action]] = []
    viewers: tuple[Seat | None, ...] = (*range(players), None)
    while not table.finished:
        assert len(played) < MAX_ACTIONS_PER_GAME
        seat = min(table.to_move().seats)
        action = choose(table, seat, rng)
        table.apply(seat, action)
        played.append((seat, action))
        if views:
            for viewer in viewers:
                table.view(viewer)
    return played, table


def measure(what: str, seeds: Sequence[int], players: int, choose: Chooser, *, views: bool = False) -> Row:
    actions = rounds = 0
    start = time.process_time()
    for seed in seeds:
        played, table = play(seed, players, choose, views=views)
        actions += len(played)
        rounds += table.state.round
    return Row(what, len(seeds), actions, time.process_time() - start, rounds)


def replay(seeds: Sequence[int], players: int) -> Row:
    """Baseline: the recorded actions of the random-policy games, applied again alone."""
    recorded = [(seed, play(seed, players, from_view("random"), views=False)[0]) for seed in seeds]
    actions = rounds = 0
    start = time.process_time()
    for seed, played in recorded:
        table = started(seed, players)
        for seat, action in played:
            table.apply(seat, action)
        assert table.finished
        actions += len(played)
        rounds += table.state.round
    return Row(
        "replay of the random games (baseline)", len(seeds), actions, time.process_time() - start, rounds
    )


def inprocess(games: int, player_counts: Sequence[int]) -> None:
    seeds = list(range(1, games + 1))
    for players in player_counts:
        quiet()
        rows = [
            measure("default moves only (bare engine: baseline)", seeds, players, default_move),
            replay(seeds, players),
            measure("random policy from its view", seeds, players, from_view("random")),
            measure(
                "random + views (every seat, 1 spectator)", seeds, players, from_view("random"), views=True
            ),
            measure("heuristic policy from its view", seeds, players, from_view("heuristic")),
        ]
        print(
            f"\n## In-process, {players} players: {games} whole games per row (seeds 1..{games}),"
            " per CPU-second"
        )
        print(f"{'what':<44} {'games/cpu-s':>11} {'actions/cpu-s':>13} {'actions/game':>12} {'rounds':>6}")
        for row in rows:
            print(
                f"{row.what:<44} {row.games_per_s:>11.1f} {row.actions_per_s:>13.0f} "
                f"{row.actions / row.games:>12.1f} {row.rounds / row.games:>6.1f}"
            )


# ---- over TCP --------------------------------------------------------------------------------


def listeners_off() -> tuple[list[str], dict[str, str]]:
    """Flags and ``GAMEHALL_*_PORT`` variables that switch off every listener but UrServer's
    (a flag only where ``serve --help`` lists it; the variable for every listener)."""
    shown = subprocess.run(
        [sys.executable, "-m", "gamehall.cli", "serve", "--help"], capture_output=True, text=True, check=True
    ).stdout
    others = [name for name in DEFAULT_PORTS if name != "urserver"]
    flags = [part for name in others if f"--{name}-port" in shown for part in (f"--{name}-port", "0")]
    return flags, {f"GAMEHALL_{name.upper()}_PORT": "0" for name in others}


@contextlib.contextmanager
def urserver(max_games: int) -> Iterator[ChildServer]:
    """The real server with only its UrServer listener, on a free loopback port, pinned."""
    port = free_port()
    flags, variables = listeners_off()
    with tempfile.TemporaryDirectory(prefix="gamehall-bench-ursuppe-") as tmp:
        command = [sys.executable, "-m", "gamehall.cli", "serve", "--bind", LOOPBACK]
        command += ["--db", str(Path(tmp) / "bench.db"), "--urserver-port", str(port), *flags]
        # bots at full speed would be throttled by the per-connection input budget (500/s)
        command += [
            "--rate-limit-per-s",
            "1000000",
            "--rate-limit-burst",
            "1000000",
            "--log-level",
            "WARNING",
        ]
        command += ["--set", f"ursuppe.max_games={max_games}"]
        env = {k: v for k, v in os.environ.items() if not k.startswith("GAMEHALL_")}
        env.update(variables)
        process = subprocess.Popen(command, env=env, cwd=tmp, stdin=subprocess.DEVNULL)
        server = ChildServer(process, port, "gamehall server")
        try:
            pin(process.pid, SERVER_CORE)
            server.wait_listening()
            yield server
        finally:
            server.stop()


@dataclass(frozen=True, slots=True)
class TcpRow:
    tables: int
    players: int
    games: int
    seconds: float
    fehler: int
    disagreements: int  # games whose final positions not every bot at the table saw alike
    server_cpu: float
    client_cpu: float
    other_cpu: float  # busy cores outside the server and this process (other work, kernel)
    echo_per_s: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0


async def play_tables(
    port: int, tables: int, players: int, games_per_table: int
) -> list[list[wire.BotResult]]:
    runs = [
        wire.run_bots(
            LOOPBACK,
            port,
            players,
            names_prefix=f"t{n}b",
            policy="random",
            games=games_per_table,
            seed=n,
            timeout_ms=0,
        )
        for n in range(tables)
    ]
    async with asyncio.timeout(TCP_TIMEOUT_S):
        return list(await asyncio.gather(*runs))


def tcp_row(tables: int, players: int, games_per_table: int, echo_duration: float) -> TcpRow:
    quiet()
    echo = run_echo_baseline(tables * players, echo_duration, separate_process=True)
    with urserver(max_games=tables + 8) as server:
        quiet(server.pid)
        loop = _new_loop()
        try:
            before, client_before = server.usage(), time.process_time()
            results = loop.run_until_complete(play_tables(server.port, tables, players, games_per_table))
            after, client_after = server.usage(), time.process_time()
        finally:
            loop.close()
    wall = after.at - before.at
    client_cpu = (client_after - client_before) / wall if wall > 0 else 0.0
    server_cpu = after.cpu_share_since(before)
    games = sum(len(table[0].games) for table in results)
    disagreements = sum(
        1
        for table in results
        for number in range(len(table[0].games))
        if any(len(bot.games) <= number or bot.games[number] != table[0].games[number] for bot in table)
    )
    return TcpRow(
        tables=tables,
        players=players,
        games=games,
        seconds=wall,
        fehler=sum(len(bot.errors) for table in results for bot in table),
        disagreements=disagreements,
        server_cpu=server_cpu,
        client_cpu=client_cpu,
        other_cpu=max(0.0, after.machine_share_since(before) - server_cpu - client_cpu),
        echo_per_s=echo.per_second,
    )


def tcp(
    tables_list: Sequence[int], player_counts: Sequence[int], games_per_table: int, echo_duration: float
) -> None:
    # lift the wire bots' write pacing (it keeps them under the server's default flood guard,
    # which this server runs without): the figures are the server's, not the pacing's
    wire.WRITES_PER_S = 1e9
    wire.WRITE_BURST = 1_000_000_000
    pinned = pin(0, CLIENT_CORE)
    print(f"\n## Over TCP: tables of UrServer wire bots, {games_per_table} games each, random policy")
    print(f"(server on core {SERVER_CORE}, clients on core {CLIENT_CORE})" if pinned else "(not pinned)")
    print(
        f"{'players':>7} {'tables':>6} {'conns':>5} {'echo rt/s':>10} {'games':>6} {'games/s':>8} "
        f"{'server cpu':>10} {'games/cpu-s':>11} {'client cpu':>10} {'other cpu':>9} "
        f"{'FEHLER':>6} {'differ':>6}"
    )
    for players in player_counts:
        for tables in tables_list:
            row = tcp_row(tables, players, games_per_table, echo_duration)
            per_cpu = row.games / (row.server_cpu * row.seconds) if row.server_cpu > 0 else 0.0
            print(
                f"{row.players:>7} {row.tables:>6} {row.tables * row.players:>5} {row.echo_per_s:>10.0f} "
                f"{row.games:>6} {row.games_per_s:>8.2f} {row.server_cpu:>10.2f} {per_cpu:>11.2f} "
                f"{row.client_cpu:>10.2f} {row.other_cpu:>9.2f} {row.fehler:>6} {row.disagreements:>6}"
            )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--parts", default="inprocess,tcp", help="inprocess, tcp (comma-separated)")
    parser.add_argument("--players", default="3,4", help="players per table (default 3,4)")
    parser.add_argument("--games", type=int, default=100, help="games per in-process row (default 100)")
    parser.add_argument("--tables", default="1,4,16", help="wire-bot tables per TCP row (default 1,4,16)")
    parser.add_argument("--games-per-table", type=int, default=2, help="games each table plays (default 2)")
    parser.add_argument("--echo-duration", type=float, default=2.0, help="seconds of each echo baseline")
    parser.add_argument(
        "--quiet-wait", type=float, default=30.0, help="max seconds to wait for an idle machine"
    )
    args = parser.parse_args(argv)
    QUIET_WAIT_S[0] = max(0.0, min(args.quiet_wait, 600.0))
    parts = {p.strip() for p in args.parts.split(",") if p.strip()}
    players = [p for p in (int(x) for x in args.players.split(",") if x.strip()) if p in (3, 4)]
    raise_nofile_limit()
    print("# Ursuppe benchmark")
    print(" · ".join(f"{k} {v}" for k, v in machine_summary().items()))
    if "inprocess" in parts:
        inprocess(max(1, min(args.games, 10_000)), players)
    if "tcp" in parts:
        tables = [max(1, min(int(t), 200)) for t in args.tables.split(",") if t.strip()]
        tcp(tables, players, max(1, min(args.games_per_table, 50)), args.echo_duration)


if __name__ == "__main__":
    main()

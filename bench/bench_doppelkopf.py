"""Doppelkopf full games per second, in process and over TCP, each beside a same-run baseline.

1. **engine** (in process): whole games (one deal, then an ``end`` vote) from random seeds.
   Baseline: the bare engine, each seat taking its *first* legal action (no policy, no
   randomness beyond the deal). Measured: a random-legal policy (a seeded ``random.choice``
   over ``legal_actions``), and the in-hall bot policy (``DoppelkopfPolicy("random")``: a
   view per decision, as hall bots play).
2. **tcp**: the real server (``python -m gamehall.cli serve``) in a child process on a fresh
   SQLite file, cg on a free loopback port and every other listener off, wire pacing off
   (``--set doppelkopf.deal_interval_s=0 --set doppelkopf.trick_close_delay_s=0``) and the
   per-connection rate limit lifted (bots answer at machine speed). T tables,
   each with **four** cg wire bots (``gamehall.bots.doppelkopf.wire.CgPlayer``: one host
   inviting three guests, no hall bots, so no think delay), play game after game for the
   duration. Baseline: the raw uvloop echo server of ``bench_echo_baseline`` with the same
   number of connections (4T), each keeping one frame in flight.

Everything is bounded (duration and game caps, 127.0.0.1 only) and stops by itself. Run::

    .venv/bin/python bench/bench_doppelkopf.py --games 300 --tables 1,8 --duration 10
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import pickle
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench_echo_baseline import run_echo_baseline

from gamehall.bots.doppelkopf import DoppelkopfPolicy
from gamehall.bots.doppelkopf.wire import CgPlayer, CgWireBot
from gamehall.protocols.cg.codec import Packet
from gamehall.rules._core import Action, Event, RuleError
from gamehall.rules.doppelkopf import DoppelkopfTable
from gamehall.rules.doppelkopf.actions import Vote

LOOPBACK = "127.0.0.1"
MAX_ACTIONS_PER_GAME = 2_000
MAX_DURATION_S = 120.0


# ---- 1. in process ---------------------------------------------------------------------------

Chooser = Callable[[DoppelkopfTable, int, random.Random], Action | None]


def first_legal(table: DoppelkopfTable, seat: int, rng: random.Random) -> Action | None:
    actions = table.legal_actions(seat)
    return actions[0] if actions else None


def random_legal(table: DoppelkopfTable, seat: int, rng: random.Random) -> Action | None:
    actions = table.legal_actions(seat)
    return rng.choice(actions) if actions else None


_BOT = DoppelkopfPolicy("random")


def hall_bot_policy(table: DoppelkopfTable, seat: int, rng: random.Random) -> Action | None:
    return _BOT.decide(table.view(seat), seat, rng)


def play_one(seed: int, choose: Chooser, table_type: type[DoppelkopfTable] = DoppelkopfTable) -> int:
    """One whole game (a deal, then everyone votes ``end``); returns the actions applied."""
    table = table_type({}, seed)
    for name in ("A", "B", "C", "D"):
        table.seat_join(name)
    rng = random.Random(seed)
    actions = 0
    while not table.finished and actions < MAX_ACTIONS_PER_GAME:
        if table.round.phase == "end":
            for seat in range(4):
                if not table.finished:
                    table.apply(seat, Vote("end", True))
                    actions += 1
            continue
        moved = False
        for seat in sorted(table.to_move().seats):
            action = choose(table, seat, rng)
            if action is not None:
                table.apply(seat, action)
                actions += 1
                moved = True
                break
        if not moved:
            raise RuntimeError(f"seed {seed}: nobody could move")
    if not table.finished:
        raise RuntimeError(f"seed {seed}: no end after {actions} actions")
    return actions


@dataclass(frozen=True, slots=True)
class EngineResult:
    name: str
    games: int
    actions: int
    seconds: float

    def line(self, baseline: EngineResult | None) -> str:
        ratio = (
            ""
            if baseline is None
            else f"{self.games / self.seconds / (baseline.games / baseline.seconds):>7.2f}x"
        )
        return (
            f"{self.name:<34} {self.games:>6} {self.actions:>8} {self.seconds:>8.2f} "
            f"{self.games / self.seconds:>9.1f} {self.actions / self.seconds:>10.0f} {ratio}"
        )


def measure_engine(name: str, choose: Chooser, games: int) -> EngineResult:
    """CPU seconds of this process (the engine is single-threaded), so a busy machine slows
    the wall clock but not the figure."""
    started = time.process_time()
    actions = sum(play_one(10_000 + seed, choose) for seed in range(games))
    return EngineResult(name, games, actions, time.process_time() - started)


class CopyingTable(DoppelkopfTable):
    """The engine as it was before issue 12 item 6: every input ran inside a pickled copy of
    the whole state, put back when a rule refused the input."""

    def apply(self, seat: int, action: Action) -> list[Event]:
        snapshot = pickle.dumps(self.s, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            return super().apply(seat, action)
        except RuleError:
            self.s = pickle.loads(snapshot)
            raise


def measure_with_rollback_copies(games: int) -> EngineResult:
    """The bare engine with a rollback copy per input (:class:`CopyingTable`)."""
    started = time.process_time()
    actions = sum(play_one(10_000 + seed, first_legal, CopyingTable) for seed in range(games))
    return EngineResult("bare engine, copy per input (before)", games, actions, time.process_time() - started)


def engine_part(games: int) -> str:
    baseline = measure_engine("bare engine, first legal (baseline)", first_legal, games)
    results = [
        measure_with_rollback_copies(games),
        measure_engine("engine + random-legal policy", random_legal, games),
        measure_engine("engine + hall bot policy (views)", hall_bot_policy, games),
    ]
    header = (
        f"{'engine, in process (CPU time)':<34} {'games':>6} {'actions':>8} {'cpu s':>8} {'games/s':>9} "
        f"{'actions/s':>10} {'vs base':>8}"
    )
    lines = [header, "-" * len(header), baseline.line(None)]
    lines += [r.line(baseline) for r in results]
    return "\n".join(lines)


# ---- 2. over TCP -----------------------------------------------------------------------------


class TablePlayer(CgPlayer):
    """A wire bot that plays game after game at one table of four wire bots: the host opens
    the lobby and invites its three guests by name; guests accept; all ready again after each
    ``game.end``. The host stops after ``stop_at`` (perf_counter) or ``max_games`` and leaves;
    the guests stop when they see it go."""

    def __init__(
        self, name: str, *, guests: Sequence[str], stop_at: float, max_games: int, seed: int
    ) -> None:
        super().__init__(name, "benchpass", seed=seed)
        self.guests = list(guests)
        self.stop_at = stop_at
        self.max_games = max_games
        self.game_ends: list[float] = []
        self.logged_in = asyncio.Event()

    def on_packet(self, packet: Packet) -> list[Packet]:
        name, body = packet.name, packet.body
        if name == "cg:auth" and body.get("status") == "logged_in":
            self.uuid = body["uuid"]
            self.logged_in.set()
            return [Packet("cg:lobby.create", {"game": "doppelkopf", "variant": "c"})] if self.guests else []
        if name == "cg:lobby.join":
            invites = [Packet("cg:lobby.invite", {"username": guest}) for guest in self.guests]
            return [*invites, Packet("cg:lobby.ready", {"ready": True})]
        if name == "cg:lobby.invite":
            accept = {"accepted": True, "lobby_id": body["lobby_id"], "inviter": body["inviter"]}
            return [Packet("cg:lobby.invite.accept", accept)]
        if name == "cg:game.end":
            self.game_ends.append(time.perf_counter())
            over = len(self.game_ends) >= self.max_games or time.perf_counter() >= self.stop_at
            if self.guests and over:  # the host decides for the table; its leaving ends it
                self.done = True
                return []
            return [Packet("cg:lobby.ready", {"ready": True})]
        if name == "cg:lobby.change" and not self.guests:
            users = body.get("users") or {}
            if any(isinstance(u, dict) and u.get("role") == -1 for u in users.values()):
                self.done = True  # the host left: the table is over
                return []
        return super().on_packet(packet)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def cg_server() -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """The real server with only the cg listener, unpaced, on a fresh SQLite file."""
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="gamehall-bench-dk-") as tmp:
        command = [
            sys.executable,
            "-m",
            "gamehall.cli",
            "serve",
            "--bind",
            LOOPBACK,
            "--db",
            str(Path(tmp) / "b.db"),
        ]
        command += ["--cg-port", str(port), "--aah-port", "0", "--mrjack-port", "0", "--urserver-port", "0"]
        command += ["--web-port", "0", "--log-level", "WARNING"]
        # bots answer at machine speed: lift the per-connection input budget (500/s, a throttle)
        command += ["--rate-limit-per-s", "1000000", "--rate-limit-burst", "1000000"]
        command += ["--set", "doppelkopf.deal_interval_s=0", "--set", "doppelkopf.trick_close_delay_s=0"]
        env = {k: v for k, v in os.environ.items() if not k.startswith("GAMEHALL_")}
        process = subprocess.Popen(command, env=env, cwd=tmp, stdin=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 30
            while True:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the gamehall server did not start")
                with contextlib.suppress(OSError), socket.create_connection((LOOPBACK, port), 0.5):
                    break
                time.sleep(0.05)
            yield process, port
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(5)


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True, slots=True)
class TcpResult:
    tables: int
    games: int
    seconds: float
    server_cpu_s: float
    packets: int

    def line(self) -> str:
        per_s = self.games / self.seconds
        cpu_ms = 1000 * self.server_cpu_s / self.games if self.games else 0.0
        return (
            f"{'cg wire bots, 4 per table':<34} {4 * self.tables:>5} {self.games:>6} {self.seconds:>8.2f} "
            f"{per_s:>8.2f} {self.packets / self.seconds:>11.0f} {cpu_ms:>12.1f}"
        )


async def _run_tables(
    port: int, tables: int, duration: float, max_games: int, run: int
) -> tuple[int, float, int]:
    stop_at = time.perf_counter() + 3600  # set for real once every table is formed
    bots: list[CgWireBot] = []
    tasks: list[asyncio.Task[Any]] = []
    for table in range(tables):
        names = [f"dkb{run}t{table}p{i}" for i in range(4)]
        seats: list[CgWireBot] = []
        for index, name in enumerate(names):
            guests = names[1:] if index == 0 else []
            bot = CgWireBot(LOOPBACK, port, name, password="benchpass")
            bot.player = TablePlayer(
                name, guests=guests, stop_at=stop_at, max_games=max_games, seed=table * 10 + index
            )
            seats.append(bot)
        for guest in seats[1:]:
            tasks.append(asyncio.create_task(guest.run()))
        players = [bot.player for bot in seats]
        await asyncio.wait_for(
            asyncio.gather(*(p.logged_in.wait() for p in players[1:] if isinstance(p, TablePlayer))), 60
        )
        tasks.append(asyncio.create_task(seats[0].run()))
        bots += seats
    started = time.perf_counter()
    for bot in bots:
        assert isinstance(bot.player, TablePlayer)
        bot.player.stop_at = started + duration
    await asyncio.wait_for(asyncio.gather(*tasks), duration + 120)
    hosts = [bot.player for bot in bots[::4]]
    games = sum(len(p.game_ends) for p in hosts if isinstance(p, TablePlayer))
    last = max(t for p in hosts if isinstance(p, TablePlayer) for t in p.game_ends)
    packets = sum(len(bot.received) for bot in bots)
    return games, last - started, packets


def tcp_part(table_counts: Sequence[int], duration: float, max_games: int) -> str:
    header = (
        f"{'over TCP':<34} {'conns':>5} {'games':>6} {'seconds':>8} {'games/s':>8} {'packets/s in':>11} "
        f"{'srv CPU ms/game':>12}"
    )
    lines = [header, "-" * len(header)]
    for run, tables in enumerate(table_counts):
        echo = run_echo_baseline(4 * tables, min(duration, 10.0))
        lines.append(
            f"{'echo baseline (2 processes)':<34} {4 * tables:>5} {'':>6} {echo.seconds:>8.2f} {'':>8} "
            f"{echo.per_second:>11.0f}   (round trips/s, p50 {echo.p50_us:.0f} us)"
        )
        with cg_server() as (process, port):
            before = cpu_seconds(process.pid)
            games, seconds, packets = asyncio.run(_run_tables(port, tables, duration, max_games, run))
            used = cpu_seconds(process.pid) - before
        lines.append(TcpResult(tables, games, seconds, used, packets).line())
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--parts", default="engine,tcp", help="engine, tcp and/or reference")
    parser.add_argument("--reference", type=Path, help="root of a not-na/cardgame checkout (part reference)")
    parser.add_argument("--repeats", type=int, default=3, help="alternating timed runs (part reference)")
    parser.add_argument("--games", type=int, default=300, help="in-process games per measurement")
    parser.add_argument("--tables", default="1,8", help="comma-separated table counts (4 wire bots each)")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of TCP play per table count")
    parser.add_argument("--max-games", type=int, default=10_000, help="games per table at most")
    args = parser.parse_args(argv)
    duration = min(args.duration, MAX_DURATION_S)
    parts = set(args.parts.split(","))
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    if "engine" in parts:
        print(engine_part(args.games))
        print()
    if "reference" in parts:
        if args.reference is None:
            parser.error("the reference part needs --reference PATH")
        from _dk_reference import reference_part

        print(reference_part(args.reference, args.games, args.repeats))
        print()
    if "tcp" in parts:
        counts = [int(part) for part in args.tables.split(",") if part]
        print(tcp_part(counts, duration, args.max_games))


if __name__ == "__main__":
    main()

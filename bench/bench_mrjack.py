"""Mr. Jack in New York: whole random games per second, in-process and over TCP, each table
beside a baseline measured in the same run.

1. **inprocess**: the engine alone, no I/O, per CPU-second of this process (so other work on
   the machine does not bend the figures). Baseline: *replay*, the recorded actions of the
   same seeded games applied again with nothing else (the bare engine step rate: no legal-move
   list, no choice). Then *random-legal* (the engine's ``legal_actions`` for the awaited seat,
   a uniform choice, ``apply``: the random bot's work), *random-legal + views* (plus the view
   of both seats and a spectator after every action, as the hall builds them for its
   listeners) and *heuristic + views* (the heuristic bot deciding from its view).
2. **tcp**: the real server (``python -m gamehall.cli serve``, every listener but the Mr. Jack
   one off) as a child process on a fresh SQLite file, and P pairs of term-protocol wire bots
   (``gamehall.bots.mrjack.wire``, random policy, think time 0) in this process, each pair
   playing G games back to back through legacy seating. Baseline: the raw uvloop echo server
   of ``bench_echo_baseline`` with the same number of connections (one 5-byte frame in flight
   each): round trips per second, the ceiling of any line protocol on this machine.

On a machine with two or more cores the server is pinned to core 0 and the clients to core 1,
so the TCP figures say what one server core does (the clients' own share is printed too: with
think time 0 they may be the limit). ``games/cpu-s`` (games per CPU-second of the server) is
the figure to compare when other work shares the machine (``other cpu``). Every loop is bounded
in games and in time, everything listens on 127.0.0.1 only and stops by itself.

Run::

    .venv/bin/python bench/bench_mrjack.py --games 200 --pairs 1,10,50 --games-per-pair 4
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

from gamehall.bots.mrjack import MrJackPolicy
from gamehall.bots.mrjack.wire import MrJackWireBot
from gamehall.rules._core import Action, Seat
from gamehall.rules.mrjack import new_game
from gamehall.rules.mrjack.engine import MrJackGame

MAX_ACTIONS_PER_GAME = 2_000
"""A game has 8 rounds of 4 activations of a few actions: far fewer; a guard, not a limit."""
TCP_TIMEOUT_S = 300.0
SERVER_FLAGS = [
    # only the Mr. Jack listener: never fight another process for the default ports
    "--aah-port", "0", "--cg-port", "0", "--urserver-port", "0", "--web-port", "0",
    # bots at think time 0 would be throttled by the per-connection input budget (500/s)
    "--rate-limit-per-s", "1000000", "--rate-limit-burst", "1000000",
    "--log-level", "WARNING",
]  # fmt: skip


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
    jack_wins: int

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds if self.seconds > 0 else 0.0


def started(seed: int) -> MrJackGame:
    game = new_game({}, seed)
    game.seat_join("jack")
    game.seat_join("detective")
    return game


Chooser = Callable[[MrJackGame, Seat, random.Random], Action]


def random_legal(game: MrJackGame, seat: Seat, rng: random.Random) -> Action:
    return rng.choice(game.legal_actions(seat))


def heuristic_from_view() -> Chooser:
    policy = MrJackPolicy("heuristic")

    def choose(game: MrJackGame, seat: Seat, rng: random.Random) -> Action:
        action = policy.decide(game.view(seat), seat, rng)
        assert action is not None, "the awaited seat always has a move"
        return action

    return choose


def play(seed: int, choose: Chooser, *, views: bool) -> tuple[list[tuple[Seat, Action]], MrJackGame]:
    """One whole game from ``seed``; returns the actions applied and the finished game."""
    game = started(seed)
    rng = random.Random(seed)
    played: list[tuple[Seat, Action]] = []
    seats: tuple[Seat | None, ...] = (*game.roles, None)
    while not game.finished:
        seat = game.awaited_seat()
        assert seat is not None and len(played) < MAX_ACTIONS_PER_GAME
        action = choose(game, seat, rng)
        game.apply(seat, action)
        played.append((seat, action))
        if views:
            for viewer in seats:
                game.view(viewer)
    return played, game


def measure(what: str, seeds: Sequence[int], choose: Chooser, *, views: bool) -> Row:
    actions = jack = 0
    start = time.process_time()
    for seed in seeds:
        played, game = play(seed, choose, views=views)
        actions += len(played)
        jack += game.winner == "mrjack"
    return Row(what, len(seeds), actions, time.process_time() - start, jack)


def replay(seeds: Sequence[int]) -> Row:
    """The baseline: the recorded actions of the random-legal games, applied again alone."""
    recorded = [(seed, play(seed, random_legal, views=False)[0]) for seed in seeds]
    actions = jack = 0
    start = time.process_time()
    for seed, played in recorded:
        game = started(seed)
        for seat, action in played:
            game.apply(seat, action)
        assert game.finished
        actions += len(played)
        jack += game.winner == "mrjack"
    return Row("replay (apply only: baseline)", len(seeds), actions, time.process_time() - start, jack)


def inprocess(games: int) -> None:
    seeds = list(range(1, games + 1))
    quiet()
    rows = [
        replay(seeds),
        measure("random-legal", seeds, random_legal, views=False),
        measure("random-legal + views (2 seats, 1 spectator)", seeds, random_legal, views=True),
        measure("heuristic bot from its view + views", seeds, heuristic_from_view(), views=True),
    ]
    print(f"\n## In-process: {games} whole games per row (seeds 1..{games}), per CPU-second of one core")
    print(f"{'what':<46} {'games/cpu-s':>11} {'actions/cpu-s':>13} {'actions/game':>13} {'Jack wins':>10}")
    for row in rows:
        print(
            f"{row.what:<46} {row.games_per_s:>11.1f} {row.actions_per_s:>13.0f} "
            f"{row.actions / row.games:>13.1f} {row.jack_wins / row.games:>9.0%}"
        )


# ---- over TCP --------------------------------------------------------------------------------


@contextlib.contextmanager
def mrjack_server(max_games: int) -> Iterator[ChildServer]:
    """The real server with only its Mr. Jack listener, on a free loopback port, pinned."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="gamehall-bench-mrjack-") as tmp:
        command = [sys.executable, "-m", "gamehall.cli", "serve", "--bind", LOOPBACK]
        command += ["--db", str(Path(tmp) / "bench.db"), "--mrjack-port", str(port), *SERVER_FLAGS]
        command += ["--set", f"mrjack.max_games={max_games}"]
        env = {k: v for k, v in os.environ.items() if not k.startswith("GAMEHALL_")}
        process = subprocess.Popen(command, env=env, cwd=tmp, stdin=subprocess.DEVNULL)
        server = ChildServer(process, port, "gamehall server")
        try:
            pin(process.pid, SERVER_CORE)
            server.wait_listening()
            yield server
        finally:
            server.stop()


class CountingBot(MrJackWireBot):
    """A wire bot that also counts the lines it sends and notes when each of its games ended."""

    sent = 0

    def _lines(self) -> list[bytes]:
        out = super()._lines()
        self.sent += len(out)
        if len(self.player.winners) > len(self.game_ends):
            self.game_ends.append(time.perf_counter())
        return out

    @property
    def game_ends(self) -> list[float]:
        ends: list[float] = self.__dict__.setdefault("_game_ends", [])
        return ends


@dataclass(frozen=True, slots=True)
class TcpRow:
    pairs: int
    games: int
    seconds: float
    lines_in: int  # server -> bots
    lines_out: int  # bots -> server
    errors: int
    server_cpu: float
    client_cpu: float
    other_cpu: float  # busy cores outside the server and this process (other work, kernel)
    echo_per_s: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0


async def play_pairs(port: int, pairs: int, games_per_pair: int, seed: int) -> tuple[list[CountingBot], int]:
    master = random.Random(seed)
    policy = MrJackPolicy("random")
    bots = [
        CountingBot(
            LOOPBACK,
            port,
            f"{role[0]}{n}",
            role,
            policy=policy,
            rng=random.Random(master.getrandbits(64)),
            games=games_per_pair,
        )
        for n in range(pairs)
        for role in ("mrjack", "detektiv")
    ]
    async with asyncio.timeout(TCP_TIMEOUT_S):
        results = await asyncio.gather(*(bot.run() for bot in bots))
    games = sum(len(r.winners) for r in results if r.role == "mrjack")
    return bots, games


def tcp_row(pairs: int, games_per_pair: int, echo_duration: float) -> TcpRow:
    quiet()
    echo = run_echo_baseline(2 * pairs, echo_duration, separate_process=True)
    with mrjack_server(max_games=pairs + 8) as server:
        quiet(server.pid)
        loop = _new_loop()
        try:
            before, client_before = server.usage(), time.process_time()
            bots, games = loop.run_until_complete(play_pairs(server.port, pairs, games_per_pair, seed=pairs))
            after, client_after = server.usage(), time.process_time()
        finally:
            loop.close()
    wall = after.at - before.at
    client_cpu = (client_after - client_before) / wall if wall > 0 else 0.0
    server_cpu = after.cpu_share_since(before)
    return TcpRow(
        pairs=pairs,
        games=games,
        seconds=wall,
        lines_in=sum(b.result.lines_received for b in bots),
        lines_out=sum(b.sent for b in bots),
        errors=sum(len(b.result.errors) + len(b.result.unreadable) for b in bots),
        server_cpu=server_cpu,
        client_cpu=client_cpu,
        other_cpu=max(0.0, after.machine_share_since(before) - server_cpu - client_cpu),
        echo_per_s=echo.per_second,
    )


def tcp(pairs_list: Sequence[int], games_per_pair: int, echo_duration: float) -> None:
    pinned = pin(0, CLIENT_CORE)
    print(f"\n## Over TCP: wire-bot pairs, {games_per_pair} games each, random policy, think time 0")
    print(f"(server on core {SERVER_CORE}, clients on core {CLIENT_CORE})" if pinned else "(not pinned)")
    print(
        f"{'pairs':>5} {'conns':>5} {'echo rt/s':>10} {'games':>6} {'games/s':>8} {'cmds/s':>8} "
        f"{'lines/s':>8} {'server cpu':>10} {'games/cpu-s':>11} {'client cpu':>10} "
        f"{'other cpu':>9} {'err':>4}"
    )
    for pairs in pairs_list:
        row = tcp_row(pairs, games_per_pair, echo_duration)
        per_cpu = row.games / (row.server_cpu * row.seconds) if row.server_cpu > 0 else 0.0
        print(
            f"{row.pairs:>5} {2 * row.pairs:>5} {row.echo_per_s:>10.0f} {row.games:>6} "
            f"{row.games_per_s:>8.2f} "
            f"{row.lines_out / row.seconds:>8.0f} {row.lines_in / row.seconds:>8.0f} {row.server_cpu:>10.2f} "
            f"{per_cpu:>11.2f} {row.client_cpu:>10.2f} {row.other_cpu:>9.2f} {row.errors:>4}"
        )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--parts", default="inprocess,tcp", help="inprocess, tcp (comma-separated)")
    parser.add_argument("--games", type=int, default=200, help="games per in-process row (default 200)")
    parser.add_argument("--pairs", default="1,10,50", help="wire-bot pairs per TCP row (default 1,10,50)")
    parser.add_argument("--games-per-pair", type=int, default=4, help="games each pair plays (default 4)")
    parser.add_argument("--echo-duration", type=float, default=2.0, help="seconds of each echo baseline")
    parser.add_argument(
        "--quiet-wait", type=float, default=30.0, help="max seconds to wait for an idle machine"
    )
    args = parser.parse_args(argv)
    QUIET_WAIT_S[0] = max(0.0, min(args.quiet_wait, 600.0))
    parts = {p.strip() for p in args.parts.split(",") if p.strip()}
    raise_nofile_limit()
    print("# Mr. Jack in New York benchmark")
    print(" · ".join(f"{k} {v}" for k, v in machine_summary().items()))
    if "inprocess" in parts:
        inprocess(max(1, min(args.games, 10_000)))
    if "tcp" in parts:
        pairs = [max(1, min(int(p), 500)) for p in args.pairs.split(",") if p.strip()]
        tcp(pairs, max(1, min(args.games_per_pair, 100)), args.echo_duration)


if __name__ == "__main__":
    main()

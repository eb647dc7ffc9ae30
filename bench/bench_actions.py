"""Accepted AAH actions per server CPU-second, in process: this tree vs a baseline tree.

Issue 12's target "accepted actions per server CPU-second" counts everything the server does
for one accepted action: the legacy dialogue parsing the ``PICK``/``CZPK`` frame, the room's
input pipeline (checks, the engine step, the log entry), the outbox (group commit into a real
SQLite store, then the deliveries), rendering and encoding the frames every seat receives,
the timers, the metrics. This benchmark runs exactly that path without sockets, so the two
trees compare on the same games in the same run:

- a hall on a fake clock with ``--tables`` AAH tables of ``--seats`` legacy dialogues each,
  whose wires only count what they are sent (the socket write is not in the figure);
- every pass over the tables sends one legal action (chosen by a seeded random bot) for each
  seat the table waits for, then ends the loop's turn (``hall.flush()``: one group commit for
  the whole pass, as one turn of a busy server's loop commits many tables' appends); a table
  that waits for nobody moves its clock on to its next timer (the gap between rounds);
- only the server's part is timed (``time.process_time`` around the frame, the flush and the
  timers): the bot's choice of action is not.

Each tree runs in its own child process (``PYTHONPATH`` = that tree's ``src``), ``--reps`` times
alternating; the best run of each is kept. The games are seeded, so both trees play the same
games. Make a baseline tree of main with::

    rm -rf /tmp/base && mkdir /tmp/base && git -C /work/main archive main | tar -x -C /tmp/base

Run::

    .venv/bin/python bench/bench_actions.py [--tables 50] [--actions 15000] [--reps 3] \\
        [--baseline-src /tmp/base/src] [--profile out.prof]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

THIS_SRC = Path(__file__).resolve().parent.parent / "src"


# ---------------------------------------------------------------------------------- the worker


class CountingWire:
    """A connection that keeps nothing: it counts the frames it was given."""

    peer = "bench"

    def __init__(self) -> None:
        self.frames = 0

    def send(self, data: bytes) -> None:
        self.frames += 1

    def send_text(self, text: str) -> None:
        self.frames += 1

    def close(self) -> None:
        pass

    def offload(self, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        done(work())


@dataclass
class Table:
    room: Any
    players: dict[int, Any]  # seat -> its AahDialogue


def run_worker(tables: int, seats: int, actions: int, profile: str | None) -> dict[str, float]:
    """Play until ``actions`` actions were accepted (or every game ended); return the counts."""
    from gamehall.hall import FakeClock, Hall
    from gamehall.protocols.aah import dialogue as aah_dialogue
    from gamehall.protocols.aah.codec import Frame, encode_frame
    from gamehall.protocols.aah.meta import encode_client_meta
    from gamehall.rules.aah import GAME_TYPE
    from gamehall.rules.aah.actions import Judge, Pick
    from gamehall.store.sqlite import SqliteStore

    workdir = tempfile.mkdtemp(prefix="bench_actions_")
    store = SqliteStore(os.path.join(workdir, "hall.db"))
    accepted = [0]
    real_commit = store.commit

    def counting_commit(writes: Any) -> Any:
        accepted[0] += sum(1 for w in writes if getattr(getattr(w, "entry", None), "kind", "") == "act")
        return real_commit(writes)

    store.commit = counting_commit  # type: ignore[method-assign]
    clock = FakeClock()
    settings = {
        "playermax": seats,
        "min_players": seats,
        "aplimit": 100,
        "timeout": 60,
        "round_gap": 1,
        "autostart_delay": 1,
        "rejoin_grace": 0,
        "max_tables": tables + 16,
    }
    hall = Hall(
        games={"aah": GAME_TYPE},
        store=store,
        clock=clock,
        defaults={"aah": settings},
        seed_source=iter(range(1, 10**9)).__next__,
        wall_time=lambda: 1.0e9,
    )
    players = []
    for index in range(tables * seats):
        player = aah_dialogue.AahDialogue(hall, CountingWire(), clock)
        player.data_received(encode_frame(Frame("JOIN", (f"p{index}",))))
        player.data_received(encode_frame(Frame("META", (encode_client_meta(),))))
        hall.flush()
        players.append(player)
    clock.advance(2.0)  # the autostart countdowns: every game starts
    live: dict[str, Table] = {}
    for player in players:
        table = live.setdefault(player.room_id, Table(hall.room(player.room_id), {}))
        table.players[player.seat] = player
    if len(live) != tables or any(len(t.players) != seats for t in live.values()):
        raise SystemExit("bench_actions: the players did not fill the tables as expected")

    rng = random.Random(7)
    cpu = 0.0
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    playing = list(live.values())
    while playing and accepted[0] < actions:
        frames: list[tuple[Any, bytes]] = []
        idle = False
        for table in playing:
            game = table.room.state
            movers = sorted(game.to_move().seats)
            if not movers:
                idle = True
            for seat in movers:
                action = rng.choice(game.legal_actions(seat))
                if isinstance(action, Pick):
                    frame = Frame("PICK", (str(action.card_ids[0]),))
                else:
                    assert isinstance(action, Judge)
                    frame = Frame("CZPK", (str(action.card_id),))
                frames.append((table.players[seat], encode_frame(frame)))
        start = time.process_time()
        for player, data in frames:
            player.data_received(data)
        hall.flush()
        if idle or not frames:
            clock.advance(1.0)  # the gap between rounds (and any timer due)
        cpu += time.process_time() - start
        playing = [t for t in playing if not t.room.closed]
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(profile)  # type: ignore[arg-type]
    return {"actions": accepted[0], "cpu": cpu}


# ---------------------------------------------------------------------------------- the parent


def run_tree(src: Path, args: argparse.Namespace, profile: str | None = None) -> dict[str, float]:
    command = [
        sys.executable,
        __file__,
        "--worker",
        "--tables",
        str(args.tables),
        "--seats",
        str(args.seats),
        "--actions",
        str(args.actions),
    ]
    if profile:
        command += ["--profile", profile]
    environ = dict(os.environ, PYTHONPATH=str(src.resolve()))
    out = subprocess.run(command, env=environ, check=True, capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def main(argv: Sequence[str] | None = None) -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--actions", type=int, default=15000)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--baseline-src", default=None, help="a tree's src/ (a git archive of main)")
    parser.add_argument("--profile", default=None, help="write a cProfile of one run of this tree here")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(run_worker(args.tables, args.seats, args.actions, args.profile)))
        return
    if args.profile:
        result = run_tree(THIS_SRC, args, args.profile)
        print(f"profile of this tree ({result['actions']:.0f} actions) written to {args.profile}")
        return
    trees = [("this tree", THIS_SRC)]
    if args.baseline_src:
        trees.insert(0, ("baseline", Path(args.baseline_src)))
    best: dict[str, float] = {}
    for _ in range(args.reps):
        for name, src in trees:
            result = run_tree(src, args)
            rate = result["actions"] / result["cpu"]
            best[name] = max(best.get(name, 0.0), rate)
    print(f"AAH, {args.tables} tables x {args.seats} legacy seats, {args.actions} actions,", end=" ")
    print(f"best of {args.reps}")
    for name, _src in trees:
        print(f"  {name:10s} {best[name]:10,.0f} accepted actions per CPU-second")
    if args.baseline_src:
        print(f"  speed-up   {best['this tree'] / best['baseline']:10.2f}x")


if __name__ == "__main__":
    main()

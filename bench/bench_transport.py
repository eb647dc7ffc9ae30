"""The server's own CPU per ``PING`` -> ``PONG``, without sockets: connection, limits, codec, dialogue.

What it measures: the real :class:`~gamehall.server.connection.TcpConnection` (from
``connection_factory``, so the listener's shared end-of-turn batch included, with the hall's
outbox flush before writes as the server wires it) with a real
:class:`~gamehall.protocols.aah.dialogue.AahDialogue` in state ``NEW`` over a real hall
(memory store), on a stand-in transport that only counts the bytes written. Each loop turn
every connection gets one ``PING\\x03`` read and answers ``PONG\\x03``; the figure is process
CPU time per round trip, the best of ``--repeats`` runs. That is the part of ``bench_aah.py``'s
``PING -> PONG`` row that the server's Python adds to the raw uvloop echo row (the system calls
and the loop are the same for both), and unlike that row it barely depends on other work on
the machine.

``--baseline-src DIR`` measures another source tree (``DIR`` is its ``src/``) in a child
process first, so a change is compared with its baseline in one run::

    .venv/bin/python bench/bench_transport.py --baseline-src ../main/src --runs 3
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

PING = b"PING\x03"
PONG = b"PONG\x03"
THIS_SRC = Path(__file__).resolve().parent.parent / "src"


class CountingTransport:
    """Just enough of a transport for a connection: writes are counted, never sent."""

    def __init__(self) -> None:
        self.written = 0

    def write(self, data: bytes) -> None:
        self.written += len(data)

    def get_write_buffer_size(self) -> int:
        return 0

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("127.0.0.1", 40000) if name == "peername" else default

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def abort(self) -> None:
        pass

    def close(self) -> None:
        pass


async def cost_per_ping(connections: int, turns: int, repeats: int) -> float:
    """Microseconds of process CPU per answered ``PING`` (the best of ``repeats``)."""
    from gamehall.hall.hall import Hall
    from gamehall.protocols.aah.dialogue import MAX_FLUSH_BYTES, AahDialogue
    from gamehall.rules.aah import GAME_TYPE
    from gamehall.server.clock import LoopClock
    from gamehall.server.connection import connection_factory
    from gamehall.server.limits import ConnectionLimits
    from gamehall.server.metrics import ServerMetrics
    from gamehall.server.tracker import ConnectionTracker
    from gamehall.store.memory import MemoryStore

    metrics = ServerMetrics()
    metrics.add_protocol("aah")
    clock = LoopClock()
    hall = Hall(games={"aah": GAME_TYPE}, store=MemoryStore(), clock=clock)
    # the bench_aah budget: the saturating clients are not to be throttled
    limits = ConnectionLimits(rate_per_s=1e6, rate_burst=1e6, max_flush_bytes=MAX_FLUSH_BYTES)
    wiring: dict[str, Any] = {}
    if "before_write" in inspect.signature(connection_factory).parameters:  # trees with an outbox
        wiring["before_write"] = hall.flush
    make = connection_factory(
        "aah",
        lambda wire: AahDialogue(hall, wire, clock),
        limits,
        metrics,
        ConnectionTracker(0),
        **wiring,
    )
    pairs = []
    for _ in range(connections):
        connection, transport = make(), CountingTransport()
        connection.connection_made(transport)  # type: ignore[arg-type]
        pairs.append((connection, transport))
    best = float("inf")
    for _ in range(repeats):
        started = time.process_time()
        for _ in range(turns):
            for connection, _transport in pairs:
                connection.data_received(PING)
            await asyncio.sleep(0)  # the end of the turn: the answers are written
        best = min(best, time.process_time() - started)
    answered = sum(transport.written for _, transport in pairs) // len(PONG)
    if answered != connections * turns * repeats:
        raise RuntimeError(f"{answered} PONGs for {connections * turns * repeats} PINGs")
    return best / (connections * turns) * 1e6


def measure(connections: int, turns: int, repeats: int) -> float:
    import uvloop

    loop = uvloop.new_event_loop()
    try:
        return loop.run_until_complete(cost_per_ping(connections, turns, repeats))
    finally:
        loop.close()


def measure_tree(src: Path, args: argparse.Namespace) -> float:
    """The figure for the tree at ``src``, from a child process that imports it."""
    command = [sys.executable, __file__, "--child", "--connections", str(args.connections)]
    command += ["--turns", str(args.turns), "--repeats", str(args.repeats)]
    environ = dict(os.environ, PYTHONPATH=str(src.resolve()))
    output = subprocess.run(command, env=environ, check=True, capture_output=True, text=True).stdout
    return float(json.loads(output)["us_per_ping"])


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=300, help="connections, one PING each per turn")
    parser.add_argument("--turns", type=int, default=100, help="loop turns per repeat")
    parser.add_argument("--repeats", type=int, default=12, help="repeats; the best counts")
    parser.add_argument("--runs", type=int, default=1, help="rounds of baseline then this tree")
    parser.add_argument("--baseline-src", default=None, help="another tree's src/ to compare with")
    parser.add_argument("--baseline-name", default="baseline", help="what the baseline tree is")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps({"us_per_ping": measure(args.connections, args.turns, args.repeats)}))
        return
    trees = [("this tree", THIS_SRC)]
    if args.baseline_src:
        trees.insert(0, (args.baseline_name, Path(args.baseline_src)))
    print(f"server CPU per PING -> PONG, {args.connections} connections, no sockets (best of {args.repeats})")
    for run in range(1, max(1, args.runs) + 1):
        figures = [(what, measure_tree(src, args)) for what, src in trees]
        line = "   ".join(f"{what}: {us:.2f} us" for what, us in figures)
        if len(figures) == 2:
            line += f"   ({figures[1][1] / figures[0][1]:.2f} of the baseline)"
        print(f"run {run}: {line}")


if __name__ == "__main__":
    main()

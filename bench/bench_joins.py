"""Joins with 1,000 tables open, for Mr. Jack, UrServer and JDuplicate, and ``Hall.name_free``.

Issue 12 item 5: a join must not scan every room. AAH joins are measured over TCP by
``bench_aah.py --parts joins``; this script measures the other protocols' joins in process,
through their real dialogues (sans-I/O: bytes in, bytes out, a fake clock), so the figure is
the server's own work per join without the network:

1. a hall (MemoryStore) gets ``--tables`` rooms of the protocol's game, opened and seated
   through the hall's session API (the same for every code version): Mr. Jack games with both
   seats taken, Ursuppe and ``words`` rooms waiting with one player;
2. ``--timed`` joins then run through the protocol's dialogue, and only the join's own input is
   timed (CPU time of this process), not the connection's login:
   - **Mr. Jack**: ``init(mrjack)`` / ``init(detektiv)`` after ``nick``, in pairs (each pair
     fills a new game);
   - **UrServer**: ``TEILNEHMEN name``, ``PASSWORT``, ``NAME player`` into the last ``--timed``
     of the waiting games (one player each, three seats);
   - **JDuplicate**: ``JOINGAMEREQUEST name`` into the last ``--timed`` waiting games;
   - **name_free**: ``Hall.name_free`` for a name nobody has (the hall bots' name check).

Each protocol runs in a child process per code version: this tree, and ``--baseline-src`` (a
source tree such as ``git archive main src``) through ``PYTHONPATH``, in the same run. The
dialogues are driven by the project's test harnesses (``tests/protocols/*/..._support.py``),
which use only the dialogues' public constructors, so both versions run the same driver.

Run::

    git archive main src | tar -x -C /tmp/base
    .venv/bin/python bench/bench_joins.py --tables 1000 --timed 200 --baseline-src /tmp/base/src
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HARNESSES = [
    ROOT / "tests" / "support",
    *(ROOT / "tests" / "protocols" / p for p in ("mrjack", "urserver", "jduplicate")),
]
PROTOCOLS = ("mrjack", "urserver", "jduplicate", "name_free")


def _fill(hall: Any, game: str, tables: int, seated: int, settings: dict[str, Any] | None = None) -> None:
    """``tables`` rooms of ``game`` titled ``f0``, ``f1``..., each with ``seated`` players."""
    from recording_listener import RecordingListener

    for index in range(tables):
        owner = hall.login(f"fill{index}a", RecordingListener(), protocol="bench")
        info = owner.create_room(game, settings, title=f"f{index}")
        owner.join(info.room_id)
        for extra in range(1, seated):
            hall.login(f"fill{index}{'bcd'[extra - 1]}", RecordingListener(), protocol="bench").join(
                info.room_id
            )


def _timed(steps: list[Callable[[], None]]) -> float:
    spent = 0.0
    for step in steps:
        started = time.process_time()
        step()
        spent += time.process_time() - started
    return spent


def run_mrjack(tables: int, timed: int) -> dict[str, float]:
    from mrjack_wire_support import JackHarness

    harness = JackHarness(max_games=tables + timed)
    _fill(harness.hall, "mrjack", tables, 2)
    clients = []
    for index in range(timed):
        client = harness.connect(f"j{index}")
        client.send(f"nick(j{index}).")
        clients.append(client)
    roles = ("mrjack", "detektiv")
    cpu = _timed([lambda c=client, r=roles[i % 2]: c.send(f"init({r}).") for i, client in enumerate(clients)])
    joined = sum(1 for c in clients if any("Du bist" in line for line in c.lines()))
    return {"joins": timed, "joined": joined, "cpu_s": cpu, "rooms": len(harness.hall.rooms("mrjack"))}


def run_urserver(tables: int, timed: int) -> dict[str, float]:
    from urserver_support import UrHarness

    harness = UrHarness(max_games=tables)
    _fill(harness.hall, "ursuppe", tables, 1, {"players": 3})
    clients = []
    for index in range(timed):
        client = harness.connect(f"u{index}")
        client.send("LISTE")  # the lobby learns the browser-made games once, before the clock
        clients.append(client)
    steps = [
        lambda c=client, i=index: c.send(f"TEILNEHMEN f{tables - timed + i}", "PASSWORT", f"NAME p{i}")
        for index, client in enumerate(clients)
    ]
    cpu = _timed(steps)
    joined = sum(1 for c in clients if any("SPIELERIN_AKZEPTIERT" in line for line in c.lines()))
    return {"joins": timed, "joined": joined, "cpu_s": cpu, "rooms": len(harness.hall.rooms("ursuppe"))}


def run_jduplicate(tables: int, timed: int) -> dict[str, float]:
    from jduplicate_dialogue_support import JdHarness

    from gamehall.protocols.jduplicate import messages as m

    harness = JdHarness()
    _fill(harness.hall, "words", tables, 1)
    clients = [harness.user(f"d{index}") for index in range(timed)]
    steps = [
        lambda c=client, i=index: c.send(m.JoinGameRequest(f"f{tables - timed + i}"))
        for index, client in enumerate(clients)
    ]
    cpu = _timed(steps)
    joined = sum(1 for c in clients if any(type(msg).__name__ == "PlayerJoined" for msg in c.take_messages()))
    return {"joins": timed, "joined": joined, "cpu_s": cpu, "rooms": len(harness.hall.rooms("words"))}


def run_name_free(tables: int, timed: int) -> dict[str, float]:
    from mrjack_wire_support import JackHarness

    harness = JackHarness(max_games=tables)
    _fill(harness.hall, "mrjack", tables, 2)
    cpu = _timed([lambda i=i: harness.hall.name_free(f"nobody{i}") for i in range(timed)])
    return {"joins": timed, "joined": timed, "cpu_s": cpu, "rooms": len(harness.hall.rooms("mrjack"))}


RUNS = {
    "mrjack": run_mrjack,
    "urserver": run_urserver,
    "jduplicate": run_jduplicate,
    "name_free": run_name_free,
}


def child(protocol: str, tables: int, timed: int) -> None:
    sys.path[:0] = [str(path) for path in HARNESSES]
    print(json.dumps(RUNS[protocol](tables, timed)))


def measure(src: Path, protocol: str, tables: int, timed: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, __file__, "--child", protocol, "--tables", str(tables), "--timed", str(timed)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=1800, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{protocol} under {src} failed:\n{done.stderr[-3000:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=1000, help="rooms open before the timed joins")
    parser.add_argument("--timed", type=int, default=200, help="joins timed per protocol")
    parser.add_argument("--protocols", default=",".join(PROTOCOLS))
    parser.add_argument("--baseline-src", type=Path, help="a source tree (its src/) run as the baseline")
    parser.add_argument("--child", choices=PROTOCOLS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.tables, args.timed)
        return
    trees = [("this tree", ROOT / "src")]
    if args.baseline_src is not None:
        trees.insert(0, ("baseline", args.baseline_src.resolve()))
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; {args.tables} tables open, CPU time")
    header = (
        f"{'protocol':<11} {'server':<10} {'rooms':>6} {'joins':>6} {'joined':>6} {'cpu s':>8} "
        f"{'joins/CPU-s':>12} {'us/join':>9}"
    )
    print(header)
    print("-" * len(header))
    for protocol in args.protocols.split(","):
        for what, src in trees:
            r = measure(src, protocol, args.tables, args.timed)
            rate = r["joins"] / r["cpu_s"] if r["cpu_s"] else float("inf")
            print(
                f"{protocol:<11} {what:<10} {int(r['rooms']):>6} {int(r['joins']):>6} {int(r['joined']):>6} "
                f"{r['cpu_s']:>8.3f} {rate:>12.0f} {1e6 * r['cpu_s'] / r['joins']:>9.0f}"
            )


if __name__ == "__main__":
    main()

"""Where a joined AAH seat's memory goes: the joins part's set-up under ``tracemalloc``.

A fresh server (this tree, or ``--src`` another tree's ``src/``) runs with ``PYTHONTRACEMALLOC``
and the gc log of ``_server_process``; ``--tables`` x 3 wire bots join 3-seat lobby tables that
never start (as in ``bench_aah.py --parts joins``). Before and after, the server's ``SIGUSR1``
probe writes a ``tracemalloc`` snapshot and its tracked objects by type; this prints the
growth per seat by source line and by type. ``tracemalloc`` itself costs memory and time, so
the figures here say *where*, the joins part says *how much*::

    .venv/bin/python bench/_memory_diff.py --tables 300 [--playing] [--src /tmp/base/src] [--top 40]
"""

from __future__ import annotations

import argparse
import pickle
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _aah_clients import join_all
from _idle import _close_all
from _joins import LOBBY, PLAYING, PLAYING_WAIT_S, SEATS
from _server_process import ChildServer, gamehall_server, raise_nofile_limit, read_tracked_objects
from bench_echo_baseline import _new_loop


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--src", default=None, help="run the server from this src/ tree")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--frames", type=int, default=1, help="traceback frames per allocation")
    parser.add_argument("--playing", action="store_true", help="the tables start (as --join-playing)")
    args = parser.parse_args()
    raise_nofile_limit()
    ChildServer.wait_listening.__defaults__ = (300.0,)  # start-up under tracemalloc is slow
    log_path = str(Path(tempfile.mkdtemp(prefix="gamehall-memdiff-")) / "gc.log")
    environ = {"PYTHONTRACEMALLOC": str(args.frames)}
    this_src = Path(__file__).resolve().parent.parent / "src"
    environ["PYTHONPATH"] = str(Path(args.src).resolve() if args.src else this_src)
    loop = _new_loop()
    holding: list[object] = []

    async def join(names: list[str]) -> int:
        bots, _ = await join_all(server.port, names, batch=12, seed=11, play=False, answer_meta=True)
        holding.extend(bots)
        return len(bots)

    settings = PLAYING if args.playing else LOBBY
    with gamehall_server(settings, core=None, environ=environ, gc_log=log_path) as server:
        loop.run_until_complete(join([f"w{n}" for n in range(SEATS * 4)]))
        before = read_tracked_objects(server, log_path)
        seats = loop.run_until_complete(join([f"j{n}" for n in range(SEATS * args.tables)]))
        time.sleep(PLAYING_WAIT_S if args.playing else 0.0)
        after = read_tracked_objects(server, log_path)
        loop.run_until_complete(_close_all(holding))
    loop.close()
    old = tracemalloc.Snapshot.load(f"{log_path}.0.snap")
    new = tracemalloc.Snapshot.load(f"{log_path}.1.snap")
    group = "traceback" if args.frames > 1 else "lineno"
    stats = new.compare_to(old, group)
    total = sum(stat.size_diff for stat in stats)
    print(f"{seats} seats: {total / seats:.0f} B and {(after - before) / seats:.1f} tracked objects per seat")
    for stat in stats[: args.top]:
        where = stat.traceback.format()[-1 if args.frames == 1 else 0 :]
        print(f"{stat.size_diff / seats:8.1f} B {stat.count_diff / seats:6.2f} blocks  {' | '.join(where)}")
    with open(f"{log_path}.0.types", "rb") as f0, open(f"{log_path}.1.types", "rb") as f1:
        types0, types1 = pickle.load(f0), pickle.load(f1)
    grown = sorted(((types1.get(t, 0) - types0.get(t, 0), t) for t in types1), reverse=True)
    print("tracked objects per seat, by type:")
    for count, name in grown[: args.top]:
        if count > 0:
            print(f"{count / seats:8.2f}  {name}")


if __name__ == "__main__":
    main()

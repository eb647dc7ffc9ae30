"""What a join costs with many tables open, and what a joined seat costs in memory.

One fresh server per code version (this tree, and optionally a baseline source tree such as
``git archive main src``, run with ``PYTHONPATH``) gets ``tables`` x 3 wire bots that join
3-seat lobby tables that never start (``playermax=3 min_players=3 autostart_delay=0``): a
full table is not open, so every join walks the placement with all earlier tables listed.
Measured from outside the server:

- **memory per seat**: ``VmRSS`` after the seats (and one settle second) minus before, over
  the seats joined: the hall user, session, seat, a third of a table and the connection;
- **tracked objects per seat**: the same growth in objects the cyclic collector tracks (what a
  full collection walks, frozen or not), read through the server's ``SIGUSR1`` probe
  (``_server_process.read_tracked_objects``) when it runs with a gc log;
- **joins per second with N tables open**: ``timed`` more bots joined after the N tables
  exist, in batches of 12 as the games part does (a batch waits for every ``ACKN``), and the
  server CPU they cost (``/proc``), so *joins per server CPU-second* is the capacity figure
  and *joins per second* includes the clients' round trips.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass

from _aah_clients import join_all
from _idle import _close_all, _settled_rss
from _server_process import ChildServer, cpu_seconds, read_tracked_objects
from bench_echo_baseline import _new_loop

JOIN_BATCH = 12
SEATS = 3
LOBBY = {"playermax": SEATS, "min_players": SEATS, "autostart_delay": 0, "max_tables": 1000}

PLAYING = {**LOBBY, "autostart_delay": 1, "timeout": 60}
"""``--join-playing``: full tables start (a 1 s countdown), deal ten cards a seat and wait in
their first round's pick phase (60 s, the longest): a seat of a table in play, hand and all.
The bots never play, so the reading is taken within that first minute."""

PLAYING_WAIT_S = 5.0
"""How long after the last join the playing tables get to start before RSS is read."""


@dataclass(frozen=True, slots=True)
class JoinRow:
    what: str
    seats: int
    fill_s: float
    bytes_per_seat: float
    objects_per_seat: float
    timed: int
    timed_s: float
    timed_cpu_s: float
    problems: int

    @property
    def joins_per_s(self) -> float:
        return self.timed / self.timed_s if self.timed_s else 0.0

    @property
    def joins_per_cpu_s(self) -> float:
        return self.timed / self.timed_cpu_s if self.timed_cpu_s else float("inf")


def join_run(
    start: Callable[[], AbstractContextManager[ChildServer]],
    tables: int,
    timed: int,
    what: str,
    gc_log: str | None = None,
    *,
    wait_s: float = 0.0,
) -> JoinRow:
    """Fill ``tables`` 3-seat lobby tables, then time ``timed`` more joins (see the module).
    ``gc_log``: the server's gc log (it was started with one), for its tracked objects;
    ``wait_s``: seconds between the last join and the reading (tables starting)."""
    loop = _new_loop()
    holding: list[object] = []
    problems: list[str] = []

    async def join(names: list[str]) -> int:
        bots, refused = await join_all(
            server.port, names, batch=JOIN_BATCH, seed=11, play=False, answer_meta=True
        )
        problems.extend(refused)
        holding.extend(bots)
        return len(bots)

    try:
        with start() as server:
            loop.run_until_complete(join([f"w{n}" for n in range(SEATS * 4)]))  # imports, first tables
            objects_before = read_tracked_objects(server, gc_log) if gc_log else 0
            before = _settled_rss(server.pid)
            began = time.perf_counter()
            seated = loop.run_until_complete(join([f"j{n}" for n in range(SEATS * tables)]))
            fill_s = time.perf_counter() - began
            time.sleep(wait_s)
            after = _settled_rss(server.pid)
            objects_after = read_tracked_objects(server, gc_log) if gc_log else 0
            cpu0, t0 = cpu_seconds(server.pid), time.perf_counter()
            extra = loop.run_until_complete(join([f"t{n}" for n in range(timed)]))
            timed_s, timed_cpu = time.perf_counter() - t0, cpu_seconds(server.pid) - cpu0
            loop.run_until_complete(_close_all(holding))
    finally:
        loop.close()
    for problem in problems[:3]:
        print(f"  ! {what}: {problem}")
    per_seat = (after - before) / seated if seated else 0.0
    objects = (objects_after - objects_before) / seated if seated else 0.0
    return JoinRow(what, seated, fill_s, per_seat, objects, extra, timed_s, timed_cpu, len(problems))


def format_join_rows(rows: list[JoinRow], tables: int, kind: str = "lobby") -> str:
    header = (
        f"{'server':<28} {'seats':>6} {'fill s':>7} {'B/seat':>7} {'obj/seat':>8} {'joins':>6} "
        f"{'joins/s':>8} {'joins/CPU-s':>11} {'refused':>7}"
    )
    lines = [
        f"== joins with {tables} 3-seat {kind} tables open, and RSS per joined seat "
        "(targets: >= 1,000 joins/s, <= 6 KiB = 6144 B per seat)",
        header,
        "-" * len(header),
    ]
    for row in rows:
        lines.append(
            f"{row.what:<28} {row.seats:>6} {row.fill_s:>7.1f} {row.bytes_per_seat:>7.0f} "
            f"{row.objects_per_seat:>8.1f} {row.timed:>6} {row.joins_per_s:>8.0f} "
            f"{row.joins_per_cpu_s:>11.0f} {row.problems:>7}"
        )
    return "\n".join(lines)


__all__ = ["LOBBY", "PLAYING", "PLAYING_WAIT_S", "JoinRow", "format_join_rows", "join_run"]

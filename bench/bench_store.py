"""How fast the stores take room-log appends, and how fast a crashed hall reloads its rooms.

Every accepted move is committed before it is broadcast, so the rate of committed appends
bounds the moves per second the whole server can accept. The in-memory store, which does the
same checks and JSON encoding without a database, is the baseline measured in the same run.

The second table compares, on the same file type in the same run, a commit per append (what
the hall did before its outbox) with group commit: the appends of one loop turn, spread over
many rooms, committed in one transaction (``Store.commit``; docs/architecture.md). ``--batch``
is how many appends one loop turn collects.

The third table (``--postgres URL``, default the local test server when it answers) puts
PostgreSQL beside SQLite: the same batches committed through ``PostgresStore.commit``'s
awaitable, one batch at a time as the hall's outbox hands them over, on a fresh schema that is
dropped afterwards; ``--postgres none`` leaves it out.

Run: ``.venv/bin/python bench/bench_store.py [--appends N] [--rooms R] [--batch B] [--postgres URL]``.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from gamehall.store.base import Append, Batch, LogEntry, NewRoom, Store
from gamehall.store.memory import MemoryStore
from gamehall.store.sqlite import SqliteStore

ACTION = {"type": "pick", "cards": [17, 233], "round": 4}
DEFAULT_POSTGRES = "postgresql://127.0.0.1:5432/test"


def fill(store: Store, rooms: int, appends: int) -> float:
    """Create ``rooms`` rooms and append ``appends`` entries round-robin; return the seconds
    spent in the appends only.
    """
    for r in range(rooms):
        store.create_room(f"room-{r}", "aah", {"aplimit": 7, "timeout": 45}, 2**64 - 1 - r, {"title": "t"}, r)
    numbers = [0] * rooms
    started = time.perf_counter()
    for i in range(appends):
        r = i % rooms
        numbers[r] += 1
        store.append(f"room-{r}", LogEntry(numbers[r], "act", i % 6, ACTION, 1000.0 + i))
    return time.perf_counter() - started


def commit_batches(store: Store, rooms: int, appends: int, batch: int) -> float:
    """Like :func:`fill`, but through ``Store.commit``: ``batch`` appends (round-robin over the
    rooms, as one loop turn of a busy hall collects them) per transaction; ``batch=1`` is a
    commit per append. Returns the seconds spent committing."""
    store.commit(
        [NewRoom(f"room-{r}", "aah", {"aplimit": 7}, 2**64 - 1 - r, {"title": "t"}, r) for r in range(rooms)]
    )
    numbers = [0] * rooms
    pending: list[Append] = []
    started = time.perf_counter()
    for i in range(appends):
        r = i % rooms
        numbers[r] += 1
        pending.append(Append(f"room-{r}", LogEntry(numbers[r], "act", i % 6, ACTION, 1000.0 + i)))
        if len(pending) == batch:
            store.commit(pending)
            pending = []
    if pending:
        store.commit(pending)
    return time.perf_counter() - started


def group_commit_table(tmp: str, rooms: int, appends: int, batch: int) -> None:
    """Committed appends per second, a commit per append vs group commit, same run."""
    rows: list[tuple[str, int, float]] = []
    for label, power_safe, count in (
        ("NORMAL", False, appends),
        ("FULL", True, max(appends // 25, rooms)),
    ):
        for how, size in (("a commit per append", 1), (f"group commit, {batch} per batch", batch)):
            store = SqliteStore(Path(tmp) / f"group-{label}-{size}.db", power_safe=power_safe)
            seconds = commit_batches(store, rooms, count, size)
            store.close()
            rows.append((f"SQLite WAL {label}: {how}", count, count / seconds))
    header = f"{'committed appends':<48} {'appends':>8} {'appends/s':>11} {'vs per-append':>14}"
    print()
    print(f"group commit: {rooms} rooms, appends round-robin, {batch} appends per loop turn")
    print(header)
    print("-" * len(header))
    for index, (name, count, rate) in enumerate(rows):
        per_append = rows[index - index % 2][2]
        print(f"{name:<48} {count:>8} {rate:>11,.0f} {rate / per_append:>14.2f}")


class _Awaited:
    """A store whose ``commit`` waits for a background commit before returning (one batch in
    flight at a time, like the outbox), so :func:`commit_batches` times committed appends."""

    def __init__(self, store: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.store = store
        self.loop = loop

    def commit(self, batch: Batch) -> None:
        pending = self.store.commit(batch)
        if pending is not None:
            self.loop.run_until_complete(pending)


@contextmanager
def postgres_schema(url: str) -> Iterator[str]:
    """``url`` on a fresh schema, dropped afterwards."""
    import psycopg

    schema = f"gh_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in url else "?"
    try:
        yield f"{url}{separator}options={quote(f'-csearch_path={schema}')}"
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


def postgres_table(url: str, tmp: str, rooms: int, appends: int, batch: int) -> None:
    """Committed appends per second, SQLite (WAL, NORMAL) and PostgreSQL, the same batches."""
    from gamehall.store.postgres import PostgresStore

    rows: list[tuple[str, int, float, float]] = []
    per_append = max(min(appends // 10, 5000), rooms)  # a round trip each: far slower
    for how, size, count in (
        ("a commit per append", 1, per_append),
        (f"group commit, {batch}/batch", batch, appends),
    ):
        sqlite = SqliteStore(Path(tmp) / f"pg-compare-{size}.db")
        sqlite_rate = count / commit_batches(sqlite, rooms, count, size)
        sqlite.close()
        with postgres_schema(url) as schema_url:
            loop = asyncio.new_event_loop()
            store = PostgresStore(schema_url)
            try:
                rate = count / commit_batches(_Awaited(store, loop), rooms, count, size)  # type: ignore[arg-type]
                reload_ms = timed(store.unfinished_rooms) * 1000
            finally:
                loop.run_until_complete(store.aclose())
                loop.close()
        rows.append((f"SQLite WAL NORMAL: {how}", count, sqlite_rate, float("nan")))
        rows.append((f"PostgreSQL: {how}", count, rate, reload_ms))
    header = f"{'committed appends':<44} {'appends':>8} {'appends/s':>11} {'reload ms':>10}"
    print()
    print(f"PostgreSQL beside SQLite: {rooms} rooms, appends round-robin, batches awaited one at a time")
    print(header)
    print("-" * len(header))
    for name, count, rate, reload_ms in rows:
        reload = "" if reload_ms != reload_ms else f"{reload_ms:.1f}"
        print(f"{name:<44} {count:>8} {rate:>11,.0f} {reload:>10}")
    print("reload = unfinished_rooms() with every log, after the group-commit run")


def postgres_reachable(url: str) -> bool:
    try:
        import psycopg

        psycopg.connect(url, connect_timeout=3).close()
    except Exception:
        return False
    return True


def timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--appends", type=int, default=50_000, help="appends per store (default 50000)")
    parser.add_argument("--rooms", type=int, default=100, help="rooms the appends are spread over")
    parser.add_argument("--batch", type=int, default=100, help="appends per loop turn (group commit)")
    parser.add_argument(
        "--postgres",
        default=DEFAULT_POSTGRES,
        help=f"PostgreSQL server for the third table, or 'none' (default {DEFAULT_POSTGRES})",
    )
    args = parser.parse_args()
    appends: int = args.appends
    rooms: int = args.rooms
    power_safe_appends = max(appends // 25, rooms)  # an fsync per commit: far slower

    rows: list[tuple[str, int, float, float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        cases: list[tuple[str, Callable[[], Store], int]] = [
            ("MemoryStore (baseline)", MemoryStore, appends),
            ("SqliteStore WAL, synchronous=NORMAL", lambda: SqliteStore(Path(tmp) / "normal.db"), appends),
            (
                "SqliteStore WAL, synchronous=FULL",
                lambda: SqliteStore(Path(tmp) / "full.db", power_safe=True),
                power_safe_appends,
            ),
        ]
        for name, open_store, count in cases:
            store = open_store()
            seconds = fill(store, rooms, count)
            reload_s = timed(store.unfinished_rooms)
            load_s = timed(lambda s=store: s.load_room("room-0"))  # type: ignore[misc]
            store.close()
            rows.append((name, count, count / seconds, reload_s * 1000, load_s * 1000))

    baseline = rows[0][2]
    header = f"{'store':<38} {'appends':>8} {'appends/s':>11} {'vs base':>8} {'reload ms':>10} {'load ms':>8}"
    print(f"{rooms} rooms, entries appended round-robin, each committed before the next")
    print(header)
    print("-" * len(header))
    for name, count, rate, reload_ms, load_ms in rows:
        print(
            f"{name:<38} {count:>8} {rate:>11,.0f} {rate / baseline:>8.2f} {reload_ms:>10.1f} {load_ms:>8.2f}"
        )
    print("reload = unfinished_rooms() with every log; load = load_room() of one room")
    with tempfile.TemporaryDirectory() as tmp:
        group_commit_table(tmp, rooms, appends, max(1, int(args.batch)))
    if args.postgres == "none":
        return
    if not postgres_reachable(args.postgres):
        print(f"\nPostgreSQL: not reachable at {args.postgres}; its table is left out")
        return
    with tempfile.TemporaryDirectory() as tmp:
        postgres_table(args.postgres, tmp, rooms, appends, max(1, int(args.batch)))


if __name__ == "__main__":
    main()

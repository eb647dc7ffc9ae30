"""The store keeps rooms and their logs exactly, refuses anything that would break a replay,
and (SQLite) loses nothing a caller saw committed, even when the process is killed.

Every behavioural test runs against every store: the in-memory one the hall's unit tests use
must behave like the real ones, SQLite and PostgreSQL (a fresh schema on the real server,
skipped without one, failed in CI; its background commits awaited on a private loop).
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from postgres_support import CommittingPostgresStore, postgres_schema

import gamehall
from gamehall.store.base import LogEntry, RoomRecord, Store, StoreError
from gamehall.store.memory import MemoryStore
from gamehall.store.sqlite import MIGRATIONS, SqliteStore

CONFIG = {"aplimit": 7, "timeout": 45.5, "decks": ["base", "extra"], "hidden": False}
META = {"title": "Friday night ☕", "operator": "alice", "password_hash": None, "extra": {"k": [1, 2]}}


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "postgres":
        with postgres_schema() as url:
            opened: Store = CommittingPostgresStore(url)
            yield opened
            opened.close()
        return
    opened = MemoryStore() if request.param == "memory" else SqliteStore(tmp_path / "hall.db")
    yield opened
    opened.close()


def make_room(store: Store, room_id: str = "r1", *, game: str = "aah", created_at: float = 1000.0) -> None:
    store.create_room(room_id, game, CONFIG, 12345, META, created_at)


def entry(
    n: int, kind: str = "act", seat: int | None = 0, data: object = None, at: float = 2000.0
) -> LogEntry:
    return LogEntry(n=n, kind=kind, seat=seat, data={"i": n} if data is None else data, at=at + n)


def loaded(store: Store, room_id: str) -> RoomRecord:
    record = store.load_room(room_id)
    assert record is not None
    return record


# --------------------------------------------------------------------------------------------
# Round trip
# --------------------------------------------------------------------------------------------


def test_a_room_comes_back_exactly_as_written(store: Store) -> None:
    make_room(store)
    log = [
        LogEntry(1, "join", 0, {"name": "alice"}, 1001.25),
        LogEntry(2, "join", 1, {"name": "bob"}, 1002.0),
        LogEntry(3, "rename", 1, {"name": "bobby"}, 1003.0),
        LogEntry(4, "start", None, {}, 1004.0),
        LogEntry(5, "act", 0, {"type": "pick", "cards": [3, 14], "note": "ünïcode"}, 1005.0),
        LogEntry(6, "away", 1, {}, 1006.0),
        LogEntry(7, "timeout", None, {"key": "pick:2"}, 1007.0),
        LogEntry(8, "back", 1, {}, 1008.0),
        LogEntry(9, "leave", 0, {}, 1009.0),
        LogEntry(10, "close", None, None, 1010.0),
    ]
    for e in log:
        store.append("r1", e)
    store.finish("r1", {"scores": {"alice": 3, "bobby": 7}, "termination": "normal"}, 1011.5)

    assert store.load_room("r1") == RoomRecord(
        room_id="r1",
        game="aah",
        config=CONFIG,
        seed=12345,
        meta=META,
        created_at=1000.0,
        finished_at=1011.5,
        result={"scores": {"alice": 3, "bobby": 7}, "termination": "normal"},
        entries=tuple(log),
    )


def test_an_unknown_room_loads_as_none(store: Store) -> None:
    assert store.load_room("nope") is None


def test_values_come_back_as_json_gives_them_tuples_as_lists(store: Store) -> None:
    store.create_room("r1", "aah", {"order": (1, 2)}, 1, {}, 1.0)
    store.append("r1", LogEntry(1, "act", 0, {"cards": (5, 6)}, 2.0))
    record = loaded(store, "r1")
    assert record.config == {"order": [1, 2]}
    assert record.entries[0].data == {"cards": [5, 6]}


def test_the_caller_cannot_change_a_stored_room_through_its_own_objects(store: Store) -> None:
    config: dict[str, object] = {"decks": ["base"]}
    store.create_room("r1", "aah", config, 1, {}, 1.0)
    config["decks"] = ["other"]
    record = loaded(store, "r1")
    record.config["decks"].append("mutated")
    assert loaded(store, "r1").config == {"decks": ["base"]}


@pytest.mark.parametrize("seed", [0, 1, 2**31, 2**63 - 1, 2**63, 2**64 - 1])
def test_every_64_bit_unsigned_seed_round_trips(store: Store, seed: int) -> None:
    store.create_room("r1", "aah", {}, seed, {}, 1.0)
    assert loaded(store, "r1").seed == seed
    assert [r.seed for r in store.recent_rooms()] == [seed]
    assert [r.seed for r in store.unfinished_rooms()] == [seed]


@pytest.mark.parametrize("seed", [-1, 2**64, True])
def test_a_seed_outside_64_bits_unsigned_is_refused(store: Store, seed: int) -> None:
    with pytest.raises(StoreError, match="seed"):
        store.create_room("r1", "aah", {}, seed, {}, 1.0)
    assert store.load_room("r1") is None


# --------------------------------------------------------------------------------------------
# What the store refuses
# --------------------------------------------------------------------------------------------


def test_a_room_id_is_used_once(store: Store) -> None:
    make_room(store)
    with pytest.raises(StoreError, match="already exists"):
        store.create_room("r1", "cg", {}, 9, {}, 5.0)
    assert loaded(store, "r1").game == "aah"


def test_log_numbers_start_at_one(store: Store) -> None:
    make_room(store)
    with pytest.raises(StoreError, match="expected 1"):
        store.append("r1", entry(2))
    with pytest.raises(StoreError, match="positive"):
        store.append("r1", entry(0))
    assert loaded(store, "r1").entries == ()


def test_a_gap_in_the_log_is_refused(store: Store) -> None:
    make_room(store)
    store.append("r1", entry(1))
    with pytest.raises(StoreError, match="expected 2"):
        store.append("r1", entry(3))
    assert [e.n for e in loaded(store, "r1").entries] == [1]


def test_a_duplicate_number_is_refused_and_the_first_entry_kept(store: Store) -> None:
    make_room(store)
    store.append("r1", entry(1, data={"first": True}))
    store.append("r1", entry(2))
    with pytest.raises(StoreError, match="expected 3"):
        store.append("r1", entry(2, data={"second": True}))
    with pytest.raises(StoreError, match="expected 3"):
        store.append("r1", entry(1, data={"second": True}))
    assert [e.data for e in loaded(store, "r1").entries] == [{"first": True}, {"i": 2}]


def test_logs_of_different_rooms_are_numbered_independently(store: Store) -> None:
    make_room(store, "r1")
    make_room(store, "r2")
    store.append("r1", entry(1))
    store.append("r2", entry(1))
    store.append("r2", entry(2))
    store.append("r1", entry(2))
    assert [e.n for e in loaded(store, "r1").entries] == [1, 2]
    assert [e.n for e in loaded(store, "r2").entries] == [1, 2]


def test_appending_to_an_unknown_room_is_refused(store: Store) -> None:
    with pytest.raises(StoreError, match="no room"):
        store.append("ghost", entry(1))


def test_a_finished_room_takes_no_more_entries(store: Store) -> None:
    make_room(store)
    store.append("r1", entry(1))
    store.finish("r1", {"winner": 0}, 3000.0)
    with pytest.raises(StoreError, match="finished"):
        store.append("r1", entry(2))
    assert len(loaded(store, "r1").entries) == 1


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (LogEntry(1, "dance", 0, {}, 1.0), "kind"),
        (LogEntry(1, "act", -1, {}, 1.0), "seat"),
        (LogEntry(1, "act", True, {}, 1.0), "seat"),
        (LogEntry(1, "act", 0, {}, float("nan")), "time"),
        (LogEntry(1, "act", 0, {1: "non-str key"}, 1.0), "not JSON"),
        (LogEntry(1, "act", 0, {"x": object()}, 1.0), "not JSON"),
        (LogEntry(1, "act", 0, {"x": 2**70}, 1.0), "not JSON"),
    ],
)
def test_a_malformed_entry_is_refused_and_leaves_no_trace(store: Store, bad: LogEntry, message: str) -> None:
    make_room(store)
    with pytest.raises(StoreError, match=message):
        store.append("r1", bad)
    store.append("r1", entry(1))
    assert [e.n for e in loaded(store, "r1").entries] == [1]


def test_non_json_config_or_meta_is_refused(store: Store) -> None:
    with pytest.raises(StoreError, match="config is not JSON"):
        store.create_room("r1", "aah", {"x": {1, 2}}, 1, {}, 1.0)
    with pytest.raises(StoreError, match="meta is not JSON"):
        store.create_room("r1", "aah", {}, 1, {"x": object()}, 1.0)
    assert store.load_room("r1") is None


def test_a_room_is_finished_once(store: Store) -> None:
    make_room(store)
    store.finish("r1", {"winner": 0}, 3000.0)
    with pytest.raises(StoreError, match="already finished"):
        store.finish("r1", {"winner": 1}, 3001.0)
    assert loaded(store, "r1").result == {"winner": 0}
    with pytest.raises(StoreError, match="no room"):
        store.finish("ghost", None, 1.0)


def test_a_closed_store_refuses_every_call(store: Store) -> None:
    make_room(store)
    store.close()
    store.close()  # closing twice is harmless
    with pytest.raises(StoreError, match="closed"):
        store.load_room("r1")
    with pytest.raises(StoreError, match="closed"):
        store.append("r1", entry(1))
    with pytest.raises(StoreError, match="closed"):
        store.recent_rooms()


# --------------------------------------------------------------------------------------------
# Meta, finished and unfinished rooms, listings
# --------------------------------------------------------------------------------------------


def test_update_meta_merges_key_by_key(store: Store) -> None:
    make_room(store)
    store.update_meta("r1", {"title": "renamed", "password_hash": "pbkdf2$abc"})
    assert loaded(store, "r1").meta == {**META, "title": "renamed", "password_hash": "pbkdf2$abc"}
    store.finish("r1", None, 5.0)
    store.update_meta("r1", {"archived": True})
    assert loaded(store, "r1").meta["archived"] is True
    with pytest.raises(StoreError, match="no room"):
        store.update_meta("ghost", {"title": "x"})
    with pytest.raises(StoreError, match="not JSON"):
        store.update_meta("r1", {"title": object()})
    assert loaded(store, "r1").meta["title"] == "renamed"


def test_unfinished_rooms_are_the_running_ones_with_their_logs_oldest_first(store: Store) -> None:
    make_room(store, "late", created_at=30.0)
    make_room(store, "done", created_at=10.0)
    make_room(store, "early", created_at=20.0)
    make_room(store, "tie", created_at=30.0)  # same time as "late", created after it
    store.append("late", entry(1))
    store.append("late", entry(2))
    store.append("done", entry(1))
    store.finish("done", {"winner": 0}, 40.0)

    running = store.unfinished_rooms()
    assert [r.room_id for r in running] == ["early", "late", "tie"]
    assert [e.n for e in running[1].entries] == [1, 2]
    assert running[0].entries == ()
    assert all(r.finished_at is None and r.result is None and not r.finished for r in running)

    done = loaded(store, "done")
    assert done.finished and done.finished_at == 40.0 and done.result == {"winner": 0}


def test_unfinished_room_ids_list_the_running_rooms_oldest_first_and_follow_finishes(store: Store) -> None:
    assert store.unfinished_room_ids() == []
    make_room(store, "late", created_at=30.0)
    make_room(store, "done", created_at=10.0)
    make_room(store, "early", created_at=20.0)
    make_room(store, "tie", created_at=30.0)  # same time as "late", created after it
    store.append("late", entry(1))
    store.finish("done", {"winner": 0}, 40.0)

    assert store.unfinished_room_ids() == ["early", "late", "tie"]
    assert store.unfinished_room_ids() == [r.room_id for r in store.unfinished_rooms()]
    store.finish("early", None, 50.0)
    assert store.unfinished_room_ids() == ["late", "tie"]


def test_a_finished_room_with_a_null_result_is_still_finished(store: Store) -> None:
    make_room(store)
    store.finish("r1", None, 5.0)
    assert store.unfinished_rooms() == []
    assert loaded(store, "r1").finished


def test_recent_rooms_newest_first_without_logs_filtered_by_game_and_limited(store: Store) -> None:
    for i, game in enumerate(["aah", "cg", "aah", "mrjack", "aah"]):
        make_room(store, f"r{i}", game=game, created_at=100.0 + i)
        store.append(f"r{i}", entry(1))
    store.finish("r2", {"winner": 1}, 200.0)
    make_room(store, "tie", game="cg", created_at=104.0)  # same time as r4, created after it

    assert [r.room_id for r in store.recent_rooms()] == ["tie", "r4", "r3", "r2", "r1", "r0"]
    assert [r.room_id for r in store.recent_rooms(limit=2)] == ["tie", "r4"]
    assert [r.room_id for r in store.recent_rooms(game="aah")] == ["r4", "r2", "r0"]
    assert [r.room_id for r in store.recent_rooms(limit=1, game="cg")] == ["tie"]
    assert store.recent_rooms(game="ursuppe") == []
    assert store.recent_rooms(limit=0) == []
    listed = {r.room_id: r for r in store.recent_rooms()}
    assert all(r.entries == () for r in listed.values())
    assert listed["r2"].result == {"winner": 1}
    assert listed["r0"].config == CONFIG and listed["r0"].meta == META


# --------------------------------------------------------------------------------------------
# SQLite only: the file
# --------------------------------------------------------------------------------------------


def test_sqlite_keeps_everything_across_reopening(tmp_path: Path) -> None:
    path = tmp_path / "hall.db"
    first = SqliteStore(path)
    make_room(first)
    first.append("r1", entry(1))
    first.update_meta("r1", {"title": "kept"})
    before = loaded(first, "r1")
    first.close()

    second = SqliteStore(path)
    assert loaded(second, "r1") == before
    assert second.schema_version() == len(MIGRATIONS)
    second.append("r1", entry(2))
    second.close()


def test_sqlite_runs_in_wal_mode_with_foreign_keys(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "hall.db")
    conn = store._conn
    assert conn is not None
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    store.close()
    power_safe = SqliteStore(tmp_path / "hall.db", power_safe=True)
    assert power_safe._conn is not None
    assert power_safe._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    power_safe.close()


def test_sqlite_refuses_a_file_from_a_newer_gamehall(tmp_path: Path) -> None:
    path = tmp_path / "hall.db"
    SqliteStore(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE schema_version SET version = ?", (len(MIGRATIONS) + 1,))
    conn.close()
    with pytest.raises(StoreError, match="newer"):
        SqliteStore(path)


def test_sqlite_errors_become_store_errors(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot open"):
        SqliteStore(tmp_path / "missing-dir" / "hall.db")
    not_a_db = tmp_path / "junk.db"
    not_a_db.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="cannot open"):
        SqliteStore(not_a_db)


# --------------------------------------------------------------------------------------------
# SQLite only: kill -9 loses nothing that was reported committed
# --------------------------------------------------------------------------------------------

APPENDER = textwrap.dedent(
    """
    import sys
    from gamehall.store.base import LogEntry
    from gamehall.store.sqlite import SqliteStore

    store = SqliteStore(sys.argv[1])
    room = store.load_room("r")
    if room is None:
        store.create_room("r", "aah", {"aplimit": 5}, 2**64 - 1, {"title": "crash"}, 1.0)
        n = 0
    else:
        n = len(room.entries)
    while True:
        n += 1
        store.append("r", LogEntry(n, "act", n % 4, {"i": n, "pad": "x" * (n % 300)}, 1.0 + n))
        print(n, flush=True)
    """
)


def run_appender_and_kill(path: Path, after_lines: int) -> int:
    """Start an appender, SIGKILL it after it reported ``after_lines`` commits, and return the
    highest entry number it reported (including lines that arrived before the kill landed).
    """
    child = subprocess.Popen(
        [sys.executable, "-c", APPENDER, str(path)],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(Path(gamehall.__file__).parents[1])},
    )
    assert child.stdout is not None
    reported: list[int] = []
    try:
        while len(reported) < after_lines:
            line = child.stdout.readline()
            assert line.endswith(b"\n"), "appender died before being killed"
            reported.append(int(line))
        child.send_signal(signal.SIGKILL)
        rest = child.stdout.read()
    finally:
        child.kill()
        child.wait(timeout=10)
        child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    reported.extend(int(line) for line in rest.split(b"\n")[:-1])  # a cut-off last line is unknown
    return max(reported)


def test_sqlite_loses_no_committed_entry_when_killed(tmp_path: Path) -> None:
    path = tmp_path / "crash.db"
    for round_, after_lines in enumerate([150, 400, 75]):
        last_reported = run_appender_and_kill(path, after_lines)

        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok", f"round {round_}"
        conn.close()
        store = SqliteStore(path)
        room = loaded(store, "r")
        store.close()

        numbers = [e.n for e in room.entries]
        assert numbers == list(range(1, len(numbers) + 1)), "the log has a gap or a duplicate"
        assert len(numbers) >= last_reported, f"round {round_}: reported {last_reported}, kept {len(numbers)}"
        assert room.seed == 2**64 - 1 and room.meta == {"title": "crash"}
        assert all(e.data == {"i": e.n, "pad": "x" * (e.n % 300)} for e in room.entries)

"""The embedded store: one SQLite file in WAL mode, no server to run.

Durability: the database runs with ``journal_mode=WAL`` and ``synchronous=NORMAL``. A call that
returned has written its transaction to the write-ahead log, so it survives the *process*
dying at any instant (a crash, ``kill -9``, the OOM killer): that is gamehall's requirement,
because an accepted move must be in the room log before it is broadcast. It does not survive
the *machine* losing power before the operating system flushed its cache: a power loss may
roll back the last transactions, never corrupt the file. ``SqliteStore(path, power_safe=True)``
switches to ``synchronous=FULL`` (an fsync per commit) for that stronger promise, at a large
cost in appends per second (see ``bench/bench_store.py``).

Layout (see :data:`MIGRATIONS`): ``rooms`` holds one row per room, with its config, meta and
result as JSON text (encoded with orjson) and its seed as decimal text, because seeds are 64-bit
*unsigned* and SQLite integers are signed. ``room_log`` holds the entries, keyed by
``(room_id, n)`` and clustered by room (``WITHOUT ROWID``), so a room's log is one range scan.
``schema_version`` records how many migrations have run; opening a file applies the missing
ones, so later versions of gamehall can change the layout without losing old rooms.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from gamehall.rules._core import JSON
from gamehall.store.base import (
    Append,
    Batch,
    Finish,
    LogEntry,
    MetaUpdate,
    NewRoom,
    OneWriteCalls,
    RoomRecord,
    StoreError,
    Write,
    check_entry_shape,
    check_seed,
    check_time,
    decode_json,
    encode_json,
    encode_mapping,
    not_next_error,
)

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: rooms and their logs.
    (
        """
        CREATE TABLE rooms (
            room_id     TEXT PRIMARY KEY NOT NULL,
            game        TEXT NOT NULL,
            config      TEXT NOT NULL,              -- JSON object
            seed        TEXT NOT NULL,              -- decimal: 64-bit unsigned does not fit INTEGER
            meta        TEXT NOT NULL,              -- JSON object, opaque to the store
            created_at  REAL NOT NULL,
            finished_at REAL,                       -- NULL while the room runs
            result      TEXT                        -- JSON, set with finished_at
        )
        """,
        "CREATE INDEX rooms_by_creation ON rooms (created_at)",
        "CREATE INDEX rooms_by_game ON rooms (game, created_at)",
        "CREATE INDEX rooms_unfinished ON rooms (created_at) WHERE finished_at IS NULL",
        """
        CREATE TABLE room_log (
            room_id TEXT NOT NULL REFERENCES rooms (room_id),
            n       INTEGER NOT NULL CHECK (n >= 1),
            kind    TEXT NOT NULL,
            seat    INTEGER,
            data    TEXT NOT NULL,                  -- JSON
            at      REAL NOT NULL,
            PRIMARY KEY (room_id, n)
        ) WITHOUT ROWID
        """,
    ),
)
"""Schema changes in order; the database's version is how many of them it has applied."""

# The statements below are constants so the sqlite3 module's statement cache prepares each one
# once per connection and reuses it on every call.

_APPEND = """
    INSERT INTO room_log (room_id, n, kind, seat, data, at)
    SELECT room_id, ?2, ?3, ?4, ?5, ?6 FROM rooms
    WHERE room_id = ?1 AND finished_at IS NULL
      AND ?2 = 1 + COALESCE((SELECT MAX(n) FROM room_log WHERE room_id = ?1), 0)
"""
_ROOM_COLUMNS = "room_id, game, config, seed, meta, created_at, finished_at, result"
_ENTRY_COLUMNS = "n, kind, seat, data, at"

_RoomRow = tuple[str, str, str, str, str, float, float | None, str | None]
_EntryRow = tuple[int, str, int | None, str, float]


class SqliteStore(OneWriteCalls):
    """Rooms and logs in one SQLite file; see the module docstring for the durability promise.

    Every call is one transaction; :meth:`commit` writes a whole batch in one (group commit:
    one write-ahead-log commit for a loop turn's appends of every room). The connection may be
    used from any thread (calls are serialised by a lock), so the server can move store calls
    off its event loop if needed.

    Raises:
        StoreError: the file cannot be opened, or was written by a newer gamehall.
    """

    def __init__(self, path: str | Path, *, power_safe: bool = False) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the store at {self.path}: {exc}") from exc
        self._conn: sqlite3.Connection | None = conn
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute(f"PRAGMA synchronous = {'FULL' if power_safe else 'NORMAL'}")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA busy_timeout = 5000")
            self._migrate(conn)
        except (sqlite3.Error, StoreError) as exc:
            conn.close()
            self._conn = None
            if isinstance(exc, StoreError):
                raise
            raise StoreError(f"cannot open the store at {self.path}: {exc}") from exc

    # ----------------------------------------------------------------------------------------
    # Schema
    # ----------------------------------------------------------------------------------------

    @staticmethod
    def _migrate(conn: sqlite3.Connection) -> None:
        """Bring the schema up to date, one transaction for all missing migrations."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            row = conn.execute("SELECT version FROM schema_version").fetchone()
            version = 0 if row is None else int(row[0])
            if version > len(MIGRATIONS):
                raise StoreError(
                    f"the store has schema version {version}, newer than this gamehall "
                    f"knows ({len(MIGRATIONS)}); upgrade gamehall"
                )
            for statements in MIGRATIONS[version:]:
                for statement in statements:
                    conn.execute(statement)
            if row is None:
                conn.execute("INSERT INTO schema_version (version) VALUES (?)", (len(MIGRATIONS),))
            else:
                conn.execute("UPDATE schema_version SET version = ?", (len(MIGRATIONS),))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def schema_version(self) -> int:
        """How many migrations this file has applied."""
        with self._transaction() as conn:
            row = conn.execute("SELECT version FROM schema_version").fetchone()
        return int(row[0])

    # ----------------------------------------------------------------------------------------
    # Plumbing
    # ----------------------------------------------------------------------------------------

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        """The open connection, held under the lock, with sqlite errors turned into StoreError."""
        with self._lock:
            conn = self._conn
            if conn is None:
                raise StoreError("the store is closed")
            try:
                yield conn
            except sqlite3.Error as exc:
                raise StoreError(f"database error: {exc}") from exc

    @contextmanager
    def _transaction(self, *, write: bool = False) -> Iterator[sqlite3.Connection]:
        """One transaction: committed if the block ends normally, rolled back otherwise.

        Reads get a consistent snapshot (a room and its log from the same instant); writes take
        the write lock up front (``BEGIN IMMEDIATE``) so they never fail half-way on a lock.
        """
        with self._connection() as conn:
            conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    # ----------------------------------------------------------------------------------------
    # Writes
    # ----------------------------------------------------------------------------------------

    def commit(self, batch: Batch) -> None:
        """Write ``batch`` in one transaction, committed to the write-ahead log when this
        returns (in place: a local commit takes microseconds, less than handing it to a
        thread would). A refused write rolls the whole batch back.

        Raises:
            StoreError: a write is refused (see the one-write methods) or the database failed.
        """
        if not batch:
            return
        with self._transaction(write=True) as conn:
            for write in batch:
                _apply(conn, write)

    commit_now = commit  # the one-write calls (OneWriteCalls): a commit here is already done on return

    # ----------------------------------------------------------------------------------------
    # Reads
    # ----------------------------------------------------------------------------------------

    def load_room(self, room_id: str) -> RoomRecord | None:
        with self._transaction() as conn:
            row = conn.execute(f"SELECT {_ROOM_COLUMNS} FROM rooms WHERE room_id = ?", (room_id,)).fetchone()
            if row is None:
                return None
            entries = conn.execute(
                f"SELECT {_ENTRY_COLUMNS} FROM room_log WHERE room_id = ? ORDER BY n", (room_id,)
            ).fetchall()
        return _record(row, entries)

    def unfinished_rooms(self) -> list[RoomRecord]:
        with self._transaction() as conn:
            rows = conn.execute(
                f"SELECT {_ROOM_COLUMNS} FROM rooms WHERE finished_at IS NULL ORDER BY created_at, rowid"
            ).fetchall()
            logs: dict[str, list[_EntryRow]] = {row[0]: [] for row in rows}
            for room_id, n, kind, seat, data, at in conn.execute(
                f"SELECT room_id, {_ENTRY_COLUMNS} FROM room_log"
                " WHERE room_id IN (SELECT room_id FROM rooms WHERE finished_at IS NULL)"
                " ORDER BY room_id, n"
            ):
                logs[room_id].append((n, kind, seat, data, at))
        return [_record(row, logs[row[0]]) for row in rows]

    def unfinished_room_ids(self) -> list[str]:
        with self._transaction() as conn:
            rows = conn.execute(
                "SELECT room_id FROM rooms WHERE finished_at IS NULL ORDER BY created_at, rowid"
            ).fetchall()
        return [row[0] for row in rows]

    def recent_rooms(self, limit: int = 50, game: str | None = None) -> list[RoomRecord]:
        limit = max(limit, 0)
        with self._transaction() as conn:
            if game is None:
                rows = conn.execute(
                    f"SELECT {_ROOM_COLUMNS} FROM rooms ORDER BY created_at DESC, rowid DESC LIMIT ?",
                    (limit,),
                ).fetchall()
            else:
                rows = conn.execute(
                    f"SELECT {_ROOM_COLUMNS} FROM rooms WHERE game = ?"
                    " ORDER BY created_at DESC, rowid DESC LIMIT ?",
                    (game, limit),
                ).fetchall()
        return [_record(row, ()) for row in rows]

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


# --------------------------------------------------------------------------------------------
# One write inside a transaction (SqliteStore.commit)
# --------------------------------------------------------------------------------------------


def _apply(conn: sqlite3.Connection, write: Write) -> None:
    if isinstance(write, NewRoom):
        _create(conn, write)
    elif isinstance(write, Append):
        _append(conn, write.room_id, write.entry)
    elif isinstance(write, MetaUpdate):
        _update_meta(conn, write.room_id, write.meta)
    else:
        _finish(conn, write)


def _create(conn: sqlite3.Connection, write: NewRoom) -> None:
    room_id = write.room_id
    row = (
        room_id,
        write.game,
        encode_mapping(write.config, f"room {room_id}: config"),
        str(check_seed(write.seed)),
        encode_mapping(write.meta, f"room {room_id}: meta"),
        check_time(write.created_at, f"room {room_id}: created_at"),
    )
    if conn.execute("SELECT 1 FROM rooms WHERE room_id = ?", (room_id,)).fetchone():
        raise StoreError(f"room {room_id!r} already exists")
    conn.execute(
        "INSERT INTO rooms (room_id, game, config, seed, meta, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        row,
    )


def _append(conn: sqlite3.Connection, room_id: str, entry: LogEntry) -> None:
    """One ``INSERT ... SELECT`` both checks (room exists and runs, ``n`` is next) and writes;
    only a refused entry costs a second look to explain why."""
    check_entry_shape(room_id, entry)
    data = encode_json(entry.data, f"room {room_id}: entry {entry.n} data")
    params = (room_id, entry.n, entry.kind, entry.seat, data, float(entry.at))
    if conn.execute(_APPEND, params).rowcount == 1:
        return
    room = conn.execute("SELECT finished_at FROM rooms WHERE room_id = ?", (room_id,)).fetchone()
    if room is None:
        raise StoreError(f"no room {room_id!r}")
    if room[0] is not None:
        raise StoreError(f"room {room_id} is finished; its log takes no more entries")
    last = conn.execute("SELECT MAX(n) FROM room_log WHERE room_id = ?", (room_id,)).fetchone()[0]
    raise not_next_error(room_id, entry.n, last or 0)


def _update_meta(conn: sqlite3.Connection, room_id: str, meta: Mapping[str, JSON]) -> None:
    encode_mapping(meta, f"room {room_id}: meta")  # refuse non-JSON before touching the file
    row = conn.execute("SELECT meta FROM rooms WHERE room_id = ?", (room_id,)).fetchone()
    if row is None:
        raise StoreError(f"no room {room_id!r}")
    merged = decode_json(row[0])
    merged.update(meta)
    conn.execute(
        "UPDATE rooms SET meta = ? WHERE room_id = ?",
        (encode_mapping(merged, f"room {room_id}: meta"), room_id),
    )


def _finish(conn: sqlite3.Connection, write: Finish) -> None:
    room_id = write.room_id
    encoded = encode_json(write.result, f"room {room_id}: result")
    when = check_time(write.finished_at, f"room {room_id}: finished_at")
    row = conn.execute("SELECT finished_at FROM rooms WHERE room_id = ?", (room_id,)).fetchone()
    if row is None:
        raise StoreError(f"no room {room_id!r}")
    if row[0] is not None:
        raise StoreError(f"room {room_id} is already finished")
    conn.execute("UPDATE rooms SET finished_at = ?, result = ? WHERE room_id = ?", (when, encoded, room_id))


def _record(row: _RoomRow, entries: list[_EntryRow] | tuple[()]) -> RoomRecord:
    room_id, game, config, seed, meta, created_at, finished_at, result = row
    return RoomRecord(
        room_id=room_id,
        game=game,
        config=decode_json(config),
        seed=int(seed),
        meta=decode_json(meta),
        created_at=created_at,
        finished_at=finished_at,
        result=None if result is None else decode_json(result),
        entries=tuple(
            LogEntry(n=n, kind=kind, seat=seat, data=decode_json(data), at=at)
            for n, kind, seat, data, at in entries
        ),
    )

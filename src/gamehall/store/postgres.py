"""The networked store: rooms and logs in PostgreSQL, through psycopg 3, for several nodes.

``gamehall serve --db postgresql://HOST/DB`` selects it (:func:`gamehall.store.open_store`).
It keeps the :class:`~gamehall.store.base.Store` contract of the SQLite store, with two
differences a caller sees:

- :meth:`PostgresStore.commit` returns an awaitable (a coroutine) at once; the transaction is
  sent on the caller's event loop through an ``AsyncConnection`` and the awaitable finishes
  when PostgreSQL has committed it (the hall's outbox waits for it through
  ``LoopClock.wait_for``). A batch is **one round trip**: ``BEGIN``, one function call per
  write (a run of consecutive appends, a turn's moves, is one set-based call), ``COMMIT``,
  sent in psycopg's pipeline mode.
- **Fencing.** Every room row keeps an owner fencing number (``rooms.fence``). A write whose
  ``fence`` is set (the lease's number, :class:`~gamehall.store.base.Append` and friends) is
  refused when it is *lower* than the stored one, and raises it otherwise, inside the same
  transaction and under the room's row lock, so a paused or partitioned node that lost its
  lease can never write over its successor. A refusal rolls back the whole batch and raises
  :class:`~gamehall.store.base.FencedError` (a ``StoreError``: the hall treats it as a failed
  commit). ``fence=None`` (one node) is never checked.

Every check of a write (unknown room, finished room, the entry's number, the fence) runs in a
PL/pgSQL function of the schema (``gamehall_append`` ...), so a refusal is an error with its
own SQLSTATE (:data:`REFUSED`, :data:`FENCED`) and the same message the SQLite store gives;
values are checked and encoded in Python first by the same helpers the other stores use.

Reads (crash recovery at start, replays, recent rooms) and the one-write methods for tools and
tests are synchronous, on a second, ordinary connection, like SQLite's (they block the loop for
one round trip; the server reads only at start and for replay pages). A read whose connection
the database cut is repeated once on a new one.

Durability: a commit returns after PostgreSQL's ``COMMIT``, so with the server's default
``synchronous_commit=on`` an accepted move survives the gamehall process, the database process
and the machine.

Schema: :data:`MIGRATIONS`, applied at start under a transaction-scoped advisory lock (two
nodes starting at once apply them once), recorded one row per migration in ``schema_version``.
JSON values are kept as text written by orjson and never parsed by PostgreSQL (byte-exact, and
its JSON parser refuses ``\\u0000``): a room's meta as its keys beside their JSON values, so a
meta update merges key by key in the database; the seed as ``numeric(20)`` (64-bit unsigned
does not fit ``bigint``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Coroutine, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import partial
from typing import Any, TypeVar

import psycopg

from gamehall.rules._core import JSON
from gamehall.store.base import (
    Append,
    Batch,
    FencedError,
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
)

REFUSED = "GH000"
"""SQLSTATE of a write the store refuses (unknown or finished room, not the next entry ...)."""
FENCED = "GH001"
"""SQLSTATE of a write whose fencing number is lower than the room's."""

_ROOMS = (
    """
    CREATE TABLE rooms (
        room_id     text PRIMARY KEY,
        game        text NOT NULL,
        config      text NOT NULL,                 -- JSON object
        seed        numeric(20) NOT NULL CHECK (seed >= 0 AND seed < 18446744073709551616),
        meta_keys   text[] NOT NULL,               -- meta (opaque to the store): its keys
        meta_values text[] NOT NULL,               --   and each key's value as JSON text
        created_at  double precision NOT NULL,
        finished_at double precision,              -- NULL while the room runs
        result      text,                          -- JSON, set with finished_at
        last_n      integer NOT NULL DEFAULT 0,    -- the log's last entry number
        fence       bigint NOT NULL DEFAULT 0,     -- the highest owner fencing number written
        seq         bigint GENERATED ALWAYS AS IDENTITY  -- creation order among equal times
    )
    """,
    "CREATE INDEX rooms_by_creation ON rooms (created_at, seq)",
    "CREATE INDEX rooms_by_game ON rooms (game, created_at, seq)",
    "CREATE INDEX rooms_unfinished ON rooms (created_at, seq) WHERE finished_at IS NULL",
    """
    CREATE TABLE room_log (
        room_id text NOT NULL REFERENCES rooms (room_id),
        n       integer NOT NULL CHECK (n >= 1),
        kind    text NOT NULL,
        seat    integer,
        data    text NOT NULL,                     -- JSON
        at      double precision NOT NULL,
        PRIMARY KEY (room_id, n)
    )
    """,
    # The room's row, locked for the rest of the transaction, after the checks every write
    # makes: the room exists and the writer's fencing number is not below the room's.
    """
    CREATE FUNCTION gamehall_owned_room(p_room text, p_fence bigint) RETURNS rooms
    LANGUAGE plpgsql AS $$
    DECLARE
        r rooms;
    BEGIN
        SELECT * INTO r FROM rooms WHERE room_id = p_room FOR UPDATE;
        IF NOT FOUND THEN
            RAISE EXCEPTION USING ERRCODE = 'GH000', MESSAGE = format('no room %L', p_room);
        END IF;
        IF p_fence IS NOT NULL AND p_fence < r.fence THEN
            RAISE EXCEPTION USING ERRCODE = 'GH001', MESSAGE = format(
                'room %s: fencing number %s is below the room''s %s (another node owns it)',
                p_room, p_fence, r.fence);
        END IF;
        IF p_fence IS NOT NULL AND p_fence > r.fence THEN
            UPDATE rooms SET fence = p_fence WHERE room_id = p_room;
        END IF;
        RETURN r;
    END $$
    """,
    """
    CREATE FUNCTION gamehall_create_room(p_room text, p_game text, p_config text, p_seed numeric,
                                         p_keys text[], p_values text[], p_at double precision,
                                         p_fence bigint)
    RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO rooms (room_id, game, config, seed, meta_keys, meta_values, created_at, fence)
        VALUES (p_room, p_game, p_config, p_seed, p_keys, p_values, p_at, COALESCE(p_fence, 0));
    EXCEPTION WHEN unique_violation THEN
        RAISE EXCEPTION USING ERRCODE = 'GH000', MESSAGE = format('room %L already exists', p_room);
    END $$
    """,
    # The common case is one UPDATE (number, fence and state checked in its WHERE, the row
    # locked) and one INSERT; only a refused entry looks again to say why.
    """
    CREATE FUNCTION gamehall_append(p_room text, p_n integer, p_kind text, p_seat integer,
                                    p_data text, p_at double precision, p_fence bigint)
    RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
        r rooms;
    BEGIN
        UPDATE rooms SET last_n = p_n, fence = GREATEST(fence, COALESCE(p_fence, 0))
        WHERE room_id = p_room AND finished_at IS NULL AND last_n = p_n - 1
          AND (p_fence IS NULL OR fence <= p_fence);
        IF NOT FOUND THEN
            r := gamehall_owned_room(p_room, p_fence);  -- raises for an unknown room, a low fence
            IF r.finished_at IS NOT NULL THEN
                RAISE EXCEPTION USING ERRCODE = 'GH000',
                    MESSAGE = format('room %s is finished; its log takes no more entries', p_room);
            END IF;
            RAISE EXCEPTION USING ERRCODE = 'GH000', MESSAGE = format(
                'room %s: entry number %s is not the next one (expected %s)',
                p_room, p_n, r.last_n + 1);
        END IF;
        INSERT INTO room_log (room_id, n, kind, seat, data, at)
        VALUES (p_room, p_n, p_kind, p_seat, p_data, p_at);
    END $$
    """,
    # A run of appends (a turn's moves) in one call, set-based: one UPDATE claims every room's
    # run of numbers and one INSERT writes the entries. The fast path takes a batch whose runs
    # are all in order and next, with one fencing number per room; anything else (a refusal,
    # or an odd batch) is undone and replayed write by write, which says exactly why.
    """
    CREATE FUNCTION gamehall_append_many(p_rooms text[], p_ns integer[], p_kinds text[],
                                         p_seats integer[], p_data text[],
                                         p_ats double precision[], p_fences bigint[])
    RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
        claimed integer;
    BEGIN
        BEGIN
            WITH items AS (
                SELECT u.room, u.n, u.fence,
                       u.n - row_number() OVER (PARTITION BY u.room ORDER BY u.ord) AS base
                FROM unnest(p_rooms, p_ns, p_fences) WITH ORDINALITY AS u(room, n, fence, ord)
            ), runs AS (
                SELECT room, min(base) AS base, count(DISTINCT base) AS bases, max(n) AS last,
                       min(fence) AS fence, count(DISTINCT fence) AS fences
                FROM items GROUP BY room
            )
            UPDATE rooms SET last_n = runs.last,
                             fence = GREATEST(rooms.fence, COALESCE(runs.fence, 0))
            FROM runs
            WHERE rooms.room_id = runs.room AND runs.bases = 1 AND rooms.last_n = runs.base
              AND rooms.finished_at IS NULL AND runs.fences <= 1
              AND (runs.fence IS NULL OR rooms.fence <= runs.fence);
            GET DIAGNOSTICS claimed = ROW_COUNT;
            IF claimed <> (SELECT count(DISTINCT room) FROM unnest(p_rooms) AS u(room)) THEN
                RAISE EXCEPTION USING ERRCODE = 'GH999';  -- not the fast case: undo, go slow
            END IF;
        EXCEPTION WHEN SQLSTATE 'GH999' THEN
            FOR i IN 1 .. COALESCE(array_length(p_rooms, 1), 0) LOOP
                PERFORM gamehall_append(p_rooms[i], p_ns[i], p_kinds[i], p_seats[i], p_data[i],
                                        p_ats[i], p_fences[i]);
            END LOOP;
            RETURN;
        END;
        INSERT INTO room_log (room_id, n, kind, seat, data, at)
        SELECT * FROM unnest(p_rooms, p_ns, p_kinds, p_seats, p_data, p_ats);
    END $$
    """,
    # Merge like dict.update: a known key gets its new value in place, a new key is added at
    # the end. Meta is kept as keys and JSON values side by side, so PostgreSQL never parses
    # JSON (its parser refuses \u0000, which a room title may hold).
    """
    CREATE FUNCTION gamehall_update_meta(p_room text, p_keys text[], p_values text[], p_fence bigint)
    RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
        r rooms := gamehall_owned_room(p_room, p_fence);
        keys text[] := r.meta_keys;
        vals text[] := r.meta_values;
        i integer;
        j integer;
    BEGIN
        FOR i IN 1 .. COALESCE(array_length(p_keys, 1), 0) LOOP
            j := array_position(keys, p_keys[i]);
            IF j IS NULL THEN
                keys := keys || p_keys[i];
                vals := vals || p_values[i];
            ELSE
                vals[j] := p_values[i];
            END IF;
        END LOOP;
        UPDATE rooms SET meta_keys = keys, meta_values = vals WHERE room_id = p_room;
    END $$
    """,
    """
    CREATE FUNCTION gamehall_finish(p_room text, p_result text, p_at double precision,
                                    p_fence bigint)
    RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
        r rooms := gamehall_owned_room(p_room, p_fence);
    BEGIN
        IF r.finished_at IS NOT NULL THEN
            RAISE EXCEPTION USING ERRCODE = 'GH000',
                MESSAGE = format('room %s is already finished', p_room);
        END IF;
        UPDATE rooms SET finished_at = p_at, result = p_result WHERE room_id = p_room;
    END $$
    """,
)

_CG = (
    """
    CREATE TABLE cg_accounts (
        uuid        text PRIMARY KEY,
        username    text NOT NULL,
        name_key    text NOT NULL UNIQUE,          -- lower-cased username
        pwd_hash    text NOT NULL,                 -- scrypt$n$salt$hash, never the password
        profile_img text NOT NULL DEFAULT 'default',
        blocked     boolean NOT NULL DEFAULT false
    )
    """,
    "CREATE TABLE cg_server (key text PRIMARY KEY, value text NOT NULL)",
    """
    CREATE TABLE cg_saved_games (
        game_id  text PRIMARY KEY,                 -- the id inside the game.save token
        state    text NOT NULL,                    -- the engine's to_json, as JSON text
        saved_at double precision NOT NULL
    )
    """,
    "CREATE TABLE cg_secret (key text PRIMARY KEY, value text NOT NULL)",
)

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    _ROOMS,  # 1: rooms, their logs, and the functions that check every write
    _CG,  # 2: cg accounts, the server uuid, saved games and their signing secret
)
"""Schema changes in order; migration ``i`` (1-based) is recorded as version ``i``."""

_MIGRATION_LOCK = "SELECT pg_advisory_xact_lock(hashtext('gamehall migrations ' || current_schema()))"
"""Held until the migrating transaction ends: the second node to start waits, then finds the
migrations applied. Keyed by schema, so separate schemas (tests) do not wait for each other."""

_ROOM_COLUMNS = "room_id, game, config, seed, meta_keys, meta_values, created_at, finished_at, result"
_ENTRY_COLUMNS = "n, kind, seat, data, at"

_Statement = tuple[str, tuple[Any, ...]]
_T = TypeVar("_T")


def connect(url: str, **kwargs: Any) -> psycopg.Connection[Any]:
    """A synchronous autocommit connection to ``url``.

    Raises:
        StoreError: the database cannot be reached.
    """
    try:
        return psycopg.connect(url, autocommit=True, **kwargs)
    except psycopg.Error as exc:
        raise StoreError(f"cannot connect to the store at {redact(url)}: {exc}") from exc


def redact(url: str) -> str:
    """``url`` without its password, for messages and logs."""
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if not sep or not at or ":" not in credentials:
        return url
    return f"{scheme}://{credentials.split(':', 1)[0]}:***@{host}"


def migrate(conn: psycopg.Connection[Any]) -> int:
    """Apply the missing :data:`MIGRATIONS` in one transaction, under the advisory lock, and
    return the schema version. Idempotent.

    Raises:
        StoreError: the database has a newer schema than this gamehall knows, or failed.
    """
    try:
        with conn.transaction():
            conn.execute(_MIGRATION_LOCK)
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            row = conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()
            version = int(row[0]) if row else 0
            if version > len(MIGRATIONS):
                raise StoreError(
                    f"the store has schema version {version}, newer than this gamehall knows "
                    f"({len(MIGRATIONS)}); upgrade gamehall"
                )
            for number, statements in enumerate(MIGRATIONS[version:], start=version + 1):
                for statement in statements:
                    conn.execute(statement)
                conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (number,))
    except psycopg.Error as exc:
        raise StoreError(f"cannot migrate the store: {exc}") from exc
    return len(MIGRATIONS)


def store_error(exc: psycopg.Error) -> StoreError:
    """The store's exception for a database error: a refusal keeps its message."""
    message = exc.diag.message_primary or str(exc)
    if exc.sqlstate == FENCED:
        return FencedError(message)
    if exc.sqlstate == REFUSED:
        return StoreError(message)
    return StoreError(f"database error: {exc}")


class PostgresStore(OneWriteCalls):
    """Rooms and logs in PostgreSQL; see the module docstring.

    Opening connects (synchronously) and applies the migrations; the connection for batch
    commits is opened by the first :meth:`commit`'s awaitable, on the loop that awaits it.

    Raises:
        StoreError: the database cannot be reached or migrated.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self._lock = threading.Lock()
        conn = connect(url)
        try:
            migrate(conn)
        except BaseException:
            conn.close()
            raise
        conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        self._conn: psycopg.Connection[Any] | None = conn
        self._writer: psycopg.AsyncConnection[Any] | None = None
        self._closed = False

    def schema_version(self) -> int:
        """The highest migration applied."""
        with self._connection() as conn:
            row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
        return int(row[0]) if row else 0

    # ----------------------------------------------------------------------------------------
    # Writes
    # ----------------------------------------------------------------------------------------

    def commit(self, batch: Batch) -> Coroutine[Any, Any, None] | None:
        """Return an awaitable that writes ``batch`` in one transaction (one round trip) and
        finishes when it is committed; ``None`` for an empty batch.

        Every value is checked and encoded here, before anything is sent, so a bad value
        raises :class:`StoreError` at once and the hall's outbox treats it as a failed commit.

        Raises:
            StoreError: (here) a value is refused; (from the awaitable) PostgreSQL refused a
                write or failed; :class:`FencedError` when a fencing number is too low.
                Nothing of the batch is written then.
        """
        if self._closed:
            raise StoreError("the store is closed")
        if not batch:
            return None
        return self._commit_async(_statements(batch))

    async def _commit_async(self, statements: list[_Statement]) -> None:
        try:
            conn = await self._writer_connection()
            async with conn.pipeline(), conn.transaction():
                for sql, params in statements:
                    await conn.execute(sql, params)
        except psycopg.Error as exc:
            raise store_error(exc) from exc

    async def _writer_connection(self) -> psycopg.AsyncConnection[Any]:
        if self._closed:
            raise StoreError("the store is closed")
        if self._writer is None or self._writer.closed:
            self._writer = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        return self._writer

    def commit_now(self, batch: Batch) -> None:
        """Write ``batch`` in one transaction on the synchronous connection; committed when
        this returns (tools, tests and the one-write methods).

        Raises:
            StoreError: as :meth:`commit`.
        """
        statements = _statements(batch)
        if not statements:
            return
        with self._connection() as conn, conn.pipeline(), conn.transaction():
            for sql, params in statements:
                conn.execute(sql, params)

    def room_fence(self, room_id: str) -> int | None:
        """The room's stored fencing number (``None``: no such room)."""
        with self._connection() as conn:
            row = conn.execute("SELECT fence FROM rooms WHERE room_id = %s", (room_id,)).fetchone()
        return None if row is None else int(row[0])

    # ----------------------------------------------------------------------------------------
    # Reads (one REPEATABLE READ transaction each: a room and its log from the same instant)
    # ----------------------------------------------------------------------------------------

    def load_room(self, room_id: str) -> RoomRecord | None:
        return self._read(partial(_load_room, room_id=room_id))

    def unfinished_rooms(self) -> list[RoomRecord]:
        return self._read(_unfinished_rooms)

    def unfinished_room_ids(self) -> list[str]:
        return self._read(_unfinished_room_ids)

    def recent_rooms(self, limit: int = 50, game: str | None = None) -> list[RoomRecord]:
        return self._read(partial(_recent_rooms, limit=max(limit, 0), game=game))

    # ----------------------------------------------------------------------------------------
    # Plumbing
    # ----------------------------------------------------------------------------------------

    def _read(self, read: Callable[[psycopg.Connection[Any]], _T]) -> _T:
        """``read`` on the synchronous connection; if the connection turns out broken (the
        database restarted since the last call), once more on a new one: reads are safe to
        repeat, and a replay page should not fail for a connection nobody used for hours."""
        try:
            with self._connection() as conn:
                return read(conn)
        except StoreError as exc:
            if not isinstance(exc.__cause__, psycopg.OperationalError):
                raise
        with self._connection() as conn:
            return read(conn)

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """The synchronous connection, held under the lock, database errors as StoreError; a
        connection a failure left broken is replaced first."""
        with self._lock:
            conn = self._conn
            if conn is None:
                raise StoreError("the store is closed")
            if conn.closed:
                conn = self._conn = connect(self.url)
                conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
            try:
                yield conn
            except psycopg.Error as exc:
                raise store_error(exc) from exc

    def close(self) -> None:
        """Close both connections. A commit still under way fails; the server waits for its
        outbox before closing (:meth:`aclose` waits for nothing more)."""
        self._closed = True
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
        if self._writer is not None and not self._writer.closed:
            self._writer.pgconn.finish()  # what AsyncConnection.close does, without a loop
        self._writer = None

    async def aclose(self) -> None:
        """:meth:`close`, closing the commit connection on its own loop."""
        writer, self._writer = self._writer, None
        self.close()
        if writer is not None:
            await writer.close()


# --------------------------------------------------------------------------------------------
# One write as one function call (checked and encoded in Python first)
# --------------------------------------------------------------------------------------------


_APPEND_MANY = (
    "SELECT gamehall_append_many(%s::text[], %s::integer[], %s::text[], %s::integer[],"
    " %s::text[], %s::float8[], %s::bigint[])"
)


def _statements(batch: Batch) -> list[_Statement]:
    """The batch as function calls, in order; each run of consecutive appends is one call
    (:func:`_appends`), the other writes one call each."""
    statements: list[_Statement] = []
    run: list[Append] = []
    for write in batch:
        if isinstance(write, Append):
            run.append(write)
            continue
        if run:
            statements.append(_appends(run))
            run = []
        statements.append(_statement(write))
    if run:
        statements.append(_appends(run))
    return statements


def _appends(run: list[Append]) -> _Statement:
    """Consecutive appends as one ``gamehall_append_many`` call (columns as arrays)."""
    if len(run) == 1:
        return _statement(run[0])
    columns: tuple[list[Any], ...] = ([], [], [], [], [], [], [])
    for write in run:
        _, params = _statement(write)
        for column, value in zip(columns, params, strict=True):
            column.append(value)
    return _APPEND_MANY, columns


def _statement(write: Write) -> _Statement:
    room_id = write.room_id
    if not isinstance(room_id, str):
        raise StoreError(f"room id must be text (got {room_id!r})")
    fence = _check_fence(room_id, write.fence)
    if isinstance(write, NewRoom):
        keys, values = _meta_arrays(room_id, write.meta)
        return (
            "SELECT gamehall_create_room(%s, %s, %s, %s::numeric, %s::text[], %s::text[], %s, %s::bigint)",
            (
                room_id,
                write.game,
                encode_mapping(write.config, f"room {room_id}: config"),
                check_seed(write.seed),
                keys,
                values,
                check_time(write.created_at, f"room {room_id}: created_at"),
                fence,
            ),
        )
    if isinstance(write, Append):
        entry = write.entry
        check_entry_shape(room_id, entry)
        data = encode_json(entry.data, f"room {room_id}: entry {entry.n} data")
        return (
            "SELECT gamehall_append(%s, %s::integer, %s, %s::integer, %s, %s, %s::bigint)",
            (room_id, entry.n, entry.kind, entry.seat, data, float(entry.at), fence),
        )
    if isinstance(write, MetaUpdate):
        keys, values = _meta_arrays(room_id, write.meta)
        return (
            "SELECT gamehall_update_meta(%s, %s::text[], %s::text[], %s::bigint)",
            (room_id, keys, values, fence),
        )
    result = encode_json(write.result, f"room {room_id}: result")
    when = check_time(write.finished_at, f"room {room_id}: finished_at")
    return ("SELECT gamehall_finish(%s, %s, %s, %s::bigint)", (room_id, result, when, fence))


def _meta_arrays(room_id: str, meta: Mapping[str, JSON]) -> tuple[list[str], list[str]]:
    """``meta``'s keys, and each value as JSON text (refused like the other stores refuse it)."""
    encode_mapping(meta, f"room {room_id}: meta")  # a mapping of str keys, every value JSON
    keys = list(meta)
    return keys, [encode_json(meta[key], f"room {room_id}: meta") for key in keys]


def _check_fence(room_id: str, fence: int | None) -> int | None:
    if fence is None:
        return None
    if isinstance(fence, bool) or not isinstance(fence, int) or not 0 <= fence < 2**63:
        raise StoreError(f"room {room_id}: fencing number must be None or a bigint >= 0 (got {fence!r})")
    return fence


# --------------------------------------------------------------------------------------------
# Reads, each given the synchronous connection (PostgresStore._read)
# --------------------------------------------------------------------------------------------


def _load_room(conn: psycopg.Connection[Any], room_id: str) -> RoomRecord | None:
    with conn.transaction():
        row = conn.execute(f"SELECT {_ROOM_COLUMNS} FROM rooms WHERE room_id = %s", (room_id,)).fetchone()
        if row is None:
            return None
        entries = conn.execute(
            f"SELECT {_ENTRY_COLUMNS} FROM room_log WHERE room_id = %s ORDER BY n", (room_id,)
        ).fetchall()
    return _record(row, entries)


def _unfinished_rooms(conn: psycopg.Connection[Any]) -> list[RoomRecord]:
    with conn.transaction():
        rows = conn.execute(
            f"SELECT {_ROOM_COLUMNS} FROM rooms WHERE finished_at IS NULL ORDER BY created_at, seq"
        ).fetchall()
        logs: dict[str, list[tuple[Any, ...]]] = {row[0]: [] for row in rows}
        for room_id, *entry in conn.execute(
            f"SELECT l.room_id, {', '.join('l.' + c for c in _ENTRY_COLUMNS.split(', '))}"
            " FROM room_log l JOIN rooms r USING (room_id)"
            " WHERE r.finished_at IS NULL ORDER BY l.room_id, l.n"
        ):
            logs[room_id].append(tuple(entry))
    return [_record(row, logs[row[0]]) for row in rows]


def _unfinished_room_ids(conn: psycopg.Connection[Any]) -> list[str]:
    """One query over the partial index ``rooms_unfinished``: no log is read."""
    rows = conn.execute(
        "SELECT room_id FROM rooms WHERE finished_at IS NULL ORDER BY created_at, seq"
    ).fetchall()
    return [str(row[0]) for row in rows]


def _recent_rooms(conn: psycopg.Connection[Any], limit: int, game: str | None) -> list[RoomRecord]:
    rows = conn.execute(
        f"SELECT {_ROOM_COLUMNS} FROM rooms WHERE %(game)s::text IS NULL OR game = %(game)s"
        " ORDER BY created_at DESC, seq DESC LIMIT %(limit)s",
        {"game": game, "limit": limit},
    ).fetchall()
    return [_record(row, ()) for row in rows]


def _record(row: Sequence[Any], entries: Sequence[Sequence[Any]]) -> RoomRecord:
    room_id, game, config, seed, meta_keys, meta_values, created_at, finished_at, result = row
    return RoomRecord(
        room_id=room_id,
        game=game,
        config=decode_json(config),
        seed=int(seed),
        meta={key: decode_json(value) for key, value in zip(meta_keys, meta_values, strict=True)},
        created_at=created_at,
        finished_at=finished_at,
        result=None if result is None else decode_json(result),
        entries=tuple(
            LogEntry(n=n, kind=kind, seat=seat, data=decode_json(data), at=at)
            for n, kind, seat, data, at in entries
        ),
    )

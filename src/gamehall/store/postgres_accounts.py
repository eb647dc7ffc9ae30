"""cg accounts and saved games in PostgreSQL, beside the rooms (``--db postgresql://...``).

The same contracts as the SQLite versions (:mod:`gamehall.store.accounts`,
:mod:`gamehall.store.saved_games`): scrypt hashes only, names unique case-insensitively (a
``UNIQUE`` lower-cased key, so two nodes registering one name at once cannot both win), one
server uuid and one token secret per database, made by whichever node comes first
(``INSERT ... ON CONFLICT DO NOTHING`` then read back, so every node agrees). The tables are
created by the store's migrations (:data:`gamehall.store.postgres.MIGRATIONS`, version 2), which
:func:`open_accounts` applies first.

Calls are synchronous, each on this object's own connection under a lock: password checks run
off the loop (the server's hash thread) and the rest are single-row statements.
"""

from __future__ import annotations

import json
import os
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg

from gamehall.protocols.cg.accounts import Account
from gamehall.store.accounts import AccountLookups, hash_password, password_matches
from gamehall.store.base import StoreError
from gamehall.store.postgres import connect, migrate, store_error
from gamehall.store.saved_games import SECRET_BYTES


class _Connection:
    """One autocommit connection shared by the accounts and their saved games, under a lock."""

    def __init__(self, url: str) -> None:
        self._lock = threading.Lock()
        self._conn: psycopg.Connection[Any] | None = connect(url)

    @contextmanager
    def use(self) -> Iterator[psycopg.Connection[Any]]:
        with self._lock:
            if self._conn is None:
                raise StoreError("the account store is closed")
            try:
                yield self._conn
            except psycopg.Error as exc:
                raise store_error(exc) from exc

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None


def _made_once(db: _Connection, table: str, key: str, fresh: str) -> str:
    """The value of ``key`` in ``table``, set to ``fresh`` by the first caller ever."""
    with db.use() as conn:
        conn.execute(
            f"INSERT INTO {table} (key, value) VALUES (%s, %s) ON CONFLICT (key) DO NOTHING", (key, fresh)
        )
        row = conn.execute(f"SELECT value FROM {table} WHERE key = %s", (key,)).fetchone()
    assert row is not None  # inserted above or before
    return str(row[0])


class PostgresSavedGames:
    """Adjourned cg games in PostgreSQL (``cg_saved_games``, the secret in ``cg_secret``)."""

    def __init__(self, db: _Connection) -> None:
        self._db = db
        self._secret = bytes.fromhex(_made_once(db, "cg_secret", "jwt", os.urandom(SECRET_BYTES).hex()))

    def secret(self) -> bytes:
        return self._secret

    def put(self, game_id: str, state: dict[str, Any], saved_at: float) -> None:
        with self._db.use() as conn:
            conn.execute(
                "INSERT INTO cg_saved_games (game_id, state, saved_at) VALUES (%s, %s, %s)"
                " ON CONFLICT (game_id) DO UPDATE SET state = excluded.state, saved_at = excluded.saved_at",
                (game_id, json.dumps(state), saved_at),
            )

    def get(self, game_id: str) -> dict[str, Any] | None:
        with self._db.use() as conn:
            row = conn.execute("SELECT state FROM cg_saved_games WHERE game_id = %s", (game_id,)).fetchone()
        return None if row is None else dict(json.loads(str(row[0])))


class PostgresAccounts(AccountLookups):
    """cg accounts in PostgreSQL; see the module docstring. Open with :func:`open_accounts`."""

    def __init__(self, url: str, *, allow_new: bool = True) -> None:
        self._allow_new = allow_new
        self._db = _Connection(url)
        self._server_id = _made_once(self._db, "cg_server", "serverid", uuid.uuid4().hex)
        self._saved: PostgresSavedGames | None = None

    def close(self) -> None:
        self._db.close()

    def saved_games(self) -> PostgresSavedGames:
        if self._saved is None:
            self._saved = PostgresSavedGames(self._db)
        return self._saved

    @property
    def allow_new(self) -> bool:
        return self._allow_new

    def server_id(self) -> str:
        return self._server_id

    def _one(self, where: str, value: str) -> tuple[Account, str] | None:
        with self._db.use() as conn:
            row = conn.execute(
                f"SELECT uuid, username, profile_img, blocked, pwd_hash FROM cg_accounts WHERE {where} = %s",
                (value,),
            ).fetchone()
        if row is None:
            return None
        return Account(str(row[0]), str(row[1]), str(row[2]), bool(row[3])), str(row[4])

    def create(self, username: str, password: str) -> Account | None:
        account = Account(uuid.uuid4().hex, username)
        pwd_hash = hash_password(password)  # outside the lock: it takes tens of milliseconds
        with self._db.use() as conn:
            row = conn.execute(
                "INSERT INTO cg_accounts (uuid, username, name_key, pwd_hash) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (name_key) DO NOTHING RETURNING uuid",
                (account.uuid, username, username.lower(), pwd_hash),
            ).fetchone()
        return None if row is None else account

    def change_password(self, account_uuid: str, old: str, new: str) -> bool:
        found = self._one("uuid", account_uuid)
        if found is None or not password_matches(old, found[1]):
            return False
        pwd_hash = hash_password(new)
        with self._db.use() as conn:
            conn.execute("UPDATE cg_accounts SET pwd_hash = %s WHERE uuid = %s", (pwd_hash, account_uuid))
        return True

    def rename(self, account_uuid: str, username: str) -> bool:
        try:
            with self._db.use() as conn:
                cursor = conn.execute(
                    "UPDATE cg_accounts SET username = %s, name_key = %s WHERE uuid = %s",
                    (username, username.lower(), account_uuid),
                )
        except StoreError as exc:
            if isinstance(exc.__cause__, psycopg.errors.UniqueViolation):
                return False
            raise
        return cursor.rowcount == 1

    def set_profile_img(self, account_uuid: str, profile_img: str) -> None:
        with self._db.use() as conn:
            conn.execute(
                "UPDATE cg_accounts SET profile_img = %s WHERE uuid = %s", (profile_img, account_uuid)
            )


def open_accounts(url: str, *, allow_new: bool = True) -> PostgresAccounts:
    """The accounts of the database at ``url``, its migrations applied first.

    Raises:
        StoreError: the database cannot be reached or migrated.
    """
    conn = connect(url)
    try:
        migrate(conn)
    finally:
        conn.close()
    return PostgresAccounts(url, allow_new=allow_new)

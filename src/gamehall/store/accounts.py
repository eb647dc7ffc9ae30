"""Storage of cg accounts (``gamehall.protocols.cg.accounts.Accounts``): SQLite and in memory.

Passwords are kept only as ``hashlib.scrypt`` hashes (n=2^14, r=8, p=1, a 16-byte random salt),
stored as ``scrypt$<n>$<salt hex>$<hash hex>``; nothing here returns a hash. The SQLite version uses
its own table (``cg_accounts``) and a one-row ``cg_server`` table for the server uuid, in the
hall's database file, through a connection of its own.
"""

from __future__ import annotations

import abc
import hashlib
import hmac
import os
import sqlite3
import threading
import uuid
from dataclasses import dataclass, replace
from pathlib import Path

from gamehall.protocols.cg.accounts import Account
from gamehall.store.saved_games import MemorySavedGames, SqliteSavedGames

SCRYPT_N = 2**14
SCRYPT_R = 8
SCRYPT_P = 1


def hash_password(password: str, salt: bytes | None = None, *, n: int = SCRYPT_N) -> str:
    """``scrypt$<n>$<salt hex>$<hash hex>``: the work factor travels with the hash."""
    salt = os.urandom(16) if salt is None else salt
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=SCRYPT_R, p=SCRYPT_P)
    return f"scrypt${n}${salt.hex()}${digest.hex()}"


def password_matches(password: str, stored: str) -> bool:
    try:
        scheme, n_text, salt_hex, _digest = stored.split("$")
        salt, n = bytes.fromhex(salt_hex), int(n_text)
    except ValueError:
        return False
    if scheme != "scrypt" or n < 2 or n & (n - 1):
        return False
    return hmac.compare_digest(hash_password(password, salt, n=n), stored)


@dataclass
class _Row:
    account: Account
    pwd_hash: str


class MemoryAccounts:
    """Accounts in a dict (tests, and servers run with a memory store)."""

    def __init__(
        self, *, allow_new: bool = True, server_id: str | None = None, scrypt_n: int = SCRYPT_N
    ) -> None:
        self._allow_new = allow_new
        self._n = scrypt_n
        """The scrypt work factor of new hashes (tests may lower it; the server never does)."""
        self._server_id = server_id or uuid.uuid4().hex
        self._rows: dict[str, _Row] = {}
        self._saved = MemorySavedGames()

    def saved_games(self) -> MemorySavedGames:
        return self._saved

    @property
    def allow_new(self) -> bool:
        return self._allow_new

    def server_id(self) -> str:
        return self._server_id

    def stored_hash(self, username: str) -> str | None:
        """For tests: what is kept instead of the password."""
        row = self._by_name(username)
        return None if row is None else row.pwd_hash

    def _by_name(self, username: str) -> _Row | None:
        lowered = username.lower()
        return next((r for r in self._rows.values() if r.account.username.lower() == lowered), None)

    def find(self, username: str) -> Account | None:
        row = self._by_name(username)
        return None if row is None else row.account

    def get(self, account_uuid: str) -> Account | None:
        row = self._rows.get(account_uuid)
        return None if row is None else row.account

    def create(self, username: str, password: str) -> Account | None:
        if self._by_name(username) is not None:
            return None
        account = Account(uuid.uuid4().hex, username)
        self._rows[account.uuid] = _Row(account, hash_password(password, n=self._n))
        return account

    def verify(self, username: str, password: str) -> Account | None:
        row = self._by_name(username)
        if row is None or not password_matches(password, row.pwd_hash):
            return None
        return row.account

    def change_password(self, account_uuid: str, old: str, new: str) -> bool:
        row = self._rows.get(account_uuid)
        if row is None or not password_matches(old, row.pwd_hash):
            return False
        row.pwd_hash = hash_password(new, n=self._n)
        return True

    def rename(self, account_uuid: str, username: str) -> bool:
        row = self._rows.get(account_uuid)
        other = self._by_name(username)
        if row is None or (other is not None and other is not row):
            return False
        row.account = replace(row.account, username=username)
        return True

    def set_profile_img(self, account_uuid: str, profile_img: str) -> None:
        row = self._rows.get(account_uuid)
        if row is not None:
            row.account = replace(row.account, profile_img=profile_img)


_SCHEMA = (
    """
    CREATE TABLE IF NOT EXISTS cg_accounts (
        uuid        TEXT PRIMARY KEY NOT NULL,
        username    TEXT NOT NULL,
        name_key    TEXT NOT NULL UNIQUE,       -- lower-cased username
        pwd_hash    TEXT NOT NULL,              -- scrypt$salt$hash, never the password
        profile_img TEXT NOT NULL DEFAULT 'default',
        blocked     INTEGER NOT NULL DEFAULT 0
    )
    """,
    "CREATE TABLE IF NOT EXISTS cg_server (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)",
)


class AccountLookups(abc.ABC):
    """``find``, ``get`` and ``verify`` of a database-backed account store, written once over
    its one query, :meth:`_one` (the account and its password hash by name key or uuid)."""

    @abc.abstractmethod
    def _one(self, where: str, value: str) -> tuple[Account, str] | None:
        """The account whose column ``where`` equals ``value``, with its password hash."""

    def find(self, username: str) -> Account | None:
        found = self._one("name_key", username.lower())
        return None if found is None else found[0]

    def get(self, account_uuid: str) -> Account | None:
        found = self._one("uuid", account_uuid)
        return None if found is None else found[0]

    def verify(self, username: str, password: str) -> Account | None:
        found = self._one("name_key", username.lower())
        if found is None or not password_matches(password, found[1]):
            return None
        return found[0]


class SqliteAccounts(AccountLookups):
    """Accounts in the hall's SQLite file (its own tables and connection)."""

    def __init__(self, path: str | Path, *, allow_new: bool = True) -> None:
        self._allow_new = allow_new
        self._path = path
        self._saved: SqliteSavedGames | None = None
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA busy_timeout = 5000")
        for statement in _SCHEMA:
            self._db.execute(statement)
        row = self._db.execute("SELECT value FROM cg_server WHERE key = 'serverid'").fetchone()
        if row is None:
            self._server_id = uuid.uuid4().hex
            self._db.execute("INSERT INTO cg_server VALUES ('serverid', ?)", (self._server_id,))
        else:
            self._server_id = str(row[0])

    def close(self) -> None:
        self._db.close()
        if self._saved is not None:
            self._saved.close()

    def saved_games(self) -> SqliteSavedGames:
        """The saved games in the same database file (opened on first use)."""
        if self._saved is None:
            self._saved = SqliteSavedGames(self._path)
        return self._saved

    @property
    def allow_new(self) -> bool:
        return self._allow_new

    def server_id(self) -> str:
        return self._server_id

    def _one(self, where: str, value: str) -> tuple[Account, str] | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT uuid, username, profile_img, blocked, pwd_hash FROM cg_accounts WHERE {where} = ?",
                (value,),
            ).fetchone()
        if row is None:
            return None
        return Account(str(row[0]), str(row[1]), str(row[2]), bool(row[3])), str(row[4])

    def create(self, username: str, password: str) -> Account | None:
        account = Account(uuid.uuid4().hex, username)
        try:
            with self._lock:
                self._db.execute(
                    "INSERT INTO cg_accounts (uuid, username, name_key, pwd_hash) VALUES (?, ?, ?, ?)",
                    (account.uuid, username, username.lower(), hash_password(password)),
                )
        except sqlite3.IntegrityError:
            return None
        return account

    def change_password(self, account_uuid: str, old: str, new: str) -> bool:
        found = self._one("uuid", account_uuid)
        if found is None or not password_matches(old, found[1]):
            return False
        with self._lock:
            self._db.execute(
                "UPDATE cg_accounts SET pwd_hash = ? WHERE uuid = ?", (hash_password(new), account_uuid)
            )
        return True

    def rename(self, account_uuid: str, username: str) -> bool:
        try:
            with self._lock:
                cursor = self._db.execute(
                    "UPDATE cg_accounts SET username = ?, name_key = ? WHERE uuid = ?",
                    (username, username.lower(), account_uuid),
                )
        except sqlite3.IntegrityError:
            return False
        return cursor.rowcount == 1

    def set_profile_img(self, account_uuid: str, profile_img: str) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE cg_accounts SET profile_img = ? WHERE uuid = ?", (profile_img, account_uuid)
            )

"""Persistence of rooms and their logs (ARCHITECTURE.md, "store — nothing is lost").

``Store`` is the interface the hall uses; ``SqliteStore`` is the embedded default,
``MemoryStore`` the stand-in for unit tests, and ``PostgresStore``
(:mod:`gamehall.store.postgres`, imported only when used) the networked store of several
nodes. :func:`open_store` picks one from the ``--db`` setting.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamehall.store.base import LOG_KINDS, FencedError, LogEntry, RoomRecord, Store, StoreError
from gamehall.store.memory import MemoryStore
from gamehall.store.sqlite import SqliteStore

if TYPE_CHECKING:
    from gamehall.store.accounts import SqliteAccounts
    from gamehall.store.postgres_accounts import PostgresAccounts

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(db: str) -> bool:
    """Whether ``--db`` names a PostgreSQL database (a ``postgresql://`` URL) rather than a
    SQLite file."""
    return db.startswith(POSTGRES_SCHEMES)


def open_store(db: str) -> Store:
    """The store ``--db`` names: PostgreSQL for a ``postgresql://`` URL, else a SQLite file.

    Raises:
        StoreError: it cannot be opened (or reached, or migrated).
    """
    if is_postgres(db):
        from gamehall.store.postgres import PostgresStore

        return PostgresStore(db)
    return SqliteStore(db)


def open_accounts(db: str) -> SqliteAccounts | PostgresAccounts:
    """The cg accounts kept beside the store ``--db`` names."""
    if is_postgres(db):
        from gamehall.store.postgres_accounts import open_accounts as open_postgres_accounts

        return open_postgres_accounts(db)
    from gamehall.store.accounts import SqliteAccounts

    return SqliteAccounts(db)


__all__ = [
    "LOG_KINDS",
    "FencedError",
    "LogEntry",
    "MemoryStore",
    "RoomRecord",
    "SqliteStore",
    "Store",
    "StoreError",
    "is_postgres",
    "open_accounts",
    "open_store",
]

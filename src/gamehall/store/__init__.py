"""Persistence of rooms and their logs (ARCHITECTURE.md, "store — nothing is lost").

``Store`` is the interface the hall uses; ``SqliteStore`` is the embedded default and
``MemoryStore`` the stand-in for unit tests.
"""

from gamehall.store.base import LOG_KINDS, LogEntry, RoomRecord, Store, StoreError
from gamehall.store.memory import MemoryStore
from gamehall.store.sqlite import SqliteStore

__all__ = ["LOG_KINDS", "LogEntry", "MemoryStore", "RoomRecord", "SqliteStore", "Store", "StoreError"]

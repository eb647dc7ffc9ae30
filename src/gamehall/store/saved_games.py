"""Storage of adjourned cg games (``gamehall.protocols.cg.saves.SavedGames``): SQLite and memory.

A saved game is the engine's whole state as JSON, keyed by the game id its ``game.save`` token
names; the token itself holds no state (see :mod:`gamehall.protocols.cg.saves`). The server
secret that signs the tokens is made on first use and kept beside them. The SQLite version uses
its own tables (``cg_saved_games``, ``cg_secret``) in the hall's database file, through a
connection of its own, like :mod:`gamehall.store.accounts`.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

SECRET_BYTES = 32


class MemorySavedGames:
    """Saved games in a dict (tests, and servers run with a memory store)."""

    def __init__(self, secret: bytes | None = None) -> None:
        self._secret = secret or os.urandom(SECRET_BYTES)
        self._games: dict[str, str] = {}

    def secret(self) -> bytes:
        return self._secret

    def put(self, game_id: str, state: dict[str, Any], saved_at: float) -> None:
        self._games[game_id] = json.dumps(state)  # a copy, as the database would keep it

    def get(self, game_id: str) -> dict[str, Any] | None:
        text = self._games.get(game_id)
        return None if text is None else dict(json.loads(text))


_SCHEMA = (
    """
    CREATE TABLE IF NOT EXISTS cg_saved_games (
        game_id  TEXT PRIMARY KEY NOT NULL,   -- the id inside the game.save token
        state    TEXT NOT NULL,               -- the engine's to_json, as JSON text
        saved_at REAL NOT NULL
    )
    """,
    "CREATE TABLE IF NOT EXISTS cg_secret (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)",
)


class SqliteSavedGames:
    """Saved games in the hall's SQLite file."""

    def __init__(self, path: str | Path) -> None:
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA busy_timeout = 5000")
        for statement in _SCHEMA:
            self._db.execute(statement)
        self._db.execute(
            "INSERT OR IGNORE INTO cg_secret VALUES ('jwt', ?)", (os.urandom(SECRET_BYTES).hex(),)
        )
        row = self._db.execute("SELECT value FROM cg_secret WHERE key = 'jwt'").fetchone()
        self._secret = bytes.fromhex(str(row[0]))

    def close(self) -> None:
        self._db.close()

    def secret(self) -> bytes:
        return self._secret

    def put(self, game_id: str, state: dict[str, Any], saved_at: float) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO cg_saved_games VALUES (?, ?, ?)",
                (game_id, json.dumps(state), saved_at),
            )

    def get(self, game_id: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute(
                "SELECT state FROM cg_saved_games WHERE game_id = ?", (game_id,)
            ).fetchone()
        return None if row is None else dict(json.loads(str(row[0])))

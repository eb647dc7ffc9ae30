"""The real PostgreSQL for tests: a fresh schema per test, dropped afterwards.

The service is at ``127.0.0.1:5432`` (trust auth, database ``test``; ``GAMEHALL_TEST_POSTGRES``
names another). A test that needs it and cannot reach it is *skipped* on a developer's machine
and *fails* when ``CI`` is set: there the service is part of the environment, and a missing
one must not turn the suite green by skipping.

:func:`postgres_schema` gives a URL whose connections see only a new schema
(``options=-csearch_path=...``), so tests running side by side never meet and the schema,
with every table the store made in it, is dropped at the end.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import quote

import psycopg
import pytest

from gamehall.store.base import Batch
from gamehall.store.postgres import PostgresStore

SERVER_URL = os.environ.get("GAMEHALL_TEST_POSTGRES", "postgresql://127.0.0.1:5432/test")


def require_postgres() -> None:
    """Skip the calling test when PostgreSQL is unreachable (fail instead when ``CI`` is set)."""
    try:
        psycopg.connect(SERVER_URL, connect_timeout=3).close()
    except psycopg.Error as exc:
        message = f"PostgreSQL is not reachable at {SERVER_URL}: {exc}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def schema_url(schema: str) -> str:
    """``SERVER_URL`` with its connections' search path set to ``schema``."""
    separator = "&" if "?" in SERVER_URL else "?"
    return f"{SERVER_URL}{separator}options={quote(f'-csearch_path={schema}')}"


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A URL on a new, empty schema, dropped with everything in it when the block ends."""
    require_postgres()
    schema = f"gh_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(SERVER_URL, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    try:
        yield schema_url(schema)
    finally:
        with psycopg.connect(SERVER_URL, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


class CommittingPostgresStore(PostgresStore):
    """A :class:`PostgresStore` whose :meth:`commit` waits for its own awaitable on a private
    loop, for the contract tests written against the embedded stores' shape (committed when
    ``commit`` returns). The batch still goes through the real background path."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self._loop = asyncio.new_event_loop()

    def commit(self, batch: Batch) -> Any:
        pending = super().commit(batch)
        if pending is not None:
            self._loop.run_until_complete(pending)
        return None

    def close(self) -> None:
        super().close()
        if not self._loop.is_closed():
            self._loop.close()

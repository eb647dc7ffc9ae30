"""The fixtures of the tests that run a hall of several nodes (tests/cluster, the two-node
browser test): ``redis_space``, this test's prefix on the real Redis (see :mod:`redis_space`),
and ``database``, a fresh schema on the real PostgreSQL for the nodes. Loaded for the whole
suite by tests/conftest.py."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from postgres_support import postgres_schema
from redis_space import RedisSpace, redis_space_for_test

import gamehall


@pytest.fixture
async def redis_space() -> AsyncIterator[RedisSpace]:
    async with redis_space_for_test() as space:
        yield space


@pytest.fixture
def database(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A fresh PostgreSQL schema's URL; the nodes (child processes) import the gamehall under
    test, wherever this run imports it from."""
    monkeypatch.setenv("PYTHONPATH", str(Path(gamehall.__file__).parents[1]))
    with postgres_schema() as url:
        yield url

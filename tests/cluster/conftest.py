"""The cluster tests' fixture: ``redis_space``, this test's prefix on the real Redis
(see :mod:`redis_space`)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from redis_space import RedisSpace, redis_space_for_test


@pytest.fixture
async def redis_space() -> AsyncIterator[RedisSpace]:
    async with redis_space_for_test() as space:
        yield space

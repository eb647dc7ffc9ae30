"""Helpers of the cluster tests: the real Redis at 127.0.0.1:6379, one key prefix per test.

A test's keys live under its own random prefix and are deleted afterwards (never FLUSHALL:
other sessions share this Redis). Without Redis the tests are skipped, except under CI (the
``CI`` environment variable set), where a missing Redis is a failure.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import pytest
from redis.asyncio import Redis
from redis.exceptions import RedisError

REDIS_URL = "redis://127.0.0.1:6379/0"


@dataclass
class RedisSpace:
    """A Redis client and the key prefix that is this test's alone."""

    client: Redis
    prefix: str
    url: str = REDIS_URL


async def _reachable(client: Redis) -> bool:
    try:
        return bool(await client.ping())
    except (RedisError, OSError):
        return False


@asynccontextmanager
async def redis_space_for_test(url: str = REDIS_URL) -> AsyncIterator[RedisSpace]:
    """This test's Redis space; skips (fails under CI) when Redis does not answer."""
    client = Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    if not await _reachable(client):
        await client.aclose()
        message = f"these tests need Redis at {url}"
        if os.environ.get("CI"):
            pytest.fail(f"{message} (CI is set: a missing service is a failure)")
        pytest.skip(message)
    space = RedisSpace(client, f"test-{secrets.token_hex(6)}:", url)
    try:
        yield space
    finally:
        keys = [key async for key in client.scan_iter(match=space.prefix + "*")]
        if keys:
            await client.delete(*keys)
        await client.aclose()


class PausableClock:
    """A monotonic clock a test moves by hand, to stand for a process that was paused."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

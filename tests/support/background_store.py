"""A store that commits in the background, as a networked one does (the contract of
``Store.commit``): the write lands when the returned awaitable finishes. The stand-in for
PostgreSQL in the outbox's and the write barrier's tests."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence

from gamehall.store.base import Write
from gamehall.store.memory import MemoryStore


class BackgroundStore(MemoryStore):
    """Each commit lands ``delay_s`` after it was handed over; ``fail_next`` makes the next
    one fail instead (a dropped database connection)."""

    def __init__(self, delay_s: float = 0.05) -> None:
        super().__init__()
        self.started = 0
        self.delay_s = delay_s
        self.fail_next = False

    def commit(self, batch: Sequence[Write]) -> Awaitable[None] | None:  # type: ignore[override]
        self.started += 1
        writes = list(batch)
        fail, self.fail_next = self.fail_next, False

        async def later() -> None:
            await asyncio.sleep(self.delay_s)
            if fail:
                raise ConnectionError("the database went away")
            MemoryStore.commit(self, writes)

        return later()

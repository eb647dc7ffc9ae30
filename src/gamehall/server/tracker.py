"""The set of open connections, for metrics and for a graceful shutdown.

At shutdown the server stops accepting, lets the hall say goodbye (every dialogue queues its
protocol's farewell and closes), then waits a short while for the connections to flush and end
before aborting whatever is left (:meth:`ConnectionTracker.drain`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from typing import Protocol

log = logging.getLogger("gamehall.server")

_ids = itertools.count(1)


def next_connection_id(protocol: str) -> str:
    """A short id for logs: ``aah#12``, ``web#3``."""
    return f"{protocol}#{next(_ids)}"


class TrackedConnection(Protocol):
    @property
    def connection_id(self) -> str: ...

    def close(self) -> None:
        """Flush, then close."""
        ...

    def abort(self) -> None:
        """Close now, dropping unsent data."""
        ...


class ConnectionTracker:
    """Open connections of every protocol, at most ``max_connections`` (0 = no limit)."""

    def __init__(self, max_connections: int = 0) -> None:
        self.max_connections = max_connections
        self.refused = 0
        self._open: dict[str, TrackedConnection] = {}
        self._empty = asyncio.Event()
        self._empty.set()

    def __len__(self) -> int:
        return len(self._open)

    def add(self, connection: TrackedConnection) -> bool:
        """Count ``connection`` in; ``False`` (and not added) when the server is full."""
        if self.max_connections and len(self._open) >= self.max_connections:
            self.refused += 1
            return False
        self._open[connection.connection_id] = connection
        self._empty.clear()
        return True

    def remove(self, connection: TrackedConnection) -> None:
        self._open.pop(connection.connection_id, None)
        if not self._open:
            self._empty.set()

    def close_all(self) -> None:
        """Ask every connection to flush and close."""
        for connection in list(self._open.values()):
            connection.close()

    def abort_all(self) -> None:
        """End every connection at once, unflushed: to its client it looks like a crash (a
        node's drain, where the clients must reconnect rather than hear "game over")."""
        for connection in list(self._open.values()):
            connection.abort()

    async def drain(self, timeout: float) -> int:
        """Close every connection, wait up to ``timeout`` seconds for them to end, abort the
        rest. Returns how many had to be aborted."""
        self.close_all()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._empty.wait(), timeout)
        stragglers = list(self._open.values())
        for connection in stragglers:
            log.info("%s did not finish flushing in %.1f s; aborted", connection.connection_id, timeout)
            connection.abort()
        return len(stragglers)

"""Failover: a node adopts the unfinished rooms whose owner died (docs/scale-out.md,
"Failover and drain").

A room's log lives in the shared store; its lease lives in Redis and expires ``ttl`` after its
owner last renewed it. So "the owner died" is visible as an unfinished room in the store with
no lease key. Every ``ttl / 2`` each node :meth:`Adoption.scan`\\ s for such rooms and, for each,
tries to take the lease (:meth:`~gamehall.cluster.leases.RoomLeases.acquire`, an atomic
``SET NX`` with the next fencing number). Two nodes racing for one room: Redis gives the lease
to one, the other's acquire returns ``None`` and it does nothing more.

The scan lists room ids only (:meth:`~gamehall.store.base.Store.unfinished_room_ids`), so its
cost does not grow with the logs of the rooms other nodes serve. The winner reads the room
(:meth:`~gamehall.store.base.Store.load_room`) only *after* it holds the lease (so it sees
everything the old owner committed) and rebuilds it exactly as a restart does
(:func:`gamehall.hall.recovery.restore_record`: replay, seats held for their owners, bots
re-seated, timers from the log). Its first commit carries the new, higher fencing number, so
a write the dead owner still had on the wire can no longer land (the PostgreSQL store's
fencing). The same scan, run once before the listeners start, is the node's start-up restore:
a node restores only the rooms it can take the lease of.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from redis.exceptions import RedisError

from gamehall.hall.recovery import restore_record

if TYPE_CHECKING:
    from gamehall.cluster.leases import RoomLeases
    from gamehall.hall.hall import Hall

log = logging.getLogger("gamehall.cluster")


class Adoption:
    """Periodic adoption of ownerless rooms by ``hall`` through ``leases`` (module docstring)."""

    def __init__(self, hall: Hall, leases: RoomLeases) -> None:
        self.hall = hall
        self.leases = leases
        self.interval = leases.ttl / 2
        """Seconds between two scans: a dead owner's rooms come back within ttl + interval."""
        self._task: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()

    async def scan(self) -> int:
        """Adopt every unfinished room of the store that no node holds; returns how many came
        back here. A Redis or store failure ends this scan (logged); the next one retries."""
        try:
            candidates = await self._ownerless()
        except RedisError as exc:
            log.warning("adoption scan: Redis failed (%s); retrying in %.1f s", exc, self.interval)
            return 0
        adopted = 0
        for room_id in candidates:
            if await self._adopt(room_id):
                adopted += 1
        if adopted:
            self.hall.flush()  # the fencing writes go out before any player reaches the rooms
        return adopted

    async def _ownerless(self) -> list[str]:
        """The unfinished rooms of the store that do not live here and have no lease key: ids
        only (no log is read until :meth:`_adopt` holds a room's lease)."""
        known = self.hall.directory
        room_ids = [rid for rid in self.hall.store.unfinished_room_ids() if known.get(rid) is None]
        if not room_ids:
            return []
        values = await self.leases.redis.mget([self.leases.lease_key(room_id) for room_id in room_ids])
        return [room_id for room_id, value in zip(room_ids, values, strict=True) if value is None]

    async def _adopt(self, room_id: str) -> bool:
        """Take the room's lease and rebuild it here; False when another node won the race,
        the room finished meanwhile, or it cannot be rebuilt (its lease is given back)."""
        lease = await self.leases.acquire(room_id)
        if lease is None:
            return False  # another node took it first: it owns the room now
        record = self.hall.store.load_room(room_id)  # read again: what the old owner last committed
        if record is None or record.finished or self.hall.directory.get(room_id) is not None:
            self.leases.release(room_id)
            return False
        if restore_record(self.hall, record) is None:
            self.leases.release(room_id)
            return False
        log.info("room %s adopted with fencing number %d", room_id, lease.fence)
        return True

    def start(self) -> None:
        """Scan every :attr:`interval` seconds on the running loop until :meth:`stop`."""
        if self._task is None:
            self._stopping = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._run(self._stopping))

    async def stop(self) -> None:
        """Stop scanning. Besides cancelling the task, it is told to stop by an event: a
        cancellation that lands inside a Redis call can be swallowed by the client library."""
        if self._task is not None:
            self._stopping.set()
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _run(self, stopping: asyncio.Event) -> None:
        while not stopping.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stopping.wait(), self.interval)
            if stopping.is_set():
                return
            try:
                await self.scan()
            except Exception:  # a store hiccup or a bug must not end failover for good
                log.exception("adoption scan failed; retrying in %.1f s", self.interval)

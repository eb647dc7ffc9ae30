"""Room leases in Redis: one owner per room, and a fencing number per ownership.

A node owns a room while it holds the room's *lease*: a Redis key whose value names the node
and the lease's fencing number, and which expires ``ttl`` after it was last renewed.

- **Acquire** (:meth:`RoomLeases.claim`, when a room is created or restored here): one Lua
  script sets the key only if it does not exist (``SET ... NX PX ttl``) and, in the same step,
  takes the next number of the room's fencing counter (``INCR``). The counter never expires
  and is never reset, so every later owner of the room gets a higher number.
- **Renew**: every ``ttl / 3`` one script call extends every lease this node holds, each only
  if its value is still this node's (``PEXPIRE`` after a ``GET`` compare). A lease the script
  does not find as ours is lost.
- **Release** (:meth:`RoomLeases.release`, after a closed room's last writes are committed):
  the key is deleted if its value is still ours.

Each held lease has a local *validity deadline* on the monotonic clock: the moment the
acquiring or renewing request was *sent*, plus the ttl, minus a safety margin. Redis cannot
have expired the key before it, so while it has not passed no other node can hold the room.
:meth:`RoomLeases.admit` checks it right before every commit, without a round trip: a node
that was paused (``SIGSTOP``) or cut off from Redis past its deadline refuses its own writes
for the room when it runs again, whatever its renewal task has not noticed yet. Writes carry
the fencing number (:meth:`RoomLeases.fence_of`) for a store that can refuse a lower one
(PostgreSQL: docs/scale-out.md), which covers the rest: a pause between the check and the
commit.

A lost lease (another owner found at renewal, the deadline passed, Redis unreachable) is never
taken back: the room is closed on this node without a result (``on_lost``), its players told
to reconnect. Keys: ``{prefix}lease:{room_id}`` and ``{prefix}fence:{room_id}``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace

from redis.asyncio import Redis
from redis.exceptions import RedisError

from gamehall.hall.ownership import Admitted
from gamehall.store.base import Append, Write

log = logging.getLogger("gamehall.cluster")

SAFETY_MARGIN = 0.05
"""Part of the ttl a lease's local deadline keeps short of Redis's expiry, for clock rate
differences between this host and Redis's and for the time a request takes to arrive."""

CALLS_IN_FLIGHT = 32
"""Acquire and release calls (one room each) a node has under way at once; the others wait
their turn. The Redis client's connection pool holds 100 connections and refuses a call past
them ("Too many connections"): without this bound a burst (a drain releasing hundreds of
rooms, many rooms created in one turn) lost the calls past the 100th, so those rooms either
closed unclaimed or waited out their ttl before another node could adopt them. The rest of
the pool stays free for the renewals, the adoption scans and the other cluster calls."""

_ACQUIRE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local fence = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. '/' .. fence, 'PX', ARGV[2])
return fence
"""
"""KEYS: lease, fence counter; ARGV: node id, ttl in ms. Returns the fence, or 0 if held."""

_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[i + 1] then
    redis.call('PEXPIRE', key, ARGV[1])
  else
    lost[#lost + 1] = i
  end
end
return lost
"""
"""KEYS: the leases; ARGV: ttl in ms, then each lease's expected value. Returns the 1-based
positions of the leases that are not ours any more."""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

_CARRIES_FENCE = "fence" in getattr(Append, "__dataclass_fields__", {})
"""Whether the store's writes have a ``fence`` field to carry the fencing number (the
PostgreSQL store adds it); until then :meth:`RoomLeases.admit` only filters."""


@dataclass(slots=True)
class Lease:
    """One room's lease as this node holds it."""

    fence: int
    """The fencing number this ownership was given; higher than any earlier owner's."""
    value: str
    """The key's value while it is ours: ``node/fence``."""
    valid_until: float
    """Monotonic deadline before which no other node can hold the room."""


class RoomLeases:
    """The leases of the rooms living on this node (the hall's
    :class:`~gamehall.hall.ownership.Ownership`). See the module docstring.

    ``on_lost`` is told the rooms whose lease was lost (the server passes
    :meth:`gamehall.hall.Hall.leases_lost`); ``clock`` is the monotonic clock (tests may
    pass their own).
    """

    def __init__(
        self,
        redis: Redis,
        node_id: str,
        ttl: float,
        *,
        prefix: str = "gamehall:",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.redis = redis
        self.node_id = node_id
        self.ttl = ttl
        self.prefix = prefix
        self.on_lost: Callable[[frozenset[str]], None] | None = None
        self._clock = clock
        self._ttl_ms = max(1, round(ttl * 1000))
        self._held: dict[str, Lease] = {}
        self._claims: dict[str, asyncio.Task[Lease | None]] = {}
        self._releases: set[asyncio.Task[None]] = set()
        self._gate = asyncio.Semaphore(CALLS_IN_FLIGHT)
        """Bounds this node's per-room calls at once (:data:`CALLS_IN_FLIGHT`)."""
        self._renewer: asyncio.Task[None] | None = None
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    # ---------------------------------------------------------------- what others read

    def fence_of(self, room_id: str) -> int | None:
        """The fencing number of the room's lease while this node holds it, else ``None``."""
        lease = self._held.get(room_id)
        return lease.fence if lease is not None else None

    def owned(self) -> int:
        """How many rooms this node holds a lease of (``/metrics``, ``/healthz``)."""
        return len(self._held)

    def holds(self, room_id: str) -> bool:
        """Whether this node holds the room's lease and its deadline has not passed."""
        return self._valid(room_id, self._clock())

    def lease_key(self, room_id: str) -> str:
        return f"{self.prefix}lease:{room_id}"

    def fence_key(self, room_id: str) -> str:
        return f"{self.prefix}fence:{room_id}"

    # ---------------------------------------------------------------- Ownership

    def claim(self, room_id: str) -> None:
        """Start acquiring the room's lease in the background (see :meth:`acquire`)."""
        if room_id in self._held or room_id in self._claims:
            return
        self._claims[room_id] = asyncio.get_running_loop().create_task(self.acquire(room_id))

    async def acquire(self, room_id: str) -> Lease | None:
        """Take the room's lease if no node holds it: the lease, or ``None`` (held elsewhere,
        or Redis failed: the room's writes are refused then)."""
        sent = self._clock()  # before any wait for the gate: the deadline errs on the early side
        try:
            async with self._gate:
                fence = int(
                    await self._acquire(
                        keys=[self.lease_key(room_id), self.fence_key(room_id)],
                        args=[self.node_id, self._ttl_ms],
                    )
                )
        except RedisError as exc:
            log.error("room %s: cannot take its lease (%s); this node will not write it", room_id, exc)
            return None
        finally:
            self._claims.pop(room_id, None)
        if fence == 0:
            log.warning("room %s: another node holds its lease; this node will not write it", room_id)
            return None
        lease = Lease(fence, f"{self.node_id}/{fence}", self._deadline(sent))
        self._held[room_id] = lease
        return lease

    def release(self, room_id: str) -> None:
        """Forget the room's lease here and delete it in Redis if it is still ours."""
        lease = self._held.pop(room_id, None)
        if lease is None:
            return
        task = asyncio.get_running_loop().create_task(self._delete(room_id, lease))
        self._releases.add(task)
        task.add_done_callback(self._releases.discard)

    async def _delete(self, room_id: str, lease: Lease) -> None:
        try:
            async with self._gate:
                await self._release(keys=[self.lease_key(room_id)], args=[lease.value])
        except RedisError as exc:  # the key expires by itself within the ttl
            log.warning("room %s: could not release its lease (%s); it expires on its own", room_id, exc)

    def admit(self, writes: Sequence[Write]) -> Admitted | Awaitable[Admitted]:
        """The writes of rooms whose lease is valid now, stamped with their fencing number;
        the other rooms are refused (and their leases dropped). Answered at once, without a
        round trip, unless a claim of one of the rooms is under way: then once it is."""
        rooms = {write.room_id for write in writes}
        claims = [self._claims[room_id] for room_id in rooms if room_id in self._claims]
        if claims:
            return self._admit_after(claims, writes)
        return self._admit_now(rooms, writes)

    async def _admit_after(
        self, claims: list[asyncio.Task[Lease | None]], writes: Sequence[Write]
    ) -> Admitted:
        await asyncio.gather(*claims)
        return self._admit_now({write.room_id for write in writes}, writes)

    def _admit_now(self, rooms: set[str], writes: Sequence[Write]) -> Admitted:
        now = self._clock()
        refused = frozenset(r for r in rooms if not self._valid(r, now))
        for room_id in refused:
            self._drop(room_id)
        admitted = [self._stamped(w) for w in writes if w.room_id not in refused]
        return Admitted(admitted, refused)

    def _valid(self, room_id: str, now: float) -> bool:
        lease = self._held.get(room_id)
        return lease is not None and now < lease.valid_until

    def _stamped(self, write: Write) -> Write:
        if not _CARRIES_FENCE:
            return write
        return replace(write, fence=self._held[write.room_id].fence)  # type: ignore[call-arg,unused-ignore]

    # ---------------------------------------------------------------- renewal

    def start(self) -> None:
        """Start renewing every held lease each ``ttl / 3`` (on the running loop)."""
        if self._renewer is None:
            self._renewer = asyncio.get_running_loop().create_task(self._renew_forever())

    async def stop(self) -> None:
        """Stop renewing and release every lease still held (a clean stop; the rooms' logs
        are committed by then)."""
        if self._renewer is not None:
            self._renewer.cancel()
            await asyncio.gather(self._renewer, return_exceptions=True)
            self._renewer = None
        for task in list(self._claims.values()):
            await asyncio.gather(task, return_exceptions=True)
        for room_id in list(self._held):
            self.release(room_id)
        if self._releases:
            await asyncio.gather(*self._releases, return_exceptions=True)

    async def _renew_forever(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self.renew()
            except Exception:  # a bug here must not end the renewals of every other room
                log.exception("lease renewal failed; retrying in %.1f s", self.ttl / 3)

    async def renew(self) -> frozenset[str]:
        """One renewal of every held lease; returns (and reports to ``on_lost``) the rooms
        lost: found with another value, or past their deadline (paused, Redis unreachable).
        A lease past its deadline is lost even if Redis still has it: the node cannot know
        what happened meanwhile, and it never writes the room again."""
        lost = set(self._expired())
        held = [(room_id, lease) for room_id, lease in self._held.items() if room_id not in lost]
        if held:
            sent = self._clock()
            try:
                positions = await self._renew(
                    keys=[self.lease_key(room_id) for room_id, _ in held],
                    args=[self._ttl_ms, *(lease.value for _, lease in held)],
                )
            except RedisError as exc:
                log.warning("cannot renew %d room lease(s): %s", len(held), exc)
            else:
                gone = {int(i) - 1 for i in positions}
                deadline = self._deadline(sent)
                for i, (room_id, lease) in enumerate(held):
                    if i in gone:
                        lost.add(room_id)
                    elif self._held.get(room_id) is lease and lease.valid_until > sent:
                        lease.valid_until = deadline
            lost.update(self._expired())
        return self._lose(frozenset(lost))

    def _expired(self) -> list[str]:
        now = self._clock()
        return [room_id for room_id, lease in self._held.items() if lease.valid_until <= now]

    def _lose(self, room_ids: frozenset[str]) -> frozenset[str]:
        for room_id in room_ids:
            self._drop(room_id)
        if room_ids:
            log.warning("lost the lease of %d room(s): %s", len(room_ids), ", ".join(sorted(room_ids)))
            if self.on_lost is not None:
                self.on_lost(room_ids)
        return room_ids

    def _drop(self, room_id: str) -> None:
        self._held.pop(room_id, None)

    def _deadline(self, sent: float) -> float:
        return sent + self.ttl * (1 - SAFETY_MARGIN)

"""Messages between nodes on Redis streams: one inbox stream per node.

Cross-node play (:mod:`gamehall.hall.cross_node`) needs each node to send another node messages
that arrive **in order** and are applied on the receiving node's event loop. Each node reads
one stream, ``{prefix}inbox:{node_id}``; a sender appends to the receiver's stream. Redis gives
a stream's entries one order, so everything node A sends node B arrives in the order A sent it,
whatever else B receives meanwhile.

Batching: messages queued during one loop turn go out in one pipeline, one stream entry per
destination (``m`` = the packed list of messages, :mod:`gamehall.cluster.codec`); one sender
task writes batches one after another, so batches never overtake each other.

Liveness (every ``ttl / 3``): each node's presence keeps ``{prefix}alive:{node_id}`` alive
with the lease ttl (:mod:`gamehall.cluster.presence`), its value an id of the process. A node
whose key expired is gone, and one whose key holds another id started again: either way the
members it connected to rooms owned here are dropped (their seats and names held here by the
crash-recovery rules, :meth:`CrossNodePlay.origin_lost`). For each room this node follows, the
room's lease is read: once another node holds it (adopted) the replica follows it there; if
nobody has for a while, the replica closes and its players reconnect
(:meth:`CrossNodePlay.owner_lost`). Replicas nobody here uses any
more stop following their rooms (:meth:`CrossNodePlay.sweep`).

Start: a node deletes its own inbox before it reads it: whatever was sent to an earlier
process under the same id spoke of a past that process took with it. Then it sends
``["started", node_id]`` to every live node, before its listeners open: the relays there drop
the members that earlier process had connected to their rooms (the relay's own message, never
handed to cross-node play).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from typing import TYPE_CHECKING, Any

import redis as redis_sync
from redis.asyncio import Redis
from redis.exceptions import RedisError

from gamehall.cluster.codec import CodecError, pack, unpack
from gamehall.hall.cross_node import Message

if TYPE_CHECKING:
    from gamehall.hall.cross_node import CrossNodePlay

log = logging.getLogger("gamehall.cluster")

INBOX_MAXLEN = 100_000
"""Entries an inbox keeps at most (approximately): a reader is never that far behind unless it
is dead, and a dead reader's inbox is deleted when its node starts again."""

UNOWNED_CHECKS = 6
"""How many checks (``ttl / 3`` apart) a followed room may go without any lease before its
replica gives up (its players are told to reconnect): normally another node adopts the room
within ``ttl / 2`` of the lease expiring, and the replica follows the new owner as soon as it
sees it (its players keep their connections and seats)."""

READ_BLOCK_MS = 1000
READ_COUNT = 256


class Relay:
    """This node's inbox reader, its senders and the liveness checks (module docstring).
    Implements :class:`gamehall.hall.cross_node.NodePort`."""

    def __init__(
        self, url: str, redis: Redis, node_id: str, ttl: float, *, prefix: str = "gamehall:"
    ) -> None:
        self.node_id = node_id
        self.redis = redis
        self.ttl = ttl
        self.prefix = prefix
        self.remote: CrossNodePlay | None = None
        self._lookup = redis_sync.Redis.from_url(url, socket_timeout=ttl / 3, socket_connect_timeout=ttl / 3)
        # the inbox reader blocks in XREAD for up to READ_BLOCK_MS: a connection of its own,
        # whose timeout outlasts the block (the shared one times out after ttl / 3)
        self._reader = Redis.from_url(
            url, socket_timeout=READ_BLOCK_MS / 1000 + ttl / 3, socket_connect_timeout=ttl / 3
        )
        self._outgoing: dict[str, list[Message]] = defaultdict(list)
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = False
        self._unowned: dict[str, int] = {}  # followed room -> checks without a lease
        self._lives: dict[str, bytes | str] = {}  # origin node -> the value of its liveness key
        self.sent = 0
        """Messages sent (for tests and /metrics)."""
        self.received = 0

    # ---------------------------------------------------------------- keys

    def inbox(self, node_id: str) -> str:
        return f"{self.prefix}inbox:{node_id}"

    def alive_key(self, node_id: str) -> str:
        """The node's liveness key, kept alive by its presence (:mod:`gamehall.cluster.presence`)."""
        return f"{self.prefix}alive:{node_id}"

    def lease_key(self, room_id: str) -> str:
        return f"{self.prefix}lease:{room_id}"

    # ---------------------------------------------------------------- NodePort

    def owner_of(self, room_id: str) -> str | None:
        """The node in ``room_id``'s lease (``node/fence``), read synchronously."""
        try:
            value = self._lookup.get(self.lease_key(room_id))
        except (RedisError, OSError) as exc:
            log.warning("room %s: cannot read its lease: %s", room_id, exc)
            return None
        if not value:
            return None
        text = value.decode() if isinstance(value, bytes) else str(value)
        return text.rsplit("/", 1)[0]

    def send(self, node: str, message: Message) -> None:
        self._outgoing[node].append(message)
        self._wake.set()

    # ---------------------------------------------------------------- running

    async def start(self, remote: CrossNodePlay) -> None:
        """Clear this node's inbox, tell the other nodes this node started, start reading and
        sending. Runs before the node's listeners open."""
        self.remote = remote
        await self.redis.delete(self.inbox(self.node_id))
        await self._announce_start()
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._read_forever(), name="relay-read"),
            loop.create_task(self._send_forever(), name="relay-send"),
            loop.create_task(self._watch_forever(), name="relay-watch"),
        ]

    async def _announce_start(self) -> None:
        """Send ``["started", node]`` to every node alive now. One that had members connected
        through an earlier process under this id drops them at once (their seats and names
        held there, :meth:`CrossNodePlay.origin_lost`), before this process lets anybody in:
        a player reconnecting here finds the name and seats held for them, and takes them
        back. (Without it, that node would notice only at its next check, by the liveness
        key's new value, and a player back here sooner would be a stranger to their seat.)"""
        every = self.alive_key("")
        nodes = set()
        async for key in self.redis.scan_iter(match=f"{every}*", count=100):
            node = (key.decode() if isinstance(key, bytes) else str(key))[len(every) :]
            if node != self.node_id:
                nodes.add(node)
        data = pack([["started", self.node_id]])
        for node in sorted(nodes):
            await self.redis.xadd(self.inbox(node), {"m": data}, maxlen=INBOX_MAXLEN, approximate=True)

    async def stop(self) -> None:
        """Send what is queued (at most a second), stop the tasks, say the node is gone."""
        self._stopping = True
        self._wake.set()
        for _ in range(20):
            if not any(self._outgoing.values()):
                break
            await asyncio.sleep(0.05)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                try:
                    await task
                except Exception:
                    log.exception("the relay's %s task had failed", task.get_name())
        self._lookup.close()
        await self._reader.aclose()

    async def _send_forever(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batches, self._outgoing = self._outgoing, defaultdict(list)
            packed = {node: self._pack(node, messages) for node, messages in batches.items() if messages}
            if not packed:
                continue
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for node, data in packed.items():
                        pipe.xadd(self.inbox(node), {"m": data}, maxlen=INBOX_MAXLEN, approximate=True)
                    await pipe.execute()
                self.sent += sum(len(m) for m in batches.values())
            except (RedisError, OSError) as exc:
                log.error(
                    "cannot send %d message(s) to other nodes: %s", sum(map(len, batches.values())), exc
                )
            except Exception:  # the sender must outlive any one batch: it carries every message
                log.exception("sending to other nodes failed; the next batches go on")

    def _pack(self, node: str, messages: list[Message]) -> bytes:
        """The batch for ``node``; a message that cannot be packed is logged and left out
        (the rest still goes: one bad event must not silence the node)."""
        try:
            return pack(messages)
        except CodecError:
            kept = []
            for message in messages:
                try:
                    pack(message)
                except CodecError as exc:
                    log.error("a message to node %s cannot be sent (%s): %r", node, exc, message[:3])
                else:
                    kept.append(message)
            return pack(kept)

    async def _read_forever(self) -> None:
        last = "0-0"
        key = self.inbox(self.node_id)
        while True:
            try:
                answer = await self._reader.xread({key: last}, count=READ_COUNT, block=READ_BLOCK_MS)
            except (RedisError, OSError) as exc:
                log.warning("cannot read this node's inbox: %s", exc)
                await asyncio.sleep(self.ttl / 10)
                continue
            streams: Any = answer or ()
            for _stream, entries in streams:
                for entry_id, fields in entries:
                    last = entry_id.decode() if isinstance(entry_id, bytes) else str(entry_id)
                    self._receive(fields.get(b"m") or fields.get("m"))

    def _receive(self, packed: object) -> None:
        if not isinstance(packed, (bytes, bytearray)) or self.remote is None:
            return
        try:
            messages = unpack(bytes(packed))
        except CodecError as exc:
            log.error("a message from another node cannot be read: %s", exc)
            return
        for message in messages if isinstance(messages, list) else ():
            self.received += 1
            try:
                if isinstance(message, list) and message[:1] == ["started"]:
                    self._origin_lost(str(message[1]))  # the relay's own message: see start()
                else:
                    self.remote.receive(message)
            except Exception:
                log.exception("a message from another node failed: %r", message[:2])

    async def _watch_forever(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self._check_origins()
                assert self.remote is not None
                self.remote.sweep()
                await self._check_owners()
            except (RedisError, OSError) as exc:
                log.warning("cannot check the other nodes: %s", exc)
            except Exception:  # the checks must go on: they are what notices a dead node
                log.exception("checking the other nodes failed; trying again in ttl / 3")

    async def _check_origins(self) -> None:
        """Drop the members of nodes that are gone, or that started again since the last
        check (a process's liveness key holds an id of its own: a node killed and started
        again within the ttl never lets its key expire, but its connections are gone)."""
        assert self.remote is not None
        origins = sorted(self.remote.origins())
        self._lives = {node: life for node, life in self._lives.items() if node in origins}
        if not origins:
            return
        lives = await self.redis.mget([self.alive_key(node) for node in origins])
        for node, life in zip(origins, lives, strict=True):
            known = self._lives.get(node)
            if life is None:
                log.info("node %s is gone: its players' seats here are held for them", node)
            elif known is not None and life != known:
                log.info("node %s started again: its players' seats here are held for them", node)
            else:
                self._lives[node] = life
                continue
            self._origin_lost(node)

    def _origin_lost(self, node: str) -> None:
        """Node ``node``'s connections are gone (it died, or started again): the members it
        connected to rooms owned here are dropped; its next life is not a restart again."""
        assert self.remote is not None
        self._lives.pop(node, None)
        self.remote.origin_lost(node)

    async def _check_owners(self) -> None:
        """Close the replicas of rooms whose owner no longer holds their lease."""
        assert self.remote is not None
        followed = self.remote.followed()
        if not followed:
            return
        room_ids = sorted(followed)
        values = await self.redis.mget([self.lease_key(r) for r in room_ids])
        lost = []
        for room_id, value in zip(room_ids, values, strict=True):
            holder = value.decode().rsplit("/", 1)[0] if isinstance(value, bytes) else None
            if holder == followed[room_id]:
                self._unowned.pop(room_id, None)
            elif holder is not None:
                self._unowned.pop(room_id, None)
                if holder != self.node_id:  # adopted here: the adoption moves the players
                    self.remote.owner_moved(room_id, holder)
            else:  # nobody holds it: its owner died; wait a while for a node to adopt it
                if followed[room_id]:
                    self.remote.owner_gone(room_id)
                misses = self._unowned[room_id] = self._unowned.get(room_id, 0) + 1
                if misses > UNOWNED_CHECKS:
                    lost.append(room_id)
                    self._unowned.pop(room_id, None)
        if lost:
            self.remote.owner_lost(lost)

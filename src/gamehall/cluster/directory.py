"""The shared room directory in Redis: every node's rooms in every node's lobby
(docs/scale-out.md, "One hall: the shared room directory").

Keys (``{prefix}`` is ``--redis-prefix``):

- ``{prefix}rooms``, a hash: room id -> ``{"node": ID, "info": {...}}``, the owner's last
  published lobby view (:func:`gamehall.hall.shared_rooms.info_to_json`). No expiry: an entry
  goes when its room closes, or when its node is found dead.
- ``{prefix}lobby``, a pub/sub channel: every change of the hash, as
  ``{"node": ID, "changes": [room_id, value, ...]}`` (value ``""``: the room left ``node``).
- ``{prefix}node:{ID}``, the node's liveness key, set with the ttl (``--lease-ttl``) and
  renewed every ``ttl / 3``. A renewal that finds the key gone (the node was paused past the
  ttl and taken for dead, or Redis lost its data) publishes every room of the node again.

**Publishing.** The hall hands :meth:`SharedDirectory.publish` each loop turn's changes of the
rooms it owns; one script call per turn writes them and publishes them (one round trip, in
turn order: a call waits for the previous one). A closed room's entry is deleted only if this
node still owns it in the hash; if another node published it meanwhile (it adopted the room),
the script answers that entry and it is listed here as that node's.

**Reading.** A background task subscribes to the channel, *then* reads the whole hash, then
applies the messages in order (a message sent before the read changes nothing the read did not
already show; one sent after it is applied after it). The copy (:class:`RemoteRooms`) leaves
out this node's own rooms. A lost subscription is made again, with a fresh read.

**Dead nodes.** Every ``ttl / 2`` each node looks up the liveness keys of the nodes owning a
listed room (one ``MGET``); the entries of a node whose key expired are deleted from the hash
and the copy (one script call per dead node, which checks the key again). A room such a node
owned comes back when another node adopts it (:mod:`gamehall.cluster.adoption`), which
republishes it; meanwhile every copy keeps its running rooms aside as orphans (the script's
message says ``"dead": true``), so that the hall holds their players' names until then
(:meth:`~gamehall.hall.shared_rooms.RemoteRooms.orphan_seats`, for at most
:data:`ORPHAN_WAIT_TTLS` ttls). At start a node deletes whatever entries its previous process
left.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence

import orjson
from redis.asyncio import Redis
from redis.exceptions import RedisError

from gamehall.hall.shared_rooms import Change, RemoteRooms, info_from_json, info_to_json
from gamehall.protocols._core import RoomInfo

log = logging.getLogger("gamehall.cluster")

_PUBLISH = """
local out, kept = {}, {}
for i = 3, #ARGV, 2 do
  local id, value = ARGV[i], ARGV[i + 1]
  if value ~= '' then
    redis.call('HSET', KEYS[1], id, value)
    out[#out + 1] = id
    out[#out + 1] = value
  else
    local current = redis.call('HGET', KEYS[1], id)
    if current then
      if cjson.decode(current)['node'] == ARGV[1] then
        redis.call('HDEL', KEYS[1], id)
        out[#out + 1] = id
        out[#out + 1] = ''
      else
        kept[#kept + 1] = current
      end
    end
  end
end
if #out > 0 then
  redis.call('PUBLISH', ARGV[2], cjson.encode({node = ARGV[1], changes = out}))
end
return kept
"""
"""KEYS: the rooms hash; ARGV: node id, channel, then room id and value pairs (value ``''``:
the room left this node). Returns the entries of rooms closed here that another node owns."""

_FORGET_NODE = """
if ARGV[3] ~= '1' and redis.call('EXISTS', KEYS[2]) == 1 then return -1 end
local all = redis.call('HGETALL', KEYS[1])
local out = {}
for i = 1, #all, 2 do
  if cjson.decode(all[i + 1])['node'] == ARGV[1] then
    redis.call('HDEL', KEYS[1], all[i])
    out[#out + 1] = all[i]
    out[#out + 1] = ''
  end
end
if #out > 0 then
  redis.call('PUBLISH', ARGV[2], cjson.encode({node = ARGV[1], changes = out, dead = ARGV[3] ~= '1'}))
end
return #out / 2
"""
"""KEYS: the rooms hash, the node's liveness key; ARGV: node id, channel, ``'1'`` to forget
even a live node (this node's own leftovers at start). Returns how many entries went, or -1
when the node is alive after all (its key is back: nothing is forgotten)."""

ORPHAN_WAIT_TTLS = 3.0
"""How many lease ttls the running rooms of a dead node wait, aside from the lobby, for a node
to adopt them (their players' names are held meanwhile: :meth:`RemoteRooms.orphan_seats`)."""

RECEIVE_TIMEOUT_S = 1.0
"""How long one wait for a channel message lasts (the listening task checks for a stop
between two waits)."""


def _entry(node: str, info: RoomInfo) -> str:
    return orjson.dumps({"node": node, "info": info_to_json(info)}).decode()


def _parse(value: str | bytes) -> tuple[str, RoomInfo]:
    """``(node, view)`` of a hash entry.

    Raises:
        ValueError: not an entry this module wrote.
    """
    data = orjson.loads(value)
    if not isinstance(data, dict) or not isinstance(data.get("node"), str):
        raise ValueError("not a room entry")
    info = data.get("info")
    if not isinstance(info, dict):
        raise ValueError("not a room entry")
    return data["node"], info_from_json(info)


class SharedDirectory:
    """This node's side of the shared room directory (the hall's
    :class:`~gamehall.hall.shared_rooms.SharedRooms`). See the module docstring."""

    def __init__(self, redis: Redis, node_id: str, ttl: float, *, prefix: str = "gamehall:") -> None:
        self.redis = redis
        self._node_id = node_id
        self.ttl = ttl
        self.prefix = prefix
        self.rooms_key = f"{prefix}rooms"
        self.channel = f"{prefix}lobby"
        self._remote = RemoteRooms()
        self._remote.orphan_wait_s = ORPHAN_WAIT_TTLS * ttl
        self._ttl_ms = max(1, round(ttl * 1000))
        self._publish = redis.register_script(_PUBLISH)
        self._forget = redis.register_script(_FORGET_NODE)
        self._queue: dict[str, RoomInfo | None] = {}
        self._writer: asyncio.Task[None] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._loaded = asyncio.Event()
        self._stopping = asyncio.Event()

    # ---------------------------------------------------------------- SharedRooms

    @property
    def node_id(self) -> str:
        return self._node_id

    @property
    def remote(self) -> RemoteRooms:
        return self._remote

    def node_key(self, node_id: str) -> str:
        return f"{self.prefix}node:{node_id}"

    def publish(self, changes: Sequence[Change]) -> None:
        """Queue one turn's changes; the writer sends what is queued in one script call,
        after the call under way (so turns reach Redis in order)."""
        for room_id, info in changes:
            self._queue.pop(room_id, None)
            self._queue[room_id] = info
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        while self._queue:
            batch, self._queue = self._queue, {}
            args: list[str] = [self._node_id, self.channel]
            for room_id, info in batch.items():
                args += [room_id, "" if info is None else _entry(self._node_id, info)]
            try:
                kept = await self._publish(keys=[self.rooms_key], args=args)
            except RedisError as exc:
                log.warning("could not publish %d room change(s): %s", len(batch), exc)
                continue
            for value in kept:
                self._learn(value)

    # ---------------------------------------------------------------- start and stop

    async def start(self) -> None:
        """Forget this node's leftovers of an earlier process, mark it alive, subscribe and
        read the hash (waits for that first read, so the lobby is whole from the start), then
        keep it all up to date in the background until :meth:`stop`.

        Raises:
            RedisError: Redis does not answer (the server does not start half a node).
        """
        await self.redis.set(self.node_key(self._node_id), "1", px=self._ttl_ms)
        await self._forget(
            keys=[self.rooms_key, self.node_key(self._node_id)], args=[self._node_id, self.channel, "1"]
        )
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._keep_alive())]
        loaded = loop.create_task(self._loaded.wait())
        await asyncio.wait(
            [loaded, self._tasks[0]], timeout=max(2.0, self.ttl), return_when=asyncio.FIRST_COMPLETED
        )
        loaded.cancel()
        if not self._loaded.is_set():
            log.warning("the shared room directory is not read yet; the lobby fills when it is")

    async def stop(self) -> None:
        """Send what is still queued, stop listening, and drop the liveness key (the closed
        rooms' entries went with their last publication)."""
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)
        self._stopping.set()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        with contextlib.suppress(RedisError, OSError):
            await self.redis.delete(self.node_key(self._node_id))

    # ---------------------------------------------------------------- listening

    async def _listen(self) -> None:
        while not self._stopping.is_set():
            pubsub = self.redis.pubsub()
            try:
                await pubsub.subscribe(self.channel)
                await self.load()
                self._loaded.set()
                while not self._stopping.is_set():
                    message = await pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=RECEIVE_TIMEOUT_S
                    )
                    if message is not None and message.get("type") == "message":
                        self.receive(message["data"])
            except (RedisError, OSError) as exc:
                log.warning("room directory: subscription lost (%s); again in %.1f s", exc, self.ttl / 3)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stopping.wait(), self.ttl / 3)
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]

    async def load(self) -> None:
        """Read the whole hash into the copy (rooms gone since are closed in it)."""
        entries: dict[str, tuple[str, RoomInfo]] = {}
        for room_id, value in (await self.redis.hgetall(self.rooms_key)).items():
            try:
                node, info = _parse(value)
            except ValueError as exc:
                log.warning("room directory: unreadable entry %r: %s", room_id, exc)
                continue
            if node != self._node_id:
                entries[info.room_id] = (node, info)
        self._remote.replace_all(entries)

    def receive(self, data: str | bytes) -> None:
        """Apply one channel message (other nodes' changes; this node's own are skipped)."""
        try:
            message = orjson.loads(data)
            node, changes = message["node"], message["changes"]
            if not isinstance(node, str) or not isinstance(changes, list):
                raise TypeError("bad message")
        except (orjson.JSONDecodeError, KeyError, TypeError) as exc:
            log.warning("room directory: unreadable message (%s)", exc)
            return
        dead = message.get("dead") is True  # a dead node's rooms, not closed ones
        for at in range(0, len(changes) - 1, 2):
            room_id, value = str(changes[at]), changes[at + 1]
            if value == "" and dead:
                self._remote.orphan(room_id, node)  # waits aside for its adoption
            elif value == "":
                self._remote.remove(room_id, node)
            elif isinstance(value, str):
                self._learn(value)

    def _learn(self, value: str | bytes) -> None:
        try:
            node, info = _parse(value)
        except ValueError as exc:
            log.warning("room directory: unreadable entry: %s", exc)
            return
        if node != self._node_id:
            self._remote.put(node, info)

    # ---------------------------------------------------------------- liveness

    async def _keep_alive(self) -> None:
        """Renew this node's liveness key every ``ttl / 3``; every other time (about every
        ``ttl / 2``... ``2 ttl / 3``) forget the rooms of nodes whose key expired."""
        beat = 0
        while not self._stopping.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), self.ttl / 3)
            if self._stopping.is_set():
                return
            beat += 1
            try:
                await self.beat()
                if beat % 2 == 0:
                    await self.sweep()
            except (RedisError, OSError) as exc:
                log.warning("room directory: liveness failed (%s); again in %.1f s", exc, self.ttl / 3)

    async def beat(self) -> bool:
        """Renew this node's liveness key; if it was gone, publish every room of this node
        again (the others forgot them, or will at their next sweep). Whether it was gone."""
        was = await self.redis.set(self.node_key(self._node_id), "1", px=self._ttl_ms, get=True)
        if was is not None:
            return False
        rooms = self._remote.local_rooms()
        log.warning("node %s was taken for dead; publishing its %d room(s) again", self._node_id, len(rooms))
        if rooms:
            self.publish([(info.room_id, info) for info in rooms])
        return True

    async def sweep(self) -> list[str]:
        """Forget the rooms of every listed node whose liveness key is gone; the dead nodes."""
        nodes = sorted(self._remote.nodes())
        if not nodes:
            return []
        alive = await self.redis.mget([self.node_key(node) for node in nodes])
        dead = []
        for node, value in zip(nodes, alive, strict=True):
            if value is None and await self._forget_dead(node):
                dead.append(node)
        return dead

    async def _forget_dead(self, node: str) -> bool:
        """Forget ``node``'s rooms if its liveness key is still gone (checked again in the
        script: a node back meanwhile publishes its rooms itself). Whether they went."""
        keys = [self.rooms_key, self.node_key(node)]
        gone = int(await self._forget(keys=keys, args=[node, self.channel, "0"]))
        if gone < 0:
            return False
        dropped = self._remote.drop_node(node)
        log.info("node %s is gone: %d of its room(s) left the lobby (%d in Redis)", node, len(dropped), gone)
        return True

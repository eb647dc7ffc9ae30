"""Names and hall chat shared by the nodes of one hall, in Redis (docs/scale-out.md, "One
hall: users, names and chat").

Keys and channels (``{prefix}`` is ``--redis-prefix``):

- ``{prefix}users``, a hash: lower-cased name -> ``node\\nonline\\nprotocol\\ntoken\\ndisplay``
  (``online`` is ``1`` or ``0``; ``protocol`` the one its user last logged in over; ``token``
  the digest of its resume token, or empty), one field per name some node has a user for
  (online or holding seats);
- ``{prefix}alive:{node}``: the node's liveness key, set every ``ttl / 3`` with a ttl of
  ``ttl`` (``--lease-ttl``), to an id of this process (:attr:`RedisPresence.life`), so that
  the other nodes tell a node started again from one that lived on. A name whose node's
  liveness key is gone is free;
- channel ``{prefix}users``: every change of the hash, published by the same script that
  makes it (``+\\nname\\nvalue``, ``-\\nname\\nnode``), so every node sees the changes in
  the order Redis made them;
- channel ``{prefix}chat``: shouts and notices (JSON), for every node;
- channel ``{prefix}chat:{node}``: what goes to one user online on ``node``: whispers, and
  invitations (``"kind": "invite"``) and the notices that tell an inviter one was not shown
  (``"kind": "notice"``), JSON; a message without ``kind`` is a whisper.

Each node keeps a copy of the hash (:meth:`RedisPresence.holder` reads it, no round trip):
loaded once after subscribing to the channel, then kept current by its messages. Replaying the
messages that crossed the load leaves the copy as Redis is, since they arrive in order.

This node's claims, releases and chat lines go out in order through one queue; whatever
queued up while the previous script call was in flight goes in the next call (one round trip
for any number). A claim takes the name if it is free, already this node's, or held by a node
whose liveness key expired; otherwise it fails and the node is told ``name_lost``. A *take*
(a player came back here to seats another node holds for them) also takes it from a node
that holds it offline. The names
this node *wants* (:attr:`RedisPresence.mine`) are claimed again when Redis frees them (a
user holding seats here whose name another node took first) and after this node's own liveness
key had expired (Redis lost, or the node paused: the other nodes dropped its names).

Every ``ttl / 3`` each node renews its liveness key and drops the names of nodes whose key is
gone (a dead node), in Redis (one script, which publishes each removal) and so in every copy.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

from gamehall.hall.presence import Holder, Invitation, PresenceEvents
from gamehall.protocols._core import ChatSaid, Notice

log = logging.getLogger("gamehall.cluster")

_OPS = """
local users, me, alive, channel = KEYS[1], ARGV[1], ARGV[2], ARGV[3]
local out = {}
for i = 4, #ARGV, 3 do
  local op, a, b = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  local answer = ''
  if op == 'claim' or op == 'take' then
    local cur = redis.call('HGET', users, a)
    local holder = cur and string.match(cur, '^[^\\n]*')
    local free = (not cur) or holder == me or redis.call('EXISTS', alive .. holder) == 0
    if (not free) and op == 'take' then
      free = string.match(cur, '^[^\\n]*\\n(.)') == '0'
    end
    if free then
      if cur ~= b then
        redis.call('HSET', users, a, b)
        redis.call('PUBLISH', channel, '+\\n' .. a .. '\\n' .. b)
      end
    else
      answer = cur
    end
  elseif op == 'release' then
    local cur = redis.call('HGET', users, a)
    if cur and string.match(cur, '^[^\\n]*') == me then
      redis.call('HDEL', users, a)
      redis.call('PUBLISH', channel, '-\\n' .. a .. '\\n' .. me)
    end
  else
    redis.call('PUBLISH', a, b)
  end
  out[#out + 1] = answer
end
return out
"""
"""KEYS: the users hash; ARGV: this node, the liveness key prefix, the users channel, then
triples (``claim`` name value | ``take`` name value | ``release`` name - | ``publish``
channel message; ``take`` also takes a name another node holds offline). Returns one
answer per triple: ``''``, or for a lost claim the holder's value."""

_PURGE = """
if ARGV[2] ~= '' and redis.call('EXISTS', ARGV[2]) == 1 then return 0 end
local all = redis.call('HGETALL', KEYS[1])
local n = 0
for i = 1, #all, 2 do
  if string.match(all[i + 1], '^[^\\n]*') == ARGV[1] then
    redis.call('HDEL', KEYS[1], all[i])
    redis.call('PUBLISH', ARGV[3], '-\\n' .. all[i] .. '\\n' .. ARGV[1])
    n = n + 1
  end
end
return n
"""
"""KEYS: the users hash; ARGV: the node whose names go, its liveness key (``''``: remove them
anyway: this node's own, at start and stop), the users channel. Returns how many went."""

Op = tuple[str, str, str]

POLL_S = 1.0
"""How long one wait for a pub/sub message lasts before the reader looks again."""


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def parse_holder(value: str) -> Holder:
    node, online, protocol, token_hash, display = value.split("\n", 4)
    return Holder(node, online == "1", display, protocol, token_hash)


def holder_value(node: str, *, online: bool, protocol: str, token_hash: str, display: str) -> str:
    """A name's value in the users hash (the module docstring)."""
    return f"{node}\n{'1' if online else '0'}\n{protocol}\n{token_hash}\n{display}"


class RedisPresence:
    """This node's view of the hall's names, and its hall chat (the hall's
    :class:`~gamehall.hall.presence.Presence`). See the module docstring."""

    def __init__(self, redis: Redis, node_id: str, ttl: float, *, prefix: str = "gamehall:") -> None:
        self.redis = redis
        self.node_id = node_id
        self.ttl = ttl
        self.prefix = prefix
        self.users_key = f"{prefix}users"
        self.chat_channel = f"{prefix}chat"
        self.mine: dict[str, str] = {}
        """The names this node has a user for: lower-cased name -> the value it claims."""
        self._names: dict[str, Holder] = {}
        self._events: PresenceEvents | None = None
        self._ops: list[Op] = []
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: PubSub | None = None
        self._sending = False
        self._left = False
        self._resync = False
        self._run_ops = redis.register_script(_OPS)
        self._purge = redis.register_script(_PURGE)
        self._ttl_ms = max(1, round(ttl * 1000))
        self.life = secrets.token_hex(8)
        """This process's id, the value of its liveness key (the module docstring)."""

    # ---------------------------------------------------------------- keys

    def alive_key(self, node_id: str) -> str:
        return f"{self.prefix}alive:{node_id}"

    def whisper_channel(self, node_id: str) -> str:
        return f"{self.prefix}chat:{node_id}"

    # ---------------------------------------------------------------- Presence

    def attach(self, events: PresenceEvents) -> None:
        self._events = events

    def holder(self, name: str) -> Holder | None:
        holder = self._names.get(name.lower())
        return holder if holder is not None and holder.node != self.node_id else None

    def claim(
        self, name: str, *, online: bool, protocol: str = "", token_hash: str = "", take_over: bool = False
    ) -> None:
        key = name.lower()
        value = holder_value(
            self.node_id, online=online, protocol=protocol, token_hash=token_hash, display=name
        )
        if self.mine.get(key) == value and not take_over:
            return
        self.mine[key] = value
        self._queue(("take" if take_over else "claim", key, value))

    def release(self, name: str) -> None:
        key = name.lower()
        if self.mine.pop(key, None) is not None:
            self._queue(("release", key, "-"))

    def shout(self, event: ChatSaid | Notice) -> None:
        sender = event.sender if isinstance(event, ChatSaid) else None
        message = {"node": self.node_id, "sender": sender, "text": event.text}
        self._queue(("publish", self.chat_channel, orjson.dumps(message).decode()))

    def whisper(self, node: str, event: ChatSaid) -> None:
        message = {"node": self.node_id, "sender": event.sender, "text": event.text, "to": event.to}
        self._queue(("publish", self.whisper_channel(node), orjson.dumps(message).decode()))

    def invite(self, node: str, room_id: str, inviter: str, name: str) -> None:
        message = {"node": self.node_id, "kind": "invite", "room": room_id, "inviter": inviter, "to": name}
        self._queue(("publish", self.whisper_channel(node), orjson.dumps(message).decode()))

    def notify(self, node: str, name: str, notice: Notice) -> None:
        message = {"node": self.node_id, "kind": "notice", "text": notice.text, "to": name}
        self._queue(("publish", self.whisper_channel(node), orjson.dumps(message).decode()))

    # ---------------------------------------------------------------- start and stop

    async def start(self) -> None:
        """Join the hall's names: subscribe, drop what a previous life of this node left,
        mark this node alive, load every name, then keep it all current in the background.

        Raises:
            RedisError: Redis does not answer (the server does not start).
        """
        self._pubsub = await self._subscribe()
        await self._purge(keys=[self.users_key], args=[self.node_id, "", self.users_key])
        await self.redis.set(self.alive_key(self.node_id), self.life, px=self._ttl_ms)
        await self._load()
        loop = asyncio.get_running_loop()
        for work in (self._send_forever, self._read_forever, self._keep_alive_forever):
            self._tasks.append(loop.create_task(self._guarded(work)))

    async def leave(self) -> None:
        """Give up this node's names and its liveness key now: the start of a clean stop,
        before its connections are cut, so that their users can log in on another node at
        once. What was queued before (chat lines) is sent first; from then on this node
        claims and sends nothing."""
        if self._left:
            return
        self._left = True
        if self._tasks:
            with contextlib.suppress(TimeoutError):  # Redis down: the stop does not wait longer
                async with asyncio.timeout(self.ttl / 3):
                    while self._ops or self._sending:
                        self._wake.set()
                        await asyncio.sleep(0.01)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks.clear()
        self._ops.clear()
        try:
            await self._purge(keys=[self.users_key], args=[self.node_id, "", self.users_key])
            await self.redis.delete(self.alive_key(self.node_id))
        except RedisError as exc:
            log.warning("could not give up this node's names (%s); they go when it is seen dead", exc)

    async def stop(self) -> None:
        """:meth:`leave` (if not done yet) and close the subscription."""
        await self.leave()
        if self._pubsub is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._pubsub.aclose()  # type: ignore[no-untyped-call]
            self._pubsub = None

    async def _guarded(self, work: Callable[[], Awaitable[None]]) -> None:
        """Run ``work`` again after anything but a cancellation: a bug or a Redis outage must
        not end the hall's presence for good."""
        while True:
            try:
                await work()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("presence: %s failed; again in %.1f s", work.__name__, self.ttl / 3)
                await asyncio.sleep(self.ttl / 3)

    # ---------------------------------------------------------------- the queue

    def _queue(self, op: Op) -> None:
        if self._left:
            return  # stopping: this node's names are given up already
        self._ops.append(op)
        self._wake.set()

    async def _send_forever(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            if self._ops:
                await self.send_queued()

    async def send_queued(self) -> None:
        """Send every queued operation in one script call, in order. A failed call keeps
        them queued (in front of newer ones) and retries after ``ttl / 3``."""
        ops, self._ops = self._ops, []
        self._sending = True
        args: list[str] = [self.node_id, self.alive_key(""), self.users_key]
        for op in ops:
            args.extend(op)
        try:
            answers = await self._run_ops(keys=[self.users_key], args=args)
        except RedisError as exc:
            self._ops[:0] = ops
            self._sending = False
            log.warning("presence: Redis failed (%s); %d change(s) wait", exc, len(ops))
            await asyncio.sleep(self.ttl / 3)
            self._wake.set()
            return
        self._sending = False
        for (kind, key, _), answer in zip(ops, answers, strict=True):
            if kind in ("claim", "take") and answer:
                self._lost(key, parse_holder(_text(answer)))

    def _lost(self, key: str, holder: Holder) -> None:
        self._names[key] = holder
        log.info("name %s: taken first on node %s", key, holder.node)
        if self._events is not None:
            self._events.name_lost(key)  # still wanted after it? claimed again once freed

    # ---------------------------------------------------------------- reading

    async def _subscribe(self) -> PubSub:
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(self.users_key, self.chat_channel, self.whisper_channel(self.node_id))
        if pubsub.connection is not None:
            pubsub.connection.register_connect_callback(self._reconnected)
        return pubsub

    def _reconnected(self, connection: object) -> None:
        """The client library connected the subscription again by itself (and subscribed
        again): messages may have been missed meanwhile, so the reader loads again."""
        self._resync = True

    async def _load(self) -> None:
        values = await self.redis.hgetall(self.users_key)
        self._names = {_text(k): parse_holder(_text(v)) for k, v in values.items()}

    async def _read_forever(self) -> None:
        """Apply every message; after a lost connection, subscribe and load again, and claim
        this node's names again (messages may have been missed meanwhile)."""
        while True:
            pubsub = self._pubsub
            if pubsub is None:
                pubsub = self._pubsub = await self._subscribe()
                self._resync = True
            if self._resync:
                self._resync = False
                await self._load()
                self._reclaim_all()
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=POLL_S)
            except (RedisError, OSError) as exc:
                log.warning("presence: subscription lost (%s); subscribing again", exc)
                self._pubsub = None
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                await asyncio.sleep(self.ttl / 3)
                continue
            if message is not None and message.get("type") == "message":
                self.receive(_text(message["channel"]), _text(message["data"]))

    def receive(self, channel: str, data: str) -> None:
        """One pub/sub message."""
        try:
            if channel == self.users_key:
                self._changed(data)
            else:
                self._chat(channel, orjson.loads(data))
        except (ValueError, KeyError):
            log.warning("presence: a message not understood on %s: %.80r", channel, data)

    def _changed(self, data: str) -> None:
        sign, key, rest = data.split("\n", 2)
        if sign == "+":
            self._names[key] = parse_holder(rest)
            return
        holder = self._names.get(key)
        if holder is not None and holder.node == rest:
            del self._names[key]
        if key not in self._names and key in self.mine and rest != self.node_id:
            self._reclaim(key)

    def _chat(self, channel: str, message: dict[str, Any]) -> None:
        if self._events is None or message.get("node") == self.node_id:
            return
        if channel != self.chat_channel and "kind" in message:
            self._for_one_user(message)
            return
        sender, text = message.get("sender"), str(message.get("text", ""))
        event: ChatSaid | Notice
        if channel != self.chat_channel:
            event = ChatSaid(sender=str(sender), text=text, scope="private", to=str(message.get("to")))
        elif sender is None:
            event = Notice(text=text)
        else:
            event = ChatSaid(sender=str(sender), text=text, scope="broadcast")
        self._events.hall_event(event)

    def _for_one_user(self, message: dict[str, Any]) -> None:
        """An invitation or a notice for one user of this node (see the module docstring)."""
        assert self._events is not None
        kind, to = message["kind"], str(message["to"])
        if kind == "invite":
            invitation = Invitation(str(message["node"]), str(message["room"]), str(message["inviter"]), to)
            self._events.invitation(invitation)
        elif kind == "notice":
            self._events.user_notice(to, Notice(text=str(message["text"])))
        else:  # a newer node's kind: ignored, as a message not understood
            raise ValueError(kind)

    def _reclaim(self, key: str) -> None:
        """Claim a wanted name again, with the value the hall last gave it."""
        self._queue(("claim", key, self.mine[key]))

    def _reclaim_all(self) -> None:
        for key in list(self.mine):
            self._reclaim(key)

    # ---------------------------------------------------------------- liveness

    async def _keep_alive_forever(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            await self.keep_alive()

    async def keep_alive(self) -> None:
        """Renew this node's liveness key (claiming its names again if it had expired: the
        other nodes dropped them), then drop the names of nodes whose key is gone."""
        try:
            before = await self.redis.set(self.alive_key(self.node_id), self.life, px=self._ttl_ms, get=True)
        except RedisError as exc:
            log.warning("presence: cannot renew this node's liveness (%s)", exc)
            return
        if before is None:
            log.warning("node %s was seen dead by the others; claiming its names again", self.node_id)
            self._reclaim_all()
        try:
            await self.drop_dead_nodes()
        except RedisError as exc:
            log.warning("presence: cannot look for dead nodes (%s)", exc)

    async def drop_dead_nodes(self) -> None:
        """Remove, in Redis (and so everywhere), the names of every node whose liveness key
        expired; the removals reach this node's copy through the channel."""
        nodes = sorted({h.node for h in self._names.values() if h.node != self.node_id})
        if not nodes:
            return
        alive = await self.redis.mget([self.alive_key(node) for node in nodes])
        for node, flag in zip(nodes, alive, strict=True):
            if flag is None:
                gone = await self._purge(
                    keys=[self.users_key], args=[node, self.alive_key(node), self.users_key]
                )
                log.info("node %s is gone: %s name(s) freed", node, gone)

"""This process as one node of several: its id, its Redis connection, its room leases and
its share of the hall's names and chat and its side of the shared room directory.

``gamehall serve --redis redis://HOST:6379/0 [--node-id ID] [--lease-ttl S]`` builds one
:class:`Node` at start (:func:`open_node`), before the hall: the hall gets its leases as its
:class:`~gamehall.hall.ownership.Ownership`, the node's presence as its
:class:`~gamehall.hall.presence.Presence` and its directory as its
:class:`~gamehall.hall.shared_rooms.SharedRooms`. Without ``--redis`` nothing of this package is
imported and the server runs exactly as one node always did.
"""

from __future__ import annotations

import logging
import re
import socket
from dataclasses import dataclass

from redis.asyncio import Redis
from redis.exceptions import RedisError

from gamehall.cluster.directory import SharedDirectory
from gamehall.cluster.leases import RoomLeases
from gamehall.cluster.presence import RedisPresence
from gamehall.config import NODE_ID, ServerConfig

log = logging.getLogger("gamehall.cluster")


class ClusterError(Exception):
    """Redis cannot be reached at start; the server does not start without it."""


@dataclass(slots=True)
class Node:
    """One node: its id, its room leases (which hold the Redis client), its presence (the
    hall's names and chat, :mod:`gamehall.cluster.presence`) and its side of the shared room
    directory (:mod:`gamehall.cluster.directory`)."""

    node_id: str
    leases: RoomLeases
    presence: RedisPresence
    directory: SharedDirectory

    def rooms_owned(self) -> int:
        """How many rooms this node holds the lease of."""
        return self.leases.owned()

    async def close(self) -> None:
        """Publish the last room changes, give up this node's names, release every lease still
        held and close the Redis connection."""
        await self.directory.stop()
        await self.presence.stop()
        await self.leases.stop()
        await self.leases.redis.aclose()


def default_node_id() -> str:
    """The host name, cut to what a node id may hold (``--node-id`` overrides it)."""
    name = re.sub(r"[^A-Za-z0-9._-]", "-", socket.gethostname())[:64]
    return name if NODE_ID.fullmatch(name) else "node"


async def open_node(config: ServerConfig) -> Node:
    """Connect to ``config.redis`` and check it answers; the node's leases are ready to claim
    rooms (their renewal starts with :meth:`RoomLeases.start`).

    Every Redis call times out after a third of the ttl, so a renewal never hangs past the
    point where the leases could still be saved.

    Raises:
        ClusterError: ``config.redis`` is not set, or Redis does not answer.
    """
    if config.redis is None:
        raise ClusterError("no Redis URL given (--redis)")
    node_id = config.node_id or default_node_id()
    timeout = config.lease_ttl / 3
    redis = Redis.from_url(config.redis, socket_timeout=timeout, socket_connect_timeout=timeout)
    try:
        await redis.ping()
    except (RedisError, OSError) as exc:
        await redis.aclose()
        raise ClusterError(f"cannot reach Redis at {config.redis}: {exc}") from None
    log.info("node %s: room leases in %s, ttl %.1f s", node_id, config.redis, config.lease_ttl)
    leases = RoomLeases(redis, node_id, config.lease_ttl, prefix=config.redis_prefix)
    directory = SharedDirectory(redis, node_id, config.lease_ttl, prefix=config.redis_prefix)
    presence = RedisPresence(redis, node_id, config.lease_ttl, prefix=config.redis_prefix)
    return Node(node_id, leases, presence, directory)

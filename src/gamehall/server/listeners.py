"""TCP listeners, one per protocol, on the running loop."""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Callable

log = logging.getLogger("gamehall.server")

BACKLOG = 512


async def start_tcp(
    name: str, host: str, port: int, factory: Callable[[], asyncio.Protocol]
) -> asyncio.Server:
    """Listen on ``host:port`` for protocol ``name``; each accepted socket gets ``factory()``.

    ``port`` 0 binds an ephemeral port (tests); :func:`bound_port` tells which. Whether a
    protocol listens at all is the caller's decision.

    Raises:
        OSError: the address cannot be bound (in use, no permission).
    """
    loop = asyncio.get_running_loop()
    server = await loop.create_server(factory, host, port, reuse_address=True, backlog=BACKLOG)
    log.debug("%s bound to %s", name, ", ".join(_describe(sock) for sock in server.sockets))
    return server


def bound_port(server: asyncio.Server) -> int:
    """The port ``server`` listens on (the first socket's, when it listens on several)."""
    for sock in server.sockets:
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            return int(sock.getsockname()[1])
    raise ValueError("server has no TCP socket")


def _describe(sock: socket.socket) -> str:
    address = sock.getsockname()
    return f"{address[0]}:{address[1]}" if isinstance(address, tuple) else str(address)

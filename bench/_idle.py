"""What an idle connection costs a server: its RSS before and after N connections that wait.

Two kinds of idle connection:

- *plain*: a TCP socket connected to the AAH port that never sends a byte (what a port scanner,
  a stuck client or a load balancer probe leaves behind). The server holds its transport, its
  connection object, its dialogue in state ``NEW`` and a codec;
- *joined*: a wire bot that joined (``JOIN``, ``META``, ``ACKN``) and sits at a lobby table
  that never starts: a hall user, a seat, a listener, and a share of a table.

The server's resident memory (``VmRSS``) is read once it holds every connection (its open
descriptor count says so) and after a short settle, and compared with the reading before the
connections were opened. Every wait is bounded; the sockets are closed before the server stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass

from _aah_clients import join_all
from _server_process import LOOPBACK, ChildServer, open_fds, rss_bytes
from bench_echo_baseline import _new_loop

SETTLE_S = 1.0
ACCEPT_TIMEOUT_S = 120.0
CONNECT_BATCH = 250
JOIN_BATCH = 12


@dataclass(frozen=True, slots=True)
class IdleRow:
    what: str
    connections: int
    before: int
    after: int

    @property
    def per_connection(self) -> float:
        return (self.after - self.before) / self.connections if self.connections else 0.0


def _wait_for_fds(pid: int, at_least: int) -> None:
    deadline = time.monotonic() + ACCEPT_TIMEOUT_S
    while open_fds(pid) < at_least:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server holds {open_fds(pid)} descriptors, expected {at_least}")
        time.sleep(0.1)


@contextlib.contextmanager
def _plain_sockets(port: int, count: int) -> Iterator[list[socket.socket]]:
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sockets.append(socket.create_connection((LOOPBACK, port), timeout=10.0))
        yield sockets
    finally:
        for sock in sockets:
            sock.close()


def _settled_rss(pid: int) -> int:
    time.sleep(SETTLE_S)
    return rss_bytes(pid)


def idle_plain(start: Callable[[], AbstractContextManager[ChildServer]], count: int, what: str) -> IdleRow:
    """RSS of a fresh server before and after ``count`` connected sockets that send nothing."""
    with start() as server:
        with _plain_sockets(server.port, 20):  # the first connections import and allocate once
            _wait_for_fds(server.pid, 20)
        before = _settled_rss(server.pid)
        fds = open_fds(server.pid)
        with _plain_sockets(server.port, count):
            _wait_for_fds(server.pid, fds + count)
            after = _settled_rss(server.pid)
    return IdleRow(what, count, before, after)


def idle_joined(start: Callable[[], AbstractContextManager[ChildServer]], count: int, what: str) -> IdleRow:
    """RSS of a fresh server before and after ``count`` wire bots joined lobby tables."""
    loop = _new_loop()
    try:
        with start() as server:

            async def join(names: list[str]) -> int:
                bots, problems = await join_all(
                    server.port, names, batch=JOIN_BATCH, seed=7, play=False, answer_meta=True
                )
                for problem in problems[:5]:
                    print(f"  ! {problem}")
                holding.extend(bots)
                return len(bots)

            holding: list[object] = []
            loop.run_until_complete(join([f"w{n}" for n in range(16)]))
            before = _settled_rss(server.pid)
            joined = loop.run_until_complete(join([f"j{n}" for n in range(count)]))
            after = _settled_rss(server.pid)
            loop.run_until_complete(_close_all(holding))
    finally:
        loop.close()
    return IdleRow(what, joined, before, after)


async def _close_all(bots: list[object]) -> None:
    from gamehall.bots.aah import AahWireBot

    await asyncio.gather(
        *(bot.close() for bot in bots if isinstance(bot, AahWireBot)), return_exceptions=True
    )

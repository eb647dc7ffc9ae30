"""The reconnect loop every wire bot shares.

A lost connection before the game's end (the server restarted, the network broke) is not the
end for a bot: it connects again and its protocol's way back retakes the held seat
(docs/recovery.md). What differs between protocols is one connection's dialogue; the loop
around it - when to give up, when a connection counts as a real one - is the same, so it lives
here once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

RECONNECT_PAUSE_S = 0.1
"""The pause between two attempts to reconnect after a lost connection."""

Connection = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[bool]]


async def play_reconnecting(
    host: str,
    port: int,
    connection: Connection,
    *,
    finished: Callable[[], bool],
    lost: Callable[[], None],
    reconnect_s: float,
) -> int:
    """Run ``connection`` over fresh TCP connections until ``finished()``; returns how many
    times the bot came back. ``connection`` returns whether the server said anything (a relay
    in front of a server that is not back yet accepts and closes at once: that is no
    reconnect); ``lost`` resets the player's per-connection state. Gives up after
    ``reconnect_s`` seconds without a connection the server spoke on.

    Raises:
        OSError: the server cannot be reached at the start.
    """
    connected_once = False
    gone_since: float | None = None
    reconnects = 0
    loop = asyncio.get_running_loop()
    while not finished():
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError:
            if not connected_once:
                raise
        else:
            connected_once = True
            heard = await connection(reader, writer)
            if finished():
                break
            lost()
            if heard:
                gone_since = None
                reconnects += 1
        gone_since = loop.time() if gone_since is None else gone_since
        if loop.time() - gone_since > reconnect_s:
            break
        await asyncio.sleep(RECONNECT_PAUSE_S)
    return reconnects

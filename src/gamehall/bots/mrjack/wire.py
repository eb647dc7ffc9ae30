"""Mr. Jack bots over TCP: :class:`MrJackWireBot` plays games through the term protocol, and
:func:`run_bots` runs many at once (``gamehall bots --game mrjack``).

The socket part only moves lines: the decisions and the board knowledge are the sans-I/O
:class:`~gamehall.bots.mrjack.player.WirePlayer`. The bot writes the ``prolog`` style and reads
either style (the codec reads both).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from dataclasses import dataclass, field

from gamehall.bots.mrjack.player import WirePlayer
from gamehall.bots.mrjack.policy import MrJackPolicy
from gamehall.protocols._core import NEED_DATA, ProtocolError
from gamehall.protocols.mrjack.codec import Received, TermCodec
from gamehall.protocols.mrjack.dialogue import NICK_PATTERN
from gamehall.protocols.mrjack.terms import Style

log = logging.getLogger(__name__)

RECONNECT_S = 0.1
"""The pause between two attempts to reconnect after a lost connection."""
REFUSED_RETRY_S = 0.5
"""The pause before trying again after the server refused the bot's nick as taken."""

ROLES = ("mrjack", "detektiv")

DEFAULT_THINK_TIME = 0.03
"""Seconds :func:`run_bots` waits before each line it sends: about 33 lines a second, under the
server's default per-connection rate limit (50 reads a second), which would otherwise cut a
bot that answers at machine speed off in the middle of a game."""


@dataclass(slots=True)
class BotResult:
    """What one bot saw: the winners of its games (``mrjack``/``detektiv``), its role, the
    ``err`` texts it received and the server lines it could not read."""

    nick: str
    role: str
    winners: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    lines_received: int = 0


class MrJackWireBot:
    """One TCP connection playing ``games`` games as ``role`` (see the module docstring)."""

    def __init__(
        self,
        host: str,
        port: int,
        nick: str,
        role: str,
        *,
        policy: MrJackPolicy | None = None,
        rng: random.Random | None = None,
        games: int = 1,
        detective_marks: bool = False,
        think_time: float = 0.0,
        reconnect_s: float = 60.0,
    ) -> None:
        if not NICK_PATTERN.fullmatch(nick):
            raise ValueError(f"{nick!r} is not a valid Mr. Jack nick (1-16 of A-Z a-z 0-9 _)")
        if role not in ROLES:
            raise ValueError(f"unknown role {role!r}")
        self.host, self.port = host, port
        self.player = WirePlayer(
            nick,
            role,
            policy or MrJackPolicy("random"),
            rng or random.Random(),
            games=games,
            detective_marks=detective_marks,
        )
        self.result = BotResult(nick, role)
        self.think_time = think_time
        self.reconnect_s = reconnect_s
        """How long a bot whose connection was lost keeps trying to get back (the server's
        default grace is 60 s)."""
        self.reconnects = 0
        self._codec = TermCodec(Style.PROLOG)

    async def run(self) -> BotResult:
        """Connect, play until the games are done, return the result. A connection lost before
        that (the server restarted, the network broke) is not the end: the bot connects again
        and its ``nick`` + ``init`` retake the held seat, with the game's catch-up
        (docs/recovery.md), for up to ``reconnect_s`` seconds.

        Raises:
            OSError: the server cannot be reached at the start.
        """
        connected_once = False
        gone_since: float | None = None
        loop = asyncio.get_running_loop()
        while True:
            try:
                reader, writer = await asyncio.open_connection(self.host, self.port)
            except OSError:
                if not connected_once:
                    raise
            else:
                connected_once = True
                received = await self._play(reader, writer)
                if self.player.finished:
                    break
                if received:
                    gone_since = None
                    self.reconnects += 1
                    self.player = self._fresh_player()
            gone_since = loop.time() if gone_since is None else gone_since
            if loop.time() - gone_since > self.reconnect_s:
                break
            await asyncio.sleep(RECONNECT_S)
        player = self.player
        self.result.winners, self.result.errors = list(player.winners), list(player.errors)
        return self.result

    async def _play(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        """One connection, until it closes or the nick is refused. Returns whether the server
        said anything (a relay in front of a server that is not back yet accepts and closes
        at once) and took the nick (:attr:`WirePlayer.refused`)."""
        self._codec = TermCodec(Style.PROLOG)
        before = self.result.lines_received
        try:
            while not reader.at_eof() and not self.player.refused:
                data = await reader.read(65536)
                if not data:
                    break
                self._codec.receive_data(data)
                for line in self._lines():
                    if self.think_time > 0:
                        await asyncio.sleep(self.think_time)
                    writer.write(line)
                    await writer.drain()
        except ConnectionError:
            pass
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()
        if self.player.refused:
            self.player = self._fresh_player()
            await asyncio.sleep(REFUSED_RETRY_S)
            return False  # not back yet: the reconnect window keeps running
        return self.result.lines_received > before

    def _fresh_player(self) -> WirePlayer:
        """A player for a new connection: the server's catch-up rebuilds what it knows of the
        game; the games already played are kept."""
        old = self.player
        fresh = WirePlayer(
            old.nick,
            self.result.role,
            old.policy,
            old.rng,
            games=old.games,
            detective_marks=old.detective_marks,
        )
        fresh.winners, fresh.errors = old.winners, old.errors
        return fresh

    def _lines(self) -> list[bytes]:
        """The answers to the lines read so far, decided once the whole burst is in."""
        out: list[bytes] = []
        self.player.begin_batch()
        while True:
            try:
                message = self._codec.next_message()
            except ProtocolError as exc:
                self.result.unreadable.append(exc.reason)
                continue
            if message is NEED_DATA:
                return out + [self._codec.encode(command) for command in self.player.end_batch()]
            assert isinstance(message, Received)
            self.result.lines_received += 1
            out += [self._codec.encode(command) for command in self.player.receive(message.command)]


async def run_bots(
    host: str,
    port: int,
    count: int,
    *,
    names_prefix: str = "bot",
    policy: MrJackPolicy | str | None = None,
    games: int = 1,
    seed: int | None = None,
    timeout: float | None = None,
    detective_marks: bool = False,
    think_time: float = DEFAULT_THINK_TIME,
) -> list[BotResult]:
    """Run ``count`` wire bots named ``<names_prefix><n>`` against ``HOST:PORT`` at once; odd
    numbers play Mr. Jack, even numbers the detective, so the seating pairs them up. Each plays
    ``games`` games, waiting ``think_time`` seconds before each line (:data:`DEFAULT_THINK_TIME`).
    Returns one :class:`BotResult` per bot, in name order.

    Raises:
        ValueError: a generated name is not a valid nick, or an unknown policy style.
        TimeoutError: ``timeout`` seconds passed first (every bot is stopped).
        OSError: the server cannot be reached.
    """
    chosen = policy if isinstance(policy, MrJackPolicy) else MrJackPolicy(policy or "random")
    master = random.Random(seed)
    bots = [
        MrJackWireBot(
            host,
            port,
            f"{names_prefix}{number}",
            ROLES[(number - 1) % 2],
            policy=chosen,
            rng=random.Random(master.getrandbits(64)),
            games=games,
            detective_marks=detective_marks,
            think_time=think_time,
        )
        for number in range(1, count + 1)
    ]
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    try:
        async with asyncio.timeout(timeout):
            results = list(await asyncio.gather(*tasks))
    finally:
        for task in tasks:
            task.cancel()
    for result in results:
        log.info("%s (%s): winners %s, %d err", result.nick, result.role, result.winners, len(result.errors))
    return results


__all__ = ["DEFAULT_THINK_TIME", "BotResult", "MrJackWireBot", "run_bots"]

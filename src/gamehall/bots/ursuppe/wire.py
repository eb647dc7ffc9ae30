"""Ursuppe bots over TCP: :class:`UrWireBot` plays games over the UrServer protocol, and
:func:`run_bots` runs a table of them (``gamehall bots --game ursuppe``).

The socket part only moves lines; decisions are the sans-I/O
:class:`~gamehall.bots.ursuppe.player.WirePlayer`. For each game the first bot creates it
(``NEU``, ``NAME``, ``PASSWORT``, ``TIMEOUT``); every bot polls ``LISTE`` until the game is
listed and joins it. After ``SPIEL_BEENDET`` a bot sends ``ABMELDEN`` and connects afresh for
its next game (a connection belongs to one game, and in normal mode the server keeps it open
for the chat).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from gamehall.bots.ursuppe.player import WirePlayer
from gamehall.protocols._core import NEED_DATA, ProtocolError
from gamehall.protocols.urserver.codec import UrCodec

log = logging.getLogger(__name__)

POLL_S = 0.05
RECONNECT_S = 0.1
"""The pause between two attempts to reconnect after a lost connection."""
REFUSED_RETRY_S = 0.5
"""The pause before asking again after the server refused to give the held seat back."""
WRITES_PER_S = 40.0
WRITE_BURST = 60
"""A bot's writes are paced by a token bucket below the server's default rate limit (50 reads
a second, bursts of 100; a connection over it is closed): a bot answers much faster."""


@dataclass(slots=True)
class BotResult:
    """What one bot saw: its colour and the final ladder positions of each game, and the
    FEHLER lines it received."""

    name: str
    games: list[dict[int, int]] = field(default_factory=list)
    colours: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


class UrWireBot:
    """One bot playing ``games`` games, a new connection for each."""

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        *,
        creates: bool,
        players: int,
        policy: str = "random",
        rng: random.Random | None = None,
        games: int = 1,
        game_prefix: str = "bots",
        timeout_ms: int = 30000,
        reconnect_s: float = 60.0,
    ) -> None:
        self.host, self.port = host, port
        self.name = name
        self.creates = creates
        self.players = players
        self.policy = policy
        self.rng = rng or random.Random()
        self.games = games
        self.game_prefix = game_prefix
        self.timeout_ms = timeout_ms
        self.reconnect_s = reconnect_s
        """How long a bot whose connection was lost keeps trying to get back to its seat (the
        server's default grace is 60 s)."""
        self.reconnects = 0
        self._gone_since: float | None = None
        self.result = BotResult(name)

    async def run(self) -> BotResult:
        """Play the games; returns what happened.

        Raises:
            OSError: the server cannot be reached.
        """
        number = 0
        while self.games == 0 or number < self.games:
            number += 1
            await self._play_one(f"{self.game_prefix}{number}")
        return self.result

    async def _play_one(self, game: str) -> None:
        """Create or join ``game`` and play it to ``SPIEL_BEENDET``. A lost connection (the
        server restarted, the network broke) is not the end: the bot connects again and
        retakes its held seat by name (``TEILNEHMEN``/``PASSWORT``/``NAME``, docs/recovery.md),
        for up to ``reconnect_s`` seconds."""
        player = WirePlayer(self.policy, random.Random(self.rng.getrandbits(64)))
        joined = False
        while not player.finished:
            try:
                reader, writer = await asyncio.open_connection(self.host, self.port)
            except OSError:
                if not joined or not await self._wait_to_reconnect():
                    raise
                continue
            try:
                outcome = await self._session(game, player, reader, writer, rejoin=joined)
            finally:
                writer.close()
                with contextlib.suppress(ConnectionError):
                    await writer.wait_closed()
            if outcome == "refused":
                # the game ended (or let the seat go) while this bot was away - or, on a hall
                # of several nodes, the node that adopts it has not yet (docs/scale-out.md,
                # "Failover and drain"): ask again, as a player would, until the window ends
                if not await self._wait_to_reconnect(pause_s=REFUSED_RETRY_S):
                    break
                continue
            if outcome == "lost" and not joined:
                return
            if outcome == "joined" and not player.finished:
                joined = True
                self.reconnects += 1  # seated, then the connection was lost
                fresh = WirePlayer(self.policy, random.Random(self.rng.getrandbits(64)))
                player = _carried_over(player, fresh)
            if not player.finished and not await self._wait_to_reconnect():
                break
        self.result.games.append(dict(player.scores))
        if player.colour is not None:
            self.result.colours.append(player.colour)
        self.result.errors += player.errors

    async def _wait_to_reconnect(self, pause_s: float = RECONNECT_S) -> bool:
        """Sleep ``pause_s`` before the next connection attempt; False once ``reconnect_s``
        ran out."""
        loop = asyncio.get_running_loop()
        if self._gone_since is None:
            self._gone_since = loop.time()
        if loop.time() - self._gone_since > self.reconnect_s:
            return False
        await asyncio.sleep(pause_s)
        return True

    async def _session(
        self,
        game: str,
        player: WirePlayer,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        rejoin: bool,
    ) -> str:
        """One connection's part of the game: ``joined`` (the seat was taken, whatever came
        after), ``refused`` (no seat to retake) or ``lost`` (closed before a seat)."""
        codec = UrCodec()

        async def read_line() -> str | None:
            while True:
                try:
                    line = codec.next_message()
                except ProtocolError:
                    continue
                if line is not NEED_DATA:
                    assert isinstance(line, str)
                    return line
                try:
                    data = await reader.read(65536)
                except ConnectionError:
                    return None
                if not data:
                    return None
                codec.receive_data(data)

        def send(*lines: str) -> None:
            writer.write(codec.encode_block(lines))

        try:
            if rejoin:
                accepted = await self._retake(game, read_line, send)
                if accepted is None:
                    return "lost"
                if not accepted:
                    return "refused"
            else:
                if self.creates:
                    send(f"NEU {self.players}", f"NAME {game}", "PASSWORT", f"TIMEOUT {self.timeout_ms}")
                accepted = await self._join(game, read_line, send)
                if accepted is None:
                    return "lost"
            self._gone_since = None
            player.feed(accepted)
            loop = asyncio.get_running_loop()
            tokens, refilled = float(WRITE_BURST), loop.time()
            while not player.finished:
                line = await read_line()
                if line is None:
                    return "joined"
                out = player.feed(line)
                if out:
                    now = loop.time()
                    tokens = min(WRITE_BURST, tokens + (now - refilled) * WRITES_PER_S)
                    refilled = now
                    if tokens < 1:
                        await asyncio.sleep((1 - tokens) / WRITES_PER_S)
                        tokens, refilled = 1.0, loop.time()
                    tokens -= 1
                    send(*out)
                    await writer.drain()
            send("ABMELDEN")
            await writer.drain()
        except ConnectionError:
            pass
        return "joined"

    async def _retake(
        self, game: str, read_line: Callable[[], Awaitable[str | None]], send: Callable[..., None]
    ) -> str | None:
        """Retake the held seat: the ``SPIELERIN_AKZEPTIERT`` line; ``""`` when the server
        refuses (the game is over or the seat was let go); None when the connection closes
        first (the server is not back yet: try again)."""
        send(f"TEILNEHMEN {game}", "PASSWORT x", f"NAME {self.name}")
        while True:
            line = await read_line()
            if line is None:
                return None
            if line.startswith("SPIELERIN_AKZEPTIERT"):
                return line
            if line.startswith("FEHLER"):
                return ""

    async def _join(
        self, game: str, read_line: Callable[[], Awaitable[str | None]], send: Callable[..., None]
    ) -> str | None:
        """Poll LISTE until ``game`` waits for players, then join it. Returns the
        ``SPIELERIN_AKZEPTIERT`` line, or None if the connection closed first."""
        while True:
            send("LISTE")
            listed = False
            remaining: int | None = None
            while remaining is None or remaining > 0:
                line = await read_line()
                if line is None:
                    return None
                words = line.split()
                if words[0] == "SPIELE":
                    remaining = int(words[1])
                elif words[0] == "SPIEL" and remaining is not None:
                    remaining -= 1
                    listed = listed or (words[1] == game and words[3] == "0")
            if listed:
                send(f"TEILNEHMEN {game}", "PASSWORT x", f"NAME {self.name}")
                while True:
                    line = await read_line()
                    if line is None:
                        return None
                    if line.startswith("SPIELERIN_AKZEPTIERT"):
                        return line
                    if line.startswith("FEHLER"):
                        break
            await asyncio.sleep(POLL_S)


async def run_bots(
    host: str,
    port: int,
    count: int,
    *,
    names_prefix: str = "bot",
    policy: str = "random",
    games: int = 1,
    seed: int | None = None,
    timeout: float | None = None,
    timeout_ms: int = 30000,
) -> list[BotResult]:
    """Run ``count`` (3 or 4) bots named ``<names_prefix><n>`` at one table against
    ``HOST:PORT``; they play ``games`` games together. Returns one result per bot.

    Raises:
        ValueError: ``count`` is not 3 or 4.
        TimeoutError: ``timeout`` seconds passed first.
        OSError: the server cannot be reached.
    """
    if count not in (3, 4):
        raise ValueError("an Ursuppe table has 3 or 4 players")
    master = random.Random(seed)
    bots = [
        UrWireBot(
            host,
            port,
            f"{names_prefix}{number}",
            creates=number == 1,
            players=count,
            policy=policy,
            rng=random.Random(master.getrandbits(64)),
            games=games,
            game_prefix=f"{names_prefix}g",
            timeout_ms=timeout_ms,
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
        log.info("%s: games %s, %d FEHLER", result.name, result.games, len(result.errors))
    return results


def _carried_over(old: WirePlayer, new: WirePlayer) -> WirePlayer:
    """A fresh player for a new connection, knowing what the old one learnt: its colour, the
    round, the scores and when its genes were bought (a half-read block or an answer in
    flight is not carried: the server sends the pending request again)."""
    new.colour, new.round = old.colour, old.round
    new.scores = dict(old.scores)
    new.gene_rounds = dict(old.gene_rounds)
    new.errors = old.errors
    return new


__all__ = ["BotResult", "UrWireBot", "run_bots"]

"""The crash harness across nodes: ``kill -9`` the node that serves a room, another adopts it.

:func:`failover_game` is :func:`kill_restart.crash_game` for a hall of two nodes (``a`` and
``b``) on one Redis prefix and one PostgreSQL schema (docs/scale-out.md, "Failover and
drain"). The clients reach the hall through a relay that stands for a load balancer
(:class:`Balancer`): node ``b`` while it is up, else node ``a``; so the room is created on
node ``b``. At the chosen log length node ``b`` is killed (:class:`FailoverRun`, a
:class:`kill_restart.CrashRun` whose replacement is the other node, not a restart); node ``a``
adopts the room from the log once ``b``'s lease expired, the clients reconnect through the
relay (now to node ``a``) and retake their seats by the crash-recovery rules, and the game
ends there. The run checks what a restart's does: every log entry from before the kill is
unchanged (and, paused, that nothing changed and the spectator sees the same view).

From the kill the relay holds what the clients send on their new connections until the room
is adopted, or (``returns_before_adoption``) only until the dead node's names expired and its
rooms left the shared directory, with the dead node's lease held a few seconds longer so that
the logins surely reach the survivor before it adopts the room: the hall must then hold the
names for the room (docs/scale-out.md, "Failover and drain") rather than give them fresh
logins that leave the adopted room's seats empty.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from pathlib import Path

import aiohttp
from kill_restart import (
    LOOPBACK,
    ClientsFactory,
    CrashOutcome,
    CrashRun,
    NodeProcess,
    PausableProxy,
    first_room,
    has_started,
    kill_positions,
    wind_down,
)
from redis_space import RedisSpace

from gamehall.store.base import RoomRecord

TTL = 2.0
"""The nodes' lease ttl: a killed node's rooms are adopted about 2-3 s after the kill."""
ADOPTION_TIMEOUT_S = 20.0
LATE_ADOPTION_S = 2.0
"""How much later than the ttl the dead node's lease of the room expires when a test holds it
off: an adoption scan that comes late (a busy node, a long log to rebuild)."""
NAMES_GONE_S = 0.3
RETAKE_TIMEOUT_S = 10.0
"""How long the returning players have to retake their seats once the room is adopted."""


class Balancer:
    """Where the relay sends a new connection: the first node (in ``preferred`` order) that
    is up. A node is marked down just before it is killed, so every connection the kill cuts
    comes back to the survivor."""

    def __init__(self, preferred: Iterable[NodeProcess]) -> None:
        self.preferred = list(preferred)
        self.down: set[int] = set()

    def serving(self) -> NodeProcess:
        return next(node for node in self.preferred if id(node) not in self.down)

    def upstream(self, protocol: str) -> Callable[[], int]:
        """The relay's upstream for ``protocol``'s listener."""
        return lambda: self.serving().ports[protocol]


class FailoverRun(CrashRun):
    """A :class:`CrashRun` whose kill is a failover: the serving node dies for good and the
    balancer's next node adopts the room (it holds the room's lease in ``space``)."""

    def __init__(
        self,
        balancer: Balancer,
        space: RedisSpace,
        proxy: PausableProxy,
        room_id: str,
        *,
        returns_before_adoption: bool = False,
    ) -> None:
        super().__init__(balancer.serving(), [proxy], room_id)
        self.balancer = balancer
        self.space = space
        self.proxy = proxy
        self.returns_before_adoption = returns_before_adoption
        """Let the clients' logins reach the survivor after the dead node's names and rooms
        left the hall but before the room is adopted, and check that they retake their seats
        (see the module docstring); else they reach it once it serves the room."""

    async def kill_and_replace(self) -> None:
        """Mark the serving node down and ``kill -9`` it; the clients' reconnections go to the
        survivor at once, but what they send is held (from the kill: their last bytes before
        it went up, so the kill may still cut a move) until the survivor adopted the room, or
        (:attr:`returns_before_adoption`) until the room left its lobby, with the adoption
        held off by :data:`LATE_ADOPTION_S`."""
        dying = self.balancer.serving()
        self.balancer.down.add(id(dying))
        holding = not self.proxy.paused  # (a paused run holds them anyway)
        self.proxy.pause()
        await asyncio.to_thread(dying.kill9)
        self.server = self.balancer.serving()
        if self.returns_before_adoption:
            await self.space.client.pexpire(self.lease_key, int((TTL + LATE_ADOPTION_S) * 1000))
            await self.gone_from_lobby(self.server)
            self.proxy.resume()
        await self.adopted_by(self.server)
        if holding:
            self.proxy.resume()
        if self.returns_before_adoption:
            await self.seats_retaken()

    async def seats_retaken(self) -> None:
        """Wait until no seat of the adopted room is held for an absent player.

        Raises:
            AssertionError: some seat is still away after :data:`RETAKE_TIMEOUT_S`: its
                player came back but not to it.
        """
        try:
            async with asyncio.timeout(RETAKE_TIMEOUT_S):
                while await self.away_seats():
                    await asyncio.sleep(0.05)
        except TimeoutError:
            game = (await asyncio.to_thread(self.server.room, self.room_id)).game
            rooms = [r.room_id for r in await asyncio.to_thread(self.server.rooms, game)]
            away = await self.away_seats()
            raise AssertionError(f"seats {away} of the adopted room stay empty; rooms now: {rooms}") from None

    @property
    def lease_key(self) -> str:
        return f"{self.space.prefix}lease:{self.room_id}"

    async def gone_from_lobby(self, node: NodeProcess) -> None:
        """Wait until ``node``'s ``GET /api/rooms`` no longer lists the room (the dead owner's
        rooms left the shared directory), and a moment more (its names went at the same ttl)."""
        async with asyncio.timeout(ADOPTION_TIMEOUT_S):
            while self.room_id in await listed_rooms(node):
                await asyncio.sleep(0.02)
        await asyncio.sleep(NAMES_GONE_S)

    async def adopted_by(self, node: NodeProcess) -> None:
        """Wait until ``node`` holds the room's lease (it has rebuilt the room from the log).

        Raises:
            TimeoutError: no adoption within :data:`ADOPTION_TIMEOUT_S`.
        """
        mark = f"{node_id(node)}/".encode()
        async with asyncio.timeout(ADOPTION_TIMEOUT_S):
            while not (await self.space.client.get(self.lease_key) or b"").startswith(mark):
                await asyncio.sleep(0.02)


async def listed_rooms(node: NodeProcess) -> list[str]:
    """The ids of the rooms ``node``'s browser lobby lists (``GET /api/rooms``)."""
    url = f"http://{LOOPBACK}:{node.ports['web']}/api/rooms"
    async with aiohttp.ClientSession() as http, http.get(url) as got:
        return [str(room["id"]) for room in await got.json()]


def node_id(node: NodeProcess) -> str:
    return node.node_args[node.node_args.index("--node-id") + 1]


async def failover_game(
    directory: Path,
    *,
    space: RedisSpace,
    db: str,
    game: str,
    protocol: str,
    clients: ClientsFactory,
    seed: int,
    span: tuple[int, int],
    paused: bool,
    returns_before_adoption: bool = False,
    settings: Iterable[str] = (),
    started: Callable[[RoomRecord], bool] = has_started,
    timeout: float = 120.0,
) -> CrashOutcome:
    """One game of ``game`` played by ``clients`` over ``protocol`` through the balancer's
    relay, created on node ``b``; node ``b`` is killed at a log length drawn from ``seed`` in
    ``span`` and node ``a`` finishes the game. Returns the finished room's record, the
    clients' results and what the kill saw (none if the game ended first).

    Raises:
        AssertionError: a log entry was lost or changed, or (paused) the spectator's view
            changed.
        TimeoutError: node ``a`` did not adopt the room, or the game did not finish in time.
    """
    nodes = [
        NodeProcess.in_hall(space, directory, name, ttl=TTL, db=db, settings=settings) for name in ("b", "a")
    ]
    await asyncio.gather(*(asyncio.to_thread(node.start) for node in nodes))
    balancer = Balancer(nodes)
    proxy = PausableProxy(balancer.upstream(protocol))
    await proxy.start()
    tasks = [asyncio.ensure_future(client) for client in clients(proxy.port)]
    early = returns_before_adoption
    try:
        async with asyncio.timeout(timeout):
            room_id = await first_room(nodes[0], game, started=started)
            run = FailoverRun(balancer, space, proxy, room_id, returns_before_adoption=early)
            await run.adopted_by(nodes[0])  # the room is node b's
            for position in kill_positions(seed, 1, *span):
                await run.kill_at(position, paused=paused)
            record = await run.finished(timeout=timeout)
            results = list(await asyncio.gather(*tasks))
        return CrashOutcome(record, results, run.kills)
    except BaseException:
        for node in nodes:
            print(f"node {node_id(node)} log:\n{node.stderr()}")
        raise
    finally:
        await wind_down(tasks, [proxy], nodes)

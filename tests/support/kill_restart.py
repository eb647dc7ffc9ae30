"""Crash tests against a real server process: ``kill -9``, restart on the same store, go on.

One harness for the five protocols (issue 9, "Tests"). :class:`ServerProcess` runs ``python -m
gamehall.cli serve`` on a temporary SQLite ``--db`` (or a given PostgreSQL URL) with every
listener on a free loopback port,
kills it with SIGKILL and starts it again (on fresh ports: the clients reach it through
relays that follow it). :class:`PausableProxy` sits between a protocol's clients and the server:
paused, it holds what the clients send (their connections stay open), so the game stands still
while the test takes the room's log and a spectator's view just before the kill; after the
restart the held bytes are dropped with the dead server's connections, and the clients come
back over their own protocol (the project's wire bots reconnect by themselves).

:class:`CrashRun` drives one room through a list of kills: it waits until the room's log holds
the next chosen number of entries, (optionally) pauses the clients, records the log and the
spectator view, kills, restarts, and checks that the log before the kill is a prefix of the log
after the restart (nothing accepted is lost) and that the spectator sees the same view. Kill
positions come from a seed (:func:`kill_positions`), so a failure is reproducible.

The servers log at WARNING into ``server-N.log`` beside their store; set
``TEST_SERVER_LOG_LEVEL=INFO`` (or ``DEBUG``) in the test run's environment to see more.

The spectator is a browser-protocol client (JSON over the WebSocket, ``docs/web-protocol.md``):
it sees every game through the engine's spectator view, the same for all five games.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp

from gamehall.games import GAMES
from gamehall.store import open_store
from gamehall.store.base import LogEntry, RoomRecord, Store

if TYPE_CHECKING:
    from redis_space import RedisSpace

LOOPBACK = "127.0.0.1"
START_TIMEOUT_S = 30.0
LISTENERS = (*(entry.protocol for entry in GAMES), "web")
FAST_CLIENTS = {"GAMEHALL_RATE_LIMIT_PER_S": "10000", "GAMEHALL_RATE_LIMIT_BURST": "10000"}
"""The test's bots answer at machine speed; the per-connection input limit is not what these
tests are about."""


def free_port() -> int:
    """A free port below Linux's ephemeral range (32768-60999): a port from that range may be
    taken, between a kill and the restart, as the local end of some client's connection (the
    relay's own, for one), and the restarted server could not listen on it."""
    rng = random.Random()
    for _ in range(200):
        port = rng.randrange(20000, 32000)
        with socket.socket() as probe:
            try:
                probe.bind((LOOPBACK, port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port below the ephemeral range")


def distinct_free_ports(names: Sequence[str]) -> dict[str, int]:
    """A free port for each name, no two alike (a probe's port is free again at once, so two
    probes may draw the same one)."""
    ports: dict[str, int] = {}
    while len(ports) < len(names):
        port = free_port()
        if port not in ports.values():
            ports[names[len(ports)]] = port
    return ports


def kill_positions(seed: int, count: int, low: int, high: int) -> list[int]:
    """``count`` distinct log lengths in ``[low, high)`` at which to kill, from ``seed``."""
    span = range(low, max(high, low + count))
    return sorted(random.Random(seed).sample(span, count))


# ------------------------------------------------------------------------------ the server


class ServerProcess:
    """The real server in a child process, on a store that outlives it (see the module
    docstring). ``settings`` are ``GAME.KEY=VALUE`` pairs for ``--set``; ``db`` is the
    ``--db`` (default: ``hall.db`` in ``directory``)."""

    def __init__(self, directory: Path, settings: Iterable[str] = (), db: str | None = None) -> None:
        self.db = str(directory / "hall.db") if db is None else db
        self.directory = directory
        self.settings = list(settings)
        self.ports: dict[str, int] = {}
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def command(self) -> list[str]:
        command = [sys.executable, "-m", "gamehall.cli", "serve", "--bind", LOOPBACK, "--db", self.db]
        command += ["--log-level", os.environ.get("TEST_SERVER_LOG_LEVEL", "WARNING")]
        for name, port in self.ports.items():
            command += [f"--{name}-port", str(port)]
        for setting in self.settings:
            command += ["--set", setting]
        return command

    def start(self) -> None:
        """Start (or restart) and return once every listener accepts connections. Each start
        listens on fresh free ports (the clients reach the server through relays, which follow
        :attr:`ports`); a start that finds a port taken after all is tried again.

        Raises:
            RuntimeError: the server exited or did not listen within the start timeout.
        """
        for attempt in range(3):
            self.ports = distinct_free_ports(LISTENERS)
            try:
                self._start_once()
                return
            except RuntimeError:
                if attempt == 2 or "address already in use" not in self.stderr():
                    raise

    def _start_once(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("GAMEHALL_")}
        env.update(FAST_CLIENTS)
        self.starts += 1
        log = open(self.directory / f"server-{self.starts}.log", "wb")  # noqa: SIM115 - the child's stderr
        try:
            self.process = subprocess.Popen(
                self.command(), env=env, cwd=self.directory, stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=log,
            )  # fmt: skip
        finally:
            log.close()
        deadline = time.monotonic() + START_TIMEOUT_S
        waiting = set(self.ports.values())
        while waiting:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}: {self.stderr()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not listen within {START_TIMEOUT_S:.0f} s")
            for port in list(waiting):
                with socket.socket() as probe:
                    if probe.connect_ex((LOOPBACK, port)) == 0:
                        waiting.discard(port)
            time.sleep(0.02)
        time.sleep(0.2)  # a listener that failed late (a port taken) ends the process: see it
        if self.process.poll() is not None:
            raise RuntimeError(f"the server exited with {self.process.returncode}: {self.stderr()}")

    def stderr(self) -> str:
        path = self.directory / f"server-{self.starts}.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def kill9(self) -> None:
        """SIGKILL: no shutdown, no flush; whatever the store committed is all there is."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)

    # ---- the store, read beside the server (SQLite WAL allows readers) --------------------

    def _read(self, read: Callable[[Store], Any]) -> Any:
        store = open_store(self.db)
        try:
            return read(store)
        finally:
            store.close()

    def rooms(self, game: str) -> list[RoomRecord]:
        """The rooms of ``game``, oldest first, with their logs."""

        def read(store: Store) -> list[RoomRecord]:
            listed = reversed(store.recent_rooms(50, game))
            return [r for r in (store.load_room(info.room_id) for info in listed) if r is not None]

        return list(self._read(read))

    def room(self, room_id: str) -> RoomRecord:
        record = self._read(lambda store: store.load_room(room_id))
        assert record is not None, f"no room {room_id} in the store"
        return record  # type: ignore[no-any-return]


class NodeProcess(ServerProcess):
    """A :class:`ServerProcess` as node ``node_id`` of a hall on Redis (``--redis``): the
    cluster tests' nodes. ``prefix`` is the hall's key prefix, ``ttl`` the lease ttl."""

    def __init__(
        self,
        directory: Path,
        *,
        node_id: str,
        redis_url: str,
        prefix: str,
        ttl: float,
        settings: Iterable[str] = (),
        db: str | None = None,
    ) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        super().__init__(directory, settings, db)
        self.node_args = ["--redis", redis_url, "--redis-prefix", prefix]
        self.node_args += ["--node-id", node_id, "--lease-ttl", str(ttl)]

    @classmethod
    def in_hall(
        cls,
        space: RedisSpace,
        directory: Path,
        node_id: str,
        *,
        ttl: float,
        db: str | None = None,
        settings: Iterable[str] = (),
    ) -> NodeProcess:
        """Node ``node_id`` of the hall on this test's Redis prefix, in ``directory/node_id``."""
        return cls(
            directory / node_id,
            node_id=node_id,
            redis_url=space.url,
            prefix=space.prefix,
            ttl=ttl,
            settings=settings,
            db=db,
        )

    def command(self) -> list[str]:
        return [*super().command(), *self.node_args]


async def wind_down(
    tasks: Iterable[asyncio.Future[Any]],
    proxies: Iterable[PausableProxy] = (),
    servers: Iterable[ServerProcess] = (),
) -> None:
    """The end of a test against real servers, passed or failed: cancel its clients, close its
    relays, then stop its servers (together: each stop may wait for a drain)."""
    tasks = list(tasks)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for proxy in proxies:
        await proxy.close()
    await asyncio.gather(*(asyncio.to_thread(server.stop) for server in servers))


def joined(record: RoomRecord) -> list[str]:
    """The names of a room's log's joins, in order."""
    return [str(e.data["name"]) for e in record.entries if e.kind == "join" and isinstance(e.data, dict)]


async def finished(server: ServerProcess, room_id: str) -> RoomRecord:
    """The room's record once its game has finished in ``server``'s store."""
    while not (record := await asyncio.to_thread(server.room, room_id)).finished:
        await asyncio.sleep(0.05)
    return record


def entries_of(record: RoomRecord) -> list[tuple[int, str, int | None, Any]]:
    """A log as comparable tuples (the wall-clock time of each entry left out)."""
    return [_entry(e) for e in record.entries]


def _entry(entry: LogEntry) -> tuple[int, str, int | None, Any]:
    return (entry.n, entry.kind, entry.seat, entry.data)


# ------------------------------------------------------------------------------ the proxy


class PausableProxy:
    """A TCP relay from ``port`` to the server's ``upstream`` port (see the module docstring).
    When the server side of a connection closes, the client side is closed too."""

    def __init__(self, upstream: Callable[[], int]) -> None:
        self.upstream = upstream
        """The server's port now (it changes with each restart)."""
        self.port = 0
        self._open = asyncio.Event()
        self._open.set()
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._client, LOOPBACK, 0)
        self.port = int(self._server.sockets[0].getsockname()[1])

    @property
    def paused(self) -> bool:
        return not self._open.is_set()

    def pause(self) -> None:
        self._open.clear()

    def resume(self) -> None:
        self._open.set()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for writer in list(self._writers):
            writer.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        try:
            up_reader, up_writer = await asyncio.open_connection(LOOPBACK, self.upstream())
        except OSError:
            self._writers.discard(writer)
            writer.close()
            return
        self._writers.add(up_writer)
        to_server = asyncio.ensure_future(self._pipe(reader, up_writer, gated=True))
        to_client = asyncio.ensure_future(self._pipe(up_reader, writer, gated=False))
        self._tasks.update((to_server, to_client))
        try:
            await asyncio.wait({to_server, to_client}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (to_server, to_client):
                task.cancel()
                self._tasks.discard(task)
            for w in (writer, up_writer):
                self._writers.discard(w)
                w.close()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, gated: bool) -> None:
        with contextlib.suppress(ConnectionError, OSError):
            while True:
                data = await reader.read(65536)
                if not data:
                    return
                if gated:
                    await self._open.wait()
                writer.write(data)
                await writer.drain()


# ------------------------------------------------------------------------------ the spectator


async def spectator_view(web_port: int, room_id: str, name: str) -> dict[str, Any]:
    """The engine's spectator view of ``room_id``, as a browser that starts watching it now
    gets it (``hello``, ``spectate``, the first ``view``)."""
    async with aiohttp.ClientSession() as http, http.ws_connect(f"ws://{LOOPBACK}:{web_port}/ws") as ws:
        await ws.send_json({"t": "hello", "v": 1, "name": name, "id": 1})
        await ws.send_json({"t": "spectate", "room": room_id, "id": 2})
        async with asyncio.timeout(10):
            async for message in ws:
                data = message.json()
                if data.get("t") == "error":
                    raise AssertionError(f"the spectator was refused: {data}")
                if data.get("t") == "view" and data.get("room") == room_id:
                    view: dict[str, Any] = data["view"]
                    return view
    raise AssertionError("the spectator got no view")


# ------------------------------------------------------------------------------ the run


@dataclass
class Kill:
    """What one kill saw: the log length at the kill and after the restart."""

    at: int
    before: int
    after: int
    paused: bool


@dataclass
class CrashRun:
    """Kills of ``server`` while the clients behind ``proxies`` play room ``room_id``."""

    server: ServerProcess
    proxies: Sequence[PausableProxy]
    room_id: str
    kills: list[Kill] = field(default_factory=list)

    async def wait_for_log(self, length: int, timeout: float = 60.0) -> list[Any]:
        """The room's log once it holds ``length`` entries (or the room finished).

        Raises:
            TimeoutError: the log did not grow that far in time.
        """
        async with asyncio.timeout(timeout):
            while True:
                record = await asyncio.to_thread(self.server.room, self.room_id)
                if len(record.entries) >= length or record.finished:
                    return entries_of(record)
                await asyncio.sleep(0.01)

    async def kill_at(self, length: int, *, paused: bool, spectator: str = "watcher") -> bool:
        """Kill at ``length`` log entries, restart, check the log and (``paused``) the view.
        Returns False, without killing, when the room finished first."""
        await self.wait_for_log(length)
        if (await asyncio.to_thread(self.server.room, self.room_id)).finished:
            return False
        view: dict[str, Any] | None = None
        if paused:
            await self._everybody_back()
            for proxy in self.proxies:
                proxy.pause()
            await self._quiet()
            view = await spectator_view(self.server.ports["web"], self.room_id, spectator)
        before = entries_of(await asyncio.to_thread(self.server.room, self.room_id))
        await self.kill_and_replace()
        after = entries_of(await asyncio.to_thread(self.server.room, self.room_id))
        assert after[: len(before)] == before, f"log entries lost or changed by the kill at {length}"
        if paused:
            assert after == before, "the room changed while its clients were held"
            again = await spectator_view(self.server.ports["web"], self.room_id, spectator + "2")
            assert again == view, "the spectator's view changed across the restart"
            for proxy in self.proxies:
                proxy.resume()
        self.kills.append(Kill(length, len(before), len(after), paused))
        return True

    async def kill_and_replace(self) -> None:
        """``kill -9`` the server and return once the room is served again: here by the same
        server restarted on the same store (``node_failover.FailoverRun``: by another node
        that adopts it). :attr:`server` is then the one serving the room."""
        await asyncio.to_thread(self.server.kill9)
        await asyncio.to_thread(self.server.start)

    async def _quiet(self, still_s: float = 0.4, timeout: float = 20.0) -> None:
        """Wait until the room's log stops growing (the clients are held: a table at rest)."""
        async with asyncio.timeout(timeout):
            last, since = -1, time.monotonic()
            while True:
                record = await asyncio.to_thread(self.server.room, self.room_id)
                if len(record.entries) != last:
                    last, since = len(record.entries), time.monotonic()
                elif time.monotonic() - since >= still_s:
                    return
                await asyncio.sleep(0.05)

    async def _everybody_back(self, timeout: float = 30.0) -> None:
        """Wait until no seat is away (every client is back from the previous kill)."""
        async with asyncio.timeout(timeout):
            while await self.away_seats():
                await asyncio.sleep(0.05)

    async def away_seats(self) -> list[int]:
        """The seats of the room the hall holds for a player who is gone (``/api/rooms``)."""
        url = f"http://{LOOPBACK}:{self.server.ports['web']}/api/rooms"
        async with aiohttp.ClientSession() as http, http.get(url) as response:
            rooms = await response.json()
        room = next((r for r in rooms if r["id"] == self.room_id), None)
        return [] if room is None else [s["seat"] for s in room["seats"] if s["away"]]

    async def finished(self, timeout: float = 120.0) -> RoomRecord:
        """The room's record once its game ended."""
        async with asyncio.timeout(timeout):
            while True:
                record = await asyncio.to_thread(self.server.room, self.room_id)
                if record.finished:
                    return record
                await asyncio.sleep(0.05)


async def first_room(server: ServerProcess, game: str, *, started: Callable[[RoomRecord], bool],
                     timeout: float = 60.0) -> str:  # fmt: skip
    """The id of the first room of ``game`` for which ``started`` holds."""
    async with asyncio.timeout(timeout):
        while True:
            for record in await asyncio.to_thread(server.rooms, game):
                if started(record):
                    return record.room_id
            await asyncio.sleep(0.05)


def has_started(record: RoomRecord) -> bool:
    return any(entry.kind in ("start", "act") for entry in record.entries)


async def gather_clients(clients: Iterable[Awaitable[Any]], timeout: float) -> list[Any]:
    """Run the clients to their end (bounded)."""
    async with asyncio.timeout(timeout):
        return list(await asyncio.gather(*clients))


ClientsFactory = Callable[[int], Sequence[Awaitable[Any]]]
"""Given the relay's port, the coroutines of a protocol's clients playing one game."""


@dataclass
class CrashOutcome:
    record: RoomRecord
    results: list[Any]
    kills: list[Kill]


async def crash_game(
    directory: Path,
    *,
    game: str,
    protocol: str,
    clients: ClientsFactory,
    seed: int,
    kills: int,
    span: tuple[int, int],
    paused: bool,
    settings: Iterable[str] = (),
    started: Callable[[RoomRecord], bool] = has_started,
    timeout: float = 180.0,
    db: str | None = None,
) -> CrashOutcome:
    """One game of ``game`` played by ``clients`` over ``protocol`` through a relay, with
    ``kills`` kills at log lengths drawn from ``seed`` in ``span``; returns the finished
    room's record, the clients' results and what each kill saw.

    Raises:
        AssertionError: a log entry was lost, the spectator's view changed, or the game did
            not finish.
    """
    server = ServerProcess(directory, settings, db)
    await asyncio.to_thread(server.start)
    proxy = PausableProxy(lambda: server.ports[protocol])
    await proxy.start()
    tasks = [asyncio.ensure_future(client) for client in clients(proxy.port)]
    try:
        async with asyncio.timeout(timeout):
            room_id = await first_room(server, game, started=started)
            run = CrashRun(server, [proxy], room_id)
            for position in kill_positions(seed, kills, *span):
                if not await run.kill_at(position, paused=paused):
                    break
            record = await run.finished(timeout=timeout)
            results = list(await asyncio.gather(*tasks))
        return CrashOutcome(record, results, run.kills)
    except BaseException:
        print(f"server log (start {server.starts}):\n{server.stderr()}")
        raise
    finally:
        await wind_down(tasks, [proxy], [server])

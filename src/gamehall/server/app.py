"""The server process: store, hall, listeners, HTTP, signals and a graceful stop.

``gamehall serve`` calls :func:`run_server` inside ``asyncio.run`` (with uvloop's policy
installed by the CLI when available). In order, :meth:`Server.start`:

1. opens the store (:func:`gamehall.store.open_store`: SQLite, or PostgreSQL for a
   ``postgresql://`` URL, unless one is given), with ``--redis`` joins the other nodes
   (:mod:`gamehall.cluster`: this node's room leases, renewed in the background), and
   builds the hall on a :class:`~gamehall.server.clock.LoopClock`, with in-process bots;
2. rebuilds every unfinished room from its log (``hall.restore()``; on a node of several
   only the rooms it takes the lease of, then every ``ttl / 2`` those whose owner died:
   :mod:`gamehall.cluster.adoption`);
3. for every protocol in the plan, builds its services (``spec.open``, see
   :mod:`gamehall.protocols._spec`: one object per protocol and server, lent the hall, the
   clock and the protocol accounts, handed to every dialogue of that protocol; kept in
   :attr:`Server.hosted`) and starts its listener: one TCP listener per game protocol of
   :data:`gamehall.games.GAMES`, then HTTP (browser client, ``/ws``, ``/metrics``,
   ``/healthz``, ``/api``) for the web; and logs what listens where.

On SIGTERM or SIGINT, :meth:`Server.stop` stops accepting, lets the hall close every room and
say goodbye in each protocol ("Game ended by server or administrator."), gives connections
about two seconds to flush, waits for the last commits, releases the node's leases, then
closes the store. Room logs stay unfinished in the store, so
the next start rebuilds the rooms.

Ports: in the configuration 0 means "off". Which listeners start, and where, is a *listen
plan* (protocol -> port) derived from it by :func:`listen_plan`; in a plan 0 means what it
means to the OS, an ephemeral port. Tests pass their own plan (:func:`running_server`) and
read the bound ports from :attr:`Server.ports`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from aiohttp import web

from gamehall.bots.hall_bots import add_bots, drive_seat
from gamehall.config import ServerConfig
from gamehall.contest.hall_side import contest_hall
from gamehall.games import GAMES, WEB, game_types
from gamehall.hall import Hall
from gamehall.hall.contests import ContestBoard
from gamehall.protocols._spec import Hosted, ServerResources
from gamehall.protocols.cg.accounts import Accounts
from gamehall.server.clock import LoopClock
from gamehall.server.collector import Collector
from gamehall.server.connection import connection_factory
from gamehall.server.contests import ContestApi, session_check
from gamehall.server.dictionaries import DictionaryPreparation
from gamehall.server.host import HostConsole
from gamehall.server.limits import ConnectionLimits
from gamehall.server.listeners import bound_port, start_tcp
from gamehall.server.metrics import ServerMetrics
from gamehall.server.tracker import ConnectionTracker
from gamehall.server.web import WebContext, build_web_app, start_web
from gamehall.store import open_accounts, open_store
from gamehall.store.accounts import MemoryAccounts
from gamehall.store.base import Store

if TYPE_CHECKING:  # imported at run time only with --redis: one node loads no Redis client
    from gamehall.cluster import Adoption, Node
    from gamehall.cluster.relay import Relay

log = logging.getLogger("gamehall.server")

SHUTDOWN_TEXT = "Game ended by server or administrator."
WORDS_DICTIONARIES = ("english", "english-lp", "francais")
"""The dictionaries of the word games' presets, prepared on the first start."""
DRAIN_TIMEOUT_S = 2.0


def listen_plan(config: ServerConfig) -> dict[str, int]:
    """Protocol -> port for every listener the configuration switches on (port not 0)."""
    return {name: port for name, port in config.ports.items() if port != 0}


def connection_limits(
    config: ServerConfig, idle_timeout_s: float | None = None, max_flush_bytes: int = 0
) -> ConnectionLimits:
    """The configured limits, with a protocol's own idle timeout and write cap if it has them."""
    return ConnectionLimits(
        out_queue_limit_bytes=config.out_queue_limit_bytes,
        idle_timeout_s=config.idle_timeout_s if idle_timeout_s is None else idle_timeout_s,
        rate_per_s=config.rate_limit_per_s,
        rate_burst=config.rate_limit_burst,
        max_flush_bytes=max_flush_bytes,
    )


KDF_WORKERS = 1
"""Threads for password hashes (scrypt). One: a login storm cannot take more than one core from
the loop, and logins finish in the order they arrived (first come, first seated)."""


class Server:
    """One gamehall process (see the module docstring).

    ``listen`` overrides :func:`listen_plan` (tests: ``{"aah": 0, "web": 0}`` for ephemeral
    ports); ``store`` replaces the SQLite store (tests: a ``MemoryStore``).
    """

    def __init__(
        self,
        config: ServerConfig,
        *,
        listen: Mapping[str, int] | None = None,
        store: Store | None = None,
    ) -> None:
        self.config = config
        self.plan = dict(listen_plan(config) if listen is None else listen)
        self.metrics = ServerMetrics()
        self.collector = Collector(config.gc_freeze_s, config.gc_reclaim_s)
        self.collector.register(self.metrics.registry)
        self.tracker = ConnectionTracker(config.max_connections)
        self.ports: dict[str, int] = {}
        """Protocol -> bound port, for every listener that started."""
        self.hosted: dict[str, Hosted[Any, Any]] = {}
        """Protocol -> its services and connection factory, for every listener that started."""
        self._given_store = store
        self._store: Store | None = None
        self._accounts: Accounts | None = None
        self._hall: Hall | None = None
        self._tcp: dict[str, asyncio.Server] = {}
        self._web: web.AppRunner | None = None
        self._stopped = False
        self._kdf_executor = ThreadPoolExecutor(KDF_WORKERS, thread_name_prefix="gamehall-kdf")
        """Runs offloaded password hashes (:meth:`TcpConnection.offload`)."""
        self._preparation: asyncio.Task[list[str]] | None = None
        self.node: Node | None = None
        """This node's id and room leases when run with ``--redis`` (docs/scale-out.md)."""
        self.relay: Relay | None = None
        """With ``--redis``: this node's messages to and from the others (cross-node play)."""
        self.adoption: Adoption | None = None
        """With ``--redis``: this node's periodic adoption of rooms whose owner died."""
        self.contests = ContestBoard()
        """The contests this process shows (``/api/contests``, ``/contest/ID``, the lobby):
        the hall's own board (``hall.contests``), kept up to date by the hall side's
        ``ContestHall`` (:mod:`gamehall.contest.hall_side`)."""

    @property
    def hall(self) -> Hall:
        if self._hall is None:
            raise RuntimeError("the server has not started")
        return self._hall

    # ---- start -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Open the store, build and restore the hall, start every planned listener.

        Raises:
            OSError: a port cannot be bound (everything started so far is stopped again).
        """
        config = self.config
        self._store = self._given_store if self._given_store is not None else open_store(config.db)
        if config.redis is not None:
            await self._join_nodes()
        clock = LoopClock()
        hall = Hall(
            games=game_types(deck_dirs=config.deck_dirs, words_dirs=config.words_dirs),
            store=self._store,
            clock=clock,
            defaults=config.room_defaults,
            tournament=config.tournament,
            bot_seater=add_bots,
            bot_driver=drive_seat,
            commit_waiter=clock.wait_for,
            contests=self.contests,
            ownership=self.node.leases if self.node is not None else None,
            remote=self.relay,
            presence=self.node.presence if self.node is not None else None,
            shared_rooms=self.node.directory if self.node is not None else None,
        )
        self._hall = hall
        if self.relay is not None:
            assert hall.cross_node is not None
            await self.relay.start(hall.cross_node)
        if self.node is not None:
            await self._join_presence()
            self.node.leases.on_lost = hall.leases_lost
            self.node.leases.start()
            await self._share_rooms(self.node)
            self.metrics.watch_node(self.node.node_id, self.node.rooms_owned)
        contest_hall(hall, accounts=self._accounts_for_protocols)  # cg contest entrants' accounts
        restored = await self._restore(hall)
        hall.flush()  # what the restore released (lobby seats) is committed before anyone connects
        if restored:
            log.info("%d unfinished room(s) rebuilt from the store", restored)
        self.metrics.watch_hall(hall.rooms_by_game, lambda: hall.stats().get("users", 0))
        resources = ServerResources(hall, clock, self._accounts_for_protocols)
        try:
            await self._start_tcp_listeners(resources)
            if WEB.name in self.plan:
                await self._start_web(hall, resources)
        except BaseException:
            await self._close_listeners()
            if self.adoption is not None:
                await self.adoption.stop()
            if self.relay is not None:
                await self.relay.stop()
            if self.node is not None:
                await self.node.close()
            self._store.close()
            raise
        # What start-up built (modules, decks, lexicons, restored rooms) lives as long as the
        # process: keep it, and what lives on later, out of full collections, whose pauses
        # stall all tables (gamehall.server.collector).
        self.collector.start()
        self._prepare_dictionaries(hall)

    async def _restore(self, hall: Hall) -> int:
        """Rebuild the unfinished rooms: all of them on one node; on a node of several only
        those it takes the lease of, and from then on, every ``ttl / 2``, those whose owner
        died (:mod:`gamehall.cluster.adoption`)."""
        if self.node is None:
            return hall.restore()
        from gamehall.cluster import Adoption

        self.adoption = Adoption(hall, self.node.leases)
        restored = await self.adoption.scan()
        self.adoption.start()
        return restored

    async def _share_rooms(self, node: Node) -> None:
        """Read the other nodes' rooms and start publishing this node's (before any room is
        restored here: the directory first forgets what an earlier process of this node left).
        A node whose directory cannot start does not start (its leases are released)."""
        from redis.exceptions import RedisError

        from gamehall.cluster import ClusterError

        try:
            await node.directory.start()
        except (RedisError, OSError) as exc:
            await node.close()
            assert self._store is not None
            self._store.close()
            raise ClusterError(f"cannot start the shared room directory: {exc}") from None

    async def _join_nodes(self) -> None:
        """Connect to Redis for this node's room leases (the store is closed again if Redis
        does not answer: the server does not start half a node)."""
        from gamehall.cluster import open_node

        try:
            self.node = await open_node(self.config)
            from gamehall.cluster.relay import Relay

            assert self.config.redis is not None
            self.relay = Relay(
                self.config.redis,
                self.node.leases.redis,
                self.node.node_id,
                self.config.lease_ttl,
                prefix=self.config.redis_prefix,
            )
        except BaseException:
            assert self._store is not None
            self._store.close()
            raise

    async def _join_presence(self) -> None:
        """Load the hall's names and start keeping them current (before any room is restored
        or login accepted: both claim names); Redis not answering stops the start."""
        from redis.exceptions import RedisError

        from gamehall.cluster import ClusterError

        assert self.node is not None and self._store is not None
        try:
            await self.node.presence.start()
        except (RedisError, OSError) as exc:
            node, self.node = self.node, None
            await node.close()
            self._store.close()
            raise ClusterError(f"cannot join the hall's names in Redis: {exc}") from None

    def _prepare_dictionaries(self, hall: Hall) -> None:
        """First start: build the word games' dictionary caches in the background, with a
        progress line and the browsers told (:mod:`gamehall.server.dictionaries`)."""
        if "words" not in hall.game_types or not ({"jduplicate", WEB.name} & set(self.plan)):
            return

        def announce(state: dict[str, Any] | None) -> None:
            hall.lobby.set_preparing(None if state is None else {**state, "games": ["words"]})

        preparation = DictionaryPreparation(announce)
        self._preparation = asyncio.create_task(preparation.run(list(WORDS_DICTIONARIES)))

    async def _start_tcp_listeners(self, resources: ServerResources) -> None:
        for entry in GAMES:
            spec = entry.spec
            if spec.name not in self.plan:
                continue
            hosted = spec.open(resources)
            self.hosted[spec.name] = hosted
            limits = connection_limits(self.config, spec.idle_timeout_s, spec.max_flush_bytes)
            self.metrics.add_protocol(spec.name)
            factory = connection_factory(
                spec.name,
                hosted.connect,
                limits,
                self.metrics,
                self.tracker,
                self._kdf_executor,
                self.hall.write_barrier,  # nothing leaves before the commit of what it answers
            )
            server = await start_tcp(spec.name, self.config.bind, self.plan[spec.name], factory)
            self._tcp[spec.name] = server
            self.ports[spec.name] = bound_port(server)
            log.info("%s listening on %s:%d", spec.name, self.config.bind, self.ports[spec.name])

    def _accounts_for_protocols(self) -> Accounts:
        """Protocol accounts (cg), opened on first use: beside the rooms (the SQLite file or the
        PostgreSQL database), or in memory when the store was given. This server owns them and
        closes them at stop."""
        if self._accounts is None:
            given = self._given_store is not None
            self._accounts = MemoryAccounts() if given else open_accounts(self.config.db)
        return self._accounts

    async def _start_web(self, hall: Hall, resources: ServerResources) -> None:
        assert self._store is not None
        hosted = WEB.open(resources)
        self.hosted[WEB.name] = hosted
        self.metrics.add_protocol(WEB.name)
        context = WebContext(
            hall=hall,
            before_write=hall.write_barrier,  # as for TCP: nothing leaves before its commit
            store=self._store,
            dialogue_factory=hosted.connect,
            limits=connection_limits(self.config),
            metrics=self.metrics,
            tracker=self.tracker,
            executor=self._kdf_executor,
            games=hall.game_types,
            host=HostConsole(hall, self.metrics, self.tracker, self.config.operator_token),
            node=self.node,
            contests=ContestApi(
                self.contests,
                session_check(hall),
                hall.rooms,
                {game_id: game_type.title for game_id, game_type in hall.game_types.items()},
            ),
        )
        self._web, port = await start_web(build_web_app(context), self.config.bind, self.plan[WEB.name])
        self.ports[WEB.name] = port
        log.info("web on http://%s:%d", self.config.bind, port)

    # ---- stop ------------------------------------------------------------------------------

    async def stop(self, text: str = SHUTDOWN_TEXT) -> None:
        """Stop accepting, close every room and connection (``text`` is the goodbye), wait up
        to :data:`DRAIN_TIMEOUT_S` for the goodbyes to flush, close the store. Idempotent.

        On a node this is the *drain*: it stops adopting; the rooms close here (their logs
        stay unfinished) and every connection is cut at once, without a goodbye, so that each
        client reconnects by its protocol's crash rules (in the game protocols a goodbye says
        "game over", and the client would not come back); each closed room's lease is released
        as soon as its last writes are committed, so another node adopts the rooms at its next
        scan (every ``ttl / 2``) instead of after the ttl. The node gives up its users' names
        before it cuts their connections, so they can log in on another node at once
        (:meth:`gamehall.cluster.presence.RedisPresence.leave`)."""
        if self._stopped:
            return
        self._stopped = True
        if self.adoption is not None:
            await self.adoption.stop()
        self.collector.stop()
        log.info("stopping: no new connections; closing rooms")
        if self._preparation is not None and not self._preparation.done():
            self._preparation.cancel()  # the worker thread finishes its list; nothing waits for it
        for server in self._tcp.values():
            server.close()
        if self._web is not None:
            for site in list(self._web.sites):
                await site.stop()
        if self.node is not None:
            await self.node.presence.leave()  # before the cut: its users may log in elsewhere now
        if self._hall is not None:
            try:
                if self._hall.cross_node is not None:
                    self._hall.cross_node.moving_away()  # followers' players reconnect elsewhere
                self._hall.shutdown(text)
                if self.node is not None:
                    self.tracker.abort_all()  # the drain (see the docstring)
                self._hall.flush()  # commit what is queued, then the goodbyes
            except Exception:
                log.exception("the hall failed to shut down cleanly; closing connections anyway")
        aborted = await self.tracker.drain(DRAIN_TIMEOUT_S)
        for _ in range(3):  # let the aborted transports report connection_lost to dialogues
            await asyncio.sleep(0)
        if aborted:
            log.info("%d connection(s) aborted after %.1f s", aborted, DRAIN_TIMEOUT_S)
        await self._close_listeners()
        self._kdf_executor.shutdown(wait=False, cancel_futures=True)
        close_accounts = getattr(self._accounts, "close", None)
        if close_accounts is not None:
            close_accounts()
        if self._hall is not None:
            self._hall.flush()  # the last logouts' writes, before the store closes
            await _committed(self._hall, self._commit_wait_s())
        if self.relay is not None:
            await self.relay.stop()
        if self.node is not None:
            await self.node.close()
        if self._store is not None:
            await _close_store(self._store)
        log.info("stopped")

    async def _close_listeners(self) -> None:
        if self._web is not None:
            runner, self._web = self._web, None
            await runner.cleanup()
        for server in self._tcp.values():
            server.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(server.wait_closed(), 1.0)
        self._tcp.clear()

    def _commit_wait_s(self) -> float:
        """How long a stop waits for the last commits. A node waits up to half its lease ttl:
        its rooms' last writes (a drain of a thousand rooms is one batch of thousands of
        writes) and then their lease releases must land, or the rooms wait out the ttl before
        another node adopts them (docs/BENCHMARKS.md, section 19); no node can adopt them
        sooner anyway."""
        if self.node is None:
            return DRAIN_TIMEOUT_S
        return max(DRAIN_TIMEOUT_S, self.config.lease_ttl / 2)


async def _committed(hall: Hall, timeout_s: float) -> None:
    """Wait until the hall's outbox has nothing queued and no commit under way (a networked
    store commits in the background), at most ``timeout_s``; what is left is lost like at a
    crash, and the next start rebuilds the rooms from what was committed."""
    deadline = asyncio.get_running_loop().time() + timeout_s
    while not hall.outbox.idle and asyncio.get_running_loop().time() < deadline:
        hall.flush()
        await asyncio.sleep(0.005)


async def _close_store(store: Store) -> None:
    """Close the store; a networked one closes its commit connection on this loop."""
    aclose = getattr(store, "aclose", None)
    if aclose is not None:
        await aclose()
    else:
        store.close()


async def run_server(config: ServerConfig, *, ready: asyncio.Event | None = None) -> None:
    """Run until SIGTERM or SIGINT, then stop gracefully and return (the process exits 0).

    ``ready`` is set once every listener is up.
    """
    server = Server(config)
    await server.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    installed: list[signal.Signals] = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop.set)
            installed.append(sig)
        except (NotImplementedError, RuntimeError):  # not the main thread, or Windows
            pass
    if ready is not None:
        ready.set()
    try:
        await stop.wait()
        log.info("signal received")
    finally:
        await server.stop()
        for sig in installed:
            loop.remove_signal_handler(sig)


@contextlib.asynccontextmanager
async def running_server(
    config: ServerConfig,
    *,
    listen: Mapping[str, int] | None = None,
    store: Store | None = None,
) -> AsyncIterator[Server]:
    """A started :class:`Server` for end-to-end tests, stopped on exit.

    Without ``listen``, every listener of ``config.ports`` starts on an ephemeral port
    (whatever the configured number); read them from ``server.ports``.
    """
    plan = dict.fromkeys(config.ports, 0) if listen is None else dict(listen)
    server = Server(config, listen=plan, store=store)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()

"""One game per protocol for the crash harnesses: the wire bots, their settings, their checks.

The single-node crash tests (``tests/e2e/test_crash_*.py``, :func:`kill_restart.crash_game`)
and the node failover tests (``tests/cluster/test_failover_protocols.py``,
:func:`node_failover.failover_game`) play the same games by the same bots and judge their
ends the same way; a :class:`CrashTable` holds what one protocol needs, so both harnesses take
it from one place. Each ``*_table(seed)`` makes fresh bots whose choices follow from ``seed``.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kill_restart import ClientsFactory, CrashOutcome

from gamehall.bots.aah import AahWireBot
from gamehall.bots.aah.wire import BotStats as AahStats
from gamehall.bots.doppelkopf.wire import BotStats as CgStats
from gamehall.bots.doppelkopf.wire import CgWireBot
from gamehall.bots.mrjack.wire import BotResult as MrJackResult
from gamehall.bots.mrjack.wire import MrJackWireBot
from gamehall.bots.ursuppe.wire import BotResult as UrResult
from gamehall.bots.ursuppe.wire import UrWireBot
from gamehall.bots.words.wire import BotResult as WordsResult
from gamehall.bots.words.wire import GameSpec, WordsWireBot, WordsWirePlayer
from gamehall.protocols.jduplicate.messages import Version

LOOPBACK = "127.0.0.1"

AAH_SETTINGS = ("aah.autostart_delay=1", "aah.round_gap=0.2", "aah.timeout=60", "aah.aplimit=3")
CG_SETTINGS = ("doppelkopf.deal_interval_s=0", "doppelkopf.trick_close_delay_s=0")
CG_GUESTS = ("dkguest1", "dkguest2", "dkguest3")
WORDS_SETTINGS = ("words.pause_s=0", "words.grace_s=1", "words.end_turn_when_all_moved=true")
MRJACK_SETTINGS = ("mrjack.rejoin_grace=60", "mrjack.turn_timeout_s=60")
MRJACK_THINK_S = 0.03
"""A Mr. Jack bot's pause per move: the harness polls the log and must see each kill point
before the end."""


@dataclass
class CrashTable:
    """One game of ``game`` over ``protocol`` for a crash harness: ``clients`` starts the bots
    (given the relay's port) and fills :attr:`bots`; ``span`` is where in the log kills may
    fall; ``check`` judges the finished game (see :func:`check_outcome`)."""

    game: str
    protocol: str
    settings: tuple[str, ...]
    span: tuple[int, int]
    clients: ClientsFactory
    check: Callable[[CrashOutcome], None]
    bots: list[Any] = field(default_factory=list)


def check_outcome(table: CrashTable, outcome: CrashOutcome, *, paused: bool) -> None:
    """What every crash test asserts of a game: at least one kill (a paused run; a random kill
    point may lie past a short game's end), a normal end, each bot back once per kill and the
    protocol's own judgement of the bots' results.

    Raises:
        AssertionError: one of those does not hold.
    """
    assert outcome.kills or not paused, "the game ended before the first kill"
    result = outcome.record.result
    assert result is not None and result["termination"] == "normal", result
    table.check(outcome)
    reconnects = [bot.reconnects for bot in table.bots]
    assert reconnects == [len(outcome.kills)] * len(table.bots), reconnects


def aah_table(seed: int) -> CrashTable:
    """Three strict 0.2.0 client emulators; after a kill each ``JOIN``s again with its nick."""
    rng = random.Random(seed)

    def clients(port: int) -> Sequence[Awaitable[AahStats]]:
        table.bots.extend(
            AahWireBot(LOOPBACK, port, name, rng=random.Random(rng.getrandbits(64)), strict=True)
            for name in ("alice", "bob", "carol")
        )
        return [bot.run() for bot in table.bots]

    def check(outcome: CrashOutcome) -> None:
        result = outcome.record.result
        assert result is not None
        assert all(not stats.violations for stats in outcome.results)  # the legacy client never crashed
        assert {bot.game_winner for bot in table.bots} == {result["names"][str(result["winners"][0])]}

    table = CrashTable("aah", "aah", AAH_SETTINGS, (6, 24), clients, check)
    return table


def cg_table(seed: int) -> CrashTable:
    """Doppelkopf over cg: a host and the three guests it invites into its lobby; after a kill
    each logs in again and is put back into the round (note §5.2)."""
    rng = random.Random(seed)

    def clients(port: int) -> Sequence[Awaitable[CgStats]]:
        table.bots.extend(
            CgWireBot(LOOPBACK, port, name, seed=rng.getrandbits(32), wait_for_invite=True)
            for name in CG_GUESTS
        )
        host = CgWireBot(LOOPBACK, port, "dkhost", seed=rng.getrandbits(32), guests=CG_GUESTS)
        table.bots.append(host)

        async def hosting() -> CgStats:
            await asyncio.sleep(1.0)  # the guests are logged in before the host invites them
            return await host.run()

        return [*(bot.run() for bot in table.bots[:3]), hosting()]

    def check(outcome: CrashOutcome) -> None:
        assert [stats.games_finished for stats in outcome.results] == [1, 1, 1, 1]

    table = CrashTable("doppelkopf", "cg", CG_SETTINGS, (12, 50), clients, check)
    return table


def urserver_table(seed: int) -> CrashTable:
    """Ursuppe over UrServer: three bots, one creates the game; after a kill each retakes its
    seat by name (``TEILNEHMEN``/``PASSWORT``/``NAME``)."""
    rng = random.Random(seed)

    def clients(port: int) -> Sequence[Awaitable[UrResult]]:
        table.bots.extend(
            UrWireBot(LOOPBACK, port, f"b{n}", creates=n == 1, players=3, game_prefix=f"crash{seed}",
                      rng=random.Random(rng.getrandbits(64)), timeout_ms=20000)
            for n in range(1, 4)
        )  # fmt: skip
        return [bot.run() for bot in table.bots]

    def check(outcome: CrashOutcome) -> None:
        assert all(len(result.games) == 1 for result in outcome.results)  # every bot saw the end

    table = CrashTable("ursuppe", "urserver", (), (10, 200), clients, check)
    return table


def mrjack_table(seed: int) -> CrashTable:
    """Mr. Jack: Jack and the detective; after a kill ``nick`` + ``init`` retake the seat with
    the game's catch-up and the pending request."""
    rng = random.Random(seed)

    def clients(port: int) -> Sequence[Awaitable[MrJackResult]]:
        table.bots.extend(
            MrJackWireBot(
                LOOPBACK, port, nick, role, rng=random.Random(rng.getrandbits(64)), think_time=MRJACK_THINK_S
            )
            for nick, role in (("jacky", "mrjack"), ("sherlock", "detektiv"))
        )
        return [bot.run() for bot in table.bots]

    def check(outcome: CrashOutcome) -> None:
        assert [len(r.winners) for r in outcome.results] == [1, 1]
        assert outcome.results[0].winners == outcome.results[1].winners

    table = CrashTable("mrjack", "mrjack", MRJACK_SETTINGS, (3, 60), clients, check)
    return table


def jduplicate_table(seed: int) -> CrashTable:
    """Duplicate Scrabble over JDuplicate: a 0.2 client creates the game, a 1.0 client joins;
    after a kill both log in again and are put back with their totals."""
    rng = random.Random(seed)
    spec = GameSpec("crash", "DupEN", 60, 2, 2)

    def clients(port: int) -> Sequence[Awaitable[WordsResult]]:
        for name, version, create in (("ann", Version.V02, True), ("bob", Version.V10, False)):
            player = WordsWirePlayer(name, version, create=spec if create else None,
                                     join=None if create else spec.name, strength=1.0,
                                     rng=random.Random(rng.getrandbits(64)))  # fmt: skip
            table.bots.append(WordsWireBot(LOOPBACK, port, player, write_interval_s=0.1))

        async def joiner() -> WordsResult:
            await asyncio.sleep(0.5)  # the game exists before bob asks to join it
            return await table.bots[1].run()

        return [table.bots[0].run(), joiner()]

    def check(outcome: CrashOutcome) -> None:
        ann, bob = outcome.results
        assert ann.end_reason and ann.ranking == bob.ranking  # both were back for the end

    table = CrashTable("words", "jduplicate", WORDS_SETTINGS, (6, 30), clients, check)
    return table


TABLES: dict[str, Callable[[int], CrashTable]] = {
    "aah": aah_table,
    "cg": cg_table,
    "urserver": urserver_table,
    "mrjack": mrjack_table,
    "jduplicate": jduplicate_table,
}
"""Each protocol's table, by the protocol's listener name."""

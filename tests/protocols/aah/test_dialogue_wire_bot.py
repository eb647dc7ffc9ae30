"""Whole games between the dialogue and the legacy client emulator (the AAH wire bot in strict
mode, section 12), in process: the bots' bytes go straight into dialogues over fake wires and a
fake clock drives every timer, so a game of many rounds takes a fraction of a second.

The bot normally reads from a TCP socket; here its reading half is fed by hand (its codec,
``_drain`` and ``_after_batch``) and its writer is an in-memory buffer. Any crash condition of
the 0.2.0 client raises :class:`LegacyClientCrash` out of ``_drain`` and fails the test. The
real-socket variant belongs to the end-to-end tests.
"""

from __future__ import annotations

import random

import pytest
from aah_dialogue_support import AahHarness, LegacyClient, assert_no_crash

from gamehall.bots.aah.wire import AahWireBot
from gamehall.protocols.aah.codec import Frame


class MemoryWriter:
    """What the bot writes, until the pump hands it to the dialogue."""

    def __init__(self) -> None:
        self.pending = bytearray()
        self.closed = False

    def write(self, data: bytes) -> None:
        self.pending += data

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True


class InProcessBot:
    """One strict wire bot bound to one legacy connection of the harness."""

    def __init__(self, harness: AahHarness, name: str, seed: int) -> None:
        self.bot = AahWireBot("in-process", 0, name, rng=random.Random(seed), strict=True)
        self.writer = MemoryWriter()
        self.bot._writer = self.writer  # type: ignore[assignment]
        self.client: LegacyClient = harness.connect(name)
        self.read = 0
        self.bot.send(Frame("JOIN", (name,)))

    def step(self) -> bool:
        """Move bytes one way and the other once; whether anything moved."""
        moved = False
        if self.writer.pending and not self.client.lost:
            data, self.writer.pending = bytes(self.writer.pending), bytearray()
            self.client.send_raw(data, bytewise=False)
            moved = True
        writes = self.client.wire.writes
        if self.read < len(writes):
            for data in writes[self.read :]:
                self.bot.codec.receive_data(data)
            self.read = len(writes)
            self.bot._drain()
            self.bot._after_batch()
            moved = True
        return moved


def pump(bots: list[InProcessBot]) -> None:
    """Step every bot (each one, every pass) until no bytes move."""
    while True:
        moved = [bot.step() for bot in bots]
        if not any(moved):
            return


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_strict_emulators_play_a_whole_game(seed: int) -> None:
    harness = AahHarness(seed=seed, aplimit=5, playermax=4, bundled=True)
    bots = [InProcessBot(harness, name, seed * 10 + i) for i, name in enumerate(("ann", "ben", "cat", "dan"))]
    pump(bots)
    for _ in range(2000):
        if all(bot.client.closed for bot in bots):
            break
        harness.advance(0.5)
        pump(bots)
    winners = {bot.bot.game_winner for bot in bots}
    assert len(winners) == 1 and winners != {None}
    for bot in bots:
        stats = bot.bot.stats
        assert stats.violations == [] and stats.protocol_errors == []
        assert stats.games_finished == 1 and bot.bot.disconnected == "The game has ended."
        assert stats.unrg == 0 and stats.rounds >= 5
        assert bot.client.closed
    assert sum(bot.bot.stats.games_won for bot in bots) == 1
    assert harness.rooms() == []
    assert_no_crash(harness)


def test_strict_emulators_survive_a_drop_and_rejoin() -> None:
    harness = AahHarness(seed=4, aplimit=4, playermax=4, bundled=True)
    bots = [InProcessBot(harness, name, i) for i, name in enumerate(("ann", "ben", "cat", "dan"))]
    pump(bots)
    harness.advance(15)
    pump(bots)
    harness.advance(3)
    pump(bots)
    bots[2].client.hang_up()  # cat's socket resets mid-game
    harness.advance(5)
    pump(bots[:2] + bots[3:])
    back = InProcessBot(harness, "cat", 99)
    bots[2] = back
    for _ in range(2000):
        pump(bots)
        if all(bot.client.closed for bot in bots):
            break
        harness.advance(0.5)
    assert back.bot.accepted and back.bot.game_started and back.bot.nicks == ["ann", "ben", "cat", "dan"]
    assert back.bot.stats.actions_sent > 0  # it played on after the rejoin
    for bot in bots:
        assert bot.bot.stats.violations == []
        assert bot.bot.disconnected == "The game has ended."
    assert_no_crash(harness)

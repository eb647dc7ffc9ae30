"""Driving Mr. Jack dialogues against a real hall, in process, with a fake clock.

- :class:`FakeWire` records every write and checks each is whole lines (LF-terminated, valid
  UTF-8, no CR);
- :class:`TermClient` is one connection: send lines (whole or byte by byte), read the lines
  received since the last look;
- :class:`JackHarness` owns the hall (MemoryStore, FakeClock, fixed seeds, optionally a fixed
  Mr. Jack and card order through the engine's test hook) and plays the server's part: a closed
  wire reports ``connection_lost`` to its dialogue.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from gamehall.hall import FakeClock, Hall
from gamehall.protocols.mrjack.dialogue import MrJackDialogue
from gamehall.protocols.mrjack.seating import MrJackServices
from gamehall.protocols.mrjack.terms import Style
from gamehall.rules._core import JSON, GameType
from gamehall.rules.mrjack import GAME_TYPE, MrJackGame, Setup, new_game
from gamehall.store.memory import MemoryStore

ROUND1_DECK = ("gelb", "rot", "weiss", "schwarz", "braun", "gruen", "beige", "lila")
"""Round 1 reveals gelb rot weiss schwarz (note 7.6); round 2 gets braun gruen beige lila."""

NOTE_SETUP = Setup(jack="lila", character_decks=(ROUND1_DECK,))
"""Mr. Jack is ``lila`` and round 1 reveals the cards of the note's example (7.6)."""


def game_type_with(setup: Setup | None) -> GameType:
    """The Mr. Jack game type, every table built with ``setup`` (the engine's test hook)."""

    def make(config: Mapping[str, JSON], seed: int) -> MrJackGame:
        return new_game(config, seed, setup)

    return dataclasses.replace(GAME_TYPE, new_game=make)


class FakeWire:
    """The server side of one connection, as a dialogue sees it."""

    def __init__(self, peer: str) -> None:
        self._peer = peer
        self.writes: list[bytes] = []
        self.closed = False
        self.writes_after_close = 0

    @property
    def peer(self) -> str:
        return self._peer

    def send(self, data: bytes) -> None:
        assert data.endswith(b"\n") and data.count(b"\n") == 1 and b"\r" not in data, data
        data.decode("utf-8")
        if self.closed:
            self.writes_after_close += 1
        self.writes.append(data)

    def close(self) -> None:
        self.closed = True


class TermClient:
    """One connection to the dialogue under test."""

    def __init__(self, harness: JackHarness, name: str) -> None:
        self.harness = harness
        self.name = name
        self.wire = FakeWire(f"test:{name}")
        self.dialogue = MrJackDialogue(
            harness.services, self.wire, style=harness.style, max_games=harness.max_games
        )
        self.lost = False
        self._seen = 0

    def send_raw(self, data: bytes, *, bytewise: bool | None = None) -> None:
        if self.lost:
            return
        split = self.harness.bytewise if bytewise is None else bytewise
        chunks = [data[i : i + 1] for i in range(len(data))] if split else [data]
        for chunk in chunks:
            self.dialogue.data_received(chunk)
        self.harness.settle()

    def send(self, *lines: str) -> None:
        for line in lines:
            self.send_raw(line.encode("utf-8") + b"\n")

    def hang_up(self) -> None:
        if not self.lost:
            self.lost = True
            self.dialogue.connection_lost()
            self.harness.settle()

    def lines(self) -> list[str]:
        """Every line received so far, without LF (once the loop's turn is over)."""
        self.harness.settle()
        return [w.decode("utf-8")[:-1] for w in self.wire.writes]

    def take(self) -> list[str]:
        """The lines received since the last call."""
        all_lines = self.lines()
        new = all_lines[self._seen :]
        self._seen = len(all_lines)
        return new

    @property
    def closed(self) -> bool:
        return self.wire.closed


class JackHarness:
    """A hall with Mr. Jack games and term connections to it (see the module docstring)."""

    def __init__(
        self,
        *,
        setup: Setup | None = NOTE_SETUP,
        style: Style = Style.PROLOG,
        seed: int = 7,
        bytewise: bool = False,
        max_games: int | None = None,
        **defaults: Any,
    ) -> None:
        self.clock = FakeClock()
        seeds = iter(range(seed, seed + 10_000))
        self.hall = Hall(
            games={"mrjack": game_type_with(setup)},
            store=MemoryStore(),
            clock=self.clock,
            defaults={"mrjack": dict(defaults)},
            seed_source=lambda: next(seeds),
        )
        self.services = MrJackServices(self.hall, self.clock)
        """What a server shares between its Mr. Jack connections: the roster."""
        self.style = style
        self.bytewise = bytewise
        self.max_games = max_games
        self.clients: list[TermClient] = []

    def connect(self, name: str) -> TermClient:
        client = TermClient(self, name)
        self.clients.append(client)
        return client

    def login(self, nick: str, role: str | None = None) -> TermClient:
        """A connection that sent ``nick(nick)`` (and ``init(role)``); greetings taken."""
        client = self.connect(nick)
        client.send(f"nick({nick}).")
        if role is not None:
            client.send(f"init({role}).")
        return client

    def pair(self) -> tuple[TermClient, TermClient]:
        """Mr. Jack (``jack``) and the detective (``det``) with a started game; lines taken."""
        jack = self.login("jack", "mrjack")
        det = self.login("det", "detektiv")
        jack.take()
        det.take()
        return jack, det

    def settle(self) -> None:
        """Run what is due now and report closed wires as lost, until nothing changes."""
        while True:
            self.clock.run_due()
            lost = [c for c in self.clients if c.wire.closed and not c.lost]
            if not lost:
                return
            for client in lost:
                client.lost = True
                client.dialogue.connection_lost()

    def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        self.settle()

    def game(self, index: int = 0) -> MrJackGame:
        rooms = sorted(self.hall.directory.rooms("mrjack"), key=lambda r: r.created_seq)
        state = rooms[index].state
        assert isinstance(state, MrJackGame)
        return state

    def games(self) -> int:
        return len(self.hall.rooms("mrjack"))

"""Driving JDuplicate dialogues against a real hall, in process, with a fake clock.

- :class:`FakeWire` records every write and checks each is exactly one whole ``writeUTF`` frame.
- :class:`JdClient` is one connection in 0.2 or 1.0: send requests (typed messages, whole or
  byte by byte, or raw bytes), read what it received since the last look as 0.2 text lines
  (``"SERVERTYPE|JDuplicate#0.6#0.2"``, whatever its syntax, so one transcript checks both)
  or as the exact text of its own syntax.
- :class:`JdHarness` owns the hall (MemoryStore, FakeClock, fixed seeds) whose word games use
  the note's fixture lexicon (§13) and, when asked, a bag in a chosen order (fixed racks).
"""

from __future__ import annotations

import dataclasses
import datetime
import struct
from collections.abc import Iterable, Mapping
from typing import Any

from gamehall.hall import FakeClock, Hall
from gamehall.protocols._core import NEED_DATA
from gamehall.protocols.jduplicate import messages as m
from gamehall.protocols.jduplicate.codec import JDuplicateCodec, Side
from gamehall.protocols.jduplicate.dialogue import JdDialogue
from gamehall.protocols.jduplicate.lobby import JdServices
from gamehall.rules._core import JSON, GameType
from gamehall.rules.words import GAME_TYPE, WordsTable, new_game
from gamehall.rules.words.lexicon import Lexicon
from gamehall.store.memory import MemoryStore

FIXTURE_WORDS = ("BISE", "BISES", "ASK", "RETAINS", "STAINER", "CAT", "CATS", "QUIT", "QUITE")
FIXTURE = Lexicon.from_words(FIXTURE_WORDS)
START_DATE = datetime.date(2026, 11, 29)

V02 = m.Version.V02
V10 = m.Version.V10


def frame(text: str) -> bytes:
    """One client frame of ``text`` (plain ``writeUTF``)."""
    from gamehall.protocols.jduplicate.framing import encode_text

    return encode_text(text)


def raw_frame(body: bytes) -> bytes:
    return struct.pack(">H", len(body)) + body


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
        (length,) = struct.unpack(">H", data[:2])
        assert len(data) == 2 + length, data  # exactly one whole frame per write
        if self.closed:
            self.writes_after_close += 1
        self.writes.append(data)

    def close(self) -> None:
        self.closed = True


def game_type_with(lexicon: Lexicon, bags: list[str]) -> GameType:
    """The words game type on ``lexicon``; the n-th room created draws from ``bags[n]`` when given."""
    created = [0]

    def make(config: Mapping[str, JSON], seed: int) -> WordsTable:
        table = new_game(config, seed, lexicon)
        index = created[0]
        created[0] += 1
        if index < len(bags) and hasattr(table, "bag"):
            table.bag = list(bags[index])
        return table

    return dataclasses.replace(GAME_TYPE, new_game=make)


class JdClient:
    """One JDuplicate connection to the dialogue under test."""

    def __init__(self, harness: JdHarness, name: str, version: m.Version) -> None:
        self.harness = harness
        self.name = name
        self.version = version
        self.wire = FakeWire(f"test:{name}")
        self.dialogue = JdDialogue(harness.services, self.wire, **harness.dialogue_options)
        self.lost = False
        self._writer = JDuplicateCodec(version, side=Side.CLIENT)
        self._reader = JDuplicateCodec(version, side=Side.CLIENT)
        self._text = JDuplicateCodec(V02)
        self._native = JDuplicateCodec(version)
        self._read = 0
        self.received: list[m.ServerMessage] = []
        self._seen = 0

    # -- sending ------------------------------------------------------------------------------

    def send_raw(self, data: bytes, *, bytewise: bool | None = None) -> None:
        if self.lost:
            return
        split = self.harness.bytewise if bytewise is None else bytewise
        chunks = [data[i : i + 1] for i in range(len(data))] if split else [data]
        for chunk in chunks:
            self.dialogue.data_received(chunk)
        self.harness.settle()

    def send(self, *messages: m.ClientMessage) -> None:
        for message in messages:
            self.send_raw(self._writer.encode(message))

    def login(self, *, client_first: bool = False) -> None:
        name = m.PlayerName(self.name)
        client = m.ClientType("JDuplicate Swing Client", "0.12", self.version.value)
        self.send(*((client, name) if client_first else (name, client)))

    def hang_up(self) -> None:
        if not self.lost:
            self.lost = True
            self.dialogue.connection_lost()
            self.harness.settle()

    # -- receiving ----------------------------------------------------------------------------

    def _decode(self) -> None:
        self.harness.settle()  # what reached the client once the loop's turn is over
        while self._read < len(self.wire.writes):
            self._reader.receive_data(self.wire.writes[self._read])
            self._read += 1
            while True:
                message = self._reader.next_message()
                if message is NEED_DATA:
                    break
                self.received.append(message)  # type: ignore[arg-type]

    def take_messages(self) -> list[m.ServerMessage]:
        self._decode()
        new = self.received[self._seen :]
        self._seen = len(self.received)
        return new

    def take(self) -> list[str]:
        """Messages received since the last look, as 0.2 text (whatever this client speaks)."""
        return [self._text.render(message) for message in self.take_messages()]

    def native(self, messages: Iterable[m.ServerMessage]) -> list[str]:
        return [self._native.render(message) for message in messages]

    def tokens(self) -> list[str]:
        return [line.split("|", 1)[0] for line in self.take()]

    @property
    def closed(self) -> bool:
        return self.wire.closed


class JdHarness:
    """A hall serving word games to JDuplicate connections (see the module docstring)."""

    def __init__(
        self,
        *,
        bags: list[str] | None = None,
        lexicon: Lexicon = FIXTURE,
        bytewise: bool = False,
        seed: int = 7,
        defaults: Mapping[str, Any] | None = None,
        **dialogue_options: Any,
    ) -> None:
        self.clock = FakeClock()
        seeds = iter(range(seed, seed + 10_000))
        self.hall = Hall(
            games={"words": game_type_with(lexicon, list(bags or []))},
            store=MemoryStore(),
            clock=self.clock,
            defaults={"words": dict(defaults or {})},
            seed_source=lambda: next(seeds),
        )
        self.services = JdServices.for_hall(self.hall, self.clock)
        """What a server shares between its JDuplicate connections: one lobby."""
        self.services.lobby.creation_date = START_DATE
        self.bytewise = bytewise
        self.dialogue_options = dialogue_options
        self.clients: list[JdClient] = []

    def connect(self, name: str, version: m.Version = V02) -> JdClient:
        client = JdClient(self, name, version)
        self.clients.append(client)
        return client

    def user(self, name: str, version: m.Version = V02) -> JdClient:
        """A logged-in client whose login messages are already read."""
        client = self.connect(name, version)
        client.login()
        client.take()
        for other in self.clients:
            if other is not client:
                other.take()
        return client

    def settle(self) -> None:
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

    def table(self, index: int = 0) -> WordsTable:
        rooms = self.hall.directory.rooms("words")
        state = rooms[index].state
        assert isinstance(state, WordsTable)
        return state

    def take_all(self) -> dict[str, list[str]]:
        return {client.name: client.take() for client in self.clients if not client.lost}

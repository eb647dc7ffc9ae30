"""Driving legacy AAH dialogues against a real hall, in process, with a fake clock.

- :class:`FakeWire` records every write (and checks each is exactly one well-formed frame:
  acceptance item 2) and whether the dialogue closed it.
- :class:`LegacyClient` is one connection: send bytes (whole or byte by byte), read the frames
  received since the last look, rendered as in the note's transcripts (``"CLNFalice\\0bob"``).
- :class:`AahHarness` owns the hall (MemoryStore, FakeClock, a fixed seed source) and plays the
  server's part: a closed wire reports ``connection_lost`` to its dialogue, as the asyncio
  connection does once the transport is gone.
- :func:`legacy_crashes` lists what the 0.2.0 client would crash on in one transcript
  (section 12), so every test can assert there is nothing.

The deck is written here (numbered placeholder texts, no real card text): white card ``i`` of
:func:`dialogue_deck` has id ``5000 + i`` and the deck is used top first, as the engine does with a
given deck.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gamehall.hall import FakeClock, Hall
from gamehall.protocols._core import NEED_DATA, ProtocolError
from gamehall.protocols.aah.codec import AahCodec, Frame, Side, encode_frame
from gamehall.protocols.aah.dialogue import AahDialogue
from gamehall.protocols.aah.meta import MetaError, decode_server_meta, encode_client_meta
from gamehall.rules._core import JSON, GameType
from gamehall.rules.aah import GAME_TYPE
from gamehall.rules.aah.cards import BlackCard, WhiteCard
from gamehall.rules.aah.table import AahTable, Deck, new_game
from gamehall.store.memory import MemoryStore

WHITE_BASE = 5000


def white_text(card_id: int) -> str:
    return f"Answer {card_id}."


def dialogue_deck(blacks: Sequence[tuple[int, int]] = ((1, 1),) * 30, whites: int = 300) -> Deck:
    """``whites`` white cards (ids 5001...), one black card per ``(pick, draw)``, top first."""
    white_cards = [WhiteCard(WHITE_BASE + i, white_text(WHITE_BASE + i)) for i in range(1, whites + 1)]
    black_cards = [
        BlackCard(f"Prompt {i}: " + " ".join(["_____"] * pick), pick, draw)
        for i, (pick, draw) in enumerate(blacks, start=1)
    ]
    return white_cards, black_cards


def game_type_with(deck: Deck | None) -> GameType:
    """The AAH game type, dealing from ``deck`` (``None``: the bundled deck)."""

    def make(config: Mapping[str, JSON], seed: int) -> AahTable:
        return new_game(config, seed, deck=deck)

    return dataclasses.replace(GAME_TYPE, new_game=make)


def render(frame: Frame) -> str:
    """A frame as the note writes it: the command, then the arguments joined by NUL."""
    return frame.command + "\0".join(frame.args)


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
        assert data.endswith(b"\x03") and data.count(b"\x03") == 1, data
        assert len(data) >= 5, data  # never a frame shorter than 4 bytes
        assert data[4:5] != b"\x00", data  # never a NUL right after the command
        if self.closed:
            self.writes_after_close += 1
        self.writes.append(data)

    def close(self) -> None:
        self.closed = True


class LegacyClient:
    """One legacy connection to the dialogue under test."""

    def __init__(self, harness: AahHarness, name: str) -> None:
        self.harness = harness
        self.name = name
        self.wire = FakeWire(f"test:{name}")
        self.dialogue = AahDialogue(harness.hall, self.wire, harness.clock)
        self.lost = False
        self._codec = AahCodec(Side.CLIENT)
        self._read = 0
        self.transcript: list[Frame] = []
        self._seen = 0

    # -- sending ------------------------------------------------------------------------------

    def send_raw(self, data: bytes, *, bytewise: bool | None = None) -> None:
        """Bytes to the server, in one read or one byte per read."""
        if self.lost:
            return
        split = self.harness.bytewise if bytewise is None else bytewise
        chunks = [data[i : i + 1] for i in range(len(data))] if split else [data]
        for chunk in chunks:
            self.dialogue.data_received(chunk)
        self.harness.settle()

    def send(self, command: str, *args: str) -> None:
        self.send_raw(encode_frame(Frame(command, tuple(args))))

    def pick(self, *card_ids: int) -> None:
        """One ``PICK`` frame per card, as the 0.2.0 client does."""
        for card_id in card_ids:
            self.send("PICK", str(card_id))

    def hang_up(self) -> None:
        """The client's socket goes away (EOF or reset)."""
        if not self.lost:
            self.lost = True
            self.dialogue.connection_lost()
            self.harness.settle()

    # -- receiving ----------------------------------------------------------------------------

    def _decode(self) -> None:
        self.harness.settle()  # what reached the client once the loop's turn is over
        while self._read < len(self.wire.writes):
            self._codec.receive_data(self.wire.writes[self._read])
            self._read += 1
            while True:
                try:
                    message = self._codec.next_message()
                except ProtocolError as exc:  # pragma: no cover - a server bug
                    raise AssertionError(f"{self.name} got a bad frame: {exc.reason}") from None
                if message is NEED_DATA:
                    break
                assert isinstance(message, Frame)
                self.transcript.append(message)

    def take(self) -> list[str]:
        """The frames received since the last call, rendered (see :func:`render`)."""
        self._decode()
        new = self.transcript[self._seen :]
        self._seen = len(self.transcript)
        return [render(frame) for frame in new]

    def take_frames(self) -> list[Frame]:
        self._decode()
        new = self.transcript[self._seen :]
        self._seen = len(self.transcript)
        return new

    def all_frames(self) -> list[Frame]:
        self._decode()
        return list(self.transcript)

    @property
    def closed(self) -> bool:
        return self.wire.closed


class AahHarness:
    """A hall with AAH tables and legacy connections to it (see the module docstring).

    ``seed=7`` makes bob the first czar of alice, bob and carol (as in the note's transcripts);
    ``bundled=True`` plays with the project's own deck instead of :func:`dialogue_deck`.
    """

    def __init__(
        self,
        *,
        deck: Deck | None = None,
        bundled: bool = False,
        seed: int = 7,
        bytewise: bool = False,
        **defaults: Any,
    ) -> None:
        self.clock = FakeClock()
        seeds = iter(range(seed, seed + 10_000))
        self.hall = Hall(
            games={"aah": game_type_with(None if bundled else deck or dialogue_deck())},
            store=MemoryStore(),
            clock=self.clock,
            defaults={"aah": dict(defaults)},
            seed_source=lambda: next(seeds),
        )
        self.bytewise = bytewise
        self.clients: list[LegacyClient] = []

    def connect(self, name: str) -> LegacyClient:
        client = LegacyClient(self, name)
        self.clients.append(client)
        return client

    def join(self, nick: str, *, version: int = 200, meta_after_ackn: bool = True) -> LegacyClient:
        """A new connection doing the 0.2.0 handshake: ``JOIN``, the ``META`` reply, and
        (like the real client) a no-argument ``META`` once accepted."""
        client = self.connect(nick)
        client.send("JOIN", nick)
        client.send("META", encode_client_meta(version))
        if meta_after_ackn and not client.closed:
            client.send("META")
        return client

    def settle(self) -> None:
        """Run what is due now (deferred logouts) and report closed wires as lost, until
        nothing changes: what the event loop does between reads."""
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

    def table(self, index: int = 0) -> AahTable:
        rooms = self.hall.directory.rooms("aah")
        state = rooms[index].state
        assert isinstance(state, AahTable)
        return state

    def rooms(self) -> list[Any]:
        return self.hall.rooms("aah")

    def take_all(self) -> dict[str, list[str]]:
        return {client.name: client.take() for client in self.clients if not client.lost}


# --------------------------------------------------------------------------------------------
# Section 12: what the 0.2.0 client crashes on
# --------------------------------------------------------------------------------------------


def legacy_crashes(frames: Iterable[Frame]) -> list[str]:
    """Every section-12 crash condition one client's transcript would trigger. Frames before
    the server's ``META`` request answer input a 0.2.0 client never sends before ``JOIN``;
    they are not checked."""
    problems: list[str] = []
    joined = False
    accepted = False
    expect_clnf = False
    nicks: list[str] = []
    revealed: set[str] = set()
    for index, frame in enumerate(frames):
        command, args = frame.command, frame.args
        where = f"frame {index} {render(frame)!r}"
        if not joined:
            joined = command == "META" and not args
            continue
        if not accepted:
            if command == "ACKN":
                accepted, expect_clnf = True, True
            elif command not in ("META", "REFU"):  # a META reply only answers an explicit request
                problems.append(f"{where}: before ACKN")
            continue
        if expect_clnf:
            expect_clnf = False
            if command != "CLNF":
                problems.append(f"{where}: CLNF does not follow ACKN")
        if command == "CLNF":
            nicks = list(args)
        elif command == "CLJN" and args:
            nicks.append(args[0])
        elif command == "CLEX":
            if len(args) != 1 or args[0] not in nicks:
                problems.append(f"{where}: CLEX of an unknown nick")
            else:
                nicks.remove(args[0])
        elif command == "CZAR" and (len(args) != 1 or args[0] not in nicks):
            problems.append(f"{where}: CZAR names a nick not in {nicks}")
        elif command == "BLCK" and (len(args) != 2 or not args[1].isdigit()):
            problems.append(f"{where}: BLCK is not (text, integer pick)")
        elif command == "WHTE" and len(args) != 2:
            problems.append(f"{where}: WHTE without exactly 2 arguments")
        elif command == "RSTR":
            revealed = set()
        elif command == "REVL":
            revealed.update(args[::2])
        elif command == "RWIN" and args and (len(args) != 2 or args[1] not in revealed):
            problems.append(f"{where}: RWIN with an id not revealed this round")
        elif command == "META" and args:
            try:
                decode_server_meta(args[0])
            except MetaError as exc:
                problems.append(f"{where}: {exc}")
    return problems


def assert_no_crash(harness: AahHarness) -> None:
    for client in harness.clients:
        assert legacy_crashes(client.all_frames()) == [], client.name
        assert client.wire.writes_after_close == 0, client.name

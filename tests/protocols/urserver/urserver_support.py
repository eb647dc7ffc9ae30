"""Driving UrServer dialogues against a real hall, in process, with a fake clock.

- :class:`FakeWire` records every write (each one whole lines ending in LF) and the close.
- :class:`UrClient` is one connection: send lines or raw bytes (whole or byte by byte), and
  read the lines received since the last look.
- :class:`UrHarness` owns the hall (MemoryStore, FakeClock, a fixed seed source) and plays
  the server's part: a closed wire reports ``connection_lost`` to its dialogue.
- :func:`autoplay` answers every request of the given clients with the engine's default move
  (written as the client's lines), until the game ends: whole games without a bot.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gamehall.hall import FakeClock, Hall
from gamehall.protocols.urserver.commands import client_lines
from gamehall.protocols.urserver.dialogue import UrDialogue
from gamehall.protocols.urserver.lobby import UrServices
from gamehall.rules.ursuppe import GAME_TYPE
from gamehall.rules.ursuppe.engine import UrsuppeTable
from gamehall.store.memory import MemoryStore


class FakeWire:
    def __init__(self, peer: str) -> None:
        self._peer = peer
        self.writes: list[bytes] = []
        self.closed = False
        self.writes_after_close = 0

    @property
    def peer(self) -> str:
        return self._peer

    def send(self, data: bytes) -> None:
        assert data.endswith(b"\n") and b"\r" not in data, data
        if self.closed:
            self.writes_after_close += 1
        self.writes.append(data)

    def close(self) -> None:
        self.closed = True

    def offload(self, work: Any, done: Any) -> None:
        """Sans-I/O: slow work runs at once (the server runs it in a worker thread)."""
        done(work())


class UrClient:
    def __init__(self, harness: UrHarness, name: str) -> None:
        self.harness = harness
        self.name = name
        self.wire = FakeWire(f"test:{name}")
        self.dialogue = UrDialogue(harness.services, self.wire, end_linger_s=harness.end_linger_s)
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
        self.send_raw("".join(f"{line}\n" for line in lines).encode("utf-8"))

    def hang_up(self) -> None:
        if not self.lost:
            self.lost = True
            self.dialogue.connection_lost()
            self.harness.settle()

    def lines(self) -> list[str]:
        self.harness.settle()  # what reached the client once the loop's turn is over
        return b"".join(self.wire.writes).decode("utf-8").splitlines()

    def take(self) -> list[str]:
        """Lines received since the last call."""
        all_lines = self.lines()
        new = all_lines[self._seen :]
        self._seen = len(all_lines)
        return new

    def ask(self, *lines: str) -> list[str]:
        """Send lines and return what came back."""
        self.take()
        self.send(*lines)
        return self.take()

    @property
    def closed(self) -> bool:
        return self.wire.closed


class UrHarness:
    """A hall with Ursuppe and UrServer connections to it."""

    def __init__(
        self,
        *,
        seed: int = 11,
        bytewise: bool = False,
        tournament: bool = False,
        end_linger_s: float = 1800.0,
        **defaults: Any,
    ) -> None:
        self.clock = FakeClock()
        seeds = iter(range(seed, seed + 10_000))
        self.hall = Hall(
            games={"ursuppe": GAME_TYPE},
            store=MemoryStore(),
            clock=self.clock,
            defaults={"ursuppe": {"shuffle_deck": False, **defaults}},
            seed_source=lambda: next(seeds),
            tournament=tournament,
        )
        self.bytewise = bytewise
        self.end_linger_s = end_linger_s
        self.clients: list[UrClient] = []
        self._services: UrServices | None = None

    @property
    def services(self) -> UrServices:
        """The protocol's services over the current hall, as a server builds them once; a new
        hall (a restart) gets fresh ones."""
        if self._services is None or self._services.hall is not self.hall:
            self._services = UrServices.for_hall(self.hall, self.clock)
        return self._services

    def connect(self, name: str) -> UrClient:
        client = UrClient(self, name)
        self.clients.append(client)
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

    def new_game(
        self, name: str = "soup1", players: int = 3, password: str = "", timeout: int = 5000
    ) -> UrClient:
        creator = self.connect(f"creator-{name}")
        creator.send(f"NEU {players}", f"NAME {name}", f"PASSWORT {password}".rstrip(), f"TIMEOUT {timeout}")
        assert creator.take()[-1] == f"SPIEL_ANGEMELDET {name}"
        return creator

    def join(self, name: str, game: str = "soup1", password: str = "x") -> UrClient:
        client = self.connect(name)
        client.send(f"TEILNEHMEN {game}", f"PASSWORT {password}", f"NAME {name}")
        return client

    def table(self, game: str = "soup1") -> UrsuppeTable:
        found = self.services.lobby.find(game)
        assert found is not None
        table = found.table
        assert isinstance(table, UrsuppeTable)
        return table

    def take_all(self) -> dict[str, list[str]]:
        return {c.name: c.take() for c in self.clients if not c.lost}


def seat_of(client: UrClient) -> int:
    seat = client.dialogue.seat
    assert seat is not None
    return seat


def answer_default(
    harness: UrHarness, players: Iterable[UrClient], game: str = "soup1", table: UrsuppeTable | None = None
) -> bool:
    """Let the one player whose request is pending send the engine's default move as lines.
    Returns False when nobody is to move."""
    table = table if table is not None else harness.table(game)
    by_seat = {seat_of(c): c for c in players}
    for seat in sorted(table.to_move().seats):
        action = table.default_action(seat)
        if action is None or seat not in by_seat:
            continue
        by_seat[seat].send(*client_lines(action))
        return True
    return False


def autoplay(harness: UrHarness, players: list[UrClient], game: str = "soup1", limit: int = 5000) -> None:
    table = harness.table(game)
    for _ in range(limit):
        if table.finished or not answer_default(harness, players, game, table):
            return
    raise AssertionError("the game did not end")


class Table:
    """A started game of ``players`` connections (anna, bert, cleo, dora), driven with
    default moves to the request a test wants, whose state the test may then arrange."""

    NAMES = ("anna", "bert", "cleo", "dora")

    def __init__(self, players: int = 3, *, seed: int = 11, **defaults: Any) -> None:
        self.harness = UrHarness(seed=seed, **defaults)
        self.harness.new_game(players=players)
        self.clients = [self.harness.join(name) for name in self.NAMES[:players]]
        self.engine = self.harness.table()

    def client(self, seat: int) -> UrClient:
        return next(c for c in self.clients if seat_of(c) == seat)

    def to_move(self) -> tuple[int, str]:
        to_move = self.engine.to_move()
        return min(to_move.seats), str(to_move.kind)

    def advance_to(
        self, kind: str, *, round_number: int | None = None, setup: bool | None = None
    ) -> UrClient:
        """Answer defaults until ``kind`` (in ``round_number``) is pending; returns the
        client it waits for, with nothing left unread."""
        for _ in range(5000):
            seat, pending = self.to_move()
            prompt = self.engine.resync(seat)[0]
            right_round = round_number is None or self.engine.state.round == round_number
            right_setup = setup is None or getattr(prompt, "aufbau", None) == setup
            if pending == kind and right_round and right_setup:
                for c in self.clients:
                    c.take()
                return self.client(seat)
            assert answer_default(self.harness, self.clients, table=self.engine)
        raise AssertionError(f"{kind} never came")

    def others(self, client: UrClient) -> list[UrClient]:
        return [c for c in self.clients if c is not client]

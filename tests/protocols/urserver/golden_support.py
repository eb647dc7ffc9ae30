"""Golden transcripts of whole UrServer games: recording and replaying.

A transcript is a text file, one event per line:

- ``> name: line`` a line the client ``name`` sends,
- ``< name: line`` a line the client ``name`` receives,
- ``# ...`` a comment; ``! connect name`` opens a connection.

Received lines follow the sent line that caused them, grouped by client in connection order.
Replaying sends the same lines against a hall with the same seed and expects exactly the same
received lines, fed whole or byte by byte.

The recorded games are driven by the in-hall policies (anna heuristic, the others random; their
answers written as the client's lines), with a spectator, a chat line, a query or two and a few
refused lines, so the transcript shows the protocol as a client meets it.
"""

from __future__ import annotations

import random
from pathlib import Path

from urserver_support import UrClient, UrHarness, seat_of

from gamehall.bots.ursuppe import UrsuppePolicy
from gamehall.protocols.urserver.commands import client_lines

DATA = Path(__file__).parent / "data"
NAMES = ("anna", "bert", "cleo", "dora")


class Recorder:
    def __init__(self, harness: UrHarness) -> None:
        self.harness = harness
        self.clients: dict[str, UrClient] = {}
        self.out: list[str] = []

    def connect(self, name: str) -> UrClient:
        self.out.append(f"! connect {name}")
        client = self.harness.connect(name)
        self.clients[name] = client
        return client

    def send(self, name: str, line: str) -> None:
        self.out.append(f"> {name}: {line}")
        self.clients[name].send(line)
        for other, client in self.clients.items():
            self.out += [f"< {other}: {received}" for received in client.take()]


def record(players: int, seed: int) -> list[str]:
    harness = UrHarness(seed=seed, shuffle_deck=True)
    rec = Recorder(harness)
    rec.out.append(f"# Ursuppe over UrServer 1.13: a whole {players}-player game, hall seed {seed}")
    rec.connect("creator")
    for line in (f"NEU {players}", "NAME soup1", "PASSWORT", "TIMEOUT 5000"):
        rec.send("creator", line)
    rec.send("creator", "LISTE")
    for name in NAMES[:players]:
        rec.connect(name)
        for line in ("TEILNEHMEN soup1", "PASSWORT x", f"NAME {name}"):
            rec.send(name, line)
        if name == "anna":
            rec.connect("eve")
            rec.send("eve", "ZUSCHAUEN soup1")
            rec.send("eve", "NAME eve")
    rec.send("anna", "NACHRICHT viel Glueck allerseits")
    rec.send("eve", "NACHRICHT ich bin nur Zuschauerin")
    rec.send("bert", "PRIVAT_NACHRICHT 0 psst")
    rec.send("anna", "FOO")
    table = harness.table()
    policies = {n: UrsuppePolicy("heuristic" if n == "anna" else "random") for n in NAMES}
    rng = random.Random(seed)
    by_seat = {seat_of(rec.clients[n]): n for n in NAMES[:players]}
    queried = False
    while not table.finished:
        seat = min(table.to_move().seats)
        name = by_seat[seat]
        if table.to_move().kind == "ZUG_GEN_KAUFEN" and not queried:
            queried = True
            rec.send(name, "UMWELTKARTE")
            rec.send(name, "SPIELFELD")
            rec.send(name, "STATUS")
            rec.send(name, "BEWEGEN 0 5")
        action = policies[name].decide(table.view(seat), seat, rng)
        assert action is not None
        for line in client_lines(action):
            rec.send(name, line)
    rec.send("cleo", "NACHRICHT gut gespielt")
    rec.send("eve", "ABMELDEN")
    return rec.out


def replay(lines: list[str], *, seed: int, bytewise: bool) -> None:
    """Send every ``>`` line and check every ``<`` line (raises AssertionError)."""
    harness = UrHarness(seed=seed, shuffle_deck=True, bytewise=bytewise)
    clients: dict[str, UrClient] = {}
    expected: list[str] = []

    def check() -> None:
        got = [f"< {name}: {line}" for name, c in clients.items() for line in c.take()]
        assert got == expected, f"after {last!r}"
        expected.clear()

    last = ""
    for number, entry in enumerate(lines, start=1):
        if entry.startswith("#"):
            continue
        if entry.startswith("! connect "):
            name = entry.removeprefix("! connect ")
            clients[name] = harness.connect(name)
        elif entry.startswith("> "):
            check()
            name, _, line = entry[2:].partition(": ")
            last = f"line {number}: {entry}"
            clients[name].send(line)
        elif entry.startswith("< "):
            expected.append(entry)
    check()


def fixture_path(players: int) -> Path:
    return DATA / f"golden_{players}p.txt"


SEEDS = {3: 40, 4: 36}

if __name__ == "__main__":
    for count, game_seed in SEEDS.items():
        fixture_path(count).write_text("\n".join(record(count, game_seed)) + "\n")
        print(fixture_path(count), len(fixture_path(count).read_text().splitlines()))

"""Golden transcripts of whole Mr. Jack games through the dialogue, in both wire styles.

:func:`record` plays one seeded game in process: two heuristic wire bots (``jacky`` as Mr. Jack,
``sherlock`` as the detective) and a spectator (``watson``, seated between the two players),
with a chat line, an out-of-turn command, a spectator's refused chat and an ``ison`` at the
start. Every line a client sends and every line each client receives after it
are written down in order::

    C>S jacky: nick(jacky).
    S>C jacky: ok('Du heißt jetzt: jacky').

Run this file as a script to write the fixtures in ``data/``; review the diff by eye against
the seed's examples before committing it. The tests replay the client lines (whole and byte by
byte) and compare every received line with the file.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from mrjack_wire_support import JackHarness, TermClient

from gamehall.bots.mrjack import MrJackPolicy
from gamehall.bots.mrjack.player import WirePlayer
from gamehall.protocols._core import NEED_DATA
from gamehall.protocols.mrjack.codec import Received, TermCodec
from gamehall.protocols.mrjack.terms import Style, print_line

DATA = Path(__file__).parent / "data"
SEED = 11
NAMES = ("jacky", "sherlock", "watson")


def fixture_path(style: Style) -> Path:
    return DATA / f"golden_game_{style.value}.txt"


def harness(style: Style, *, bytewise: bool = False) -> JackHarness:
    return JackHarness(setup=None, seed=SEED, style=style, bytewise=bytewise)


class Recorder:
    """The clients of one golden game and the transcript written so far."""

    def __init__(self, h: JackHarness) -> None:
        self.h = h
        self.clients = {name: h.connect(name) for name in NAMES}
        self.transcript: list[str] = []
        self.collect()

    def collect(self) -> None:
        for name, client in self.clients.items():
            self.transcript += [f"S>C {name}: {line}" for line in client.take()]

    def send(self, name: str, line: str) -> None:
        self.transcript.append(f"C>S {name}: {line}")
        self.clients[name].send(line)
        self.collect()


def record(style: Style) -> list[str]:
    """Play the golden game and return its transcript lines."""
    h = harness(style)
    rec = Recorder(h)
    players = {
        "jacky": WirePlayer("jacky", "mrjack", MrJackPolicy("heuristic"), random.Random(SEED)),
        "sherlock": WirePlayer("sherlock", "detektiv", MrJackPolicy("heuristic"), random.Random(SEED + 1)),
    }
    codecs = {name: TermCodec(style) for name in NAMES}
    read = dict.fromkeys(NAMES, 0)

    def pump(names: tuple[str, ...], done: Callable[[], bool] = lambda: False) -> None:
        """Let the bots of ``names`` answer what they received, until ``done`` or silence."""
        while not done():
            sent = False
            for name in names:
                client: TermClient = rec.clients[name]
                new = client.wire.writes[read[name] :]
                read[name] = len(client.wire.writes)
                for data in new:
                    codecs[name].receive_data(data)
                    while (message := codecs[name].next_message()) is not NEED_DATA:
                        assert isinstance(message, Received)
                        for command in players[name].receive(message.command):
                            rec.send(name, print_line(command, style))
                            sent = True
            if not sent:
                return

    dot = "." if style is Style.PROLOG else ""
    rec.send("watson", f"nick(watson){dot}")
    pump(("jacky",), lambda: players["jacky"].seated)
    rec.send("watson", f"init(zuschauer){dot}")
    pump(("sherlock",), lambda: players["sherlock"].seated)
    rec.send("sherlock", f"chat(Hallo, Welt (test).){dot}")
    rec.send("jacky", f"aktiv(gelb){dot}")
    rec.send("watson", f"chat(Ich schaue nur zu){dot}")
    rec.send("watson", f"ison{dot}")
    pump(("jacky", "sherlock"))
    assert players["jacky"].errors == ["Du bist nicht dran."]
    assert players["sherlock"].errors == []
    assert len(players["jacky"].winners) == 1
    return rec.transcript


def replay(style: Style, transcript: list[str], *, bytewise: bool) -> list[str]:
    """Send the transcript's client lines to a fresh hall; return the new transcript."""
    rec = Recorder(harness(style, bytewise=bytewise))
    for entry in transcript:
        direction, _, rest = entry.partition(" ")
        name, _, line = rest.partition(": ")
        if direction == "C>S":
            rec.send(name, line)
    return rec.transcript


def write() -> None:
    DATA.mkdir(exist_ok=True)
    for style in Style:
        fixture_path(style).write_text("\n".join(record(style)) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write()

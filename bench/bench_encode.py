"""Encode once: the cost of fanning a room's events out to N listeners, per listener vs shared.

A room hands every event to each listener allowed to see it, and each listener's dialogue turns
it into its protocol's bytes. Before "encode once" every listener rendered and encoded every
event itself; now the listeners of one protocol and render key share one rendering
(``Delivery.rendered``, docs/architecture.md "Encode once"). This benchmark measures both paths
in the same run, on the same events, by switching ``gamehall.hall.room.ENCODE_ONCE``:

- the events are those of a real AAH game (8 seats, random legal picks from a fixed seed: deals,
  played cards, reveals, points, rounds), recorded once from the engine;
- the room is a real hall room with real listeners on wires that only count: N legacy AAH
  dialogues (seats 0..N-1, at most 8), or 3 AAH seats and N browsers (web dialogues)
  watching;
- each mode publishes the recorded events through ``Room._publish`` (what every accepted input
  does after the engine and the store) ``--reps`` times, modes alternating, best time kept.

Printed per scenario: renderings per event (how often a dialogue built an event's frames),
frames delivered, CPU time per accepted action (the game's picks and czar picks) and frames per
second, for both paths, and the speed-up. The engine and the store are not in the timing: this
is the fan-out alone, where the two paths differ.

Run::

    .venv/bin/python bench/bench_encode.py [--aah 3,5,8] [--browsers 10,100,1000] [--reps 5]
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import gamehall.hall.room as room_module
from gamehall.hall import FakeClock, Hall
from gamehall.hall.room import Room
from gamehall.protocols.aah import dialogue as aah_dialogue
from gamehall.protocols.aah.codec import Frame, encode_frame
from gamehall.protocols.aah.meta import encode_client_meta
from gamehall.protocols.web import dialogue as web_dialogue
from gamehall.rules._core import Event
from gamehall.rules.aah import GAME_TYPE
from gamehall.rules.aah.events import CardPlayed, GameStarted, RoundWon
from gamehall.store.memory import MemoryStore

SEATS = 8


# ---------------------------------------------------------------------------------- the events


@dataclass(frozen=True)
class Recording:
    events: list[Event]
    actions: int


def record_game(steps: int = 400, seed: int = 1) -> Recording:
    """The events of an 8-seat AAH game from its start, played with random legal actions."""
    config = dict(GAME_TYPE.schema.defaults())
    config["playermax"] = SEATS
    game: Any = GAME_TYPE.new_game(config, seed)  # the AAH table: legal_actions() too
    for seat in range(SEATS):
        game.seat_join(f"p{seat}")
    rng = random.Random(seed)
    events: list[Event] = []
    for _ in range(steps):
        seats = sorted(game.to_move().seats)
        if seats:
            events += game.apply(seats[0], rng.choice(list(game.legal_actions(seats[0]))))
        elif timers := game.pending_timers():
            events += game.on_timeout(timers[0].key)
        else:
            break
    start = next(i for i, e in enumerate(events) if isinstance(e, GameStarted))
    kept = events[start:]
    actions = sum(isinstance(e, CardPlayed | RoundWon) for e in kept)
    return Recording(kept, actions)


# ---------------------------------------------------------------------------------- the room


class CountingWire:
    """A connection that keeps nothing: it counts the frames and bytes it was given."""

    peer = "bench"

    def __init__(self) -> None:
        self.frames = 0
        self.size = 0

    def send(self, data: bytes) -> None:
        self.frames += 1
        self.size += len(data)

    def send_text(self, text: str) -> None:
        self.frames += 1
        self.size += len(text)

    def close(self) -> None:
        pass

    def offload(self, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        done(work())


@dataclass
class Table:
    hall: Hall
    room: Room
    wires: list[CountingWire]

    def frames(self) -> int:
        return sum(wire.frames for wire in self.wires)


def build_table(aah_seats: int, browsers: int) -> Table:
    """A hall with one AAH room: ``aah_seats`` legacy connections seated, ``browsers`` watching.
    The clock never moves, so the countdown never starts the room's own game."""
    clock = FakeClock()
    hall = Hall(
        games={"aah": GAME_TYPE},
        store=MemoryStore(),
        clock=clock,
        defaults={"aah": {"playermax": SEATS}},
        seed_source=lambda: 1,
    )
    wires: list[CountingWire] = []
    for seat in range(aah_seats):
        wire = CountingWire()
        legacy = aah_dialogue.AahDialogue(hall, wire, clock)
        legacy.data_received(encode_frame(Frame("JOIN", (f"p{seat}",))))
        legacy.data_received(encode_frame(Frame("META", (encode_client_meta(),))))
        wires.append(wire)
    hall.flush()  # the joins' turn ends: their events are delivered
    [info] = hall.rooms("aah")
    for index in range(browsers):
        wire = CountingWire()
        browser = web_dialogue.WebDialogue(hall, wire.send_text, wire.close, clock)
        browser.text_received(f'{{"t":"hello","v":1,"name":"w{index}"}}')
        browser.text_received(f'{{"t":"spectate","room":"{info.room_id}"}}')
        wires.append(wire)
    hall.flush()
    return Table(hall, hall.room(info.room_id), wires)


# ---------------------------------------------------------------------------------- measuring


@contextmanager
def encode_once(enabled: bool) -> Iterator[None]:
    saved = room_module.ENCODE_ONCE
    room_module.ENCODE_ONCE = enabled
    try:
        yield
    finally:
        room_module.ENCODE_ONCE = saved


@contextmanager
def counting_renders() -> Iterator[list[int]]:
    """Count the calls of the two renderers this benchmark's dialogues use."""
    count = [0]
    renderers = [(aah_dialogue, "table_frames"), (web_dialogue, "event_json")]
    originals = [getattr(module, name) for module, name in renderers]

    def counting(real: Callable[..., Any]) -> Callable[..., Any]:
        def render(*args: Any) -> Any:
            count[0] += 1
            return real(*args)

        return render

    for (module, name), real in zip(renderers, originals, strict=True):
        setattr(module, name, counting(real))
    try:
        yield count
    finally:
        for (module, name), real in zip(renderers, originals, strict=True):
            setattr(module, name, real)


@dataclass
class Run:
    seconds: float
    frames: int
    renders: int


def publish_all(table: Table, events: Sequence[Event]) -> None:
    table.room._publish(events)  # what Room._input does after the engine: queue the fan-out
    table.hall.flush()  # the turn ends: the outbox makes the deliveries


def measure(table: Table, recording: Recording, *, shared: bool, reps: int) -> Run:
    with encode_once(shared), counting_renders() as renders:
        before = table.frames()
        publish_all(table, recording.events)
        frames, rendered = table.frames() - before, renders[0]
    best = float("inf")
    with encode_once(shared):
        for _ in range(reps):
            gc.collect()
            started = time.process_time()
            publish_all(table, recording.events)
            best = min(best, time.process_time() - started)
    return Run(best, frames, rendered)


def scenario(label: str, listeners: int, table: Table, recording: Recording, reps: int) -> list[str]:
    old = measure(table, recording, shared=False, reps=reps)
    new = measure(table, recording, shared=True, reps=reps)
    assert old.frames == new.frames, "both paths must deliver the same frames"
    events = len(recording.events)
    per_action_us = [run.seconds / recording.actions * 1e6 for run in (old, new)]
    return [
        label,
        str(listeners),
        f"{old.renders / events:.1f} -> {new.renders / events:.1f}",
        str(new.frames),
        f"{per_action_us[0]:.0f} -> {per_action_us[1]:.0f}",
        f"{old.frames / old.seconds / 1000:.0f}k -> {new.frames / new.seconds / 1000:.0f}k",
        f"{old.seconds / new.seconds:.2f}x",
    ]


def print_table(rows: list[list[str]]) -> None:
    header = [
        "listeners",
        "N",
        "renders/event (old -> new)",
        "frames",
        "CPU us/action",
        "frames/s",
        "speed-up",
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, ["-" * w for w in widths], *rows]:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--aah", default="3,5,8", help="legacy AAH seats per room (at most 8)")
    parser.add_argument("--browsers", default="10,100,1000", help="browsers watching a room of 3 AAH seats")
    parser.add_argument("--reps", type=int, default=5, help="timed runs per path (the best is kept)")
    args = parser.parse_args(argv)
    recording = record_game()
    print(
        f"{len(recording.events)} events of an {SEATS}-seat AAH game, {recording.actions} accepted "
        f"actions; CPU time (process_time) of Room._publish and the outbox flush, best of {args.reps}; "
        "old = per listener, new = encode once"
    )
    rows: list[list[str]] = []
    for seats in (int(n) for n in args.aah.split(",") if n):
        table = build_table(min(seats, SEATS), 0)
        rows.append(scenario("AAH legacy seats", seats, table, recording, args.reps))
    for browsers in (int(n) for n in args.browsers.split(",") if n):
        table = build_table(3, browsers)
        rows.append(scenario("3 AAH seats + browsers", browsers, table, recording, args.reps))
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())

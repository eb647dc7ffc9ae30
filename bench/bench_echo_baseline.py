"""Baseline for the server benchmarks: a raw uvloop ``asyncio.Protocol`` echo server on loopback.

What it measures: small request/response round trips per second, and their p50/p99 latency, over
N concurrent connections, each keeping exactly one 5-byte frame (``PING`` + ETX) in flight. This
is the ceiling the full stack (codec, dialogue, hall, engine) is compared with in
``bench/bench_aah.py``: same machine, same loop, same run.

Bounded and local by construction: the server binds 127.0.0.1 only, every run stops after
``duration`` seconds or ``max_round_trips`` round trips (whichever comes first), and a server in a
child process exits by itself after its lifetime even if the parent dies.

Run it::

    .venv/bin/python bench/bench_echo_baseline.py --connections 1,10,50 --duration 2

or import it (``from bench_echo_baseline import run_echo_baseline``) and use the numbers.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import cast

try:
    import uvloop
except ImportError:  # pragma: no cover - uvloop is a dependency on every supported platform
    uvloop = None  # type: ignore[assignment]

LOOPBACK = "127.0.0.1"
MESSAGE = b"PING\x03"
MAX_DURATION = 60.0


@dataclass(frozen=True, slots=True)
class EchoResult:
    """One measurement. Latencies are in microseconds."""

    mode: str
    connections: int
    round_trips: int
    seconds: float
    p50_us: float
    p99_us: float

    @property
    def per_second(self) -> float:
        return self.round_trips / self.seconds if self.seconds > 0 else 0.0


class EchoServerProtocol(asyncio.Protocol):
    """Writes back every byte it receives."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is no asyncio subclass

    def data_received(self, data: bytes) -> None:
        self.transport.write(data)


async def start_echo_server(port: int = 0) -> asyncio.Server:
    """An echo server on 127.0.0.1 (``port`` 0 = any free port)."""
    loop = asyncio.get_running_loop()
    return await loop.create_server(EchoServerProtocol, LOOPBACK, port)


class _Meter:
    """Shared by the client connections: when to record, when to stop, the samples."""

    def __init__(self, max_round_trips: int) -> None:
        self.running = True
        self.recording = False
        self.max_round_trips = max_round_trips
        self.samples: list[float] = []


class _PingPong(asyncio.Protocol):
    """One client connection: send, wait for the whole echo, record, send again (at once, or
    ``interval`` seconds later: a paced client)."""

    def __init__(self, meter: _Meter, message: bytes, interval: float = 0.0) -> None:
        self.meter = meter
        self.message = message
        self.interval = interval
        self.expected = len(message)
        self.received = 0
        self.sent_at = 0.0
        self.finished: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is no asyncio subclass

    def go(self) -> None:
        self.sent_at = time.perf_counter()
        self.transport.write(self.message)

    def data_received(self, data: bytes) -> None:
        self.received += len(data)
        if self.received < self.expected:
            return
        self.received -= self.expected
        meter = self.meter
        if meter.recording:
            meter.samples.append(time.perf_counter() - self.sent_at)
            if len(meter.samples) >= meter.max_round_trips:
                meter.running = False
        if meter.running and self.interval > 0:
            asyncio.get_running_loop().call_later(self.interval, self._go_if_running)
        elif meter.running:
            self.go()
        elif not self.finished.done():
            self.finished.set_result(None)

    def _go_if_running(self) -> None:
        if self.meter.running and not self.transport.is_closing():
            self.go()
        elif not self.finished.done():
            self.finished.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.finished.done():
            self.finished.set_result(None)


def _percentile(sorted_values: Sequence[float], fraction: float) -> float:
    if not sorted_values:
        return 0.0
    index = min(len(sorted_values) - 1, round(fraction * (len(sorted_values) - 1)))
    return sorted_values[index]


async def measure_round_trips(
    port: int,
    *,
    connections: int = 50,
    duration: float = 2.0,
    warmup: float = 0.2,
    max_round_trips: int = 2_000_000,
    message: bytes = MESSAGE,
    mode: str = "echo",
    interval: float = 0.0,
) -> EchoResult:
    """Drive ``connections`` ping-pong clients against 127.0.0.1:``port`` for ``duration``
    seconds after ``warmup`` (capped at 60 s and ``max_round_trips``) and return the numbers.

    ``interval`` > 0 paces each client: one round trip, then a pause of ``interval`` seconds,
    the clients' first sends spread evenly over the first ``interval`` (the warm-up is made at
    least that long). That is the latency floor of a load like a game's, where each
    connection sends now and then, instead of the saturating closed loop."""
    duration = min(duration, MAX_DURATION)
    loop = asyncio.get_running_loop()
    meter = _Meter(max_round_trips)
    clients: list[_PingPong] = []
    for _ in range(connections):
        _, protocol = await loop.create_connection(
            lambda: _PingPong(meter, message, interval), LOOPBACK, port
        )
        clients.append(protocol)
    for index, client in enumerate(clients):
        if interval > 0:
            loop.call_later(interval * index / len(clients), client.go)
        else:
            client.go()
    await asyncio.sleep(max(warmup, interval))
    meter.recording = True
    started = time.perf_counter()
    deadline = started + duration
    while meter.running and time.perf_counter() < deadline:
        await asyncio.sleep(min(0.05, max(0.0, deadline - time.perf_counter())))
    meter.running = False
    elapsed = time.perf_counter() - started
    meter.recording = False
    await asyncio.wait([client.finished for client in clients], timeout=2.0)
    for client in clients:
        client.transport.close()
    samples = sorted(meter.samples)
    return EchoResult(
        mode=mode,
        connections=connections,
        round_trips=len(samples),
        seconds=elapsed,
        p50_us=_percentile(samples, 0.50) * 1e6,
        p99_us=_percentile(samples, 0.99) * 1e6,
    )


def _new_loop() -> asyncio.AbstractEventLoop:
    return uvloop.new_event_loop() if uvloop is not None else asyncio.new_event_loop()


def _serve_in_child(pipe: Connection, lifetime: float) -> None:
    """Child process body: serve echo on a free loopback port, report it, exit after ``lifetime``."""

    async def serve() -> None:
        server = await start_echo_server()
        pipe.send(server.sockets[0].getsockname()[1])
        async with server:
            await asyncio.sleep(lifetime)

    loop = _new_loop()
    try:
        loop.run_until_complete(serve())
    finally:
        loop.close()


def run_echo_baseline(
    connections: int = 50,
    duration: float = 2.0,
    *,
    separate_process: bool = True,
    warmup: float = 0.2,
    max_round_trips: int = 2_000_000,
) -> EchoResult:
    """Measure the echo baseline (blocking; call it outside a running event loop).

    ``separate_process=True`` runs the server in a child process (client and server on their
    own cores, like a real deployment with external bots); ``False`` runs both on one uvloop
    loop (the setting of an in-process full-stack benchmark).
    """
    loop = _new_loop()
    try:
        if not separate_process:

            async def same_loop() -> EchoResult:
                server = await start_echo_server()
                async with server:
                    port = server.sockets[0].getsockname()[1]
                    return await measure_round_trips(
                        port,
                        connections=connections,
                        duration=duration,
                        warmup=warmup,
                        max_round_trips=max_round_trips,
                        mode="echo, one loop",
                    )

            return loop.run_until_complete(same_loop())
        context = multiprocessing.get_context("spawn")
        parent_end, child_end = context.Pipe()
        lifetime = min(duration, MAX_DURATION) + warmup + 30.0
        child = context.Process(target=_serve_in_child, args=(child_end, lifetime), daemon=True)
        child.start()
        try:
            if not parent_end.poll(30.0):
                raise RuntimeError("echo server process did not report its port")
            port = int(parent_end.recv())
            return loop.run_until_complete(
                measure_round_trips(
                    port,
                    connections=connections,
                    duration=duration,
                    warmup=warmup,
                    max_round_trips=max_round_trips,
                    mode="echo, 2 processes",
                )
            )
        finally:
            child.terminate()
            child.join(5.0)
    finally:
        loop.close()


def format_table(results: Sequence[EchoResult]) -> str:
    """The results as a fixed-width text table."""
    columns = ("conns", 5), ("round trips", 12), ("seconds", 8), ("rt/s", 10), ("p50 us", 8), ("p99 us", 8)
    header = f"{'mode':<20} " + " ".join(f"{name:>{width}}" for name, width in columns)
    lines = [header, "-" * len(header)]
    for r in results:
        lines.append(
            f"{r.mode:<20} {r.connections:>5} {r.round_trips:>12} {r.seconds:>8.2f} "
            f"{r.per_second:>10.0f} {r.p50_us:>8.0f} {r.p99_us:>8.0f}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--connections", default="1,10,50", help="comma-separated connection counts")
    parser.add_argument("--duration", type=float, default=2.0, help="seconds per measurement (max 60)")
    parser.add_argument("--same-loop", action="store_true", help="also measure server and client on one loop")
    args = parser.parse_args(argv)
    counts = [int(part) for part in args.connections.split(",") if part]
    results = [run_echo_baseline(count, args.duration) for count in counts]
    if args.same_loop:
        results += [run_echo_baseline(count, args.duration, separate_process=False) for count in counts]
    print(format_table(results))


if __name__ == "__main__":
    main()

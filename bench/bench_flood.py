"""Fairness under floods (issue 10): a bystander's ping p99 beside running bot tables, with no
flooder (the same-run baseline) and with one flooder per protocol, of garbage and of valid
commands, and with a storm of wrong cg passwords.

Processes, all on 127.0.0.1 and all stopping by themselves:

- the real server (``python -m gamehall.cli serve``, every TCP listener on, the web off, the
  default limits: these are what is measured) on a fresh SQLite file;
- a *tables* child: ``--tables`` UrServer tables of three random wire bots
  (``gamehall.bots.ursuppe.wire.run_bots``, think time 0) playing game after game for the
  whole run (the "running tables");
- the *bystander*, in this process: one UrServer connection that sends ``PING`` every
  ``--interval-ms`` and times each ``PONG``; its p50/p99 per phase are the figures;
- per phase one *flooder* child: ``garbage`` (seeded random bytes as fast as the socket takes
  them, reconnecting whenever the server closes) or ``valid`` (well-formed commands, 64 per
  write, as fast as the server reads them, answers read and dropped) on one protocol; or
  ``storm``: ``--storm-connections`` cg connections sending wrong passwords back to back.

Each flooder phase is paired with a baseline measured right before it (same tables, no
flooder), so load from elsewhere on a shared machine drifts less between the two. Target:
every flooded p99 at most 2x its baseline's. ``server cpu`` is the server's CPU share during
the flooded phase (1.0 = one core).

Run::

    .venv/bin/python bench/bench_flood.py --seconds 4 --tables 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _server_process import CLIENT_CORE, LOOPBACK, SERVER_CORE, ChildServer, free_port, machine_summary, pin

PROTOCOLS = ("urserver", "mrjack", "aah", "cg", "jduplicate")
OFF = ("web",)


# ---- the server -----------------------------------------------------------------------------


@contextlib.contextmanager
def gamehall_server() -> Iterator[tuple[dict[str, int], int]]:
    ports = {name: free_port() for name in PROTOCOLS}
    with tempfile.TemporaryDirectory(prefix="gamehall-bench-flood-") as tmp:
        command = [sys.executable, "-m", "gamehall.cli", "serve", "--bind", LOOPBACK]
        command += ["--db", str(Path(tmp) / "bench.db"), "--log-level", "ERROR"]
        for name, port in ports.items():
            command += [f"--{name}-port", str(port)]
        for name in OFF:
            command += [f"--{name}-port", "0"]
        command += ["--set", "ursuppe.max_games=50"]
        env = {k: v for k, v in os.environ.items() if not k.startswith("GAMEHALL_")}
        process = subprocess.Popen(command, env=env, cwd=tmp, stdin=subprocess.DEVNULL)
        server = ChildServer(process, ports["urserver"], "gamehall server")
        try:
            pin(process.pid, SERVER_CORE)
            _raise_priority(process.pid)
            server.wait_listening()
            for port in ports.values():
                ChildServer(process, port, "gamehall server").wait_listening()
            yield ports, process.pid
        finally:
            server.stop()


def _raise_priority(pid: int) -> bool:
    """Nice -10 for the server and the bystander (when allowed): other work on a shared
    machine then delays them less, so the figures say more about the server and the flooder,
    which keeps the default priority like the tables."""
    try:
        os.setpriority(os.PRIO_PROCESS, pid, -10)
    except OSError:
        return False
    return True


def child(*args: str, nice: int = 0) -> subprocess.Popen[bytes]:
    """A client child process, on the clients' core (the server has the other one). Flooders
    run at nice 10: on a two-core machine they share a core with the bystander, and a real
    flooder's CPU is on another machine, so only the load it puts on the server should count."""
    process = subprocess.Popen(
        [sys.executable, __file__, *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        preexec_fn=(lambda: os.nice(nice)) if nice else None,
    )
    pin(process.pid, CLIENT_CORE)
    return process


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


# ---- children: tables and flooders ----------------------------------------------------------


async def run_tables(port: int, tables: int) -> None:
    from gamehall.bots.ursuppe import wire

    async def table(number: int) -> None:
        round_no = 0
        while True:
            round_no += 1
            with contextlib.suppress(Exception):
                await wire.run_bots(
                    LOOPBACK,
                    port,
                    3,
                    names_prefix=f"t{number}r{round_no}b",
                    policy="random",
                    games=1,
                    seed=number * 1000 + round_no,
                    timeout_ms=0,
                )

    await asyncio.gather(*(table(n) for n in range(tables)))


def _jd_frame(text: str) -> bytes:
    from gamehall.protocols.jduplicate.framing import encode_text

    return encode_text(text)


def _cg(name: str, body: dict[str, object]) -> bytes:
    from gamehall.protocols.cg.codec import CgCodec, Packet

    return CgCodec().encode(Packet(name, body))


def _valid_setup_and_command(protocol: str, number: int) -> tuple[bytes, bytes]:
    """What a valid flooder sends first, and the command it then repeats."""
    if protocol == "urserver":
        return b"", b"PING\n"
    if protocol == "mrjack":
        return b"", b"ison\n"
    if protocol == "aah":
        return b"", b"PING\x03"
    if protocol == "jduplicate":
        client = _jd_frame("CLIENTTYPE|JDuplicate Swing Client#0.12#0.2")
        return client + _jd_frame(f"PLAYERNAME|flood{number}"), _jd_frame("BOARDTYPEREQUEST|")
    if protocol == "cg":  # a ping connection (note §2.2): packet 64 answered with 65
        from gamehall.protocols.cg import registry
        from gamehall.protocols.cg.framing import encode_frame

        return _cg(registry.SETTYPE, {"conntype": "ping"}), encode_frame(registry.PING_ID, {})
    raise ValueError(protocol)


async def _drain(reader: asyncio.StreamReader) -> None:
    with contextlib.suppress(ConnectionError):
        while await reader.read(65536):
            pass


async def flood(protocol: str, kind: str, port: int) -> None:
    rng = random.Random(7)
    number = 0
    while True:
        number += 1
        try:
            reader, writer = await asyncio.open_connection(LOOPBACK, port)
        except OSError:
            await asyncio.sleep(0.01)
            continue
        draining = asyncio.create_task(_drain(reader))
        try:
            if kind == "garbage":
                while not draining.done():
                    writer.write(rng.randbytes(65536))
                    await writer.drain()
            else:
                setup, command = _valid_setup_and_command(protocol, number)
                writer.write(setup)
                batch = command * 64
                while not draining.done():
                    writer.write(batch)
                    await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            draining.cancel()
            writer.close()


async def login_storm(port: int, connections: int) -> None:
    """Wrong cg passwords back to back on ``connections`` connections."""
    from gamehall.protocols._core import NEED_DATA
    from gamehall.protocols.cg import registry
    from gamehall.protocols.cg.codec import CgCodec, Packet

    async def one(number: int) -> None:
        while True:
            try:
                reader, writer = await asyncio.open_connection(LOOPBACK, port)
            except OSError:
                await asyncio.sleep(0.05)
                continue
            codec = CgCodec()

            async def packet(codec: CgCodec = codec, reader: asyncio.StreamReader = reader) -> Packet:
                while True:
                    message = codec.next_message()
                    if message is not NEED_DATA:
                        assert isinstance(message, Packet)
                        return message
                    data = await reader.read(65536)
                    if not data:
                        raise ConnectionError("closed")
                    codec.receive_data(data)

            try:
                await packet()  # hello
                writer.write(codec.encode(Packet(registry.SETTYPE, {"conntype": "classic"})))
                await packet()  # handshake
                writer.write(codec.encode(Packet(registry.HANDSHAKE_ACCEPT, {"success": True})))
                check = {"protoversion": 1, "semver": "0.3.2", "flavor": "vanilla"}
                writer.write(codec.encode(Packet("cg:version.check", check)))
                await packet()
                while True:
                    guess = {"username": f"victim{number % 3}", "pwd": f"guess{random.random()}"}
                    writer.write(codec.encode(Packet("cg:auth", guess)))
                    while (await packet()).name != "cg:auth":
                        pass
            except (ConnectionError, OSError):
                pass
            finally:
                writer.close()

    await asyncio.gather(*(one(n) for n in range(connections)))


# ---- the decoders alone ----------------------------------------------------------------------


def _codecs() -> dict[str, object]:
    from gamehall.protocols.aah.codec import AahCodec
    from gamehall.protocols.cg.codec import CgCodec
    from gamehall.protocols.jduplicate.codec import JDuplicateCodec
    from gamehall.protocols.jduplicate.messages import Version
    from gamehall.protocols.mrjack.codec import TermCodec
    from gamehall.protocols.urserver.codec import UrCodec

    return {
        "urserver": UrCodec,
        "mrjack": TermCodec,
        "aah": AahCodec,
        "cg": CgCodec,
        "jduplicate": lambda: JDuplicateCodec(Version.V02),
    }


def _decode_all(codec: object) -> tuple[int, bool]:
    """Messages and errors out of what ``codec`` holds, and whether the stream was abandoned."""
    from gamehall.protocols._core import NEED_DATA, ProtocolError

    count = 0
    while True:
        try:
            message = codec.next_message()  # type: ignore[attr-defined]
        except ProtocolError as error:
            count += 1
            if not error.recoverable:
                return count, True
            continue
        if message is NEED_DATA:
            return count, False
        count += 1


def decoder_costs() -> None:
    """CPU time to decode one loop turn's worth of input (16 KiB fed in 4 KiB pieces, as the
    server feeds it) of the worst inputs, per codec: what one connection can cost a turn
    before the per-turn input cap even applies; and a 10 MB line fed the same way."""
    rng = random.Random(3)
    inputs = {
        "random bytes": rng.randbytes(16384),
        "terminators only": None,
        "10 MB, no terminator": b"x" * 10_000_000,
    }
    terminators = {"urserver": b"\n", "mrjack": b"\n", "aah": b"\x03", "cg": b"\x00", "jduplicate": b"\x00"}
    print("| codec | input | bytes fed until the close | messages + errors | ms CPU | µs per KiB |")
    print("|---|---|---:|---:|---:|---:|")
    for name, make in _codecs().items():
        for label, data in inputs.items():
            data = terminators[name] * 16384 if data is None else data
            codec = make()  # type: ignore[operator]
            count = fed = 0
            started = time.process_time()
            for offset in range(0, len(data), 4096):
                codec.receive_data(data[offset : offset + 4096])
                fed += len(data[offset : offset + 4096])
                found, lost = _decode_all(codec)
                count += found
                if lost:  # the connection ends here
                    break
            spent = time.process_time() - started
            per_kib = spent * 1e6 / (fed / 1024)
            print(f"| {name} | {label} | {fed} | {count} | {spent * 1000:.2f} | {per_kib:.1f} |")


# ---- the bystander ----------------------------------------------------------------------------


async def bystander(port: int, seconds: float, interval_s: float) -> list[float]:
    reader, writer = await asyncio.open_connection(LOOPBACK, port)
    times: list[float] = []
    deadline = time.perf_counter() + seconds
    try:
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            writer.write(b"PING\n")
            line = await asyncio.wait_for(reader.readline(), 30)
            if line != b"PONG\n":
                raise RuntimeError(f"bystander got {line!r}")
            times.append(time.perf_counter() - started)
            await asyncio.sleep(max(0.0, interval_s - (time.perf_counter() - started)))
    finally:
        writer.close()
    return times


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) >= 100 else max(values)


def measure(port: int, seconds: float, interval_s: float) -> tuple[float, float, int]:
    times = asyncio.run(bystander(port, seconds, interval_s))
    return statistics.median(times) * 1000, p99(times) * 1000, len(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="bystander time per phase")
    parser.add_argument("--tables", type=int, default=2, help="UrServer bot tables running meanwhile")
    parser.add_argument("--interval-ms", type=float, default=5.0, help="bystander ping interval")
    parser.add_argument("--storm-connections", type=int, default=8)
    parser.add_argument("--protocols", default=",".join(PROTOCOLS))
    parser.add_argument("--parts", default="decoders,floods", help="decoders, floods")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        role, *rest = args.child
        with contextlib.suppress(KeyboardInterrupt):
            if role == "tables":
                asyncio.run(run_tables(int(rest[0]), int(rest[1])))
            elif role == "flood":
                asyncio.run(flood(rest[0], rest[1], int(rest[2])))
            elif role == "storm":
                asyncio.run(login_storm(int(rest[0]), int(rest[1])))
        return

    pin(0, CLIENT_CORE)
    raised = _raise_priority(0)
    info = machine_summary()
    print(f"machine: {info['cpu']}, {info['cores']} cores, Python {info['python']}, uvloop {info['uvloop']}")
    parts = args.parts.split(",")
    if "decoders" in parts:
        decoder_costs()
        print()
    if "floods" not in parts:
        return
    load = os.getloadavg()[0]
    print(f"load average before: {load:.1f}; server on core {SERVER_CORE}, clients on core {CLIENT_CORE}")
    print(f"server and bystander at nice -10: {raised}")
    print(
        f"{args.tables} UrServer bot tables running; bystander PING every {args.interval_ms:g} ms, "
        f"{args.seconds:g} s per phase\n"
    )
    interval = args.interval_ms / 1000
    rows: list[tuple[str, tuple[float, float, int], tuple[float, float, int], float]] = []
    with gamehall_server() as (ports, server_pid):
        bystander_port = ports["urserver"]
        tables = child("--child", "tables", str(bystander_port), str(args.tables))
        try:
            time.sleep(2.0)  # the tables get going

            def phase(label: str, *flooder_args: str) -> None:
                baseline = measure(bystander_port, args.seconds, interval)
                flooder = child("--child", *flooder_args, nice=10)
                try:
                    time.sleep(0.5)
                    started = time.perf_counter()
                    cpu = server_cpu(server_pid)
                    flooded = measure(bystander_port, args.seconds, interval)
                    share = (server_cpu(server_pid) - cpu) / (time.perf_counter() - started)
                finally:
                    stop(flooder)
                rows.append((label, baseline, flooded, share))
                print(f"  {label}: p99 {baseline[1]:.2f} -> {flooded[1]:.2f} ms", flush=True)

            for protocol in args.protocols.split(","):
                for kind in ("garbage", "valid"):
                    phase(f"{protocol} {kind}", "flood", protocol, kind, str(ports[protocol]))
            storm = f"cg login storm ({args.storm_connections} conns)"
            phase(storm, "storm", str(ports["cg"]), str(args.storm_connections))
        finally:
            stop(tables)
    print()
    print("| flooder | baseline p50 / p99 ms | flooded p50 / p99 ms | p99 ratio | server cpu |")
    print("|---|---:|---:|---:|---:|")
    for label, (b50, b99, _), (f50, f99, _), share in rows:
        print(f"| {label} | {b50:.2f} / {b99:.2f} | {f50:.2f} / {f99:.2f} | {f99 / b99:.2f}x | {share:.2f} |")


def server_cpu(pid: int) -> float:
    from _server_process import cpu_seconds

    return cpu_seconds(pid)


if __name__ == "__main__":
    main()

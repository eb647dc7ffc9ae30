"""Processes the server benchmarks measure: the real gamehall server and a raw echo server.

Both run as child processes so the benchmark can read what they cost from ``/proc``: CPU time
(``utime + stime`` of ``/proc/<pid>/stat``), resident memory (``VmRSS`` of
``/proc/<pid>/status``) and open descriptors (``/proc/<pid>/fd``). Both listen on 127.0.0.1
only, on a port picked free beforehand, and both stop by themselves: the echo server after its
lifetime, the gamehall server on SIGTERM from :meth:`ChildServer.stop` (killed after a bounded
wait), and every child is killed when the context manager exits, whatever happened.

With two cores, the benchmark can pin the server to one and its clients to the other
(:func:`pin`), so the figures say what one server core does. Linux only (``/proc``,
``sched_setaffinity``).

Run as a script, this module is the echo server child (``python _server_process.py echo PORT
LIFETIME``) or the gamehall server with its slow garbage collections logged
(``python _server_process.py gamehall GC_LOG serve ...``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LOOPBACK = "127.0.0.1"
BENCH_DIR = Path(__file__).resolve().parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
START_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 15.0
SERVER_CORE = 0
CLIENT_CORE = 1


# ---- the machine ---------------------------------------------------------------------------


def raise_nofile_limit() -> tuple[int, int]:
    """Raise this process's soft ``RLIMIT_NOFILE`` to the hard limit (children inherit it);
    return the new ``(soft, hard)``."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def pin(pid: int, core: int) -> bool:
    """Run process ``pid`` (0 = this one) on ``core`` only, if the machine has that core."""
    if not hasattr(os, "sched_setaffinity") or core >= (os.cpu_count() or 1):
        return False
    try:
        os.sched_setaffinity(pid, {core})
    except OSError:
        return False
    return True


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


def machine_summary() -> dict[str, str]:
    """CPU model, core count, Python and uvloop versions, for the report header."""
    model = "?"
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="utf-8") as info:
        for line in info:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    try:
        import uvloop

        uvloop_version = str(getattr(uvloop, "__version__", "?"))
    except ImportError:
        uvloop_version = "not installed"
    return {
        "cpu": model,
        "cores": str(os.cpu_count()),
        "python": sys.version.split()[0],
        "uvloop": uvloop_version,
        "nofile": "/".join(str(n) for n in resource.getrlimit(resource.RLIMIT_NOFILE)),
    }


# ---- what a process costs -------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of ``pid`` so far (threads included)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    # after the ")" of comm: state is field 3, utime field 14, stime field 15 (1-based)
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def rss_bytes(pid: int) -> int:
    """Resident set size of ``pid`` (``VmRSS``) in bytes."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def open_fds(pid: int) -> int:
    """How many descriptors ``pid`` has open."""
    return len(os.listdir(f"/proc/{pid}/fd"))


def _busy_seconds(values: list[int]) -> float:
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
    guest = sum(values[8:10]) if len(values) > 9 else 0  # already counted in user and nice
    return (sum(values) - idle - guest) / CLOCK_TICKS


def machine_busy_seconds() -> float:
    """CPU time all cores together spent not idle since boot (``/proc/stat``), in seconds.

    The benchmark compares it with its own processes' CPU time: the rest is other work on
    the machine (or kernel work nobody's account shows), which the figures must be read with.
    """
    with open("/proc/stat", encoding="ascii") as stat:
        return _busy_seconds([int(v) for v in stat.readline().split()[1:]])


def core_busy_seconds() -> dict[int, float]:
    """Per core, the CPU time it spent not idle since boot (``/proc/stat`` ``cpuN`` lines)."""
    busy: dict[int, float] = {}
    with open("/proc/stat", encoding="ascii") as stat:
        for line in stat:
            name, *values = line.split()
            if name.startswith("cpu") and name[3:].isdigit():
                busy[int(name[3:])] = _busy_seconds([int(v) for v in values])
    return busy


def wait_for_quiet(max_wait_s: float, busy_below: float = 0.25, own_pids: Sequence[int] = ()) -> float:
    """Wait (at most ``max_wait_s``) until other work on the machine is nearly idle over one
    second: fewer than ``busy_below`` cores busy besides this process and ``own_pids``.
    Returns that other load of the last second sampled, so the caller can say when it
    measured on a busy machine anyway."""
    deadline = time.monotonic() + max_wait_s

    def own() -> float:
        return time.process_time() + sum(cpu_seconds(pid) for pid in own_pids)

    while True:
        machine, mine, started = machine_busy_seconds(), own(), time.monotonic()
        time.sleep(1.0)
        wall = time.monotonic() - started
        other = (machine_busy_seconds() - machine - (own() - mine)) / wall
        if other < busy_below or time.monotonic() >= deadline:
            return other


@dataclass(frozen=True, slots=True)
class Usage:
    """A process's CPU time and RSS, and the machine's busy time, at one moment (``at`` is
    ``time.perf_counter()``)."""

    at: float
    cpu_s: float
    rss: int
    machine_s: float
    cores_s: dict[int, float]

    @classmethod
    def of(cls, pid: int) -> Usage:
        return cls(
            time.perf_counter(), cpu_seconds(pid), rss_bytes(pid), machine_busy_seconds(), core_busy_seconds()
        )

    def core_share_since(self, before: Usage, core: int) -> float:
        """How busy ``core`` was (all processes, kernel included) between the two samples."""
        wall = self.at - before.at
        if wall <= 0 or core not in self.cores_s or core not in before.cores_s:
            return 0.0
        return (self.cores_s[core] - before.cores_s[core]) / wall

    def cpu_share_since(self, before: Usage) -> float:
        """CPU seconds per wall second between ``before`` and this sample (1.0 = one core)."""
        wall = self.at - before.at
        return (self.cpu_s - before.cpu_s) / wall if wall > 0 else 0.0

    def machine_share_since(self, before: Usage) -> float:
        """Busy cores (all processes, kernel included) between ``before`` and this sample."""
        wall = self.at - before.at
        return (self.machine_s - before.machine_s) / wall if wall > 0 else 0.0


# ---- child servers ---------------------------------------------------------------------------


class ChildServer:
    """A server child process listening on ``127.0.0.1:port``."""

    def __init__(self, process: subprocess.Popen[bytes], port: int, name: str, web_port: int = 0) -> None:
        self.process = process
        self.port = port
        self.name = name
        self.web_port = web_port
        """The HTTP port (``/metrics``), 0 when the server runs without it."""

    @property
    def pid(self) -> int:
        return self.process.pid

    def usage(self) -> Usage:
        return Usage.of(self.pid)

    def wait_listening(self, timeout: float = START_TIMEOUT_S) -> None:
        """Return once the port accepts a connection.

        Raises:
            RuntimeError: the process exited, or ``timeout`` seconds passed.
        """
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.process.returncode} before listening")
            with contextlib.suppress(OSError), socket.create_connection((LOOPBACK, self.port), 0.5):
                return
            time.sleep(0.05)
        raise RuntimeError(f"{self.name} did not listen on {LOOPBACK}:{self.port} within {timeout:.0f} s")

    def stop(self) -> int | None:
        """SIGTERM, wait (bounded), then SIGKILL; return the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5.0)
        return self.process.returncode


def _other_listeners_off() -> dict[str, str]:
    """``GAMEHALL_<LISTENER>_PORT=0`` for every listener but AAH's: the bench measures AAH
    alone, and the other games' default ports may be taken by other servers on the machine."""
    from gamehall.config import DEFAULT_PORTS

    return {f"GAMEHALL_{name.upper()}_PORT": "0" for name in DEFAULT_PORTS if name != "aah"}


@contextlib.contextmanager
def gamehall_server(
    settings: Mapping[str, object],
    *,
    core: int | None = SERVER_CORE,
    profile_to: str | None = None,
    gc_log: str | None = None,
    environ: Mapping[str, str] | None = None,
    web: bool = False,
    db: str | None = None,
    args: Sequence[str] = (),
) -> Iterator[ChildServer]:
    """The real server (``python -m gamehall.cli serve``) on a fresh SQLite file in a temporary
    directory, AAH on a free loopback port, web off, ``--set aah.KEY=VALUE`` for ``settings``.

    Every other listener is switched off. ``profile_to`` runs it under ``python -m cProfile
    -o PATH`` (the profile is written when the server exits after SIGTERM). ``environ`` adds
    ``GAMEHALL_*`` variables (server limits). ``gc_log`` (without ``profile_to``) runs it
    through :func:`_serve_with_gc_log`, which appends the server's slow garbage collections
    to that file (see :func:`read_gc_log`) and lifts the ``aah.max_tables`` ceiling
    (:func:`_lift_table_ceiling`). ``web`` opens the HTTP listener on a free port too
    (``ChildServer.web_port``), for ``/metrics``. ``db`` replaces the SQLite file (a
    ``postgresql://`` URL), and ``args`` are more ``serve`` flags (a node's ``--redis ...``).
    """
    port = free_port()
    web_port = free_port() if web else 0
    with tempfile.TemporaryDirectory(prefix="gamehall-bench-") as tmp:
        command: list[str] = [sys.executable]
        if profile_to is not None:
            command += ["-m", "cProfile", "-o", profile_to, "-m", "gamehall.cli"]
        elif gc_log is not None:
            command += [str(Path(__file__).resolve()), "gamehall", gc_log]
        else:
            command += ["-m", "gamehall.cli"]
        command += ["serve", "--bind", LOOPBACK, "--db", db or str(Path(tmp) / "bench.db"), *args]
        command += ["--aah-port", str(port), "--web-port", str(web_port), "--log-level", "WARNING"]
        for key, value in settings.items():
            command += ["--set", f"aah.{key}={value}"]
        env = {k: v for k, v in os.environ.items() if not k.startswith("GAMEHALL_")}
        env.update(_other_listeners_off())
        env.update(environ or {})
        process = subprocess.Popen(command, env=env, cwd=tmp, stdin=subprocess.DEVNULL)
        server = ChildServer(process, port, "gamehall server", web_port)
        try:
            if core is not None:
                pin(process.pid, core)
            server.wait_listening()
            yield server
        finally:
            server.stop()


@contextlib.contextmanager
def echo_server(lifetime: float, *, core: int | None = SERVER_CORE) -> Iterator[ChildServer]:
    """The raw uvloop echo server of ``bench_echo_baseline`` in a child process that exits by
    itself after ``lifetime`` seconds (capped at 10 minutes)."""
    port = free_port()
    command = [sys.executable, str(Path(__file__).resolve()), "echo", str(port), str(min(lifetime, 600.0))]
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL)
    server = ChildServer(process, port, "echo server")
    try:
        if core is not None:
            pin(process.pid, core)
        server.wait_listening()
        yield server
    finally:
        server.stop()


def _serve_echo(argv: Sequence[str]) -> None:
    """Child body: echo on 127.0.0.1:PORT with uvloop for LIFETIME seconds, then exit."""
    sys.path.insert(0, str(BENCH_DIR))
    from bench_echo_baseline import _new_loop, start_echo_server

    port, lifetime = int(argv[0]), float(argv[1])
    raise_nofile_limit()

    async def serve() -> None:
        server = await start_echo_server(port)
        async with server:
            await asyncio.sleep(lifetime)

    loop = _new_loop()
    signal.signal(signal.SIGTERM, lambda *_: loop.stop())
    with contextlib.suppress(RuntimeError):  # loop.stop() on SIGTERM ends run_until_complete early
        loop.run_until_complete(serve())
    loop.close()


GC_LOGGED_MS = 5.0
"""Collections at least this long are logged (every full collection is)."""


def _serve_with_gc_log(log_path: str, argv: list[str]) -> int:
    """Child body: ``gamehall`` with ``argv``, logging slow garbage collections (one line
    ``<perf_counter at the end> <generation> <milliseconds>`` each) to ``log_path``.

    The server's collector is not tuned by the project, and a full collection stops the
    event loop for as long as it takes to walk every tracked object: the benchmark reports
    those pauses beside the latencies they cause. ``perf_counter`` is the monotonic clock,
    shared with the benchmark process.
    """
    import gc

    log = open(log_path, "a", buffering=1, encoding="ascii")  # noqa: SIM115 - open for the process lifetime
    started: list[float] = [0.0]

    def on_collection(phase: str, info: dict[str, int]) -> None:
        now = time.perf_counter()
        if phase == "start":
            started[0] = now
            return
        milliseconds = (now - started[0]) * 1000
        if info["generation"] == 2 or milliseconds >= GC_LOGGED_MS:
            log.write(f"{now:.6f} {info['generation']} {milliseconds:.1f}\n")

    gc.callbacks.append(on_collection)
    signal.signal(signal.SIGUSR1, lambda *_: _log_tracked_objects(log))
    from gamehall.cli import main

    return main(argv)


def _log_tracked_objects(log: Any) -> None:
    """On ``SIGUSR1``: one full collection (what is garbage is not counted), then one line
    ``objects <perf_counter> <tracked>``: every object the cyclic collector tracks, frozen or
    not (``gc.get_objects()`` leaves the frozen ones out). What a full collection would walk
    without the server's freezing; the bench divides its growth by the seats joined.

    With ``PYTHONTRACEMALLOC`` set for the child, also writes a ``tracemalloc`` snapshot and the
    tracked objects by type next to the log (``<log>.<n>.snap``, ``<log>.<n>.types``), for
    ``bench/_memory_diff.py``."""
    import gc
    import pickle
    import tracemalloc
    from collections import Counter

    gc.collect()
    tracked = len(gc.get_objects()) + gc.get_freeze_count()
    log.write(f"objects {time.perf_counter():.6f} {tracked}\n")
    if not tracemalloc.is_tracing():
        return
    n = sum(1 for _ in Path(log.name).parent.glob(Path(log.name).name + ".*.snap"))
    tracemalloc.take_snapshot().dump(f"{log.name}.{n}.snap")
    gc.unfreeze()  # counted by type, then frozen again (what the server's collector does anyway)
    types = Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.get_objects())
    gc.freeze()
    with open(f"{log.name}.{n}.types", "wb") as out:
        pickle.dump(dict(types), out)


def read_tracked_objects(server: ChildServer, log_path: str, timeout: float = 60.0) -> int:
    """Ask a server started with ``gc_log`` for its tracked-object count (``SIGUSR1``, see
    :func:`_log_tracked_objects`) and wait (bounded) for the answer."""

    def lines() -> list[str]:
        with contextlib.suppress(OSError), open(log_path, encoding="ascii") as log:
            return [line for line in log if line.startswith("objects ")]
        return []

    seen = len(lines())
    server.process.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answers = lines()
        if len(answers) > seen:
            return int(answers[-1].split()[2])
        time.sleep(0.05)
    raise RuntimeError(f"{server.name} did not report its objects within {timeout:.0f} s")


@dataclass(frozen=True, slots=True)
class GcPauses:
    """The server's logged collections inside a window."""

    full: int
    longest_ms: float
    total_ms: float


def read_gc_log(log_path: str, since: float, until: float) -> GcPauses:
    """The collections of ``log_path`` that ended between ``since`` and ``until``
    (``perf_counter`` values)."""
    full, longest, total = 0, 0.0, 0.0
    with contextlib.suppress(OSError), open(log_path, encoding="ascii") as log:
        for line in log:
            if line.startswith("objects "):
                continue
            at, generation, milliseconds = line.split()
            if since <= float(at) <= until:
                full += generation == "2"
                longest = max(longest, float(milliseconds))
                total += float(milliseconds)
    return GcPauses(full, longest, total)


def longest_full_collection_ms(log_path: str, since: float, until: float) -> float:
    """The longest generation-2 (full) collection of the gc log that ended between ``since``
    and ``until`` (``perf_counter`` values), in milliseconds; 0.0 if none did."""
    longest = 0.0
    with contextlib.suppress(OSError), open(log_path, encoding="ascii") as log:
        for line in log:
            parts = line.split()
            if len(parts) == 3 and parts[1] == "2" and since <= float(parts[0]) <= until:
                longest = max(longest, float(parts[2]))
    return longest


BENCH_MAX_TABLES = 20_000
"""The ``aah.max_tables`` ceiling of a benchmark's server (the settings schema's is 1,000)."""


def _lift_table_ceiling() -> None:
    """Let this process's server accept ``aah.max_tables`` up to :data:`BENCH_MAX_TABLES`.

    Issue 12 runs its targets at 3,000 tables; the schema caps what a host may set at 1,000
    (a host's choice, with a test that holds it). The benchmark raises the cap for its own
    child only, before the configuration is read, instead of changing the product's limit.
    """
    import dataclasses

    from gamehall.rules.aah.settings import SCHEMA

    setting = SCHEMA.settings["max_tables"]
    SCHEMA.settings["max_tables"] = dataclasses.replace(setting, high=BENCH_MAX_TABLES)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "echo":
        _serve_echo(sys.argv[2:])
    elif len(sys.argv) >= 3 and sys.argv[1] == "gamehall":
        _lift_table_ceiling()
        sys.exit(_serve_with_gc_log(sys.argv[2], sys.argv[3:]))
    else:
        sys.exit("usage: _server_process.py echo PORT LIFETIME_S | gamehall GC_LOG serve ARGS...")

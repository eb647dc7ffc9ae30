"""Started entrants: one process per entrant per game, with CPU and memory limits, output kept.

The process gets its own session (so stopping it stops whatever it started), ``RLIMIT_CPU``
(the kernel sends SIGXCPU at the limit and SIGKILL a second later) and ``RLIMIT_AS`` (an
allocation past the limit fails: Python raises MemoryError, C's malloc returns NULL), set in
the child before ``exec``. stdout and stderr go to one log file. After the game the runner
stops it: SIGTERM to its process group, SIGKILL after :data:`STOP_GRACE_S`.

A process that ends *before its game does* with a non-zero status or by a signal is a
process violation (:meth:`EntrantProcess.violation`): killed by a limit, or crashed. One that
exits 0 early simply left; the hall sees its connection go.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import signal
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from gamehall.contest.entrants import Limits

STOP_GRACE_S = 1.0
MEBIBYTE = 1 << 20


def limiter(limits: Limits) -> Callable[[], None]:
    """The ``preexec_fn`` that sets ``limits`` in the child (no core files either)."""

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_s, limits.cpu_s + 1))
        memory = limits.memory_mb * MEBIBYTE
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


class EntrantProcess:
    """One started entrant for one game (see the module docstring)."""

    def __init__(self, process: asyncio.subprocess.Process, log_path: Path) -> None:
        self.process = process
        self.log_path = log_path
        self.stopped_by_us = False

    @classmethod
    async def start(
        cls, argv: Sequence[str], env: Mapping[str, str], log_path: Path, limits: Limits
    ) -> EntrantProcess:
        """Start ``argv`` with ``env`` added to this process's environment.

        Raises:
            OSError: the program cannot be started (not found, not executable).
        """
        log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(log_path, "ab") as log:
            log.write(f"$ {' '.join(argv)}\n".encode())
            log.flush()
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
                env={**os.environ, **env},
                preexec_fn=limiter(limits),  # the limits are set in the child, before exec
                start_new_session=True,
            )
        return cls(process, log_path)

    async def wait(self) -> int:
        return await self.process.wait()

    def violation(self) -> str | None:
        """Why the process broke the rules, once it ended on its own; ``None`` if it did not
        (still running, exited 0, or stopped by the runner)."""
        code = self.process.returncode
        if code is None or code == 0 or self.stopped_by_us:
            return None
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            cause = {
                "SIGXCPU": "CPU limit",
                "SIGKILL": "CPU limit or killed",
                "SIGSEGV": "crash or memory limit",
            }
            return f"killed by {name} ({cause.get(name, 'crash')})"
        return f"exited with status {code}" + (" (memory limit)" if self._log_mentions("MemoryError") else "")

    def _log_mentions(self, text: str) -> bool:
        try:
            return text.encode() in self.log_path.read_bytes()[-65536:]
        except OSError:
            return False

    async def stop(self) -> None:
        """End the process and everything it started: SIGTERM, then SIGKILL."""
        if self.process.returncode is not None:
            return
        self.stopped_by_us = True
        self._signal_group(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.process.wait(), STOP_GRACE_S)
        except TimeoutError:
            self._signal_group(signal.SIGKILL)
            await self.process.wait()

    def _signal_group(self, sig: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, sig)

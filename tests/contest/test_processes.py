"""Started entrants: limits enforced by the kernel, output kept, nothing left running."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from fake_contest_hall import FakeContestHall

from gamehall.contest.entrants import Entrant, EntrantsFile, Limits
from gamehall.contest.launch import RunOptions, plan_contest
from gamehall.contest.processes import EntrantProcess
from gamehall.contest.runner import ContestRunner
from gamehall.rules._core import ForfeitReason, SeatResult

MEMORY_HOG = "import time; hog = bytearray(2 * 1024**3); time.sleep(60)"
CPU_HOG = "while True: pass"
SLEEPER = (
    "import os, sys, time; print(os.getpid(), sys.argv[1:], os.environ['GAMEHALL_NAME'], flush=True); "
    "time.sleep(600)"
)


def python(code: str, *args: str) -> tuple[str, ...]:
    return (sys.executable, "-c", code, *args)


async def test_a_memory_hog_is_stopped_by_its_limit(tmp_path: Path) -> None:
    process = await EntrantProcess.start(python(MEMORY_HOG), {}, tmp_path / "hog.txt", Limits(memory_mb=256))
    await process.wait()
    violation = process.violation()
    assert violation is not None and "memory limit" in violation
    assert "MemoryError" in (tmp_path / "hog.txt").read_text()


async def test_a_cpu_hog_is_stopped_by_its_limit(tmp_path: Path) -> None:
    process = await EntrantProcess.start(python(CPU_HOG), {}, tmp_path / "cpu.txt", Limits(cpu_s=1))
    await process.wait()
    assert process.violation() == "killed by SIGXCPU (CPU limit)"


async def test_a_process_stopped_after_its_game_broke_no_rule(tmp_path: Path) -> None:
    process = await EntrantProcess.start(
        python(SLEEPER, "x"), {"GAMEHALL_NAME": "n"}, tmp_path / "s.txt", Limits()
    )
    await process.stop()
    assert process.process.returncode is not None and process.violation() is None


def contest_of(
    tmp_path: Path, commands: dict[str, tuple[str, ...]], limits: Limits
) -> tuple[ContestRunner, FakeContestHall]:
    entrants = EntrantsFile(
        tuple(Entrant(name, None, command) for name, command in commands.items()), limits=limits
    )
    plan, contest_format = plan_contest(
        RunOptions(game="mrjack", format_name="round-robin", entrants=entrants, out_dir=tmp_path, seed=1,
                   games_per_pairing=1)
    )  # fmt: skip
    fake = FakeContestHall(tmp_path / "contest.db", {"sleeper": 1.0}, delay=20.0)
    return ContestRunner(plan, contest_format, fake, host="127.0.0.1", port=4712), fake


async def test_a_memory_hog_forfeits_its_game_with_a_process_violation(tmp_path: Path) -> None:
    runner, fake = contest_of(
        tmp_path,
        {"sleeper": python(SLEEPER, "{host}", "{port}", "{name}"), "hog": python(MEMORY_HOG)},
        Limits(memory_mb=256),
    )
    started = time.monotonic()
    result = await runner.run()
    assert time.monotonic() - started < 15  # the forfeit ended the game, not the fake's 20 s
    assert [(login, reason) for _, login, reason in fake.forfeits] == [
        ("hog", ForfeitReason.PROCESS_VIOLATION)
    ]
    (report,) = result.reports
    hog = next(s for s in report.seats if s.entrant == "hog")
    assert hog.end.result is SeatResult.FORFEIT and hog.end.reason is ForfeitReason.PROCESS_VIOLATION
    assert any("hog exited with status 1 (memory limit)" in note for note in result.notes)
    sleeper_log = (tmp_path / "logs" / "0001-sleeper.txt").read_text()
    pid_text, _, rest = sleeper_log.splitlines()[1].partition(" ")
    assert rest == "['127.0.0.1', '4712', 'sleeper'] sleeper"  # arguments and environment
    assert not os.path.exists(f"/proc/{pid_text}")  # stopped after the game


async def test_a_command_that_cannot_start_forfeits(tmp_path: Path) -> None:
    runner, fake = contest_of(
        tmp_path, {"sleeper": python(SLEEPER, "x"), "ghost": ("/nonexistent/bot",)}, Limits()
    )
    result = await runner.run()
    assert [(login, reason) for _, login, reason in fake.forfeits] == [
        ("ghost", ForfeitReason.PROCESS_VIOLATION)
    ]
    assert any("ghost could not be started" in note for note in result.notes)

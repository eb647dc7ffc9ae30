"""Run every benchmark in ``bench/`` in turn and print their tables (``make bench``).

Each ``bench_*.py`` script runs in its own process with the modest arguments of
:data:`MODEST` (a few minutes in all on two cores), or its own defaults with ``--full`` (the
figures of ``docs/BENCHMARKS.md``; the AAH part alone takes about ten minutes there). A script
not listed in :data:`MODEST` runs with its defaults. Every script has a time limit; one that
fails or overruns is reported and the others still run. The exit status is 1 if any failed.

Run::

    .venv/bin/python bench/run_all.py [--full] [--only aah,store] [--timeout SECONDS]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent

MODEST: dict[str, list[str]] = {
    "bench_echo_baseline.py": ["--connections", "1,10,50", "--duration", "2"],
    "bench_store.py": ["--appends", "20000"],
    "bench_movegen.py": ["--reps", "3", "--lexicon", "english"],
    "bench_aah.py": [
        "--parts",
        "games,idle",
        "--tables",
        "10,100",
        "--duration",
        "5",
        "--warmup",
        "3",
        "--idle",
        "2000",
        "--idle-joined",
        "400",
        "--quiet-wait",
        "10",
    ],
    "bench_doppelkopf.py": ["--games", "100", "--tables", "1,4", "--duration", "5"],
    "bench_mrjack.py": ["--games", "50", "--pairs", "1,10", "--games-per-pair", "2"],
    "bench_ursuppe.py": ["--games", "30", "--tables", "1,4", "--games-per-table", "1"],
    "bench_words.py": ["--games", "5", "--rounds", "50"],
    "bench_flood.py": ["--seconds", "3", "--tables", "2"],
    "bench_joins.py": ["--tables", "300", "--timed", "100"],
    "bench_encode.py": ["--aah", "3,8", "--browsers", "10,100", "--reps", "3"],
    "bench_targets.py": ["--tables", "100", "--quick"],
    "bench_actions.py": ["--tables", "20", "--actions", "3000", "--reps", "1"],
    "bench_nodes.py": ["--tables", "100", "--seconds", "5", "--quiet-wait", "0"],
}
"""Arguments per script for a quick run (bench_echo_baseline first: it is the reference)."""

DEFAULT_TIMEOUT_S = 1800.0


def scripts(only: Sequence[str]) -> list[Path]:
    """The benchmark scripts, listed ones first in :data:`MODEST` order, then the others."""
    found = sorted(BENCH_DIR.glob("bench_*.py"))
    order = {name: index for index, name in enumerate(MODEST)}
    found.sort(key=lambda path: (order.get(path.name, len(order)), path.name))
    if only:
        found = [path for path in found if any(word in path.stem for word in only)]
    return found


def run(script: Path, arguments: list[str], timeout: float) -> bool:
    """Run one script with its output passed through; whether it succeeded in time."""
    command = [sys.executable, str(script), *arguments]
    print(f"\n######## {script.name} {' '.join(arguments)}", flush=True)
    started = time.monotonic()
    try:
        completed = subprocess.run(command, cwd=BENCH_DIR.parent, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        print(f"######## {script.name}: stopped after {timeout:.0f} s", flush=True)
        return False
    seconds = time.monotonic() - started
    status = "ok" if completed.returncode == 0 else f"failed with exit status {completed.returncode}"
    print(f"######## {script.name}: {status} in {seconds:.0f} s", flush=True)
    return completed.returncode == 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="every script with its own defaults")
    parser.add_argument("--only", default="", help="comma-separated words; run scripts whose name has one")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, help="seconds per script")
    args = parser.parse_args(argv)
    only = [word.strip() for word in args.only.split(",") if word.strip()]
    failed = [
        script.name
        for script in scripts(only)
        if not run(script, [] if args.full else MODEST.get(script.name, []), args.timeout)
    ]
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

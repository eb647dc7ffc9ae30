"""How long a room is unplayable when its node dies (``kill -9``) or drains (``SIGTERM``).

Runs the failover test's scenario (``tests/cluster/test_failover.py``: two real ``gamehall
serve`` nodes on the local Redis and PostgreSQL, lease ttl 2 s, an AAH game of three wire bots
on node ``a``) ``--runs`` times per case and prints, per run, the seconds from the kill (or
the SIGTERM) to node ``b`` holding the room's lease (*adopted*) and to the first action node
``b`` accepted in it (*first action*). The ttl is the baseline: after a kill, adoption waits
for the dead node's lease to expire (ttl) plus at most one scan interval (ttl / 2); after a
drain it does not wait for the ttl at all.

Run: ``PYTHONPATH=src .venv/bin/python bench/bench_failover.py [--runs N]`` (needs the services
at their test addresses: see tests/support/redis_space.py and postgres_support.py).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "support"), str(ROOT / "tests" / "cluster")]

from postgres_support import postgres_schema  # noqa: E402
from redis_space import redis_space_for_test  # noqa: E402
from test_failover import TTL, play_through_failover  # noqa: E402

import gamehall  # noqa: E402


async def one_run(drain: bool) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp, postgres_schema() as url:
        async with redis_space_for_test() as space:
            outcome = await play_through_failover(Path(tmp), space, url, drain=drain)
    return outcome.adopted_s, outcome.first_action_s


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    os.environ["PYTHONPATH"] = str(Path(gamehall.__file__).parents[1])  # the children's gamehall
    print(f"lease ttl {TTL:.1f} s (baseline), scan interval {TTL / 2:.1f} s")
    print(f"{'case':<14} {'run':>3} {'kill->adopted s':>16} {'kill->first action s':>21}")
    for case, drain in (("kill -9", False), ("SIGTERM drain", True)):
        for run in range(1, args.runs + 1):
            adopted, first = await one_run(drain)
            print(f"{case:<14} {run:>3} {adopted:>16.2f} {first:>21.2f}", flush=True)


if __name__ == "__main__":
    asyncio.run(main())

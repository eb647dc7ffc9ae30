"""Benchmark of the word-game move generator (JDuplicate note §10), beside the wolges figures.

Run: ``.venv/bin/python bench/bench_movegen.py [--reps N] [--lexicon english|francais|both]``

For each lexicon it prints the lexicon costs (GADDAG build time and peak memory, cache load time,
size of the arrays), then per position P1..P7: the number of moves, the median and p90 time to
generate every move, the median and p90 time of the top move alone, and the wolges times for the
same position (Rust, native; measured by the project, see the note). The ratio columns are ours
divided by wolges (the goal: median top move within 20x). Move counts differ from wolges because
the word lists differ (ENABLE has two-letter words, the wolges lists do not) and because we
generate down moves on the empty board too.
"""

from __future__ import annotations

import argparse
import functools
import gc
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable

from gamehall.rules.words.anagrams import build_anagram_keys
from gamehall.rules.words.board import Board
from gamehall.rules.words.gaddag import build_gaddag
from gamehall.rules.words.letters import ENGLISH, FRENCH
from gamehall.rules.words.lexicon import Lexicon, read_bundled_words
from gamehall.rules.words.movegen import best_move, generate_moves

EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"
DENSE = (
    "5MOZ6S/2FIREPOTS4p/2Y2UTA1HWAN1E/DAK8L2C/OWE1BIB4E2I/CADGE6U1PA/I4DOGY2R1aT/"
    "L2GLORIA1LOVIE/E1XI1TAED2N1N1/RAI8S1T1/13I1/13E1/13R1/15/15"
)
LATE = (
    "ZONULE1B2APAID/1KY2RHANJA4/GAM4R2HUI2/7G6D/6FECIT3O/6AE1TOWIES/6I7E/1EnGUARD6D/"
    "NAOI2W8/6AT7/5PYE7/5L1L7/2COVE1L7/5X1E7/7N7"
)

QUIRKY = "15/15/15/15/15/15/15/4QUIRKY5/15/15/15/15/15/15/15"
WORD = "15/15/15/15/15/15/15/4WORD7/15/15/15/15/15/15/15"

# name, FEN, rack, wolges EN (moves, all ms, top ms), wolges FR (moves, all ms, top ms)
POSITIONS = [
    ("P1 empty", EMPTY, "AEINRST", (1304, 0.21, 0.15), (1283, 0.26, 0.18)),
    ("P2 empty", EMPTY, "?SATIRE", (14470, 4.7, 2.7), (12919, 3.4, 2.0)),
    ("P3 QUIRKY", QUIRKY, "AEIOULD", (348, 0.06, 0.01), (270, 0.05, 0.01)),
    ("P4 WORD", WORD, "?STLING", (4701, 1.0, 0.15), (1247, 0.20, 0.12)),
    ("P5 late 73", LATE, "AEINST?", (8017, 1.7, 0.27), (4975, 0.96, 0.17)),
    ("P6 dense 80", DENSE, "AEINOST", (1056, 0.24, 0.13), (865, 0.18, 0.09)),
    ("P7 dense 80", DENSE, "??AEIST", (39868, 14.2, 0.11), (31943, 7.7, 0.05)),
]

LEXICONS = {"english": ("enable", ENGLISH), "francais": ("letterpress-fr", FRENCH)}


def timings(run: Callable[[], object], reps: int) -> tuple[float, float]:
    """Median and p90 CPU time in ms over ``reps`` runs (after one warm-up run).

    CPU time of this process, not wall time: the figures stay meaningful on a shared machine.
    """
    run()
    samples = []
    for _ in range(reps):
        start = time.process_time()
        run()
        samples.append((time.process_time() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(0.9 * len(samples)))]


def lexicon_costs(name: str) -> Lexicon:
    words = read_bundled_words(name)
    gc.collect()
    start = time.perf_counter()
    gaddag = build_gaddag(words)
    build_s = time.perf_counter() - start
    del gaddag
    gc.collect()
    tracemalloc.start()
    gaddag = build_gaddag(words)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    arrays = sum(len(a) * a.itemsize for a in (gaddag.masks, gaddag.accepts, gaddag.bases, gaddag.children))
    with tempfile.TemporaryDirectory() as cache:
        Lexicon.load(name, cache_dir=cache)  # builds and writes the cache
        start = time.perf_counter()
        lexicon = Lexicon.load(name, cache_dir=cache)
        load_s = time.perf_counter() - start
    print(
        f"  {len(words)} words; GADDAG {len(gaddag.masks):,} nodes, {len(gaddag.children):,} edges, "
        f"{arrays / 2**20:.1f} MiB of arrays"
    )
    print(f"  build {build_s:.2f} s (peak {peak / 2**20:.0f} MiB traced)")
    print(f"  load from the disk cache {load_s * 1000:.0f} ms")
    start = time.perf_counter()
    keys = build_anagram_keys(words)
    anagram_s = time.perf_counter() - start
    print(
        f"  anagram index: {len(keys):,} keys, {len(keys) * keys.itemsize / 2**20:.1f} MiB, "
        f"built in {anagram_s:.2f} s (cached with the GADDAG)"
    )
    return lexicon


def bench(label: str, reps: int) -> list[float]:
    name, letters = LEXICONS[label]
    print(f"\n== {label} ({name}, {letters.name} values) ==")
    lexicon = lexicon_costs(name)
    column = 3 if label == "english" else 4
    header = (
        f"  {'position':<12} {'rack':<8} {'moves':>6} {'wolges':>6} | "
        f"{'all med':>8} {'p90':>8} {'wolges':>7} {'x':>5} | "
        f"{'top med':>8} {'p90':>8} {'wolges':>7} {'x':>5} | top move"
    )
    print(header)
    print("  " + "-" * (len(header) - 2))
    top_ratios = []
    for name_pos, fen, rack, *wolges in POSITIONS:
        board = Board.from_fen(fen)
        moves_ref, all_ref, top_ref = wolges[column - 3]
        count = len(generate_moves(board, rack, lexicon, letters))
        all_med, all_p90 = timings(functools.partial(generate_moves, board, rack, lexicon, letters), reps)
        top_med, top_p90 = timings(functools.partial(best_move, board, rack, lexicon, letters), reps)
        top = best_move(board, rack, lexicon, letters)
        top_ratios.append(top_med / top_ref)
        print(
            f"  {name_pos:<12} {rack:<8} {count:>6} {moves_ref:>6} | "
            f"{all_med:>6.1f}ms {all_p90:>6.1f}ms {all_ref:>5.2f}ms {all_med / all_ref:>5.0f} | "
            f"{top_med:>6.2f}ms {top_p90:>6.2f}ms {top_ref:>5.2f}ms {top_med / top_ref:>5.0f} | {top}"
        )
    print(f"  median top-move ratio to wolges: {statistics.median(top_ratios):.0f}x")
    return top_ratios


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--reps", type=int, default=15, help="timed repetitions per measurement (default 15)")
    parser.add_argument("--lexicon", choices=["english", "francais", "both"], default="both")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, CPU time of this process")
    print("wolges: Rust release build, 2-core EPYC VM, wall time (JDuplicate note §10)")
    labels = ["english", "francais"] if args.lexicon == "both" else [args.lexicon]
    for label in labels:
        bench(label, args.reps)


if __name__ == "__main__":
    main()

"""Benchmark of whole word games in process: duplicate games and boggle rounds per CPU-second,
each beside a baseline measured in the same run on the same positions.

Run: ``.venv/bin/python bench/bench_words.py [--games N] [--rounds N] [--seed S]``

**Duplicate** (DupEN, ENABLE loaded through the disk cache): ``--games`` whole games, seeds
``S..S+N-1``, driven without a hall (no pause, no grace, every timer fired at once):

* *best_move only* (baseline): the bare :func:`best_move` calls on the positions (board, rack)
  of every turn of those games, recorded in a first pass: the move generator's share.
* *engine, nobody plays*: the game with one seat that never sends a move. The board is the same
  (the top goes on it whatever the players do), so this is the engine's whole turn: the draw,
  its own top search, scoring, events.
* *engine + heuristic bot*: one seat played by ``WordsPolicy("heuristic")`` deciding from its
  view (a second top search per turn), as an in-hall bot does.
* *engine + 2 random bots*: two seats of ``WordsPolicy("random")`` (every move generated, one of
  the best few picked).

**Boggle** (BogEN on ENABLE): ``--rounds`` rounds (games of 5 rounds) with two heuristic bots
sending up to 40 words each; baseline: the bare grid search (:func:`grid_words`) on the same
grids, and the engine's best-word search alone.

Rates are per CPU-second of this process (``time.process_time``), so other work on a shared
machine does not bend them much. ``cost`` is CPU time per turn (per round) relative to the
baseline row.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any

from gamehall.bots.words.grid import grid_words
from gamehall.bots.words.policy import WordsPolicy
from gamehall.rules._core import JSON, Action
from gamehall.rules.words import new_game
from gamehall.rules.words.actions import Moves
from gamehall.rules.words.board import Board
from gamehall.rules.words.boggle import best_word
from gamehall.rules.words.lexicon import Lexicon
from gamehall.rules.words.movegen import best_move
from gamehall.rules.words.settings import shared_lexicon
from gamehall.rules.words.words_table import WordsTable

QUICK: Mapping[str, JSON] = {"pause_s": 0.0, "grace_s": 0.0, "time_per_turn": 60}
TURN_CAP = 200
"""Turns after which a game is abandoned (none reaches it: duplicate games last about 20)."""

Decider = Callable[[Mapping[str, Any], int], Action | None]


def play(game: WordsTable, deciders: list[Decider]) -> int:
    """Play ``game`` to its end: each seat to move decides from its view until it has nothing
    more to send, then the pending timer fires at once. Returns the number of turns played."""
    while not game.finished and game.turn < TURN_CAP:
        acted = False
        for seat, decide in enumerate(deciders):
            while seat in game.to_move().seats:
                action = decide(game.view(seat), seat)
                if action is None:
                    break
                game.apply(seat, action)
                acted = True
        timers = game.pending_timers()
        if timers:
            game.on_timeout(timers[0].key)
        elif not acted:
            raise RuntimeError("the game waits for an action nobody sends")
    return game.turn


def seated(config: Mapping[str, JSON], seed: int, seats: int, lexicon: Lexicon) -> WordsTable:
    game = new_game({**QUICK, **config}, seed, lexicon)
    for index in range(seats):
        game.seat_join(f"p{index}")
    game.start()
    return game


def nobody(view: Mapping[str, Any], seat: int) -> Action | None:
    return None


def bot(style: str, seed: int) -> Decider:
    policy = WordsPolicy(style)
    rng = random.Random(seed)
    return lambda view, seat: policy.decide(view, seat, rng)


def timed(work: Callable[[], int]) -> tuple[float, int]:
    """CPU seconds of ``work`` and what it returned (a count)."""
    start = time.process_time()
    count = work()
    return time.process_time() - start, count


def duplicate_part(lexicon: Lexicon, games: int, seed: int) -> None:
    config: Mapping[str, JSON] = {"preset": "DupEN"}
    seeds = range(seed, seed + games)
    positions: list[tuple[Board, tuple[str, ...]]] = []
    for game_seed in seeds:  # the first pass records every turn's position
        game = seated(config, game_seed, 1, lexicon)
        for _ in range(TURN_CAP):
            if game.finished:
                break
            view = game.view(0)
            positions.append((Board.from_rows(view["board"]), tuple(view["rack"])))
            (timer,) = game.pending_timers()
            game.on_timeout(timer.key)

    def bare() -> int:
        for board, rack in positions:
            best_move(board, rack, lexicon)
        return len(positions)

    def games_with(make: Callable[[int], list[Decider]], seats: int) -> Callable[[], int]:
        def run() -> int:
            return sum(play(seated(config, s, seats, lexicon), make(s)) for s in seeds)

        return run

    rows = [
        ("best_move only (baseline)", bare),
        ("engine, nobody plays", games_with(lambda s: [nobody], 1)),
        ("engine + heuristic bot (1 seat)", games_with(lambda s: [bot("heuristic", s)], 1)),
        ("engine + 2 random bots", games_with(lambda s: [bot("random", s), bot("random", s + 1)], 2)),
    ]
    print(f"## Duplicate (DupEN, {lexicon.name}): {games} whole games, seeds {seed}..{seed + games - 1}")
    print(f"{'what':<36}{'cpu s':>8}{'turns':>7}{'turns/cpu-s':>13}{'games/cpu-s':>13}{'cost':>12}")
    baseline = 0.0
    for label, work in rows:
        seconds, turns = timed(work)
        rate = turns / seconds
        baseline = baseline or rate
        per_game = "-" if "baseline" in label else f"{games / seconds:.2f}"
        print(f"{label:<36}{seconds:>8.2f}{turns:>7}{rate:>13.1f}{per_game:>13}{baseline / rate:>11.2f}x")


def boggle_part(lexicon: Lexicon, rounds: int, seed: int) -> None:
    per_game = 5
    games = max(1, rounds // per_game)
    config: Mapping[str, JSON] = {"preset": "BogEN", "dictionary": "english", "rounds": per_game}
    grids: list[tuple[str, ...]] = []
    sent = [0]

    def full_rounds() -> int:
        total = 0
        for s in range(seed, seed + games):
            game = seated(config, s, 2, lexicon)
            deciders = [bot("heuristic", s), bot("heuristic", s + 1)]

            def counting(decide: Decider) -> Decider:
                def run(view: Mapping[str, Any], seat: int) -> Action | None:
                    if view.get("phase") == "open" and not view.get("words"):
                        grids.append(tuple(view["grid"]))
                    action = decide(view, seat)
                    if isinstance(action, Moves):
                        sent[0] += 1
                    return action

                return run

            total += play(game, [counting(d) for d in deciders])
        return total

    seconds_full, played = timed(full_rounds)
    distinct = list(dict.fromkeys(grids))

    def bare_search() -> int:
        for grid in distinct:
            grid_words(grid, lexicon)
        return len(distinct)

    def bare_best() -> int:
        for grid in distinct:
            best_word(grid, lexicon)
        return len(distinct)

    seconds_search, searched = timed(bare_search)
    seconds_best, _ = timed(bare_best)
    print(f"## Boggle (BogEN on {lexicon.name}): {played} rounds in {games} games, 2 heuristic bots")
    print(f"{'what':<40}{'cpu s':>8}{'rounds':>8}{'rounds/cpu-s':>14}{'cost':>12}")
    base = searched / seconds_search
    for label, seconds, count in (
        ("grid search only (baseline)", seconds_search, searched),
        ("engine best-word search only", seconds_best, searched),
        ("engine + 2 heuristic bots", seconds_full, played),
    ):
        rate = count / seconds
        print(f"{label:<40}{seconds:>8.2f}{count:>8}{rate:>14.1f}{base / rate:>11.2f}x")
    print(f"words sent: {sent[0]} ({sent[0] / max(1, played):.1f} a round, both bots)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20, help="duplicate games (default 20)")
    parser.add_argument("--rounds", type=int, default=200, help="boggle rounds (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    lexicon = shared_lexicon("english")
    load = time.perf_counter() - start
    print(f"Python {sys.version.split()[0]}; rates per CPU-second of this process")
    print(f"lexicon {lexicon.name}: {len(lexicon)} words, loaded in {load * 1000:.0f} ms (disk cache)")
    print()
    duplicate_part(lexicon, args.games, args.seed)
    print()
    boggle_part(lexicon, args.rounds, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``gamehall bots``: each game's wire bots, one game at a time, a line per game and a summary.

Whatever the game, a host running ``gamehall bots --game GAME`` sees the same thing on stdout:
``game N: ...`` as each game ends (who won, or the final ranking), then one ``summary:`` line
(games played, wins per bot, problems seen). A bot's own progress stays in the log (stderr).

Every game's wire module is imported only when that game is asked for.
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

Line = str
Played = tuple[Line, list[str], int, str | None]
"""One game's ``(line, winners, problems, stop_reason)``; a stop reason ends the run."""


@dataclass(slots=True)
class Tally:
    """What the summary line counts."""

    games: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    problems: int = 0
    stopped: str | None = None

    def summary(self, game: str, count: int) -> str:
        wins = ", ".join(f"{name} {n}" for name, n in sorted(self.wins.items())) or "none"
        text = (
            f"summary: {self.games} {game} game(s) by {count} bot(s); wins: {wins}; problems: {self.problems}"
        )
        return text + (f"; stopped: {self.stopped}" if self.stopped else "")


OneGame = Callable[[str, int, Any, int], Awaitable[Played]]
"""``(host, port, args, number) -> Played`` for one game."""


async def _aah(host: str, port: int, args: Any, number: int) -> Played:
    from gamehall.bots.aah import run_bots

    stats = await run_bots(
        host, port, args.count, names_prefix=args.prefix, policy=args.policy, stop_after_games=1
    )
    winners = [s.name for s in stats if s.games_won]
    problems = sum(len(s.protocol_errors) + len(s.violations) for s in stats)
    if not any(s.games_finished for s in stats):
        return f"game {number}: not played to the end", [], problems, "no game finished"
    rounds = max(s.rounds for s in stats)
    return (
        f"game {number}: {' and '.join(winners) or 'nobody'} won ({rounds} rounds)",
        winners,
        problems,
        None,
    )


async def _doppelkopf(host: str, port: int, args: Any, number: int) -> Played:
    run_bots = importlib.import_module("gamehall.bots.doppelkopf.wire").run_bots
    stats = await run_bots(host, port, args.count, names_prefix=args.prefix, policy=args.policy, games=1)
    problems = sum(len(s.refusals) for s in stats)
    prefix = args.prefix if not args.prefix.lower().startswith("bot") else "dk" + args.prefix  # as run_bots
    names = [f"{prefix}{i}" for i in range(1, len(stats) + 1)]
    finished = [name for name, s in zip(names, stats, strict=True) if s.games_finished]
    if not finished:
        reasons = {s.closed_reason for s in stats if s.closed_reason}
        why = ", ".join(sorted(reasons)) or "the table closed"
        return f"game {number}: not played to the end ({why})", [], problems, why
    rounds = max(s.rounds for s in stats)
    return (
        f"game {number}: {rounds} round(s) played to the end by {', '.join(finished)}",
        [],
        problems,
        None,
    )


async def _ursuppe(host: str, port: int, args: Any, number: int) -> Played:
    run_bots = importlib.import_module("gamehall.bots.ursuppe.wire").run_bots
    results = await run_bots(host, port, args.count, names_prefix=args.prefix, policy=args.policy, games=1)
    problems = sum(len(r.errors) for r in results)
    ladders = [(r.name, r.games[-1].get(r.colours[-1], 0)) for r in results if r.games and r.colours]
    if not ladders:
        return f"game {number}: not played to the end", [], problems, "no game finished"
    ladders.sort(key=lambda item: -item[1])
    best = ladders[0][1]
    winners = [name for name, score in ladders if score == best]
    ranking = ", ".join(f"{name} {score}" for name, score in ladders)
    return f"game {number}: {' and '.join(winners)} won; score track {ranking}", winners, problems, None


async def _mrjack(host: str, port: int, args: Any, number: int) -> Played:
    run_bots = importlib.import_module("gamehall.bots.mrjack.wire").run_bots
    results = await run_bots(host, port, args.count, names_prefix=args.prefix, policy=args.policy, games=1)
    problems = sum(len(r.errors) + len(r.unreadable) for r in results)
    sides = {r.winners[-1] for r in results if r.winners}
    if not sides:
        return f"game {number}: not played to the end", [], problems, "no game finished"
    side = sorted(sides)[0]
    winners = [r.nick for r in results if r.role == side]
    return f"game {number}: {side} won ({', '.join(winners) or side})", winners, problems, None


async def _words(host: str, port: int, args: Any, number: int) -> Played:
    from gamehall.bots.words.wire import run_bots

    results = await run_bots(host, port, args.count, names_prefix=args.prefix, policy=args.policy)
    problems = sum(len(r.errors) for r in results)
    ranked = next((r for r in results if r.ranking), None)
    if ranked is None:
        return f"game {number}: not played to the end", [], problems, "no game finished"
    best = ranked.ranking[0][1]
    winners = [name for name, total in ranked.ranking if total == best]
    ranking = ", ".join(f"{name} {total}" for name, total in ranked.ranking)
    return f"game {number}: {ranking} ({ranked.end_reason})", winners, problems, None


ONE_GAME: dict[str, OneGame] = {
    "aah": _aah,
    "doppelkopf": _doppelkopf,
    "ursuppe": _ursuppe,
    "mrjack": _mrjack,
    "words": _words,
}


async def play_and_report(game: str, host: str, port: int, args: Any, out: TextIO) -> int:
    """Play ``args.games`` games (0: until interrupted) of ``game``, one at a time; print a line
    per game and the summary. Returns the exit status (1 when no game could be played)."""
    one_game = ONE_GAME[game]
    tally = Tally()
    number = 0
    try:
        while args.games == 0 or number < args.games:
            number += 1
            try:
                line, winners, problems, stopped = await one_game(host, port, args, number)
            except OSError as exc:
                line, winners, problems, stopped = (
                    f"game {number}: cannot reach {host}:{port}: {exc}",
                    [],
                    0,
                    str(exc),
                )
            print(line, file=out, flush=True)
            tally.problems += problems
            if stopped is not None:
                tally.stopped = stopped
                break
            tally.games += 1
            tally.wins.update(winners)
    finally:
        print(tally.summary(game, args.count), file=out, flush=True)
    return 0 if tally.games else 1

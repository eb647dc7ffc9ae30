"""Who plays whom, in which seat, with which seed: the three contest formats.

A format hands out the contest one round at a time (:meth:`Format.next_round`), because swiss
and knockout pair a round by the results of the rounds before it. A :class:`Table` is one game
before the runner gives it login names and a number.

- **round-robin**: every combination of ``seats`` entrants meets (two-player games: every
  pair), ``games_per_pairing`` times, each time in another seat order (:func:`seat_orders`): with
  as many games as seats, every entrant sits once in every seat (Mr. Jack: plays both roles).
- **swiss** (two seats per table): each round pairs entrants of equal points, never the same
  two twice while another pairing exists; an odd field gives the lowest-placed entrant
  without one a bye (no game, no points: standings come from games alone).
- **knockout** (two seats per table): a bracket in entrants-file order (the first is the top
  seed), byes for the top seeds up to the next power of two; a pairing's winner has more
  points over its games, a tie goes to the higher seed.

Seeds come from the contest seed only, so the same file and ``--seed`` give the same contest.
In a duplicate game (words) every table of the same game index shares one seed: everyone meets
the same racks.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from gamehall.contest.ports import GameReport

FORMATS = ("round-robin", "swiss", "knockout")


class ScheduleError(ValueError):
    """The format cannot be played with these entrants and table size."""


@dataclass(frozen=True, slots=True)
class Table:
    """One game to play: entrant names in seat order, its seed, its round."""

    round: int
    seats: tuple[str, ...]
    seed: int


def derive_seed(contest_seed: int, *parts: object) -> int:
    """A game seed from the contest seed and the game's place in the schedule (stable across
    Python versions and runs, unlike ``hash``)."""
    text = ":".join(str(p) for p in (contest_seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") & 0x7FFFFFFF


def seat_orders(size: int, count: int) -> list[tuple[int, ...]]:
    """``count`` seat orders of a table of ``size``: permutations of ``range(size)`` where each
    run of ``size`` consecutive orders is the rotations of one permutation, so any multiple of
    ``size`` games puts every entrant in every seat equally often, and ``size!`` games play
    every order once. Beyond ``size!`` the list starts again."""
    if size <= 0 or count <= 0:
        return []
    bases = [p for p in itertools.permutations(range(size)) if p[0] == 0]
    orders = [base[shift:] + base[:shift] for base in bases for shift in range(size)]
    return [orders[i % len(orders)] for i in range(count)]


class Format(Protocol):
    """A contest format, asked for one round after another."""

    name: str

    def next_round(self, played: Sequence[GameReport]) -> list[Table]:
        """The next round's tables, given every game played so far; empty when it is over."""
        ...

    def planned_games(self) -> int:
        """How many games the whole contest will have (for the progress line)."""
        ...


class RoundRobin:
    """Every combination of ``seats`` entrants, ``games_per_pairing`` seat orders each."""

    name = "round-robin"

    def __init__(
        self, names: Sequence[str], seats: int, games_per_pairing: int, seed: int, *, duplicate: bool = False
    ) -> None:
        if len(names) < seats:
            raise ScheduleError(f"a table has {seats} seats but there are only {len(names)} entrants")
        self.tables: list[Table] = []
        combos = list(itertools.combinations(names, seats))
        for k, order in enumerate(seat_orders(seats, games_per_pairing)):
            for index, combo in enumerate(combos):
                seed_parts: tuple[object, ...] = ("game", k) if duplicate else ("table", index, k)
                self.tables.append(Table(1, tuple(combo[i] for i in order), derive_seed(seed, *seed_parts)))
        self._given = False

    def next_round(self, played: Sequence[GameReport]) -> list[Table]:
        if self._given:
            return []
        self._given = True
        return list(self.tables)

    def planned_games(self) -> int:
        return len(self.tables)


def _pair_games(pair: Sequence[str], round_: int, games: int, seed: int, duplicate: bool) -> list[Table]:
    """The games of one head-to-head pairing: alternate seats (both roles)."""
    tables = []
    for k, order in enumerate(seat_orders(2, games)):
        parts: tuple[object, ...] = ("game", round_, k) if duplicate else ("pair", round_, *sorted(pair), k)
        tables.append(Table(round_, (pair[order[0]], pair[order[1]]), derive_seed(seed, *parts)))
    return tables


def points_by_entrant(reports: Iterable[GameReport]) -> dict[str, float]:
    """Each entrant's points over ``reports`` (see :func:`gamehall.contest.standings.game_points`)."""
    from gamehall.contest.standings import game_points

    total: dict[str, float] = {}
    for report in reports:
        for entrant, points in game_points(report).items():
            total[entrant] = total.get(entrant, 0.0) + points
    return total


class Swiss:
    """Swiss pairings by points, no rematch while avoidable (see the module docstring)."""

    name = "swiss"

    def __init__(
        self,
        names: Sequence[str],
        games_per_pairing: int,
        seed: int,
        *,
        rounds: int | None = None,
        duplicate: bool = False,
    ) -> None:
        if len(names) < 2:
            raise ScheduleError("swiss needs at least 2 entrants")
        self.names = list(names)
        self.games = games_per_pairing
        self.seed = seed
        self.duplicate = duplicate
        self.rounds = rounds if rounds is not None else max(1, math.ceil(math.log2(len(names))))
        self.round = 0
        self.met: set[frozenset[str]] = set()
        self.byes: list[tuple[int, str]] = []
        tiebreak = random.Random(derive_seed(seed, "swiss-order"))
        self._order = {name: tiebreak.random() for name in names}

    def next_round(self, played: Sequence[GameReport]) -> list[Table]:
        if self.round >= self.rounds:
            return []
        self.round += 1
        points = points_by_entrant(played)
        ranked = sorted(self.names, key=lambda n: (-points.get(n, 0.0), self._order[n]))
        if len(ranked) % 2:
            had = {name for _, name in self.byes}
            bye = next((n for n in reversed(ranked) if n not in had), ranked[-1])
            self.byes.append((self.round, bye))
            ranked.remove(bye)
        pairs = _pair_without_rematch(ranked, self.met) or _pair_in_order(ranked)
        tables: list[Table] = []
        for pair in pairs:
            self.met.add(frozenset(pair))
            tables += _pair_games(pair, self.round, self.games, self.seed, self.duplicate)
        return tables

    def planned_games(self) -> int:
        return self.rounds * (len(self.names) // 2) * self.games


def _pair_in_order(ranked: list[str]) -> list[tuple[str, str]]:
    return [(ranked[i], ranked[i + 1]) for i in range(0, len(ranked) - 1, 2)]


def _pair_without_rematch(ranked: list[str], met: set[frozenset[str]]) -> list[tuple[str, str]] | None:
    """Pairs of neighbours in ``ranked`` that never met, top first (depth-first: the highest
    placed entrant takes the nearest opponent it has not met), or ``None`` if there are none."""
    if not ranked:
        return []
    first, rest = ranked[0], ranked[1:]
    for i, other in enumerate(rest):
        if frozenset((first, other)) in met:
            continue
        tail = _pair_without_rematch(rest[:i] + rest[i + 1 :], met)
        if tail is not None:
            return [(first, other), *tail]
    return None


def bracket_slots(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order for a bracket of ``size`` (a power of two), so
    that seed 1 meets seed 2 in the final at the earliest: 8 -> 1 8 4 5 2 7 3 6."""
    slots = [1]
    while len(slots) < size:
        total = 2 * len(slots) + 1
        slots = [s for seed in slots for s in (seed, total - seed)]
    return slots


class Knockout:
    """A single-elimination bracket (see the module docstring)."""

    name = "knockout"

    def __init__(
        self, names: Sequence[str], games_per_pairing: int, seed: int, *, duplicate: bool = False
    ) -> None:
        if len(names) < 2:
            raise ScheduleError("knockout needs at least 2 entrants")
        self.seeds = {name: i for i, name in enumerate(names)}
        size = 1 << (len(names) - 1).bit_length()
        by_slot = [names[s - 1] if s <= len(names) else None for s in bracket_slots(size)]
        self.alive: list[str | None] = by_slot
        self.games = games_per_pairing
        self.seed = seed
        self.duplicate = duplicate
        self.round = 0
        self.byes: list[tuple[int, str]] = []
        self._pairs: list[tuple[str | None, str | None]] = []
        self.champion: str | None = None

    def next_round(self, played: Sequence[GameReport]) -> list[Table]:
        if self._pairs:
            self.alive = [self._winner(pair, played) for pair in self._pairs]
        if len([a for a in self.alive if a is not None]) <= 1:
            self.champion = next((a for a in self.alive if a is not None), None)
            self._pairs = []
            return []
        self.round += 1
        self._pairs = [(self.alive[i], self.alive[i + 1]) for i in range(0, len(self.alive), 2)]
        tables: list[Table] = []
        for a, b in self._pairs:
            if a is not None and b is not None:
                tables += _pair_games((a, b), self.round, self.games, self.seed, self.duplicate)
            elif a is not None or b is not None:
                self.byes.append((self.round, a or b or ""))
        return tables

    def _winner(self, pair: tuple[str | None, str | None], played: Sequence[GameReport]) -> str | None:
        a, b = pair
        if a is None or b is None:
            return a or b
        this_round = [
            r for r in played if r.order.round == self.round and set(r.order.entrants.values()) == {a, b}
        ]
        points = points_by_entrant(this_round)
        return max((a, b), key=lambda n: (points.get(n, 0.0), -self.seeds[n]))

    def planned_games(self) -> int:
        entrants = len(self.seeds)
        return (entrants - 1) * self.games


def make_format(
    name: str,
    names: Sequence[str],
    *,
    seats: int,
    games_per_pairing: int,
    seed: int,
    duplicate: bool = False,
    rounds: int | None = None,
) -> Format:
    """The format called ``name`` for these entrants.

    Raises:
        ScheduleError: an unknown format, or one that needs two seats per table.
    """
    if games_per_pairing < 1:
        raise ScheduleError("--games-per-pairing must be at least 1")
    if name == "round-robin":
        return RoundRobin(names, seats, games_per_pairing, seed, duplicate=duplicate)
    if name in ("swiss", "knockout") and seats != 2:
        raise ScheduleError(
            f"{name} pairs entrants head to head: it needs a table of 2 seats (this one has {seats})"
        )
    if name == "swiss":
        return Swiss(names, games_per_pairing, seed, rounds=rounds, duplicate=duplicate)
    if name == "knockout":
        return Knockout(names, games_per_pairing, seed, duplicate=duplicate)
    raise ScheduleError(f"unknown format {name!r} (one of {', '.join(FORMATS)})")

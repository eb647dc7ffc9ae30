"""Standings, crosstable and ratings, computed from game reports alone.

Points per game come from the seats' ranks, so one rule serves every game: a seat gets one
point for each seat ranked below it and half a point for each seat tied with it, divided by
the number of other seats. At two seats that is the usual win 1, draw 0.5, loss 0; at four,
first place 1, second 2/3, third 1/3, last 0. A forfeited seat ranks below every seat that
played on (the hall side's rule), so it scores as a loss. A game the server stopped (seats
aborted, nobody forfeited) gives no points and no rating change: nobody lost it. A game that
could not go on *because* of forfeits (too few players left: the others' seats end aborted) is
scored by its ranks like any other: the forfeits lost it.

Ratings are openskill's Plackett-Luce model (one team of one per seat, the seats' ranks), in
game-number order, so a replay of the same reports gives the same numbers. The ordinal
(mu - 3 sigma) is the conservative estimate the tables sort by after points.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from gamehall.contest.entrants import Entrant
from gamehall.contest.ports import GameReport
from gamehall.rules._core import JSON, ForfeitReason, SeatResult

DIGITS = 4
"""Every number written is rounded to this many decimals: the files stay readable and equal
between a run and its replay."""

REASONS = tuple(reason.value for reason in ForfeitReason)


def game_points(report: GameReport) -> dict[str, float]:
    """Points per entrant in one game (see the module docstring); empty for a voided game."""
    seats = report.seats
    results = {s.end.result for s in seats}
    if not seats or (SeatResult.ABORTED in results and SeatResult.FORFEIT not in results):
        return {}
    if len(seats) == 1:
        return {seats[0].entrant: 1.0}
    points = {}
    for seat in seats:
        below = sum(1 for other in seats if other.rank > seat.rank)
        tied = sum(1 for other in seats if other.rank == seat.rank) - 1
        points[seat.entrant] = (below + 0.5 * tied) / (len(seats) - 1)
    return points


@dataclass(slots=True)
class Row:
    """One entrant's line of the standings."""

    name: str
    grade: int | None
    games: int = 0
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: dict[str, int] = field(default_factory=lambda: dict.fromkeys(REASONS, 0))
    soft_timeouts: int = 0
    mu: float = 0.0
    sigma: float = 0.0
    ordinal: float = 0.0
    place: int = 0

    def to_json(self) -> dict[str, JSON]:
        return {
            "place": self.place,
            "name": self.name,
            "grade": self.grade,
            "games": self.games,
            "points": round(self.points, DIGITS),
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "forfeits": dict(self.forfeits),
            "soft_timeouts": self.soft_timeouts,
            "mu": round(self.mu, DIGITS),
            "sigma": round(self.sigma, DIGITS),
            "ordinal": round(self.ordinal, DIGITS),
        }


@dataclass(slots=True)
class Standings:
    """Rows in place order, the crosstable (row entrant -> column entrant -> points the row
    scored against the column), and each entrant's ordinal after each of its games."""

    rows: list[Row]
    crosstable: dict[str, dict[str, float]]
    ratings: dict[str, list[list[float]]]

    def to_json(self) -> dict[str, JSON]:
        return {
            "standings": [row.to_json() for row in self.rows],
            "crosstable": {
                a: {b: round(p, DIGITS) for b, p in sorted(cols.items())}
                for a, cols in sorted(self.crosstable.items())
            },
            "ratings": {
                name: [[int(g), round(o, DIGITS)] for g, o in h] for name, h in sorted(self.ratings.items())
            },
        }

    def leader(self) -> str | None:
        return self.rows[0].name if self.rows and self.rows[0].games else None


def compute_standings(entrants: Sequence[Entrant], reports: Iterable[GameReport]) -> Standings:
    """The standings after ``reports`` (any order: they are sorted by game number)."""
    model = PlackettLuce()
    rows = {e.name: Row(e.name, e.grade) for e in entrants}
    ratings = {e.name: model.rating(name=e.name) for e in entrants}
    history: dict[str, list[list[float]]] = {e.name: [] for e in entrants}
    cross: dict[str, dict[str, float]] = {e.name: {} for e in entrants}
    for report in sorted(reports, key=lambda r: r.order.number):
        points = game_points(report)
        if not points:
            continue
        _count(report, points, rows, cross)
        names = [s.entrant for s in report.seats]
        rated = model.rate([[ratings[n]] for n in names], ranks=[float(s.rank) for s in report.seats])
        for name, team in zip(names, rated, strict=True):
            ratings[name] = team[0]
            history[name].append([float(rows[name].games), team[0].ordinal()])
    for name, row in rows.items():
        row.mu, row.sigma, row.ordinal = ratings[name].mu, ratings[name].sigma, ratings[name].ordinal()
    ordered = sorted(rows.values(), key=lambda r: (-round(r.points, DIGITS), -r.ordinal, r.name))
    for place, row in enumerate(ordered, 1):
        row.place = place
    return Standings(ordered, cross, history)


def _count(
    report: GameReport, points: Mapping[str, float], rows: dict[str, Row], cross: dict[str, dict[str, float]]
) -> None:
    for seat in report.seats:
        row = rows.setdefault(seat.entrant, Row(seat.entrant, None))
        row.games += 1
        row.points += points[seat.entrant]
        row.soft_timeouts += seat.soft_timeouts
        best = min(s.rank for s in report.seats)
        everyone_tied = len(report.seats) > 1 and all(s.rank == best for s in report.seats)
        if seat.end.result is SeatResult.FORFEIT and seat.end.reason is not None:
            row.forfeits[seat.end.reason.value] += 1
        if everyone_tied:
            row.draws += 1
        elif seat.rank == best:  # first place, alone or with partners (a Doppelkopf team)
            row.wins += 1
        else:
            row.losses += 1
        against = cross.setdefault(seat.entrant, {})
        for other in report.seats:
            if other is seat:
                continue
            score = 1.0 if seat.rank < other.rank else 0.5 if seat.rank == other.rank else 0.0
            against[other.entrant] = against.get(other.entrant, 0.0) + score


CSV_FIELDS = (
    *("place", "name", "grade", "games", "points", "wins", "draws", "losses", "soft_timeouts"),
    *(f"forfeit_{reason}" for reason in REASONS),
    *("mu", "sigma", "ordinal"),
)


def standings_csv(standings: Standings) -> str:
    """``standings.csv``: one line per entrant, a column per forfeit reason."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for row in standings.rows:
        data = row.to_json()
        forfeits = data.pop("forfeits")
        assert isinstance(forfeits, dict)
        values = {**data, **{f"forfeit_{k}": v for k, v in forfeits.items()}}
        writer.writerow(["" if values[f] is None else values[f] for f in CSV_FIELDS])
    return out.getvalue()


def render_table(standings: Standings) -> str:
    """The standings and the crosstable as fixed-width text for the terminal."""
    lines = [
        f"{'#':>2} {'entrant':<10} {'grade':>5} {'games':>5} {'points':>7} {'W-D-L':>9} "
        f"{'forfeits':<24} {'mu':>6} {'sigma':>6} {'ordinal':>7}"
    ]
    for row in standings.rows:
        forfeits = ", ".join(f"{k} {v}" for k, v in row.forfeits.items() if v) or "-"
        grade = "" if row.grade is None else str(row.grade)
        lines.append(
            f"{row.place:>2} {row.name:<10} {grade:>5} {row.games:>5} {row.points:>7.2f} "
            f"{f'{row.wins}-{row.draws}-{row.losses}':>9} {forfeits:<24} {row.mu:>6.2f} {row.sigma:>6.2f} "
            f"{row.ordinal:>7.2f}"
        )
    names = [row.name for row in standings.rows]
    width = max([6, *(len(n) for n in names)])  # whole names: two "random..." must not read alike
    lines += ["", "crosstable (points of the row against the column):"]
    lines.append(" " * 11 + " ".join(f"{n:>{width}}" for n in names))
    for a in names:
        cells = []
        for b in names:
            if a == b:
                cells.append(f"{'x':>{width}}")
            elif b in standings.crosstable.get(a, {}):
                cells.append(f"{standings.crosstable[a][b]:>{width}.1f}")
            else:
                cells.append(f"{'.':>{width}}")
        lines.append(f"{a:<10} " + " ".join(cells))
    return "\n".join(lines) + "\n"

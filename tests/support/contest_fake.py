"""A fake contest runner for the browser's side of contests: it fills a contest board the way
the real runner does through ``ContestHall`` (open, a snapshot after each game, close), with
fixed results, so the API and the page can be tested without playing a tournament.

Snapshots follow the ``ContestHall`` docstring (gamehall/contest/ports.py); a standings row is
the one written to ``standings.json`` (name, grade, games, points, typed losses, mu/sigma/ordinal).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

ENTRANTS = ("heuristic", "random", "sleeper", "cheater")
"""A round-robin of four: two graded bots, one that times out, one that sends illegal moves."""
FORFEITS = {"sleeper": "timeout", "cheater": "rule_violation"}
"""How the last two lose every game."""


class Board(Protocol):
    def open_contest(self, contest_id: str, title: str, game: str, organiser: str) -> None: ...

    def publish(self, contest_id: str, snapshot: Any) -> None: ...

    def close_contest(self, contest_id: str, snapshot: Any) -> None: ...


@dataclass
class FakeRunner:
    """Plays a fixed round-robin of :data:`ENTRANTS` one game at a time on ``board``. The
    stronger name of each pairing wins (the order of :data:`ENTRANTS`); ``sleeper`` loses every
    game by a hard timeout, ``cheater`` by a rule violation. ``room_ids`` name the rooms of the
    games in order (a real finished room makes the replay link work)."""

    board: Board
    contest_id: str = "c-demo"
    title: str = "Mr. Jack demo"
    game: str = "mrjack"
    organiser: str = "olga"
    room_ids: Sequence[str] = ()
    played: int = 0
    running: int = 0  # games started and not finished (0 or 1)
    pairings: list[tuple[str, str]] = field(init=False)

    def __post_init__(self) -> None:
        self.pairings = [(a, b) for i, a in enumerate(ENTRANTS) for b in ENTRANTS[i + 1 :]]

    @property
    def total(self) -> int:
        return len(self.pairings)

    def open(self) -> None:
        self.board.open_contest(self.contest_id, self.title, self.game, self.organiser)
        self.board.publish(self.contest_id, self.snapshot())

    def start_next(self) -> None:
        """The next game starts (its room is running)."""
        self.running = 1
        self.board.publish(self.contest_id, self.snapshot())

    def finish_next(self) -> None:
        """The running game (or the next one) ends."""
        self.running = 0
        self.played += 1
        self.board.publish(self.contest_id, self.snapshot())

    def close(self, state: str = "finished") -> None:
        self.board.close_contest(self.contest_id, self.snapshot(state))

    def room_id(self, number: int) -> str:
        return self.room_ids[number - 1] if number <= len(self.room_ids) else f"{self.game}-{number:08x}"

    def snapshot(self, state: str = "running") -> dict[str, Any]:
        return {
            "id": self.contest_id,
            "title": self.title,
            "game": self.game,
            "format": "round-robin",
            "organiser": self.organiser,
            "state": state,
            "played": self.played,
            "total": self.total,
            "failures": sum(1 for pair in self.pairings[: self.played] for x in pair if x in FORFEITS),
            "standings": self.standings(),
            "crosstable": self.crosstable(),
            "games": [self.game_row(n) for n in range(1, self.played + self.running + 1)],
            "ratings": self.ratings(),
        }

    def winner(self, pairing: tuple[str, str]) -> str:
        return min(pairing, key=ENTRANTS.index)

    def game_row(self, number: int) -> dict[str, Any]:
        a, b = self.pairings[number - 1]
        row: dict[str, Any] = {"number": number, "room_id": self.room_id(number), "seats": [a, b]}
        if number > self.played:
            return {**row, "state": "running", "result": None}
        winner = self.winner((a, b))
        loser = b if winner == a else a
        end = {name: {"result": "forfeit", "reason": reason} for name, reason in FORFEITS.items()}
        seats = [
            {"entrant": winner, "score": 1, "rank": 1, "end": {"result": "normal"}},
            {"entrant": loser, "score": 0, "rank": 2, "end": end.get(loser, {"result": "normal"})},
        ]
        termination = "forfeit" if loser in end else "normal"
        return {**row, "state": "finished", "result": {"termination": termination, "seats": seats}}

    def standings(self) -> list[dict[str, Any]]:
        done = self.pairings[: self.played]
        rows = []
        for name in ENTRANTS:
            games = [p for p in done if name in p]
            points = sum(1 for p in games if self.winner(p) == name)
            lost = len(games) - points
            losses = {FORFEITS[name]: lost} if name in FORFEITS else {}
            mu = 25.0 + 2.5 * points - 2.0 * lost
            sigma = 8.333 - 0.5 * len(games)
            rows.append(
                {
                    "name": name,
                    "grade": {"heuristic": 2, "random": 1}.get(name),
                    "games": len(games),
                    "points": points,
                    "losses": {k: v for k, v in losses.items() if v},
                    "mu": mu,
                    "sigma": sigma,
                    "ordinal": mu - 3 * sigma,
                }
            )
        rows.sort(key=lambda row: (-row["points"], ENTRANTS.index(row["name"])))
        for rank, row in enumerate(rows, 1):
            row["rank"] = rank
        return rows

    def crosstable(self) -> dict[str, dict[str, float]]:
        table: dict[str, dict[str, float]] = {name: {} for name in ENTRANTS}
        for a, b in self.pairings[: self.played]:
            winner = self.winner((a, b))
            table[a][b] = 1.0 if winner == a else 0.0
            table[b][a] = 1.0 if winner == b else 0.0
        return table

    def ratings(self) -> dict[str, list[list[float]]]:
        history: dict[str, list[list[float]]] = {name: [[0, 25.0 - 3 * 8.333]] for name in ENTRANTS}
        points = dict.fromkeys(ENTRANTS, 0)
        games = dict.fromkeys(ENTRANTS, 0)
        for pairing in self.pairings[: self.played]:
            for name in pairing:
                games[name] += 1
                points[name] += self.winner(pairing) == name
                lost = games[name] - points[name]
                mu = 25.0 + 2.5 * points[name] - 2.0 * lost
                history[name].append([games[name], mu - 3 * (8.333 - 0.5 * games[name])])
        return history

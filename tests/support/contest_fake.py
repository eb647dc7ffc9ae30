"""A fake contest runner for the browser's side of contests: it fills a contest board the way
the real runner does through ``ContestHall`` (open, a snapshot after each game, close), with
fixed results, so the API and the page can be tested without playing a tournament.

Snapshots are shaped like the runner's (``ContestHall`` in gamehall/contest/ports.py; a
standings row as ``standings.json`` writes it: place, name, grade, games, points, wins, draws,
losses, forfeits by reason, soft_timeouts, mu, sigma, ordinal; a game as
``{number, room_id, seats, state: pending|playing|finished|failed, result}``, its room named
once it is over).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

ENTRANTS = ("heuristic", "random", "sleeper", "cheater")
"""A round-robin of four: two graded bots, one that times out, one that sends illegal moves."""
FORFEITS = {"sleeper": "timeout", "cheater": "rule_violation"}
"""How the last two lose every game."""
REASONS = ("left", "disconnected", "timeout", "soft_timeout", "rule_violation", "process_violation")


class Board(Protocol):
    def open(self, contest_id: str, title: str, game: str, organiser: str) -> Any: ...

    def publish(self, contest_id: str, snapshot: Any) -> None: ...

    def close(self, contest_id: str, snapshot: Any) -> None: ...


@dataclass
class FakeRunner:
    """Plays a fixed round-robin of :data:`ENTRANTS` one game at a time on ``board``. The
    stronger of each pairing wins (the order of :data:`ENTRANTS`); ``sleeper`` loses every
    game by a hard timeout, ``cheater`` by a rule violation. ``room_ids`` name the rooms of the
    games in order (a real finished room makes the replay link work)."""

    board: Board
    contest_id: str = "c-demo"
    title: str = "Mr. Jack demo"
    game: str = "mrjack"
    organiser: str = "olga"
    room_ids: Sequence[str] = ()
    played: int = 0
    playing: bool = False
    pairings: list[tuple[str, str]] = field(init=False)

    def __post_init__(self) -> None:
        self.pairings = [(a, b) for i, a in enumerate(ENTRANTS) for b in ENTRANTS[i + 1 :]]

    @property
    def total(self) -> int:
        return len(self.pairings)

    def open(self) -> None:
        self.board.open(self.contest_id, self.title, self.game, self.organiser)
        self.board.publish(self.contest_id, self.snapshot())

    def start_next(self) -> None:
        """The next game starts (the runner publishes it as ``playing``, its room unnamed)."""
        self.playing = True
        self.board.publish(self.contest_id, self.snapshot())

    def finish_next(self) -> None:
        """The running game (or the next one) ends."""
        self.playing = False
        self.played += 1
        self.board.publish(self.contest_id, self.snapshot())

    def close(self, state: str = "finished") -> None:
        self.board.close(self.contest_id, self.snapshot(state))

    def room_id(self, number: int) -> str:
        return self.room_ids[number - 1] if number <= len(self.room_ids) else f"{self.game}-{number:08x}"

    def snapshot(self, state: str = "running") -> dict[str, Any]:
        done = self.pairings[: self.played]
        return {
            "id": self.contest_id,
            "title": self.title,
            "game": self.game,
            "format": "round-robin",
            "organiser": self.organiser,
            "state": state,
            "played": self.played,
            "total": self.total,
            "failures": sum(1 for pair in done if any(name in FORFEITS for name in pair)),
            "standings": self.standings(),
            "crosstable": self.crosstable(),
            "games": [self.game_row(n) for n in range(1, self.total + 1)],
            "ratings": self.ratings(),
        }

    def winner(self, pairing: tuple[str, str]) -> str:
        return min(pairing, key=ENTRANTS.index)

    def game_row(self, number: int) -> dict[str, Any]:
        a, b = self.pairings[number - 1]
        row: dict[str, Any] = {"number": number, "room_id": None, "seats": [a, b], "result": None}
        if number > self.played:
            return {**row, "state": "playing" if self.playing and number == self.played + 1 else "pending"}
        winner = self.winner((a, b))
        loser = b if winner == a else a
        reason = FORFEITS.get(loser)
        lost = {"result": "forfeit", "reason": reason} if reason else {"result": "normal"}
        seats = [
            {"entrant": winner, "rank": 1, "score": 1, "end": {"result": "normal"}},
            {"entrant": loser, "rank": 2, "score": 0, "end": lost},
        ]
        result = {"termination": "forfeit" if reason else "normal", "seats": seats}
        return {**row, "room_id": self.room_id(number), "state": "finished", "result": result}

    def standings(self) -> list[dict[str, Any]]:
        done = self.pairings[: self.played]
        rows = []
        for name in ENTRANTS:
            games = [p for p in done if name in p]
            wins = sum(1 for p in games if self.winner(p) == name)
            lost = len(games) - wins
            forfeits = dict.fromkeys(REASONS, 0)
            if name in FORFEITS:
                forfeits[FORFEITS[name]] = lost
            mu, sigma = rating(wins, lost)
            rows.append(
                {
                    "name": name,
                    "grade": {"heuristic": 2, "random": 1}.get(name),
                    "games": len(games),
                    "points": float(wins),
                    "wins": wins,
                    "draws": 0,
                    "losses": lost,
                    "forfeits": forfeits,
                    "soft_timeouts": 2 if name == "random" and games else 0,
                    "mu": mu,
                    "sigma": sigma,
                    "ordinal": round(mu - 3 * sigma, 4),
                }
            )
        rows.sort(key=lambda row: (-row["points"], ENTRANTS.index(row["name"])))
        return [{"place": place, **row} for place, row in enumerate(rows, 1)]

    def crosstable(self) -> dict[str, dict[str, float]]:
        table: dict[str, dict[str, float]] = {name: {} for name in ENTRANTS}
        for a, b in self.pairings[: self.played]:
            winner = self.winner((a, b))
            table[a][b] = 1.0 if winner == a else 0.0
            table[b][a] = 1.0 if winner == b else 0.0
        return table

    def ratings(self) -> dict[str, list[list[float]]]:
        """Each entrant's ordinal after each of its games (none before the first)."""
        history: dict[str, list[list[float]]] = {name: [] for name in ENTRANTS}
        wins = dict.fromkeys(ENTRANTS, 0)
        games = dict.fromkeys(ENTRANTS, 0)
        for pairing in self.pairings[: self.played]:
            for name in pairing:
                games[name] += 1
                wins[name] += self.winner(pairing) == name
                mu, sigma = rating(wins[name], games[name] - wins[name])
                history[name].append([games[name], round(mu - 3 * sigma, 4)])
        return history


def rating(wins: int, losses: int) -> tuple[float, float]:
    """A made-up mu and sigma that move as openskill's would: up with wins, narrower with games."""
    return 25.0 + 2.5 * wins - 2.0 * losses, round(8.3333 - 0.5 * (wins + losses), 4)

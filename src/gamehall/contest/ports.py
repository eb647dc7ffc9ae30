"""The contract between the contest runner and the hall it plays on.

The runner decides *what* is played (pairings, seat orders, seeds) and computes standings; the
hall side decides *how* one game is played: it creates the room with every seat reserved for an
entrant's login name, enforces the deadlines, and reports the typed result. Both sides agree on
these value types only, so a contest can be replayed from the logs alone: ``report_of`` (hall
side) turns a stored room record into the same :class:`GameReport` that ``play`` returned.

Deadlines follow the best-known contest server of the field: a *soft* deadline per move (a move
that arrives later is a ``soft_timeout`` strike; ``soft_strikes`` strikes end the entrant's game
with :attr:`~gamehall.rules._core.ForfeitReason.SOFT_TIMEOUT`) and a *hard* one (no move by
then: :attr:`~gamehall.rules._core.ForfeitReason.TIMEOUT`). ``max_errors`` refused moves end it
with ``RULE_VIOLATION``; a dropped connection that does not come back within ``connect_s`` with
``DISCONNECTED``; a started process killed for its CPU or memory limit with
``PROCESS_VIOLATION`` (reported by the runner through :meth:`ContestHall.forfeit`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from gamehall.rules._core import JSON, ForfeitReason, SeatEnd


@dataclass(frozen=True, slots=True)
class Deadlines:
    """Per-move time limits of one contest game, in seconds (per game defaults: runner)."""

    soft_s: float
    hard_s: float
    connect_s: float = 30.0  # to connect and take the reserved seat, and to come back after a drop
    soft_strikes: int = 1  # late moves tolerated before the SOFT_TIMEOUT forfeit (1: the first ends it)
    max_errors: int = 3  # refused moves tolerated before the RULE_VIOLATION forfeit

    def to_json(self) -> dict[str, JSON]:
        return {
            "soft_s": self.soft_s,
            "hard_s": self.hard_s,
            "connect_s": self.connect_s,
            "soft_strikes": self.soft_strikes,
            "max_errors": self.max_errors,
        }


@dataclass(frozen=True, slots=True)
class GameOrder:
    """One game of a contest as the runner orders it.

    ``seats`` are the login names the entrants use for this game, in seat order (Mr. Jack:
    seat 0 plays Mr. Jack, seat 1 the detective). A login name is unique among the games that
    run at once (the runner derives it from the entrant's name); ``entrants`` maps each login
    name back to its entrant.
    """

    contest_id: str
    number: int  # 1-based, in schedule order
    game: str  # hall game id: aah | doppelkopf | ursuppe | mrjack | words
    protocol: str  # the legacy protocol the entrants speak: aah | cg | urserver | mrjack | jduplicate
    seed: int
    seats: tuple[str, ...]
    entrants: Mapping[str, str]
    config: Mapping[str, JSON]
    deadlines: Deadlines
    round: int = 1  # the format's round (swiss, knockout); 1 for round-robin

    def to_json(self) -> dict[str, JSON]:
        return {
            "contest_id": self.contest_id,
            "number": self.number,
            "game": self.game,
            "protocol": self.protocol,
            "seed": self.seed,
            "seats": list(self.seats),
            "entrants": dict(self.entrants),
            "config": dict(self.config),
            "deadlines": self.deadlines.to_json(),
            "round": self.round,
        }


@dataclass(frozen=True, slots=True)
class SeatReport:
    """One seat's end of a contest game: the typed end, the game's own score and the rank
    (1 = best, ties share a rank; a forfeited seat ranks below every seat that played on)."""

    login: str
    entrant: str
    end: SeatEnd
    score: float
    rank: int
    soft_timeouts: int = 0
    errors: int = 0


@dataclass(frozen=True, slots=True)
class GameReport:
    """A finished contest game, as ``play`` returns it and ``report_of`` recomputes it."""

    order: GameOrder
    room_id: str
    termination: str  # the room result's "termination" (normal, forfeit, aborted, ...)
    seats: tuple[SeatReport, ...]
    extra: Mapping[str, JSON] = field(default_factory=dict)  # per game detail (winner role, ...)


class ContestHall(Protocol):
    """What the runner needs of the hall (``gamehall.contest.hall_side.contest_hall(hall)``).

    ``snapshot`` values are the live page's data: ``{"id", "title", "game", "format",
    "organiser", "state": "running"|"finished"|"stopped", "played", "total", "failures",
    "standings": [standings row, ...], "games": [{"number", "room_id", "seats", "state",
    "result"}, ...], "ratings": {entrant: [[games played, ordinal], ...]}}`` where a standings
    row is the one written to ``standings.json``.
    """

    def open_contest(self, contest_id: str, title: str, game: str, organiser: str) -> None:
        """Make the contest visible (lobby, ``/contest/ID``); only ``organiser`` may stop it."""
        ...

    async def play(self, order: GameOrder) -> GameReport:
        """Create the room with every seat reserved, wait for the game's end, report it.

        The room exists, its seats reserved, before ``play`` first suspends: the runner starts
        the entrants' processes right after that (they may connect at once).
        """
        ...

    def register_account(self, protocol: str, login: str, password: str) -> None:
        """Make sure ``login`` can log in over ``protocol`` with ``password`` (cg seats are
        found by account; the other protocols have no accounts). The runner calls it for every
        started entrant's login before ``play``; an entrant that connects on its own brings its
        own account."""
        ...

    def forfeit(self, contest_id: str, login: str, reason: ForfeitReason) -> None:
        """End ``login``'s game now with ``reason`` (the runner killed its process)."""
        ...

    def publish(self, contest_id: str, snapshot: Mapping[str, JSON]) -> None:
        """The live progress and standings for the contest page and the lobby."""
        ...

    def stop_requested(self, contest_id: str) -> bool:
        """Whether the organiser asked (in the browser) to stop the contest."""
        ...

    def close_contest(self, contest_id: str, snapshot: Mapping[str, JSON]) -> None:
        """The contest is over (finished or stopped): its page keeps the final snapshot."""
        ...

"""The contests a hall shows: an in-memory board of each contest's latest snapshot.

The contest runner (``gamehall contest run``) plays its games on a hall and publishes its
progress here through :mod:`gamehall.contest.hall_side`; the browser's lobby and the
``/contest/ID`` page read it (``GET /api/contests``, ``GET /api/contests/ID``, docs/contest.md).
Only the contest's organiser may ask it to stop: the runner polls :meth:`ContestBoard.stop_requested`
between games. The board lives in memory: the runner's own output directory is the record
that survives (standings, logs), so a restart forgets the board, never a result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from gamehall.protocols._core import HallError
from gamehall.rules._core import JSON

RUNNING = "running"
FINISHED = "finished"
STOPPED = "stopped"


@dataclass(slots=True)
class Contest:
    """One contest as the hall shows it. ``snapshot`` is the runner's latest (see
    :class:`gamehall.contest.ports.ContestHall` for its shape)."""

    contest_id: str
    title: str
    game: str
    organiser: str
    snapshot: dict[str, JSON] = field(default_factory=dict)
    stop: bool = False
    closed: bool = False

    def summary(self) -> dict[str, JSON]:
        """The lobby's line for this contest (``GET /api/contests``)."""
        snap = self.snapshot
        return {
            "id": self.contest_id,
            "title": self.title,
            "game": self.game,
            "organiser": self.organiser,
            "state": self.state,
            "played": snap.get("played", 0),
            "total": snap.get("total", 0),
            "failures": snap.get("failures", 0),
            "stop_requested": self.stop,
        }

    @property
    def state(self) -> str:
        state = self.snapshot.get("state")
        if isinstance(state, str) and state in (RUNNING, FINISHED, STOPPED):
            return state
        return FINISHED if self.closed else RUNNING

    def page(self) -> dict[str, JSON]:
        """Everything the contest page shows (``GET /api/contests/ID``): the latest snapshot,
        with the board's own fields on top so they cannot be contradicted by it."""
        return {**self.snapshot, **self.summary()}


class ContestBoard:
    """The hall's contests, by id, in the order they were opened."""

    def __init__(self) -> None:
        self._contests: dict[str, Contest] = {}

    def open(self, contest_id: str, title: str, game: str, organiser: str) -> Contest:
        """Show a new contest (running, nothing played yet). Opening an id again replaces it
        (the same contest run again)."""
        contest = Contest(contest_id, title, game, organiser, {"state": RUNNING})
        self._contests.pop(contest_id, None)
        self._contests[contest_id] = contest
        return contest

    def get(self, contest_id: str) -> Contest | None:
        return self._contests.get(contest_id)

    def all(self) -> list[Contest]:
        return list(self._contests.values())

    def publish(self, contest_id: str, snapshot: Mapping[str, JSON]) -> None:
        """Keep ``snapshot`` as the contest's latest (an unknown contest is ignored: the page
        of a contest the hall never opened has nothing to show it with)."""
        contest = self._contests.get(contest_id)
        if contest is not None and not contest.closed:
            contest.snapshot = dict(snapshot)

    def close(self, contest_id: str, snapshot: Mapping[str, JSON]) -> None:
        """The contest is over: keep its final snapshot for its page."""
        contest = self._contests.get(contest_id)
        if contest is not None:
            contest.snapshot = dict(snapshot)
            contest.closed = True

    def request_stop(self, contest_id: str, name: str) -> None:
        """``name`` asks the contest to stop after the games under way.

        Raises:
            HallError: ``no_such_contest``; ``not_organiser`` for anyone but its organiser.
        """
        contest = self._contests.get(contest_id)
        if contest is None:
            raise HallError("no_such_contest", f"There is no contest {contest_id}.")
        if contest.organiser.lower() != name.lower():
            raise HallError("not_organiser", "Only the contest's organiser can stop it.")
        contest.stop = True

    def stop_requested(self, contest_id: str) -> bool:
        contest = self._contests.get(contest_id)
        return contest is not None and contest.stop

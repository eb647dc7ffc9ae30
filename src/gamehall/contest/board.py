"""The contest board: the live contests a hall serves to browsers (issue 14).

The runner tells the hall about a contest through :class:`~gamehall.contest.ports.ContestHall`;
four of its methods are pure bookkeeping, and this board is that bookkeeping: the latest
snapshot of each contest (for ``/api/contests``, the lobby and ``/contest/ID``), who organised
it, and whether the organiser asked to stop it. The hall side's ``ContestHall`` delegates
``open_contest``, ``publish``, ``stop_requested`` and ``close_contest`` here; the HTTP side reads
it through :meth:`snapshots` and asks for a stop through :meth:`request_stop`, the only two
methods it knows (:class:`gamehall.server.contests.ContestReader`).

Snapshots are copied as plain JSON when published, so the runner may keep mutating its own
dicts, and a value that is not JSON fails in the runner's ``publish`` call (where the bug is),
never later in a browser's request. The organiser named at :meth:`open_contest` is the only
one: a snapshot cannot change it. The board lives as long as the process: finished contests
are kept (their pages show the final standings) up to :data:`KEPT_OVER`, oldest dropped first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import orjson

from gamehall.rules._core import JSON

KEPT_OVER = 50
"""Contests that ended, kept for their pages (running contests are always kept)."""

RUNNING = "running"


@dataclass(slots=True)
class _Contest:
    organiser: str
    snapshot: dict[str, JSON]
    stop_requested: bool = False
    over: bool = False


@dataclass(slots=True)
class ContestBoard:
    """The contests of this process, in the order they were opened."""

    kept_over: int = KEPT_OVER
    _contests: dict[str, _Contest] = field(default_factory=dict)

    # ---- the runner's side (through the hall side's ContestHall) --------------------------

    def open_contest(self, contest_id: str, title: str, game: str, organiser: str) -> None:
        """Show the contest (nothing played yet) until its first snapshot arrives."""
        opening: dict[str, JSON] = {
            "id": contest_id,
            "title": title,
            "game": game,
            "format": None,
            "organiser": organiser,
            "state": RUNNING,
            "played": 0,
            "total": 0,
            "failures": 0,
            "standings": [],
            "games": [],
            "ratings": {},
        }
        self._contests[contest_id] = _Contest(organiser, opening)

    def publish(self, contest_id: str, snapshot: Mapping[str, JSON]) -> None:
        """Replace the contest's snapshot (see ``ContestHall`` for its fields).

        Raises:
            KeyError: the contest was never opened.
            TypeError: the snapshot is not JSON (orjson's ``JSONEncodeError`` is a TypeError).
        """
        contest = self._contests[contest_id]
        contest.snapshot = _plain(contest_id, contest.organiser, snapshot)

    def stop_requested(self, contest_id: str) -> bool:
        contest = self._contests.get(contest_id)
        return contest is not None and contest.stop_requested

    def close_contest(self, contest_id: str, snapshot: Mapping[str, JSON]) -> None:
        """Keep the final snapshot; forget the oldest ended contests beyond ``kept_over``."""
        self.publish(contest_id, snapshot)
        self._contests[contest_id].over = True
        ended = [key for key, contest in self._contests.items() if contest.over]
        for key in ended[: max(0, len(ended) - self.kept_over)]:
            del self._contests[key]

    # ---- the browser's side -----------------------------------------------------------------

    def snapshots(self) -> dict[str, dict[str, JSON]]:
        """Every contest's latest snapshot by id, with ``stop_requested`` (the page shows
        "stopping" until the runner's final snapshot says ``stopped``)."""
        return {
            contest_id: {**contest.snapshot, "stop_requested": contest.stop_requested}
            for contest_id, contest in self._contests.items()
        }

    def request_stop(self, contest_id: str) -> bool:
        """Ask the runner to stop (it polls :meth:`stop_requested` between games). The caller
        has checked that the organiser asks. False when the contest is unknown or over."""
        contest = self._contests.get(contest_id)
        if contest is None or contest.over:
            return False
        contest.stop_requested = True
        return True


def _plain(contest_id: str, organiser: str, snapshot: Mapping[str, JSON]) -> dict[str, JSON]:
    """A private plain-JSON copy of ``snapshot`` with the board's own id and organiser."""
    copied = orjson.loads(orjson.dumps(dict(snapshot)))
    copied["id"] = contest_id
    copied["organiser"] = organiser
    return dict(copied)

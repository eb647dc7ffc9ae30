"""The contests a hall shows: an in-memory board of each contest's latest snapshot (issue 14).

The contest runner plays its games on a hall and tells it about a contest through
:class:`~gamehall.contest.ports.ContestHall` (:mod:`gamehall.contest.hall_side`); four of its
methods are bookkeeping, and this board is that bookkeeping: the latest snapshot of each
contest (for ``/api/contests``, the lobby and ``/contest/ID``), who organised it, and whether
the organiser asked to stop it (the runner polls :meth:`ContestBoard.stop_requested` between
games). The HTTP side reads it only through :class:`gamehall.server.contests.ContestReader`
(``all``, ``get``, ``request_stop``; a contest's ``organiser``, ``state`` and ``page()``).

Snapshots are copied as plain JSON when published, so the runner may keep changing its own
dicts and a value that is not JSON fails in the runner's ``publish`` (where the bug is), never
later in a browser's request. The board's own fields (id, title, game, organiser, state,
``stop_requested``) are put over the snapshot's, so a snapshot cannot contradict them.
Finished contests are kept (their pages show the final standings), up to :data:`KEPT_OVER`,
the oldest dropped first. The board lives in memory: the runner's output directory is the
record that survives a restart.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import orjson

from gamehall.protocols._core import HallError
from gamehall.rules._core import JSON

RUNNING = "running"
FINISHED = "finished"
STOPPED = "stopped"
KEPT_OVER = 50
"""Contests that ended, kept for their pages (running contests are always kept)."""


@dataclass(slots=True)
class Contest:
    """One contest as the hall shows it; ``snapshot`` is the runner's latest."""

    contest_id: str
    title: str
    game: str
    organiser: str
    snapshot: dict[str, JSON] = field(default_factory=dict)
    stop: bool = False
    closed: bool = False

    @property
    def state(self) -> str:
        """``running`` | ``finished`` | ``stopped``: the snapshot's, else from ``closed``."""
        state = self.snapshot.get("state")
        if state in (RUNNING, FINISHED, STOPPED):
            return str(state)
        return FINISHED if self.closed else RUNNING

    def summary(self) -> dict[str, JSON]:
        """The board's own fields, put over the snapshot's in :meth:`page`."""
        snapshot = self.snapshot
        return {
            "id": self.contest_id,
            "title": self.title,
            "game": self.game,
            "organiser": self.organiser,
            "state": self.state,
            "played": snapshot.get("played", 0),
            "total": snapshot.get("total", 0),
            "failures": snapshot.get("failures", 0),
            "stop_requested": self.stop,
        }

    def page(self) -> dict[str, JSON]:
        """Everything the contest page shows: the snapshot with the board's fields on top."""
        return {**self.snapshot, **self.summary()}


@dataclass(slots=True)
class ContestBoard:
    """The contests of this process, by id, in the order they were opened."""

    kept_over: int = KEPT_OVER
    _contests: dict[str, Contest] = field(default_factory=dict)

    def open(self, contest_id: str, title: str, game: str, organiser: str) -> Contest:
        """Show a new contest (running, nothing played yet); an id opened again is replaced."""
        contest = Contest(contest_id, title, game, organiser, {"state": RUNNING})
        self._contests.pop(contest_id, None)
        self._contests[contest_id] = contest
        return contest

    def get(self, contest_id: str) -> Contest | None:
        return self._contests.get(contest_id)

    def all(self) -> list[Contest]:
        return list(self._contests.values())

    def publish(self, contest_id: str, snapshot: Mapping[str, JSON]) -> None:
        """Keep ``snapshot`` as the contest's latest (see ``ContestHall`` for its fields). An
        unknown or closed contest is left alone.

        Raises:
            TypeError: the snapshot is not JSON (orjson's ``JSONEncodeError`` is a TypeError).
        """
        contest = self._contests.get(contest_id)
        if contest is not None and not contest.closed:
            contest.snapshot = _plain(snapshot)

    def close(self, contest_id: str, snapshot: Mapping[str, JSON]) -> None:
        """The contest is over: keep its final snapshot; forget the oldest ended contests
        beyond ``kept_over``."""
        contest = self._contests.get(contest_id)
        if contest is None:
            return
        contest.snapshot = _plain(snapshot)
        contest.closed = True
        ended = [key for key, each in self._contests.items() if each.closed]
        for key in ended[: max(0, len(ended) - self.kept_over)]:
            del self._contests[key]

    def request_stop(self, contest_id: str, name: str) -> None:
        """``name`` asks the contest to stop after the games under way (the runner polls
        :meth:`stop_requested` between games). The caller has checked who ``name`` is.

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


def _plain(snapshot: Mapping[str, JSON]) -> dict[str, JSON]:
    """A private plain-JSON copy of ``snapshot``."""
    copied = orjson.loads(orjson.dumps(dict(snapshot)))
    return dict(copied)

"""A stand-in for the contest hall side, for testing the runner alone.

It implements :class:`gamehall.contest.ports.ContestHall` without playing: a game ends after
``delay`` seconds (or as soon as the runner reports a forfeit), its seats ranked by each
entrant's ``strength`` plus seeded noise; an entrant listed in ``misbehaving`` forfeits with
its reason. Every game is written to a real SQLite store the way the hall writes a room: the
record's result is the report, so :func:`fake_report_of` gives it back from the "log".
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Mapping
from pathlib import Path

from gamehall.contest.ports import GameOrder, GameReport, SeatReport
from gamehall.contest.records import report_from_json, report_to_json
from gamehall.rules._core import JSON, ForfeitReason, SeatEnd, SeatResult
from gamehall.store.base import RoomRecord
from gamehall.store.sqlite import SqliteStore


class FakeContestHall:
    def __init__(
        self,
        store_path: Path,
        strengths: Mapping[str, float] | None = None,
        *,
        misbehaving: Mapping[str, ForfeitReason] | None = None,
        delay: float = 0.0,
        noise: float = 0.0,
        stop_after: int | None = None,
    ) -> None:
        self.store = SqliteStore(str(store_path))
        self.strengths = dict(strengths or {})
        self.misbehaving = dict(misbehaving or {})
        self.delay = delay
        self.noise = noise
        self.stop_after = stop_after
        self.opened: list[tuple[str, str, str, str]] = []
        self.published: list[Mapping[str, JSON]] = []
        self.closed: list[Mapping[str, JSON]] = []
        self.forfeits: list[tuple[str, str, ForfeitReason]] = []
        self.orders: list[GameOrder] = []
        self.accounts: list[tuple[str, str, str]] = []
        self.playing: set[str] = set()  # entrants in a game right now
        self.overlaps: list[str] = []  # entrants seen in two games at once
        self.max_running = 0
        self._running = 0
        self._forfeited: dict[str, ForfeitReason] = {}
        self._ended: dict[str, asyncio.Event] = {}

    def open_contest(self, contest_id: str, title: str, game: str, organiser: str) -> None:
        self.opened.append((contest_id, title, game, organiser))

    async def play(self, order: GameOrder) -> GameReport:
        self.orders.append(order)
        entrants = list(order.entrants.values())
        self.overlaps += [e for e in entrants if e in self.playing]
        self.playing |= set(entrants)
        self._running += 1
        self.max_running = max(self.max_running, self._running)
        ended = asyncio.Event()
        for login in order.seats:
            self._ended[login] = ended
        try:
            if self.delay:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ended.wait(), self.delay)
            return self._finish(order)
        finally:
            self._running -= 1
            self.playing -= set(entrants)

    def _finish(self, order: GameOrder) -> GameReport:
        rng = random.Random(order.seed)
        ends: dict[str, SeatEnd] = {}
        strength: dict[str, float] = {}
        for login in order.seats:
            entrant = order.entrants[login]
            reason = self._forfeited.pop(login, None) or self.misbehaving.get(entrant)
            ends[login] = SeatEnd(SeatResult.NORMAL if reason is None else SeatResult.FORFEIT, reason)
            strength[login] = -1e9 if reason else self.strengths.get(entrant, 0.0) + rng.random() * self.noise
        seats = tuple(
            SeatReport(
                login=login,
                entrant=order.entrants[login],
                end=ends[login],
                score=round(strength[login], 3) if ends[login].reason is None else 0.0,
                rank=1 + sum(1 for other in order.seats if strength[other] > strength[login]),
            )
            for login in order.seats
        )
        forfeited = any(s.end.reason is not None for s in seats)
        report = GameReport(order, f"r{order.number:04d}", "forfeit" if forfeited else "normal", seats)
        now = time.time()
        self.store.create_room(report.room_id, order.game, dict(order.config), order.seed, {}, now)
        self.store.finish(report.room_id, report_to_json(report), now)
        return report

    def register_account(self, protocol: str, login: str, password: str) -> None:
        self.accounts.append((protocol, login, password))

    def forfeit(self, contest_id: str, login: str, reason: ForfeitReason) -> None:
        self.forfeits.append((contest_id, login, reason))
        self._forfeited[login] = reason
        if login in self._ended:
            self._ended[login].set()

    def publish(self, contest_id: str, snapshot: Mapping[str, JSON]) -> None:
        self.published.append(snapshot)

    def stop_requested(self, contest_id: str) -> bool:
        return self.stop_after is not None and len(self.published) >= self.stop_after

    def close_contest(self, contest_id: str, snapshot: Mapping[str, JSON]) -> None:
        self.closed.append(snapshot)
        self.store.close()


def fake_report_of(record: RoomRecord, order: GameOrder) -> GameReport:
    """The fake hall side's ``report_of``: the report it stored as the room's result."""
    assert isinstance(record.result, dict)
    return report_from_json(record.result)

"""``gamehall contest replay DIR``: every result and the standings again, from the logs alone.

For each game of ``DIR/games.jsonl`` the room's record (seed, seats, every accepted move, the
stored result) is read from ``DIR/contest.db`` and turned into a report by the hall side's
``report_of(record, order)``, the same function the live game's report came from. The
recomputed reports give the standings again. Any difference from what the run wrote (a game,
a number in ``standings.json``) is printed and makes the command fail: a tampered file or a
result that the log does not support cannot pass.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gamehall.contest.entrants import Entrant
from gamehall.contest.ports import GameOrder, GameReport
from gamehall.contest.records import RecordError, read_reports, report_to_json
from gamehall.contest.runner import CONTEST_FILE, GAMES_FILE, STANDINGS_JSON, STORE_FILE
from gamehall.contest.standings import Standings, compute_standings
from gamehall.store.base import RoomRecord
from gamehall.store.sqlite import SqliteStore

ReportOf = Callable[[RoomRecord, GameOrder], GameReport]


class ReplayError(Exception):
    """The contest directory cannot be replayed at all (a file missing or unreadable)."""


@dataclass(slots=True)
class ReplayResult:
    standings: Standings
    games: int
    differences: list[str] = field(default_factory=list)

    @property
    def agrees(self) -> bool:
        return not self.differences


def default_report_of() -> ReportOf:
    """The hall side's ``report_of``.

    Raises:
        ReplayError: this build has no hall side of contest mode.
    """
    try:
        hall_side = importlib.import_module("gamehall.contest.hall_side")
    except ImportError as exc:
        raise ReplayError("this build has no contest hall side (gamehall.contest.hall_side)") from exc
    report_of: ReportOf = hall_side.report_of
    return report_of


def replay_contest(directory: Path, report_of: ReportOf | None = None) -> ReplayResult:
    """Recompute every game and the standings of the contest in ``directory``.

    Raises:
        ReplayError: ``contest.json``, ``games.jsonl`` or ``contest.db`` is missing or unreadable.
    """
    entrants = _entrants(directory)
    try:
        written = read_reports(directory / GAMES_FILE)
    except (OSError, RecordError) as exc:
        raise ReplayError(f"cannot read {directory / GAMES_FILE}: {exc}") from exc
    if not (directory / STORE_FILE).exists():
        raise ReplayError(f"no store at {directory / STORE_FILE}")
    report_of = report_of or default_report_of()
    differences: list[str] = []
    recomputed: list[GameReport] = []
    store = SqliteStore(str(directory / STORE_FILE))
    try:
        for report in written:
            record = store.load_room(report.room_id)
            number = report.order.number
            if record is None:
                differences.append(f"game {number}: room {report.room_id} is not in the store")
                continue
            again = report_of(record, report.order)
            recomputed.append(again)
            differences += _compare(f"game {number}", report_to_json(report), report_to_json(again))
    finally:
        store.close()
    standings = compute_standings(entrants, recomputed)
    differences += _compare_standings(directory, standings)
    return ReplayResult(standings, len(written), differences)


def _entrants(directory: Path) -> list[Entrant]:
    try:
        data = json.loads((directory / CONTEST_FILE).read_text())
        return [Entrant(name=str(e["name"]), grade=e.get("grade")) for e in data["entrants"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ReplayError(f"cannot read {directory / CONTEST_FILE}: {exc}") from exc


def _compare_standings(directory: Path, standings: Standings) -> list[str]:
    path = directory / STANDINGS_JSON
    try:
        written = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        return [f"{STANDINGS_JSON}: unreadable ({exc})"]
    return _compare(STANDINGS_JSON, written, json.loads(json.dumps(standings.to_json())))


def _compare(where: str, written: Any, again: Any) -> list[str]:
    """Each place where ``written`` and ``again`` differ, as ``where.path: written != again``."""
    if isinstance(written, dict) and isinstance(again, dict):
        out = []
        for key in sorted(set(written) | set(again), key=str):
            if key not in written or key not in again:
                out.append(
                    f"{where}.{key}: {written.get(key, '<missing>')!r} != {again.get(key, '<missing>')!r}"
                )
            else:
                out += _compare(f"{where}.{key}", written[key], again[key])
        return out
    if isinstance(written, list) and isinstance(again, list) and len(written) == len(again):
        return [
            d
            for i, (a, b) in enumerate(zip(written, again, strict=True))
            for d in _compare(f"{where}[{i}]", a, b)
        ]
    if written != again:
        return [f"{where}: written {written!r}, logs give {again!r}"]
    return []

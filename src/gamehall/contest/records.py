"""Game reports as JSON lines: ``DIR/games.jsonl`` holds one :class:`GameReport` per line.

The contract (:mod:`gamehall.contest.ports`) gives ``GameOrder.to_json``; the rest of the
round trip lives here, so that ``contest replay`` compares what was written with what the logs
give, field by field, as plain JSON.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from gamehall.contest.ports import Deadlines, GameOrder, GameReport, SeatReport
from gamehall.rules._core import JSON, ForfeitReason, SeatEnd, SeatResult


class RecordError(ValueError):
    """A line of ``games.jsonl`` is not a game report."""


def seat_to_json(seat: SeatReport) -> dict[str, JSON]:
    return {
        "login": seat.login,
        "entrant": seat.entrant,
        "end": dict(seat.end.to_json()),
        "score": seat.score,
        "rank": seat.rank,
        "soft_timeouts": seat.soft_timeouts,
        "errors": seat.errors,
    }


def report_to_json(report: GameReport) -> dict[str, JSON]:
    return {
        "order": report.order.to_json(),
        "room_id": report.room_id,
        "termination": report.termination,
        "seats": [seat_to_json(s) for s in report.seats],
        "extra": dict(report.extra),
    }


def report_from_json(data: Mapping[str, Any]) -> GameReport:
    """The report written by :func:`report_to_json`.

    Raises:
        RecordError: a field is missing or of the wrong kind.
    """
    try:
        order = data["order"]
        deadlines = Deadlines(**order["deadlines"])
        game_order = GameOrder(
            contest_id=str(order["contest_id"]),
            number=int(order["number"]),
            game=str(order["game"]),
            protocol=str(order["protocol"]),
            seed=int(order["seed"]),
            seats=tuple(str(s) for s in order["seats"]),
            entrants={str(k): str(v) for k, v in order["entrants"].items()},
            config=dict(order["config"]),
            deadlines=deadlines,
            round=int(order.get("round", 1)),
        )
        seats = tuple(
            SeatReport(
                login=str(s["login"]),
                entrant=str(s["entrant"]),
                end=SeatEnd(
                    SeatResult(s["end"]["result"]),
                    ForfeitReason(s["end"]["reason"]) if "reason" in s["end"] else None,
                ),
                score=float(s["score"]),
                rank=int(s["rank"]),
                soft_timeouts=int(s.get("soft_timeouts", 0)),
                errors=int(s.get("errors", 0)),
            )
            for s in data["seats"]
        )
        return GameReport(
            order=game_order,
            room_id=str(data["room_id"]),
            termination=str(data["termination"]),
            seats=seats,
            extra=dict(data.get("extra", {})),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RecordError(f"not a game report: {exc!r}") from exc


def write_reports(path: Path, reports: Iterable[GameReport]) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for report in reports:
            handle.write(json.dumps(report_to_json(report), sort_keys=True) + "\n")


def append_report(path: Path, report: GameReport) -> None:
    """Add one finished game (flushed at once: a crash loses no finished game)."""
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(report_to_json(report), sort_keys=True) + "\n")


def read_reports(path: Path) -> list[GameReport]:
    """Every report of a ``games.jsonl``.

    Raises:
        RecordError: a line is not a report (its line number is in the message).
        OSError: the file cannot be read.
    """
    reports = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                reports.append(report_from_json(json.loads(line)))
            except (json.JSONDecodeError, RecordError) as exc:
                raise RecordError(f"{path}:{number}: {exc}") from exc
    return reports

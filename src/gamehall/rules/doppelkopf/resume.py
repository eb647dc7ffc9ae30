"""Carrying an adjourned game over into a new table (note §4.3 ``game.save`` / ``game.load``).

An adjourned game is continued at a *new* table: same players (seat by seat), same rules, and
the session's public record carried over: the points, the summary rows (``game_summaries``),
the pending buck rounds and the number of the next deal. Nothing hidden is carried: the new
table deals from its own seed, so the carry-over may sit in the room's config (the ``resume``
setting, JSON text) where every member can read it, and replaying the new room's log rebuilds
the loaded table exactly like any other.

**Decision (ours):** the deal that was being played when the vote passed is not resumed; a game
is adjourned only in phase ``end``, so nothing is lost.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

from gamehall.rules._core import ConfigError
from gamehall.rules.doppelkopf.state import TableState

RESUME_VERSION = 1
"""Bumped when the carry-over's shape changes; an older one is refused."""


@dataclass(frozen=True, slots=True)
class Resume:
    """What a loaded game starts from."""

    next_round: int
    points: tuple[int, int, int, int]
    summaries: tuple[dict[str, Any], ...]
    buck_queue: int
    buck_counters: dict[str, int]


def carry_over(table: TableState) -> str:
    """The carry-over of ``table`` as JSON text (for the ``resume`` setting of a new table)."""
    rnd = table.round
    if rnd is None:
        next_round = table.round_number + 1
    else:
        next_round = rnd.number if rnd.void_type is not None else rnd.number + 1
    return json.dumps(
        {
            "version": RESUME_VERSION,
            "next_round": next_round,
            "points": list(table.points),
            "summaries": table.summaries,
            "buck_queue": table.buck.queue,
            "buck_counters": table.buck.counters,
        },
        separators=(",", ":"),
        sort_keys=True,
    )


def parse_resume(text: str) -> Resume | None:
    """The carry-over in ``text`` (``""`` = a fresh game: ``None``).

    Raises:
        ConfigError: the text is not a carry-over this version wrote.
    """
    if not text:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        raise ConfigError("resume: not JSON") from None
    if not isinstance(data, dict) or data.get("version") != RESUME_VERSION:
        raise ConfigError("resume: unknown carry-over version")
    points, summaries = data.get("points"), data.get("summaries")
    next_round, queue, counters = data.get("next_round"), data.get("buck_queue"), data.get("buck_counters")
    if not (isinstance(points, list) and len(points) == 4 and all(_is_int(p) for p in points)):
        raise ConfigError("resume: points must be four integers")
    if not (isinstance(summaries, list) and all(isinstance(row, dict) for row in summaries)):
        raise ConfigError("resume: summaries must be a list of rows")
    if not (isinstance(next_round, int) and isinstance(queue, int) and next_round >= 1 and queue >= 0):
        raise ConfigError("resume: bad round number or buck queue")
    if not (isinstance(counters, dict) and all(_is_int(v) for v in counters.values())):
        raise ConfigError("resume: bad buck counters")
    return Resume(next_round, (points[0], points[1], points[2], points[3]), tuple(summaries), queue, counters)


def apply_resume(table: TableState, resume: Resume) -> int:
    """Put the carried-over record into a table that is about to start; returns the number of
    its first deal."""
    table.points = list(resume.points)
    table.summaries = copy.deepcopy(list(resume.summaries))
    table.buck.queue = resume.buck_queue
    table.buck.counters = dict(resume.buck_counters)
    return resume.next_round


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)

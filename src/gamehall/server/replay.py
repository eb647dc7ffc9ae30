"""Replays for the browser: a finished room rebuilt from its log, step by step, as a spectator
saw it.

The room log is the one record of a game (ARCHITECTURE.md, "store"): rebuilding a room from it
gives crash recovery, ``gamehall replay --events``, and this. For each log entry the room is
advanced exactly as :meth:`gamehall.hall.room.Room.replay` does, and the step keeps what a
*spectator* could know right after it: the events whose audience includes spectators and the
engine's ``view(None)``. No seat's hidden information (a hand, a rack, a submission, Jack's
identity) can leak through a replay, because a spectator's view is the only thing taken.

Only finished rooms are replayed; a running room's log would reveal the game as it is played.
"""

from __future__ import annotations

import collections
from collections.abc import Mapping

from gamehall.hall.clock import FakeClock
from gamehall.hall.outbox import Outbox
from gamehall.hall.room import Room
from gamehall.protocols.web.messages import event_json, to_json
from gamehall.rules._core import JSON, Event, GameType
from gamehall.store.base import LogEntry, RoomRecord
from gamehall.store.memory import MemoryStore

PUBLIC_META_KEYS = ("title", "operator")
CACHE_SIZE = 8
"""Finished rooms never change, so their replays are kept; a few cover a game night's links."""


class ReplayError(Exception):
    """The log could not be replayed (a game no longer hosted, or a log the engine refuses)."""


def build_replay(record: RoomRecord, game_type: GameType) -> dict[str, JSON]:
    """The replay of a finished room: its steps (step 0 is the table before the first entry)
    and its result.

    Raises:
        ReplayError: the room is not finished, or its log does not replay.
    """
    if not record.finished:
        raise ReplayError(f"room {record.room_id} is still running")
    clock = FakeClock()  # a replay writes nothing and delivers nothing: its outbox stays unflushed
    room = Room(
        room_id=record.room_id,
        game_type=game_type,
        config=record.config,
        seed=record.seed,
        meta=record.meta,
        outbox=Outbox(MemoryStore(), clock),
        clock=clock,
        wall_time=lambda: 0.0,
        on_closed=lambda room: None,
        created_seq=0,
    )
    steps: list[JSON] = [
        {
            "n": 0,
            "kind": "start",
            "seat": None,
            "at": record.created_at,
            "events": [],
            "names": _names(room),
            "view": to_json(room.state.view(None)),
        }
    ]

    def observe(entry: LogEntry, events: list[Event]) -> None:
        steps.append(
            {
                "n": entry.n,
                "kind": entry.kind,
                "seat": entry.seat,
                "at": entry.at,
                "events": [event_json(event) for event in events if event.visible_to(None)],
                "names": _names(room),
                "view": to_json(room.state.view(None)),
            }
        )

    try:
        room.replay(record.entries, observe=observe)
    except Exception as exc:  # a log our engine refuses is reported, never half-served
        raise ReplayError(f"room {record.room_id} does not replay: {exc}") from exc
    meta = {key: record.meta[key] for key in PUBLIC_META_KEYS if key in record.meta}
    return {
        "room_id": record.room_id,
        "game": record.game,
        "title": meta.get("title") or game_type.title,
        "game_title": game_type.title,
        "operator": meta.get("operator"),
        "created_at": record.created_at,
        "finished_at": record.finished_at,
        "result": record.result,
        "steps": steps,
    }


def _names(room: Room) -> dict[str, JSON]:
    return {str(seat): name for seat, name in sorted(room.state.seat_names().items())}


class ReplayCache:
    """The last few replays built (finished rooms do not change)."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._size = size
        self._items: collections.OrderedDict[str, dict[str, JSON]] = collections.OrderedDict()

    def get(self, record: RoomRecord, games: Mapping[str, GameType]) -> dict[str, JSON]:
        """The replay of ``record``, built once.

        Raises:
            ReplayError: see :func:`build_replay`; also a game this server does not host.
        """
        cached = self._items.get(record.room_id)
        if cached is not None:
            self._items.move_to_end(record.room_id)
            return cached
        game_type = games.get(record.game)
        if game_type is None:
            raise ReplayError(f"this server does not host {record.game}")
        replay = build_replay(record, game_type)
        self._items[record.room_id] = replay
        if len(self._items) > self._size:
            self._items.popitem(last=False)
        return replay

"""The store interface: rooms and their logs, kept so that nothing is lost.

Every room is written once when it is created (game, config, seed, meta) and then grows one
:class:`LogEntry` per accepted input: seats joining, leaving, going away and coming back,
the start, every action and every fired timer, and finally the close. Replaying those inputs
on a fresh engine built from the same config and seed reproduces the room exactly, which is
how the hall recovers after a crash (:meth:`Store.unfinished_rooms`), serves replays and
settles disputes (ARCHITECTURE.md, "store — nothing is lost").

Writes are batch-shaped: the hall collects every write of one loop turn (new rooms, log
entries, meta changes, finished rooms) and hands them to :meth:`Store.commit` as one
:data:`Batch`, committed in one transaction before anything those writes caused is delivered
(group commit; docs/architecture.md, "The turn of the loop"). ``commit`` may return an
awaitable, so that a networked store (PostgreSQL) commits without blocking the event loop; the
embedded implementations (SQLite, :mod:`gamehall.store.sqlite`, and the in-memory one for tests,
:mod:`gamehall.store.memory`) commit in place and behave identically. Reads stay synchronous:
they run at start-up (crash recovery) and for replays.

Both implementations share the checks in this module, so they accept and refuse exactly the
same inputs, and both pass every JSON value through the same encoder (orjson), so what comes
back out is what a database would give back (tuples become lists, for example).
"""

from __future__ import annotations

import abc
import math
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeAlias

import orjson

from gamehall.rules._core import JSON

LOG_KINDS: frozenset[str] = frozenset(
    {"join", "away", "back", "leave", "rename", "start", "act", "timeout", "close", "note"}
)
"""Every kind of input a room log records (the engine's membership calls, actions, timers),
and ``note``: a hall annotation that is no input of the game (a contest's soft-timeout strike
or refused move, :meth:`gamehall.hall.room.Room.note`); replays skip it."""

SEED_LIMIT = 2**64
"""Seeds are 64-bit unsigned integers: ``0 <= seed < SEED_LIMIT``."""


class StoreError(Exception):
    """The store refused a call or the database failed.

    Raised for a duplicate room id, an unknown room, an append to a finished room, an entry
    whose number is not the next one, a value that is not JSON, and any error of the
    underlying database (which is chained as ``__cause__``).
    """


class FencedError(StoreError):
    """A networked store refused a batch because a write's fencing number is lower than the
    room's stored one: another node has owned the room since (issue 13, one owner per room).

    The whole batch is rolled back; the hall treats it like any failed commit (it closes the
    room here, and the room's new owner goes on from the log).
    """


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One accepted input of a room, numbered 1, 2, 3 ... without gaps.

    ``data`` holds what the input needs to be replayed: ``{"name": "alice"}`` for join and
    rename, the action's JSON for act, ``{"key": k}`` for timeout. ``at`` is the wall-clock
    time (``time.time()``) at which the hall accepted the input; replay never depends on it.
    """

    n: int
    kind: str
    seat: int | None
    data: JSON
    at: float


@dataclass(frozen=True, slots=True)
class RoomRecord:
    """A room as stored. ``entries`` is empty in listings (:meth:`Store.recent_rooms`).

    ``meta`` (title, operator, password hash, ...) is opaque to the store. ``finished_at``
    and ``result`` are ``None`` while the room is still running.
    """

    room_id: str
    game: str
    config: dict[str, JSON]
    seed: int
    meta: dict[str, JSON]
    created_at: float
    finished_at: float | None
    result: JSON | None
    entries: tuple[LogEntry, ...]

    @property
    def finished(self) -> bool:
        """Whether :meth:`Store.finish` was called for this room."""
        return self.finished_at is not None


@dataclass(frozen=True, slots=True)
class NewRoom:
    """Write: record a new room with an empty log (see :meth:`Store.create_room`)."""

    room_id: str
    game: str
    config: Mapping[str, JSON]
    seed: int
    meta: Mapping[str, JSON]
    created_at: float

    fence: int | None = None
    """The writer's lease fencing number for this room (several nodes), or ``None`` (one
    node: never checked). See :class:`Write`."""


@dataclass(frozen=True, slots=True)
class Append:
    """Write: add ``entry`` to the room's log (see :meth:`Store.append`)."""

    room_id: str
    entry: LogEntry

    fence: int | None = None
    """The writer's lease fencing number for this room (several nodes), or ``None`` (one
    node: never checked). See :class:`Write`."""


@dataclass(frozen=True, slots=True)
class MetaUpdate:
    """Write: merge ``meta`` into the room's meta (see :meth:`Store.update_meta`)."""

    room_id: str
    meta: Mapping[str, JSON]

    fence: int | None = None
    """The writer's lease fencing number for this room (several nodes), or ``None`` (one
    node: never checked). See :class:`Write`."""


@dataclass(frozen=True, slots=True)
class Finish:
    """Write: mark the room finished (see :meth:`Store.finish`)."""

    room_id: str
    result: JSON
    finished_at: float

    fence: int | None = None
    """The writer's lease fencing number for this room (several nodes), or ``None`` (one
    node: never checked). See :class:`Write`."""


Write: TypeAlias = NewRoom | Append | MetaUpdate | Finish
"""One write of a batch.

Every write may carry ``fence``, the fencing number of the writer's lease on the room (issue
13: one owner per room across nodes; :mod:`gamehall.store.postgres`). A store that fences
keeps the highest number written per room and refuses, with :class:`FencedError` and for the
whole batch, a write whose number is lower, atomically with the write; an equal or higher one
is accepted and raises the stored number. So a node that lost its lease (paused, partitioned)
can never write over its successor, and a new owner claims a room with
``MetaUpdate(room_id, {}, fence=n)`` before it writes anything else. ``None`` is never checked.
The embedded stores (SQLite, memory) serve one node and ignore ``fence``."""

Batch: TypeAlias = Sequence[Write]
"""Writes committed together, in order, all or nothing (:meth:`Store.commit`)."""


class Store(Protocol):
    """Where rooms and their logs live. Every call is atomic; see each implementation for
    its durability guarantee.

    The hall writes only through :meth:`commit`. The one-write methods (``create_room``,
    ``append``, ``update_meta``, ``finish``) are each a batch of one, committed before they
    return, for tools and tests; a networked store may leave them out of its hot path.
    """

    def commit(self, batch: Batch) -> Awaitable[None] | None:
        """Write every item of ``batch`` in one transaction, in order: all or nothing.

        The contract has two shapes, and a caller must accept both:

        - an *embedded* store (SQLite, memory) commits before it returns and returns ``None``;
        - a *networked* store (PostgreSQL) returns an awaitable at once and commits in the
          background; the awaitable finishes when the transaction is committed, or raises
          :class:`StoreError` when it was rolled back. Its caller must not deliver anything
          the batch caused before the awaitable finished, must hand batches over one at a time
          (the next ``commit`` only after the previous awaitable finished, so logs stay in
          order), and must not mutate the batch's values meanwhile.

        Raises:
            StoreError: (embedded stores, or from the awaitable) any write is refused, for the
                reasons its one-write method gives; nothing of the batch is written then.
        """
        ...

    def create_room(
        self,
        room_id: str,
        game: str,
        config: Mapping[str, JSON],
        seed: int,
        meta: Mapping[str, JSON],
        created_at: float,
    ) -> None:
        """Record a new room with an empty log.

        Raises:
            StoreError: the room id is taken, the seed is not 64-bit unsigned, or a value is
                not JSON.
        """
        ...

    def append(self, room_id: str, entry: LogEntry) -> None:
        """Add ``entry`` to the room's log; it is durable (committed) when this returns
        (a batch of one; the hall batches its appends through :meth:`commit`).

        Raises:
            StoreError: unknown or finished room, ``entry.n`` is not the next number, unknown
                kind, or data that is not JSON.
        """
        ...

    def update_meta(self, room_id: str, meta: Mapping[str, JSON]) -> None:
        """Merge ``meta`` into the room's meta, key by key (like ``dict.update``).

        Raises:
            StoreError: unknown room, or a value that is not JSON.
        """
        ...

    def finish(self, room_id: str, result: JSON, finished_at: float) -> None:
        """Mark the room finished with its ``result``; its log takes no more entries.

        Raises:
            StoreError: unknown room, room already finished, or a result that is not JSON.
        """
        ...

    def load_room(self, room_id: str) -> RoomRecord | None:
        """The room with its whole log, or ``None`` if there is no such room."""
        ...

    def unfinished_rooms(self) -> list[RoomRecord]:
        """Every room not yet finished, with its log, oldest first (for crash recovery)."""
        ...

    def unfinished_room_ids(self) -> list[str]:
        """The ids of every room not yet finished, oldest first, and nothing else.

        The rooms of :meth:`unfinished_rooms` without reading a single log: a node's adoption
        scan (several nodes, :mod:`gamehall.cluster.adoption`) lists the running rooms every
        few seconds but rebuilds only the few whose owner is gone, so it must not pay for the
        logs of the hundreds another node is serving. It loads a room (:meth:`load_room`) only
        once it holds the room's lease.
        """
        ...

    def recent_rooms(self, limit: int = 50, game: str | None = None) -> list[RoomRecord]:
        """Up to ``limit`` rooms (of ``game`` if given), newest first, without their logs."""
        ...

    def close(self) -> None:
        """Release the store; later calls raise :class:`StoreError`. Closing twice is fine."""
        ...


# --------------------------------------------------------------------------------------------
# Checks and encoding shared by every implementation
# --------------------------------------------------------------------------------------------


def check_seed(seed: int) -> int:
    """Return ``seed`` if it is a 64-bit unsigned integer.

    Raises:
        StoreError: any other value.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise StoreError(f"seed must be an integer in [0, 2**64) (got {seed!r})")
    return seed


def check_time(value: float, what: str) -> float:
    """Return ``value`` as a float if it is a finite number (a wall-clock time).

    Raises:
        StoreError: not a finite number.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise StoreError(f"{what} must be a finite number (got {value!r})")
    return float(value)


def check_entry_shape(room_id: str, entry: LogEntry) -> None:
    """Refuse an entry that no room could take: bad number, kind, seat or time.

    Whether ``entry.n`` is the *next* number is for the store to check against the log.

    Raises:
        StoreError: the entry is malformed.
    """
    if isinstance(entry.n, bool) or not isinstance(entry.n, int) or entry.n < 1:
        raise StoreError(f"room {room_id}: entry number must be a positive integer (got {entry.n!r})")
    if entry.kind not in LOG_KINDS:
        raise StoreError(f"room {room_id}: unknown log entry kind {entry.kind!r}")
    if entry.seat is not None and (
        isinstance(entry.seat, bool) or not isinstance(entry.seat, int) or entry.seat < 0
    ):
        raise StoreError(f"room {room_id}: seat must be None or a non-negative integer (got {entry.seat!r})")
    check_time(entry.at, f"room {room_id}: entry time")


def not_next_error(room_id: str, given: int, last: int) -> StoreError:
    """The error for an entry whose number does not follow the log's last one."""
    return StoreError(f"room {room_id}: entry number {given} is not the next one (expected {last + 1})")


def encode_json(value: JSON, what: str) -> str:
    """``value`` as compact JSON text (orjson), for storage.

    Raises:
        StoreError: ``value`` is not JSON (non-str keys, unsupported types, huge ints).
    """
    try:
        return orjson.dumps(value).decode()
    except TypeError as exc:  # orjson.JSONEncodeError is a TypeError
        raise StoreError(f"{what} is not JSON: {exc}") from exc


def decode_json(text: str | bytes) -> JSON:
    """The value of JSON text written by :func:`encode_json`."""
    return orjson.loads(text)


def encode_mapping(value: Mapping[str, JSON], what: str) -> str:
    """A mapping with str keys as JSON object text.

    Raises:
        StoreError: not a mapping, or not JSON.
    """
    if not isinstance(value, Mapping):
        raise StoreError(f"{what} must be a mapping (got {type(value).__name__})")
    return encode_json(dict(value), what)


class OneWriteCalls(abc.ABC):
    """The :class:`Store` calls that write one thing, each a batch of one committed before it
    returns. Every store has one write path, its batch commit; these only name the common
    cases, so they are written once here. A store mixes this in and provides
    :meth:`commit_now` (an embedded store: its ``commit``; a networked one: the batch sent and
    waited for on the calling thread, which is why the server itself only uses ``commit``)."""

    @abc.abstractmethod
    def commit_now(self, batch: Batch) -> None:
        """Write ``batch`` (all or nothing) before returning."""

    def create_room(
        self,
        room_id: str,
        game: str,
        config: Mapping[str, JSON],
        seed: int,
        meta: Mapping[str, JSON],
        created_at: float,
    ) -> None:
        self.commit_now([NewRoom(room_id, game, config, seed, meta, created_at)])

    def append(self, room_id: str, entry: LogEntry) -> None:
        self.commit_now([Append(room_id, entry)])

    def update_meta(self, room_id: str, meta: Mapping[str, JSON]) -> None:
        self.commit_now([MetaUpdate(room_id, meta)])

    def finish(self, room_id: str, result: JSON, finished_at: float) -> None:
        self.commit_now([Finish(room_id, result, finished_at)])

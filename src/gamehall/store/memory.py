"""An in-memory :class:`~gamehall.store.base.Store`, for unit tests of the hall.

It behaves exactly like :class:`~gamehall.store.sqlite.SqliteStore` (the same tests run
against both): the same checks, the same errors, and every JSON value goes through the same
encoder, so callers get back fresh copies shaped as a database would return them and can never
alter the stored room through a reference they kept. Nothing survives the process.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from gamehall.rules._core import JSON
from gamehall.store.base import (
    Append,
    Batch,
    LogEntry,
    MetaUpdate,
    NewRoom,
    OneWriteCalls,
    RoomRecord,
    StoreError,
    Write,
    check_entry_shape,
    check_seed,
    check_time,
    decode_json,
    encode_json,
    encode_mapping,
    not_next_error,
)


@dataclass(slots=True)
class _StoredEntry:
    """A log entry with its data kept as JSON text."""

    n: int
    kind: str
    seat: int | None
    data: str
    at: float

    def to_entry(self) -> LogEntry:
        return LogEntry(n=self.n, kind=self.kind, seat=self.seat, data=decode_json(self.data), at=self.at)


@dataclass(slots=True)
class _StoredRoom:
    """A room with its JSON values kept as text, the way a database row keeps them."""

    room_id: str
    game: str
    config: str
    seed: int
    meta: str
    created_at: float
    finished_at: float | None = None
    result: str | None = None
    entries: list[_StoredEntry] = field(default_factory=list)

    def to_record(self, *, with_entries: bool) -> RoomRecord:
        return RoomRecord(
            room_id=self.room_id,
            game=self.game,
            config=decode_json(self.config),
            seed=self.seed,
            meta=decode_json(self.meta),
            created_at=self.created_at,
            finished_at=self.finished_at,
            result=None if self.result is None else decode_json(self.result),
            entries=tuple(e.to_entry() for e in self.entries) if with_entries else (),
        )


@dataclass(frozen=True, slots=True)
class _Undo:
    """What a batch may change in a stored room, to put it back (entries are only appended)."""

    entries: int
    meta: str
    finished_at: float | None
    result: str | None

    @staticmethod
    def of(room: _StoredRoom) -> _Undo:
        return _Undo(len(room.entries), room.meta, room.finished_at, room.result)

    def restore(self, room: _StoredRoom) -> None:
        del room.entries[self.entries :]
        room.meta, room.finished_at, room.result = self.meta, self.finished_at, self.result


class MemoryStore(OneWriteCalls):
    """Rooms in a dict, in creation order. Not thread-safe; the hall is single-threaded."""

    def __init__(self) -> None:
        self._rooms: dict[str, _StoredRoom] | None = {}

    def _all(self) -> dict[str, _StoredRoom]:
        if self._rooms is None:
            raise StoreError("the store is closed")
        return self._rooms

    def _room(self, room_id: str) -> _StoredRoom:
        room = self._all().get(room_id)
        if room is None:
            raise StoreError(f"no room {room_id!r}")
        return room

    def commit(self, batch: Batch) -> None:
        """Apply every write of ``batch`` in order; if one is refused, the rooms it touched
        are put back as they were before the batch (all or nothing, like a transaction)."""
        rooms = self._all()
        before: dict[str, _Undo | None] = {}
        try:
            for write in batch:
                if write.room_id not in before:
                    room = rooms.get(write.room_id)
                    before[write.room_id] = None if room is None else _Undo.of(room)
                self._apply(rooms, write)
        except BaseException:
            for room_id, undo in before.items():
                if undo is None:
                    rooms.pop(room_id, None)
                else:
                    undo.restore(rooms[room_id])
            raise

    commit_now = commit  # the one-write calls (OneWriteCalls): applied on return

    def _apply(self, rooms: dict[str, _StoredRoom], write: Write) -> None:
        if isinstance(write, NewRoom):
            self._create(rooms, write)
        elif isinstance(write, Append):
            self._append(write.room_id, write.entry)
        elif isinstance(write, MetaUpdate):
            self._update_meta(write.room_id, write.meta)
        else:
            self._finish(write.room_id, write.result, write.finished_at)

    @staticmethod
    def _create(rooms: dict[str, _StoredRoom], write: NewRoom) -> None:
        room_id, config, meta = write.room_id, write.config, write.meta
        seed, created_at, game = write.seed, write.created_at, write.game
        stored = _StoredRoom(
            room_id=room_id,
            game=game,
            config=encode_mapping(config, f"room {room_id}: config"),
            seed=check_seed(seed),
            meta=encode_mapping(meta, f"room {room_id}: meta"),
            created_at=check_time(created_at, f"room {room_id}: created_at"),
        )
        if room_id in rooms:
            raise StoreError(f"room {room_id!r} already exists")
        rooms[room_id] = stored

    def _append(self, room_id: str, entry: LogEntry) -> None:
        check_entry_shape(room_id, entry)
        room = self._room(room_id)
        if room.finished_at is not None:
            raise StoreError(f"room {room_id} is finished; its log takes no more entries")
        last = len(room.entries)
        if entry.n != last + 1:
            raise not_next_error(room_id, entry.n, last)
        data = encode_json(entry.data, f"room {room_id}: entry {entry.n} data")
        room.entries.append(_StoredEntry(entry.n, entry.kind, entry.seat, data, float(entry.at)))

    def _update_meta(self, room_id: str, meta: Mapping[str, JSON]) -> None:
        room = self._room(room_id)
        encode_mapping(meta, f"room {room_id}: meta")  # refuse non-JSON before changing anything
        merged = decode_json(room.meta)
        merged.update(meta)
        room.meta = encode_mapping(merged, f"room {room_id}: meta")

    def _finish(self, room_id: str, result: JSON, finished_at: float) -> None:
        room = self._room(room_id)
        if room.finished_at is not None:
            raise StoreError(f"room {room_id} is already finished")
        encoded = encode_json(result, f"room {room_id}: result")
        room.finished_at = check_time(finished_at, f"room {room_id}: finished_at")
        room.result = encoded

    def load_room(self, room_id: str) -> RoomRecord | None:
        room = self._all().get(room_id)
        return None if room is None else room.to_record(with_entries=True)

    def unfinished_rooms(self) -> list[RoomRecord]:
        running = [r for r in self._all().values() if r.finished_at is None]
        return [r.to_record(with_entries=True) for r in _oldest_first(running)]

    def unfinished_room_ids(self) -> list[str]:
        return [r.room_id for r in _oldest_first([r for r in self._all().values() if r.finished_at is None])]

    def recent_rooms(self, limit: int = 50, game: str | None = None) -> list[RoomRecord]:
        chosen = [r for r in self._all().values() if game is None or r.game == game]
        newest_first = list(reversed(_oldest_first(chosen)))
        return [r.to_record(with_entries=False) for r in newest_first[: max(limit, 0)]]

    def close(self) -> None:
        self._rooms = None


def _oldest_first(rooms: list[_StoredRoom]) -> list[_StoredRoom]:
    """Rooms by creation time, ties in the order they were created (the list order)."""
    return sorted(rooms, key=lambda r: r.created_at)  # sorted() is stable

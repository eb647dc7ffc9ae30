"""Group commit: ``Store.commit`` writes a batch of writes of many rooms in one transaction,
in order, all or nothing, on every store alike (the hall's outbox commits one per loop turn)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from postgres_support import CommittingPostgresStore, postgres_schema

from gamehall.store.base import Append, Finish, LogEntry, MetaUpdate, NewRoom, Store, StoreError
from gamehall.store.memory import MemoryStore
from gamehall.store.sqlite import SqliteStore


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "postgres":
        with postgres_schema() as url:
            opened: Store = CommittingPostgresStore(url)
            yield opened
            opened.close()
        return
    opened = MemoryStore() if request.param == "memory" else SqliteStore(tmp_path / "hall.db")
    yield opened
    opened.close()


def new_room(room_id: str) -> NewRoom:
    return NewRoom(room_id, "aah", {"aplimit": 7}, 99, {"title": room_id}, 1000.0)


def act(room_id: str, n: int) -> Append:
    return Append(room_id, LogEntry(n, "act", 0, {"n": n}, 2000.0 + n))


def numbers(store: Store, room_id: str) -> list[int]:
    record = store.load_room(room_id)
    assert record is not None
    return [e.n for e in record.entries]


def test_one_batch_creates_rooms_appends_to_several_updates_and_finishes_in_order(store: Store) -> None:
    assert (
        store.commit(
            [
                new_room("a"),
                new_room("b"),
                act("a", 1),
                act("b", 1),
                act("a", 2),
                MetaUpdate("b", {"operator": "bob"}),
                Finish("a", {"winner": 0}, 3000.0),
            ]
        )
        is None  # an embedded store has committed when commit returns
    )
    assert numbers(store, "a") == [1, 2] and numbers(store, "b") == [1]
    a, b = store.load_room("a"), store.load_room("b")
    assert a is not None and a.finished and a.result == {"winner": 0}
    assert b is not None and b.meta == {"title": "b", "operator": "bob"} and not b.finished


def test_a_refused_write_leaves_nothing_of_its_batch(store: Store) -> None:
    store.commit([new_room("a"), act("a", 1)])
    batch = [
        act("a", 2),
        MetaUpdate("a", {"operator": "x"}),
        new_room("c"),
        Finish("a", None, 3000.0),
        act("a", 3),  # refused: the room was finished by this very batch
    ]
    with pytest.raises(StoreError, match="finished"):
        store.commit(batch)
    assert numbers(store, "a") == [1]
    record = store.load_room("a")
    assert record is not None and not record.finished and "operator" not in record.meta
    assert store.load_room("c") is None
    store.commit([act("a", 2)])  # the log goes on where the last committed batch left it
    assert numbers(store, "a") == [1, 2]


def test_an_empty_batch_is_fine(store: Store) -> None:
    store.commit([])
    assert store.recent_rooms() == []

"""What only the PostgreSQL store does, against the real PostgreSQL (a fresh schema per test):
background commits, versioned migrations (also two nodes migrating at once), fencing, and the
cg accounts and saved games beside the rooms. The contract every store keeps is tested over all
three stores in ``test_store.py`` and ``test_store_batches.py``.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from postgres_support import postgres_schema

from gamehall.store import is_postgres, open_store
from gamehall.store.base import Append, FencedError, Finish, LogEntry, MetaUpdate, NewRoom, StoreError
from gamehall.store.postgres import MIGRATIONS, PostgresStore, redact
from gamehall.store.postgres_accounts import open_accounts


@pytest.fixture
def url() -> Iterator[str]:
    with postgres_schema() as schema_url:
        yield schema_url


@pytest.fixture
def store(url: str) -> Iterator[PostgresStore]:
    opened = PostgresStore(url)
    yield opened
    opened.close()


def new_room(room_id: str, fence: int | None = None) -> NewRoom:
    return NewRoom(room_id, "aah", {"aplimit": 7}, 99, {"title": room_id}, 1000.0, fence=fence)


def act(room_id: str, n: int, fence: int | None = None) -> Append:
    return Append(room_id, LogEntry(n, "act", 0, {"n": n}, 2000.0 + n), fence=fence)


def numbers(store: PostgresStore, room_id: str) -> list[int]:
    record = store.load_room(room_id)
    assert record is not None
    return [e.n for e in record.entries]


def versions(url: str) -> list[int]:
    with psycopg.connect(url) as conn:
        return [row[0] for row in conn.execute("SELECT version FROM schema_version ORDER BY version")]


# --------------------------------------------------------------------------------------------
# Background commits
# --------------------------------------------------------------------------------------------


async def test_commit_returns_an_awaitable_and_the_batch_is_committed_when_it_finishes(
    store: PostgresStore,
) -> None:
    pending = store.commit([new_room("a"), act("a", 1), act("a", 2)])
    assert pending is not None
    await pending
    assert numbers(store, "a") == [1, 2]
    assert store.commit([]) is None


async def test_a_refused_write_in_the_background_leaves_nothing_of_its_batch(store: PostgresStore) -> None:
    await store.commit([new_room("a"), act("a", 1)])
    with pytest.raises(StoreError, match="not the next one"):
        await store.commit([new_room("b"), MetaUpdate("a", {"x": 1}), act("a", 2), act("a", 4)])
    assert store.load_room("b") is None
    record = store.load_room("a")
    assert record is not None and "x" not in record.meta and numbers(store, "a") == [1]
    await store.commit([act("a", 2)])  # the connection is usable again after a rollback
    assert numbers(store, "a") == [1, 2]


async def test_a_turns_run_of_appends_is_written_in_one_call_and_checked_like_one_by_one(
    store: PostgresStore,
) -> None:
    """Consecutive appends go to the database as one set-based call; every way one of them
    can be refused still refuses the whole batch with the message of that write."""
    await store.commit([new_room("a", fence=2), new_room("b"), new_room("done")])
    await store.commit([Finish("done", None, 5.0)])
    await store.commit([act("a", 1, fence=2), act("b", 1), act("a", 2, fence=2), act("b", 2)])
    assert numbers(store, "a") == [1, 2] and numbers(store, "b") == [1, 2]
    refused = {
        "not the next one \\(expected 4\\)": [act("a", 3), act("b", 3), act("a", 5)],
        "entry number 4 is not the next one \\(expected 3\\)": [act("a", 4), act("a", 3)],  # order
        "no room 'ghost'": [act("a", 3), act("ghost", 1)],
        "done is finished": [act("b", 3), act("done", 1)],
        "fencing number 1 is below": [act("a", 3, fence=2), act("a", 4, fence=1)],
    }
    for message, batch in refused.items():
        with pytest.raises(StoreError, match=message):
            await store.commit(batch)
        assert numbers(store, "a") == [1, 2] and numbers(store, "b") == [1, 2]
    await store.commit([act("a", 3, fence=2), act("a", 4, fence=3), act("a", 5)])  # raised in order
    assert store.room_fence("a") == 3 and numbers(store, "a") == [1, 2, 3, 4, 5]


def test_a_bad_value_is_refused_before_anything_is_sent(store: PostgresStore) -> None:
    with pytest.raises(StoreError, match="not JSON"):
        store.commit([new_room("a"), Append("a", LogEntry(1, "act", 0, {"x": object()}, 1.0))])
    assert store.load_room("a") is None


async def test_meta_keeps_strings_that_jsonb_would_refuse(store: PostgresStore) -> None:
    await store.commit([new_room("a"), MetaUpdate("a", {"title": "nul \u0000 inside", "n": 2**60})])
    record = store.load_room("a")
    assert record is not None and record.meta == {"title": "nul \u0000 inside", "n": 2**60}


async def test_the_store_closes_its_commit_connection_on_its_loop(store: PostgresStore) -> None:
    await store.commit([new_room("a")])
    await store.aclose()
    with pytest.raises(StoreError, match="closed"):
        store.commit([act("a", 1)])


async def test_connections_cut_by_the_database_are_replaced(store: PostgresStore, url: str) -> None:
    """A restarted or failed-over database cuts every connection: a read repeats itself on a
    new one; the commit under way fails (the hall closes its rooms) and the next one reconnects."""
    await store.commit([new_room("a"), act("a", 1)])
    assert store.load_room("a") is not None
    pids = [store._conn.info.backend_pid, store._writer.info.backend_pid]  # type: ignore[union-attr]
    with psycopg.connect(url, autocommit=True) as admin:  # only this store's two connections
        admin.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::integer[]) AS pid", (pids,))
    record = store.load_room("a")
    assert record is not None and numbers(store, "a") == [1]
    with pytest.raises(StoreError, match="database error"):
        await store.commit([act("a", 2)])
    await store.commit([act("a", 2)])
    assert numbers(store, "a") == [1, 2]


# --------------------------------------------------------------------------------------------
# Migrations
# --------------------------------------------------------------------------------------------


def test_an_empty_database_is_migrated_to_the_latest_version_once(url: str) -> None:
    PostgresStore(url).close()
    assert versions(url) == list(range(1, len(MIGRATIONS) + 1))
    again = PostgresStore(url)  # a restart finds everything applied and changes nothing
    assert again.schema_version() == len(MIGRATIONS)
    again.close()
    assert versions(url) == list(range(1, len(MIGRATIONS) + 1))


def test_a_database_migrated_part_way_gets_only_the_missing_migrations(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE schema_version (version integer PRIMARY KEY, applied_at timestamptz)")
        for statement in MIGRATIONS[0]:
            conn.execute(statement)
        conn.execute("INSERT INTO schema_version VALUES (1, now())")
    store = PostgresStore(url)
    store.commit_now([new_room("a")])  # version 1's tables were kept
    store.close()
    assert versions(url) == list(range(1, len(MIGRATIONS) + 1))
    open_accounts(url).close()  # version 2's tables exist


def test_two_nodes_starting_at_once_migrate_once(url: str) -> None:
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def start_node() -> None:
        barrier.wait()
        try:
            PostgresStore(url).close()
        except BaseException as exc:  # collected: the test thread asserts
            errors.append(exc)

    threads = [threading.Thread(target=start_node) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    assert versions(url) == list(range(1, len(MIGRATIONS) + 1))


def test_a_database_from_a_newer_gamehall_is_refused(url: str) -> None:
    PostgresStore(url).close()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (len(MIGRATIONS) + 1,))
    with pytest.raises(StoreError, match="newer than this gamehall"):
        PostgresStore(url)


def test_an_unreachable_database_is_a_store_error_without_the_password() -> None:
    with pytest.raises(StoreError, match="cannot connect") as caught:
        PostgresStore("postgresql://gh:secret@127.0.0.1:1/none?connect_timeout=2")
    assert "secret" not in str(caught.value)
    assert redact("postgresql://gh:secret@db/hall") == "postgresql://gh:***@db/hall"


def test_db_urls_select_postgresql_and_anything_else_sqlite(url: str) -> None:
    assert is_postgres("postgresql://db/hall") and is_postgres("postgres://db/hall")
    assert not is_postgres("./gamehall.db") and not is_postgres("/var/lib/postgresql/hall.db")
    store = open_store(url)
    assert isinstance(store, PostgresStore)
    store.close()


# --------------------------------------------------------------------------------------------
# Fencing: a node that lost a room's lease can never write over its successor
# --------------------------------------------------------------------------------------------


async def test_a_lower_fencing_number_is_refused_and_leaves_the_room_unchanged(store: PostgresStore) -> None:
    await store.commit([new_room("a", fence=3), act("a", 1, fence=3)])
    await store.commit([MetaUpdate("a", {}, fence=4)])  # the new owner claims the room
    assert store.room_fence("a") == 4
    before = store.load_room("a")
    for stale in (
        act("a", 2, fence=3),
        MetaUpdate("a", {"title": "x"}, fence=3),
        Finish("a", None, 9.0, fence=1),
    ):
        with pytest.raises(FencedError, match=r"fencing number [13] is below"):
            await store.commit([stale])
    assert store.load_room("a") == before and store.room_fence("a") == 4


async def test_a_fenced_write_refuses_its_whole_batch(store: PostgresStore) -> None:
    await store.commit([new_room("a", fence=5), new_room("b", fence=1)])
    with pytest.raises(FencedError):
        await store.commit([act("b", 1, fence=1), new_room("c"), act("a", 1, fence=2)])
    assert numbers(store, "b") == [] and store.load_room("c") is None


async def test_an_equal_or_higher_number_is_accepted_and_raises_the_rooms(store: PostgresStore) -> None:
    await store.commit([new_room("a", fence=2), act("a", 1, fence=2), act("a", 2, fence=7)])
    assert store.room_fence("a") == 7
    await store.commit([act("a", 3)])  # no fencing number: one node, never checked
    with pytest.raises(FencedError):
        await store.commit([act("a", 4, fence=6)])
    assert numbers(store, "a") == [1, 2, 3]


async def test_an_old_owner_racing_the_new_one_loses_whichever_commits_first(url: str) -> None:
    """Two nodes, two connections: the old owner's transaction waits on the room's row lock
    held by the new owner's claim, then sees the new number and is refused."""
    old, new = PostgresStore(url), PostgresStore(url)
    try:
        await old.commit([new_room("a", fence=1), act("a", 1, fence=1)])
        async with await psycopg.AsyncConnection.connect(url) as claim:  # new owner, still open
            await claim.execute("SELECT gamehall_update_meta('a', '{}', '{}', 2)")
            stale: Any = asyncio.ensure_future(old.commit([act("a", 2, fence=1)]))
            await asyncio.sleep(0.3)
            assert not stale.done()  # blocked on the row lock
            await claim.commit()
        with pytest.raises(FencedError):
            await stale
        await new.commit([act("a", 2, fence=2)])
        assert numbers(new, "a") == [1, 2]
    finally:
        old.close()
        new.close()


def test_a_fencing_number_must_be_a_non_negative_bigint(store: PostgresStore) -> None:
    for bad in (-1, 2**63, True, "3"):
        with pytest.raises(StoreError, match="fencing number"):
            store.commit([new_room("a", fence=bad)])  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# cg accounts and saved games
# --------------------------------------------------------------------------------------------


def test_cg_accounts_live_beside_the_rooms_with_names_unique_hall_wide(url: str) -> None:
    first, second = open_accounts(url), open_accounts(url)  # two nodes on one database
    try:
        assert first.server_id() == second.server_id()
        alice = first.create("Alice", "pw1")
        assert alice is not None and second.create("ALICE", "other") is None
        assert second.verify("alice", "pw1") == alice and second.verify("alice", "nope") is None
        bob = second.create("bob", "pw2")
        assert bob is not None
        assert not first.rename(bob.uuid, "alice") and first.rename(bob.uuid, "Bobby")
        assert second.find("bobby") is not None and second.get(bob.uuid) is not None
        assert first.change_password(alice.uuid, "pw1", "pw3") and second.verify("Alice", "pw3") == alice
        first.set_profile_img(alice.uuid, "cat")
        found = second.get(alice.uuid)
        assert found is not None and found.profile_img == "cat"
        saved_here, saved_there = first.saved_games(), second.saved_games()
        assert saved_here.secret() == saved_there.secret() and len(saved_here.secret()) == 32
        saved_here.put("g1", {"hands": [[1, 2]], "turn": 0}, 5.0)
        saved_here.put("g1", {"hands": [[2]], "turn": 1}, 6.0)
        assert saved_there.get("g1") == {"hands": [[2]], "turn": 1} and saved_there.get("nope") is None
    finally:
        first.close()
        second.close()


# --------------------------------------------------------------------------------------------
# The test support itself: a missing service fails the run in CI
# --------------------------------------------------------------------------------------------


def test_without_postgresql_tests_skip_but_fail_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    import postgres_support

    monkeypatch.setattr(postgres_support, "SERVER_URL", "postgresql://127.0.0.1:1/none?connect_timeout=2")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception):
        postgres_support.require_postgres()
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="not reachable"):
        postgres_support.require_postgres()

"""``--db postgresql://...``: the server, ``gamehall replay`` and the browser replays on the real
PostgreSQL (a fresh schema per test). A game is played by hall bots into the PostgreSQL store,
then read back by the command line and over HTTP; and a server whose commits go through its
loop in the background (``LoopClock.wait_for``) plays a game with bots, stops, and a second
start rebuilds nothing that was finished and everything that was not; cg accounts live there too.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator

import aiohttp
import pytest
from postgres_support import CommittingPostgresStore, postgres_schema

from gamehall.bots.hall_bots import add_bots
from gamehall.cli import main
from gamehall.config import ServerConfig
from gamehall.hall import FakeClock, Hall
from gamehall.rules.aah import GAME_TYPE as AAH
from gamehall.server.app import running_server
from gamehall.store.postgres import PostgresStore
from gamehall.store.postgres_accounts import PostgresAccounts, open_accounts

FAST = {"aplimit": 2, "round_gap": 0.1, "autostart_delay": 1}


@pytest.fixture
def url() -> Iterator[str]:
    with postgres_schema() as schema_url:
        yield schema_url


def play_with_bots(url: str) -> str:
    """Three hall bots play AAH to 2 points on a fake clock, into PostgreSQL; the room id."""
    store = CommittingPostgresStore(url)
    try:
        clock = FakeClock()
        hall = Hall(games={"aah": AAH}, store=store, clock=clock)
        eve = hall.login("eve", _Quiet(), protocol="test")
        room_id = eve.create_room("aah", FAST, title="Replay me").room_id
        add_bots(hall, room_id, 3, "random")
        for _ in range(2000):
            if hall.directory.get(room_id) is None:
                break
            clock.advance(1.0)
        record = store.load_room(room_id)
        assert record is not None and record.finished, "the bots did not finish the game"
        return room_id
    finally:
        store.close()


class _Quiet:
    """A connection that hears everything and says nothing."""

    def deliver(self, room_id: str, delivery: object) -> None: ...
    def hall_event(self, event: object) -> None: ...
    def ended(self, room_id: str, reason: object, text: str) -> None: ...
    def disconnect(self, reason: object, text: str) -> None: ...


def test_gamehall_replay_reads_a_room_from_postgresql(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    room_id = play_with_bots(url)
    assert main(["replay", room_id, "--db", url, "--events"]) == 0
    out = capsys.readouterr().out
    assert f"room {room_id}  game aah  finished" in out and "GameWon" in out
    assert main(["replay", "nope", "--db", url]) == 1
    assert main(["replay", "nope", "--db", "postgresql://127.0.0.1:1/none?connect_timeout=2"]) == 2


async def test_the_browser_replay_is_served_from_postgresql(url: str) -> None:
    room_id = await asyncio.to_thread(play_with_bots, url)
    config = dataclasses.replace(ServerConfig(), db=url)
    async with running_server(config, listen={"web": 0}) as server, aiohttp.ClientSession() as http:
        base = f"http://127.0.0.1:{server.ports['web']}"
        async with http.get(f"{base}/api/rooms/{room_id}/replay") as response:
            assert response.status == 200
            replay = await response.json()
        async with http.get(f"{base}/api/rooms?finished=1") as response:
            listed = await response.json()
    assert len(replay["steps"]) > 10 and replay["result"]["termination"] == "normal"
    assert room_id in str(listed)


async def test_a_server_on_postgresql_commits_in_the_background_and_restores_what_runs(url: str) -> None:
    config = dataclasses.replace(ServerConfig(), db=url)
    async with running_server(config, listen={"web": 0}) as server:
        hall = server.hall
        session = hall.login("eve", _Quiet(), protocol="test")
        finished_id = session.create_room("aah", FAST).room_id
        add_bots(hall, finished_id, 3, "random")
        running_id = session.create_room("aah", {**FAST, "aplimit": 50}).room_id
        add_bots(hall, running_id, 3, "random")
        hall.flush()
        for _ in range(600):  # bots play on the real loop; every batch is an awaited commit
            if hall.directory.get(finished_id) is None:
                break
            await asyncio.sleep(0.1)
        assert hall.directory.get(finished_id) is None, "the bots did not finish on the real loop"
        assert hall.outbox.batches > 0  # committed through the awaitable and the loop's waiter
    store = PostgresStore(url)
    try:
        done, running = store.load_room(finished_id), store.load_room(running_id)
        assert done is not None and done.finished and done.result is not None
        assert running is not None and not running.finished and len(running.entries) > 3
    finally:
        store.close()
    async with running_server(config, listen={"web": 0}) as again:  # a restart rebuilds it
        assert again.hall.room(running_id) is not None
        assert again.hall.directory.get(finished_id) is None


async def test_a_server_on_postgresql_keeps_cg_accounts_there(url: str) -> None:
    config = dataclasses.replace(ServerConfig(), db=url)
    async with running_server(config, listen={"cg": 0}) as server:
        accounts = server._accounts_for_protocols()  # what the cg listener was lent
        assert isinstance(accounts, PostgresAccounts)
        assert accounts.create("Alice", "secret") is not None
    elsewhere = open_accounts(url)  # another node, or the next start
    try:
        assert elsewhere.verify("alice", "secret") is not None
    finally:
        elsewhere.close()

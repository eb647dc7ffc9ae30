"""Replays and the host console over real HTTP (docs/web-protocol.md, section 15).

A whole AAH game is played by three hall bots on a fake clock while "eve" watches; the finished
room then serves its replay. The replay must be exactly what eve saw, step after step: the same
events, and only a spectator's view (no hand ever appears). The host console answers 401 until
the operator token is given, then lists rooms with their players' protocols, sends notices,
removes users and closes rooms for good.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import aiohttp
import pytest

from gamehall.bots.hall_bots import add_bots
from gamehall.config import ServerConfig
from gamehall.hall import FakeClock, Hall
from gamehall.hall.operator import CLOSED_BY_HOST
from gamehall.protocols._core import CloseReason, Delivery
from gamehall.protocols.web.messages import event_json
from gamehall.rules._core import Event
from gamehall.rules.aah import GAME_TYPE as AAH
from gamehall.server.app import running_server
from gamehall.server.replay import build_replay
from gamehall.store.memory import MemoryStore

TOKEN = "correct horse battery staple"


class Watcher:
    """A spectator's connection: keeps every event it is shown."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def deliver(self, room_id: str, delivery: Delivery) -> None:
        self.events.append(delivery.event)

    def hall_event(self, event: Event) -> None:
        return None

    def ended(self, room_id: str, reason: CloseReason, text: str) -> None:
        return None

    def disconnect(self, reason: CloseReason, text: str) -> None:
        return None


def play_a_whole_game(store: MemoryStore) -> tuple[str, Watcher]:
    """Three hall bots play AAH to 2 points while eve watches; returns the room id."""
    clock = FakeClock()
    hall = Hall(games={"aah": AAH}, store=store, clock=clock)
    eve_watcher = Watcher()
    eve = hall.login("eve", eve_watcher, protocol="test")
    settings = {"aplimit": 2, "round_gap": 0.1, "autostart_delay": 1}
    room_id = eve.create_room("aah", settings, title="Replay me").room_id
    eve.spectate(room_id)
    add_bots(hall, room_id, 3, "random")
    for _ in range(2000):
        if hall.directory.get(room_id) is None:
            break
        clock.advance(1.0)
    record = store.load_room(room_id)
    assert record is not None and record.finished, "the bots did not finish the game"
    return room_id, eve_watcher


@pytest.fixture(scope="module")
def finished() -> tuple[MemoryStore, str, Watcher]:
    store = MemoryStore()
    room_id, watcher = play_a_whole_game(store)
    return store, room_id, watcher


def test_a_replay_shows_step_by_step_exactly_what_a_spectator_saw(
    finished: tuple[MemoryStore, str, Watcher],
) -> None:
    store, room_id, watcher = finished
    record = store.load_room(room_id)
    assert record is not None
    replay = build_replay(record, AAH)
    steps = replay["steps"]
    assert isinstance(steps, list) and len(steps) == len(record.entries) + 1
    shown = [event for step in steps for event in step["events"]]  # type: ignore[index]
    seen = [
        event_json(e) for e in watcher.events if type(e).__name__ not in ("SpectatorsChanged", "RoomClosed")
    ]
    assert shown == seen
    assert all(step["view"]["hand"] == [] for step in steps)  # type: ignore[index]
    assert replay["result"] == record.result
    assert {step["kind"] for step in steps} >= {"join", "act"}  # type: ignore[index]


def local_config(**changes: Any) -> ServerConfig:
    return dataclasses.replace(ServerConfig(bind="127.0.0.1", db=":memory:"), **changes)


async def test_recent_games_log_and_replay_agree_and_running_rooms_are_not_replayed(
    finished: tuple[MemoryStore, str, Watcher],
) -> None:
    store, room_id, _ = finished
    async with running_server(local_config(), listen={"web": 0}, store=store) as srv:
        base = f"http://127.0.0.1:{srv.ports['web']}"
        live = srv.hall.create_room("aah", {}, operator="ann").room_id
        async with aiohttp.ClientSession() as http:
            recent = await (await http.get(f"{base}/api/rooms?finished=1")).json()
            [entry] = [r for r in recent if r["id"] == room_id]
            assert entry["title"] == "Replay me" and entry["termination"] == "normal"
            assert live not in {r["id"] for r in recent}
            log = await (await http.get(f"{base}/api/rooms/{room_id}/log")).json()
            replay = await (await http.get(f"{base}/api/rooms/{room_id}/replay")).json()
            assert log["result"] == replay["result"]
            assert entry["winners"] == log["result"]["winners"] and entry["scores"] == log["result"]["scores"]
            assert len(replay["steps"]) == len(log["entries"]) + 1
            about = await (await http.get(f"{base}/api/rooms/{room_id}")).json()
            assert about["live"] is False and about["finished"]["id"] == room_id
            about_live = await (await http.get(f"{base}/api/rooms/{live}")).json()
            assert about_live["live"] is True and about_live["room"]["id"] == live
            running = await http.get(f"{base}/api/rooms/{live}/replay")
            assert running.status == 409
            assert (await http.get(f"{base}/api/rooms/nope-1/replay")).status == 404
            for page in (f"/replay/{room_id}", f"/room/{live}", "/host"):
                response = await http.get(base + page)
                assert response.status == 200 and "text/html" in response.headers["Content-Type"]


async def test_the_host_console_needs_the_operator_token() -> None:
    async with running_server(local_config(), listen={"web": 0}, store=MemoryStore()) as srv:
        base = f"http://127.0.0.1:{srv.ports['web']}"
        async with aiohttp.ClientSession() as http:
            response = await http.get(f"{base}/api/host/rooms", headers={"Authorization": f"Bearer {TOKEN}"})
            assert response.status == 401  # no token configured: the console is off
            assert "operator-token" in (await response.json())["reason"]
    async with running_server(
        local_config(operator_token=TOKEN), listen={"web": 0}, store=MemoryStore()
    ) as srv:
        base = f"http://127.0.0.1:{srv.ports['web']}"
        async with aiohttp.ClientSession() as http:
            for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}):
                for method, path in (("GET", "/api/host/rooms"), ("POST", "/api/host/notice")):
                    response = await http.request(
                        method, f"{base}{path}", headers=headers, json={"text": "x"}
                    )
                    assert response.status == 401, (headers, path)
                    assert response.headers["WWW-Authenticate"].startswith("Bearer")


async def test_the_host_sees_rooms_and_players_speaks_to_all_removes_a_user_and_closes_a_room() -> None:
    store = MemoryStore()
    async with running_server(local_config(operator_token=TOKEN), listen={"web": 0}, store=store) as srv:
        base = f"http://127.0.0.1:{srv.ports['web']}"
        auth = {"Authorization": f"Bearer {TOKEN}"}
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(f"{base}/ws")
            await ws.send_json({"t": "hello", "v": 2, "name": "ann", "id": 1})
            assert (await ws.receive_json())["t"] == "welcome"
            await ws.send_json({"t": "create", "game": "aah", "title": "Host test", "id": 2})
            room_id = await _joined_room(ws)

            rooms = (await (await http.get(f"{base}/api/host/rooms", headers=auth)).json())["rooms"]
            [room] = [r for r in rooms if r["id"] == room_id]
            assert room["title"] == "Host test" and room["status"] == "waiting"
            assert room["seats"] == [
                {"seat": 0, "name": "ann", "protocol": "web", "away": False, "bot": False}
            ]

            response = await http.post(f"{base}/api/host/notice", headers=auth, json={"text": "Last round!"})
            assert response.status == 200
            notice = await _next(ws, "hall")
            assert notice["event"] == {"type": "Notice", "text": "Last round!"}
            assert (
                await http.post(f"{base}/api/host/notice", headers=auth, json={"text": " "})
            ).status == 400

            figures = await (await http.get(f"{base}/api/host/figures", headers=auth)).json()
            assert figures["connections"] == 1 and figures["rooms"] == 1 and figures["users"] == 1
            assert figures["actions_total"] >= 2 and figures["latency_buckets"][-1][0] is None

            response = await http.post(
                f"{base}/api/host/users/ann/kick", headers=auth, json={"text": "Bedtime."}
            )
            assert (await response.json())["rooms"] == [room_id]
            bye = await _next(ws, "bye")
            assert (bye["reason"], bye["text"]) == ("kicked", "Bedtime.")
            assert (await http.post(f"{base}/api/host/users/ann/kick", headers=auth)).status == 404

            closing = srv.hall.create_room("aah", {}, operator="bob").room_id
            response = await http.post(f"{base}/api/host/rooms/{closing}/close", headers=auth)
            assert response.status == 200
            assert closing not in {r["id"] for r in srv.hall.rooms()}
            record = store.load_room(closing)
            assert record is not None and record.finished
            assert record.result == {"termination": CLOSED_BY_HOST, "reason": "Closed by the host."}
            assert (await http.post(f"{base}/api/host/rooms/{closing}/close", headers=auth)).status == 404


async def _joined_room(ws: aiohttp.ClientWebSocketResponse) -> str:
    joined = await _next(ws, "joined")
    return str(joined["room"]["id"])


async def _next(ws: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    for _ in range(50):
        message = await ws.receive_json(timeout=5)
        if message["t"] == kind:
            return dict(message)
    raise AssertionError(f"no {kind} message")

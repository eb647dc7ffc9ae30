"""A browser's Doppelkopf table filled by cg wire bots, over real sockets (docs/web-protocol.md,
section 4, "Invitations"): the table made in the browser waits; ``gamehall bots --game
doppelkopf --count 3`` logs three cg bots in, each is invited to the waiting table (cg has no
table list), accepts and sits down; the fourth seat starts the game, which is played to its
end (the browser player's turns run out and take their default moves: a soak run), or until the
browser player leaves once the cards are out."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest

from gamehall.bots.doppelkopf.wire import run_bots
from gamehall.config import ServerConfig
from gamehall.server.app import running_server
from gamehall.store.memory import MemoryStore

UNPACED = {"deal_interval_s": 0.0, "trick_close_delay_s": 0.0}


async def next_of(ws: aiohttp.ClientWebSocketResponse, predicate: Any, timeout: float = 60) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        while True:
            message = await ws.receive_json()
            if predicate(message):
                return dict(message)


async def fill_a_browser_table_with_cg_bots(*, play_to_the_end: bool) -> None:
    config = ServerConfig(bind="127.0.0.1", db=":memory:", room_defaults={"doppelkopf": dict(UNPACED)})
    async with running_server(config, listen={"cg": 0, "web": 0}, store=MemoryStore()) as server:
        base = f"http://127.0.0.1:{server.ports['web']}"
        async with aiohttp.ClientSession() as http:
            ws = await http.ws_connect(f"{base}/ws")
            await ws.send_json({"t": "hello", "v": 2, "name": "ann", "id": 1})
            await next_of(ws, lambda m: m["t"] == "welcome")
            quick = {"turn_timeout_s": 1, "vote_timeout_s": 1, "complaint_timeout_s": 1}
            await ws.send_json(
                {"t": "create", "game": "doppelkopf", "settings": quick, "title": "Ann's table", "id": 2}
            )
            joined = await next_of(ws, lambda m: m["t"] == "joined")
            room_id = joined["room"]["id"]

            bots = asyncio.create_task(run_bots("127.0.0.1", server.ports["cg"], 3, names_prefix="cg"))
            await next_of(ws, lambda m: m["t"] == "event" and m["event"]["type"] == "GameStarted")
            [table] = [r for r in server.hall.rooms("doppelkopf") if r.room_id == room_id]
            assert [name for _, name in sorted(table.seats.items())] == ["ann", "cg1", "cg2", "cg3"]
            if not play_to_the_end:  # ann leaves once the cards are out: the table ends for all
                await next_of(ws, lambda m: m["t"] == "event" and m["event"]["type"] == "HandDealt", 30)
                await ws.send_json({"t": "leave", "room": room_id, "id": 3})
            stats = await asyncio.wait_for(bots, timeout=120)
            assert [s.games_finished for s in stats] == [1, 1, 1]  # each saw its game.end
            if play_to_the_end:
                assert all(s.rounds >= 1 for s in stats)
            expected = [] if play_to_the_end else ["cg:msg.game.cancel"]  # ann left: the table ended
            assert [s.refusals for s in stats] == [expected] * 3
            assert server.hall.rooms("doppelkopf") == []  # the bots' own tables were never opened
            recent = await (await http.get(f"{base}/api/rooms?finished=1")).json()
            assert [r["id"] for r in recent] == [room_id]


async def test_three_cg_bots_fill_a_browser_table() -> None:
    await fill_a_browser_table_with_cg_bots(play_to_the_end=False)


@pytest.mark.soak
async def test_three_cg_bots_and_a_browser_player_play_a_whole_game() -> None:
    await fill_a_browser_table_with_cg_bots(play_to_the_end=True)

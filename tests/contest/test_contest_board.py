"""The hall side's contest board is the one the browser reads: what the runner publishes
through ``contest_hall(hall)`` is served at ``/api/contests``, a game being played is listed
by its reserved room, and the organiser's stop reaches the runner."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp
from contest_orders import order, server_config
from recording_listener import RecordingListener

from gamehall.contest.hall_side import contest_hall
from gamehall.contest.ports import Deadlines
from gamehall.rules._core import ForfeitReason
from gamehall.server.app import running_server


async def test_the_runner_s_contest_is_served_with_its_game_in_play_and_stopped_by_its_organiser(
    tmp_path: Path,
) -> None:
    async with running_server(server_config(tmp_path), listen={"web": 0, "mrjack": 0}) as server:
        side = contest_hall(server.hall)
        assert server.contests is server.hall.contests
        side.open_contest("cup", "The Cup", "mrjack", "olga")
        side.publish("cup", {"state": "running", "format": "round-robin", "played": 0, "total": 2})
        game = order("mrjack", "mrjack", ("a1", "b1"), deadlines=Deadlines(soft_s=5, hard_s=5, connect_s=5))
        playing = asyncio.create_task(side.play(game))
        await asyncio.sleep(0.05)
        organiser = server.hall.login("olga", RecordingListener(), protocol="web")
        base = f"http://127.0.0.1:{server.ports['web']}/api/contests"
        async with aiohttp.ClientSession() as http:
            async with http.get(base) as response:
                (listed,) = await response.json()
            assert (listed["id"], listed["state"], listed["total"]) == ("cup", "running", 2)
            async with http.get(f"{base}/cup") as response:
                page = await response.json()
            assert page["rooms_playing"] == [{"number": 1, "room_id": server.hall.rooms("mrjack")[0].room_id}]
            headers = {"Authorization": f"Bearer {organiser.token}"}
            async with http.post(f"{base}/cup/stop", headers=headers) as response:
                assert response.status == 200
        assert side.stop_requested("cup")
        side.forfeit("cup", "a1", ForfeitReason.PROCESS_VIOLATION)
        side.forfeit("cup", "b1", ForfeitReason.PROCESS_VIOLATION)
        report = await asyncio.wait_for(playing, timeout=5)
        assert report.termination == "aborted"

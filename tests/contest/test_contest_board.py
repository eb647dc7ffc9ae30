"""The contest board: what the runner publishes is what the lobby and the contest page read
over HTTP, and only the organiser (proven by their browser session's token) can stop it."""

from __future__ import annotations

from pathlib import Path

import aiohttp
from contest_orders import server_config
from recording_listener import RecordingListener

from gamehall.contest.hall_side import contest_hall
from gamehall.server.app import running_server


async def test_a_published_contest_is_listed_shown_and_stopped_by_its_organiser_only(tmp_path: Path) -> None:
    async with running_server(server_config(tmp_path), listen={"web": 0}) as server:
        side = contest_hall(server.hall)
        side.open_contest("cup", "The Cup", "mrjack", "olga")
        side.publish("cup", {"state": "running", "played": 1, "total": 4, "failures": 0, "standings": []})
        organiser = server.hall.login("olga", RecordingListener(), protocol="web")
        other = server.hall.login("mallory", RecordingListener(), protocol="web")
        base = f"http://127.0.0.1:{server.ports['web']}/api/contests"
        async with aiohttp.ClientSession() as http:
            async with http.get(base) as response:
                listed = await response.json()
            assert listed == [
                {"id": "cup", "title": "The Cup", "game": "mrjack", "organiser": "olga", "state": "running",
                 "played": 1, "total": 4, "failures": 0, "stop_requested": False}
            ]  # fmt: skip
            async with http.get(f"{base}/cup") as response:
                page = await response.json()
            assert page["standings"] == [] and page["total"] == 4
            async with http.get(f"{base}/nope") as response:
                assert response.status == 404
            stop = f"{base}/cup/stop"
            async with http.post(stop, json={"name": "mallory", "token": other.token}) as response:
                assert response.status == 403
            assert not side.stop_requested("cup")
            async with http.post(stop, json={"name": "olga", "token": "guessed"}) as response:
                assert response.status == 403
            async with http.post(stop, json={"name": "olga", "token": organiser.token}) as response:
                assert response.status == 200
            assert side.stop_requested("cup")
            side.close_contest("cup", {"state": "stopped", "played": 2, "total": 4})
            side.publish("cup", {"state": "running"})  # too late: the final snapshot stays
            async with http.get(f"{base}/cup") as response:
                page = await response.json()
            assert page["state"] == "stopped" and page["played"] == 2

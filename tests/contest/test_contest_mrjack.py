"""Contest games of Mr. Jack on reserved rooms: entrants log in over the Mr. Jack protocol
with their reserved nick and play to a typed end within the contest's deadlines."""

from __future__ import annotations

import asyncio
from pathlib import Path

from contest_orders import order, server_config

from gamehall.bots.mrjack import MrJackPolicy
from gamehall.bots.mrjack.wire import MrJackWireBot
from gamehall.contest.hall_side import contest_hall, report_of
from gamehall.server.app import running_server


async def test_two_entrants_take_their_reserved_seats_and_play_to_a_normal_end(tmp_path: Path) -> None:
    async with running_server(server_config(tmp_path), listen={"mrjack": 0}) as server:
        port = server.ports["mrjack"]
        side = contest_hall(server.hall)
        game = order("mrjack", "mrjack", ("jacky1", "sherlock1"))
        playing = asyncio.create_task(side.play(game))
        await asyncio.sleep(0.05)
        # both bots ask for the detective: the reserved seat decides (seat 0 plays Mr. Jack)
        bots = [
            MrJackWireBot("127.0.0.1", port, nick, "detektiv", policy=MrJackPolicy("heuristic"))
            for nick in ("sherlock1", "jacky1")
        ]
        results = await asyncio.wait_for(asyncio.gather(*(b.run() for b in bots)), timeout=30)
        report = await asyncio.wait_for(playing, timeout=5)
        assert [r.errors for r in results] == [[], []]
        assert report.termination == "normal"
        assert [s.end.result.value for s in report.seats] == ["normal", "normal"]
        assert sorted(s.rank for s in report.seats) == [1, 2]
        record = server.hall.store.load_room(report.room_id)
        assert record is not None and record.seed == game.seed
        assert record.meta["contest"] == game.to_json()
        assert report_of(record, game) == report

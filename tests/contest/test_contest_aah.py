"""Contest games of AAH on reserved rooms: legacy AAH clients ``JOIN`` with their reserved
nick and land at their seat (the held-seat rejoin of docs/recovery.md), then play to a typed end."""

from __future__ import annotations

import asyncio
from pathlib import Path

from contest_orders import order, server_config, stop

from gamehall.bots.aah import AahWireBot
from gamehall.contest.hall_side import contest_hall, report_of
from gamehall.contest.ports import Deadlines
from gamehall.protocols.aah.frames import Frame
from gamehall.server.app import running_server

FAST_GAME = {"aplimit": 2, "round_gap": 1, "timeout": 30}


async def test_three_entrants_join_their_reserved_seats_and_play_to_a_normal_end(tmp_path: Path) -> None:
    async with running_server(server_config(tmp_path), listen={"aah": 0}) as server:
        port = server.ports["aah"]
        game = order("aah", "aah", ("ann1", "ben1", "cat1"), config=FAST_GAME)
        playing = asyncio.create_task(contest_hall(server.hall).play(game))
        await asyncio.sleep(0.05)
        bots = [AahWireBot("127.0.0.1", port, name, strict=True) for name in reversed(game.seats)]
        await asyncio.wait_for(asyncio.gather(*(bot.run() for bot in bots)), timeout=60)
        report = await asyncio.wait_for(playing, timeout=5)
        assert report.termination == "normal"
        assert [s.end.result.value for s in report.seats] == ["normal"] * 3
        assert [s.login for s in report.seats if s.rank == 1] == report.extra["winners"]
        assert max(s.score for s in report.seats) >= 2
        record = server.hall.store.load_room(report.room_id)
        assert record is not None and report_of(record, game) == report


async def test_an_entrant_that_never_plays_forfeits_by_timeout_and_the_others_play_on(tmp_path: Path) -> None:
    async with running_server(server_config(tmp_path), listen={"aah": 0}) as server:
        port = server.ports["aah"]
        deadlines = Deadlines(soft_s=1.0, hard_s=1.0, connect_s=5.0, soft_strikes=100)
        game = order("aah", "aah", ("ann2", "ben2", "cat2", "dan2"), config=FAST_GAME, deadlines=deadlines)
        playing = asyncio.create_task(contest_hall(server.hall).play(game))
        await asyncio.sleep(0.05)
        bots = [AahWireBot("127.0.0.1", port, name, strict=True) for name in game.seats[:3]]
        idle = AahWireBot("127.0.0.1", port, "dan2", strict=False, play=False)
        clients = [asyncio.create_task(b.run()) for b in (*bots, idle)]
        report = await asyncio.wait_for(playing, timeout=60)
        await stop(clients)
        ends = {s.login: s.end.to_json() for s in report.seats}
        assert ends["dan2"] == {"result": "forfeit", "reason": "timeout"}
        assert [s.rank for s in report.seats if s.login == "dan2"] == [4]
        record = server.hall.store.load_room(report.room_id)
        assert record is not None and report_of(record, game) == report


async def test_an_entrant_that_keeps_picking_cards_it_lacks_forfeits_by_rule_violation(
    tmp_path: Path,
) -> None:
    async with running_server(server_config(tmp_path), listen={"aah": 0}) as server:
        port = server.ports["aah"]
        deadlines = Deadlines(soft_s=5.0, hard_s=5.0, connect_s=5.0, soft_strikes=100, max_errors=3)
        game = order("aah", "aah", ("ann3", "ben3", "cat3", "dan3"), config=FAST_GAME, deadlines=deadlines)
        playing = asyncio.create_task(contest_hall(server.hall).play(game))
        await asyncio.sleep(0.05)
        bots = [AahWireBot("127.0.0.1", port, name, strict=True) for name in game.seats[:3]]
        clumsy = AahWireBot("127.0.0.1", port, "dan3", strict=False, play=False)

        async def pick_what_it_lacks() -> None:
            while True:
                await asyncio.sleep(0.05)
                clumsy.send(Frame("PICK", ("99999",)))

        clients = [asyncio.create_task(b.run()) for b in (*bots, clumsy)]
        clients.append(asyncio.create_task(pick_what_it_lacks()))
        report = await asyncio.wait_for(playing, timeout=60)
        await stop(clients)
        dan = report.seats[3]
        assert dan.end.to_json() == {"result": "forfeit", "reason": "rule_violation"}
        assert dan.errors == 3 and dan.rank == 4
        record = server.hall.store.load_room(report.room_id)
        assert record is not None and report_of(record, game) == report

"""Contest games of Mr. Jack on reserved rooms: entrants log in over the Mr. Jack protocol
with their reserved nick and play to a typed end within the contest's deadlines."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from contest_orders import LineClient, order, server_config, stop
from recording_listener import RecordingListener

from gamehall.bots.mrjack import MrJackPolicy
from gamehall.bots.mrjack.wire import MrJackWireBot
from gamehall.contest.hall_side import contest_hall, report_of
from gamehall.contest.ports import Deadlines
from gamehall.protocols._core import HallError
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


SHORT = Deadlines(soft_s=1.0, hard_s=1.0, connect_s=3.0, soft_strikes=100, max_errors=3)


async def test_an_entrant_that_sleeps_past_the_hard_deadline_forfeits_by_timeout(tmp_path: Path) -> None:
    async with running_server(server_config(tmp_path), listen={"mrjack": 0}) as server:
        port = server.ports["mrjack"]
        game = order("mrjack", "mrjack", ("jacky2", "sleepy2"), deadlines=SHORT)
        playing = asyncio.create_task(contest_hall(server.hall).play(game))
        await asyncio.sleep(0.05)
        bot = MrJackWireBot("127.0.0.1", port, "jacky2", "mrjack", policy=MrJackPolicy("heuristic"))
        sleeper = LineClient(port, ["nick(sleepy2).", "init(detektiv)."])
        clients = [asyncio.create_task(c.run()) for c in (bot, sleeper)]
        report = await asyncio.wait_for(playing, timeout=20)
        await stop(clients)
        assert report.termination == "forfeit"
        assert [(s.login, s.end.to_json(), s.rank) for s in report.seats] == [
            ("jacky2", {"result": "normal"}, 1),
            ("sleepy2", {"result": "forfeit", "reason": "timeout"}, 2),
        ]
        record = server.hall.store.load_room(report.room_id)
        assert record is not None and report_of(record, game) == report
        leave = [e for e in record.entries if e.kind == "leave"]
        assert [(e.seat, e.data) for e in leave] == [(1, {"reason": "timeout"})]


async def test_an_entrant_that_keeps_sending_refused_moves_forfeits_by_rule_violation(tmp_path: Path) -> None:
    async with running_server(server_config(tmp_path), listen={"mrjack": 0}) as server:
        port = server.ports["mrjack"]
        game = order("mrjack", "mrjack", ("jacky3", "clumsy3"), deadlines=SHORT)
        playing = asyncio.create_task(contest_hall(server.hall).play(game))
        await asyncio.sleep(0.05)
        bot = MrJackWireBot("127.0.0.1", port, "jacky3", "mrjack", policy=MrJackPolicy("heuristic"))
        clumsy = LineClient(port, ["nick(clumsy3).", "init(detektiv)."], repeat="fertig.", every=0.05)
        clients = [asyncio.create_task(c.run()) for c in (bot, clumsy)]
        report = await asyncio.wait_for(playing, timeout=20)
        await stop(clients)
        clumsy_seat = report.seats[1]
        assert clumsy_seat.end.to_json() == {"result": "forfeit", "reason": "rule_violation"}
        assert clumsy_seat.errors == 3 and clumsy_seat.rank == 2
        assert report.seats[0].end.to_json() == {"result": "normal"}
        record = server.hall.store.load_room(report.room_id)
        assert record is not None and report_of(record, game) == report


async def test_a_stranger_cannot_take_a_reserved_seat_and_a_missing_entrant_forfeits(tmp_path: Path) -> None:
    async with running_server(server_config(tmp_path), listen={"mrjack": 0}) as server:
        port = server.ports["mrjack"]
        quick = Deadlines(soft_s=1.0, hard_s=1.0, connect_s=1.0)
        game = order("mrjack", "mrjack", ("jacky4", "absent4"), deadlines=quick)
        playing = asyncio.create_task(contest_hall(server.hall).play(game))
        await asyncio.sleep(0.05)
        room_id = next(info.room_id for info in server.hall.rooms("mrjack"))
        with pytest.raises(HallError) as refused:
            server.hall.login("stranger", RecordingListener(), protocol="web").join(room_id)
        assert refused.value.code == "seat_reserved"
        with pytest.raises(HallError):
            server.hall.add_bots(room_id, 1)  # nor may a hall bot
        watcher = server.hall.login("watcher", RecordingListener(), protocol="web")
        watcher.spectate(room_id)  # watching is fine
        # a stranger over the wire lands at a table of its own, not at the contest's
        stranger = LineClient(port, ["nick(stranger5).", "init(detektiv).", "quit."])
        await asyncio.wait_for(stranger.run(), timeout=5)
        assert server.hall.room(room_id).info().seats == {0: "jacky4", 1: "absent4"}
        bot = MrJackWireBot("127.0.0.1", port, "jacky4", "mrjack", policy=MrJackPolicy("heuristic"))
        bot_run = asyncio.create_task(bot.run())
        report = await asyncio.wait_for(playing, timeout=10)
        await stop([bot_run])
        assert [s.end.to_json() for s in report.seats] == [
            {"result": "normal"},
            {"result": "forfeit", "reason": "disconnected"},
        ]

"""Contest games of Doppelkopf on reserved rooms: cg entrants log in with their account and
the server rebuilds the contest game's lobby around the room and gives each its held seat
(docs/recovery.md, "Doppelkopf over cg"), then they play to a typed end."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from contest_orders import order, server_config, stop

from gamehall.bots.doppelkopf.wire import CgWireBot
from gamehall.contest.hall_side import contest_hall, report_of
from gamehall.contest.ports import Deadlines
from gamehall.protocols._core import HallError
from gamehall.protocols.cg.codec import Packet
from gamehall.server.app import running_server

UNPACED = {"deal_interval_s": 0.0, "trick_close_delay_s": 0.0, "loading_timeout_s": 0.5}
"""No wire pacing, and a short wait for "cards created": a bot given its seat while the first
deal is loading has seen only the creation transfers, and says game.start{} only on the packet
after them (a real client says it once it made the cards)."""
SEATS = ("Dora", "Emil", "Fritz", "Greta")


def entrant(port: int, name: str) -> CgWireBot:
    """The project's cg wire bot, told that its seat is waiting (no lobby of its own)."""
    bot = CgWireBot("127.0.0.1", port, name, "secret", policy="heuristic", flavor="gamehall", reconnect_s=1.0)
    bot.player.in_game = True
    return bot


async def test_four_entrants_log_in_to_their_reserved_seats_and_play_to_a_normal_end(tmp_path: Path) -> None:
    async with running_server(server_config(tmp_path, {"doppelkopf": UNPACED}), listen={"cg": 0}) as server:
        port = server.ports["cg"]
        side = contest_hall(server.hall)
        game = order("doppelkopf", "cg", SEATS)
        with pytest.raises(HallError) as unregistered:
            await side.play(game)
        assert unregistered.value.code == "no_account"
        for name in SEATS:
            side.register_account("cg", name, "secret")
        playing = asyncio.create_task(side.play(game))
        await asyncio.sleep(0.05)
        clients = [asyncio.create_task(entrant(port, name).run()) for name in reversed(SEATS)]
        report = await asyncio.wait_for(playing, timeout=60)
        await stop(clients)
        assert report.termination == "normal"
        assert [s.end.result.value for s in report.seats] == ["normal"] * 4
        record = server.hall.store.load_room(report.room_id)
        assert record is not None and report_of(record, game) == report


async def test_an_entrant_that_never_plays_forfeits_by_timeout(tmp_path: Path) -> None:
    async with running_server(server_config(tmp_path, {"doppelkopf": UNPACED}), listen={"cg": 0}) as server:
        port = server.ports["cg"]
        side = contest_hall(server.hall)
        short = Deadlines(soft_s=1.0, hard_s=1.0, connect_s=5.0, soft_strikes=100)
        game = order("doppelkopf", "cg", SEATS, deadlines=short)
        for name in SEATS:
            side.register_account("cg", name, "secret")
        playing = asyncio.create_task(side.play(game))
        await asyncio.sleep(0.05)
        idle = entrant(port, "Greta")
        logs_in = idle.player.on_packet
        # logs in and takes its seat, then answers nothing of the game
        idle.player.on_packet = lambda packet: [] if packet.name.startswith("cg:game.") else logs_in(packet)  # type: ignore[method-assign]
        clients = [asyncio.create_task(entrant(port, name).run()) for name in SEATS[:3]]
        clients.append(asyncio.create_task(idle.run()))
        report = await asyncio.wait_for(playing, timeout=60)
        await stop(clients)
        assert report.seats[3].end.to_json() == {"result": "forfeit", "reason": "timeout"}
        record = server.hall.store.load_room(report.room_id)
        assert record is not None and report_of(record, game) == report


async def test_an_entrant_that_keeps_accepting_a_poverty_never_offered_forfeits_by_rule_violation(
    tmp_path: Path,
) -> None:
    async with running_server(server_config(tmp_path, {"doppelkopf": UNPACED}), listen={"cg": 0}) as server:
        port = server.ports["cg"]
        side = contest_hall(server.hall)
        game = order("doppelkopf", "cg", SEATS)
        for name in SEATS:
            side.register_account("cg", name, "secret")
        playing = asyncio.create_task(side.play(game))
        await asyncio.sleep(0.05)
        clumsy = entrant(port, "Greta")
        logs_in = clumsy.player.on_packet
        nonsense = Packet("cg:game.dk.announce", {"type": "poverty_accept"})  # no poverty was offered
        clumsy.player.on_packet = lambda packet: (
            [nonsense] if packet.name.startswith("cg:game.") else logs_in(packet)
        )  # type: ignore[method-assign]
        clients = [asyncio.create_task(entrant(port, name).run()) for name in SEATS[:3]]
        clients.append(asyncio.create_task(clumsy.run()))
        report = await asyncio.wait_for(playing, timeout=60)
        await stop(clients)
        greta = report.seats[3]
        assert greta.end.to_json() == {"result": "forfeit", "reason": "rule_violation"}
        assert greta.errors >= 3
        record = server.hall.store.load_room(report.room_id)
        assert record is not None and report_of(record, game) == report

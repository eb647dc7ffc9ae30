"""Contest games of Ursuppe on reserved rooms: UrServer entrants ``TEILNEHMEN`` the contest
game by its name (the room title, :func:`~gamehall.contest.hall_side.room_title`) with their
reserved name and are given their held seat (docs/recovery.md, UrServer "Rejoin")."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path

from contest_orders import LineClient, order, server_config, stop

from gamehall.bots.ursuppe.wire import UrWireBot
from gamehall.contest.hall_side import contest_hall, report_of, room_title
from gamehall.contest.ports import Deadlines
from gamehall.server.app import running_server

SHORT_GAME = {"environment_deck": ["2:10", "1:14", "3:9"], "shuffle_deck": False}


class ContestUrBot(UrWireBot):
    """The project's UrServer wire bot, told that its seat is waiting: it sends
    ``TEILNEHMEN``/``PASSWORT``/``NAME`` at once instead of waiting in ``LISTE`` for a new game."""

    async def _join(
        self, game: str, read_line: Callable[[], Awaitable[str | None]], send: Callable[..., None]
    ) -> str | None:
        return await self._retake(game, read_line, send)


def entrant(port: int, name: str, game_name: str, seed: int) -> ContestUrBot:
    prefix, number = game_name.rsplit("_", 1)
    bot = ContestUrBot(
        "127.0.0.1", port, name, creates=False, players=3, policy="heuristic",
        rng=random.Random(seed), game_prefix=prefix + "_", reconnect_s=1.0,
    )  # fmt: skip
    assert number == "1"
    return bot


async def test_three_entrants_retake_their_reserved_seats_and_play_to_a_normal_end(tmp_path: Path) -> None:
    async with running_server(server_config(tmp_path), listen={"urserver": 0}) as server:
        port = server.ports["urserver"]
        game = order("ursuppe", "urserver", ("ada1", "bea1", "cid1"), config={"players": 3, **SHORT_GAME})
        playing = asyncio.create_task(contest_hall(server.hall).play(game))
        await asyncio.sleep(0.05)
        bots = [entrant(port, name, room_title(game), seed) for seed, name in enumerate(game.seats)]
        results = await asyncio.wait_for(asyncio.gather(*(b.run() for b in bots)), timeout=90)
        report = await asyncio.wait_for(playing, timeout=5)
        assert all(not r.errors for r in results)
        assert sorted(c for r in results for c in r.colours) == [0, 1, 2]
        assert report.termination == "normal"
        assert [s.end.result.value for s in report.seats] == ["normal"] * 3
        record = server.hall.store.load_room(report.room_id)
        assert record is not None and report_of(record, game) == report


async def test_an_entrant_that_never_answers_forfeits_by_timeout(tmp_path: Path) -> None:
    async with running_server(server_config(tmp_path), listen={"urserver": 0}) as server:
        port = server.ports["urserver"]
        deadlines = Deadlines(soft_s=1.0, hard_s=1.0, connect_s=5.0, soft_strikes=100)
        seats = ("ada2", "bea2", "cid2")
        game = order("ursuppe", "urserver", seats, config={"players": 3, **SHORT_GAME}, deadlines=deadlines)
        playing = asyncio.create_task(contest_hall(server.hall).play(game))
        await asyncio.sleep(0.05)
        bots = [entrant(port, name, room_title(game), seed) for seed, name in enumerate(seats[:2])]
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"TEILNEHMEN {room_title(game)}\nPASSWORT x\nNAME cid2\n".encode())
        clients = [asyncio.create_task(b.run()) for b in bots]
        report = await asyncio.wait_for(playing, timeout=60)
        await stop(clients)
        writer.close()
        assert report.seats[2].end.to_json() == {"result": "forfeit", "reason": "timeout"}
        assert report.seats[2].rank == 3
        record = server.hall.store.load_room(report.room_id)
        assert record is not None and report_of(record, game) == report


async def test_an_entrant_that_keeps_sending_refused_lines_forfeits_by_rule_violation(tmp_path: Path) -> None:
    async with running_server(server_config(tmp_path), listen={"urserver": 0}) as server:
        port = server.ports["urserver"]
        deadlines = Deadlines(soft_s=5.0, hard_s=5.0, connect_s=5.0, soft_strikes=100, max_errors=3)
        seats = ("ada3", "bea3", "cid3")
        game = order("ursuppe", "urserver", seats, config={"players": 3, **SHORT_GAME}, deadlines=deadlines)
        playing = asyncio.create_task(contest_hall(server.hall).play(game))
        await asyncio.sleep(0.05)
        bots = [entrant(port, name, room_title(game), seed) for seed, name in enumerate(seats[:2])]
        # WUERFELN is an answer to ZUG_BEWEGEN only: out of turn FEHLER 17, at ZUG_BEREIT FEHLER 30
        clumsy = LineClient(
            port, [f"TEILNEHMEN {room_title(game)}", "PASSWORT x", "NAME cid3"], repeat="WUERFELN"
        )
        clients = [asyncio.create_task(c.run()) for c in (*bots, clumsy)]
        report = await asyncio.wait_for(playing, timeout=60)
        await stop(clients)
        cid = report.seats[2]
        assert cid.end.to_json() == {"result": "forfeit", "reason": "rule_violation"}
        assert cid.errors == 3
        record = server.hall.store.load_room(report.room_id)
        assert record is not None and report_of(record, game) == report

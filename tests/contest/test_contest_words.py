"""Contest games of Duplicate Scrabble on reserved rooms: JDuplicate entrants log in with
``PLAYERNAME`` of their reserved name and the server puts them into their game at once
(docs/recovery.md, JDuplicate), then they play to a typed end."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from contest_orders import order, server_config, stop

import gamehall.protocols.jduplicate.messages as m
from gamehall.bots.words.wire import WordsWireBot, WordsWirePlayer
from gamehall.contest.hall_side import contest_hall, report_of, room_title
from gamehall.contest.ports import Deadlines, GameOrder
from gamehall.protocols.jduplicate.codec import JDuplicateCodec, Side
from gamehall.server.app import running_server

FAST_WORDS = {
    "preset": "DupEN",
    "time_per_turn": 5,
    "grace_s": 0.5,
    "pause_s": 0.1,
    "max_players": 2,
    "end_turn_when_all_moved": True,
}
DEADLINES = Deadlines(soft_s=8.0, hard_s=8.0, connect_s=5.0, soft_strikes=100)
"""Deadlines the wire bots never come near (they answer at once); the held-turn rule itself is
tested in test_contest_held_turns.py."""


def entrant(port: int, game: GameOrder, name: str, version: m.Version, seed: int) -> WordsWireBot:
    """The project's JDuplicate wire bot, following the contest game (named by its room title)."""
    player = WordsWirePlayer(name, version, join=room_title(game), rng=random.Random(seed))
    player.rejoining = True  # its seat is waiting: no create or join, the login seats it
    return WordsWireBot("127.0.0.1", port, player, write_interval_s=0.05, reconnect_s=1.0)


async def test_two_entrants_log_in_to_their_reserved_seats_and_play_to_a_normal_end(tmp_path: Path) -> None:
    async with running_server(server_config(tmp_path), listen={"jduplicate": 0}) as server:
        port = server.ports["jduplicate"]
        game = order("words", "jduplicate", ("wes1", "zoe1"), config=FAST_WORDS, deadlines=DEADLINES)
        playing = asyncio.create_task(contest_hall(server.hall).play(game))
        await asyncio.sleep(0.05)
        bots = [entrant(port, game, "wes1", m.Version.V02, 1), entrant(port, game, "zoe1", m.Version.V10, 2)]
        clients = [asyncio.create_task(b.run()) for b in bots]
        report = await asyncio.wait_for(playing, timeout=25)
        await stop(clients)
        assert report.termination == "normal"
        assert [s.end.result.value for s in report.seats] == ["normal", "normal"]
        assert max(s.score for s in report.seats) > 0
        record = server.hall.store.load_room(report.room_id)
        assert record is not None and report_of(record, game) == report


async def test_an_entrant_that_never_moves_forfeits_by_timeout(tmp_path: Path) -> None:
    async with running_server(server_config(tmp_path), listen={"jduplicate": 0}) as server:
        port = server.ports["jduplicate"]
        short = Deadlines(soft_s=1.0, hard_s=1.0, connect_s=5.0, soft_strikes=100)
        game = order("words", "jduplicate", ("wes2", "zoe2"), config=FAST_WORDS, deadlines=short)
        playing = asyncio.create_task(contest_hall(server.hall).play(game))
        await asyncio.sleep(0.05)
        bot = entrant(port, game, "wes2", m.Version.V02, 1)
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        codec = JDuplicateCodec(m.Version.V02, side=Side.CLIENT)
        hello = WordsWirePlayer("zoe2", m.Version.V02).hello()
        writer.write(b"".join(codec.encode(message) for message in hello))
        clients = [asyncio.create_task(bot.run())]
        report = await asyncio.wait_for(playing, timeout=60)
        await stop(clients)
        writer.close()
        ends = [s.end.to_json() for s in report.seats]
        assert ends[1] == {"result": "forfeit", "reason": "timeout"}
        record = server.hall.store.load_room(report.room_id)
        assert record is not None and report_of(record, game) == report


async def test_an_entrant_that_keeps_sending_impossible_moves_forfeits_by_rule_violation(
    tmp_path: Path,
) -> None:
    async with running_server(server_config(tmp_path), listen={"jduplicate": 0}) as server:
        port = server.ports["jduplicate"]
        game = order("words", "jduplicate", ("wes3", "zoe3"), config=FAST_WORDS, deadlines=DEADLINES)
        playing = asyncio.create_task(contest_hall(server.hall).play(game))
        await asyncio.sleep(0.05)
        bot = entrant(port, game, "wes3", m.Version.V02, 1)
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        codec = JDuplicateCodec(m.Version.V02, side=Side.CLIENT)
        hello = WordsWirePlayer("zoe3", m.Version.V02).hello()
        writer.write(b"".join(codec.encode(message) for message in hello))
        impossible = m.Moves((m.Tile(1, "A", "Q"), m.Tile(2, "A", "Q"), m.Tile(3, "A", "Q")))

        async def nag() -> None:
            while True:
                await asyncio.sleep(0.1)
                writer.write(codec.encode(impossible))

        clients = [asyncio.create_task(bot.run()), asyncio.create_task(nag())]
        report = await asyncio.wait_for(playing, timeout=60)
        await stop(clients)
        writer.close()
        zoe = report.seats[1]
        assert zoe.end.to_json() == {"result": "forfeit", "reason": "rule_violation"}
        assert zoe.errors == 3
        record = server.hall.store.load_room(report.room_id)
        assert record is not None and report_of(record, game) == report

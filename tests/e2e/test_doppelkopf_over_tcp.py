"""Doppelkopf over the cg protocol end to end, over real sockets: wire bots (``gamehall.bots.
doppelkopf.wire``) each play a whole game against three ``dk_dumb`` hall bots; the accounts land
in the SQLite file, hashed."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from gamehall.bots.doppelkopf.wire import CgWireBot, run_bots
from gamehall.config import ServerConfig
from gamehall.server.app import running_server

UNPACED = {"deal_interval_s": 0.0, "trick_close_delay_s": 0.0}
"""The note's wire pacing is 0 in tests (the loading wait stays: the bots say game.start{})."""


def config(tmp_path: Path) -> ServerConfig:
    return ServerConfig(db=str(tmp_path / "hall.db"), room_defaults={"doppelkopf": dict(UNPACED)})


async def test_a_wire_bot_plays_a_whole_game_over_tcp(tmp_path: Path) -> None:
    async with running_server(config(tmp_path), listen={"cg": 0}) as server:
        port = server.ports["cg"]
        bot = CgWireBot("127.0.0.1", port, "Walter", policy="heuristic", flavor="gamehall")
        stats = await asyncio.wait_for(bot.run(), timeout=60)
        assert stats.games_finished == 1 and stats.rounds == 1
        names = [p.name for p in bot.received]
        assert names.count("cg:game.dk.round.change") >= 6
        assert names[-2:] == ["cg:game.end", "cg:lobby.change"]
        assert server.hall.rooms("doppelkopf") == []
    with sqlite3.connect(tmp_path / "hall.db") as db:
        (row,) = db.execute("SELECT username, pwd_hash FROM cg_accounts").fetchall()
    assert row[0] == "Walter" and row[1].startswith("scrypt$") and "botpass" not in row[1]


@pytest.mark.soak
async def test_two_tables_side_by_side_and_the_accounts_are_reused(tmp_path: Path) -> None:
    async with running_server(config(tmp_path), listen={"cg": 0}) as server:
        port = server.ports["cg"]
        stats = await asyncio.wait_for(run_bots("127.0.0.1", port, 2, names_prefix="bot"), timeout=60)
        assert [s.games_finished for s in stats] == [1, 1]
        again = await asyncio.wait_for(run_bots("127.0.0.1", port, 1, names_prefix="bot"), timeout=60)
        assert again[0].games_finished == 1  # dkbot1 logged in with its stored password

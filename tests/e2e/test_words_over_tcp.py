"""Duplicate, Scrabble and Boggle end to end over real sockets: JDuplicate wire bots (one in 0.2,
one in 1.0) play whole games against the real server, on the bundled dictionaries.

Room defaults keep each game short: a few seconds per turn (the dialogue then accepts a time
per turn that low), a short grace and pause, duplicate turns that close once everyone has
played, two boggle rounds.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from gamehall.bots.words.wire import run_bots
from gamehall.config import ServerConfig
from gamehall.server.app import running_server

FAST_WORDS = {
    "time_per_turn": 5,
    "grace_s": 0.5,
    "pause_s": 0.1,
    "rounds": 2,
    "end_turn_when_all_moved": True,
}


def fast_config(tmp_path: Path) -> ServerConfig:
    return ServerConfig(db=str(tmp_path / "hall.db"), room_defaults={"words": dict(FAST_WORDS)})


@pytest.mark.parametrize(
    ("code", "reasons", "policies"),
    [
        ("DupEN", {"bag", "nomove"}, ["heuristic"]),
        ("ScrEN", {"out", "passes"}, ["heuristic"]),
        ("BogEN", {"rounds"}, ["heuristic", "random"]),  # two top bots would find the same words
    ],
)
async def test_two_bots_play_a_whole_game_over_tcp(
    tmp_path: Path, code: str, reasons: set[str], policies: list[str]
) -> None:
    async with running_server(fast_config(tmp_path), listen={"jduplicate": 0}) as server:
        port = server.ports["jduplicate"]
        results = await asyncio.wait_for(
            run_bots(
                "127.0.0.1",
                port,
                2,
                code=code,
                time_per_turn=5,
                write_interval_s=0.05,
                seed=1,
                policy=policies,
            ),
            timeout=60,
        )
        assert [r.name for r in results] == ["bot1", "bot2"]
        assert {r.end_reason for r in results} <= reasons and results[0].end_reason
        assert results[0].ranking == results[1].ranking  # both saw the same final standings
        assert all(r.turns >= 1 and r.moves_sent >= 1 for r in results)
        assert max(total for _, total in results[0].ranking) > 0
        if code == "DupEN":  # the top bots play the top every turn
            assert all(total == results[0].top_total for _, total in results[0].ranking)
        assert not [e for r in results for e in r.errors if not e.startswith("603")]

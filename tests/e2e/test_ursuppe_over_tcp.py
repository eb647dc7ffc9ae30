"""Ursuppe end to end over real sockets: bot tables over the UrServer protocol against the
real server, including tournament mode (sockets closed right after SPIEL_BEENDET)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from gamehall.bots.ursuppe.wire import run_bots
from gamehall.config import ServerConfig
from gamehall.server.app import running_server


async def test_three_bots_play_a_whole_game_over_tcp(tmp_path: Path) -> None:
    config = ServerConfig(db=str(tmp_path / "hall.db"))
    async with running_server(config, listen={"urserver": 0}) as server:
        port = server.ports["urserver"]
        results = await run_bots("127.0.0.1", port, 3, policy="heuristic", seed=3, timeout=60)
        scores = [r.games[0] for r in results]
        assert all(len(s) == 3 for s in scores) and scores[0] == scores[1] == scores[2]
        assert sorted(c for r in results for c in r.colours) == [0, 1, 2]
        assert all(not r.errors for r in results)


async def test_four_random_bots_in_tournament_mode_are_closed_at_the_end(tmp_path: Path) -> None:
    config = ServerConfig(
        db=str(tmp_path / "hall.db"),
        tournament=True,
        room_defaults={"ursuppe": {"environment_deck": ["2:10", "1:14", "3:9"], "shuffle_deck": False}},
    )
    async with running_server(config, listen={"urserver": 0}) as server:
        port = server.ports["urserver"]
        results = await asyncio.wait_for(
            run_bots("127.0.0.1", port, 4, policy="random", seed=5, games=2, timeout_ms=5000), 90
        )
        for game in range(2):
            finals = [r.games[game] for r in results]
            assert len(finals[0]) == 4 and all(f == finals[0] for f in finals)  # nobody was cut off
        assert server.hall.rooms("ursuppe") == []

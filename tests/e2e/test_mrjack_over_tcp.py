"""Mr. Jack end to end over real sockets: wire bots play whole games against the real server
(the term protocol, the hall, the engine), two games side by side on the one port."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from gamehall.bots.mrjack import MrJackPolicy
from gamehall.bots.mrjack.wire import MrJackWireBot, run_bots
from gamehall.config import ServerConfig
from gamehall.server.app import running_server


def config(tmp_path: Path, *, rate_limit: float = 10_000) -> ServerConfig:
    """A server whose rate limit lets bots answer at machine speed (the tests' bots do not think)."""
    return ServerConfig(
        db=str(tmp_path / "hall.db"),
        room_defaults={"mrjack": {"turn_timeout_s": 30}},
        rate_limit_per_s=rate_limit,
        rate_limit_burst=int(rate_limit),
    )


async def test_two_bots_play_a_whole_game_over_tcp(tmp_path: Path) -> None:
    async with running_server(config(tmp_path), listen={"mrjack": 0}) as server:
        port = server.ports["mrjack"]
        jack = MrJackWireBot("127.0.0.1", port, "jacky", "mrjack", policy=MrJackPolicy("heuristic"))
        detective = MrJackWireBot("127.0.0.1", port, "sherlock", "detektiv", policy=MrJackPolicy("heuristic"))
        results = await asyncio.wait_for(asyncio.gather(jack.run(), detective.run()), timeout=30)
        assert [r.errors for r in results] == [[], []]
        assert [r.unreadable for r in results] == [[], []]
        assert len({tuple(r.winners) for r in results}) == 1 and len(results[0].winners) == 1
        assert results[0].winners[0] in ("mrjack", "detektiv")
        assert server.hall.rooms("mrjack") == []  # the game is gone once it is over


async def test_four_bots_fill_two_games_and_play_two_games_each(tmp_path: Path) -> None:
    async with running_server(config(tmp_path), listen={"mrjack": 0}) as server:
        port = server.ports["mrjack"]
        results = await run_bots("127.0.0.1", port, 4, games=2, seed=5, timeout=60, think_time=0)
        assert [len(r.winners) for r in results] == [2, 2, 2, 2]
        assert all(not r.errors and not r.unreadable for r in results)
        assert server.hall.rooms("mrjack") == []


async def test_garbage_on_the_port_gets_err_lines_and_the_game_beside_it_goes_on(tmp_path: Path) -> None:
    async with running_server(config(tmp_path), listen={"mrjack": 0}) as server:
        port = server.ports["mrjack"]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        greeting = await reader.readline()
        assert greeting == b"ok('Bitte einen Nick eingeben mit nick(Nick)').\n"
        writer.write(b"\xff\xfe(((\n" + b"x" * 5000 + b"\nnick(Max).\nquit.\n")
        await writer.drain()
        rest = (await asyncio.wait_for(reader.read(), timeout=10)).decode().splitlines()
        assert rest == [
            "err('Unbekannter Befehl oder Befehl zur Zeit nicht möglich: ÿþ(((').",  # read as Latin-1
            "err('Zeile zu lang').",
            "ok('Du heißt jetzt: Max').",
            "ok('Du kannst dich mit init(mrjack) oder init(detektiv) an einem Spiel beteiligen').",
            "ok('Auf Wiedersehen').",
        ]
        writer.close()
        results = await run_bots("127.0.0.1", port, 2, seed=1, timeout=30, think_time=0)
        assert all(len(r.winners) == 1 and not r.errors for r in results)


async def test_the_bots_command_plays_against_the_server_under_the_default_rate_limit(tmp_path: Path) -> None:
    async with running_server(config(tmp_path, rate_limit=50), listen={"mrjack": 0}) as server:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "gamehall.cli", "bots", "--game", "mrjack",
            "--server", f"127.0.0.1:{server.ports['mrjack']}", "--count", "2", "--policy", "heuristic",
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=60)
        assert process.returncode == 0, stderr.decode()
        log = stderr.decode()
        assert "bot1 (mrjack): winners ['" in log and "bot2 (detektiv): winners ['" in log, log
        assert "winners []" not in log  # neither bot was cut off by the rate limit
        assert server.hall.rooms("mrjack") == []

"""AAH end to end over real sockets: whole bot games against the real server, and a kill -9 of
the server in the middle of a round followed by a restart on the same store.

The bots are the 0.2.0 client emulator (``gamehall.bots.aah.AahWireBot``) in strict mode: any
frame the original client would crash on fails the test.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamehall.bots.aah import AahWireBot
from gamehall.config import ServerConfig
from gamehall.games import GAMES
from gamehall.protocols.aah.codec import Frame
from gamehall.server.app import running_server

FAST_ROOMS = {"aplimit": 2, "round_gap": 1, "autostart_delay": 1, "timeout": 15}


def fast_config(tmp_path: Path, **aah: object) -> ServerConfig:
    return ServerConfig(db=str(tmp_path / "hall.db"), room_defaults={"aah": {**FAST_ROOMS, **aah}})


async def test_three_bots_play_a_whole_game_over_tcp(tmp_path: Path) -> None:
    async with running_server(fast_config(tmp_path), listen={"aah": 0}) as server:
        port = server.ports["aah"]
        bots = [AahWireBot("127.0.0.1", port, name, strict=True) for name in ("alice", "bob", "carol")]
        stats = await asyncio.wait_for(asyncio.gather(*(bot.run() for bot in bots)), timeout=60)
        winners = {bot.game_winner for bot in bots}
        assert len(winners) == 1 and winners <= {"alice", "bob", "carol"}
        assert all(bot.disconnected == "The game has ended." for bot in bots)
        assert all(s.games_finished == 1 and not s.violations for s in stats)
        assert max(bot.points.get(next(iter(winners)), 0) for bot in bots) >= 2
        assert server.hall.rooms("aah") == []  # the table is gone after the game


async def test_two_tables_play_side_by_side_and_the_next_join_gets_a_new_table(tmp_path: Path) -> None:
    async with running_server(fast_config(tmp_path, playermax=3), listen={"aah": 0}) as server:
        port = server.ports["aah"]
        names = [f"p{i}" for i in range(6)]
        bots = [AahWireBot("127.0.0.1", port, name, strict=True) for name in names]
        await asyncio.wait_for(asyncio.gather(*(bot.run() for bot in bots)), timeout=90)
        assert {bot.disconnected for bot in bots} == {"The game has ended."}
        assert len({bot.game_winner for bot in bots}) == 2  # two tables, two winners
        late = AahWireBot("127.0.0.1", port, "late", strict=True, play=False)
        await late.connect()
        await late.wait_for(lambda: late.accepted)
        assert late.nicks == ["late"]
        await late.quit()


# ------------------------------------------------------------------------------ crash test


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    command = [
        sys.executable, "-m", "gamehall.cli", "serve", "--bind", "127.0.0.1", "--db", str(db),
        "--aah-port", str(port), "--web-port", "0", "--log-level", "WARNING",
        *(arg for e in GAMES if e.protocol != "aah" for arg in (f"--{e.protocol}-port", "0")),
        "--set", "aah.autostart_delay=1", "--set", "aah.round_gap=1", "--set", "aah.timeout=60",
        "--set", "aah.aplimit=20",
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return process
        if process.poll() is not None:
            raise RuntimeError(f"server exited: {process.stderr.read().decode() if process.stderr else ''}")
        time.sleep(0.05)
    process.kill()
    raise TimeoutError("server did not start listening")


@pytest.fixture
def server_process(tmp_path: Path) -> Iterator[tuple[Path, int, list[subprocess.Popen[bytes]]]]:
    processes: list[subprocess.Popen[bytes]] = []
    yield tmp_path / "hall.db", _free_port(), processes
    for process in processes:
        if process.poll() is None:
            process.kill()
        process.wait(10)


async def _seated(port: int, names: list[str]) -> list[AahWireBot]:
    bots = [AahWireBot("127.0.0.1", port, name, strict=True, play=False) for name in names]
    for bot in bots:
        await bot.connect()
        await bot.wait_for(lambda bot=bot: bot.accepted)
    return bots


async def test_kill_9_mid_round_then_restart_resumes_the_same_round(
    server_process: tuple[Path, int, list[subprocess.Popen[bytes]]],
) -> None:
    db, port, processes = server_process
    processes.append(_start_server(db, port))
    names = ["alice", "bob", "carol"]
    bots = await _seated(port, names)
    for bot in bots:
        await bot.wait_for(lambda bot=bot: bot.black is not None and len(bot.hand) >= 10, timeout=10)
    czar = bots[0].czar
    players = [bot for bot in bots if bot.name != czar]
    pick = bots[0].black[1] if bots[0].black else 1
    played = list(players[0].hand)[:pick]
    for card_id in played:  # one submission complete, one player still to pick
        players[0].send(Frame("PICK", (str(card_id),)))
    await players[1].wait_for(lambda: players[1].blanks >= pick)
    before = {
        bot.name: (sorted(set(bot.hand) - set(played)), dict(bot.points), bot.czar, bot.black) for bot in bots
    }

    processes[0].send_signal(signal.SIGKILL)
    processes[0].wait(10)
    for bot in bots:
        await bot.close()
    processes.append(_start_server(db, port))

    again = await _seated(port, names)
    for bot in again:
        await bot.wait_for(lambda bot=bot: bot.black is not None, timeout=10)
        hand, points, old_czar, black = before[bot.name]
        assert sorted(bot.hand) == hand, f"{bot.name}'s hand changed across the restart"
        assert bot.points == points and bot.czar == old_czar and bot.black == black
    # the round goes on: the last player picks, the czar judges, somebody scores
    waiting = next(bot for bot in again if bot.name == players[1].name)
    for card_id in list(waiting.hand)[:pick]:
        waiting.send(Frame("PICK", (str(card_id),)))
    judge = next(bot for bot in again if bot.name == czar)
    await judge.wait_for(lambda: len(judge.revealed) == 2, timeout=10)
    judge.send(Frame("CZPK", (str(judge.revealed[0][0][0]),)))
    rwin = await judge.wait_for_frame("RWIN", timeout=10)
    assert rwin.args and rwin.args[0] in {players[0].name, players[1].name}
    for bot in again:
        await bot.quit()


def test_the_server_process_survives_garbage_on_the_aah_port(
    server_process: tuple[Path, int, list[subprocess.Popen[bytes]]],
) -> None:
    db, port, processes = server_process
    processes.append(_start_server(db, port))
    junk = [os.urandom(n) for n in (1, 3, 17, 4096, 70_000)] + [
        b"\x03\x03AB\x03join\x030001\x03",
        b"JOIN\x03",
    ]
    for payload in junk:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(payload)
            sock.shutdown(socket.SHUT_WR)
            sock.settimeout(5)
            while sock.recv(65536):
                pass
    assert processes[0].poll() is None
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"PING\x03")
        assert sock.recv(16) == b"PONG\x03"

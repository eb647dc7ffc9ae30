"""The project's bots as contest entrants: one game over the legacy protocol, then exit."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import sys
from pathlib import Path

import pytest

from gamehall.bots import contest_entrant
from gamehall.bots.mrjack.policy import MrJackPolicy
from gamehall.bots.mrjack.wire import MrJackWireBot
from gamehall.config import ServerConfig
from gamehall.server.app import running_server
from gamehall.store.memory import MemoryStore

SRC = str(Path(contest_entrant.__file__).resolve().parents[2])


def config() -> ServerConfig:
    return dataclasses.replace(ServerConfig(bind="127.0.0.1", db=":memory:"))


async def entrant(port: int, name: str, seat: int, policy: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "gamehall.bots.contest_entrant", "--game", "mrjack", "--port", str(port),
        "--name", name, "--seat", str(seat), "--policy", policy, "--seed", "5",
        stdout=asyncio.subprocess.PIPE, env={**os.environ, "PYTHONPATH": SRC},
    )  # fmt: skip


async def test_two_entrants_play_one_mrjack_game_and_exit() -> None:
    async with running_server(config(), listen={"mrjack": 0}, store=MemoryStore()) as server:
        port = server.ports["mrjack"]
        jack, detective = (
            await entrant(port, "jack", 0, "random"),
            await entrant(port, "sherlock", 1, "heuristic"),
        )
        outputs = await asyncio.wait_for(asyncio.gather(jack.communicate(), detective.communicate()), 60)
    assert (jack.returncode, detective.returncode) == (0, 0)
    lines = [out.decode().strip().splitlines()[-1] for out, _ in outputs]
    assert lines[0].startswith("jack (mrjack, random): winners [")
    assert lines[1].startswith("sherlock (mrjack, heuristic): winners [")


async def test_the_cheater_keeps_sending_moves_the_server_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    from gamehall.bots.mrjack.player import WirePlayer

    for name in ("_decide", "_on_err"):  # undone after the test: the entrant patches for its process
        monkeypatch.setattr(WirePlayer, name, getattr(WirePlayer, name))
    contest_entrant.MISBEHAVIOURS["mrjack"]("cheater")
    async with running_server(config(), listen={"mrjack": 0}, store=MemoryStore()) as server:
        port = server.ports["mrjack"]
        cheater = MrJackWireBot(
            "127.0.0.1", port, "cheat", "mrjack", policy=MrJackPolicy("random"), think_time=0.05
        )
        honest = await entrant(port, "honest", 1, "random")  # a process of its own: not patched
        task = asyncio.create_task(cheater.run())
        await asyncio.sleep(4)
        task.cancel()
        honest.kill()
        await asyncio.gather(task, honest.wait(), return_exceptions=True)
    assert len(cheater.player.errors) >= 3  # refused again and again: the error count ends it
    assert set(cheater.player.errors) == {"Farbe ist unbekannt: nobody"}


def test_unknown_policies_and_games_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        contest_entrant.main(["--game", "mrjack", "--port", "1", "--name", "a", "--policy", "genius"])
    assert "invalid choice: 'genius'" in capsys.readouterr().err
    assert set(contest_entrant.MISBEHAVIOURS) == set(contest_entrant.PLAY) == set(contest_entrant.GAMES)

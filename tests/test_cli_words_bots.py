"""``gamehall bots --game words``: JDuplicate wire bots play a whole duplicate game against a
real ``gamehall serve`` (both as subprocesses), and the store records the finished game.

The server's room defaults end a turn once every player moved and drop the pause between
turns, so that the game (about 20 turns of the engine's top) takes seconds.
"""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_listening(port: int, server: subprocess.Popen[str], deadline_s: float = 20.0) -> None:
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        assert server.poll() is None, "the server exited"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError("the JDuplicate listener never opened")


def test_two_heuristic_words_bots_play_a_whole_game_over_jduplicate(tmp_path: Path) -> None:
    port = _free_port()
    db = tmp_path / "gamehall.db"
    off = [flag for name in ("aah", "cg", "urserver", "mrjack", "web") for flag in (f"--{name}-port", "0")]
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "gamehall.cli", "serve", "--bind", "127.0.0.1", *off),
            *("--jduplicate-port", str(port), "--db", str(db), "--log-level", "WARNING"),
            *("--set", "words.pause_s=0", "--set", "words.end_turn_when_all_moved=true"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        _wait_listening(port, server)
        bots = subprocess.run(
            [
                *(sys.executable, "-m", "gamehall.cli", "bots", "--game", "words"),
                *("--server", f"127.0.0.1:{port}", "--count", "2", "--policy", "heuristic"),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert bots.returncode == 0, bots.stderr
    lines = bots.stdout.splitlines()
    assert (
        len(lines) == 2 and lines[0].startswith("game 1: bot") and "(" in lines[0]
    )  # the ranking, why it ended
    assert lines[1].startswith("summary: 1 words game(s) by 2 bot(s); wins: bot")
    with sqlite3.connect(db) as store:
        rows = store.execute("SELECT game, finished_at, result FROM rooms").fetchall()
    assert len(rows) == 1
    game, finished_at, result = rows[0]
    assert game == "words" and finished_at is not None
    outcome = json.loads(result)
    assert outcome["termination"] == "normal"
    assert sorted(outcome["names"].values()) == ["bot1", "bot2"]
    assert all(score > 0 for score in outcome["scores"].values())  # both played the top

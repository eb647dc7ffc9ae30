"""``gamehall bots --game doppelkopf`` against a real ``gamehall serve`` (both subprocesses): a
line per game and a summary on stdout, and the server's INFO log telling the room's life
(created, started, finished)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_listening(port: int, server: subprocess.Popen[str], deadline_s: float = 30.0) -> None:
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        assert server.poll() is None, "the server exited"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError("the cg listener never opened")


def test_doppelkopf_bots_print_a_line_per_game_and_a_summary_and_the_server_logs_each_room(
    tmp_path: Path,
) -> None:
    port = _free_port()
    log_path = tmp_path / "server.log"
    off = [
        flag
        for name in ("aah", "urserver", "mrjack", "jduplicate", "web")
        for flag in (f"--{name}-port", "0")
    ]
    with log_path.open("w") as log_file:
        server = subprocess.Popen(
            [
                *(sys.executable, "-m", "gamehall.cli", "serve", "--bind", "127.0.0.1", *off),
                *("--cg-port", str(port), "--db", str(tmp_path / "gamehall.db"), "--log-level", "INFO"),
                *("--set", "doppelkopf.deal_interval_s=0", "--set", "doppelkopf.trick_close_delay_s=0"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=log_file,
            text=True,
        )
        try:
            _wait_listening(port, server)
            bots = subprocess.run(
                [
                    *(sys.executable, "-m", "gamehall.cli", "bots", "--game", "doppelkopf"),
                    *("--server", f"127.0.0.1:{port}", "--count", "1", "--games", "2"),
                ],
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
        finally:
            server.terminate()
            server.wait(timeout=10)
    assert bots.returncode == 0, bots.stderr
    assert bots.stdout.splitlines() == [
        "game 1: 1 round(s) played to the end by dkbot1",
        "game 2: 1 round(s) played to the end by dkbot1",
        "summary: 2 doppelkopf game(s) by 1 bot(s); wins: none; problems: 0",
    ]
    log = log_path.read_text()
    assert log.count("(doppelkopf) created by dkbot1") == 2
    assert log.count("(doppelkopf) started: dkbot1, Bot") == 2
    assert log.count("(doppelkopf) finished: normal, scores {'dkbot1': ") == 2

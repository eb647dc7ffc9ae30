"""The ``gamehall`` command: bad settings refused before anything listens, and ``replay``
printing a room's history from the store."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from recording_listener import RecordingListener
from turns import turn_by_turn_hall

from gamehall.cli import main
from gamehall.games import game_types
from gamehall.hall import FakeClock
from gamehall.rules.aah.actions import Judge, Pick
from gamehall.server.web import log_json
from gamehall.store.sqlite import SqliteStore


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gamehall.cli", *args], capture_output=True, text=True, timeout=60, check=False
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--set", "aah.timeout=5"], "--set aah.timeout=5: timeout must be at least 15 (got 5)"),
        (["--set", "aah.nonsense=1"], "unknown setting aah.nonsense"),
        (["--set", "chess.level=3"], "chess"),
        (["--aah-port", "70000"], "70000"),
    ],
)
def test_serve_refuses_bad_settings_before_listening(args: list[str], message: str, tmp_path: Path) -> None:
    done = run_cli("serve", "--db", str(tmp_path / "x.db"), "--web-port", "0", "--aah-port", "0", *args)
    assert done.returncode == 2
    assert message in done.stderr
    assert not (tmp_path / "x.db").exists()  # nothing was started


def test_serve_accepts_the_issue_spellings_of_aah_settings(tmp_path: Path) -> None:
    from gamehall.config import load_config

    schemas = {game: t.schema for game, t in game_types().items()}
    config = load_config(
        flags={},
        set_items=["aah.points_limit=3", "aah.round_gap_s=0.2",
                   "aah.pick_timeout_s=30", "aah.max_players=8"],
        config_path=None,
        environ={},
        schemas=schemas,
    )  # fmt: skip
    aah = config.room_defaults["aah"]
    assert (aah["aplimit"], aah["round_gap"], aah["timeout"], aah["playermax"]) == (3, 0.2, 30, 8)


def play_a_short_game(db: Path) -> str:
    """Three users play an AAH game to 2 points on a real SQLite store; returns the room id."""
    clock = FakeClock()
    hall = turn_by_turn_hall(games=game_types(), store=SqliteStore(db), clock=clock,
                defaults={"aah": {"aplimit": 2, "autostart_delay": 0, "round_gap": 1}})  # fmt: skip
    sessions = [hall.login(name, RecordingListener(), protocol="test") for name in ("ann", "ben", "cy")]
    room_id = sessions[0].create_room("aah").room_id
    for session in sessions:
        session.join(room_id)
    sessions[0].start(room_id)
    while hall.directory.get(room_id) is not None:
        room = hall.room(room_id)
        view = room.state.view(None)
        if view["phase"] == "pick":
            for seat, session in enumerate(sessions):
                mine = room.state.view(seat)
                if seat != view["czar"] and not mine["my_submission"]:
                    cards = [card["id"] for card in mine["hand"][: view["black"]["pick"]]]
                    session.act(room_id, Pick(tuple(cards)))
        elif view["phase"] == "judge":
            czar = room.state.view(None)["czar"]
            sessions[czar].act(room_id, Judge(view["submissions"][0]["cards"][0]["id"]))
        else:
            clock.advance(1.1)
    return room_id


def test_replay_prints_the_log_and_the_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "hall.db"
    room_id = play_a_short_game(db)
    assert main(["replay", room_id, "--db", str(db), "--events"]) == 0
    out = capsys.readouterr().out
    assert f"room {room_id}  game aah  finished" in out
    assert "join" in out and "act" in out and "{'type': 'Judge'" in out
    assert "result {'scores'" in out
    assert "seed " in out  # finished: the seed may be shown
    assert "GameWon" in out and "WhiteDealt" in out  # --events rebuilt the room from its log
    assert "password_hash" not in out
    assert "  seat 0 " in out and ": normal" in out  # each seat's typed end


def test_replay_into_a_pipe_closed_early_ends_quietly(tmp_path: Path) -> None:
    """``gamehall replay ... | head``: the reader is gone before the output ends."""
    db = tmp_path / "hall.db"
    room_id = play_a_short_game(db)
    read_end, write_end = os.pipe()
    os.close(read_end)  # a reader that already stopped: every write meets a closed pipe
    done = subprocess.run(
        [sys.executable, "-m", "gamehall.cli", "replay", room_id, "--db", str(db), "--events"],
        stdout=write_end,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        check=False,
    )
    os.close(write_end)
    assert "Traceback" not in done.stderr and done.returncode == 0


def test_replay_of_an_unknown_room_fails(tmp_path: Path) -> None:
    db = tmp_path / "hall.db"
    SqliteStore(db).close()
    assert main(["replay", "nope", "--db", str(db)]) == 1


def test_replay_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    """``gamehall replay ... | head``: the reader is gone before the writer is done."""
    db = tmp_path / "hall.db"
    room_id = play_a_short_game(db)
    read_end, write_end = os.pipe()
    os.close(read_end)  # like head after its first lines: every write now fails with EPIPE
    try:
        done = subprocess.run(
            [sys.executable, "-m", "gamehall.cli", "replay", room_id, "--db", str(db), "--events"],
            stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60, check=False,
        )  # fmt: skip
    finally:
        os.close(write_end)
    assert done.returncode == 0
    assert "BrokenPipeError" not in done.stderr and done.stderr == ""


def test_replay_agrees_with_the_log_api(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "hall.db"
    room_id = play_a_short_game(db)
    store = SqliteStore(db)
    try:
        record = store.load_room(room_id)
    finally:
        store.close()
    assert record is not None
    served = log_json(record)
    assert main(["replay", room_id, "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert f"result {served['result']}" in out
    listed = [line for line in out.splitlines() if line.split()[:1] and line.split()[0].isdigit()]
    assert len(listed) == len(served["entries"])  # type: ignore[arg-type]
    assert f"/replay/{room_id}" in out

"""``contest replay``: the logs give the same results, and a tampered file is caught."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_contest_hall import FakeContestHall, fake_report_of

from gamehall.cli import main
from gamehall.contest.entrants import Entrant, EntrantsFile
from gamehall.contest.launch import RunOptions, plan_contest
from gamehall.contest.replay import ReplayError, replay_contest
from gamehall.contest.runner import ContestRunner
from gamehall.rules._core import ForfeitReason


async def played_contest(directory: Path) -> None:
    names = ["strong", "weak", "cheater"]
    entrants = EntrantsFile(tuple(Entrant(n, g) for n, g in zip(names, [2, 1, 0], strict=True)))
    plan, contest_format = plan_contest(
        RunOptions(game="mrjack", format_name="round-robin", entrants=entrants, out_dir=directory, seed=3)
    )
    directory.mkdir(parents=True, exist_ok=True)
    fake = FakeContestHall(
        directory / "contest.db",
        {"strong": 2, "weak": 1},
        misbehaving={"cheater": ForfeitReason.RULE_VIOLATION},
    )
    await ContestRunner(plan, contest_format, fake, host="127.0.0.1", port=1).run()


async def test_an_untouched_contest_replays_in_agreement(tmp_path: Path) -> None:
    await played_contest(tmp_path)
    result = replay_contest(tmp_path, fake_report_of)
    assert result.agrees, result.differences
    assert result.games == 6
    assert [row.name for row in result.standings.rows] == ["strong", "weak", "cheater"]


async def test_a_tampered_result_in_games_jsonl_is_caught(tmp_path: Path) -> None:
    await played_contest(tmp_path)
    games = tmp_path / "games.jsonl"
    lines = games.read_text().splitlines()
    first = json.loads(lines[0])
    first["seats"][0]["rank"], first["seats"][1]["rank"] = (
        first["seats"][1]["rank"],
        first["seats"][0]["rank"],
    )
    lines[0] = json.dumps(first)
    games.write_text("\n".join(lines) + "\n")
    result = replay_contest(tmp_path, fake_report_of)
    assert not result.agrees
    assert any(d.startswith("game 1.seats[0].rank: written") for d in result.differences)


async def test_tampered_standings_are_caught(tmp_path: Path) -> None:
    await played_contest(tmp_path)
    path = tmp_path / "standings.json"
    standings = json.loads(path.read_text())
    standings["standings"][2]["points"] = 4.0
    path.write_text(json.dumps(standings))
    differences = replay_contest(tmp_path, fake_report_of).differences
    assert differences == ["standings.json.standings[2].points: written 4.0, logs give 0.0"]


async def test_a_game_missing_from_the_store_is_a_disagreement(tmp_path: Path) -> None:
    await played_contest(tmp_path)
    games = tmp_path / "games.jsonl"
    first = json.loads(games.read_text().splitlines()[0])
    first["room_id"] = "nosuchroom"
    games.write_text(json.dumps(first) + "\n" + "\n".join(games.read_text().splitlines()[1:]) + "\n")
    assert (
        "game 1: room nosuchroom is not in the store" in replay_contest(tmp_path, fake_report_of).differences
    )


def test_a_directory_without_a_contest_cannot_be_replayed(tmp_path: Path) -> None:
    with pytest.raises(ReplayError, match=r"contest\.json"):
        replay_contest(tmp_path, fake_report_of)


async def test_the_command_exits_non_zero_on_a_disagreement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    await played_contest(tmp_path)
    monkeypatch.setattr("gamehall.contest.replay.default_report_of", lambda: fake_report_of)
    assert main(["contest", "replay", str(tmp_path)]) == 0
    assert "6 game(s) replayed from the logs: the results agree" in capsys.readouterr().out
    (tmp_path / "standings.json").write_text("{}")
    assert main(["contest", "replay", str(tmp_path)]) == 1
    assert "DIFFERENT: standings.json.standings" in capsys.readouterr().out
    assert main(["contest", "replay", str(tmp_path / "nothing")]) == 2

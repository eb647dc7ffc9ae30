"""``gamehall contest``: options that cannot make a contest are refused before anything starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamehall.cli import main

ENTRANTS = '[[entrant]]\nname = "a"\n[[entrant]]\nname = "b"\n[[entrant]]\nname = "c"\n'


@pytest.fixture
def entrants(tmp_path: Path) -> Path:
    path = tmp_path / "entrants.toml"
    path.write_text(ENTRANTS)
    return path


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        code = main(argv)
    except SystemExit as exit_:  # argparse's own refusals
        code = int(exit_.code or 0)
    return code, capsys.readouterr().err


def test_contest_without_an_action_says_what_to_do(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["contest"], capsys) == (
        2,
        "gamehall contest: say run or replay (gamehall contest run --help)\n",
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--format", "league"], "invalid choice: 'league'"),
        (["--parallel", "0"], "must be at least 1, not 0"),
        (["--games-per-pairing", "-2"], "must be at least 1, not -2"),
        (["--port-base", "70000"], "must be 0 to 65534"),
        (["--demo"], "not allowed with argument --entrants"),
    ],
)
def test_bad_options_are_refused_by_the_parser(
    entrants: Path, extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run(["contest", "run", "--game", "mrjack", "--entrants", str(entrants), *extra], capsys)
    assert code == 2 and message in err


def test_a_game_needs_its_entrants_or_the_demo(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(["contest", "run", "--game", "mrjack"], capsys)
    assert code == 2 and "one of the arguments --entrants --demo is required" in err
    code, err = run(["contest", "run", "--game", "chess", "--demo"], capsys)
    assert code == 2 and "invalid choice: 'chess'" in err


@pytest.mark.parametrize(
    ("game", "extra", "message"),
    [
        ("doppelkopf", [], "doppelkopf needs 4 entrants at a table; the file has 3"),
        (
            "ursuppe",
            ["--format", "swiss"],
            "swiss pairs entrants head to head: it needs a table of 2 seats (this one has 3)",
        ),
    ],
)
def test_a_contest_the_game_cannot_hold_is_refused(
    entrants: Path,
    tmp_path: Path,
    game: str,
    extra: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = [
        "contest",
        "run",
        "--game",
        game,
        "--entrants",
        str(entrants),
        "--out",
        str(tmp_path / "out"),
        *extra,
    ]
    code, err = run(argv, capsys)
    assert (code, err) == (2, f"gamehall contest: {message}\n")
    assert not (tmp_path / "out").exists()


def test_a_broken_entrants_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[[entrant]]\nname = "9lives"\n')
    code, err = run(["contest", "run", "--game", "mrjack", "--entrants", str(bad)], capsys)
    assert code == 2 and err.startswith(f"gamehall contest: {bad}: entrant 1: name '9lives'")


def test_an_out_directory_that_holds_a_contest_is_not_overwritten(
    entrants: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "games.jsonl").write_text("")
    code, err = run(
        ["contest", "run", "--game", "mrjack", "--entrants", str(entrants), "--out", str(tmp_path)], capsys
    )
    assert (code, err) == (2, f"gamehall contest: {tmp_path} already holds a contest; choose another --out\n")

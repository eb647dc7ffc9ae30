"""The entrants file: what is accepted, and what is refused with a message that says where."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamehall.contest.entrants import EntrantsError, Limits, load_entrants, parse_entrants, substitute
from gamehall.contest.ports import Deadlines

GOOD = """
[contest]
title = "Spring cup"
seats = 3
[contest.deadlines]
soft_s = 5
hard_s = 20.5
[contest.config]
time_per_turn = 60
[contest.limits]
cpu_s = 30

[[entrant]]
name = "alice"
grade = 3
command = ["python3", "alice.py", "{host}", "{port}", "{name}"]

[[entrant]]
name = "bob"
"""


def test_a_full_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "entrants.toml"
    path.write_text(GOOD)
    file = load_entrants(path)
    alice, bob = file.entrants
    assert (alice.name, alice.grade, alice.started) == ("alice", 3, True)
    assert (bob.name, bob.grade, bob.command) == ("bob", None, None)
    assert file.title == "Spring cup" and file.seats == 3 and file.config == {"time_per_turn": 60}
    assert file.limits == Limits(cpu_s=30, memory_mb=1024)
    assert file.deadlines_over(Deadlines(2, 10)) == Deadlines(soft_s=5.0, hard_s=20.5)


def test_placeholders_are_replaced_in_every_argument() -> None:
    argv = substitute(
        ["bot", "--at={host}:{port}", "{name}", "{other}"], {"host": "h", "port": "1", "name": "n"}
    )
    assert argv == ["bot", "--at=h:1", "n", "{other}"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no \\[\\[entrant\\]\\]"),
        ('[[entrant]]\nname = "a b"', "name 'a b'"),
        ('[[entrant]]\nname = "averyverylongname"', "at most 10"),
        ('[[entrant]]\nname = "a"\n[[entrant]]\nname = "A"', "must differ"),
        ('[[entrant]]\nname = "a"\ncommand = "python bot.py"', "command must be a non-empty list"),
        ('[[entrant]]\nname = "a"\ngrade = "high"', "grade must be a whole number"),
        ('[[entrant]]\nname = "a"\ncolour = 1', "unknown key\\(s\\) colour"),
        ('[contest.deadlines]\nsoft_s = -1\n[[entrant]]\nname = "a"', "soft_s must be a positive"),
        ('[contest.deadlines]\nsoft_s = 9\nhard_s = 3\n[[entrant]]\nname = "a"', "not be above hard_s"),
        ('[contest.limits]\nmemory_mb = 0.5\n[[entrant]]\nname = "a"', "memory_mb must be a positive"),
        ('[contest]\nrounds = 3\n[[entrant]]\nname = "a"', "unknown key\\(s\\) rounds"),
    ],
)
def test_bad_files_are_refused_with_the_place(text: str, message: str) -> None:
    import tomllib

    with pytest.raises(EntrantsError, match=message):
        parse_entrants(tomllib.loads(text))


def test_a_missing_or_broken_file_names_itself(tmp_path: Path) -> None:
    with pytest.raises(EntrantsError, match=r"nothing\.toml: cannot read"):
        load_entrants(tmp_path / "nothing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("[[entrant]\n")
    with pytest.raises(EntrantsError, match=r"broken\.toml: not TOML"):
        load_entrants(broken)

"""Scrabble and Boggle over the JDuplicate dialogue (note §8.4, §8.5; checklist 10, 12)."""

from __future__ import annotations

from jduplicate_dialogue_support import V10, JdClient, JdHarness

from gamehall.protocols.jduplicate import messages as m
from gamehall.rules.words.boggle import BoggleTable
from gamehall.rules.words.scrabble import ScrabbleTable


def seated(code: str, harness: JdHarness | None = None) -> tuple[JdHarness, JdClient, JdClient]:
    harness = harness or JdHarness()
    ams = harness.user("ams")
    jim = harness.user("jim", V10)
    ams.send(m.CreateGameRequest("g", 60, code, 4, ""))
    jim.send(m.JoinGameRequest("g"))
    ams.send(m.StartGameRequest())
    return harness, ams, jim


def test_scrabble_turns_errors_and_six_passes() -> None:
    harness, ams, jim = seated("ScrEN")
    lines = ams.take()
    assert "STARTOFTURN|1#60#ams" in lines
    assert [line for line in lines if line.startswith("HAND")] != []  # ams's own rack only
    table = harness.table()
    assert isinstance(table, ScrabbleTable)
    jim.send(m.Moves(()))
    assert jim.take()[-1] == "ERROR|60003#"
    rack = [t for t in table.racks[0] if t != "?"]
    not_a_word = m.Moves((m.Tile(8, "H", rack[0]), m.Tile(9, "H", rack[1])))
    ams.send(not_a_word)
    missing = next(letter for letter in "ZQXJKVWY" if letter not in table.racks[0])
    ams.send(m.ChangeLetters((missing,)))
    assert ams.take() == [f"ERROR|60108#{rack[0]}{rack[1]}", f"ERROR|60203#{missing}"]
    late = harness.user("late")
    late.send(m.JoinGameRequest("g"))  # no seat after the start (note §5)
    assert late.take() == ["ERROR|40005#g"]
    for player in (ams, jim, ams, jim, ams, jim):
        player.send(m.Moves(()))
        harness.advance(5)  # the pause between turns
    end = [line for line in ams.take() if line.startswith("ENDOFGAME")]
    assert len(end) == 1 and end[0].startswith("ENDOFGAME|g#passes#0#")


def test_changeletters_is_60201_outside_scrabble() -> None:
    _harness, ams, _ = seated("BogEN")
    ams.take()
    ams.send(m.ChangeLetters(("A",)))
    assert ams.take() == ["ERROR|60201#"]


def test_boggle_round_results_waiting_and_the_manual_start() -> None:
    harness, ams, jim = seated("BogEN")
    lines = ams.take()
    assert lines[-2].startswith("STARTOFTURN|1#60#")
    assert lines[-1].startswith("BOARD|1&A&") and lines[-1].count("#") == 16
    table = harness.table()
    assert isinstance(table, BoggleTable)
    grid = table.grid
    a1, b1, c1, a2 = grid[0][0], grid[0][1], grid[0][2], grid[1][0]
    wrong = "Z" if a1 != "Z" else "Y"
    ams.send(m.Moves((m.Tile(1, "A", a1), m.Tile(3, "A", c1))))
    ams.send(m.Moves((m.Tile(1, "A", a1), m.Tile(2, "A", b1), m.Tile(1, "A", a1))))
    ams.send(m.Moves((m.Tile(1, "A", wrong),)))
    ams.send(m.Moves((m.Tile(1, "A", a1), m.Tile(2, "A", b1))))
    ams.send(m.Moves((m.Tile(5, "A", a1),)))
    ams.send(m.StartTurnRequest())
    jim.send(m.StartTurnRequest())
    assert ams.take() == [
        "ERROR|60301#3&A",
        "ERROR|60302#1&A",
        "ERROR|60303#1&A",
        "ERROR|60304#" + a1 + b1 if a1 != "Q" else "ERROR|60304#QU" + b1,
        "ERROR|60101#5&A",
        "ERROR|50201#",
    ]
    assert jim.take()[-1] == "ERROR|50001#"
    word = m.Moves((m.Tile(1, "A", a1), m.Tile(2, "A", b1), m.Tile(1, "B", a2)))
    ams.send(word, word)
    assert ams.take()[-1].startswith("ERROR|60305#")
    harness.advance(60)
    assert ams.take() == ["MOVESREQUEST|1#5"]
    harness.advance(5)
    lines = ams.take()
    assert [line.split("|")[0] for line in lines] == [
        "ENDOFTURN",
        "WORDRESULTS",
        "WORDRESULTS",
        "SCORES",
        "WAITINGFORSTARTTURN",
        "GAMEINFOS",
    ][: len(lines)]
    assert lines[4] == "WAITINGFORSTARTTURN|2"
    assert lines[1].startswith("WORDRESULTS|1#ams#") and lines[2] == "WORDRESULTS|1#jim#"
    ams.send(m.StartTurnRequest())
    opened = ams.take()
    assert opened[0] == "STARTOFTURN|2#60#" and opened[1].startswith("BOARD|1&A&")
    assert jim.take()[-3:-1] == opened[:2]

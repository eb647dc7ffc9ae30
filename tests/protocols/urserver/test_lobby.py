"""The lobby of the UrServer (note 5.1, acceptance items 1-8): VERSION, PING, NEU, LISTE,
TEILNEHMEN, ZUSCHAUEN, STATUS, and the sequences' errors."""

from __future__ import annotations

import pytest
from urserver_support import UrHarness

from gamehall.protocols.urserver.lobby import MAX_GAMES
from gamehall.protocols.urserver.texts import fehler_line


@pytest.fixture(params=[False, True], ids=["whole", "bytewise"])
def harness(request: pytest.FixtureRequest) -> UrHarness:
    return UrHarness(bytewise=request.param)


def test_nothing_before_the_first_line_then_version_and_ping(harness: UrHarness) -> None:
    client = harness.connect("c")
    assert client.take() == []
    assert client.ask("VERSION") == ["VERSION 1.13"]
    assert client.ask("PING") == ["PONG"]
    assert client.ask("ping") == ["PONG"]  # keywords are case-insensitive


@pytest.mark.parametrize("raw", [b"PING\r\n", b"PING\r", b"\xff\xfd\x01PING\n"])
def test_every_line_end_and_a_telnet_negotiation_give_one_pong(harness: UrHarness, raw: bytes) -> None:
    client = harness.connect("c")
    client.send_raw(raw)
    assert client.take() == ["PONG"]
    assert client.wire.writes == [b"PONG\n"]


def test_neu_with_a_wrong_player_count_keeps_the_connection(harness: UrHarness) -> None:
    client = harness.connect("c")
    assert client.ask("NEU 5") == ["FEHLER 4 Die Anzahl der Spielerinnen liegt nicht zwischen 3 und 4"]
    assert client.ask("PING") == ["PONG"]
    assert client.ask("NEU x") == [fehler_line(14)]
    assert client.ask("NEU") == [fehler_line(21)]
    assert not client.closed


def test_neu_registers_a_game_that_liste_shows(harness: UrHarness) -> None:
    client = harness.connect("c")
    assert client.ask("NEU 3", "NAME soup1", "PASSWORT geheim", "TIMEOUT 5000") == ["SPIEL_ANGEMELDET soup1"]
    assert client.ask("LISTE") == ["SPIELE 1", "SPIEL soup1 0 0 0 3"]
    assert client.ask("NEU 4", "NAME soup2", "PASSWORT", "TIMEOUT 0") == ["SPIEL_ANGEMELDET soup2"]
    assert client.ask("LISTE") == ["SPIELE 2", "SPIEL soup1 0 0 0 3", "SPIEL soup2 1 0 0 4"]


def test_sequence_errors_abort_the_sequence(harness: UrHarness) -> None:
    client = harness.new_game()
    assert client.ask("NEU 3", "NAME bad-name") == [fehler_line(13)]
    assert client.ask("PASSWORT x") == [fehler_line(30)]  # the sequence is over: back in the lobby
    assert client.ask("NEU 3", "NAME soup1") == [fehler_line(16)]
    assert client.ask("NEU 3", "PING") == [fehler_line(13)]
    assert client.ask("NEU 3", "NAME a b") == [fehler_line(21)]
    assert client.ask("NEU 3", "NAME ok", "PASSWORT a-b") == [fehler_line(13)]
    assert client.ask("NEU 3", "NAME ok", "PASSWORT", "TIMEOUT 50") == [fehler_line(22)]
    assert client.ask("NEU 3", "NAME ok", "PASSWORT", "TIMEOUT soon") == [fehler_line(14)]
    assert client.ask("LISTE")[0] == "SPIELE 1"


def test_names_are_cut_after_15_characters(harness: UrHarness) -> None:
    client = harness.connect("c")
    assert client.ask("NEU 3", "NAME abcdefghijklmnopq", "PASSWORT", "TIMEOUT 100") == [
        "SPIEL_ANGEMELDET abcdefghijklmno"
    ]


def test_the_game_limit_gives_15(harness: UrHarness) -> None:
    client = harness.connect("c")
    for number in range(MAX_GAMES):
        client.send("NEU 3", f"NAME g{number}", "PASSWORT", "TIMEOUT 0")
    client.take()
    assert client.ask("NEU 3") == [fehler_line(15)]


def test_joining_errors(harness: UrHarness) -> None:
    harness.new_game(password="geheim")
    client = harness.connect("x")
    assert client.ask("TEILNEHMEN soup1", "PASSWORT falsch") == [fehler_line(8)]
    assert client.ask("TEILNEHMEN nosoup") == [fehler_line(27)]
    assert client.ask("TEILNEHMEN soup1", "NAME anna") == [fehler_line(13)]
    for name in ("anna", "bert"):
        harness.join(name, password="geheim")
    assert client.ask("TEILNEHMEN soup1", "PASSWORT geheim", "NAME anna") == [fehler_line(16)]
    harness.join("cleo", password="geheim")
    assert client.ask("TEILNEHMEN soup1") == [fehler_line(28)]  # a fourth joiner of a 3p game


def test_the_third_join_starts_the_game(harness: UrHarness) -> None:
    harness.new_game()
    anna, bert = harness.join("anna"), harness.join("bert")
    assert anna.take() == ["SPIELERIN_AKZEPTIERT 0 anna", "SPIELERIN_ANGEMELDET 1 bert"]
    assert bert.take() == ["SPIELERIN_AKZEPTIERT 1 bert"]
    cleo = harness.join("cleo")
    expected_start = [
        "SPIEL_BEGINNT",
        "SPIELFELD 5 5",
        "FELDCHEN 0 0 UNGUELTIG",
        *(f"FELDCHEN {x} 0 -:2 -:2 -:2" for x in range(1, 5)),
    ]
    for client, first in (
        (anna, "SPIELERIN_ANGEMELDET"),
        (bert, "SPIELERIN_ANGEMELDET"),
        (cleo, "SPIELERIN_AKZEPTIERT"),
    ):
        lines = client.take()
        assert lines[0] == f"{first} 2 cleo"
        assert lines[1:8] == expected_start
        board = lines[3 : lines.index("SPIELFELD_ENDE")]
        assert len(board) == 25
        assert sum(line.endswith("UNGUELTIG") for line in board) == 6
        assert "FELDCHEN 2 2 UNGUELTIG" in board
        status = lines[lines.index("SPIELFELD_ENDE") + 1 :]
        assert status[:9] == [
            "STATUS soup1",
            "TIMEOUT 5000",
            "ANZAHL_SPIELERINNEN 3 3",
            "ANZAHL_NAEHRSTOFFE 55",
            "ANZAHL_AMOEBEN 7",
            "LAENGE_LAUFBAHN 50",
            "LAENGE_ZIELZONE 10",
            "UMWELTKARTE 2 10",
            "SPIELERIN 0",
        ]
        assert status[9:15] == ["NAME anna", "PUNKTE -1", "BIOPUNKTE 4", "AMOEBEN 0", "GENE 0", "SPIELERIN 1"]
        assert status[-2:] == ["STATUS_ENDE soup1", "ZUG_BEREIT"]


def test_a_spectator_gets_status_then_board_and_the_others_are_told(harness: UrHarness) -> None:
    harness.new_game(password="geheim")
    anna = harness.join("anna", password="geheim")
    anna.take()
    eve = harness.connect("eve")
    lines = eve.ask("ZUSCHAUEN soup1", "NAME eve")
    assert lines[0] == "STATUS soup1"
    assert lines[lines.index("STATUS_ENDE soup1") + 1] == "SPIELFELD 5 5"
    assert lines[-1] == "SPIELFELD_ENDE"
    assert "NAME anna" in lines
    assert [line for line in lines if line.startswith("ZUSCHAUERIN ")] == ["ZUSCHAUERIN eve"]  # herself too
    assert anna.take() == ["ZUSCHAUERIN_ANGEMELDET eve"]
    tom = harness.connect("tom")
    block = tom.ask("ZUSCHAUEN soup1", "NAME tom")
    assert [line for line in block if line.startswith("ZUSCHAUERIN ")] == [
        "ZUSCHAUERIN eve",
        "ZUSCHAUERIN tom",
    ]
    assert eve.take() == ["ZUSCHAUERIN_ANGEMELDET tom"]
    assert anna.take() == ["ZUSCHAUERIN_ANGEMELDET tom"]
    assert harness.connect("x").ask("ZUSCHAUEN soup1", "NAME eve") == [fehler_line(16)]
    assert harness.connect("y").ask("ZUSCHAUEN nosoup") == [fehler_line(27)]
    assert tom.ask("ABMELDEN") == []
    assert tom.closed
    assert anna.take() == ["ZUSCHAUERIN_ABGEMELDET tom"]
    assert eve.take() == ["ZUSCHAUERIN_ABGEMELDET tom"]


def test_status_in_the_lobby(harness: UrHarness) -> None:
    harness.new_game()
    client = harness.connect("c")
    lines = client.ask("STATUS soup1")
    assert lines[0] == "STATUS soup1" and lines[-1] == "STATUS_ENDE soup1"
    assert lines[2] == "ANZAHL_SPIELERINNEN 0 3"
    assert lines[8:11] == ["SPIELERIN 0", "SPIELERIN 1", "SPIELERIN 2"]
    assert client.ask("STATUS nosoup") == [fehler_line(27)]
    assert client.ask("STATUS") == [fehler_line(21)]
    assert client.ask("SPIELFELD") == [fehler_line(30)]
    assert client.ask("FOO") == [fehler_line(30)]


def test_abmelden_in_the_lobby_closes_without_a_reply(harness: UrHarness) -> None:
    client = harness.connect("c")
    assert client.ask("ABMELDEN") == []
    assert client.closed


def test_a_game_left_by_everybody_before_the_start_stays_listed_and_opens_anew(harness: UrHarness) -> None:
    harness.new_game()
    anna = harness.join("anna")
    anna.send("ABMELDEN")
    client = harness.connect("c")
    assert client.ask("LISTE") == ["SPIELE 1", "SPIEL soup1 1 0 0 3"]
    bert = harness.join("bert")
    assert bert.take() == ["SPIELERIN_AKZEPTIERT 0 bert"]
    harness.advance(1800)
    assert client.ask("LISTE") == ["SPIELE 1", "SPIEL soup1 1 0 1 3"]
    bert.send("ABMELDEN")
    harness.advance(1799)
    assert client.ask("LISTE")[0] == "SPIELE 1"
    harness.advance(2)
    assert client.ask("LISTE") == ["SPIELE 0"]


def test_a_player_leaving_before_the_start_frees_the_seat(harness: UrHarness) -> None:
    harness.new_game()
    anna, bert = harness.join("anna"), harness.join("bert")
    anna.take()
    bert.send("ABMELDEN")
    assert anna.take() == ["SPIELERIN_ABGEMELDET 1"]
    cleo = harness.join("cleo")
    assert cleo.take() == ["SPIELERIN_AKZEPTIERT 1 cleo"]
    assert anna.take() == ["SPIELERIN_ANGEMELDET 1 cleo"]


def test_lobby_commands_inside_a_game(harness: UrHarness) -> None:
    harness.new_game()
    anna = harness.join("anna")
    anna.take()
    assert anna.ask("NEU 3") == [fehler_line(13)]
    assert anna.ask("TEILNEHMEN soup1") == [fehler_line(13)]
    assert anna.ask("LISTE") == ["SPIELE 1", "SPIEL soup1 1 0 1 3"]
    assert anna.ask("VERSION") == ["VERSION 1.13"]
    assert anna.ask("STATUS soup1") == [fehler_line(21)]
    assert anna.ask("BEREIT") == [fehler_line(26)]  # a game command before the start
    assert anna.ask("UMWELTKARTE") == ["UMWELTKARTE 2 10"]
    assert anna.ask("GEN_ANZAHL 12") == ["GEN_ANZAHL 12 0"]
    assert anna.ask("GEN_ANZAHL 3") == ["GEN_ANZAHL 3 1"]
    assert anna.ask("GEN_ANZAHL 20") == [fehler_line(22)]
    assert anna.ask("GEN_ANZAHL") == [fehler_line(21)]
    assert anna.ask("GEN_ANZAHL x") == [fehler_line(14)]
    spielfeld2 = anna.ask("SPIELFELD2")
    assert spielfeld2[0] == "SPIELFELD2 5 5" and spielfeld2[-1] == "SPIELFELD_ENDE"
    assert spielfeld2[1] == "(UNGUELTIG) (0:2 0:2 0:2) (0:2 0:2 0:2) (0:2 0:2 0:2) (0:2 0:2 0:2)"
    telnet = anna.ask("TELNET_STATUS")
    assert telnet[0] == "TELNET_STATUS soup1" and telnet[-1] == "TELNET_STATUS_ENDE"

"""JDuplicate dialogue edges: requests outside a game, refused moves that change nothing, a
kicked player in a running game, scores kept by name for a rejoiner, oversize output (checklist
16) and the server's shutdown."""

from __future__ import annotations

import string

from jduplicate_dialogue_support import V10, JdHarness, frame

from gamehall.protocols.jduplicate import messages as m
from gamehall.rules.words.duplicate import DuplicateTable
from gamehall.rules.words.lexicon import Lexicon
from gamehall.rules.words.scrabble import ScrabbleTable

EVERY_PAIR = Lexicon.from_words(a + b for a in string.ascii_uppercase for b in string.ascii_uppercase)
BISE_H8 = m.Moves(
    (m.Tile(8, "H", "B"), m.Tile(9, "H", "I"), m.Tile(10, "H", "S"), m.Tile(11, "H", "E", True))
)


def test_game_requests_outside_a_game() -> None:
    harness = JdHarness()
    ams = harness.user("ams")
    ams.send(BISE_H8, m.ChangeLetters(("A",)), m.StartGameRequest(), m.StartTurnRequest())
    ams.send(m.BoardTypeRequest(), m.KickRequest("jim", ""), m.LeaveGameRequest(""))
    ams.send(m.JoinGameRequest("nowhere"), m.JoinGameRequest(" "))
    assert ams.take() == [
        "ERROR|60001#",
        "ERROR|60001#",
        "ERROR|50002#",
        "ERROR|50002#",
        "ERROR|50002#",
        "ERROR|50002#",
        "ERROR|50002#",
        "ERROR|40002#nowhere",
        "ERROR|40001#",
    ]


def test_refused_moves_change_nothing_and_a_valid_one_is_recorded() -> None:
    harness = JdHarness(bags=["BIS?RTU"])
    ams = harness.user("ams")
    ams.send(m.CreateGameRequest("g", 120, "DupEN", 8, ""), m.StartGameRequest())
    ams.take()
    table = harness.table()
    assert isinstance(table, DuplicateTable)
    rack, bag = table.rack, list(table.bag)
    ams.send(m.Moves((m.Tile(1, "A", "B"), m.Tile(2, "A", "I"))), m.Moves((m.Tile(8, "H", "Q"),)))
    assert ams.take() == ["ERROR|60106#", "ERROR|60103#Q"]
    assert table.submissions == {} and table.rack == rack and table.bag == bag
    assert table.board.is_empty
    ams.send(BISE_H8)
    assert list(table.submissions) == [0]


def test_scrabble_not_connected_after_the_first_move() -> None:
    harness = JdHarness()
    ams = harness.user("ams")
    ams.send(m.CreateGameRequest("g", 60, "ScrEN", 1, ""), m.StartGameRequest())
    table = harness.table()
    assert isinstance(table, ScrabbleTable)
    table.board = table.board.from_rows(["." * 15] * 7 + ["....CAT........"] + ["." * 15] * 7)
    ams.take()
    letters = [t for t in table.racks[0] if t != "?"]
    ams.send(m.Moves((m.Tile(1, "A", letters[0]), m.Tile(2, "A", letters[1]))))
    assert ams.take() == ["ERROR|60106#"]


def test_a_kicked_player_in_a_running_game_and_a_rejoiner_keeps_their_total() -> None:
    harness = JdHarness(lexicon=EVERY_PAIR)  # a move always exists: the game runs on
    ams = harness.user("ams")
    jim = harness.user("jim", V10)
    luc = harness.user("luc")
    ams.send(m.CreateGameRequest("g", 120, "DupEN", 8, ""))
    jim.send(m.JoinGameRequest("g"))
    luc.send(m.JoinGameRequest("g"))
    ams.send(m.StartGameRequest())
    harness.take_all()
    ams.send(m.KickRequest("jim", "bye"))
    assert jim.take()[:2] == ["KICK|jim#ams#bye", "HALLUSERLIST|jim#"]
    assert luc.take()[0] == "KICK|jim#ams#bye"
    table = harness.table()
    table.players[2].total = 42  # luc's total, as if earned
    luc.send(m.LeaveGameRequest(""))
    luc.send(m.JoinGameRequest("g"))
    scores = [line for line in luc.take() if line.startswith("SCORES")]
    assert scores and "luc~42~" in scores[0]


def test_an_oversize_message_is_never_written_and_99999_goes_instead() -> None:
    harness = JdHarness()
    ams = harness.user("ams")
    ams.dialogue.send(m.WelcomeMessage("é" * 40000))
    assert ams.take() == ["ERROR|99999#message too long"]
    assert all(len(data) <= 65537 for data in ams.wire.writes)


def test_shutdown_sends_the_service_message_and_closes() -> None:
    harness = JdHarness()
    ams = harness.user("ams")
    ams.send(m.CreateGameRequest("g", 120, "DupEN", 8, ""))
    ams.take()
    harness.hall.shutdown("Server restarts in 5 minutes")
    harness.settle()
    assert ams.take() == ["SERVICEMESSAGE|Server restarts in 5 minutes"]
    assert ams.closed


def test_an_empty_moves_in_duplicate_withdraws_the_submission() -> None:
    harness = JdHarness(bags=["BIS?RTU"])
    ams = harness.user("ams")
    ams.send(m.CreateGameRequest("g", 120, "DupEN", 8, ""), m.StartGameRequest(), BISE_H8)
    ams.send_raw(frame("MOVES|"))
    harness.advance(125)
    assert "ENDOFTURN|1#H5#BISe#10#5~H~B&6~H~I&7~H~S&8~H~e&#ams~-~-~0~none&" in ams.take()


class _Browser:
    """A listener of another protocol (what the web dialogue would be), receiving nothing here."""

    def deliver(self, room_id: str, delivery: object) -> None:
        pass

    def hall_event(self, event: object) -> None:
        pass

    def ended(self, room_id: str, reason: object, text: str) -> None:
        pass

    def disconnect(self, reason: object, text: str) -> None:
        pass


def test_a_player_of_another_protocol_at_a_jduplicate_table() -> None:
    harness = JdHarness()
    ams = harness.user("ams")
    bob = harness.user("bob")
    ams.send(m.CreateGameRequest("g", 120, "DupEN", 8, ""))
    harness.take_all()
    web = harness.hall.login("wendy", _Browser(), protocol="web")
    room_id = harness.hall.rooms("words")[0].room_id
    web.join(room_id)
    harness.settle()
    infos = "GAMEINFOS|g#ams#120#0#duplicate##8#WAITING#0#english#ams&wendy&"
    assert ams.take() == ["PLAYERJOINED|wendy", infos]
    assert bob.take() == ["HNPLAYERJOINED|wendy#g", infos]
    ams.send(m.KickRequest("wendy", "wrong table"))
    assert ams.take() == [
        "KICK|wendy#ams#wrong table",
        "GAMEINFOS|g#ams#120#0#duplicate##8#WAITING#0#english#ams&",
    ]
    assert bob.take()[0] == "HNPLAYERLEFT|wendy#g"


def test_a_browser_table_is_listed_and_joinable() -> None:
    harness = JdHarness()
    web = harness.hall.login("wendy", _Browser(), protocol="web")
    info = web.create_room("words", {"preset": "ScrEN", "max_players": 2}, title="Web table")
    web.join(info.room_id)
    web.create_room("words", {"preset": "DupEN"}, title="Web table")  # same title: listed by room id
    ams = harness.connect("ams")
    ams.login()
    lines = ams.take()
    listed = next(line for line in lines if line.startswith("SERVERGAMELIST|"))
    assert listed.startswith("SERVERGAMELIST|Web table#words-")
    assert "GAMEINFOS|Web table#wendy#120#0#scrabble##2#WAITING#0#english#wendy&" in lines
    ams.send(m.JoinGameRequest("Web table"))
    assert ams.take()[:2] == [
        "PLAYERJOINED|ams",
        "GAMEINFOS|Web table#wendy#120#0#scrabble##2#WAITING#0#english#wendy&ams&",
    ]

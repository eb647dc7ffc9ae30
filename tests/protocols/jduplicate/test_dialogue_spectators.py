"""Watching a JDuplicate game (issue 5: spectators; the dialogue's Decision (ours)).

The note has no spectator message, so a JOINGAMEREQUEST that cannot be seated (the game runs
and forbids late joining, or it is full) makes the user a watcher: a hall spectator who gets
what everyone may see (board, STARTOFTURN, ENDOFTURN, SCORES, ENDOFGAME, the shared duplicate
HAND, boggle WORDRESULTS once the round is over) and never a scrabble rack nor a boggle word
before the round ends. Players are not told about watchers; a watcher cannot play (60001).
"""

from __future__ import annotations

from jduplicate_dialogue_support import V10, JdClient, JdHarness

from gamehall.protocols._core import CloseReason, Delivery
from gamehall.protocols.jduplicate import messages as m
from gamehall.rules._core import Event
from gamehall.rules.words import Moves
from gamehall.rules.words.boggle import BoggleTable

BISE_H8 = m.Moves(
    (m.Tile(8, "H", "B"), m.Tile(9, "H", "I"), m.Tile(10, "H", "S"), m.Tile(11, "H", "E", True))
)
ENDOFTURN_1 = "ENDOFTURN|1#H5#BISe#10#5~H~B&6~H~I&7~H~S&8~H~e&#ams~H8~BISe~10~ok&jim~-~-~0~none&"


class Browser:
    """A web player's listener (the browser dialogue), recording what its seat receives."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def deliver(self, room_id: str, delivery: Delivery) -> None:
        self.events.append(delivery.event)

    def hall_event(self, event: Event) -> None:
        pass

    def ended(self, room_id: str, reason: CloseReason, text: str) -> None:
        pass

    def disconnect(self, reason: CloseReason, text: str) -> None:
        pass


def full_table(code: str, harness: JdHarness) -> tuple[JdClient, JdClient, JdClient]:
    """ams and jim fill a two-player game ``g`` of ``code`` and start it; eve is in the hall."""
    ams = harness.user("ams")
    jim = harness.user("jim", V10)
    eve = harness.user("eve", V10)
    ams.send(m.CreateGameRequest("g", 120, code, 2, ""))
    jim.send(m.JoinGameRequest("g"))
    ams.send(m.StartGameRequest())
    harness.take_all()
    return ams, jim, eve


def test_a_full_running_duplicate_game_is_watched_with_the_shared_hand_and_no_movesrequest() -> None:
    harness = JdHarness(bags=["BIS?RTU"])
    ams, jim, eve = full_table("DupEN", harness)
    eve.send(m.JoinGameRequest("g"))
    lines = eve.take()
    assert lines[:2] == ["PLAYERJOINED|eve", "GAMEINFOS|g#ams#120#120#duplicate##2#INGAME#1#english#ams&jim&"]
    assert [line.split("|")[0] for line in lines[2:5]] == ["LETTERSET", "BOARDTYPE", "BOARD"]
    assert lines[5:] == ["SCORES|1#0#ams~0~0&jim~0~0&", "STARTOFTURN|1#120#", "HAND|1#0#0#S&I&T&B&*&R&U&"]
    assert ams.take() == [] and jim.take() == []  # the players are not told of a watcher
    ams.send(BISE_H8)
    harness.advance(120)
    assert jim.take() == ["MOVESREQUEST|1#5"]
    assert eve.take() == []  # a watcher owes no move
    harness.advance(5)
    assert eve.take() == ams.take() == [ENDOFTURN_1, "SCORES|1#10#ams~10~10&jim~0~0&"]
    harness.advance(5)  # the bag is empty: the game ends
    end = [
        "ENDOFGAME|g#bag#10#ams~10&jim~0&",
        "GAMEINFOS|g#ams#120#0#duplicate##2#GAMEOVER#1#english#ams&jim&",
    ]
    assert eve.take() == end


def test_a_watcher_cannot_play_start_or_be_kicked_but_may_chat() -> None:
    harness = JdHarness(bags=["BIS?RTU"])
    ams, jim, eve = full_table("DupEN", harness)
    eve.send(m.JoinGameRequest("g"))
    eve.take()
    eve.send(BISE_H8, m.ChangeLetters(("B",)), m.StartGameRequest(), m.KickRequest("jim", ""))
    assert eve.take() == ["ERROR|60001#", "ERROR|60001#", "ERROR|50001#", "ERROR|50001#"]
    eve.send(m.JoinGameRequest("g"))
    assert eve.take() == ["ERROR|40004#"]
    ams.send(m.KickRequest("eve", "out"))
    assert ams.take() == ["ERROR|50102#eve"]
    eve.send(m.ChatRequest("nice move"))
    assert ams.take() == jim.take() == eve.take() == ["CHAT|eve#nice move"]
    harness.advance(125)
    assert "ams~-~-~0~none&jim~-~-~0~none&" in eve.take()[0]  # eve's MOVES counted for nobody


def test_leaving_a_watched_game_tells_the_watcher_alone_and_ends_its_messages() -> None:
    harness = JdHarness(bags=["BIS?RTU"])
    ams, jim, eve = full_table("DupEN", harness)
    eve.send(m.JoinGameRequest("g"))
    eve.take()
    eve.send(m.LeaveGameRequest("enough"))
    assert eve.take() == ["PLAYERLEFT|eve#enough", "HALLUSERLIST|eve#"]
    assert ams.take() == [] and jim.take() == []
    harness.advance(125)
    assert eve.take() == []
    assert ams.tokens() == ["MOVESREQUEST", "ENDOFTURN", "SCORES"]


def test_a_watcher_of_scrabble_never_sees_a_rack_and_is_back_in_the_hall_when_the_game_goes() -> None:
    harness = JdHarness()
    ams, jim, eve = full_table("ScrEN", harness)
    eve.send(m.JoinGameRequest("g"))
    lines = eve.take()
    assert lines[0] == "PLAYERJOINED|eve" and lines[-2:] == [
        "SCORES|1#0#ams~0~0&jim~0~0&",
        "STARTOFTURN|1#120#ams",
    ]
    seen: list[str] = []
    for player in (ams, jim, ams, jim, ams, jim):  # six passes end the game
        player.send(m.Moves(()))
        harness.advance(5)
        seen += eve.take()
    assert not any(line.startswith("HAND|") for line in lines + seen)
    assert "STARTOFTURN|2#120#jim" in seen
    assert any(line.startswith("ENDOFGAME|g#passes#0#") for line in seen)
    ams.send(m.LeaveGameRequest(""))
    jim.send(m.LeaveGameRequest(""))
    assert eve.take()[-2:] == ["GAMEENDED|g", "HALLUSERLIST|ams#eve#jim#"]
    eve.send(m.ChatRequest("back"))
    assert ams.take()[-1] == "CHAT|eve#back"  # eve chats in the hall again


def test_a_boggle_watcher_sees_no_word_before_the_round_ends() -> None:
    harness = JdHarness()
    ams, _jim, eve = full_table("BogEN", harness)
    eve.send(m.JoinGameRequest("g"))
    lines = eve.take()
    assert lines[-2].startswith("SCORES|1#0#") and lines[-1] == "STARTOFTURN|1#120#"
    table = harness.table()
    assert isinstance(table, BoggleTable)
    assert lines[4] == "BOARD|" + "".join(
        f"{x}&{'ABCD'[y]}&{table.grid[y][x - 1]}#" for y in range(4) for x in range(1, 5)
    )
    path = m.Moves(tuple(m.Tile(x, "A", table.grid[0][x - 1]) for x in (1, 2, 3)))
    ams.send(path)
    assert ams.take() == [] and eve.take() == []
    eve.send(m.StartTurnRequest())
    assert eve.take() == ["ERROR|50001#"]
    harness.advance(125)
    closing = eve.take()
    assert [line for line in ams.take() if not line.startswith("MOVESREQUEST|")] == closing
    assert [line.split("|")[0] for line in closing] == [
        "ENDOFTURN",
        "WORDRESULTS",
        "WORDRESULTS",
        "SCORES",
        "WAITINGFORSTARTTURN",
    ]
    assert closing[1].startswith(f"WORDRESULTS|1#ams#{''.join(table.grid[0][:3])}~")


def test_a_browser_game_that_forbids_late_joining_is_watched_and_a_password_game_is_hidden() -> None:
    harness = JdHarness(bags=["BIS?RTU"])
    wendy = Browser()
    web = harness.hall.login("wendy", wendy, protocol="web")
    info = web.create_room("words", {"preset": "DupEN", "join_after_start": False}, title="Web table")
    web.join(info.room_id)
    web.start(info.room_id)
    web.create_room("words", {"preset": "DupEN"}, password="secret", title="Locked")
    eve = harness.connect("eve")
    eve.login()
    assert "SERVERGAMELIST|Web table#" in eve.take()  # "Locked" is not listed
    eve.send(m.JoinGameRequest("Locked"))
    assert eve.take() == ["ERROR|40002#Locked"]
    eve.send(m.JoinGameRequest("Web table"))
    lines = eve.take()
    assert lines[:2] == [
        "PLAYERJOINED|eve",
        "GAMEINFOS|Web table#wendy#120#120#duplicate##8#INGAME#1#english#wendy&",
    ]
    assert lines[-1] == "HAND|1#0#0#S&I&T&B&*&R&U&"
    web.act(info.room_id, Moves(((7, 7, "B"), (7, 8, "I"), (7, 9, "S"), (7, 10, "e"))))
    assert eve.take() == []  # a submission is the submitter's own
    harness.advance(120)  # nobody owes a move: no grace
    turn = eve.take()
    assert turn[0].startswith("ENDOFTURN|1#H5#BISe#10#") and turn[0].endswith("#wendy~H8~BISe~10~ok&")
    assert turn[1:] == ["SCORES|1#10#wendy~10~10&"]
    harness.advance(5)
    end = eve.take()
    assert end[0] == "ENDOFGAME|Web table#bag#10#wendy~10&"
    assert end[-2:] == ["GAMEENDED|Web table", "HALLUSERLIST|eve#"]  # no player left: the game goes


def test_a_watcher_whose_socket_is_lost_stops_watching_and_the_players_hear_only_of_the_disconnection() -> (
    None
):
    harness = JdHarness(bags=["BIS?RTU"])
    ams, jim, eve = full_table("DupEN", harness)
    eve.send(m.JoinGameRequest("g"))
    assert harness.hall.rooms("words")[0].spectators == ("eve",)
    eve.hang_up()
    assert ams.take() == jim.take() == ["USERDISCONNECTED|eve#"]
    assert harness.hall.rooms("words")[0].spectators == ()

"""JDuplicate games of duplicate over the dialogue (note §4.2, §8.3; checklist 5-9, 11, 13, 14):
creating, joining, starting, a whole turn with its timeout, errors answered at once with
nothing changed, kicks, the operator leaving, and other games going on meanwhile."""

from __future__ import annotations

from jduplicate_dialogue_support import V10, JdClient, JdHarness, frame

from gamehall.protocols.jduplicate import messages as m

GAME = "ams's game"
BISE_H8 = m.Moves(
    (m.Tile(8, "H", "B"), m.Tile(9, "H", "I"), m.Tile(10, "H", "S"), m.Tile(11, "H", "E", True))
)


def create(
    client: JdClient, name: str = GAME, code: str = "DupEN", time: int = 120, players: int = 8
) -> None:
    client.send(m.CreateGameRequest(name, time, code, players, "No word stealing please"))


def two_players(bags: list[str] | None = None) -> tuple[JdHarness, JdClient, JdClient]:
    harness = JdHarness(bags=bags if bags is not None else ["BIS?RTU"])
    ams = harness.user("ams")
    jim = harness.user("jim", V10)
    create(ams)
    jim.send(m.JoinGameRequest(GAME))
    harness.take_all()
    return harness, ams, jim


def test_create_sends_the_creator_the_game_and_everyone_the_news() -> None:
    harness = JdHarness()
    ams = harness.user("ams")
    luc = harness.user("luc")
    create(ams, code="fr")
    lines = ams.take()
    assert lines[:2] == [
        f"GAMECREATED|{GAME}",
        f"GAMEINFOS|{GAME}#ams#120#0#duplicate#No word stealing please#8#WAITING#0#francais#ams&",
    ]
    assert lines[2].startswith("LETTERSET|A&9&1&V#") and lines[2].endswith("*&2&0&VC#")
    assert lines[2].count("#") == 27
    assert lines[3].startswith("BOARDTYPE|standard#15#15#8#H#T..d...T...d..T&.D...t...t...D.&")
    assert lines[4:] == ["BOARD|"]
    assert luc.take() == [f"GAMECREATED|{GAME}", lines[1], f"HNPLAYERJOINED|ams#{GAME}"]


def test_create_errors_change_nothing() -> None:
    harness = JdHarness()
    ams = harness.user("ams")
    jim = harness.user("jim")
    create(jim, name="jim's")
    jim.take()
    ams.take()
    ams.send(m.CreateGameRequest("g", None, "fr", 8, ""))
    ams.send(m.CreateGameRequest("g", 10, "fr", 8, ""))
    ams.send(m.CreateGameRequest("g", 601, "fr", 8, ""))
    ams.send(m.CreateGameRequest("g", 120, "zz", 8, ""))
    ams.send(m.CreateGameRequest("g", 120, "", 8, ""))
    ams.send(m.CreateGameRequest("g", 120, "fr", 0, ""))
    ams.send(m.CreateGameRequest("g", 120, "fr", None, ""))
    ams.send(m.CreateGameRequest("g", 120, "ScrEN", 5, ""))
    ams.send(m.CreateGameRequest("g", 120, "fr", 33, ""))
    ams.send(m.CreateGameRequest("", 120, "fr", 8, ""))
    ams.send(m.CreateGameRequest("a<b", 120, "fr", 8, ""))
    ams.send(m.CreateGameRequest("JIM'S", 120, "fr", 8, ""))
    ams.send_raw(frame("CREATEGAMEREQUEST|g#120#fr#8#a<b"))
    ams.send_raw(frame("CREATEGAMEREQUEST|g#12x#fr#8#"))
    assert ams.take() == [
        "ERROR|30104#",
        "ERROR|30106#10",
        "ERROR|30114#600",
        "ERROR|30108#zz",
        "ERROR|30107#",
        "ERROR|30111#0",
        "ERROR|30109#",
        "ERROR|30113#4",
        "ERROR|30113#32",
        "ERROR|30101#",
        "ERROR|30103#<",
        "ERROR|30102#JIM'S",
        "ERROR|30112#<",
        "ERROR|30105#12x",
    ]
    assert len(harness.hall.rooms("words")) == 1 and jim.take() == []
    create(ams, name="second")
    create(ams, name="third")
    assert ams.take()[-1] == "ERROR|30115#"


def test_join_start_and_a_whole_duplicate_turn_with_the_timeout() -> None:
    harness, ams, jim = two_players()
    jim.send(m.StartGameRequest())
    assert jim.take() == ["ERROR|50001#"]
    ams.send(m.StartGameRequest())
    start = [
        f"STARTGAME|{GAME}",
        f"GAMEINFOS|{GAME}#ams#120#120#duplicate#No word stealing please#8#INGAME#1#english#ams&jim&",
        "STARTOFTURN|1#120#",
        "HAND|1#0#0#S&I&T&B&*&R&U&",
    ]
    assert ams.take() == start and jim.take() == start
    ams.send(BISE_H8)
    assert ams.take() == []  # nothing is acknowledged: validity stays hidden
    harness.advance(120)
    assert ams.take() == [] and jim.take() == ["MOVESREQUEST|1#5"]
    harness.advance(5)
    end = [
        "ENDOFTURN|1#H5#BISe#10#5~H~B&6~H~I&7~H~S&8~H~e&#ams~H8~BISe~10~ok&jim~-~-~0~none&",
        "SCORES|1#10#ams~10~10&jim~0~0&",
    ]
    assert ams.take() == end and jim.take() == end
    harness.advance(5)  # the pause; the bag cannot fill a second rack
    over = [
        f"ENDOFGAME|{GAME}#bag#10#ams~10&jim~0&",
        f"GAMEINFOS|{GAME}#ams#120#0#duplicate#No word stealing please#8#GAMEOVER#1#english#ams&jim&",
    ]
    assert ams.take() == over and jim.take() == over
    jim.send(m.JoinGameRequest(GAME))
    assert jim.take() == ["ERROR|40004#"]


def test_duplicate_errors_come_at_once_and_change_nothing() -> None:
    harness, ams, jim = two_players()
    ams.send(BISE_H8)
    assert ams.take() == ["ERROR|60002#"]  # not started
    ams.send(m.StartGameRequest())
    harness.take_all()
    ams.send(m.StartGameRequest())
    ams.send(m.Moves((m.Tile(8, "H", "Z"),)))
    ams.send(m.Moves((m.Tile(16, "H", "B"),)))
    ams.send(m.Moves((m.Tile(8, "H", "B"), m.Tile(8, "H", "I"))))
    ams.send(m.Moves((m.Tile(8, "H", "B"), m.Tile(9, "I", "I"))))
    ams.send(m.Moves((m.Tile(8, "H", "B"), m.Tile(10, "H", "I"))))
    ams.send(m.Moves((m.Tile(1, "A", "B"), m.Tile(2, "A", "I"))))
    ams.send(m.Moves((m.Tile(8, "H", "B"),)))
    ams.send(m.ChangeLetters(("B",)))
    ams.send(m.StartTurnRequest())
    assert ams.take() == [
        "ERROR|50003#",
        "ERROR|60103#Z",
        "ERROR|60101#16&H",
        "ERROR|60109#8&H",
        "ERROR|60104#",
        "ERROR|60105#",
        "ERROR|60106#",
        "ERROR|60110#",
        "ERROR|60201#",
        "ERROR|50201#",
    ]
    jim.send(
        m.Moves((m.Tile(8, "H", "T"), m.Tile(9, "H", "U"), m.Tile(10, "H", "B")))
    )  # not a word: no error
    jim.send(
        m.Moves((m.Tile(8, "H", "B"), m.Tile(9, "H", "I"), m.Tile(10, "H", "T")))
    )  # resent: the last counts
    assert jim.take() == []
    harness.advance(125)
    assert jim.take()[0].endswith("#ams~-~-~0~none&jim~H8~BIT~0~invalid&")


def test_a_late_joiner_gets_the_game_then_the_running_turn() -> None:
    harness, ams, jim = two_players()
    ams.send(m.StartGameRequest())
    harness.advance(30)
    harness.take_all()
    luc = harness.user("luc")
    luc.send(m.JoinGameRequest(GAME))
    lines = luc.take()
    assert [line.split("|")[0] for line in lines] == [
        "PLAYERJOINED",
        "GAMEINFOS",
        "LETTERSET",
        "BOARDTYPE",
        "BOARD",
        "SCORES",
        "STARTOFTURN",
        "HAND",
    ]
    assert lines[1].endswith("#120#90#duplicate#No word stealing please#8#INGAME#1#english#ams&jim&luc&")
    assert lines[5:] == [
        "SCORES|1#0#ams~0~0&jim~0~0&luc~0~0&",
        "STARTOFTURN|1#90#",
        "HAND|1#0#0#S&I&T&B&*&R&U&",
    ]
    assert ams.take() == ["PLAYERJOINED|luc", lines[1]] and jim.take() == ["PLAYERJOINED|luc", lines[1]]


def test_kick_and_no_rejoin() -> None:
    harness, ams, jim = two_players()
    hall_user = harness.user("bob")
    jim.send(m.KickRequest("ams", "no"))
    ams.send(m.KickRequest("ams", "me"), m.KickRequest("nobody", "x"), m.KickRequest("", "x"))
    assert jim.take() == ["ERROR|50001#"]
    assert ams.take() == ["ERROR|50103#", "ERROR|50102#nobody", "ERROR|50101#"]
    ams.send(m.KickRequest("jim", "bye"))
    infos = f"GAMEINFOS|{GAME}#ams#120#0#duplicate#No word stealing please#8#WAITING#0#english#ams&"
    assert jim.take() == ["KICK|jim#ams#bye", "HALLUSERLIST|bob#jim#", infos]
    assert ams.take() == ["KICK|jim#ams#bye", infos]
    assert hall_user.take() == [f"HNPLAYERLEFT|jim#{GAME}", infos]
    jim.send(m.JoinGameRequest(GAME))
    assert jim.take() == [f"ERROR|40007#{GAME}"]


def test_the_operator_leaves_then_the_last_player_and_the_game_ends() -> None:
    harness, ams, jim = two_players()
    bob = harness.user("bob")
    ams.send(m.LeaveGameRequest("I'm too bad to play with you"))
    infos = f"GAMEINFOS|{GAME}#jim#120#0#duplicate#No word stealing please#8#WAITING#0#english#jim&"
    assert ams.take() == ["PLAYERLEFT|ams#I'm too bad to play with you", "HALLUSERLIST|ams#bob#", infos]
    assert jim.take() == ["PLAYERLEFT|ams#I'm too bad to play with you", infos]
    assert bob.take() == [f"HNPLAYERLEFT|ams#{GAME}", infos]
    jim.hang_up()
    assert ams.take() == [
        f"HNPLAYERLEFT|jim#{GAME}",
        f"GAMEINFOS|{GAME}##120#0#duplicate#No word stealing please#8#WAITING#0#english#",
        f"GAMEENDED|{GAME}",
        "USERDISCONNECTED|jim#",
    ]
    assert harness.hall.rooms("words") == []


def test_game_chat_stays_in_the_game_and_other_games_go_on() -> None:
    harness, ams, jim = two_players(["BIS?RTU", "BIS?RTU"])
    luc = harness.user("luc")
    bob = harness.user("bob")
    create(luc, name="luc's")
    bob.send(m.JoinGameRequest("luc's"))
    luc.send(m.StartGameRequest())
    harness.take_all()
    ams.send(m.ChatRequest("in game"), m.ChatActionRequest("smiles"))
    assert jim.take() == ["CHAT|ams#in game", "CHATACTION|ams#smiles"]
    assert luc.take() == [] and bob.take() == []
    ams.send(m.StartGameRequest())
    ams.send(m.Moves((m.Tile(8, "H", "Z"),)))  # an error in one game...
    luc.send(BISE_H8)  # ...leaves the other alone
    harness.take_all()
    harness.advance(125)
    assert (
        luc.take()[0] == "ENDOFTURN|1#H5#BISe#10#5~H~B&6~H~I&7~H~S&8~H~e&#luc~H8~BISe~10~ok&bob~-~-~0~none&"
    )
    assert ams.take()[1] == "ENDOFTURN|1#H5#BISe#10#5~H~B&6~H~I&7~H~S&8~H~e&#ams~-~-~0~none&jim~-~-~0~none&"


def test_a_gameover_game_stays_listed_until_its_players_leave() -> None:
    harness, ams, jim = two_players()
    ams.send(m.StartGameRequest())
    harness.advance(135)
    harness.take_all()
    late = harness.connect("late")
    late.login()
    assert f"SERVERGAMELIST|{GAME}#" in late.take()
    harness.take_all()
    ams.send(m.ChatRequest("gg"))
    assert jim.take() == ["CHAT|ams#gg"]
    late.send(m.JoinGameRequest(GAME))
    assert late.take() == [f"ERROR|40006#{GAME}"]
    ams.send(m.LeaveGameRequest(""))
    jim.send(m.LeaveGameRequest(""))
    assert late.take()[-1] == f"GAMEENDED|{GAME}"

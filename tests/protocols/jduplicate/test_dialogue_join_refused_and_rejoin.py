"""JOINGAMEREQUEST that cannot seat (40003, 40005) and the way back into a held seat.

The note has no spectator on the wire, so a full game is ``ERROR 40003`` and a running game
that forbids late joining (scrabble) ``ERROR 40005`` (note §5, issue 10); JDuplicate users
watch in the browser. A dropped player's seat is held for the room's grace: ``PLAYERNAME``
with that name logs in and puts the player back into its game with its total (note §4.2,
"Decision (ours), 2026-12"; docs/recovery.md).
"""

from __future__ import annotations

from jduplicate_dialogue_support import V10, JdClient, JdHarness

from gamehall.protocols._core import CloseReason, Delivery
from gamehall.protocols.jduplicate import messages as m
from gamehall.rules._core import Event

BISE_H8 = m.Moves(
    (m.Tile(8, "H", "B"), m.Tile(9, "H", "I"), m.Tile(10, "H", "S"), m.Tile(11, "H", "E", True))
)


class Browser:
    """A web player's listener, recording nothing: it only holds a seat."""

    def deliver(self, room_id: str, delivery: Delivery) -> None:
        pass

    def hall_event(self, event: Event) -> None:
        pass

    def ended(self, room_id: str, reason: CloseReason, text: str) -> None:
        pass

    def disconnect(self, reason: CloseReason, text: str) -> None:
        pass


def full_table(code: str, harness: JdHarness, players: int = 2) -> tuple[JdClient, JdClient, JdClient]:
    """ams and jim sit at a game ``g`` of ``code`` for ``players`` and start it; eve is in the hall."""
    ams = harness.user("ams")
    jim = harness.user("jim", V10)
    eve = harness.user("eve", V10)
    ams.send(m.CreateGameRequest("g", 120, code, players, ""))
    jim.send(m.JoinGameRequest("g"))
    ams.send(m.StartGameRequest())
    harness.take_all()
    return ams, jim, eve


def test_a_full_game_is_40003_and_nobody_is_told() -> None:
    harness = JdHarness(bags=["BIS?RTU"])
    ams, jim, eve = full_table("DupEN", harness)
    eve.send(m.JoinGameRequest("g"))
    assert eve.take() == ["ERROR|40003#2"]
    assert ams.take() == [] and jim.take() == []
    assert harness.hall.rooms("words")[0].spectators == ()  # watching is no substitute


def test_a_started_scrabble_game_is_40005_even_with_a_free_seat() -> None:
    harness = JdHarness(bags=["BIS?RTU"])
    _ams, _jim, eve = full_table("ScrEN", harness, players=4)
    eve.send(m.JoinGameRequest("g"))
    assert eve.take() == ["ERROR|40005#g"]
    late = harness.user("late")
    late.send(m.JoinGameRequest("g"))
    assert late.take() == ["ERROR|40005#g"]


def test_a_browser_game_without_late_joining_is_40005_and_a_password_game_is_hidden() -> None:
    harness = JdHarness(bags=["BIS?RTU"])
    web = harness.hall.login("wendy", Browser(), protocol="web")
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
    assert eve.take() == ["ERROR|40005#Web table"]


def test_a_dropped_player_logs_in_again_and_is_back_in_its_game_with_its_move() -> None:
    harness = JdHarness(bags=["BIS?RTU"])
    ams, jim, _eve = full_table("DupEN", harness)
    jim.send(BISE_H8)
    jim.hang_up()
    harness.settle()
    assert ams.take() == ["USERDISCONNECTED|jim#"]  # no PLAYERLEFT: the seat is held
    assert harness.hall.rooms("words")[0].away == frozenset({1})
    harness.advance(30)
    back = harness.connect("jim")
    back.login()
    lines = back.take()
    start = lines.index("PLAYERJOINED|jim")
    assert [line.split("|")[0] for line in lines[start + 1 : start + 5]] == [
        "GAMEINFOS",
        "LETTERSET",
        "BOARDTYPE",
        "BOARD",
    ]
    assert lines[start + 5 :] == [
        "SCORES|1#0#ams~0~0&jim~0~0&",
        "STARTOFTURN|1#90#",
        "HAND|1#0#0#S&I&T&B&*&R&U&",
    ]
    assert harness.hall.rooms("words")[0].away == frozenset()
    assert ams.take()[0] == "USERCONNECTED|jim"
    harness.advance(90)
    assert ams.take() == ["MOVESREQUEST|1#5"]  # jim's move from before the drop still counts
    harness.advance(5)
    closing = back.take()
    assert closing[0].startswith("ENDOFTURN|1#H5#BISe#10#") and closing[1].endswith("jim~10~10&ams~0~0&")


def test_a_seat_not_retaken_within_the_grace_is_released_and_the_name_is_free_again() -> None:
    harness = JdHarness(bags=["BIS?RTU"])
    ams, jim, _eve = full_table("DupEN", harness)
    jim.hang_up()
    harness.settle()
    ams.take()
    harness.advance(61)
    assert "PLAYERLEFT|jim#" in ams.take()
    again = harness.connect("jim")
    again.login()
    assert "PLAYERJOINED|jim" not in again.take()  # a fresh login in the hall

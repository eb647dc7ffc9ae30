"""JDuplicate login, leaving the server and the wire rules (note §2.5, §4.1, §4.2; checklist 1-4,
15, 17): what each client receives, in order, in both syntaxes."""

from __future__ import annotations

import pytest
from jduplicate_dialogue_support import V10, JdHarness, frame, raw_frame

from gamehall.protocols.jduplicate import messages as m

LOGIN_AMS = [
    "SERVERTYPE|JDuplicate#0.6#0.2",
    "SERVERINFO|gamehall#29/11/2026",
    "WELCOMEMESSAGE|Welcome to gamehall!",
    "SERVERUSERLIST|ams#",
    "HALLUSERLIST|ams#",
    "SERVERGAMELIST|",
    "PREDEFGAMES|fr&duplicate&francais&FR&standard&Duplicate - francais#"
    "DupEN&duplicate&english&EN&standard&Duplicate - English#"
    "ScrEN&scrabble&english&EN&standard&Scrabble - English#"
    "ScrFR&scrabble&francais&FR&standard&Scrabble - francais#"
    "BogEN&boggle&english-lp&EN&boggle4&Boggle 4x4 - English#"
    "BogFR&boggle&francais&FR&boggle4&Boggle 4x4 - francais#",
]


@pytest.mark.parametrize("bytewise", [False, True])
def test_login_in_0_2_yields_the_note_sequence(bytewise: bool) -> None:
    harness = JdHarness(bytewise=bytewise)
    ams = harness.connect("ams")
    ams.send_raw(frame("PLAYERNAME|ams"))
    assert ams.take() == []  # nothing until CLIENTTYPE too
    ams.send_raw(frame("CLIENTTYPE|JDuplicate Swing Client#0.12#0.2"))
    assert ams.take() == LOGIN_AMS


def test_login_in_1_0_with_clienttype_first_yields_the_same_sequence_in_xml() -> None:
    harness = JdHarness()
    ams = harness.connect("ams", V10)
    ams.login(client_first=True)
    messages = ams.take_messages()
    assert [ams.native([x])[0].split("?>", 1)[1].split(">", 1)[0] for x in messages] == [
        "<servertype",
        "<serverinfo",
        "<welcomemessage",
        "<serveruserlist",
        "<halluserlist",
        "<servergamelist/",
        "<predefgames",
    ]
    assert all(text.startswith('<?xml version="1.0" encoding="UTF-8"?>') for text in ams.native(messages))
    assert messages[0] == m.ServerType("JDuplicate", "0.6", "1.0")


def test_others_get_userconnected_and_the_lists_name_everyone() -> None:
    harness = JdHarness()
    jim = harness.user("jim")
    ams = harness.connect("ams")
    ams.login()
    lines = ams.take()
    assert "SERVERUSERLIST|ams#jim#" in lines and "HALLUSERLIST|ams#jim#" in lines
    assert jim.take() == ["USERCONNECTED|ams"]


def test_commands_before_login_get_99003_and_login_errors_their_codes() -> None:
    harness = JdHarness()
    harness.user("ams")
    bob = harness.connect("bob")
    bob.send_raw(frame("CHATREQUEST|hi"))
    bob.send_raw(frame("CREATEGAMEREQUEST|g#1x#fr#8#"))  # a field error before login: still 99003
    bob.send_raw(frame("PLAYERNAME|a~b"))
    bob.send_raw(frame("PLAYERNAME|AMS"))
    bob.send_raw(frame("PLAYERNAME|" + "x" * 25))
    bob.send_raw(frame("PLAYERNAME|   "))
    bob.send_raw(frame("CLIENTTYPE|c#1#1.0"))
    bob.send_raw(frame("CLIENTTYPE|#1#0.2"))
    bob.send_raw(frame("CLIENTTYPE|c##0.2"))
    bob.send_raw(frame("CLIENTTYPE|c#1#"))
    assert bob.take() == [
        "ERROR|99003#",
        "ERROR|99003#",
        "ERROR|10103#~",
        "ERROR|10102#AMS",
        "ERROR|10104#24",
        "ERROR|10101#",
        "ERROR|10005#1.0",
        "ERROR|10002#",
        "ERROR|10003#",
        "ERROR|10004#",
    ]
    bob.login()
    assert bob.take()[0] == "SERVERTYPE|JDuplicate#0.6#0.2"
    bob.send(m.PlayerName("bob2"), m.ClientType("c", "1", "0.2"))
    assert bob.take() == ["ERROR|10105#", "ERROR|10001#"]


def test_frame_errors_keep_the_connection_working() -> None:
    harness = JdHarness()
    ams = harness.user("ams")
    ams.send_raw(frame("<chatrequest>hi</chatrequest>"))
    ams.send_raw(frame("FOO|x"))
    ams.send_raw(raw_frame(b"CHATREQUEST|\xc3\x41"))
    ams.send_raw(raw_frame(b""))
    ams.send_raw(frame("CHATREQUEST|still here"))
    assert ams.take() == [
        "ERROR|99000#",
        "ERROR|99002#FOO",
        "ERROR|99000#",
        "ERROR|99001#",
        "CHAT|ams#still here",
    ]
    assert not ams.closed


def test_xml_with_a_dtd_or_entity_is_99000() -> None:
    harness = JdHarness()
    ams = harness.connect("ams", V10)
    ams.login()
    ams.take()
    ams.send_raw(frame('<!DOCTYPE x [<!ENTITY a "aaaa">]><chatrequest>&a;</chatrequest>'))
    ams.send_raw(
        frame('<!DOCTYPE x [<!ENTITY a SYSTEM "file:///etc/passwd">]><chatrequest>&a;</chatrequest>')
    )
    ams.send_raw(frame("PLAYERNAME|x"))
    assert ams.take() == ["ERROR|99000#", "ERROR|99000#", "ERROR|99000#"]


def test_an_oversize_frame_is_99004_and_close() -> None:
    harness = JdHarness()
    ams = harness.user("ams")
    jim = harness.user("jim")
    ams.send_raw(b"\x23\x28" + b"A" * 10)  # len 9000
    assert ams.take() == ["ERROR|99004#"]
    assert ams.closed
    assert jim.take() == ["USERDISCONNECTED|ams#Excess flood"]


def test_many_frames_at_once_are_all_answered_and_never_close() -> None:
    """The note's flood limit (51 frames in 10 s: 99004) became the server's throttle
    (docs/transport.md, Decision (ours)): the dialogue answers every frame."""
    harness = JdHarness()
    ams = harness.user("ams")
    ams.send_raw(frame("BOARDTYPEREQUEST|") * 500)
    assert ams.take() == ["ERROR|50002#"] * 500
    assert not ams.closed


def test_handle_buffered_handles_at_most_the_limit_and_keeps_the_rest() -> None:
    harness = JdHarness()
    ams = harness.user("ams")
    dialogue = ams.dialogue
    dialogue.receive_data(frame("BOARDTYPEREQUEST|") * 5)
    assert dialogue.handle_buffered(2) == 2
    assert ams.take() == ["ERROR|50002#"] * 2
    assert dialogue.handle_buffered(10) == 3
    assert ams.take() == ["ERROR|50002#"] * 3
    assert dialogue.handle_buffered(10) == 0


def test_idle_and_login_timeouts_are_99005_then_close() -> None:
    harness = JdHarness(idle_s=100, login_s=60)
    ams = harness.user("ams")
    silent = harness.connect("silent")
    harness.advance(59)
    assert not silent.closed
    harness.advance(1)
    assert silent.take() == ["ERROR|99005#"] and silent.closed
    harness.advance(30)
    ams.send(m.ChatRequest("awake"))
    harness.advance(99)
    assert not ams.closed
    harness.advance(1)
    assert ams.take()[-1] == "ERROR|99005#" and ams.closed


def test_disconnect_and_lost_socket_tell_everyone() -> None:
    harness = JdHarness()
    ams = harness.user("ams")
    jim = harness.user("jim")
    bob = harness.user("bob")
    jim.send(m.Disconnect("Good bye everyone!"))
    assert jim.closed and jim.take() == []
    bob.hang_up()
    assert ams.take() == ["USERDISCONNECTED|jim#Good bye everyone!", "USERDISCONNECTED|bob#"]
    again = harness.connect("jim")
    again.login()
    assert again.take()[3] == "SERVERUSERLIST|ams#jim#"  # the name is free again


def test_chat_whisper_and_action_in_the_hall() -> None:
    harness = JdHarness()
    ams = harness.user("ams")
    odog = harness.user("O-Dog", V10)
    ams.send(m.ChatRequest("Hello there"))
    ams.send(m.WhisperRequest("O-Dog", "it's getting tough!"))
    ams.send(m.ChatActionRequest("believes JDuplicate is great!"))
    ams.send(m.WhisperRequest("nobody", "hi"), m.WhisperRequest("", "x"), m.WhisperRequest("O-Dog", ""))
    ams.send(m.ChatRequest(""), m.ChatRequest("x" * 401), m.ChatActionRequest(" "))
    assert ams.take() == [
        "CHAT|ams#Hello there",
        "WHISPER|ams#O-Dog#it's getting tough!",
        "CHATACTION|ams#believes JDuplicate is great!",
        "ERROR|20102#nobody",
        "ERROR|20101#",
        "ERROR|20103#",
        "ERROR|20001#",
        "ERROR|20002#400",
        "ERROR|20201#",
    ]
    assert odog.take() == [
        "CHAT|ams#Hello there",
        "WHISPER|ams#O-Dog#it's getting tough!",
        "CHATACTION|ams#believes JDuplicate is great!",
    ]

"""The hall's one text rule (docs/text-rule.md, issue 10 item 4): names, titles and chat from any
protocol reach every other protocol as one harmless field.

Every test sends the separators of *every* protocol at once (line breaks for UrServer and
Mr. Jack, NUL/ETX for AAH, ``# & ~ |`` and ``< >`` for JDuplicate, quotes and ``).`` for Prolog
terms) from one side and reads the other side with that protocol's own client codec: the real
hall and the real dialogues, as in each protocol's harness.
"""

from __future__ import annotations

import pytest
from aah_dialogue_support import AahHarness
from jduplicate_dialogue_support import JdHarness
from mrjack_wire_support import JackHarness
from recording_listener import RecordingListener
from turns import turn_by_turn_hall
from urserver_support import UrHarness

from gamehall.hall import FakeClock
from gamehall.protocols._core import ChatSaid, HallError
from gamehall.protocols._text import (
    NAME_SEPARATORS,
    check_title,
    clean_chat,
    name_problem,
    one_line,
    one_token,
)
from gamehall.protocols.jduplicate import messages as m
from gamehall.protocols.jduplicate.messages import Version
from gamehall.protocols.mrjack.terms import Atom, Compound, parse_line
from gamehall.store.memory import MemoryStore

HOSTILE = "u1 \nSPIEL_BEENDET 0\r\nFEHLER 1 x\x00UNRG\x03CLJNz#a&b~c|d<e>f'g\"h).\u2028i\x85j\tk"
"""Every protocol's separators in one chat line (the issue's forged UrServer lines first)."""

NORMALISED = "u1 \nSPIEL_BEENDET 0\nFEHLER 1 x UNRG CLJNz#a&b~c|d<e>f'g\"h).\ni\nj k"
"""HOSTILE as the hall forwards it: CRLF and the Unicode line separators are LF, every other
control character a space."""

ONE_LINE = NORMALISED.replace("\n", " ")


def test_the_hall_normalises_chat_once() -> None:
    assert clean_chat(HOSTILE) == NORMALISED
    assert one_line(NORMALISED) == ONE_LINE
    assert clean_chat("bidi \u202eevil\u202c ok") == "bidi evil ok"
    assert clean_chat("emoji \U0001f468\u200d\U0001f469 stay") == "emoji \U0001f468\u200d\U0001f469 stay"
    with pytest.raises(HallError) as refused:
        clean_chat("\x00\n\x03")
    assert refused.value.code == "chat_invalid"


@pytest.mark.parametrize(
    "name",
    [f"a{ch}b" for ch in NAME_SEPARATORS] + ["a\nb", "a\rb", "a\x00b", "a\x03b", "a\tb", "a\u2028b", " a"],
)
def test_a_name_no_protocol_could_carry_is_refused_with_a_reason(name: str) -> None:
    hall = turn_by_turn_hall(games={}, store=MemoryStore(), clock=FakeClock())
    with pytest.raises(HallError) as refused:
        hall.login(name, RecordingListener(), protocol="web")
    assert refused.value.code == "name_invalid"
    assert refused.value.reason == name_problem(name)


def test_titles_are_one_line_and_names_become_one_urserver_token() -> None:
    assert check_title("  Fun\ngame\x00 ") == "Fun game"
    with pytest.raises(HallError):
        check_title("\n\x03 ")
    assert one_token("Anna Maria\u00a0von\tX") == "Anna_Maria_von_X"


# -- browser -> every legacy protocol --------------------------------------------------------


def test_browser_chat_reaches_urserver_players_as_one_nachricht_line() -> None:
    harness = UrHarness()
    web = harness.hall.login("Web User", RecordingListener(), protocol="web")
    room = web.create_room("ursuppe", {"players": 3}, title="mixed")
    web.join(room.room_id)
    anna = harness.join("anna", "mixed")
    anna.take()
    web.chat(room.room_id, HOSTILE)
    web.whisper("anna", HOSTILE)
    assert anna.take() == [f"NACHRICHT 0 {ONE_LINE[:70]}", f"PRIVAT_NACHRICHT 0 {ONE_LINE[:70]}"]
    assert b"\r" not in b"".join(anna.wire.writes)
    assert "NAME Web_User" in anna.ask("STATUS")


def test_browser_chat_reaches_aah_seats_as_one_rmsg_argument() -> None:
    harness = AahHarness()
    alice = harness.join("alice")
    alice.take()
    web = harness.hall.login("Web User", RecordingListener(), protocol="web")
    room_id = harness.rooms()[0].room_id
    web.join(room_id)
    alice.take()
    web.chat(room_id, HOSTILE)
    frames = alice.take_frames()
    assert [(f.command, f.args) for f in frames] == [("RMSG", ("Web User", NORMALISED))]


def test_browser_chat_reaches_mrjack_players_as_one_chat_term() -> None:
    harness = JackHarness()
    web = harness.hall.login("Web User", RecordingListener(), protocol="web")
    created = web.create_room("mrjack")
    web.join(created.room_id)
    det = harness.login("det", "detektiv")
    det.take()
    web.chat(created.room_id, HOSTILE)
    harness.settle()  # the loop's turn ends: the chat is delivered
    lines = b"".join(det.wire.writes[-1:]).decode("utf-8").split("\n")
    assert lines[-1] == "" and len(lines) == 2, lines
    assert parse_line(lines[0]) == Compound("chat", (Atom(NORMALISED),))


@pytest.mark.parametrize("version", [Version.V02, Version.V10])
def test_browser_chat_and_names_reach_jduplicate_as_single_fields(version: Version) -> None:
    harness = JdHarness()  # "|" is a legal AAH nick character; 0.2 splits at the first "|" only
    web = harness.hall.login("Web|User", RecordingListener(), protocol="web")
    info = web.create_room("words", {"preset": "DupEN"}, title="Web#table&x")
    web.join(info.room_id)
    ams = harness.connect("ams", version)
    ams.login()
    ams.take()
    ams.send(m.JoinGameRequest(info.room_id))  # a title with separators is listed under the room id
    ams.take()
    web.chat(info.room_id, HOSTILE)
    web.shout(HOSTILE)
    assert [msg for msg in ams.take_messages() if isinstance(msg, m.Chat)] == [m.Chat("Web|User", NORMALISED)]


# -- every legacy protocol -> the browser and the others ----------------------------------


def test_urserver_chat_with_foreign_separators_reaches_the_browser_as_one_text() -> None:
    harness = UrHarness()
    listener = RecordingListener()
    web = harness.hall.login("webby", listener, protocol="web")
    room = web.create_room("ursuppe", {"players": 3}, title="mixed")
    web.join(room.room_id)
    anna, bert = harness.join("anna", "mixed"), harness.join("bert", "mixed")
    bert.take()
    anna.send_raw(b"NACHRICHT a#b&c~d|e<f>g'h).\x00i\x03j\n")
    assert [e.text for e in listener.events(ChatSaid)] == ["a#b&c~d|e<f>g'h).ij"]
    assert bert.take() == ["NACHRICHT 1 a#b&c~d|e<f>g'h).ij"]


def test_hall_wide_chat_with_every_separator_reaches_the_browser_and_aah_harmlessly() -> None:
    harness = JdHarness()
    listener = RecordingListener()
    harness.hall.login("webby", listener, protocol="web")
    aah = AahHarness()  # another hall: AAH's hall-wide BDCS is checked with a browser's shout
    ams = harness.user("ams")
    legal = HOSTILE.replace("\x00", "").replace("\x03", "")  # JDuplicate frames refuse them (99000)
    ams.send(m.ChatRequest(legal))
    said = [e for e in listener.hall_events if isinstance(e, ChatSaid)]
    assert [(e.sender, e.text) for e in said] == [("ams", clean_chat(legal))]
    alice = aah.join("alice")
    alice.take()
    aah.hall.login("webby", RecordingListener(), protocol="web").shout(HOSTILE)
    frames = alice.take_frames()
    assert [(f.command, f.args) for f in frames] == [("BDCS", (f"webby to everyone: {NORMALISED}",))]


def test_aah_chat_reaches_the_browser_without_frame_bytes() -> None:
    harness = AahHarness()
    alice = harness.join("alice")
    listener = RecordingListener()
    web = harness.hall.login("webby", listener, protocol="web")
    web.join(harness.rooms()[0].room_id)
    alice.send("SMSG", "x#y&z~|<a>'b').\nc\x7f")
    assert [e.text for e in listener.events(ChatSaid)] == ["x#y&z~|<a>'b').\nc "]


def test_mrjack_chat_reaches_the_browser_as_one_text() -> None:
    harness = JackHarness()
    listener = RecordingListener()
    web = harness.hall.login("webby", listener, protocol="web")
    created = web.create_room("mrjack")
    web.join(created.room_id)
    det = harness.login("det", "detektiv")
    det.send("chat('a#b&c~d|e<f>g\\nSPIEL_BEENDET 0\\x03').")
    texts = [e.text for e in listener.events(ChatSaid)]
    assert len(texts) == 1 and "\x03" not in texts[0] and "\r" not in texts[0]

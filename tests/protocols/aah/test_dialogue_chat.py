"""Chat, nick changes, pings and the browser at the same table (specs/aah.md 7, 2.5, 8)."""

from __future__ import annotations

import logging

import pytest
from aah_dialogue_support import AahHarness, LegacyClient, assert_no_crash
from recording_listener import RecordingListener

from gamehall.protocols._core import ChatSaid
from gamehall.protocols.aah import placement
from gamehall.protocols.aah.meta import decode_server_meta
from gamehall.rules.aah.actions import Pick
from gamehall.rules.aah.events import Revealed


def two() -> tuple[AahHarness, LegacyClient, LegacyClient]:
    harness = AahHarness()
    alice, bob = harness.join("alice"), harness.join("bob")
    alice.take()
    bob.take()
    return harness, alice, bob


# -- SMSG (7.1) -------------------------------------------------------------------------------------


def test_chat_reaches_every_seat_including_the_sender() -> None:
    harness = AahHarness()
    alice, bob = harness.join("alice"), harness.join("bob")
    alice.take()
    bob.take()
    bob.send("SMSG", "hello\tthere\nfriend\x01!")
    expected = ["RMSGbob\0hello there\nfriend !"]  # C0 controls but LF become spaces
    assert alice.take() == expected and bob.take() == expected


def test_chat_in_game_too() -> None:
    harness = AahHarness()
    clients = [harness.join(n) for n in ("alice", "bob", "carol")]
    harness.advance(15)
    for client in clients:
        client.take()
    clients[2].send("SMSG", "good luck")
    assert [c.take() for c in clients] == [["RMSGcarol\0good luck"]] * 3


@pytest.mark.parametrize(
    "frame",
    [b"SMSG\x03", b"SMSG\x00\x00\x03", b"SMSGa\x00b\x03", b"SMSG\x00\x00x\x03"],
)
def test_chat_needs_exactly_one_non_empty_argument(frame: bytes) -> None:
    harness = AahHarness()
    alice = harness.join("alice")
    alice.take()
    alice.send_raw(frame)
    assert alice.take() == ["UNRGMalformed data."]


def test_chat_limit_is_200_code_points() -> None:
    harness = AahHarness()
    alice = harness.join("alice")
    alice.take()
    alice.send("SMSG", "\u00e9" * 200)  # 400 bytes, 200 characters: fine
    assert alice.take() == ["RMSGalice\0" + "\u00e9" * 200]
    alice.send("SMSG", "x" * 201)
    assert alice.take() == ["UNRGMessages have a 200-character limit."]


def test_chat_rate_limit_is_not_a_protocol_error() -> None:
    harness = AahHarness()
    alice = harness.join("alice")
    alice.take()
    for i in range(5):
        alice.send("SMSG", f"line {i}")
    assert len(alice.take()) == 5
    for _ in range(25):  # more than the protocol-error limit: still connected
        alice.send("SMSG", "again")
    assert alice.take() == ["UNRGChat rate limit reached."] * 25
    assert not alice.closed
    harness.advance(10)
    alice.send("SMSG", "later")
    assert alice.take() == ["RMSGalice\0later"]


def test_chat_disabled_is_a_notice_to_the_sender() -> None:
    harness = AahHarness(chat_enabled=False)
    alice, bob = harness.join("alice"), harness.join("bob")
    alice.take()
    bob.take()
    bob.send("SMSG", "anyone?")
    assert bob.take() == ["BDCSChat is disabled on this server."]
    assert alice.take() == []


def test_browser_chat_and_hall_messages_reach_legacy_seats() -> None:
    harness = AahHarness()
    alice = harness.join("alice")
    alice.take()
    listener = RecordingListener()
    web = harness.hall.login("Web User", listener, protocol="web")
    room_id = harness.rooms()[0].room_id
    web.join(room_id)
    assert alice.take() == ["CLJNWeb User"]
    web.chat(room_id, "hi\x03 from\x00 the browser")
    assert alice.take() == ["RMSGWeb User\0hi  from  the browser"]
    web.whisper("alice", "psst")
    web.shout("hello hall")
    harness.hall.shout(None, "Server restarts at noon.")
    assert alice.take() == [
        "BDCSWeb User whispers: psst",
        "BDCSWeb User to everyone: hello hall",
        "BDCSServer restarts at noon.",
    ]
    alice.send("SMSG", "hi web")
    assert listener.events(ChatSaid)[-1].text == "hi web"


def test_browser_and_legacy_seats_play_at_one_table() -> None:
    harness = AahHarness()
    alice, bob = harness.join("alice"), harness.join("bob")
    listener = RecordingListener()
    web = harness.hall.login("carol", listener, protocol="web")
    room_id = harness.rooms()[0].room_id
    web.join(room_id)
    harness.advance(15)
    for client in (alice, bob):
        assert "CLJNcarol" in client.take()
    table = harness.table()
    czar = table.view(None)["czar"]
    assert czar == 1  # bob
    web.act(room_id, Pick((table.view(2)["hand"][0]["id"],)))
    alice.pick(5001)
    assert len(listener.events(Revealed)) == 2
    assert [f for f in bob.take() if f.startswith("REVL")] != []
    assert_no_crash(harness)


# -- NICK (7.2) -----------------------------------------------------------------------------------------


def test_rename_in_the_lobby() -> None:
    harness = AahHarness()
    alice, bob = harness.join("alice"), harness.join("bob")
    alice.take()
    bob.take()
    bob.send("NICK", "robert")
    assert bob.take() == ["NACC"]
    assert alice.take() == ["CLEXbob", "CLJNrobert"]
    bob.send("NICK", "Robert")  # a case-only change of one's own nick is fine
    assert bob.take() == ["NACC"]
    assert alice.take() == ["CLEXrobert", "CLJNRobert"]
    carol = harness.join("carol")
    assert carol.take()[2] == "CLNFalice\0Robert\0carol"
    assert_no_crash(harness)


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        ((), "Nickname invalid; unchanged."),
        (("bad nick",), "Nickname invalid; unchanged."),
        (("x" * 21,), "Nickname invalid; unchanged."),
        (("ALICE",), "Nickname in use; unchanged."),
    ],
)
def test_rename_refusals(args: tuple[str, ...], reason: str) -> None:
    harness = AahHarness()
    alice, bob = harness.join("alice"), harness.join("bob")
    alice.take()
    bob.take()
    bob.send("NICK", *args)
    assert bob.take() == [f"NDNY{reason}"]
    assert alice.take() == []


def test_rename_to_a_nick_used_elsewhere_in_the_hall() -> None:
    harness = AahHarness()
    bob = harness.join("bob")
    bob.take()
    harness.hall.login("webby", RecordingListener(), protocol="web")
    bob.send("NICK", "WEBBY")
    assert bob.take() == ["NDNYNickname in use; unchanged."]


def test_no_rename_during_a_game() -> None:
    harness = AahHarness()
    clients = [harness.join(n) for n in ("alice", "bob", "carol")]
    harness.advance(15)
    clients[0].take()
    clients[0].send("NICK", "alicia")
    assert clients[0].take() == ["NDNYCannot change nickname during a game."]


# -- PING / PONG (2.5) and internal errors (8) -------------------------------------------------------------


def test_ping_is_answered_to_the_sender_and_pong_is_ignored() -> None:
    _harness, alice, bob = two()
    bob.send("PING")
    bob.send("PONG")
    assert bob.take() == ["PONG"]
    assert alice.take() == []


def test_meta_request_when_seated_describes_the_table() -> None:
    _harness, alice, _bob = two()
    alice.send("META")
    reply = alice.take()
    assert decode_server_meta(reply[0][4:]).players == 2


def test_a_bug_in_a_handler_answers_internal_error_and_the_table_goes_on(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _harness, alice, bob = two()

    def broken(*args: object) -> None:
        raise KeyError("boom")

    monkeypatch.setitem(type(bob.dialogue)._SEATED_HANDLERS, "SMSG", broken)
    with caplog.at_level(logging.ERROR):
        bob.send("SMSG", "hi")
    assert bob.take() == ["UNRGInternal error."]
    assert "test:bob" in caplog.text  # logged with the connection's peer
    monkeypatch.undo()
    bob.send("SMSG", "hi")
    assert alice.take() == ["RMSGbob\0hi"]


def test_a_bug_during_the_handshake_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    harness = AahHarness()

    def broken(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(placement, "place", broken)
    client = harness.join("alice")
    assert client.take() == ["META", "REFUInternal error."]
    assert client.closed
    assert harness.hall.stats()["users"] == 0

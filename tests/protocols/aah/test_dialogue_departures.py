"""Leaving, drops, rejoin and the end of a table (specs/aah.md 5.10, 6, 10.5, 10.6; golden tests
13.8, 13.9; acceptance 20-22, 24, 25), plus kicks, server shutdown and the protocol-error limit.

Four players (alice, bob, carol, dave) use ``seed=1``, which makes bob the first czar; three
players use the default seed (bob too). White ids are dealt top first: alice 5001-5010, bob
5011-5020, carol 5021-5030, dave 5031-5040.
"""

from __future__ import annotations

import logging

import pytest
from aah_dialogue_support import AahHarness, LegacyClient, assert_no_crash, dialogue_deck
from recording_listener import RecordingListener

from gamehall.protocols._core import CloseReason
from gamehall.protocols.aah.meta import decode_server_meta, encode_client_meta
from gamehall.rules.aah.actions import Pick

NEXT_ROUND = "BDCSThe next round will begin in 5 seconds."


def whte(*ids: int) -> list[str]:
    return [f"WHTE{i}\0Answer {i}." for i in ids]


def revl(*ids: int) -> str:
    return "REVL" + "\0".join(f"{i}\0Answer {i}." for i in ids)


def pnts4(alice: int = 0, bob: int = 0, carol: int = 0, dave: int = 0) -> list[str]:
    return [f"PNTSalice\0{alice}", f"PNTSbob\0{bob}", f"PNTScarol\0{carol}", f"PNTSdave\0{dave}"]


def players(harness: AahHarness, *nicks: str) -> list[LegacyClient]:
    """The nicks joined and the countdown run out (round 1 in the pick phase), frames drained."""
    clients = [harness.join(nick) for nick in nicks]
    harness.advance(15)
    for client in clients:
        client.take()
    return clients


def four() -> tuple[AahHarness, LegacyClient, LegacyClient, LegacyClient, LegacyClient]:
    harness = AahHarness(seed=1)
    alice, bob, carol, dave = players(harness, "alice", "bob", "carol", "dave")
    return harness, alice, bob, carol, dave


# -- drop and rejoin (13.8, 10.5, acceptance 21) --------------------------------------------------------


def test_drop_and_rejoin_in_the_pick_phase_as_in_transcript_10_5() -> None:
    harness, alice, bob, carol, dave = four()
    alice.pick(5001)
    carol.hang_up()
    held = "BDCScarol lost connection; the seat is held for 60 seconds."
    assert harness.take_all() == {"alice": [held], "bob": ["BLNK", held], "dave": ["BLNK", held]}
    harness.advance(20)
    carol = harness.join("carol")
    assert carol.take()[:-1] == [
        "META",
        "ACKN",
        "CLNFalice\0bob\0carol\0dave",
        "GSTR",
        *pnts4(),
        *whte(*range(5021, 5031)),
        "RSTR",
        "CZARbob",
        "BLCKPrompt 1: _____\x001",
    ]
    back = ["BDCScarol has reconnected."]  # no CLJN: they never got a CLEX
    assert harness.take_all() == {"alice": back, "bob": back, "dave": back, "carol": []}
    # carol is awaited again like any non-czar; her play counts
    carol.pick(5021)
    dave.pick(5031)
    reveal = [f for f in carol.take() if f.startswith("REVL")]
    assert len(reveal) == 3
    bob.send("CZPK", "5021")
    assert carol.take()[:1] == ["RWINcarol\x005021"]
    assert_no_crash(harness)


def test_rejoin_in_judging_replays_the_reveals_and_keeps_points() -> None:
    harness, alice, bob, carol, dave = four()
    carol.pick(5021)
    dave.hang_up()  # held; alice's card completes the pick phase
    alice.pick(5001)
    reveal = [revl(5021), revl(5001)]
    assert bob.take()[-2:] == reveal
    harness.advance(10)
    dave = harness.join("DAVE")  # any case takes the held seat back
    assert dave.take()[:-1] == [
        "META",
        "ACKN",
        "CLNFalice\0bob\0carol\0dave",
        "GSTR",
        *pnts4(),
        *whte(*range(5031, 5041)),
        "RSTR",
        "CZARbob",
        "BLCKPrompt 1: _____\x001",
        *reveal,
    ]
    bob.send("CZPK", "5001")
    assert dave.take() == ["RWINalice\x005001", *pnts4(alice=1), NEXT_ROUND]
    assert_no_crash(harness)


def test_a_seat_that_missed_the_draw_step_is_topped_up_on_rejoin() -> None:
    harness, alice, bob, carol, dave = four()
    alice.pick(5001)
    carol.pick(5021)
    dave.pick(5031)
    bob.send("CZPK", "5001")
    alice.hang_up()  # during the gap: the next draw step skips alice (9 cards)
    harness.advance(5)
    alice = harness.join("alice")
    frames = alice.take()
    assert frames[3:8] == ["GSTR", *pnts4(alice=1)]  # points are kept
    hand = [f for f in frames if f.startswith("WHTE")]
    assert len(hand) == 10 and "WHTE5001\0Answer 5001." not in hand
    assert frames[frames.index("RSTR") :][:2] == ["RSTR", "CZARcarol"]
    assert_no_crash(harness)


def test_czar_drop_in_judging_voids_and_the_next_round_follows() -> None:
    """Acceptance 20."""
    harness, alice, bob, carol, dave = four()
    alice.pick(5001)
    carol.pick(5021)
    dave.pick(5031)
    for client in (alice, carol, dave):
        client.take()
    bob.hang_up()
    notices = [
        "BDCSbob lost connection; the seat is held for 60 seconds.",
        "BDCSCard Czar bob left mid-round. Terminating round.",
        "RWIN",
    ]
    end = [*pnts4(), NEXT_ROUND]
    assert alice.take() == [*notices, *whte(5001), *end]
    assert carol.take() == [*notices, *whte(5021), *end]
    assert dave.take() == [*notices, *whte(5031), *end]
    harness.advance(5)
    assert alice.take() == ["RSTR", "CZARcarol", "BLCKPrompt 2: _____\x001"]
    assert_no_crash(harness)


def test_grace_expiry_sends_clex_and_the_game_goes_on_with_three() -> None:
    """Acceptance 22 (first half)."""
    harness, alice, bob, carol, dave = four()
    dave.hang_up()
    harness.advance(59.9)
    assert all("CLEXdave" not in frames for frames in harness.take_all().values())
    harness.advance(0.1)
    for client in (alice, bob, carol):
        assert "CLEXdave" in client.take()
    assert [r.seats for r in harness.rooms()] == [{0: "alice", 1: "bob", 2: "carol"}]
    assert_no_crash(harness)


def test_grace_expiry_with_three_seats_aborts_the_game() -> None:
    """Acceptance 22 (second half): BDCS, DISC, close 2.5 s later, table gone."""
    harness = AahHarness()
    alice, bob, carol = players(harness, "alice", "bob", "carol")
    carol.hang_up()
    harness.advance(60)
    expected_tail = [
        "CLEXcarol",
        "BDCSNot enough players to continue.",
        "DISCGame ended by server or administrator.",
    ]
    for client in (alice, bob):
        assert client.take()[-3:] == expected_tail
        assert not client.closed
    assert harness.rooms() == []
    harness.advance(2.5)
    assert alice.closed and bob.closed
    assert_no_crash(harness)


def test_waiting_for_a_dropped_seat_then_it_returns() -> None:
    harness = AahHarness()
    alice, bob, carol = players(harness, "alice", "bob", "carol")
    alice.pick(5001)
    carol.pick(5021)
    bob.send("CZPK", "5021")
    carol.hang_up()
    harness.advance(5)
    assert alice.take()[-1] == "BDCSWaiting for players to reconnect."
    carol = harness.join("carol")
    frames = carol.take()
    assert frames[-2] == NEXT_ROUND  # no round running: the replay is GSTR, PNTS, the hand
    assert frames[3:8] == ["GSTR", "PNTSalice\x000", "PNTSbob\x000", "PNTScarol\x001", *whte(5022)]
    assert alice.take() == ["BDCScarol has reconnected.", NEXT_ROUND]
    harness.advance(5)
    assert alice.take()[-3:-1] == ["RSTR", "CZARcarol"]


# -- leaving (acceptance 25) ----------------------------------------------------------------------------


def test_client_disc_in_game_releases_the_seat_at_once() -> None:
    """Acceptance 25: DISC back, EOF, CLEX to the others, no grace."""
    harness, alice, bob, carol, dave = four()
    dave.send("DISC")
    assert dave.take() == ["DISCDisconnected at request."]
    assert dave.closed and dave.lost
    for client in (alice, bob, carol):
        assert client.take() == ["CLEXdave"]
    again = harness.join("dave")  # not a rejoin: the seat is gone
    assert again.take()[2] == "CLNFdave"
    assert len(harness.rooms()) == 2
    assert_no_crash(harness)


def test_lobby_drop_frees_the_seat_at_once() -> None:
    harness = AahHarness()
    alice, bob = harness.join("alice"), harness.join("bob")
    alice.take()
    bob.hang_up()
    assert alice.take() == ["CLEXbob"]
    carol = harness.join("carol")
    assert carol.take()[2] == "CLNFalice\0carol"


def test_countdown_is_cancelled_when_a_seat_leaves() -> None:
    harness = AahHarness()
    alice, _bob, carol = (harness.join(n) for n in ("alice", "bob", "carol"))
    alice.take()
    carol.send("DISC")
    assert alice.take() == ["CLEXcarol", "BDCSStart cancelled; waiting for players."]
    harness.advance(20)
    assert alice.take() == []


# -- the end of the game (13.9, 10.6, acceptance 24) -----------------------------------------------------


def test_game_end_as_in_transcript_10_6() -> None:
    harness = AahHarness(aplimit=2)
    alice, bob, carol = players(harness, "alice", "bob", "carol")
    alice.pick(5001)
    carol.pick(5021)
    bob.send("CZPK", "5001")
    harness.advance(5)  # round 2: czar carol
    alice.pick(5002)
    bob.pick(5011)
    for client in (alice, bob, carol):
        client.take()
    carol.send("CZPK", "5002")
    end = [
        "RWINalice\x005002",
        "PNTSalice\x002",
        "PNTSbob\x000",
        "PNTScarol\x000",
        "GWINalice",
        "DISCThe game has ended.",
    ]
    assert harness.take_all() == {"alice": end, "bob": end, "carol": end}
    assert harness.rooms() == []  # the table is gone
    bob.send("PING")  # input during the grace is ignored
    assert bob.take() == []
    carol.hang_up()  # a client may close earlier
    harness.advance(2.4)
    assert not alice.closed and not bob.closed
    harness.advance(0.1)
    assert alice.closed and bob.closed
    # the nicks are free again and the next JOIN gets a new table
    again = harness.join("alice")
    assert again.take()[:3] == ["META", "ACKN", "CLNFalice"]
    assert len(harness.rooms()) == 1
    assert_no_crash(harness)


# -- kicks, shutdown, inactivity, protocol errors ---------------------------------------------------------


def test_operator_kick_sends_disc_and_closes() -> None:
    harness = AahHarness()
    web = harness.hall.login("webop", RecordingListener(), protocol="web")
    room = web.create_room("aah")
    alice, bob = harness.join("alice"), harness.join("bob")
    alice.take()
    bob.take()
    web.kick(room.room_id, 1)
    harness.settle()
    assert bob.take() == ["DISCKicked by an administrator."]
    assert bob.closed
    assert alice.take() == ["CLEXbob"]
    assert harness.hall.stats()["users"] == 2  # webop and alice


def test_server_shutdown_sends_disc_to_every_seat() -> None:
    harness = AahHarness()
    alice, bob, carol = players(harness, "alice", "bob", "carol")
    lobby = harness.join("dave")
    lobby.take()
    stranger = harness.connect("x")
    harness.hall.shutdown("Server stopping.")
    harness.settle()
    for client in (alice, bob, carol, lobby):
        assert client.take() == ["DISCGame ended by server or administrator."]
        assert client.closed
    assert not stranger.closed  # unknown to the hall: the server closes it itself
    assert_no_crash(harness)


def test_inactive_seat_is_disconnected_after_kick_after_skips() -> None:
    harness = AahHarness(seed=1, kick_after_skips=1)
    alice, _bob, carol, dave = players(harness, "alice", "bob", "carol", "dave")
    alice.pick(5001)
    carol.pick(5021)
    dave.take()
    harness.advance(30)
    assert dave.take() == [
        "CRTO",
        "BDCSPlayer dave failed to make a choice within the time-limit and has been skipped.",
        "DISCDisconnected due to inactivity.",
    ]
    assert dave.closed
    assert "CLEXdave" in alice.take()
    again = harness.join("dave")
    assert again.take()[2] == "CLNFdave"  # a fresh seat at a new table
    assert_no_crash(harness)


def test_twenty_protocol_errors_in_a_row_disconnect() -> None:
    harness = AahHarness()
    alice, bob = harness.join("alice"), harness.join("bob")
    alice.take()
    bob.take()
    bob.send_raw(b"ZZZZ\x03" * 19 + b"PING\x03")  # an accepted command resets the count
    assert bob.take() == ["UNRGUnknown command (ZZZZ)."] * 19 + ["PONG"]
    bob.send_raw(b"ZZZZ\x03" * 19)
    bob.send("SMSG", "x" * 201)
    assert bob.take() == [
        *["UNRGUnknown command (ZZZZ)."] * 19,
        "UNRGMessages have a 200-character limit.",
        "DISCToo many protocol errors.",
    ]
    assert bob.closed
    assert alice.take() == ["CLEXbob"]


def test_connection_lost_during_the_handshake_leaves_nothing_behind() -> None:
    harness = AahHarness()
    client = harness.connect("alice")
    client.send("JOIN", "alice")
    client.hang_up()
    harness.advance(2)
    assert client.take() == ["META"]
    assert harness.hall.stats()["users"] == 0 and harness.rooms() == []


# -- a hall bug found on the way (see the report) ---------------------------------------------------------


def test_hall_leaving_logout_after_an_engine_kick_does_not_raise() -> None:
    """After the engine released a seat on its own (``kick_after_skips``) the room forgets the
    member, but the user still lists the room, so a leaving logout asks the room to release a
    member it no longer has (``HallError not_in_room``). A dropping logout is tolerant."""
    harness = AahHarness(seed=1, kick_after_skips=1, deck=dialogue_deck())
    listeners = {name: RecordingListener() for name in ("alice", "bob", "carol", "dave")}
    sessions = {name: harness.hall.login(name, lis, protocol="test") for name, lis in listeners.items()}
    room_id = sessions["alice"].create_room("aah").room_id
    for session in sessions.values():
        session.join(room_id)
    harness.advance(15)
    for name in ("alice", "carol"):
        hand = harness.table().view(list(sessions).index(name))["hand"]
        sessions[name].act(room_id, Pick((hand[0]["id"],)))
    harness.advance(30)  # dave did not pick: kicked by the engine
    assert listeners["dave"].ended_calls[-1][1] is CloseReason.INACTIVE
    sessions["dave"].logout(dropped=False)


def test_meta_reply_after_the_handshake_is_ignored() -> None:
    harness = AahHarness()
    alice = harness.join("alice")
    alice.take()
    alice.send("META", encode_client_meta(300))
    assert alice.take() == []
    assert not alice.closed


def test_rejoin_wins_over_an_open_lobby_table_and_meta_describes_the_held_table() -> None:
    harness = AahHarness()
    alice, _bob, carol = players(harness, "alice", "bob", "carol")
    carol.hang_up()
    lobby = harness.join("dave")  # a second table, in its lobby
    assert lobby.take()[2] == "CLNFdave"
    client = harness.connect("carol")
    client.send("JOIN", "carol")
    client.send("META")  # during the handshake: the table this JOIN would land at
    frames = client.take()
    assert frames[0] == "META" and decode_server_meta(frames[1][4:]).players == 3
    client.send("META", encode_client_meta(200))
    assert client.take()[:3] == ["ACKN", "CLNFalice\0bob\0carol", "GSTR"]
    assert alice.take()[-1] == "BDCScarol has reconnected."
    assert_no_crash(harness)


@pytest.mark.parametrize("bytewise", [False, True])
def test_a_second_connection_cannot_take_a_seat_back_twice(bytewise: bool) -> None:
    harness = AahHarness(bytewise=bytewise)
    _alice, _bob, carol = players(harness, "alice", "bob", "carol")
    carol.hang_up()
    first = harness.join("carol")
    assert first.take()[1] == "ACKN"
    second = harness.connect("carol2")
    second.send("JOIN", "Carol")
    second.send("META", encode_client_meta(200))
    assert second.take() == ["META", "REFUNickname in use."]


def test_a_pick_in_the_turn_its_room_closed_is_dropped_not_an_internal_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The room closes (aborted, drained, lease lost) and the seat is gone at once, but the
    seat's ``DISC`` leaves only with the turn's deliveries, after the commit: with a store that
    commits in the background (PostgreSQL) a ``PICK`` can arrive in between. It is dropped
    quietly (the ``DISC`` says why), not answered "Internal error." with a logged traceback."""
    harness = AahHarness()
    alice, _bob, _carol = players(harness, "alice", "bob", "carol")  # bob is the czar
    room = harness.rooms()[0]
    hand = [frame.args[0] for frame in alice.all_frames() if frame.command == "WHTE"]
    harness.hall.room(room.room_id).close(CloseReason.SHUTDOWN, "Drained.")
    with caplog.at_level(logging.ERROR):
        alice.dialogue.data_received(b"PICK" + hand[-1].encode() + b"\x03")  # before the flush
    harness.settle()
    assert "internal error" not in caplog.text
    assert alice.take() == ["DISCGame ended by server or administrator."]
    assert_no_crash(harness)

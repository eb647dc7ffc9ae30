"""Joining (specs/aah.md 3, golden tests 13.2 and 13.3; acceptance 5-10): the META exchange,
every refusal as one REFU then a close, the state rules before the join, placement on tables."""

from __future__ import annotations

import base64

import pytest
from aah_dialogue_support import AahHarness, assert_no_crash

from gamehall.protocols.aah.meta import SERVER_TAGS, decode_server_meta, encode_client_meta, server_meta_xml

SERVER_META_DEFAULTS_ONE_PLAYER = (
    "METAPG1ldGE+DQogIDx2ZXJzaW9uPjIwMDwvdmVyc2lvbj4NCiAgPHBsYXllcm1heD41PC9wbGF5ZXJtYXg+DQogIDxwbGF5ZXJz"
    "PjE8L3BsYXllcnM+DQogIDxydWxlc2V0PlN0YW5kYXJkPC9ydWxlc2V0Pg0KICA8YXBsaW1pdD44PC9hcGxpbWl0Pg0KICA8dGlt"
    "ZW91dD4zMDwvdGltZW91dD4NCjwvbWV0YT4="
)
CLIENT_META = "METAPG1ldGE+DQogIDx2ZXJzaW9uPjIwMDwvdmVyc2lvbj4NCjwvbWV0YT4="


def meta_players(rendered: str) -> int:
    assert rendered.startswith("META")
    return decode_server_meta(rendered[4:]).players


# -- the successful join (13.2, acceptance 5 and 9) ------------------------------------------------


@pytest.mark.parametrize("bytewise", [False, True])
def test_three_clients_join_as_in_transcript_10_1(bytewise: bool) -> None:
    harness = AahHarness(bytewise=bytewise)
    alice = harness.connect("alice")
    alice.send("JOIN", "alice")
    assert alice.take() == ["META"]
    alice.send_raw(CLIENT_META.encode() + b"\x03")
    assert alice.take() == ["ACKN", "CLNFalice"]
    alice.send("META")
    assert alice.take() == [SERVER_META_DEFAULTS_ONE_PLAYER]

    bob = harness.join("bob")
    assert bob.take()[:3] == ["META", "ACKN", "CLNFalice\0bob"]
    assert alice.take() == ["CLJNbob"]

    carol = harness.join("carol")
    carol_frames = carol.take()
    assert carol_frames[:4] == [
        "META",
        "ACKN",
        "CLNFalice\0bob\0carol",
        "BDCSThe game will start in 15 seconds.",
    ]
    assert meta_players(carol_frames[4]) == 3 and len(carol_frames) == 5
    for other in (alice, bob):
        assert other.take() == ["CLJNcarol", "BDCSThe game will start in 15 seconds."]
    assert_no_crash(harness)


def test_server_meta_has_exactly_the_six_tags() -> None:
    """Acceptance 9: the XML of the reply holds each of the six tags once, in order."""
    harness = AahHarness()
    alice = harness.join("alice")
    reply = alice.take()[-1]
    xml = base64.b64decode(reply[4:]).decode()
    assert xml == server_meta_xml(decode_server_meta(reply[4:]))
    positions = [xml.index(f"<{tag}>") for tag in SERVER_TAGS]
    assert positions == sorted(positions)
    assert all(xml.count(f"<{tag}>") == 1 for tag in SERVER_TAGS)


def test_meta_describes_the_table_settings() -> None:
    harness = AahHarness(playermax=8, aplimit=12, timeout=45)
    harness.join("alice")
    bob = harness.join("bob")
    meta = decode_server_meta(bob.take()[-1][4:])
    described = (meta.playermax, meta.players, meta.aplimit, meta.timeout, meta.ruleset)
    assert described == (8, 2, 12, 45, "Standard")


def test_meta_before_join_describes_where_a_join_would_land() -> None:
    """3.2, last paragraph: not-yet-created table -> defaults with 0 players."""
    harness = AahHarness()
    probe = harness.connect("probe")
    probe.send("META")
    assert [meta_players(f) for f in probe.take()] == [0]
    harness.join("alice")
    probe.send("META")
    assert [meta_players(f) for f in probe.take()] == [1]
    probe.send("META", "ignored-outside-the-handshake")
    assert probe.take() == []


def test_meta_request_during_the_handshake_is_answered() -> None:
    harness = AahHarness()
    harness.join("alice")
    client = harness.connect("bob")
    client.send("JOIN", "bob")
    client.send("META")
    frames = client.take()
    assert frames[0] == "META" and meta_players(frames[1]) == 1


def test_versions_100_and_200_are_accepted() -> None:
    """Acceptance 7 (accepted half)."""
    harness = AahHarness()
    for nick, version in (("v100", 100), ("v200", 200), ("v299", 299)):
        assert harness.join(nick, version=version).take()[1] == "ACKN"


# -- refusals: one REFU, then the close (13.3, acceptance 6-8) --------------------------------------


def refused(harness: AahHarness, nick: str, meta: str | None) -> list[str]:
    client = harness.connect(nick)
    client.send("JOIN", nick)
    if meta is not None:
        client.send_raw(meta.encode() + b"\x03")
    frames = client.take()
    assert client.closed and client.lost
    client.send("PING")  # input after the refusal is discarded
    assert client.take() == []
    return frames


def test_meta_timeout_refuses_after_1_5_s() -> None:
    """Acceptance 6."""
    harness = AahHarness()
    client = harness.connect("alice")
    client.send("JOIN", "alice")
    harness.advance(1.49)
    assert client.take() == ["META"] and not client.closed
    harness.advance(0.02)
    assert client.take() == ["REFUFailed to respond with metadata in time."]
    assert client.closed
    assert harness.rooms() == []


def test_meta_timers_are_per_connection() -> None:
    """One global META waiter let joins approve each other in 0.2.0."""
    harness = AahHarness()
    slow = harness.connect("slow")
    slow.send("JOIN", "slow")
    harness.advance(1.0)
    fast = harness.connect("fast")
    fast.send("JOIN", "fast")
    harness.advance(0.6)
    assert slow.take() == ["META", "REFUFailed to respond with metadata in time."]
    fast.send("META", encode_client_meta(200))
    assert fast.take() == ["META", "ACKN", "CLNFfast"]


@pytest.mark.parametrize(
    ("meta", "reason"),
    [
        ("META!!notbase64!!", "Malformed data."),
        ("META" + base64.b64encode(b"<meta><version>2x0</version></meta>").decode(), "Malformed data."),
        ("META" + base64.b64encode(b"<meta></meta>").decode(), "Malformed data."),
        ("META" + base64.b64encode(b"<meta><version>200</version>").decode(), "Malformed data."),
        ("META" + base64.b64encode(b'<!DOCTYPE m [<!ENTITY e "x">]><meta/>').decode(), "Malformed data."),
        ("META" + encode_client_meta(300), "Outdated server."),
        ("META" + encode_client_meta(10_000), "Outdated server."),
        ("META" + encode_client_meta(0), "Outdated client."),
        ("META" + encode_client_meta(99), "Outdated client."),
    ],
)
def test_bad_meta_replies_refuse(meta: str, reason: str) -> None:
    """13.3 and acceptance 7: bad Base64 / XML / version."""
    assert refused(AahHarness(), "alice", meta) == ["META", f"REFU{reason}"]


@pytest.mark.parametrize("nick", ["Al ice", "a" * 21, "", "bob!", "caf\u00e9", "x\ny"])
def test_bad_nicks_refuse_after_the_meta_exchange(nick: str) -> None:
    """Acceptance 8 (syntax)."""
    harness = AahHarness()
    client = harness.connect("x")
    # an empty nick needs an empty first argument: the leniency eats one NUL, so send two
    client.send_raw(b"JOIN\x00\x00\x03" if nick == "" else b"JOIN" + nick.encode() + b"\x03")
    client.send("META", encode_client_meta(200))
    assert client.take() == ["META", "REFUNickname contains invalid characters."]
    assert client.closed


def test_twenty_character_nick_with_underscore_and_bar_is_fine() -> None:
    nick = "A_b|9" * 4
    assert AahHarness().join(nick).take()[2] == f"CLNF{nick}"


def test_join_without_a_nick_refuses_at_once() -> None:
    harness = AahHarness()
    client = harness.connect("x")
    client.send("JOIN")
    assert client.take() == ["REFUMalformed data."]
    assert client.closed


def test_nick_in_use_ignoring_case_refuses() -> None:
    """Acceptance 8 (uniqueness) and 13.3."""
    harness = AahHarness()
    alice = harness.join("alice")
    alice.take()
    assert refused(harness, "ALICE", "META" + encode_client_meta(200)) == ["META", "REFUNickname in use."]
    assert alice.take() == []  # the others see nothing of it
    assert harness.rooms()[0].seats == {0: "alice"}


def test_nick_of_a_browser_user_is_in_use() -> None:
    from recording_listener import RecordingListener

    harness = AahHarness()
    harness.hall.login("Webby", RecordingListener(), protocol="web")
    assert refused(harness, "webby", "META" + encode_client_meta(200)) == ["META", "REFUNickname in use."]


def test_handshake_ignores_everything_but_meta_and_disc() -> None:
    harness = AahHarness()
    client = harness.connect("alice")
    client.send("JOIN", "alice")
    client.send_raw(b"PING\x03SMSGhi\x03PICK1\x03JOINx\x03ACKN\x03zzzz\x03A\x03")
    assert client.take() == ["META"]
    client.send("META", encode_client_meta(200))
    assert client.take() == ["ACKN", "CLNFalice"]


def test_disc_during_the_handshake_closes_silently() -> None:
    harness = AahHarness()
    client = harness.connect("alice")
    client.send("JOIN", "alice")
    client.send("DISC")
    assert client.take() == ["META"] and client.closed
    harness.advance(5)
    assert client.take() == []


# -- before JOIN (3.1) ---------------------------------------------------------------------------------


def test_before_join_commands_get_not_joined() -> None:
    harness = AahHarness()
    client = harness.connect("x")
    client.send_raw(b"SMSGhi\x03NICKbob\x03PICK5001\x03CZPK5001\x03PONG\x03PING\x03")
    assert client.take() == ["UNRGNot joined."] * 4 + ["PONG"]


def test_disc_before_join_closes_silently() -> None:
    harness = AahHarness()
    client = harness.connect("x")
    client.send("DISC")
    assert client.take() == [] and client.closed


def test_second_join_is_already_joined() -> None:
    harness = AahHarness()
    alice = harness.join("alice")
    alice.take()
    alice.send("JOIN", "alice2")
    assert alice.take() == ["UNRGAlready joined."]


# -- placement (3.5, acceptance 10) ----------------------------------------------------------------------


def start_table(harness: AahHarness, *nicks: str) -> None:
    for nick in nicks:
        harness.join(nick)
    harness.advance(15)


def test_join_while_a_table_is_in_game_lands_in_a_new_lobby_table() -> None:
    harness = AahHarness()
    start_table(harness, "alice", "bob", "carol")
    dave = harness.join("dave")
    assert dave.take()[:3] == ["META", "ACKN", "CLNFdave"]
    rooms = harness.rooms()
    assert [sorted(r.seats.values()) for r in rooms] == [["alice", "bob", "carol"], ["dave"]]
    assert [r.started for r in rooms] == [True, False]


def test_full_lobby_table_sends_the_next_join_to_a_new_table() -> None:
    harness = AahHarness(playermax=3, autostart_delay=0)
    for nick in ("a1", "a2", "a3"):
        harness.join(nick)
    assert harness.join("b1").take()[2] == "CLNFb1"
    assert len(harness.rooms()) == 2


def test_first_open_table_in_creation_order_is_taken() -> None:
    harness = AahHarness(playermax=3, autostart_delay=0)
    first = harness.join("a1")
    harness.join("a2")
    harness.join("a3")
    harness.join("b1")  # second table
    first.send("DISC")  # a seat frees up at the first table
    assert harness.join("c1").take()[2] == "CLNFa2\0a3\0c1"


def test_private_and_passworded_tables_are_not_open() -> None:
    from recording_listener import RecordingListener

    harness = AahHarness()
    web = harness.hall.login("web", RecordingListener(), protocol="web")
    web.create_room("aah", {"legacy_open": False})
    web.create_room("aah", None, extra={"legacy_open": False})
    web.create_room("aah", None, password="secret")
    alice = harness.join("alice")
    assert alice.take()[2] == "CLNFalice"
    assert [len(r.seats) for r in harness.rooms()] == [0, 0, 0, 1]


def test_max_tables_reached_refuses() -> None:
    """Acceptance 10 (second half)."""
    harness = AahHarness(max_tables=1)
    start_table(harness, "alice", "bob", "carol")
    assert refused(harness, "dave", "META" + encode_client_meta(200)) == [
        "META",
        "REFUNo open table; try again later.",
    ]
    assert len(harness.rooms()) == 1
    assert harness.hall.stats()["users"] == 3  # the refused login was undone
    assert_no_crash(harness)

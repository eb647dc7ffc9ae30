"""Connection setup (note §2, §11.1-3): hello, settype, handshake, ping, version check, closing."""

from __future__ import annotations

import struct

import msgpack

from gamehall.protocols.cg import registry
from gamehall.protocols.cg.codec import Packet
from gamehall.protocols.cg.framing import encode_frame

from .cg_support import CgHarness
from .test_framing import GOLDEN_HELLO


def closeconn(reason: str | None) -> Packet:
    return Packet(registry.CLOSECONN, {"reason": reason})


def test_hello_at_once_then_the_handshake_with_exactly_the_30_names() -> None:
    client = CgHarness().connect("Alice")
    assert client.wire.writes == [GOLDEN_HELLO]
    client.take()
    client.send(registry.SETTYPE, conntype="classic")
    (handshake,) = client.take()
    assert handshake.name == registry.HANDSHAKE
    assert handshake.body["version"] == "0.1.3a0" and handshake.body["protoversion"] == 2
    reg = handshake.body["registry"]
    assert len(reg) == 30
    assert reg["peng3dnet:internal.closeconn"] == 16 and reg["cg:version.check"] == 64
    assert reg["cg:game.dk.round.change"] == 88 and "gamehall:chat" not in reg


def test_settype_without_a_conntype_means_classic() -> None:
    client = CgHarness().connect("Alice")
    client.take()
    client.send(registry.SETTYPE)
    assert [p.name for p in client.take()] == [registry.HANDSHAKE]


def test_an_unknown_conntype_is_closed() -> None:
    client = CgHarness().connect("Alice")
    client.take()
    client.send(registry.SETTYPE, conntype="telnet")
    assert client.take() == [closeconn("unknownconntype")]
    assert client.wire.closed


def test_ping_answers_with_every_key_and_no_handshake() -> None:
    harness = CgHarness()
    client = harness.connect("Prober")
    client.take()
    client.send(registry.SETTYPE, conntype="ping")
    client.send_raw(encode_frame(registry.PING_ID, {"time": 12.5, "user": ""}))
    client.codec.use_ids({registry.PONG_ID: "pong"})
    (pong,) = client.take()
    assert pong.name == "pong"
    body = pong.body
    for key in (
        "oldmsg",
        "name",
        "visiblename",
        "slogan",
        "maxplayers",
        "playercount",
        "playerlist",
        "canlogon",
        "version",
        "flavor",
        "timestamp",
        "peng3dnet",
    ):
        assert key in body
    assert body["oldmsg"] == {"time": 12.5, "user": ""}
    assert body["version"] == 1 and body["flavor"] == "vanilla"
    assert body["flavors"] == ["vanilla", "gamehall"]
    assert body["peng3dnet"] == {"version": "0.1.3a0", "release": "0.1.3", "protoversion": 2}
    assert body["playercount"] == 0
    client.send_raw(encode_frame(16, {"reason": "pingcomplete"}))
    assert client.wire.closed


def test_version_check_vanilla_has_exactly_the_four_keys() -> None:
    client = CgHarness().connect("Alice")
    client.handshake("vanilla")
    reply = client.take()[-1]
    assert reply == Packet(
        "cg:version.check", {"protoversion": 1, "semver": "0.3.2", "flavor": "vanilla", "compatible": True}
    )
    assert client.dialogue.state == "auth"


def test_version_check_gamehall_adds_the_extension_registry() -> None:
    client = CgHarness().connect("Alice")
    client.handshake("gamehall")
    reply = client.take()[-1]
    assert reply.body["flavor"] == "gamehall" and reply.body["compatible"] is True
    assert reply.body["extensions"] == {"gamehall:chat": 128}


def test_an_unknown_flavor_or_protoversion_is_incompatible_then_closed() -> None:
    for protoversion, flavor in ((1, "foo"), (2, "vanilla")):
        client = CgHarness().connect("Alice")
        client.send(registry.SETTYPE, conntype="classic")
        client.send(registry.HANDSHAKE_ACCEPT, success=True)
        client.send("cg:version.check", protoversion=protoversion, semver="9", flavor=flavor)
        packets = client.take()
        assert packets[-2] == Packet(
            "cg:version.check",
            {"protoversion": 1, "semver": "0.3.2", "flavor": "vanilla", "compatible": False},
        )
        assert packets[-1] == closeconn("versionmismatch")
        assert client.wire.closed


def test_packets_in_the_wrong_state_or_with_wrong_keys_are_dropped_without_reply() -> None:
    client = CgHarness().connect("Alice")
    client.take()
    client.send(registry.SETTYPE, conntype="classic")
    client.send(registry.HANDSHAKE_ACCEPT, success=True)
    client.take()
    client.send("cg:auth", username="Alice", pwd="x")  # auth before version check
    client.send("cg:lobby.create")
    client.send("cg:version.check", protoversion=1, semver="x")  # missing flavor
    client.send("cg:version.check", protoversion=1, semver="x", flavor="vanilla", extra=1)  # unknown key
    assert client.take() == []
    assert client.dialogue.state == "versioncheck" and not client.wire.closed


def test_an_unknown_packet_id_is_dropped_and_the_connection_goes_on() -> None:
    client = CgHarness().connect("Alice")
    client.send(registry.SETTYPE, conntype="classic")
    client.send(registry.HANDSHAKE_ACCEPT, success=True)
    client.take()
    client.send_raw(encode_frame(128, {"text": "hi"}))  # chat is no packet before gamehall is chosen
    client.send_raw(encode_frame(4000, {}))
    client.send("cg:version.check", protoversion=1, semver="x", flavor="vanilla")
    assert client.take()[-1].body["compatible"] is True


def _bad_input_closes(data: bytes) -> None:
    harness = CgHarness()
    client = harness.connect("Alice")
    client.handshake()
    client.take()
    client.send_raw(data)
    assert client.take() == [closeconn("protocolerror")]
    assert client.wire.closed
    client.send("cg:auth", username="Alice", pwd="x")  # input after the close is discarded
    assert client.take() == []


def test_undecodable_bodies_and_bad_lengths_close_with_protocolerror() -> None:
    def frame(payload: bytes, flags: int = 0, packet_id: int = 66) -> bytes:
        return struct.pack(">IIH", 6 + len(payload), packet_id, flags) + payload

    _bad_input_closes(frame(msgpack.packb({"username": "x"}), flags=2))  # AES
    _bad_input_closes(frame(b"\x78\x9c garbage", flags=1))  # bad zlib
    _bad_input_closes(frame(b"\xc1\xc1"))  # not msgpack
    _bad_input_closes(frame(msgpack.packb(["username"])))  # not a map
    _bad_input_closes(struct.pack(">IIH", 2**31, 66, 0))  # oversized


def test_nothing_but_auth_may_linger_30_seconds() -> None:
    harness = CgHarness()
    client = harness.connect("Slow")
    client.handshake()
    client.take()
    harness.clock.advance(29.0)
    assert not client.wire.closed
    harness.clock.advance(1.5)
    assert client.take() == [closeconn("timeout")]
    assert client.wire.closed


def test_byte_by_byte_setup_gives_the_same_packets() -> None:
    whole = CgHarness().connect("Alice")
    whole.register()
    split = CgHarness(bytewise=True).connect("Alice")
    split.register()
    assert [p.name for p in whole.all()] == [p.name for p in split.all()]

"""Framing as a connection sees it (specs/aah.md 2.2, 8; golden test 13.1; acceptance 1-4).

Acceptance 2 (never a NUL at offset 4, never a frame under 4 bytes, one trailing ETX per frame)
is checked on every write of every dialogue test: :class:`aah_dialogue_support.FakeWire`
asserts it for each ``send``.
"""

from __future__ import annotations

import pytest
from aah_dialogue_support import AahHarness, assert_no_crash

from gamehall.protocols.aah.meta import encode_client_meta

JOIN_ALICE = b"JOINalice\x03"
META_200 = b"META" + encode_client_meta(200).encode() + b"\x03"


def handshake_transcript(harness: AahHarness, chunks: list[bytes]) -> list[str]:
    client = harness.connect("alice")
    for chunk in chunks:
        client.send_raw(chunk, bytewise=False)
    client.send_raw(META_200, bytewise=False)
    return client.take()


def test_join_split_at_every_byte_boundary_gives_the_same_transcript() -> None:
    expected = handshake_transcript(AahHarness(), [JOIN_ALICE])
    assert expected[:3] == ["META", "ACKN", "CLNFalice"]
    for cut in range(1, len(JOIN_ALICE)):
        assert handshake_transcript(AahHarness(), [JOIN_ALICE[:cut], JOIN_ALICE[cut:]]) == expected


def test_join_in_one_byte_writes_gives_the_same_transcript() -> None:
    """Acceptance 1."""
    expected = handshake_transcript(AahHarness(), [JOIN_ALICE])
    one_by_one = [JOIN_ALICE[i : i + 1] for i in range(len(JOIN_ALICE))]
    assert handshake_transcript(AahHarness(), one_by_one) == expected


def test_fifty_frames_in_one_read_are_all_handled_in_order() -> None:
    harness = AahHarness()
    client = harness.connect("x")
    client.send_raw(b"PING\x03" * 49 + b"META\x03", bytewise=False)
    frames = client.take()
    assert frames[:49] == ["PONG"] * 49
    assert frames[49].startswith("META") and len(frames) == 50


@pytest.mark.parametrize("bytewise", [False, True])
def test_garbage_before_join_gets_unrg_and_harms_nobody(bytewise: bool) -> None:
    """Acceptance 3: ``\\x03\\x03``, ``AB``, ``join``, ``0001`` get nothing / UNRG x3."""
    harness = AahHarness(bytewise=bytewise)
    bob = harness.join("bob")
    bob.take()
    client = harness.connect("x")
    client.send_raw(b"\x03\x03")
    assert client.take() == []
    client.send_raw(b"AB\x03join\x030001\x03")
    assert client.take() == [
        "UNRGMalformed command.",
        "UNRGUnknown command (join).",
        "UNRGUnknown command (0001).",
    ]
    assert not client.closed
    client.send("PING")
    assert client.take() == ["PONG"]
    bob.send("PING")
    assert bob.take() == ["PONG"]
    assert_no_crash(harness)


def test_garbage_after_join_gets_unrg() -> None:
    harness = AahHarness()
    alice = harness.join("alice")
    alice.take()
    alice.send_raw(b"\x03\x03A\x03ENDG\x03pick1\x03ACKN\x03RWINx\x03")
    assert alice.take() == [
        "UNRGMalformed command.",
        "UNRGUnknown command (ENDG).",
        "UNRGUnknown command (pick).",
        "UNRGCommand not accepted from clients (ACKN).",
        "UNRGCommand not accepted from clients (RWIN).",
    ]
    alice.send_raw(b"\x01\x02\xff\xfeXY\x03")
    assert alice.take() == ["UNRGUnknown command (????)."]


@pytest.mark.parametrize("seated", [False, True])
def test_oversize_frame_then_a_valid_frame(seated: bool) -> None:
    """Acceptance 4: 20 000 bytes without ETX -> "Frame too long."; the next frame works."""
    harness = AahHarness()
    client = harness.join("alice") if seated else harness.connect("alice")
    client.take()
    client.send_raw(b"SMSG" + b"x" * 20_000)
    assert client.take() == ["UNRGFrame too long."]
    client.send_raw(b"more bytes of the same frame\x03PING\x03")
    assert client.take() == ["PONG"]


def test_invalid_utf8_is_unrg_when_seated_and_before_join() -> None:
    harness = AahHarness()
    client = harness.connect("x")
    client.send_raw(b"SMSG\xff\xfe\x03")
    assert client.take() == ["UNRGInvalid UTF-8."]
    alice = harness.join("alice")
    alice.take()
    alice.send_raw(b"SMSGcaf\xc3\x03")
    assert alice.take() == ["UNRGInvalid UTF-8."]
    assert not alice.closed


def test_invalid_utf8_during_the_handshake_refuses() -> None:
    harness = AahHarness()
    client = harness.connect("alice")
    client.send("JOIN", "alice")
    client.send_raw(b"META\xff\x03")
    assert client.take() == ["META", "REFUMalformed data."]
    assert client.closed


def test_one_nul_after_the_command_is_tolerated() -> None:
    harness = AahHarness()
    client = harness.connect("alice")
    client.send_raw(b"JOIN\x00alice\x03")
    client.send_raw(b"META\x00" + encode_client_meta(200).encode() + b"\x03")
    assert client.take()[:3] == ["META", "ACKN", "CLNFalice"]
    client.send_raw(b"SMSG\x00hello\x03")
    assert client.take() == ["RMSGalice\x00hello"]

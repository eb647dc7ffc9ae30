"""Decoder bounds of issue 10, byte level, for the line and ETX codecs: an over-long frame is
reported and skipped as the notes say, but one that is still going at 64 times the cap
abandons the stream (a non-recoverable error the dialogue answers and closes on); runs of
empty frames or blank lines produce nothing; the result never depends on how the bytes were
split."""

from __future__ import annotations

import random

import pytest

from gamehall.protocols._core import NEED_DATA, ProtocolError
from gamehall.protocols.aah.codec import MAX_DISCARD as AAH_DISCARD
from gamehall.protocols.aah.codec import AahCodec, Frame
from gamehall.protocols.mrjack.codec import DISCARD_FACTOR, MAX_LINE_BYTES, TermCodec
from gamehall.protocols.urserver.codec import MAX_DISCARD as UR_DISCARD
from gamehall.protocols.urserver.codec import MAX_LINE, UrCodec


def drain(codec: object) -> list[object]:
    """Messages, and ("error", recoverable) for each ProtocolError, until NEED_DATA or a
    non-recoverable error."""
    out: list[object] = []
    while True:
        try:
            message = codec.next_message()  # type: ignore[attr-defined]
        except ProtocolError as exc:
            out.append(("error", exc.recoverable))
            if not exc.recoverable:
                return out
            continue
        if message is NEED_DATA:
            return out
        out.append(message)


def feed(codec: object, data: bytes, piece: int) -> list[object]:
    out: list[object] = []
    for offset in range(0, len(data), piece):
        codec.receive_data(data[offset : offset + piece])  # type: ignore[attr-defined]
        out += drain(codec)
        if out and out[-1] == ("error", False):
            break
    return out


@pytest.mark.parametrize("piece", [1, 7, 4096])
def test_urserver_line_past_the_discard_bound_abandons_the_stream(piece: int) -> None:
    long_but_ended = b"x" * (MAX_LINE + 1) + b"\nPING\n"
    assert feed(UrCodec(), long_but_ended, piece) == [("error", True), "PING"]
    if piece == 1:
        return  # byte by byte through 64 KiB is slow and adds nothing
    endless = b"x" * (UR_DISCARD + 2 * MAX_LINE) + b"\nPING\n"
    assert feed(UrCodec(), endless, piece) == [("error", False)]


def test_urserver_blank_lines_telnet_and_controls_give_nothing() -> None:
    codec = UrCodec()
    codec.receive_data(b"\n\r\n  \r" * 2000 + b"\xff\xfb\x01\xff\xfa\x18" + b"junk" * 100)
    codec.receive_data(b"\xff\xf0\x01PI\x00NG\xff")  # SB ends in this read; IAC at the end
    codec.receive_data(b"\xf1\n")  # ... completed by the next read (IAC NOP)
    assert drain(codec) == ["PING"]


@pytest.mark.parametrize("piece", [1, 13, 4096])
def test_aah_frame_past_the_discard_bound_abandons_the_stream(piece: int) -> None:
    assert feed(AahCodec(), b"\x03" * 5000 + b"PING\x03", piece) == [Frame("PING")]
    if piece == 1:
        return
    endless = b"x" * (AAH_DISCARD + 20_000)
    assert feed(AahCodec(), endless, piece) == [("error", True), ("error", False)]


@pytest.mark.parametrize("piece", [1, 13, 4096])
def test_mrjack_line_past_the_discard_bound_abandons_the_stream(piece: int) -> None:
    out = feed(TermCodec(), b" \t\r\n" * 3000 + b"ison\n", piece)
    assert len(out) == 1 and out[0].line == "ison"  # type: ignore[attr-defined]
    if piece == 1:
        return
    endless = b"x" * (DISCARD_FACTOR * MAX_LINE_BYTES + 20_000)
    assert feed(TermCodec(), endless, piece) == [("error", True), ("error", False)]


def test_line_codecs_give_the_same_result_whatever_the_split() -> None:
    rng = random.Random(11)
    alphabet = b"ab \r\n\x03\x00\xff\xfa\xf0\xfb"
    for _ in range(200):
        data = bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 300)))
        for make in (UrCodec, AahCodec, TermCodec):
            whole = feed(make(), data, len(data) or 1)
            pieces = feed(make(), data, rng.randrange(1, 20))
            assert repr(pieces) == repr(whole), (make.__name__, data)

"""writeUTF framing against note §2: the §2.4 vectors byte for byte (encode, and every decode
row with Java's reading, both mutf8 builds' readings and the server's verdict), the frame
reader (splits, several frames per read, limits) and the strict gate's round trip."""

from __future__ import annotations

import mutf8
import mutf8.mutf8 as pure_mutf8
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamehall.protocols._core import NEED_DATA
from gamehall.protocols.jduplicate.errors import WireError
from gamehall.protocols.jduplicate.framing import (
    MAX_INBOUND_FRAME,
    FrameReader,
    FrameTooLong,
    decode_body,
    encode_text,
)

BUILDS = [
    pytest.param(mutf8.decode_modified_utf8, id="c-build"),
    pytest.param(pure_mutf8.decode_modified_utf8, id="pure-build"),
]

# -- §2.4 encoding vectors ----------------------------------------------------------------------

XML_START = '<?xml version="1.0" encoding="UTF-8"?><startgamerequest/>'

ENCODING_VECTORS = [
    ("PLAYERNAME|Judge Hedd", "00 15 50 4c 41 59 45 52 4e 41 4d 45 7c 4a 75 64 67 65 20 48 65 64 64"),
    ("STARTGAMEREQUEST|", "00 11 53 54 41 52 54 47 41 4d 45 52 45 51 55 45 53 54 7c"),
    ("é", "00 02 c3 a9"),
    ("€", "00 03 e2 82 ac"),
    ("\x00", "00 02 c0 80"),
    ("\U0001f600", "00 06 ed a0 bd ed b8 80"),
    ("\U0010ffff", "00 06 ed af bf ed bf bf"),
    (
        "CHATREQUEST|Ça va \U0001f600",
        "00 19 43 48 41 54 52 45 51 55 45 53 54 7c c3 87 61 20 76 61 20 ed a0 bd ed b8 80",
    ),
    ("", "00 00"),
]


@pytest.mark.parametrize(("text", "frame"), ENCODING_VECTORS)
def test_encoding_vectors(text: str, frame: str) -> None:
    assert encode_text(text) == bytes.fromhex(frame)


def test_xml_vector_is_a_57_byte_body() -> None:
    frame = encode_text(XML_START)
    assert frame[:2] == b"\x00\x39"
    assert frame[2:7] == bytes.fromhex("3c 3f 78 6d 6c")
    assert len(frame) == 2 + 57


def test_a_body_of_65536_bytes_is_never_emitted() -> None:
    with pytest.raises(FrameTooLong):
        encode_text("é" * 32768)
    assert isinstance(FrameTooLong("x"), ValueError)
    assert len(encode_text("é" * 32767)) == 2 + 65534  # the largest that fits
    assert encode_text("a" * 65535)[:2] == b"\xff\xff"


# -- §2.4 decoding table ------------------------------------------------------------------------

ACCEPTED = [("c1 81", "A"), ("ed a0 bd ed b8 80", "\U0001f600"), ("c3 a9", "é"), ("e2 82 ac", "€")]
MALFORMED = [
    "c0 80",  # step 3: NUL
    "00",  # step 1: raw NUL
    "e0 80 80",  # step 3: an overlong NUL
    "c3 41",  # step 1: bad continuation byte
    "c3",  # truncated
    "e2 82",  # truncated
    "80",  # step 1: stray bytes
    "bf",
    "f8",
    "ff",
    "f0 9f 98 80",  # step 1: never the 4-byte form
    "ed a0 80",  # step 3: lone surrogates
    "ed b8 80",
]


@pytest.mark.parametrize("decode", BUILDS)
@pytest.mark.parametrize(("body", "text"), ACCEPTED)
def test_bodies_the_server_accepts(decode: object, body: str, text: str) -> None:
    assert decode_body(bytes.fromhex(body), decode) == text  # type: ignore[arg-type]


@pytest.mark.parametrize("decode", BUILDS)
@pytest.mark.parametrize("body", MALFORMED)
def test_bodies_the_server_refuses_with_99000(decode: object, body: str) -> None:
    with pytest.raises(WireError) as info:
        decode_body(bytes.fromhex(body), decode)  # type: ignore[arg-type]
    assert (info.value.code, info.value.recoverable) == ("99000", True)


def test_what_each_mutf8_build_makes_of_the_table() -> None:
    """The note's columns for the two builds: why the gate must run before mutf8."""
    c_build, pure = mutf8.decode_modified_utf8, pure_mutf8.decode_modified_utf8
    for decode in (c_build, pure):
        assert decode(b"\xc0\x80") == "\x00"
        assert decode(b"\xc1\x81") == "A"
        assert decode(b"\xe0\x80\x80") == "\x00"
        assert decode(b"\xc3\x41") == "\xc1"  # wrong: Java throws
        assert decode(b"\xed\xa0\x80") == "\ud800"
        for truncated in (b"\xc3", b"\xe2\x82", b"\x00"):
            with pytest.raises(UnicodeDecodeError):
                decode(truncated)
    assert c_build(b"\x80") == "\x80"  # wrong: a stray continuation byte
    assert c_build(b"\xf0\x9f\x98\x80") == "\U0001f600"  # wrong: a 4-byte form
    with pytest.raises(RuntimeError):
        pure(b"\xff")


@pytest.mark.parametrize("control", ["\x01", "\x08", "\x0b", "\x0c", "\x0e", "\x1f"])
def test_control_characters_are_refused(control: str) -> None:
    with pytest.raises(WireError):
        decode_body(("CHATREQUEST|a" + control).encode())


@pytest.mark.parametrize("allowed", ["\t", "\n", "\r"])
def test_tab_lf_and_cr_pass(allowed: str) -> None:
    assert decode_body(f"CHATREQUEST|a{allowed}b".encode()) == f"CHATREQUEST|a{allowed}b"


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_any_text_without_lone_surrogates_survives_encode_gate_decode(text: str) -> None:
    body = encode_text(text)[2:] if len(text) < 20000 else b""
    forbidden = any(c in text for c in "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c") or any(
        "\x0e" <= c <= "\x1f" for c in text
    )
    if forbidden:
        with pytest.raises(WireError):
            decode_body(body)
    else:
        assert decode_body(body) == text
        assert decode_body(body, pure_mutf8.decode_modified_utf8) == text


# -- the frame reader (note §13 item 2) -----------------------------------------------------------


def test_one_frame_split_over_three_writes() -> None:
    reader = FrameReader()
    frame = encode_text("PLAYERNAME|Judge Hedd")
    reader.receive_data(frame[:1])
    assert reader.next_body() is NEED_DATA
    reader.receive_data(frame[1:9])
    assert reader.next_body() is NEED_DATA
    reader.receive_data(frame[9:])
    assert reader.next_body() == b"PLAYERNAME|Judge Hedd"
    assert reader.next_body() is NEED_DATA
    assert reader.buffered == 0


def test_two_frames_in_one_write() -> None:
    reader = FrameReader()
    reader.receive_data(encode_text("STARTGAMEREQUEST|") + encode_text("MOVES|"))
    assert reader.next_body() == b"STARTGAMEREQUEST|"
    assert reader.next_body() == b"MOVES|"
    assert reader.next_body() is NEED_DATA


def test_an_empty_frame_is_a_legal_frame() -> None:
    reader = FrameReader()
    reader.receive_data(b"\x00\x00" + encode_text("MOVES|"))
    assert reader.next_body() == b""
    assert reader.next_body() == b"MOVES|"


def test_a_frame_over_8192_bytes_is_99004_and_the_stream_is_abandoned() -> None:
    reader = FrameReader()
    reader.receive_data(b"\x23\x28" + b"a" * 100)  # len = 9000
    with pytest.raises(WireError) as info:
        reader.next_body()
    assert (info.value.code, info.value.recoverable) == ("99004", False)
    reader.receive_data(encode_text("MOVES|"))
    with pytest.raises(WireError):
        reader.next_body()
    assert reader.buffered == 0


def test_a_frame_of_exactly_8192_bytes_is_read() -> None:
    reader = FrameReader()
    reader.receive_data(encode_text("a" * MAX_INBOUND_FRAME))
    assert reader.next_body() == b"a" * MAX_INBOUND_FRAME


def test_truncated_frames_wait_for_more_data() -> None:
    reader = FrameReader()
    reader.receive_data(b"\x00")
    assert reader.next_body() is NEED_DATA
    reader.receive_data(b"\x05abc")
    assert reader.next_body() is NEED_DATA
    assert reader.buffered == 5  # an EOF now is a lost connection

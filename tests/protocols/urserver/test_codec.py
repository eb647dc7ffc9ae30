"""UrServer line framing (note section 2): terminators, telnet bytes, control bytes, the line
cap, the charset fallback; fed whole and byte by byte, and fuzzed."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamehall.protocols._core import NEED_DATA, ProtocolError
from gamehall.protocols.urserver.codec import MAX_LINE, UrCodec


def lines_of(data: bytes, *, bytewise: bool = False) -> list[str | None]:
    """Decoded lines; ``None`` for each overlong line the codec reported."""
    codec = UrCodec()
    chunks = [data[i : i + 1] for i in range(len(data))] if bytewise else [data]
    out: list[str | None] = []
    for chunk in chunks:
        codec.receive_data(chunk)
        while True:
            try:
                line = codec.next_message()
            except ProtocolError as exc:
                assert exc.recoverable and exc.code == "line_too_long"
                out.append(None)
                continue
            if line is NEED_DATA:
                break
            assert isinstance(line, str)
            out.append(line)
    return out


@pytest.mark.parametrize("bytewise", [False, True])
@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"PING\n", ["PING"]),
        (b"PING\r\n", ["PING"]),
        (b"PING\r", ["PING"]),
        (b"\xff\xfd\x01PING\n", ["PING"]),
        (b"PING\r\nPONG\rVERSION\n", ["PING", "PONG", "VERSION"]),
        (b"\n\r\n   \n\tPING \t\n", ["PING"]),
        (b"NACHRICHT a\x00b\x07c\tdef\n", ["NACHRICHT abc def"]),
        (b"\xff\xfa\x18\x01\xff\xf0PING\n", ["PING"]),
        (b"PI\xff\xf1NG\n", ["PING"]),
        (b"PING\xff\xff\n", ["PING"]),
        ("NACHRICHT grüße\n".encode(), ["NACHRICHT grüße"]),
        ("NACHRICHT grüße\n".encode("latin-1"), ["NACHRICHT grüße"]),
        (b"PING", []),
    ],
)
def test_lines(data: bytes, expected: list[str], bytewise: bool) -> None:
    assert lines_of(data, bytewise=bytewise) == expected


def test_cr_at_the_end_of_one_read_and_lf_at_the_start_of_the_next_is_one_terminator() -> None:
    codec = UrCodec()
    codec.receive_data(b"PING\r")
    assert codec.next_message() == "PING"
    codec.receive_data(b"\nVERSION\n")
    assert codec.next_message() == "VERSION"
    assert codec.next_message() is NEED_DATA


@pytest.mark.parametrize("bytewise", [False, True])
def test_an_overlong_line_is_skipped_to_its_end_and_reported_once(bytewise: bool) -> None:
    data = b"A" * MAX_LINE + b"\nPING\n" + b"B" * (MAX_LINE + 1) + b"\r\nPING\n"
    assert lines_of(data, bytewise=bytewise) == ["A" * MAX_LINE, "PING", None, "PING"]


def test_output_is_lf_terminated_utf8_or_latin1_on_request() -> None:
    assert UrCodec().encode_block(["FEHLER 19 Nährstoffmangel.", "PONG"]) == (
        "FEHLER 19 Nährstoffmangel.\nPONG\n".encode()
    )
    assert UrCodec(encoding="latin-1").encode("Nährstoffmangel.") == "Nährstoffmangel.\n".encode("latin-1")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=3000), st.lists(st.integers(min_value=0, max_value=3000), max_size=8))
def test_any_bytes_split_anywhere_give_the_same_lines_as_whole(data: bytes, cuts: list[int]) -> None:
    whole = lines_of(data)
    codec = UrCodec()
    out: list[str | None] = []
    points = sorted({0, len(data), *(c % (len(data) + 1) for c in cuts)})
    for start, end in itertools.pairwise(points):
        codec.receive_data(data[start:end])
        while True:
            try:
                line = codec.next_message()
            except ProtocolError:
                out.append(None)
                continue
            if line is NEED_DATA:
                break
            assert isinstance(line, str) and line == line.strip(" ") and line
            assert not any(ord(ch) < 0x20 for ch in line)
            out.append(line)
    assert out == whole

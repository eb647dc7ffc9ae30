"""The AAH wire codec against section 2 of specs/aah.md: golden bytes, every receive rule,
reassembly, resync after an oversize frame, and fuzzing (whole and split input)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamehall.protocols._core import NEED_DATA, ProtocolError
from gamehall.protocols.aah.codec import (
    CLIENT_COMMANDS,
    KNOWN_COMMANDS,
    MAX_FRAME,
    SERVER_COMMANDS,
    SERVER_ONLY_COMMANDS,
    AahCodec,
    Frame,
    Side,
    encode_frame,
    sanitize_text,
)

Outcome = Frame | tuple[str, str]
"""A decoded frame, or ("error", reason) for a ProtocolError."""


def drain(codec: AahCodec) -> list[Outcome]:
    """Every frame and error the buffered bytes give, in order."""
    out: list[Outcome] = []
    while True:
        try:
            message = codec.next_message()
        except ProtocolError as error:
            out.append(("error", error.reason))
            continue
        if message is NEED_DATA:
            return out
        assert isinstance(message, Frame)
        out.append(message)


def decode_all(data: bytes, side: Side = Side.SERVER, chunks: list[int] | None = None) -> list[Outcome]:
    """Feed ``data`` whole or cut at ``chunks`` (offsets) and collect every outcome."""
    codec = AahCodec(side)
    out: list[Outcome] = []
    cuts = [0, *(chunks or []), len(data)]
    for start, end in itertools.pairwise(cuts):
        codec.receive_data(data[start:end])
        out.extend(drain(codec))
    return out


# -- 2.1: golden bytes --------------------------------------------------------------------------

GOLDEN = [
    (Frame("ACKN"), "41 43 4B 4E 03", Side.SERVER),
    (Frame("JOIN", ("alice",)), "4A 4F 49 4E 61 6C 69 63 65 03", Side.CLIENT),
    (Frame("WHTE", ("1001", "Soup.")), "57 48 54 45 31 30 30 31 00 53 6F 75 70 2E 03", Side.SERVER),
    (Frame("RWIN", ("carol", "1001")), "52 57 49 4E 63 61 72 6F 6C 00 31 30 30 31 03", Side.SERVER),
    (Frame("RWIN"), "52 57 49 4E 03", Side.SERVER),
]


@pytest.mark.parametrize(("frame", "hex_bytes", "sender"), GOLDEN)
def test_golden_bytes_encode(frame: Frame, hex_bytes: str, sender: Side) -> None:
    assert AahCodec(sender).encode(frame) == bytes.fromhex(hex_bytes)


@pytest.mark.parametrize(("frame", "hex_bytes", "sender"), GOLDEN)
def test_golden_bytes_decode_on_the_other_side(frame: Frame, hex_bytes: str, sender: Side) -> None:
    receiver = Side.CLIENT if sender is Side.SERVER else Side.SERVER
    assert decode_all(bytes.fromhex(hex_bytes), receiver) == [frame]


def test_command_sets() -> None:
    assert {"JOIN", "NICK", "SMSG", "DISC", "PICK", "CZPK", "META", "PING", "PONG"} == CLIENT_COMMANDS
    assert "ENDG" not in KNOWN_COMMANDS
    assert {"ACKN", "RWIN", "REVL", "BLNK"} <= SERVER_ONLY_COMMANDS
    assert not SERVER_ONLY_COMMANDS & CLIENT_COMMANDS
    assert all(len(name) == 4 and name.isupper() for name in KNOWN_COMMANDS)


# -- 2.2: receiving, rule by rule ---------------------------------------------------------------


def test_tail_is_kept_between_reads() -> None:
    codec = AahCodec()
    codec.receive_data(b"JOINal")
    assert codec.next_message() is NEED_DATA
    codec.receive_data(b"ice\x03PI")
    assert codec.next_message() == Frame("JOIN", ("alice",))
    assert codec.next_message() is NEED_DATA
    codec.receive_data(b"NG\x03")
    assert codec.next_message() == Frame("PING")
    assert codec.next_message() is NEED_DATA
    assert codec.buffered == 0


def test_valid_frame_split_at_every_byte_boundary() -> None:
    data = b"PICK5120\x0088317\x03"
    for cut in range(len(data) + 1):
        assert decode_all(data, chunks=[cut]) == [Frame("PICK", ("5120", "88317"))], cut
    # and one byte per read (acceptance item 1)
    assert decode_all(b"JOINalice\x03", chunks=list(range(1, 10))) == [Frame("JOIN", ("alice",))]


def test_multibyte_text_split_inside_a_character() -> None:
    data = "SMSGgrüße ☃\x03".encode()
    for cut in range(len(data) + 1):
        assert decode_all(data, chunks=[cut]) == [Frame("SMSG", ("grüße ☃",))]


def test_fifty_frames_in_one_read() -> None:
    frames = [Frame("PICK", (str(n),)) for n in range(1, 51)]
    data = b"".join(AahCodec(Side.CLIENT).encode(f) for f in frames)
    assert decode_all(data) == frames


def test_empty_frame_is_ignored() -> None:
    assert decode_all(b"\x03\x03PING\x03\x03") == [Frame("PING")]


@pytest.mark.parametrize("raw", [b"A", b"AB", b"ABC", b"\x00", b"PIN"])
def test_one_to_three_bytes_is_malformed(raw: bytes) -> None:
    assert decode_all(raw + b"\x03PING\x03") == [("error", "Malformed command."), Frame("PING")]


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (b"join", "join"),
        (b"0001", "0001"),
        (b"ENDG", "ENDG"),
        (b"Pick", "Pick"),
        (b"PI\x00G", "PI?G"),
        (b"\xff\xfeAB", "??AB"),
    ],
)
def test_unknown_command(raw: bytes, shown: str) -> None:
    assert decode_all(raw + b"xyz\x03") == [("error", f"Unknown command ({shown}).")]


def test_unknown_command_shows_the_first_four_bytes_only() -> None:
    assert decode_all("é!x\x03".encode()) == [("error", "Unknown command (??!x).")]


def test_unknown_command_error_code() -> None:
    codec = AahCodec()
    codec.receive_data(b"join\x03")
    with pytest.raises(ProtocolError) as info:
        codec.next_message()
    assert info.value.code == "unknown_command"
    assert info.value.recoverable


@pytest.mark.parametrize("name", sorted(SERVER_ONLY_COMMANDS))
def test_server_only_command_from_a_client(name: str) -> None:
    codec = AahCodec(Side.SERVER)
    codec.receive_data(name.encode() + b"x\x03")
    with pytest.raises(ProtocolError) as info:
        codec.next_message()
    assert info.value.reason == f"Command not accepted from clients ({name})."
    assert info.value.code == "server_only"


def test_client_side_refuses_client_only_commands_and_reads_the_rest() -> None:
    assert decode_all(b"PICK1\x03ACKN\x03", Side.CLIENT) == [
        ("error", "Command not accepted from servers (PICK)."),
        Frame("ACKN"),
    ]


def test_nul_after_command_is_stripped_once_from_clients() -> None:
    assert decode_all(b"JOIN\x00alice\x03") == [Frame("JOIN", ("alice",))]
    assert decode_all(b"PICK\x001\x002\x03") == [Frame("PICK", ("1", "2"))]
    assert decode_all(b"META\x00\x03") == [Frame("META")]
    assert decode_all(b"PICK\x00\x001\x03") == [Frame("PICK", ("", "1"))]


def test_no_leniency_on_the_client_side() -> None:
    assert decode_all(b"BDCS\x00hello\x03", Side.CLIENT) == [Frame("BDCS", ("", "hello"))]


def test_arguments_split_on_nul() -> None:
    assert decode_all(b"REVL1\x00a\x002\x00b\x03", Side.CLIENT) == [Frame("REVL", ("1", "a", "2", "b"))]
    assert decode_all(b"PICK1\x00\x03") == [Frame("PICK", ("1", ""))]


def test_invalid_utf8_drops_the_frame() -> None:
    codec = AahCodec()
    codec.receive_data(b"SMSG\xff\xfe\x03PING\x03")
    with pytest.raises(ProtocolError) as info:
        codec.next_message()
    assert (info.value.reason, info.value.code) == ("Invalid UTF-8.", "invalid_utf8")
    assert codec.next_message() == Frame("PING")
    # overlong encodings and surrogates are invalid too
    assert decode_all(b"SMSG\xc0\xaf\x03") == [("error", "Invalid UTF-8.")]
    assert decode_all(b"SMSG\xed\xa0\x80\x03") == [("error", "Invalid UTF-8.")]


def test_frame_of_exactly_the_cap_is_fine() -> None:
    data = b"SMSG" + b"x" * (MAX_FRAME - 4)
    assert decode_all(data + b"\x03") == [Frame("SMSG", ("x" * (MAX_FRAME - 4),))]
    # arriving in pieces without ETX, still within the cap
    assert decode_all(data + b"\x03", chunks=[MAX_FRAME]) == [Frame("SMSG", ("x" * (MAX_FRAME - 4),))]


def test_oversize_then_valid_resyncs_and_reports_once() -> None:
    """Acceptance item 4: 20 000 bytes without ETX, then the rest of that frame, then a valid one."""
    big = b"SMSG" + b"y" * 19_996
    data = big + b"more junk\x03PICK7\x03"
    for chunks in ([], [20_000], list(range(1000, len(data), 1000)), [5, MAX_FRAME + 1, 20_003]):
        assert decode_all(data, chunks=chunks) == [("error", "Frame too long."), Frame("PICK", ("7",))]


def test_oversize_frame_arriving_whole_with_its_etx() -> None:
    data = b"SMSG" + b"z" * MAX_FRAME + b"\x03PING\x03"
    assert decode_all(data) == [("error", "Frame too long."), Frame("PING")]


def test_oversize_error_code_and_buffer_released() -> None:
    codec = AahCodec()
    codec.receive_data(b"a" * (MAX_FRAME + 1))
    with pytest.raises(ProtocolError) as info:
        codec.next_message()
    assert info.value.code == "frame_too_long"
    assert codec.buffered == 0
    codec.receive_data(b"b" * 100_000)
    assert codec.next_message() is NEED_DATA  # still discarding, no second error
    assert codec.buffered == 0
    codec.receive_data(b"\x03PING\x03")
    assert codec.next_message() == Frame("PING")


def test_acceptance_item_3_garbage_gets_nothing_or_three_errors() -> None:
    assert decode_all(b"\x03\x03AB\x03join\x030001\x03JOINbob\x03") == [
        ("error", "Malformed command."),
        ("error", "Unknown command (join)."),
        ("error", "Unknown command (0001)."),
        Frame("JOIN", ("bob",)),
    ]


# -- 2.3: sending -------------------------------------------------------------------------------


def test_encode_never_short_never_nul_after_command() -> None:
    server = AahCodec(Side.SERVER)
    for name in sorted(SERVER_COMMANDS):
        data = server.encode(Frame(name))
        assert len(data) == 5 and data.endswith(b"\x03")
    with pytest.raises(ValueError, match="empty first argument"):
        server.encode(Frame("RWIN", ("",)))
    with pytest.raises(ValueError, match="empty first argument"):
        server.encode(Frame("REVL", ("", "text")))


@pytest.mark.parametrize("bad", ["a\x00b", "a\x03b", "\x03"])
def test_encode_refuses_nul_and_etx_inside_arguments(bad: str) -> None:
    with pytest.raises(ValueError, match="NUL or ETX"):
        AahCodec(Side.SERVER).encode(Frame("WHTE", ("1", bad)))


def test_encode_refuses_commands_of_the_wrong_side_and_unknown_ones() -> None:
    with pytest.raises(ValueError):
        AahCodec(Side.SERVER).encode(Frame("PICK", ("1",)))
    with pytest.raises(ValueError):
        AahCodec(Side.CLIENT).encode(Frame("ACKN"))
    with pytest.raises(ValueError):
        encode_frame(Frame("ENDG"))
    with pytest.raises(ValueError):
        encode_frame(Frame("ack"))


def test_encode_refuses_oversize_frames() -> None:
    with pytest.raises(ValueError, match="exceeds"):
        AahCodec(Side.SERVER).encode(Frame("BDCS", ("x" * MAX_FRAME,)))


def test_sanitize_text() -> None:
    assert sanitize_text("a\x00b\x03c\td\r\ne\x1ff\x7fg") == "a b c d \ne f\x7fg"
    assert sanitize_text("plain ☃\nline") == "plain ☃\nline"


def test_sanitized_text_always_encodes() -> None:
    text = "".join(chr(c) for c in range(0x30))
    data = AahCodec(Side.SERVER).encode(Frame("RMSG", ("bob", sanitize_text(text))))
    assert data.count(b"\x03") == 1 and data.count(b"\x00") == 1


# -- fuzzing -------------------------------------------------------------------------------------

FUZZ = settings(max_examples=300, deadline=None)

frame_bytes = st.one_of(
    st.binary(max_size=60),
    st.lists(
        st.one_of(
            st.sampled_from([b"\x03", b"\x00", b"PICK", b"JOIN", b"ACKN", b"join", b"\xff", b"\xc3\xa9"]),
            st.binary(max_size=8),
        ),
        max_size=30,
    ).map(b"".join),
)


def _only_frames_or_protocol_errors(data: bytes, cuts: list[int], side: Side) -> list[Outcome]:
    codec = AahCodec(side)
    out: list[Outcome] = []
    previous = 0
    for cut in [*sorted(cuts), len(data)]:
        codec.receive_data(data[previous:cut])
        previous = cut
        out.extend(drain(codec))  # any exception other than ProtocolError fails the test
    return out


@FUZZ
@given(frame_bytes, st.sampled_from(list(Side)), st.data())
def test_fuzz_any_bytes_give_frames_or_protocol_errors(data: bytes, side: Side, draw: st.DataObject) -> None:
    cuts = draw.draw(st.lists(st.integers(0, len(data)), max_size=8))
    whole = _only_frames_or_protocol_errors(data, [], side)
    split = _only_frames_or_protocol_errors(data, cuts, side)
    assert whole == split  # reassembly never depends on how the bytes were cut
    for item in whole:
        if isinstance(item, Frame):
            assert item.command in KNOWN_COMMANDS


@FUZZ
@given(st.integers(MAX_FRAME - 50, MAX_FRAME + 200), st.binary(max_size=30), st.data())
def test_fuzz_around_the_frame_cap(size: int, tail: bytes, draw: st.DataObject) -> None:
    data = b"SMSG" + b"x" * (size - 4) + b"\x03" + tail
    cuts = draw.draw(st.lists(st.integers(0, len(data)), max_size=4))
    whole = _only_frames_or_protocol_errors(data, [], Side.SERVER)
    assert whole == _only_frames_or_protocol_errors(data, cuts, Side.SERVER)
    expected_first = ("error", "Frame too long.") if size > MAX_FRAME else Frame("SMSG", ("x" * (size - 4),))
    assert whole[0] == expected_first
    assert whole[1:] == _only_frames_or_protocol_errors(tail, [], Side.SERVER)


arg_text = st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00\x03"), max_size=20)


def frames_for(commands: frozenset[str]) -> st.SearchStrategy[Frame]:
    return st.builds(
        Frame,
        st.sampled_from(sorted(commands)),
        st.one_of(
            st.just(()),
            st.tuples(arg_text.filter(bool)).flatmap(
                lambda first: st.lists(arg_text, max_size=5).map(lambda rest: (*first, *rest))
            ),
        ),
    )


@FUZZ
@given(st.lists(frames_for(SERVER_COMMANDS), max_size=10), st.data())
def test_fuzz_roundtrip_server_to_client(frames: list[Frame], draw: st.DataObject) -> None:
    data = b"".join(AahCodec(Side.SERVER).encode(f) for f in frames)
    cuts = draw.draw(st.lists(st.integers(0, len(data)), max_size=6))
    assert _only_frames_or_protocol_errors(data, cuts, Side.CLIENT) == frames


@FUZZ
@given(
    frames_for(SERVER_COMMANDS).map(lambda f: Frame(f.command, tuple(sanitize_text(a) for a in f.args))),
    st.text(max_size=30),
)
def test_fuzz_acceptance_item_2_server_frames_are_safe(frame: Frame, extra: str) -> None:
    """Never NUL at offset 4, never shorter than 4 bytes, exactly one ETX, at the end; sanitised
    text (any string at all) always encodes."""
    codec = AahCodec(Side.SERVER)
    for candidate in (frame, Frame("BDCS", (sanitize_text(extra),) if sanitize_text(extra) else ())):
        data = codec.encode(candidate)
        assert len(data) >= 5 and data[4] != 0
        assert data.count(b"\x03") == 1 and data.endswith(b"\x03")


@FUZZ
@given(st.lists(frames_for(CLIENT_COMMANDS), max_size=10), st.data())
def test_fuzz_roundtrip_client_to_server(frames: list[Frame], draw: st.DataObject) -> None:
    data = b"".join(AahCodec(Side.CLIENT).encode(f) for f in frames)
    cuts = draw.draw(st.lists(st.integers(0, len(data)), max_size=6))
    assert _only_frames_or_protocol_errors(data, cuts, Side.SERVER) == frames


@pytest.mark.soak
def test_soak_a_million_frames() -> None:
    """A million random frames (valid and broken) through both sides in random read sizes:
    only Frames and ProtocolErrors come out, and every valid frame survives the round trip."""
    rng = random.Random(20261129)
    server_cmds = sorted(SERVER_COMMANDS)
    total = 0
    while total < 1_000_000:
        frames = []
        for _ in range(1000):
            args = tuple(
                "".join(
                    chr(rng.choice([rng.randrange(0x20, 0x7F), rng.randrange(0xA0, 0x3000)]))
                    for _ in range(rng.randrange(1, 12))
                )
                for _ in range(rng.randrange(0, 5))
            )
            frames.append(Frame(rng.choice(server_cmds), args))
        data = b"".join(AahCodec(Side.SERVER).encode(f) for f in frames)
        cuts = sorted(rng.randrange(len(data) + 1) for _ in range(rng.randrange(0, 200)))
        assert _only_frames_or_protocol_errors(data, cuts, Side.CLIENT) == frames
        garbage = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 4000)))
        _only_frames_or_protocol_errors(
            garbage, sorted(rng.randrange(len(garbage) + 1) for _ in range(8)), Side.SERVER
        )
        total += len(frames)


def test_frames_without_arguments_are_shared_and_equal_to_new_ones() -> None:
    """A ``PING`` decodes to one shared, immutable frame (no allocation per frame on the
    busiest path) that is still equal to a frame built by hand."""
    codec = AahCodec(Side.SERVER)
    codec.receive_data(b"PING\x03PING\x03PING\x00\x03")
    first, second, lenient = codec.next_message(), codec.next_message(), codec.next_message()
    assert first == Frame("PING") and first is second is lenient
    assert codec.next_message() is NEED_DATA
    assert encode_frame(Frame("PONG")) == b"PONG\x03"
    assert AahCodec(Side.SERVER).encode(Frame("PONG")) == b"PONG\x03"

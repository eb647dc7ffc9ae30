"""The JDuplicate codec as a connection uses it: the syntax chosen by the first frame (§3.3),
frame errors with their codes (§2.5, §7), XML safety (§13 item 4), unknown messages, round
trips of every message in both syntaxes, and fuzzing (whole and split input)."""

from __future__ import annotations

import random

import mutf8.mutf8 as pure_mutf8
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jduplicate_wire_support import drain, feed, messages_of, only_protocol_errors

from gamehall.protocols._core import NEED_DATA
from gamehall.protocols.jduplicate import messages as m
from gamehall.protocols.jduplicate.codec import JDuplicateCodec, Side, syntax_of
from gamehall.protocols.jduplicate.errors import ErrorCode, WireError
from gamehall.protocols.jduplicate.framing import FrameTooLong, encode_text
from gamehall.protocols.jduplicate.schema import CLIENT_LAYOUTS, SERVER_LAYOUTS

V02, V10 = m.Version.V02, m.Version.V10
DECL = '<?xml version="1.0" encoding="UTF-8"?>'


def frame(text: str) -> bytes:
    return encode_text(text)


def server(version: m.Version | None = None) -> JDuplicateCodec:
    return JDuplicateCodec(version)


def client(version: m.Version) -> JDuplicateCodec:
    return JDuplicateCodec(version, side=Side.CLIENT)


def error(number: int, parameter: str = "") -> tuple[str, str, str]:
    return ("error", str(number), parameter)


# -- choosing the syntax (§3.3) --------------------------------------------------------------------


def test_a_0_2_first_frame_locks_0_2() -> None:
    codec = server()
    assert codec.version is None
    out = feed(
        codec, frame("PLAYERNAME|ams") + frame("<chatrequest>hi</chatrequest>") + frame("CHATREQUEST|hi")
    )
    assert out == [m.PlayerName("ams"), error(99000), m.ChatRequest("hi")]
    assert codec.version is V02
    assert codec.encode(m.Error(99000)) == frame("ERROR|99000#")


def test_a_1_0_first_frame_locks_1_0_and_replies_carry_the_declaration() -> None:
    codec = server()
    out = feed(codec, frame("\n <?xml version='1.0'?><clienttype/>") + frame("PLAYERNAME|ams"))
    assert out == [m.ClientType("", "", ""), error(99000)]
    assert codec.version is V10
    assert codec.encode(m.UserConnected("ams")) == frame(DECL + "<userconnected>ams</userconnected>")


@pytest.mark.parametrize(
    ("body", "version"),
    [
        (b"<a/>", V10),
        (b" \r\n\t<a/>", V10),
        (b"\xef\xbb\xbf<a/>", V10),
        (b"", V02),
        (b"X<", V02),
        (b"\xc3", V02),
    ],
)
def test_syntax_of_a_body(body: bytes, version: m.Version) -> None:
    assert syntax_of(body) is version


def test_an_empty_first_frame_is_99001_and_decides_0_2() -> None:
    codec = server()
    assert feed(codec, b"\x00\x00" + frame("MOVES|")) == [error(99001), m.Moves(())]
    assert codec.version is V02


def test_use_version_sets_the_syntax() -> None:
    codec = server()
    codec.use_version(V10)
    assert feed(codec, frame("PLAYERNAME|ams")) == [error(99000)]


def test_before_any_frame_replies_are_written_in_0_2() -> None:
    assert server().encode(m.Error(99004)) == frame("ERROR|99004#")


# -- frame errors (§2.5) ------------------------------------------------------------------------------


def test_99004_for_a_frame_over_8192_bytes_then_nothing_more() -> None:
    codec = server(V02)
    codec.receive_data(b"\x23\x28" + b"a" * 9000 + frame("MOVES|"))
    with pytest.raises(WireError) as info:
        codec.next_message()
    assert (info.value.code, info.value.recoverable) == ("99004", False)
    assert info.value.to_message() == m.Error(99004)
    with pytest.raises(WireError):
        codec.next_message()


def test_malformed_mutf8_is_99000_and_the_connection_keeps_working() -> None:
    codec = server(V02)
    bad = b"CHATREQUEST|\xc3\x41"
    data = len(bad).to_bytes(2, "big") + bad + frame("CHATREQUEST|hi")
    assert feed(codec, data) == [error(99000), m.ChatRequest("hi")]


def test_the_pure_python_mutf8_build_gives_the_same_verdicts() -> None:
    codec = JDuplicateCodec(V02, decode=pure_mutf8.decode_modified_utf8)
    bad = b"CHATREQUEST|\xff"
    data = len(bad).to_bytes(2, "big") + bad + frame("CHATREQUEST|Ça va \U0001f600")
    assert feed(codec, data) == [error(99000), m.ChatRequest("Ça va \U0001f600")]


def test_a_frame_split_at_every_byte_boundary() -> None:
    data = frame("MOVES|8&H&B#9&H&I#10&H&S#11&H&e#")
    expected = [
        m.Moves(
            (m.Tile(8, "H", "B"), m.Tile(9, "H", "I"), m.Tile(10, "H", "S"), m.Tile(11, "H", "E", blank=True))
        )
    ]
    for cut in range(len(data) + 1):
        assert feed(server(), data, [cut]) == expected


def test_buffered_tells_an_eof_inside_a_frame() -> None:
    codec = server()
    codec.receive_data(frame("PLAYERNAME|ams")[:5])
    assert codec.next_message() is NEED_DATA
    assert codec.buffered == 5


# -- commands and roots (§3.1, §3.2) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("FOO|x", error(99002, "FOO")),
        ("CHAT|ams#hi", error(99002, "CHAT")),  # a server message is unknown from a client
        ("playername|ams", error(99000)),
        ("PLAYER NAME|ams", error(99000)),
        ("|ams", error(99000)),
        (" ", error(99000)),
        ("PLAYERNAME1|x", error(99000)),
    ],
)
def test_unknown_or_bad_commands_in_0_2(text: str, expected: tuple[str, str, str]) -> None:
    assert feed(server(V02), frame(text)) == [expected]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<foo>x</foo>", error(99002, "foo")),
        ("<PLAYERNAME>ams</PLAYERNAME>", error(99002, "PLAYERNAME")),
        ("<chat><from>a</from></chat>", error(99002, "chat")),
        ('<x:playername xmlns:x="urn:a">ams</x:playername>', error(99002, "{urn:a}playername")),
        ("<playername>ams", error(99000)),
        ("<playername>ams</playername><playername/>", error(99000)),
        ("<", error(99000)),
    ],
)
def test_unknown_or_bad_roots_in_1_0(text: str, expected: tuple[str, str, str]) -> None:
    assert feed(server(V10), frame(text)) == [expected]


def test_field_errors_name_the_command_they_refused_frame_errors_do_not() -> None:
    for text in ("FOO|x", "<foo/>", "moves|"):
        codec = server()
        codec.receive_data(frame(text))
        with pytest.raises(WireError) as info:
            codec.next_message()
        assert info.value.command is None
    codec = server(V02)
    codec.receive_data(frame("MOVES|8&H&*#"))
    with pytest.raises(WireError) as info:
        codec.next_message()
    assert (info.value.number, info.value.command) == (ErrorCode.BAD_BLANK, "MOVES")
    codec = server(V10)
    codec.receive_data(frame("<creategamerequest><timeperturn>x</timeperturn></creategamerequest>"))
    with pytest.raises(WireError) as info:
        codec.next_message()
    assert (info.value.number, info.value.parameter, info.value.command) == (
        ErrorCode.TIME_PER_TURN_NOT_INTEGER,
        "x",
        "CREATEGAMEREQUEST",
    )


# -- XML safety (§13 item 4) -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "document",
    [
        '<!DOCTYPE x [<!ENTITY a "aaaa">]><chatrequest>&a;</chatrequest>',
        '<!DOCTYPE x [<!ENTITY a SYSTEM "file:///etc/passwd">]><chatrequest>&a;</chatrequest>',
        '<!DOCTYPE chatrequest SYSTEM "http://example.invalid/x.dtd"><chatrequest>hi</chatrequest>',
        "<!DOCTYPE chatrequest><chatrequest>hi</chatrequest>",
        '<!DOCTYPE x [<!ENTITY a "a"><!ENTITY b "&a;&a;&a;&a;">]><chatrequest>&b;</chatrequest>',
        "<chatrequest>&undefined;</chatrequest>",
    ],
)
def test_dtds_and_entities_are_refused_with_99000(document: str) -> None:
    codec = server(V10)
    assert feed(codec, frame(DECL + document) + frame("<chatrequest>hi</chatrequest>")) == [
        error(99000),
        m.ChatRequest("hi"),
    ]


# -- writing ------------------------------------------------------------------------------------------


def test_a_side_writes_only_its_own_messages() -> None:
    with pytest.raises(ValueError):
        server(V02).encode(m.ChatRequest("hi"))
    with pytest.raises(ValueError):
        client(V02).encode(m.Chat("ams", "hi"))
    with pytest.raises(TypeError):
        server(V02).encode("CHAT|ams#hi")  # type: ignore[arg-type]


@pytest.mark.parametrize("version", [V02, V10])
def test_an_oversize_message_is_never_framed(version: m.Version) -> None:
    codec = server(version)
    huge = m.ServerUserList(tuple(f"user{n:05d}" + "é" * 10 for n in range(3000)))
    with pytest.raises(FrameTooLong):
        codec.encode(huge)
    assert len(codec.encode(m.ServerUserList(tuple(f"user{n:03d}" for n in range(500))))) < 65535


def test_a_bot_and_the_server_talk_in_1_0() -> None:
    bot, hall = client(V10), server()
    hall.receive_data(bot.encode(m.PlayerName("ams")) + bot.encode(m.ChatActionRequest("waves")))
    assert drain(hall) == [m.PlayerName("ams"), m.ChatActionRequest("waves")]
    bot.receive_data(hall.encode(m.ChatAction("ams", "waves")))
    assert drain(bot) == [m.ChatAction("ams", "waves")]


# -- round trips (hypothesis) --------------------------------------------------------------------------


@pytest.mark.parametrize("version", [V02, V10])
@settings(max_examples=200, deadline=None)
@given(message=messages_of(CLIENT_LAYOUTS))
def test_every_client_message_round_trips(version: m.Version, message: object) -> None:
    hall = JDuplicateCodec(version, max_inbound_frame=65535)
    hall.receive_data(client(version).encode(message))  # type: ignore[arg-type]
    assert drain(hall) == [message]


@pytest.mark.parametrize("version", [V02, V10])
@settings(max_examples=200, deadline=None)
@given(message=messages_of(SERVER_LAYOUTS))
def test_every_server_message_round_trips(version: m.Version, message: object) -> None:
    bot = JDuplicateCodec(version, side=Side.CLIENT, max_inbound_frame=65535)
    bot.receive_data(server(version).encode(message))  # type: ignore[arg-type]
    assert drain(bot) == [message]


# -- fuzzing: anything in, messages or ProtocolErrors out ------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=300), cuts=st.lists(st.integers(0, 300), max_size=5))
def test_fuzz_raw_bytes(data: bytes, cuts: list[int]) -> None:
    codec = server()
    for start, end in zip([0, *sorted(cuts)], [*sorted(cuts), len(data)], strict=True):
        codec.receive_data(data[start:end])
        only_protocol_errors(codec)


_PIECES = st.sampled_from(
    [
        "PLAYERNAME|",
        "MOVES|",
        "CREATEGAMEREQUEST|",
        "CHANGELETTERS|",
        "WHISPERREQUEST|",
        "#",
        "&",
        "~",
        "|",
        "8",
        "H",
        "e",
        "*",
        "<moves>",
        "</moves>",
        '<letter x="8" y="H" blank="E">',
        "</letter>",
        "<creategamerequest>",
        "<timeperturn>",
        "<",
        ">",
        "/",
        "&amp;",
        "<!DOCTYPE x>",
        "\x00",
        "\ud800",
        "\U0001f600",
        " ",
    ]
)


@settings(max_examples=200, deadline=None)
@given(
    bodies=st.lists(st.lists(_PIECES | st.text(max_size=4), max_size=12).map("".join), max_size=6),
    cut=st.integers(0, 400),
)
def test_fuzz_well_framed_nonsense(bodies: list[str], cut: int) -> None:
    """Frames of protocol-shaped fragments reach the parsers; only messages or errors come out."""
    data = b"".join(frame(body) for body in bodies)
    for version in (None, V02, V10):
        codec = JDuplicateCodec(version)
        codec.receive_data(data[:cut])
        only_protocol_errors(codec)
        codec.receive_data(data[cut:])
        only_protocol_errors(codec)


def _mutated_frames(rng: random.Random, count: int) -> bytes:
    seeds = [
        frame("MOVES|8&H&B#9&H&I#10&H&S#11&H&e#"),
        frame("CREATEGAMEREQUEST|ams's game#120#fr#8#No word stealing please"),
        frame(DECL + '<moves><letter x="11" y="H" blank="E">*</letter></moves>'),
        frame(DECL + "<whisperrequest><to>O-Dog</to><text>hi</text></whisperrequest>"),
    ]
    out = bytearray()
    for _ in range(count):
        chunk = bytearray(rng.choice(seeds))
        for _ in range(rng.randint(0, 3)):
            chunk[rng.randrange(2, len(chunk))] = rng.randrange(256)
        out += chunk
    return bytes(out)


def test_fuzz_mutated_frames() -> None:
    rng = random.Random(4713)
    for _ in range(50):
        codec = server()
        codec.receive_data(_mutated_frames(rng, 40))
        only_protocol_errors(codec)


@pytest.mark.soak
def test_soak_a_million_mutated_frames() -> None:
    rng = random.Random(20041)
    outcomes = 0
    for _ in range(10_000):
        codec = server(rng.choice([None, V02, V10]))
        data = _mutated_frames(rng, 100)
        position = 0
        while position < len(data):
            step = rng.randint(1, 400)
            codec.receive_data(data[position : position + step])
            position += step
            outcomes += only_protocol_errors(codec)
    assert outcomes >= 1_000_000

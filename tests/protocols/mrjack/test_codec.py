"""Line framing (note 2.1, 2.3): LF ends a line, a CR before it is dropped, blank lines are
skipped, over-long lines are discarded with ``Zeile zu lang`` and the stream goes on, invalid
UTF-8 is read as Latin-1; fuzzed with any bytes, whole or split."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gamehall.protocols._core import NEED_DATA, ProtocolError
from gamehall.protocols.mrjack.codec import LINE_TOO_LONG, MAX_LINE_BYTES, Received, TermCodec
from gamehall.protocols.mrjack.messages import term
from gamehall.protocols.mrjack.terms import Atom, Compound, Style

Outcome = tuple[str, object]


def drain(codec: TermCodec) -> list[Outcome]:
    out: list[Outcome] = []
    while True:
        try:
            message = codec.next_message()
        except ProtocolError as exc:
            assert exc.recoverable
            out.append(("error", exc.reason))
            continue
        if message is NEED_DATA:
            return out
        assert isinstance(message, Received)
        out.append(("line", message))


def feed(chunks: list[bytes], max_line: int = MAX_LINE_BYTES) -> list[Outcome]:
    codec = TermCodec(max_line=max_line)
    out: list[Outcome] = []
    for chunk in chunks:
        codec.receive_data(chunk)
        out += drain(codec)
    return out


def bytewise(data: bytes) -> list[bytes]:
    return [data[i : i + 1] for i in range(len(data))]


def commands(outcomes: list[Outcome]) -> list[object]:
    return [o[1].command if isinstance(o[1], Received) else o for o in outcomes]


def test_lf_ends_a_line_cr_is_dropped_and_blank_lines_are_skipped() -> None:
    data = b"nick(Max).\r\n\n   \r\nison\ninit(mrjack)"
    expected = [term("nick", "Max"), Atom("ison")]
    assert commands(feed([data])) == expected
    assert commands(feed(bytewise(data))) == expected


def test_the_line_text_is_kept_for_the_unknown_command_echo() -> None:
    (outcome,) = feed([b"  foo( bar ) .  \n"])
    assert isinstance(outcome[1], Received) and outcome[1].line == "foo( bar )"


def test_a_line_over_the_cap_is_discarded_with_zeile_zu_lang_and_the_next_line_is_read() -> None:
    long_line = b"chat(" + b"x" * MAX_LINE_BYTES + b")\n"
    data = long_line + b"ison\n"
    for chunks in (
        [data],
        bytewise(data),
        [long_line[:100], long_line[100:5000], long_line[5000:] + b"ison\n"],
    ):
        assert commands(feed(chunks)) == [("error", LINE_TOO_LONG), Atom("ison")]


def test_a_line_of_exactly_the_cap_is_read_with_or_without_cr() -> None:
    body = b"chat(" + b"x" * (MAX_LINE_BYTES - 6) + b")"
    assert len(body) == MAX_LINE_BYTES
    for ending in (b"\n", b"\r\n"):
        (outcome,) = feed(bytewise(body + ending))
        assert outcome[0] == "line"


def test_invalid_utf8_is_read_as_latin1() -> None:
    (outcome,) = feed([b"chat(gr\xfcn \xff)\n"])
    assert isinstance(outcome[1], Received)
    assert outcome[1].command == term("chat", "grün ÿ")
    (valid,) = feed(["chat(grün)\n".encode()])
    assert isinstance(valid[1], Received) and valid[1].command == term("chat", "grün")


def test_unbalanced_parentheses_are_the_unknown_command_error() -> None:
    assert feed([b"aktiv(gelb\naktiv(gelb))\n"]) == [
        ("error", "Unbekannter Befehl oder Befehl zur Zeit nicht möglich: aktiv(gelb"),
        ("error", "Unbekannter Befehl oder Befehl zur Zeit nicht möglich: aktiv(gelb))"),
    ]


def test_encode_writes_one_line_in_the_codec_style() -> None:
    command = Compound("update_Art", (Atom("g6"), Atom("laterne")))
    assert TermCodec(Style.PROLOG).encode(command) == b"update_Art(g6,laterne).\n"
    assert TermCodec(Style.PLAIN).encode(command) == b"update_Art(g6, laterne)\n"


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300), st.lists(st.integers(0, 300), max_size=8))
def test_any_bytes_whole_or_split_give_the_same_lines_or_protocol_errors(
    data: bytes, cuts: list[int]
) -> None:
    whole = feed([data], max_line=64)
    points = sorted({min(c, len(data)) for c in cuts})
    chunks = [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]
    assert feed(chunks, max_line=64) == whole
    assert feed(bytewise(data), max_line=64) == whole


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from([b"aktiv(", b"gelb", b")", b".", b"\n", b"\r", b"'", b"[", b",", b" ", b"\xff"]))
)
def test_term_like_noise_gives_only_lines_or_protocol_errors(pieces: list[bytes]) -> None:
    data = b"".join(pieces)
    assert feed(bytewise(data)) == feed([data])

"""peng3dnet frames (note §1, §10.1-2): golden bytes, chunking, compression, every bad input."""

from __future__ import annotations

import struct
import zlib

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamehall.protocols._core import NEED_DATA, ProtocolError
from gamehall.protocols.cg.codec import CgCodec, Packet
from gamehall.protocols.cg.framing import (
    COMPRESS_ABOVE,
    MAX_FRAME_BYTES,
    Frame,
    FrameDecoder,
    encode_frame,
    pack_body,
)

GOLDEN_HELLO = bytes.fromhex(
    "0000002500000001000082a776657273696f6ea7302e312e336130ac70726f746f76657273696f6e02"
)


def frames_of(data: bytes) -> list[Frame]:
    decoder = FrameDecoder()
    decoder.receive_data(data)
    frames = []
    while (frame := decoder.next_frame()) is not NEED_DATA:
        assert isinstance(frame, Frame)
        frames.append(frame)
    return frames


def raw_frame(packet_id: int, payload: bytes, flags: int = 0) -> bytes:
    return struct.pack(">IIH", 6 + len(payload), packet_id, flags) + payload


def test_the_hello_frame_is_the_golden_41_bytes() -> None:
    data = encode_frame(1, {"version": "0.1.3a0", "protoversion": 2})
    assert data == GOLDEN_HELLO
    assert len(data) == 41


def test_a_frame_split_byte_by_byte_and_many_frames_in_one_read() -> None:
    decoder = FrameDecoder()
    for byte in GOLDEN_HELLO:
        assert decoder.next_frame() is NEED_DATA
        decoder.receive_data(bytes([byte]))
    assert decoder.next_frame() == Frame(1, {"version": "0.1.3a0", "protoversion": 2})
    three = GOLDEN_HELLO + encode_frame(2, {"conntype": "classic"}) + encode_frame(4, {"success": True})
    assert [f.packet_id for f in frames_of(three)] == [1, 2, 4]


def _body_of_packed_size(size: int) -> dict[str, str]:
    body = {"k": ""}
    overhead = len(pack_body(body))
    body["k"] = "x" * (size - overhead - 2)  # str8 -> str16 header grows by 2 bytes past 255
    assert len(pack_body(body)) == size
    return body


def test_bodies_up_to_8192_bytes_go_plain_and_8193_go_compressed() -> None:
    plain = encode_frame(71, _body_of_packed_size(COMPRESS_ABOVE))
    assert struct.unpack(">H", plain[8:10])[0] == 0
    squeezed = encode_frame(71, _body_of_packed_size(COMPRESS_ABOVE + 1))
    assert struct.unpack(">H", squeezed[8:10])[0] == 1
    assert len(msgpack.unpackb(zlib.decompress(squeezed[10:]))["k"]) > 8000
    assert frames_of(squeezed)[0].body == _body_of_packed_size(COMPRESS_ABOVE + 1)


def test_a_compressed_inbound_frame_is_inflated_even_when_small() -> None:
    payload = zlib.compress(msgpack.packb({"intent": "play", "card": "ab"}))
    assert frames_of(raw_frame(83, payload, flags=1))[0].body == {"intent": "play", "card": "ab"}


def test_integer_map_keys_are_accepted_and_become_decimal_strings() -> None:
    payload = msgpack.packb({"move": {7: {"type": "card", "data": "hk"}}, 3: [{0: 1}]})
    assert frames_of(raw_frame(85, payload))[0].body == {
        "move": {"7": {"type": "card", "data": "hk"}},
        "3": [{"0": 1}],
    }


def test_unknown_flag_bits_are_ignored() -> None:
    assert frames_of(raw_frame(2, msgpack.packb({}), flags=0xFFFC))[0].body == {}


@pytest.mark.parametrize(
    ("data", "code", "recoverable"),
    [
        (raw_frame(2, msgpack.packb({}), flags=2), "aes", True),
        (raw_frame(2, b"not zlib at all", flags=1), "bad_zlib", True),
        (raw_frame(2, zlib.compress(msgpack.packb({}))[:-3], flags=1), "bad_zlib", True),
        (raw_frame(2, b"\xc1"), "not_msgpack", True),
        (raw_frame(2, msgpack.packb({}) + b"\x01"), "not_msgpack", True),
        (raw_frame(2, b""), "not_msgpack", True),
        (raw_frame(2, msgpack.packb([1, 2])), "not_a_map", True),
        (raw_frame(2, msgpack.packb("hello")), "not_a_map", True),
        (raw_frame(2, msgpack.packb({None: 1})), "bad_key", True),
        (raw_frame(2, msgpack.packb({1.5: 1})), "bad_key", True),
        (struct.pack(">IIH", 3, 2, 0), "bad_length", False),
        (struct.pack(">IIH", MAX_FRAME_BYTES + 7, 2, 0), "bad_length", False),
        (raw_frame(2, zlib.compress(b"\x00" * (MAX_FRAME_BYTES + 10)), flags=1), "too_large", True),
    ],
)
def test_bad_frames_raise_protocol_errors(data: bytes, code: str, recoverable: bool) -> None:
    with pytest.raises(ProtocolError) as caught:
        frames_of(data)
    assert caught.value.code == code
    assert caught.value.recoverable is recoverable


def test_a_lost_stream_stays_lost() -> None:
    decoder = FrameDecoder()
    decoder.receive_data(struct.pack(">IIH", 2, 2, 0) + GOLDEN_HELLO)
    for _ in range(2):
        with pytest.raises(ProtocolError):
            decoder.next_frame()


def test_outbound_maps_must_have_str_keys() -> None:
    with pytest.raises(TypeError):
        encode_frame(85, {"moves": {0: {"type": "card"}}})


def test_the_codec_names_packets_and_rejects_unknown_ids() -> None:
    codec = CgCodec()
    codec.receive_data(
        encode_frame(83, {"intent": "play", "card": "x"}) + encode_frame(99, {}) + GOLDEN_HELLO
    )
    assert codec.next_message() == Packet("cg:game.dk.card.intent", {"intent": "play", "card": "x"})
    with pytest.raises(ProtocolError) as caught:
        codec.next_message()
    assert caught.value.code == "unknown_packet" and caught.value.recoverable
    assert codec.next_message() == Packet(
        "peng3dnet:internal.hello", {"version": "0.1.3a0", "protoversion": 2}
    )
    assert (
        codec.encode(Packet("peng3dnet:internal.hello", {"version": "0.1.3a0", "protoversion": 2}))
        == GOLDEN_HELLO
    )


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.text(max_size=20)
    | st.binary(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(
    packet_id=st.integers(0, 2**32 - 1),
    body=st.dictionaries(st.text(max_size=8), json_values, max_size=5),
    big=st.booleans(),
)
def test_encode_then_decode_gives_the_frame_back(packet_id: int, body: dict[str, object], big: bool) -> None:
    if big:
        body = {**body, "pad": "y" * 9000}
    data = encode_frame(packet_id, body)
    decoded = frames_of(data)
    assert [(f.packet_id, f.body) for f in decoded] == [(packet_id, body)]


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=300), cuts=st.lists(st.integers(0, 300), max_size=6))
def test_any_bytes_whole_or_split_give_frames_or_protocol_errors(data: bytes, cuts: list[int]) -> None:
    def run(chunks: list[bytes]) -> list[object]:
        decoder = FrameDecoder()
        out: list[object] = []
        for chunk in chunks:
            decoder.receive_data(chunk)
            while True:
                try:
                    frame = decoder.next_frame()
                except ProtocolError as exc:
                    out.append(exc.code)
                    if not exc.recoverable:
                        return out
                    continue
                if frame is NEED_DATA:
                    break
                out.append(frame)
        return out

    points = sorted({c for c in cuts if c <= len(data)})
    chunks = [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]
    assert run([data]) == run(chunks)

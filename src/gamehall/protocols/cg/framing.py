"""peng3dnet frames, the cg transport (L1, note §1), implemented natively and sans-I/O.

A frame on the wire (all integers big-endian)::

    length:uint32  packet_id:uint32  flags:uint16  body
    length = 6 + len(body); body = msgpack of one map, zlib-deflated when flags bit0 is set

We send bodies compressed (zlib level 6, bit0) only when the packed map is larger than
:data:`COMPRESS_ABOVE` bytes, and always send bits 1..15 as 0. On receipt bit0 is honoured,
bit1 ("AES", never implemented by anyone) is an error, bits 2..15 are ignored.

Decoding is lenient as the note asks (``raw=False``, ``strict_map_key=False``): integer map keys
are accepted and normalised to decimal strings, at every depth, so nothing above this module
ever sees a non-str key. Encoding is strict: every map key we emit must be a str, so that a
reference peer (msgpack 1.0 defaults) can never crash on our output.

Every error is a :class:`ProtocolError`. A bad length prefix loses the stream
(``recoverable=False``); a frame whose header was sound but whose body is bad was consumed whole,
yet the note still closes the connection with ``protocolerror`` (the dialogue decides).
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field
from typing import Any, Final

import msgpack  # type: ignore[import-untyped]

from gamehall.protocols._core import NEED_DATA, ProtocolError, _NeedData

HEADER: Final = struct.Struct(">IIH")
"""length, packet id, flags."""

LENGTH_EXTRA: Final = 6
"""``length`` counts the packet id and the flags besides the body."""

MAX_FRAME_BYTES: Final = 1024 * 1024
"""Largest inbound body, raw and after inflating (note §1.1, Decision (ours))."""

COMPRESS_ABOVE: Final = 8192
"""Bodies strictly larger than this are sent compressed."""

COMPRESSION_LEVEL: Final = 6

FLAG_ZLIB: Final = 0x0001
FLAG_AES: Final = 0x0002


@dataclass(frozen=True, slots=True)
class Frame:
    """One peng3dnet packet: its numeric id and its body map (keys always str)."""

    packet_id: int
    body: dict[str, Any] = field(default_factory=dict)
    flags: int = 0


def normalise_keys(value: Any) -> Any:
    """``value`` with every map key turned into a str (ints as decimal), at every depth.

    Raises:
        ProtocolError: a key that is neither str nor int (nil, float, bin, a map...).
    """
    if isinstance(value, dict):
        result: dict[str, Any] = {}
        for key, item in value.items():
            if isinstance(key, bool) or not isinstance(key, (str, int)):
                raise ProtocolError(f"map key of type {type(key).__name__}", code="bad_key")
            result[key if isinstance(key, str) else str(key)] = normalise_keys(item)
        return result
    if isinstance(value, list):
        return [normalise_keys(item) for item in value]
    return value


def _check_str_keys(value: Any) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"outbound map key {key!r} is not a str")
            _check_str_keys(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _check_str_keys(item)


def pack_body(body: dict[str, Any]) -> bytes:
    """The msgpack of one map (str keys only: TypeError otherwise, a bug of ours)."""
    _check_str_keys(body)
    packed = msgpack.packb(body, use_bin_type=True)
    assert isinstance(packed, bytes)
    return packed


def encode_frame(packet_id: int, body: dict[str, Any]) -> bytes:
    """The bytes of one frame; the body is compressed when it is larger than 8192 bytes."""
    payload = pack_body(body)
    flags = 0
    if len(payload) > COMPRESS_ABOVE:
        payload = zlib.compress(payload, COMPRESSION_LEVEL)
        flags = FLAG_ZLIB
    return HEADER.pack(LENGTH_EXTRA + len(payload), packet_id, flags) + payload


def _inflate(payload: bytes, limit: int) -> bytes:
    inflater = zlib.decompressobj()
    try:
        data = inflater.decompress(payload, limit + 1)
    except zlib.error:
        raise ProtocolError("bad zlib data", code="bad_zlib") from None
    if len(data) > limit:
        raise ProtocolError("inflated body too large", code="too_large")
    if not inflater.eof or inflater.unused_data:
        raise ProtocolError("truncated or trailing zlib data", code="bad_zlib")
    return data


def decode_body(payload: bytes, flags: int, *, limit: int = MAX_FRAME_BYTES) -> dict[str, Any]:
    """The map a frame body holds.

    Raises:
        ProtocolError: AES flag, bad zlib, too large, not msgpack, not exactly one map, bad key.
    """
    if flags & FLAG_AES:
        raise ProtocolError("encrypted frames are not supported", code="aes")
    if flags & FLAG_ZLIB:
        payload = _inflate(payload, limit)
    try:
        body = msgpack.unpackb(payload, raw=False, strict_map_key=False, use_list=True)
    except (ValueError, msgpack.UnpackException, TypeError) as exc:
        raise ProtocolError(f"body is not msgpack: {exc}", code="not_msgpack") from None
    if not isinstance(body, dict):
        raise ProtocolError("body is not a map", code="not_a_map")
    result = normalise_keys(body)
    assert isinstance(result, dict)
    return result


class FrameDecoder:
    """Incremental: feed any chunks, take whole frames. One instance per connection side."""

    def __init__(self, *, max_frame_bytes: int = MAX_FRAME_BYTES) -> None:
        self._buffer = bytearray()
        self._max = max_frame_bytes
        self._lost = False

    def receive_data(self, data: bytes) -> None:
        if not self._lost:
            self._buffer += data

    def next_frame(self) -> Frame | _NeedData:
        """The next whole frame, or :data:`NEED_DATA`.

        Raises:
            ProtocolError: ``recoverable=False`` when the length prefix is impossible (the
                stream cannot be resynchronised; everything after is discarded), else
                ``recoverable=True`` for a bad body (that frame was skipped).
        """
        if self._lost:
            raise ProtocolError("stream lost", recoverable=False, code="stream_lost")
        if len(self._buffer) < HEADER.size:
            return NEED_DATA
        length, packet_id, flags = HEADER.unpack_from(self._buffer)
        if length < LENGTH_EXTRA or length - LENGTH_EXTRA > self._max:
            self._lost = True
            self._buffer.clear()
            raise ProtocolError(f"bad frame length {length}", recoverable=False, code="bad_length")
        total = 4 + length
        if len(self._buffer) < total:
            return NEED_DATA
        payload = bytes(self._buffer[HEADER.size : total])
        del self._buffer[:total]
        body = decode_body(payload, flags, limit=self._max)
        return Frame(packet_id, body, flags)

    @property
    def buffered(self) -> int:
        return len(self._buffer)

"""JDuplicate frames: one Java ``writeUTF`` string per message (note §2.2-§2.5).

A frame on the wire::

    len: uint16 big-endian | body: len bytes of Java modified UTF-8 (MUTF-8)

Outbound text is encoded with ``mutf8.encode_modified_utf8``, which gives Java's bytes
exactly: NUL as ``C0 80``, a character above U+FFFF as a surrogate pair of 3 bytes each. A body
over 65535 bytes cannot be framed (Java throws ``UTFDataFormatException``): we raise
:class:`FrameTooLong`, a ``ValueError``, and send nothing.

Inbound bodies pass the strict gate of note §2.3, because ``mutf8``'s decoder is more lenient
than Java and its two builds disagree: (1) the bytes must match Java's grammar with raw NUL
excluded, (2) ``decode_modified_utf8`` joins surrogate pairs, (3) the text may hold no lone
surrogate and no control character other than TAB, LF and CR. Failing any step is 99000; the
frame boundary is known, so that error is recoverable. A length above ``max_inbound_frame``
(8192) is 99004 and the connection closes. (An empty body is a legal frame; the codec answers
it with 99001.)
"""

from __future__ import annotations

import re
import struct
from collections.abc import Callable
from typing import Final

import mutf8

from gamehall.protocols._core import NEED_DATA, _NeedData
from gamehall.protocols.jduplicate.errors import ErrorCode, WireError

PREFIX: Final = struct.Struct(">H")
MAX_FRAME_BODY: Final = 0xFFFF
"""The most a 16-bit length can say; the most ``writeUTF`` can send."""

MAX_INBOUND_FRAME: Final = 8192
"""Largest inbound body we accept, in bytes (note §2.5 and §11, ``max_inbound_frame``)."""

_JAVA_GRAMMAR: Final = re.compile(rb"(?:[\x01-\x7f]|[\xc0-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2})*")
"""Step 1: the byte groups Java's ``readUTF`` accepts, raw NUL excluded."""

_FORBIDDEN_CHARACTERS: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")
"""Step 3: lone surrogates and control characters other than TAB, LF and CR."""


class FrameTooLong(ValueError):
    """An outbound message whose body would exceed 65535 bytes (it is never sent)."""


def encode_text(text: str) -> bytes:
    """Java's ``writeUTF`` bytes of ``text``: the 2-byte length, then the MUTF-8 body.

    Raises:
        FrameTooLong: the body would be over 65535 bytes.
    """
    body: bytes = mutf8.encode_modified_utf8(text)
    if len(body) > MAX_FRAME_BODY:
        raise FrameTooLong(f"frame body of {len(body)} bytes exceeds {MAX_FRAME_BODY}")
    return PREFIX.pack(len(body)) + body


def decode_body(body: bytes, decode: Callable[[bytes], str] = mutf8.decode_modified_utf8) -> str:
    """The text of one inbound body, through the strict gate of note §2.3.

    ``decode`` is the ``mutf8`` build to use (the C one by default; tests also run the pure
    Python ``mutf8.mutf8.decode_modified_utf8``).

    Raises:
        WireError: 99000 for a body that fails any step of the gate.
    """
    if _JAVA_GRAMMAR.fullmatch(body) is None:
        raise WireError(ErrorCode.BAD_FORMAT, reason="malformed modified UTF-8")
    try:
        text = decode(body)
    except (UnicodeDecodeError, RuntimeError, ValueError):  # unreachable after step 1, kept as a guard
        raise WireError(ErrorCode.BAD_FORMAT, reason="malformed modified UTF-8") from None
    if _FORBIDDEN_CHARACTERS.search(text):
        raise WireError(ErrorCode.BAD_FORMAT, reason="forbidden character in frame")
    return text


class FrameReader:
    """Incremental ``readUTF``: feed any chunks, take whole bodies (as checked text).

    After a 99004 the stream is abandoned (the connection closes): buffered and later bytes
    are discarded and every further call raises the same error.
    """

    __slots__ = ("_buffer", "_lost", "max_inbound_frame")

    def __init__(self, *, max_inbound_frame: int = MAX_INBOUND_FRAME) -> None:
        self.max_inbound_frame = max_inbound_frame
        self._buffer = bytearray()
        self._lost = False

    @property
    def buffered(self) -> int:
        """Bytes received and not yet returned (EOF with bytes buffered is a lost connection)."""
        return len(self._buffer)

    def receive_data(self, data: bytes) -> None:
        if not self._lost:
            self._buffer += data

    def next_body(self) -> bytes | _NeedData:
        """The next whole body (raw bytes, possibly empty), or :data:`NEED_DATA`.

        Raises:
            WireError: 99004 for a length above :attr:`max_inbound_frame` (not recoverable).
        """
        if self._lost:
            raise WireError(ErrorCode.EXCESS_FLOOD, reason="stream abandoned", recoverable=False)
        if len(self._buffer) < PREFIX.size:
            return NEED_DATA
        (length,) = PREFIX.unpack_from(self._buffer)
        if length > self.max_inbound_frame:
            self._lost = True
            self._buffer.clear()
            raise WireError(ErrorCode.EXCESS_FLOOD, reason=f"frame of {length} bytes", recoverable=False)
        end = PREFIX.size + length
        if len(self._buffer) < end:
            return NEED_DATA
        body = bytes(self._buffer[PREFIX.size : end])
        del self._buffer[:end]
        return body


__all__ = [
    "MAX_FRAME_BODY",
    "MAX_INBOUND_FRAME",
    "FrameReader",
    "FrameTooLong",
    "decode_body",
    "encode_text",
]

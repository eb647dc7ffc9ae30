"""The JDuplicate codec: ``writeUTF`` frames <-> typed messages, in 0.2 or 1.0 (note §2, §3).

:class:`JDuplicateCodec` follows :class:`~gamehall.protocols._core.Codec`. One instance serves
one connection, on either end:

- ``Side.SERVER`` (the default) reads client messages and writes server messages;
- ``Side.CLIENT`` reads server messages and writes client messages (bots, tests).

**Syntax.** Built without a version, the codec lets the first frame decide (note §3.3): 1.0 if
its first non-blank character is ``<`` (a leading U+FEFF skipped), 0.2 otherwise, an empty
frame included. From then on a frame in the other syntax is 99000. :meth:`use_version` sets
the syntax explicitly (a bot picks it; the dialogue may re-assert it after CLIENTTYPE); until
a syntax is known, :meth:`encode` writes 0.2.

**Errors.** :meth:`next_message` raises :class:`~.errors.WireError` (a ``ProtocolError``) with
the code and parameter of the ERROR to send: 99000 (malformed MUTF-8, bad XML, DTD/entities,
bad token, mixed syntax), 99001 (empty frame), 99002 (unknown command), the field codes
30105, 30110, 60000, 60107, all recoverable (the frame was consumed); and 99004 (frame longer
than ``max_inbound_frame``), after which the connection must close. Flood, idle and EOF rules
need a clock and belong to the dialogue (:attr:`buffered` tells an EOF inside a frame).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Final

import mutf8

from gamehall.protocols._core import NEED_DATA, _NeedData
from gamehall.protocols.jduplicate import v02, v10
from gamehall.protocols.jduplicate.errors import ErrorCode, WireError
from gamehall.protocols.jduplicate.framing import MAX_INBOUND_FRAME, FrameReader, decode_body, encode_text
from gamehall.protocols.jduplicate.messages import ClientMessage, Message, ServerMessage, Version
from gamehall.protocols.jduplicate.schema import CLIENT_BY_TOKEN, SERVER_BY_TOKEN, Layout, layout_of

_BOM: Final = "\ufeff".encode()


class Side(enum.Enum):
    """Which end of the connection a codec sits on."""

    SERVER = "server"
    """Reads client messages, writes server messages."""
    CLIENT = "client"
    """Reads server messages, writes client messages."""


def syntax_of(body: bytes) -> Version:
    """The syntax a frame body is written in: 1.0 when its first non-blank character is ``<``."""
    start = body.lstrip(b" \t\r\n")
    if start.startswith(_BOM):
        start = start[len(_BOM) :].lstrip(b" \t\r\n")
    return Version.V10 if start.startswith(b"<") else Version.V02


class JDuplicateCodec:
    """Bytes to messages and back for one connection (see the module docstring)."""

    __slots__ = ("_decode", "_inbound", "_outbound", "_reader", "_version", "side")

    def __init__(
        self,
        version: Version | None = None,
        *,
        side: Side = Side.SERVER,
        max_inbound_frame: int = MAX_INBOUND_FRAME,
        decode: Callable[[bytes], str] = mutf8.decode_modified_utf8,
    ) -> None:
        self.side = side
        self._version = version
        self._reader = FrameReader(max_inbound_frame=max_inbound_frame)
        self._decode = decode
        self._inbound: Mapping[str, Layout] = CLIENT_BY_TOKEN if side is Side.SERVER else SERVER_BY_TOKEN
        self._outbound: Mapping[str, Layout] = SERVER_BY_TOKEN if side is Side.SERVER else CLIENT_BY_TOKEN

    @property
    def version(self) -> Version | None:
        """The connection's syntax, or ``None`` before the first frame decided it."""
        return self._version

    def use_version(self, version: Version) -> None:
        """Read and write ``version`` from now on."""
        self._version = version

    @property
    def buffered(self) -> int:
        """Bytes of an incomplete frame (non-zero at EOF: the connection was lost mid-frame)."""
        return self._reader.buffered

    def receive_data(self, data: bytes) -> None:
        """Append bytes read from the peer."""
        self._reader.receive_data(data)

    def next_message(self) -> Message | _NeedData:
        """The next message, or :data:`NEED_DATA`.

        Raises:
            WireError: see the module docstring; call again after a recoverable one.
        """
        body = self._reader.next_body()
        if body is NEED_DATA:
            return NEED_DATA
        syntax = syntax_of(body)
        if self._version is None:
            self._version = syntax
        if not body:
            raise WireError(ErrorCode.EMPTY_MESSAGE, reason="empty message")
        text = decode_body(body, self._decode)
        if syntax is not self._version:
            raise WireError(ErrorCode.BAD_FORMAT, reason=f"a {syntax} frame on a {self._version} connection")
        parse = v10.parse if syntax is Version.V10 else v02.parse
        message: Message = parse(text, self._inbound)
        return message

    def encode(self, message: ServerMessage | ClientMessage) -> bytes:
        """The frame of ``message``, ready for one write, in the connection's syntax.

        Raises:
            ValueError: the message is not one this side sends, or a field cannot be written
                (see :func:`.v02.render` and :func:`.v10.render`); :class:`~.framing.FrameTooLong`
                (a ``ValueError``) when the body would exceed 65535 bytes.
        """
        return encode_text(self.render(message))

    def render(self, message: ServerMessage | ClientMessage) -> str:
        """The text of ``message`` before framing (what :meth:`encode` frames)."""
        layout = layout_of(message)
        if self._outbound.get(layout.token) is not layout:
            raise ValueError(f"{layout.token} is not a message the {self.side.value} sends")
        text: str = (v10.render if self._version is Version.V10 else v02.render)(message)
        return text


__all__ = ["JDuplicateCodec", "Side", "syntax_of"]

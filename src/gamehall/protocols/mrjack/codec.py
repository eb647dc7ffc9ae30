"""The Mr. Jack line codec: bytes to one term per line and back (note 2.1-2.3).

A line ends in LF; a CR before it is dropped. Lines longer than :data:`MAX_LINE_BYTES` are
discarded (up to their LF) with ``Zeile zu lang``; blank lines are skipped. A line that is not
valid UTF-8 is read as Latin-1 (**Decision (ours)**, note 2.1), so invalid UTF-8 never loses a
command: its text is judged like any other. Every other refusal is the seed's
``Unbekannter Befehl oder Befehl zur Zeit nicht möglich: <line>``.

The codec is sans-I/O and serves both ends: the server decodes client lines and encodes its
messages in its wire style; the bots decode server lines (either style) and encode commands.
Every :class:`~gamehall.protocols._core.ProtocolError` it raises is recoverable: the bad line
is consumed and the next call goes on with the following one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from gamehall.protocols._core import NEED_DATA, ProtocolError, _NeedData
from gamehall.protocols.mrjack.terms import Command, Style, normalise, parse_line, print_line

LF: Final = 0x0A
MAX_LINE_BYTES: Final = 4096
"""Longest line, in bytes, without its CR/LF (note 2.3, ``max_line_bytes``)."""

LINE_TOO_LONG: Final = "Zeile zu lang"

DISCARD_FACTOR: Final = 64
"""An over-long line is skipped (after ``Zeile zu lang``) for up to this many times the line
cap; past that the stream is garbage or a memory attack: the error is then not recoverable and
the dialogue closes the connection. **Decision (ours)**, docs/transport.md."""

_BLANK: Final = b" \t\r\n\x0b\x0c"
"""ASCII white space: a run of lines made only of it is skipped at C speed."""


@dataclass(frozen=True, slots=True)
class Received:
    """One decoded line: its command term and the line's text after note 2.3 step 2 (what an
    ``err(Unbekannter Befehl ...: <line>)`` echoes)."""

    command: Command
    line: str


def decode_text(raw: bytes) -> str:
    """UTF-8, or Latin-1 when the bytes are not valid UTF-8 (note 2.1, Decision (ours))."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


class TermCodec:
    """Lines of terms for one connection. Feed bytes with :meth:`receive_data`, then call
    :meth:`next_message` until it returns :data:`NEED_DATA`."""

    __slots__ = ("_abandoned", "_buffer", "_discarded", "_discarding", "_scanned", "max_line", "style")

    def __init__(self, style: Style = Style.PROLOG, *, max_line: int = MAX_LINE_BYTES) -> None:
        self.style = style
        self.max_line = max_line
        self._buffer = bytearray()
        self._scanned = 0
        self._discarding = False
        self._discarded = 0
        self._abandoned = False

    @property
    def buffered(self) -> int:
        return len(self._buffer)

    def receive_data(self, data: bytes) -> None:
        self._buffer += data

    def next_message(self) -> Received | _NeedData:
        """The next command, or :data:`NEED_DATA`.

        Raises:
            ProtocolError: ``line_too_long`` (``Zeile zu lang``) or ``unparsable`` (the
                "Unbekannter Befehl" text with the line); recoverable.
        """
        buffer = self._buffer
        while True:
            if self._abandoned:
                buffer.clear()
                raise ProtocolError(LINE_TOO_LONG, recoverable=False, code="stream_abandoned")
            if not self._discarding and self._scanned == 0 and buffer and buffer[0] in _BLANK:
                white = len(buffer) - len(buffer.lstrip(_BLANK))
                last_break = buffer.rfind(b"\n", 0, white)
                if last_break >= 0:  # whole blank lines up to there: not messages
                    del buffer[: last_break + 1]
            end = buffer.find(LF, self._scanned)
            if end < 0:
                if self._discarding:
                    self._discarded += len(buffer)
                    buffer.clear()
                    self._scanned = 0
                    if self._discarded > DISCARD_FACTOR * self.max_line:
                        self._abandoned = True
                        continue
                elif len(buffer) > self.max_line + 1:  # even a final CR cannot save it
                    self._discarded = len(buffer)
                    buffer.clear()
                    self._scanned = 0
                    self._discarding = True
                    raise ProtocolError(LINE_TOO_LONG, code="line_too_long")
                else:
                    self._scanned = len(buffer)
                return NEED_DATA
            raw = bytes(buffer[:end])
            del buffer[: end + 1]
            self._scanned = 0
            if self._discarding:
                self._discarding = False
                continue
            if raw.endswith(b"\r"):
                raw = raw[:-1]
            if len(raw) > self.max_line:
                raise ProtocolError(LINE_TOO_LONG, code="line_too_long")
            text = decode_text(raw)
            if not text.strip():
                continue
            return Received(parse_line(text), normalise(text))

    def encode(self, command: Command) -> bytes:
        """One line in this codec's style, LF included."""
        return (print_line(command, self.style) + "\n").encode("utf-8")


__all__ = ["LINE_TOO_LONG", "MAX_LINE_BYTES", "Received", "TermCodec", "decode_text"]

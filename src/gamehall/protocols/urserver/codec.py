"""UrServer line framing (note section 2): bytes to text lines and back.

Input: lines end with LF, CRLF or a bare CR (a CR directly followed by LF, even in the next
read, is one terminator). Telnet IAC sequences are dropped before anything else (``FF FB..FE
xx``, ``FF FA ... FF F0``, ``FF xx``), control bytes 0x00-0x1F are removed except TAB, which
becomes a space. A line is UTF-8, or ISO-8859-1 when it is not valid UTF-8. Lines longer than
:data:`MAX_LINE` bytes are skipped up to their terminator and reported as one recoverable
:class:`ProtocolError` (the dialogue answers FEHLER 22). Blank lines are not messages.

Output: each line ends with a single LF; a block of lines is encoded as one write.

The same class serves both ends: a server decodes client lines, a bot decodes server lines.
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Iterable
from typing import Final

from gamehall.protocols._core import NEED_DATA, ProtocolError, _NeedData
from gamehall.protocols._text import one_line

MAX_LINE: Final = 1024
"""Longest accepted input line in bytes, without its terminator (note section 11)."""

LINE_TOO_LONG: Final = "line_too_long"

_IAC: Final = 0xFF
_SB: Final = 0xFA
_SE: Final = 0xF0
_OPTION_VERBS: Final = frozenset({0xFB, 0xFC, 0xFD, 0xFE})
_CR: Final = 0x0D
_LF: Final = 0x0A
_TAB: Final = 0x09


class _Telnet(enum.Enum):
    DATA = 0
    IAC = 1  # after FF
    OPTION = 2  # after FF FB..FE: one option byte follows
    SUB = 3  # inside FF FA ... : until FF F0
    SUB_IAC = 4  # FF inside a subnegotiation


def decode_line(raw: bytes) -> str:
    """Text of one line: UTF-8, or ISO-8859-1 when the bytes are not valid UTF-8."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


class UrCodec:
    """Line codec of one connection (see the module docstring).

    ``encoding`` is the output charset: UTF-8 by default, ISO-8859-1 as the server option.
    """

    __slots__ = ("_after_cr", "_line", "_lines", "_overflow", "_telnet", "encoding")

    def __init__(self, *, encoding: str = "utf-8") -> None:
        self.encoding = encoding
        self._line = bytearray()
        self._lines: deque[str | None] = deque()  # None marks an overlong line
        self._telnet = _Telnet.DATA
        self._after_cr = False
        self._overflow = False

    def receive_data(self, data: bytes) -> None:
        """Append bytes read from the peer."""
        for byte in data:
            self._byte(byte)

    def _byte(self, byte: int) -> None:
        state = self._telnet
        if state is _Telnet.IAC:
            if byte in _OPTION_VERBS:
                self._telnet = _Telnet.OPTION
            elif byte == _SB:
                self._telnet = _Telnet.SUB
            else:
                self._telnet = _Telnet.DATA
            return
        if state is _Telnet.OPTION:
            self._telnet = _Telnet.DATA
            return
        if state is _Telnet.SUB:
            if byte == _IAC:
                self._telnet = _Telnet.SUB_IAC
            return
        if state is _Telnet.SUB_IAC:
            self._telnet = _Telnet.DATA if byte == _SE else _Telnet.SUB
            return
        if byte == _IAC:
            self._telnet = _Telnet.IAC
            return
        after_cr, self._after_cr = self._after_cr, False
        if byte == _LF:
            if not after_cr:
                self._end_line()
            return
        if byte == _CR:
            self._end_line()
            self._after_cr = True
            return
        if byte < 0x20 and byte != _TAB:
            return
        if self._overflow:
            return
        if len(self._line) >= MAX_LINE:
            self._overflow = True
            self._line.clear()
            return
        self._line.append(0x20 if byte == _TAB else byte)

    def _end_line(self) -> None:
        if self._overflow:
            self._overflow = False
            self._lines.append(None)
            return
        text = decode_line(bytes(self._line)).strip(" ")
        self._line.clear()
        if text:
            self._lines.append(text)

    def next_message(self) -> str | _NeedData:
        """The next complete, non-blank line (stripped), or :data:`NEED_DATA`.

        Raises:
            ProtocolError: ``line_too_long`` (recoverable) for a line over :data:`MAX_LINE`.
        """
        if not self._lines:
            return NEED_DATA
        line = self._lines.popleft()
        if line is None:
            raise ProtocolError(f"A line has at most {MAX_LINE} bytes.", code=LINE_TOO_LONG)
        return line

    def encode(self, message: str) -> bytes:
        """One line with its LF."""
        return self.encode_block([message])

    def encode_block(self, lines: Iterable[str]) -> bytes:
        """Several lines as one write (a block is never interleaved, note section 2). A line
        break or control character inside a line becomes a space (the text rule,
        :func:`gamehall.protocols._text.one_line`): no text can end a line early and forge the
        next one."""
        text = "".join(f"{one_line(line)}\n" for line in lines)
        return text.encode(self.encoding, errors="replace")


def tokens(line: str) -> list[str]:
    """The space-separated tokens of a line (runs of spaces count as one)."""
    return line.split()

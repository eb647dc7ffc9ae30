"""UrServer line framing (note section 2): bytes to text lines and back.

Input: lines end with LF, CRLF or a bare CR (a CR directly followed by LF, even in the next
read, is one terminator). Telnet IAC sequences are dropped before anything else (``FF FB..FE
xx``, ``FF FA ... FF F0``, ``FF xx``), control bytes 0x00-0x1F are removed except TAB, which
becomes a space. A line is UTF-8, or ISO-8859-1 when it is not valid UTF-8. Lines longer than
:data:`MAX_LINE` bytes are skipped up to their terminator and reported as one recoverable
:class:`ProtocolError` (the dialogue answers FEHLER 22); one line past :data:`MAX_DISCARD`
bytes ends the stream (a non-recoverable error: FEHLER 22 and close). Blank lines are not
messages.

Output: each line ends with a single LF; a block of lines is encoded as one write.

The same class serves both ends: a server decodes client lines, a bot decodes server lines.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable
from typing import Final

from gamehall.protocols._core import NEED_DATA, ProtocolError, _NeedData
from gamehall.protocols._text import one_line

MAX_LINE: Final = 1024
"""Longest accepted input line in bytes, without its terminator (note section 11)."""

MAX_DISCARD: Final = 64 * 1024
"""Bytes of one over-long line the codec skips before it gives up on the stream: no client
sends a line 64 times the cap, so this is garbage (or a memory attack) and the connection ends
with FEHLER 22. **Decision (ours)**, docs/transport.md."""

LINE_TOO_LONG: Final = "line_too_long"
STREAM_ABANDONED: Final = "stream_abandoned"

_SB_START: Final = b"\xff\xfa"
_OPTION_VERBS: Final = frozenset({0xFB, 0xFC, 0xFD, 0xFE})
_TELNET: Final = re.compile(rb"\xff(?:[\xfb-\xfe][\s\S]|[^\xfa\xfb-\xfe])")
"""A complete telnet command other than a subnegotiation: IAC + option verb + option, or
IAC + any other byte (IAC IAC included: scanning left to right keeps the pairs)."""
_TELNET_OR_SB: Final = re.compile(rb"\xff(?:[\xfb-\xfe][\s\S]|[^\xfb-\xfe])")
"""The same, or the start of a subnegotiation (IAC SB), which runs to IAC SE."""
_CONTROLS: Final = bytes(b for b in range(0x20) if b not in (0x09, 0x0A, 0x0D))
_TAB_TO_SPACE: Final = bytes.maketrans(b"\t", b" ")
_LINE_BREAKS: Final = re.compile(rb"[ \r\n]*[\r\n][ \r\n]*")
"""One or more terminators with the spaces around them: a run of terminators makes only blank
lines, which are not messages, and a line's outer spaces are stripped anyway, so the whole run
is one split point (found at C speed: a flood of blank lines costs no Python loop per line)."""


def decode_line(raw: bytes) -> str:
    """Text of one line: UTF-8, or ISO-8859-1 when the bytes are not valid UTF-8."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


class _Abandoned:
    """Queue marker: the stream went past :data:`MAX_DISCARD` inside one line."""


_ABANDONED: Final = _Abandoned()


class UrCodec:
    """Line codec of one connection (see the module docstring).

    ``encoding`` is the output charset: UTF-8 by default, ISO-8859-1 as the server option.
    Every scan is a C-speed ``find``/regex over the received chunk: no Python work per byte.
    """

    __slots__ = ("_discarded", "_in_sub", "_line", "_lines", "_overflow", "_tail", "encoding")

    def __init__(self, *, encoding: str = "utf-8") -> None:
        self.encoding = encoding
        self._line = bytearray()  # the current, unterminated line (telnet and controls removed)
        self._lines: deque[str | _Abandoned | None] = deque()  # None marks an over-long line
        self._tail = b""  # an incomplete telnet command at the end of the last chunk
        self._in_sub = False  # inside IAC SB ... IAC SE
        self._overflow = False  # the current line is over MAX_LINE: skipped to its end
        self._discarded = 0

    def receive_data(self, data: bytes) -> None:
        """Append bytes read from the peer; complete lines are queued for :meth:`next_message`."""
        if isinstance(self._lines and self._lines[-1], _Abandoned):
            return
        clean = self._strip_telnet(self._tail + data if self._tail else data)
        clean = clean.translate(_TAB_TO_SPACE, _CONTROLS)
        if not clean:
            return
        if b"\n" not in clean and b"\r" not in clean:  # no terminator: skip the regex scan
            self._extend_line(clean)
            return
        parts = _LINE_BREAKS.split(clean)
        for complete in parts[:-1]:
            self._end_line(complete)
        self._extend_line(parts[-1])

    def _strip_telnet(self, data: bytes) -> bytes:
        self._tail = b""
        if not self._in_sub:
            if 0xFF not in data:
                return data
            if _SB_START not in data:  # the common case: one C-speed substitution
                return self._keep_tail(_TELNET.sub(b"", data))
        segments: list[bytes] = []
        pos = 0
        size = len(data)
        while pos < size:
            if self._in_sub:  # skip to IAC SE; IAC + any other byte stays inside
                iac = data.find(b"\xff", pos)
                if iac < 0 or iac + 1 >= size:
                    if iac >= 0:
                        self._tail = b"\xff"  # maybe the IAC of IAC SE
                    return b"".join(segments)
                pos = iac + 2
                if data[iac + 1] == 0xF0:
                    self._in_sub = False
                continue
            found = _TELNET_OR_SB.search(data, pos)
            if found is None:
                segments.append(data[pos:])
                break
            segments.append(data[pos : found.start()])
            pos = found.end()
            if found.group() == _SB_START:
                self._in_sub = True
        return self._keep_tail(b"".join(segments))

    def _keep_tail(self, joined: bytes) -> bytes:
        """Keep an incomplete telnet command at the end for the next read."""
        if joined.endswith(b"\xff"):
            self._tail, joined = b"\xff", joined[:-1]
        elif len(joined) >= 2 and joined[-2] == 0xFF and joined[-1] in _OPTION_VERBS:
            self._tail, joined = joined[-2:], joined[:-2]
        return joined

    def _end_line(self, part: bytes) -> None:
        if (self._discarded if self._overflow else len(self._line)) + len(part) > MAX_DISCARD:
            self._lines.append(_ABANDONED)
            return
        if self._overflow or len(self._line) + len(part) > MAX_LINE:
            self._overflow = False
            self._discarded = 0
            self._line.clear()
            self._lines.append(None)
            return
        raw = bytes(self._line) + part if self._line else part
        self._line.clear()
        text = decode_line(raw).strip(" ")
        if text:
            self._lines.append(text)

    def _extend_line(self, part: bytes) -> None:
        if not part:
            return
        if not self._overflow and len(self._line) + len(part) <= MAX_LINE:
            self._line += part
            return
        if not self._overflow:
            self._overflow = True
            self._discarded = len(self._line)
            self._line.clear()
        self._discarded += len(part)
        if self._discarded > MAX_DISCARD:
            self._lines.append(_ABANDONED)

    def next_message(self) -> str | _NeedData:
        """The next complete, non-blank line (stripped), or :data:`NEED_DATA`.

        Raises:
            ProtocolError: ``line_too_long`` (recoverable) for a line over :data:`MAX_LINE`;
                ``stream_abandoned`` (not recoverable) once one line passes
                :data:`MAX_DISCARD`: every later call raises it again.
        """
        if not self._lines:
            return NEED_DATA
        line = self._lines[0]
        if isinstance(line, _Abandoned):
            raise ProtocolError(
                f"A line went past {MAX_DISCARD} bytes.", recoverable=False, code=STREAM_ABANDONED
            )
        self._lines.popleft()
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

"""The AAH legacy wire codec: ETX-terminated frames of a 4-letter command and NUL-split arguments.

Section 2 of ``specs/aah.md``. A frame on the wire is::

    cmd [ arg *( NUL arg ) ] ETX        cmd = 4 bytes 'A'-'Z', NUL = 0x00, ETX = 0x03

There is no separator between the command and the first argument, no length prefix and no
escaping. "No arguments" and "one empty argument" are the same bytes, so an empty first
argument cannot be sent.

The codec is sans-I/O and one instance serves one connection (the 0.2.0 server shared one
buffer between all clients and cut frames in two). It is used on both sides:

- ``AahCodec(Side.SERVER)`` decodes what clients send (client commands only, with the
  "one NUL after the command" leniency) and encodes server frames;
- ``AahCodec(Side.CLIENT)`` decodes what a server sends (no leniency: the bot / legacy client
  emulator must see the bytes as they are) and encodes client frames.

Bad input raises :class:`~gamehall.protocols._core.ProtocolError` whose ``reason`` is the exact
``UNRG`` text of the note and whose ``code`` names the cause; the codec then goes on with the
next frame, so every error is recoverable.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Final

from gamehall.protocols._core import NEED_DATA, ProtocolError, _NeedData

ETX: Final = 0x03
NUL: Final = 0x00
MAX_FRAME: Final = 16_384
"""Largest frame, in bytes, not counting its ETX (section 1, Decision (ours))."""

MAX_DISCARD: Final = 64 * MAX_FRAME
"""Bytes of one over-long frame skipped (after "Frame too long.") before the codec gives up on
the stream: a frame 64 times the cap is garbage or a memory attack, not a client. The error is
then not recoverable and the dialogue ends the connection. **Decision (ours)**,
docs/transport.md."""

CLIENT_COMMANDS: Final = frozenset({"JOIN", "NICK", "SMSG", "DISC", "PICK", "CZPK", "META", "PING", "PONG"})
"""Commands a client may send (section 4)."""

SERVER_COMMANDS: Final = frozenset(
    {
        "ACKN", "REFU", "NACC", "NDNY", "CLNF", "CLJN", "CLEX", "RMSG", "BDCS", "DISC", "GSTR",
        "RSTR", "BLCK", "WHTE", "CZAR", "BLNK", "REVL", "PNTS", "RWIN", "GWIN", "CRTO", "CZTO",
        "UNRG", "META", "PING", "PONG",
    }
)  # fmt: skip
"""Commands a server may send (section 4). ``DISC``, ``META``, ``PING`` and ``PONG`` go both ways."""

KNOWN_COMMANDS: Final = CLIENT_COMMANDS | SERVER_COMMANDS
"""Every command name of the protocol. ``ENDG`` (in the 0.2.0 enum, never used) is unknown."""

SERVER_ONLY_COMMANDS: Final = SERVER_COMMANDS - CLIENT_COMMANDS
CLIENT_ONLY_COMMANDS: Final = CLIENT_COMMANDS - SERVER_COMMANDS

_ETX_RUN: Final = re.compile(b"\x03+")

_KNOWN_BYTES: Final = frozenset(name.encode("ascii") for name in KNOWN_COMMANDS)
_SERVER_ONLY_BYTES: Final = frozenset(name.encode("ascii") for name in SERVER_ONLY_COMMANDS)
_CLIENT_ONLY_BYTES: Final = frozenset(name.encode("ascii") for name in CLIENT_ONLY_COMMANDS)

# The ProtocolError reasons, exactly as the UNRG texts of section 11.2.
FRAME_TOO_LONG: Final = "Frame too long."
MALFORMED_COMMAND: Final = "Malformed command."
INVALID_UTF8: Final = "Invalid UTF-8."


class Side(enum.Enum):
    """Which end of the connection a codec sits on."""

    SERVER = "server"
    """Decodes client frames, encodes server frames."""
    CLIENT = "client"
    """Decodes server frames, encodes client frames (bots, the legacy client emulator)."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One decoded frame: ``command`` (4 upper-case letters) and its text arguments."""

    command: str
    args: tuple[str, ...] = ()


_BARE_FRAMES: Final = {name: Frame(name) for name in KNOWN_COMMANDS}
"""Every command without arguments, decoded once: frames are immutable, so ``PING`` after
``PING`` is the same object (no allocation per frame on the busiest path)."""

_BARE_BYTES: Final = {name: name.encode("ascii") + b"\x03" for name in KNOWN_COMMANDS}
"""Every command without arguments, encoded once."""


def bare_frame(command: str) -> Frame | None:
    """The shared :class:`Frame` of ``command`` without arguments (``None`` if unknown)."""
    return _BARE_FRAMES.get(command)


def printable_command(raw: bytes) -> str:
    """The command bytes as shown in "Unknown command (XXXX).": printable ASCII kept, any
    other byte shown as ``?``."""
    return "".join(chr(b) if 0x20 <= b <= 0x7E else "?" for b in raw)


_SANITIZE_TABLE: Final = {code: " " for code in range(0x20) if code != 0x0A}


def sanitize_text(text: str) -> str:
    """``text`` made safe to send as an argument: NUL, ETX and every other C0 control
    character except LF become a space (sections 2.3, 7.1, 9.4)."""
    return text.translate(_SANITIZE_TABLE)


class AahCodec:
    """Bytes to :class:`Frame` and back for one connection (section 2.2 and 2.3).

    Feed bytes with :meth:`receive_data`, then call :meth:`next_message` until it returns
    :data:`NEED_DATA`. Each call that raises :class:`ProtocolError` has consumed the bad frame
    (or, for an oversize frame, arranged to drop it up to its ETX), so the caller reports the
    error and simply calls :meth:`next_message` again.
    """

    __slots__ = ("_abandoned", "_buffer", "_discarded", "_discarding", "_scanned", "side")

    def __init__(self, side: Side = Side.SERVER) -> None:
        self.side = side
        self._buffer = bytearray()
        self._scanned = 0  # bytes at the front of the buffer known to hold no ETX
        self._discarding = False  # inside an oversize frame: drop bytes up to the next ETX
        self._discarded = 0  # bytes dropped of that frame so far
        self._abandoned = False  # one frame went past MAX_DISCARD: the stream is lost

    @property
    def buffered(self) -> int:
        """Bytes received but not yet returned as frames (for slow-sender diagnostics)."""
        return len(self._buffer)

    def receive_data(self, data: bytes) -> None:
        """Append bytes read from the peer."""
        self._buffer += data

    def next_message(self) -> Frame | _NeedData:
        """The next complete frame, or :data:`NEED_DATA`.

        Raises:
            ProtocolError: ``frame_too_long``, ``malformed_command``, ``unknown_command``,
                ``server_only`` (server side), ``client_only`` (client side) or
                ``invalid_utf8``; the reason is the exact ``UNRG`` text.
        """
        buffer = self._buffer
        while True:
            if self._abandoned:
                buffer.clear()
                raise ProtocolError(FRAME_TOO_LONG, recoverable=False, code="stream_abandoned")
            if not buffer:  # the usual end of a read: every frame in it was taken
                self._scanned = 0
                return NEED_DATA
            end = buffer.find(ETX, self._scanned)
            if end < 0:
                if self._discarding:
                    self._discarded += len(buffer)
                    buffer.clear()
                    self._scanned = 0
                    if self._discarded > MAX_DISCARD:
                        self._abandoned = True
                        continue
                elif len(buffer) > MAX_FRAME:
                    self._discarded = len(buffer)
                    buffer.clear()
                    self._scanned = 0
                    self._discarding = True
                    raise ProtocolError(FRAME_TOO_LONG, code="frame_too_long")
                else:
                    self._scanned = len(buffer)
                return NEED_DATA
            if end == 0:
                # empty frames (ETX runs) are ignored silently (2.2 rule 3): skip the run at C speed
                run = _ETX_RUN.match(buffer)
                assert run is not None
                del buffer[: run.end()]
                self._scanned = 0
                if self._discarding:
                    self._discarding = False
                continue
            raw = bytes(buffer[:end])
            del buffer[: end + 1]
            self._scanned = 0
            if self._discarding:
                self._discarding = False
                continue
            return self._decode(raw)

    def _decode(self, raw: bytes) -> Frame:
        if len(raw) > MAX_FRAME:
            raise ProtocolError(FRAME_TOO_LONG, code="frame_too_long")
        if len(raw) < 4:
            raise ProtocolError(MALFORMED_COMMAND, code="malformed_command")
        name = raw[:4]
        if name not in _KNOWN_BYTES:
            raise ProtocolError(f"Unknown command ({printable_command(name)}).", code="unknown_command")
        command = name.decode("ascii")
        rest = raw[4:]
        if self.side is Side.SERVER:
            if name in _SERVER_ONLY_BYTES:
                raise ProtocolError(f"Command not accepted from clients ({command}).", code="server_only")
            if rest[:1] == b"\x00":
                rest = rest[1:]  # leniency: one NUL right after the command (2.2 rule 5)
        elif name in _CLIENT_ONLY_BYTES:
            raise ProtocolError(f"Command not accepted from servers ({command}).", code="client_only")
        if not rest:
            return _BARE_FRAMES[command]
        try:
            args = tuple(part.decode("utf-8") for part in rest.split(b"\x00"))
        except UnicodeDecodeError:
            raise ProtocolError(INVALID_UTF8, code="invalid_utf8") from None
        return Frame(command, args)

    def encode(self, frame: Frame) -> bytes:
        """The bytes of ``frame``, ETX included, for one write.

        Raises:
            ValueError: the command is not one this side may send, the first argument is
                empty (it would vanish on the wire), an argument holds NUL or ETX (callers
                sanitise with :func:`sanitize_text`), or the frame exceeds :data:`MAX_FRAME`.
        """
        allowed = SERVER_COMMANDS if self.side is Side.SERVER else CLIENT_COMMANDS
        if frame.command not in allowed:
            raise ValueError(f"{frame.command!r} is not a command the {self.side.value} sends")
        return encode_frame(frame)


def encode_frame(frame: Frame) -> bytes:
    """The bytes of ``frame`` for any known command (see :meth:`AahCodec.encode`).

    Raises:
        ValueError: as :meth:`AahCodec.encode`, except that both sides' commands are allowed.
    """
    args = frame.args
    if not args:
        bare = _BARE_BYTES.get(frame.command)
        if bare is None:
            raise ValueError(f"unknown command {frame.command!r}")
        return bare
    if frame.command not in KNOWN_COMMANDS:
        raise ValueError(f"unknown command {frame.command!r}")
    if args[0] == "":
        raise ValueError("an empty first argument cannot be sent (it reads as no argument)")
    for arg in args:
        if "\x00" in arg or "\x03" in arg:
            raise ValueError(f"argument of {frame.command} holds NUL or ETX: {arg!r}")
    data = frame.command.encode("ascii") + "\x00".join(args).encode("utf-8")
    if len(data) > MAX_FRAME:
        raise ValueError(f"{frame.command} frame of {len(data)} bytes exceeds {MAX_FRAME}")
    return data + b"\x03"


__all__ = [
    "CLIENT_COMMANDS",
    "CLIENT_ONLY_COMMANDS",
    "ETX",
    "FRAME_TOO_LONG",
    "INVALID_UTF8",
    "KNOWN_COMMANDS",
    "MALFORMED_COMMAND",
    "MAX_FRAME",
    "NEED_DATA",
    "NUL",
    "SERVER_COMMANDS",
    "SERVER_ONLY_COMMANDS",
    "AahCodec",
    "Frame",
    "Side",
    "bare_frame",
    "encode_frame",
    "printable_command",
    "sanitize_text",
]

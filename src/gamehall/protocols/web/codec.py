"""The web protocol's codec: one JSON object per WebSocket text frame, version 1.

A WebSocket already delimits frames, so unlike the byte-stream codecs this one works on whole
texts: :func:`decode` turns one received text frame into a typed client message, :func:`encode`
turns one server message (a plain dict) into the text of one frame. The message catalogue is
``docs/web-protocol.md``; every client message class below mirrors one entry there.

Bad input raises only :class:`~gamehall.protocols._core.ProtocolError`, always recoverable (a
WebSocket frame boundary is never lost), with a ``code`` and a reason that names the problem:
``too_large``, ``bad_json``, ``bad_message`` (wrong shape, missing/unknown/mistyped field) or
``unknown_type``.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import orjson

from gamehall.protocols._core import ProtocolError
from gamehall.rules._core import JSON

PROTOCOL_VERSION = 2
"""The version this server speaks (docs/web-protocol.md). Version 2 added the pushed lobby
(``room_created`` / ``room_changed`` / ``room_closed``), chat history in ``joined`` and
``welcome``, and ``preparing``."""

SUPPORTED_VERSIONS = (1, 2)
"""Versions a client may name in ``hello``. Everything version 2 added is a new server message
or a new field, which a version 1 client ignores (section 1), so version 1 clients still work."""

MAX_FRAME_BYTES = 64 * 1024
"""The largest text frame accepted or sent, in UTF-8 bytes."""

MessageId = int | str | None
"""A client's optional request id, echoed as ``ref`` in the reply or error."""


# --------------------------------------------------------------------------------------------
# Client -> server messages
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ClientMessage:
    """Base of every client message. ``id`` is the client's request id (optional)."""

    t: ClassVar[str] = ""
    id: MessageId = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Hello(ClientMessage):
    """Log in as ``name``; ``token`` resumes an earlier session of the same user."""

    t: ClassVar[str] = "hello"
    v: int
    name: str
    token: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ListRooms(ClientMessage):
    """Ask for the lobby: every room, or only those of ``game``."""

    t: ClassVar[str] = "rooms"
    game: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Create(ClientMessage):
    """Open a room of ``game`` with ``settings`` (missing keys take the hall defaults)."""

    t: ClassVar[str] = "create"
    game: str
    settings: dict[str, Any] = field(default_factory=dict)
    password: str | None = None
    title: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Join(ClientMessage):
    """Take a seat in ``room`` (or take back the seat held for this user)."""

    t: ClassVar[str] = "join"
    room: str
    password: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Spectate(ClientMessage):
    """Watch ``room`` without a seat."""

    t: ClassVar[str] = "spectate"
    room: str
    password: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Leave(ClientMessage):
    """Give up the seat in ``room`` (or stop watching it)."""

    t: ClassVar[str] = "leave"
    room: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Start(ClientMessage):
    """Start the game of ``room`` now."""

    t: ClassVar[str] = "start"
    room: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Kick(ClientMessage):
    """Remove the player of ``seat`` from ``room`` (the room's operator only)."""

    t: ClassVar[str] = "kick"
    room: str
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class AddBots(ClientMessage):
    """Fill ``count`` free seats of ``room`` with in-process bots (the operator only)."""

    t: ClassVar[str] = "bots"
    room: str
    count: int = 1
    policy: str = "random"


@dataclass(frozen=True, slots=True, kw_only=True)
class Act(ClientMessage):
    """Play ``action`` (the game's ActionCodec JSON, e.g. ``{"type": "Pick", ...}``). ``seq``
    (optional) is the ``seq`` of the room view the player acted on: an action the room has
    since made stale is refused with ``stale`` and a fresh view (docs/web-protocol.md,
    "Stale actions")."""

    t: ClassVar[str] = "act"
    room: str
    action: dict[str, Any]
    seq: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Chat(ClientMessage):
    """Say ``text`` to everyone in ``room``."""

    t: ClassVar[str] = "chat"
    room: str
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Whisper(ClientMessage):
    """Say ``text`` to the user ``to`` only."""

    t: ClassVar[str] = "whisper"
    to: str
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Shout(ClientMessage):
    """Say ``text`` to every user of the hall."""

    t: ClassVar[str] = "shout"
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Resume(ClientMessage):
    """Send the events of ``room`` after ``since`` (then a fresh view)."""

    t: ClassVar[str] = "resume"
    room: str
    since: int


@dataclass(frozen=True, slots=True, kw_only=True)
class GetView(ClientMessage):
    """Send a fresh view of ``room``."""

    t: ClassVar[str] = "view"
    room: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Rename(ClientMessage):
    """Change this user's name at the table ``room`` (where the game allows it)."""

    t: ClassVar[str] = "rename"
    room: str
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Invite(ClientMessage):
    """Invite the online user ``name`` (of any protocol that has invitations) to ``room``."""

    t: ClassVar[str] = "invite"
    room: str
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Ping(ClientMessage):
    """Keep-alive; the server answers ``pong`` with the same ``data``."""

    t: ClassVar[str] = "ping"
    data: Any = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Bye(ClientMessage):
    """Log out for good (seats are released at once) and close the socket."""

    t: ClassVar[str] = "bye"


CLIENT_MESSAGES: Mapping[str, type[ClientMessage]] = {
    cls.t: cls
    for cls in (
        Hello,
        ListRooms,
        Create,
        Join,
        Spectate,
        Leave,
        Start,
        Kick,
        AddBots,
        Act,
        Chat,
        Whisper,
        Shout,
        Resume,
        GetView,
        Rename,
        Invite,
        Ping,
        Bye,
    )
}
"""Every client message class by its ``t``."""


# --------------------------------------------------------------------------------------------
# Decoding and encoding
# --------------------------------------------------------------------------------------------


def decode(text: str | bytes) -> ClientMessage:
    """The client message in one text frame.

    Raises:
        ProtocolError: the frame is too large, not JSON, not an object, of an unknown ``t``,
            or a field is missing, unknown or of the wrong type. Always recoverable.
    """
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if len(raw) > MAX_FRAME_BYTES:
        raise ProtocolError(
            f"Frame of {len(raw)} bytes exceeds the limit of {MAX_FRAME_BYTES}.", code="too_large"
        )
    try:
        obj = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise ProtocolError(f"Malformed JSON: {exc}.", code="bad_json") from None
    if not isinstance(obj, dict):
        raise ProtocolError("A message must be a JSON object.", code="bad_message")
    kind = obj.get("t")
    if not isinstance(kind, str):
        raise ProtocolError('A message needs a string field "t".', code="bad_message")
    cls = CLIENT_MESSAGES.get(kind)
    if cls is None:
        raise ProtocolError(f"Unknown message type {kind!r}.", code="unknown_type")
    return _build(cls, obj)


def message_id(text: str | bytes) -> MessageId:
    """The ``id`` of a frame that failed to decode, when it can still be read (for ``ref``)."""
    try:
        obj = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    if isinstance(obj, dict):
        ident = obj.get("id")
        if isinstance(ident, (int, str)) and not isinstance(ident, bool):
            return ident
    return None


def encode(message: Mapping[str, JSON]) -> str:
    """The text frame of one server message (a dict with a ``t`` field).

    Raises:
        ValueError: the message cannot be written as JSON or exceeds :data:`MAX_FRAME_BYTES`
            (a server bug, never a client's fault).
    """
    try:
        raw = orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)
    except TypeError as exc:
        raise ValueError(f"unencodable server message: {exc}") from None
    if len(raw) > MAX_FRAME_BYTES:
        raise ValueError(f"server message of {len(raw)} bytes exceeds {MAX_FRAME_BYTES}")
    return raw.decode("utf-8")


def encode_client(message: ClientMessage) -> str:
    """The text frame of a client message (for tests, bots and the reference client)."""
    out: dict[str, JSON] = {"t": message.t}
    for f in dataclasses.fields(message):
        value = getattr(message, f.name)
        if f.name == "id" and value is None:
            continue
        out[f.name] = value
    return orjson.dumps(out).decode("utf-8")


_HINTS: dict[type, dict[str, Any]] = {}


def _build(cls: type[ClientMessage], obj: dict[str, Any]) -> ClientMessage:
    """Check ``obj``'s fields against ``cls`` and build the message."""
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    hints = _HINTS[cls]
    fields = {f.name: f for f in dataclasses.fields(cls)}
    extra = sorted(set(obj) - set(fields) - {"t"})
    if extra:
        raise ProtocolError(f"Unknown field(s) {extra} in {cls.t!r}.", code="bad_message")
    kwargs: dict[str, Any] = {}
    for name, f in fields.items():
        if name not in obj:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise ProtocolError(f"Field {name!r} is missing in {cls.t!r}.", code="bad_message")
            continue
        value = obj[name]
        if not _fits(value, hints[name]):
            raise ProtocolError(
                f"Field {name!r} in {cls.t!r} must be {_describe(hints[name])}.", code="bad_message"
            )
        kwargs[name] = value
    return cls(**kwargs)


def _fits(value: Any, hint: Any) -> bool:
    """Whether a JSON value matches a field's type hint (the few shapes messages use)."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return True
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, option) for option in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    if origin is dict:
        return isinstance(value, dict)
    raise TypeError(f"unsupported message field type {hint!r}")


def _describe(hint: Any) -> str:
    """A field type in words, for error reasons."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return " or ".join(_describe(option) for option in typing.get_args(hint))
    names = {int: "an integer", str: "a string", type(None): "null"}
    if hint in names:
        return names[hint]
    return "an object"

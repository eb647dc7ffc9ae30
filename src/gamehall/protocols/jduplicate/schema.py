"""How each message lies on the wire, once for both syntaxes (note §3.1, §3.2, §5, §6).

A message is a token (``GAMEINFOS``; the 1.0 root is its lower case) and fields in 0.2
order. A field is one of:

- :class:`Scalar`: one value. 0.2: a ``#``-separated field (or the whole body when it is the
  only field). 1.0: a child element named ``tag`` (or, when it is the only field, the root's
  text, except in CHATACTIONREQUEST), left out when empty. ``free`` text (chat, reasons) is
  kept verbatim and may hold the 0.2 separators, so it is always the last field;
- :class:`Items`: a list. 0.2: the whole body with items ending in ``#`` and record sub-fields
  joined by ``&``, or, nested in a field, items ending in ``&`` and sub-fields joined by ``~``.
  1.0: repeated ``tag`` elements (inside ``wrapper`` if any); a record's first sub-field is
  the element's text and the others are attributes;
- :class:`StartField`: BOARDTYPE's start square, ``x#y`` (``0#-`` for none) in 0.2 and
  ``<start x=".." y=".."/>`` (left out for none) in 1.0.

Tiles (MOVES, BOARD, ENDOFTURN) have their own item form, :data:`TILE`, because the blank is
written differently in each syntax (note §3.5).
"""

from __future__ import annotations

import datetime
import enum
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from gamehall.protocols.jduplicate import messages as m
from gamehall.protocols.jduplicate.errors import ErrorCode, WireError

# --------------------------------------------------------------------------------------------
# Scalar kinds: text <-> value
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Kind:
    """How one scalar reads from and writes to text. ``read`` raises ``ValueError``."""

    name: str
    read: Callable[[str], Any]
    write: Callable[[Any], str]


_COUNT: Final = re.compile(r"[0-9]{1,6}")
_NUMBER: Final = re.compile(r"-?[0-9]{1,9}")
_DATE: Final = re.compile(r"([0-9]{2})/([0-9]{2})/([0-9]{4})")


def read_count(text: str) -> int:
    """A client's number: ``^[0-9]{1,6}$`` only (never ``int()``, which takes ``+1``, ``1_0``,
    spaces and non-ASCII digits; note §3.4)."""
    if _COUNT.fullmatch(text) is None:
        raise ValueError(f"not a number: {text!r}")
    return int(text)


def _read_optional_count(text: str) -> int | None:
    return None if text == "" else read_count(text)


def _write_optional_count(value: int | None) -> str:
    return "" if value is None else _write_count(value)


def _write_count(value: int) -> str:
    if not 0 <= value <= 999_999:
        raise ValueError(f"{value} does not fit ^[0-9]{{1,6}}$")
    return str(value)


def _read_number(text: str) -> int:
    if _NUMBER.fullmatch(text) is None:
        raise ValueError(f"not a number: {text!r}")
    return int(text)


def _write_number(value: int) -> str:
    text = str(value)
    if _NUMBER.fullmatch(text) is None:
        raise ValueError(f"{value} is out of range")
    return text


def _read_date(text: str) -> datetime.date:
    match = _DATE.fullmatch(text)
    if match is None:
        raise ValueError(f"not dd/mm/yyyy: {text!r}")
    day, month, year = (int(part) for part in match.groups())
    return datetime.date(year, month, day)


def _write_date(value: datetime.date) -> str:
    return f"{value.day:02d}/{value.month:02d}/{value.year:04d}"


def _identity(text: str) -> str:
    return text


def _enum_kind(cls: type[enum.StrEnum]) -> Kind:
    return Kind(cls.__name__, cls, str)


TEXT: Final = Kind("text", _identity, _identity)
COUNT: Final = Kind("count", read_count, _write_count)
"""A number a client sends (``^[0-9]{1,6}$``)."""
OPTIONAL_COUNT: Final = Kind("optional count", _read_optional_count, _write_optional_count)
"""A client number that may be left empty (``None``)."""
NUMBER: Final = Kind("number", _read_number, _write_number)
"""A number the server sends: scores may go negative after end-of-game penalties."""
DATE: Final = Kind("date", _read_date, _write_date)


# --------------------------------------------------------------------------------------------
# Fields
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Scalar:
    attr: str
    tag: str
    kind: Kind = TEXT
    free: bool = False
    error: ErrorCode = ErrorCode.BAD_FORMAT
    """The code when the text does not read as ``kind`` (its parameter is the text)."""

    def read(self, text: str) -> Any:
        try:
            return self.kind.read(text)
        except ValueError:
            raise WireError(self.error, text, reason=f"bad {self.attr}: {text!r}") from None


@dataclass(frozen=True, slots=True)
class Record:
    """A list item with sub-fields: the first is the 1.0 element text, the rest attributes."""

    cls: type
    fields: tuple[Scalar, ...]


class TileForm(enum.Enum):
    """The tile item (:func:`read_tile`, ``write_tile`` in each syntax module)."""

    TILE = "tile"


TILE: Final = TileForm.TILE

ItemForm = Kind | Record | TileForm


@dataclass(frozen=True, slots=True)
class Items:
    attr: str
    tag: str
    form: ItemForm
    wrapper: str | None = None


@dataclass(frozen=True, slots=True)
class StartField:
    attr: str = "start"
    tag: str = "start"


Field = Scalar | Items | StartField


@dataclass(frozen=True, slots=True)
class Layout:
    """One message's wire form: its token and its fields in 0.2 order."""

    token: str
    cls: type
    fields: tuple[Field, ...] = ()
    single_in_root: bool = True
    """1.0 puts a single scalar field in the root's text; CHATACTIONREQUEST is the seed's
    exception (``<chatactionrequest><action>...</action></chatactionrequest>``)."""

    def value_in_root(self) -> Scalar | None:
        """The one scalar field 1.0 writes as the root's text, if this message has one."""
        if len(self.fields) == 1 and self.single_in_root and isinstance(self.fields[0], Scalar):
            return self.fields[0]
        return None

    @property
    def root(self) -> str:
        return self.token.lower()

    @property
    def wire_field_count(self) -> int:
        """How many ``#`` fields the 0.2 body has (the start square takes two)."""
        return sum(2 if isinstance(f, StartField) else 1 for f in self.fields)


def text(attr: str, tag: str | None = None) -> Scalar:
    return Scalar(attr, tag or attr)


def free(attr: str, tag: str | None = None) -> Scalar:
    return Scalar(attr, tag or attr, free=True)


def number(attr: str, tag: str | None = None) -> Scalar:
    return Scalar(attr, tag or attr, NUMBER)


def enum_of(cls: type[enum.StrEnum], attr: str, tag: str | None = None) -> Scalar:
    return Scalar(attr, tag or attr, _enum_kind(cls))


def texts(attr: str, tag: str, wrapper: str | None = None) -> Items:
    return Items(attr, tag, TEXT, wrapper)


def records(attr: str, tag: str, cls: type, *fields: Scalar) -> Items:
    return Items(attr, tag, Record(cls, fields))


def tiles(attr: str = "tiles") -> Items:
    return Items(attr, "letter", TILE)


# --------------------------------------------------------------------------------------------
# Tiles (note §3.5)
# --------------------------------------------------------------------------------------------


def _is_letter(text: str) -> bool:
    return len(text) == 1 and text.isalpha() and len(text.upper()) == 1 and len(text.lower()) == 1


def read_tile(x: str, y: str, glyph: str, blank: str | None, item: str) -> m.Tile:
    """One tile from its wire parts. ``blank`` is the 1.0 attribute (``None`` when absent,
    and always in 0.2). A lower-case glyph without ``blank`` is a blank played as that letter.

    Raises:
        WireError: 60000 (bad item: ``x`` not a number, ``y`` not one letter, ``glyph`` not
            one character) or 60107 (a blank without a letter, ``blank`` on a non-``*`` tile),
            with ``item`` as the parameter.
    """
    if _COUNT.fullmatch(x) is None or not (_is_letter(y) and y.isascii()) or len(glyph) != 1:
        raise WireError(ErrorCode.BAD_MOVES, item, reason=f"bad tile {item!r}")
    if blank is not None:
        if glyph != "*" or not _is_letter(blank):
            raise WireError(ErrorCode.BAD_BLANK, item, reason=f"bad blank designation {item!r}")
        return m.Tile(int(x), y.upper(), blank.upper(), blank=True)
    if glyph == "*":
        raise WireError(ErrorCode.BAD_BLANK, item, reason=f"blank without a letter {item!r}")
    if _is_letter(glyph) and glyph != glyph.upper():
        return m.Tile(int(x), y.upper(), glyph.upper(), blank=True)
    return m.Tile(int(x), y.upper(), glyph)


def check_tile(tile: m.Tile) -> None:
    """Refuse (ValueError) a tile that would not read back as itself."""
    if not 0 <= tile.x <= 999_999 or not (_is_letter(tile.y) and tile.y.isascii() and tile.y.isupper()):
        raise ValueError(f"tile square out of range: {tile}")
    if tile.blank:
        if not (_is_letter(tile.glyph) and tile.glyph.isupper()):
            raise ValueError(f"a blank must stand for an upper-case letter: {tile}")
    elif len(tile.glyph) != 1 or tile.glyph == "*" or (_is_letter(tile.glyph) and not tile.glyph.isupper()):
        raise ValueError(f"bad tile glyph: {tile}")


# --------------------------------------------------------------------------------------------
# The messages
# --------------------------------------------------------------------------------------------

CLIENT_LAYOUTS: Final[tuple[Layout, ...]] = (
    Layout("PLAYERNAME", m.PlayerName, (text("name", "playername"),)),
    Layout("CLIENTTYPE", m.ClientType, (text("name"), text("version"), text("protocol", "protocolversion"))),
    Layout("CHATREQUEST", m.ChatRequest, (free("text", "chatrequest"),)),
    Layout("WHISPERREQUEST", m.WhisperRequest, (text("to"), free("text"))),
    Layout("CHATACTIONREQUEST", m.ChatActionRequest, (free("action"),), single_in_root=False),
    Layout("DISCONNECT", m.Disconnect, (free("reason", "disconnect"),)),
    Layout(
        "CREATEGAMEREQUEST",
        m.CreateGameRequest,
        (
            text("name"),
            Scalar("timeperturn", "timeperturn", OPTIONAL_COUNT, error=ErrorCode.TIME_PER_TURN_NOT_INTEGER),
            text("predefgame"),
            Scalar("maxplayers", "maxplayers", OPTIONAL_COUNT, error=ErrorCode.MAX_PLAYERS_NOT_INTEGER),
            text("description"),
        ),
    ),
    Layout("JOINGAMEREQUEST", m.JoinGameRequest, (text("game", "joingamerequest"),)),
    Layout("STARTGAMEREQUEST", m.StartGameRequest),
    Layout("CHANGELETTERS", m.ChangeLetters, (texts("letters", "letter"),)),
    Layout("MOVES", m.Moves, (tiles(),)),
    Layout("STARTTURNREQUEST", m.StartTurnRequest),
    Layout("BOARDTYPEREQUEST", m.BoardTypeRequest),
    Layout("KICKREQUEST", m.KickRequest, (text("kicked"), free("reason"))),
    Layout("LEAVEGAMEREQUEST", m.LeaveGameRequest, (free("reason", "leavegamerequest"),)),
)
"""The seed's client messages (note §5), in the seed's order."""

SERVER_LAYOUTS: Final[tuple[Layout, ...]] = (
    Layout("SERVERTYPE", m.ServerType, (text("type"), text("version"), text("protocol", "protocolversion"))),
    Layout("SERVERINFO", m.ServerInfo, (text("name"), Scalar("creationdate", "creationdate", DATE))),
    Layout("WELCOMEMESSAGE", m.WelcomeMessage, (free("text", "welcomemessage"),)),
    Layout("SERVERUSERLIST", m.ServerUserList, (texts("users", "user"),)),
    Layout("HALLUSERLIST", m.HallUserList, (texts("users", "user"),)),
    Layout(
        "GAMEINFOS",
        m.GameInfos,
        (
            text("name"),
            text("operator"),
            number("timeperturn"),
            number("timeleft"),
            enum_of(m.Rules, "rules"),
            text("description"),
            number("maxplayers"),
            enum_of(m.GameState, "state"),
            number("turn"),
            text("dictionary"),
            texts("players", "player", wrapper="players"),
        ),
    ),
    Layout("SERVERGAMELIST", m.ServerGameList, (texts("games", "game"),)),
    Layout(
        "PREDEFGAMES",
        m.PredefGames,
        (
            records(
                "games",
                "predefgame",
                m.PredefGame,
                text("code"),
                enum_of(m.Rules, "rules"),
                text("dictionary"),
                text("letterset"),
                text("board"),
                text("description"),
            ),
        ),
    ),
    Layout("USERCONNECTED", m.UserConnected, (text("name", "userconnected"),)),
    Layout("USERDISCONNECTED", m.UserDisconnected, (text("name"), free("reason"))),
    Layout("GAMECREATED", m.GameCreated, (text("game", "gamecreated"),)),
    Layout("GAMEENDED", m.GameEnded, (text("game", "gameended"),)),
    Layout("CHAT", m.Chat, (text("sender", "from"), free("text"))),
    Layout("WHISPER", m.Whisper, (text("sender", "from"), text("to"), free("text"))),
    Layout("CHATACTION", m.ChatAction, (text("sender", "from"), free("action"))),
    Layout("STARTGAME", m.StartGame, (text("game", "startgame"),)),
    Layout("PLAYERJOINED", m.PlayerJoined, (text("name", "playerjoined"),)),
    Layout("HNPLAYERJOINED", m.HnPlayerJoined, (text("name"), text("game"))),
    Layout("PLAYERLEFT", m.PlayerLeft, (text("name"), free("reason"))),
    Layout("HNPLAYERLEFT", m.HnPlayerLeft, (text("name"), text("game"))),
    Layout(
        "LETTERSET",
        m.LetterSet,
        (
            records(
                "letters",
                "letter",
                m.LetterInfo,
                text("glyph"),
                number("occurrences"),
                number("value"),
                enum_of(m.LetterClass, "letter_class", "class"),
            ),
        ),
    ),
    Layout(
        "BOARDTYPE",
        m.BoardType,
        (text("name"), number("width"), number("height"), StartField(), texts("rows", "row")),
    ),
    Layout(
        "HAND",
        m.Hand,
        (number("turn"), number("kept"), number("rejected"), texts("letters", "letter")),
    ),
    Layout("BOARD", m.Board, (tiles(),)),
    Layout("MOVESREQUEST", m.MovesRequest, (number("turn"), number("grace"))),
    Layout(
        "ENDOFTURN",
        m.EndOfTurn,
        (
            number("turn"),
            text("ref"),
            text("word"),
            number("score"),
            tiles(),
            records(
                "results",
                "result",
                m.TurnResult,
                text("player"),
                text("ref"),
                text("word"),
                number("score"),
                enum_of(m.ResultStatus, "status"),
            ),
        ),
    ),
    Layout("STARTOFTURN", m.StartOfTurn, (number("turn"), number("time"), text("player"))),
    Layout(
        "SCORES",
        m.Scores,
        (
            number("turn"),
            number("toptotal"),
            records("players", "player", m.PlayerScore, text("player"), number("total"), number("last")),
        ),
    ),
    Layout("KICK", m.Kick, (text("kicked"), text("kicker"), free("reason"))),
    Layout(
        "ENDOFGAME",
        m.EndOfGame,
        (
            text("game"),
            enum_of(m.EndReason, "reason"),
            number("toptotal"),
            records("ranking", "player", m.PlayerTotal, text("player"), number("total")),
        ),
    ),
    Layout("ERROR", m.Error, (number("code"), free("parameter"))),
    Layout("SERVICEMESSAGE", m.ServiceMessage, (free("text", "servicemessage"),)),
    Layout("WAITINGFORSTARTTURN", m.WaitingForStartTurn, (number("turn", "waitingforstartturn"),)),
    Layout(
        "WORDRESULTS",
        m.WordResults,
        (
            number("turn"),
            text("player"),
            records(
                "words", "word", m.WordResult, text("word"), number("points"), enum_of(m.WordStatus, "status")
            ),
        ),
    ),
)
"""The server messages of note §6, in its order."""

CLIENT_BY_TOKEN: Final = {layout.token: layout for layout in CLIENT_LAYOUTS}
SERVER_BY_TOKEN: Final = {layout.token: layout for layout in SERVER_LAYOUTS}
BY_CLASS: Final[dict[type, Layout]] = {layout.cls: layout for layout in CLIENT_LAYOUTS + SERVER_LAYOUTS}


def layout_of(message: object) -> Layout:
    """The layout of ``message``'s class (``TypeError`` for anything else)."""
    layout = BY_CLASS.get(type(message))
    if layout is None:
        raise TypeError(f"{type(message).__name__} is not a JDuplicate message")
    return layout

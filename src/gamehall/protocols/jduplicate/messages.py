"""Every JDuplicate message as a typed value (note §5 and §6), independent of the syntax.

Client messages follow the seed (the authority for them) and §5; server messages follow §6.
Field names are the note's (its 1.0 element names), except where Python forbids them:
``from`` is :attr:`Chat.sender`, ``class`` is :attr:`LetterInfo.letter_class`, and
CLIENTTYPE's ``protocolversion`` is :attr:`ClientType.protocol` (the seed's field name).

Text fields hold what the peer sent, unvalidated: name rules (§3.4) and game rules are the
dialogue's and the referee's. Numbers are already checked against ``^[0-9]{1,6}$`` by the
parsers, and tiles are already decoded (a blank is ``Tile(..., blank=True)`` whatever the
syntax wrote).
"""

from __future__ import annotations

import datetime
import enum
from dataclasses import dataclass

# --------------------------------------------------------------------------------------------
# Values inside messages
# --------------------------------------------------------------------------------------------


class Version(enum.StrEnum):
    """The two syntaxes (note §3): 0.2 text lines, 1.0 XML documents."""

    V02 = "0.2"
    V10 = "1.0"


class Rules(enum.StrEnum):
    DUPLICATE = "duplicate"
    SCRABBLE = "scrabble"
    BOGGLE = "boggle"
    ANAGRAM = "anagram"


class GameState(enum.StrEnum):
    WAITING = "WAITING"
    INGAME = "INGAME"
    GAMEOVER = "GAMEOVER"


class LetterClass(enum.StrEnum):
    """Vowel, consonant, or both (the blank; ``Y`` in French is a vowel)."""

    VOWEL = "V"
    CONSONANT = "C"
    BOTH = "VC"


class ResultStatus(enum.StrEnum):
    """A player's outcome in ENDOFTURN (§6 field notes)."""

    OK = "ok"
    INVALID = "invalid"
    NONE = "none"
    PASS = "pass"
    EXCHANGE = "exchange"
    TIMEOUT = "timeout"


class WordStatus(enum.StrEnum):
    """One word's outcome in WORDRESULTS (boggle, anagram)."""

    OK = "ok"
    DUP = "dup"
    NOTWORD = "notword"
    SHORT = "short"


class EndReason(enum.StrEnum):
    """Why ENDOFGAME (§6 field notes)."""

    BAG = "bag"
    NOMOVE = "nomove"
    OUT = "out"
    PASSES = "passes"
    ROUNDS = "rounds"


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile on a square: column ``x`` (1..width), row ``y`` (``"A"``.., upper case) and
    ``glyph`` (a letterset glyph). ``blank`` means a blank tile played as ``glyph``: 0.2 writes
    it lower case (``11&H&e``), 1.0 as ``<letter x="11" y="H" blank="E">*</letter>``."""

    x: int
    y: str
    glyph: str
    blank: bool = False


@dataclass(frozen=True, slots=True)
class Square:
    """A square by column and row (the start square of BOARDTYPE)."""

    x: int
    y: str


@dataclass(frozen=True, slots=True)
class PredefGame:
    """One PREDEFGAMES record (§9.2)."""

    code: str
    rules: Rules
    dictionary: str
    letterset: str
    board: str
    description: str


@dataclass(frozen=True, slots=True)
class LetterInfo:
    """One LETTERSET record: a glyph, how many tiles carry it, its value and its class."""

    glyph: str
    occurrences: int
    value: int
    letter_class: LetterClass


@dataclass(frozen=True, slots=True)
class TurnResult:
    """One player's line in ENDOFTURN (``ref``/``word`` are ``-`` when there is none)."""

    player: str
    ref: str
    word: str
    score: int
    status: ResultStatus


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """One SCORES line: total so far and the last turn's score (negative after penalties)."""

    player: str
    total: int
    last: int


@dataclass(frozen=True, slots=True)
class PlayerTotal:
    """One ENDOFGAME ranking line."""

    player: str
    total: int


@dataclass(frozen=True, slots=True)
class WordResult:
    """One WORDRESULTS line."""

    word: str
    points: int
    status: WordStatus


# --------------------------------------------------------------------------------------------
# Client -> server (seed; §5)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerName:
    name: str


@dataclass(frozen=True, slots=True)
class ClientType:
    name: str
    version: str
    protocol: str


@dataclass(frozen=True, slots=True)
class ChatRequest:
    text: str


@dataclass(frozen=True, slots=True)
class WhisperRequest:
    to: str
    text: str


@dataclass(frozen=True, slots=True)
class ChatActionRequest:
    action: str


@dataclass(frozen=True, slots=True)
class Disconnect:
    reason: str


@dataclass(frozen=True, slots=True)
class CreateGameRequest:
    """``timeperturn``/``maxplayers`` are ``None`` when the field is empty or missing (the
    dialogue answers 30104 / 30109); text that is not a number never gets this far (30105 /
    30110 from the codec)."""

    name: str
    timeperturn: int | None
    predefgame: str
    maxplayers: int | None
    description: str


@dataclass(frozen=True, slots=True)
class JoinGameRequest:
    game: str


@dataclass(frozen=True, slots=True)
class StartGameRequest:
    pass


@dataclass(frozen=True, slots=True)
class ChangeLetters:
    """Glyphs as sent (``*`` is the blank); empty items are dropped."""

    letters: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Moves:
    """Tiles placed (duplicate, scrabble), or one boggle/anagram word's path. No tiles: a pass."""

    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class StartTurnRequest:
    """The seed's "Manually Starting a Turn" (token ours, note §5 row 12)."""


@dataclass(frozen=True, slots=True)
class BoardTypeRequest:
    pass


@dataclass(frozen=True, slots=True)
class KickRequest:
    kicked: str
    reason: str


@dataclass(frozen=True, slots=True)
class LeaveGameRequest:
    reason: str


ClientMessage = (
    PlayerName
    | ClientType
    | ChatRequest
    | WhisperRequest
    | ChatActionRequest
    | Disconnect
    | CreateGameRequest
    | JoinGameRequest
    | StartGameRequest
    | ChangeLetters
    | Moves
    | StartTurnRequest
    | BoardTypeRequest
    | KickRequest
    | LeaveGameRequest
)

# --------------------------------------------------------------------------------------------
# Server -> client (§6, in the order of the original s2c page)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ServerType:
    type: str
    version: str
    protocol: str


@dataclass(frozen=True, slots=True)
class ServerInfo:
    name: str
    creationdate: datetime.date


@dataclass(frozen=True, slots=True)
class WelcomeMessage:
    text: str


@dataclass(frozen=True, slots=True)
class ServerUserList:
    users: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HallUserList:
    users: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameInfos:
    name: str
    operator: str
    timeperturn: int
    timeleft: int
    rules: Rules
    description: str
    maxplayers: int
    state: GameState
    turn: int
    dictionary: str
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ServerGameList:
    games: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PredefGames:
    games: tuple[PredefGame, ...]


@dataclass(frozen=True, slots=True)
class UserConnected:
    name: str


@dataclass(frozen=True, slots=True)
class UserDisconnected:
    name: str
    reason: str


@dataclass(frozen=True, slots=True)
class GameCreated:
    game: str


@dataclass(frozen=True, slots=True)
class GameEnded:
    game: str


@dataclass(frozen=True, slots=True)
class Chat:
    sender: str
    text: str


@dataclass(frozen=True, slots=True)
class Whisper:
    sender: str
    to: str
    text: str


@dataclass(frozen=True, slots=True)
class ChatAction:
    sender: str
    action: str


@dataclass(frozen=True, slots=True)
class StartGame:
    game: str


@dataclass(frozen=True, slots=True)
class PlayerJoined:
    name: str


@dataclass(frozen=True, slots=True)
class HnPlayerJoined:
    name: str
    game: str


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    name: str
    reason: str


@dataclass(frozen=True, slots=True)
class HnPlayerLeft:
    name: str
    game: str


@dataclass(frozen=True, slots=True)
class LetterSet:
    letters: tuple[LetterInfo, ...]


@dataclass(frozen=True, slots=True)
class BoardType:
    """``start`` is ``None`` for boards without a start square (boggle, anagram): 0.2 writes
    ``0#-`` there and 1.0 leaves ``<start/>`` out. ``rows`` use ``. T D t d`` (§8.1)."""

    name: str
    width: int
    height: int
    start: Square | None
    rows: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Hand:
    """The rack: ``kept`` letters of the reliquat first, ``rejected`` 1 after a redraw."""

    turn: int
    kept: int
    rejected: int
    letters: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Board:
    """Every tile on the board, in row order A1, A2, ..."""

    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class MovesRequest:
    turn: int
    grace: int


@dataclass(frozen=True, slots=True)
class EndOfTurn:
    """The turn's header move (the top in duplicate) with its tiles, then one result per
    player."""

    turn: int
    ref: str
    word: str
    score: int
    tiles: tuple[Tile, ...]
    results: tuple[TurnResult, ...]


@dataclass(frozen=True, slots=True)
class StartOfTurn:
    """``time`` in seconds; ``player`` is the player to move in scrabble, else empty."""

    turn: int
    time: int
    player: str


@dataclass(frozen=True, slots=True)
class Scores:
    """Players best first."""

    turn: int
    toptotal: int
    players: tuple[PlayerScore, ...]


@dataclass(frozen=True, slots=True)
class Kick:
    kicked: str
    kicker: str
    reason: str


@dataclass(frozen=True, slots=True)
class EndOfGame:
    game: str
    reason: EndReason
    toptotal: int
    ranking: tuple[PlayerTotal, ...]


@dataclass(frozen=True, slots=True)
class Error:
    """ERROR ``code#parameter`` (codes: :class:`~.errors.ErrorCode`)."""

    code: int
    parameter: str = ""


@dataclass(frozen=True, slots=True)
class ServiceMessage:
    text: str


@dataclass(frozen=True, slots=True)
class WaitingForStartTurn:
    """Boggle: the operator may start ``turn`` with STARTTURNREQUEST."""

    turn: int


@dataclass(frozen=True, slots=True)
class WordResults:
    turn: int
    player: str
    words: tuple[WordResult, ...]


ServerMessage = (
    ServerType
    | ServerInfo
    | WelcomeMessage
    | ServerUserList
    | HallUserList
    | GameInfos
    | ServerGameList
    | PredefGames
    | UserConnected
    | UserDisconnected
    | GameCreated
    | GameEnded
    | Chat
    | Whisper
    | ChatAction
    | StartGame
    | PlayerJoined
    | HnPlayerJoined
    | PlayerLeft
    | HnPlayerLeft
    | LetterSet
    | BoardType
    | Hand
    | Board
    | MovesRequest
    | EndOfTurn
    | StartOfTurn
    | Scores
    | Kick
    | EndOfGame
    | Error
    | ServiceMessage
    | WaitingForStartTurn
    | WordResults
)

Message = ClientMessage | ServerMessage

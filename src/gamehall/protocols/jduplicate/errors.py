"""JDuplicate error codes (note §7) and the codec's error type.

Every code of the note's table is named here, so that the dialogue and the codec speak of
``ErrorCode.UNKNOWN_COMMAND`` rather than of ``99002``. :class:`WireError` is the
:class:`~gamehall.protocols._core.ProtocolError` the codec raises: besides the contract's
``reason``/``code``/``recoverable`` it carries the numeric code, the ERROR parameter, and the
0.2 token of the refused message once the codec recognised it (a field error: 30105, 30110,
60000, 60107), so that the dialogue can answer 99003 instead for a command sent before login
(note §4.1). Frame-level errors (99000, 99001, 99002, 99004) have no command.
"""

from __future__ import annotations

import enum

from gamehall.protocols._core import ProtocolError
from gamehall.protocols.jduplicate.messages import Error


class ErrorCode(enum.IntEnum):
    """The codes of note §7: two digits of category, three of type."""

    # 99: general
    BAD_FORMAT = 99000
    EMPTY_MESSAGE = 99001
    UNKNOWN_COMMAND = 99002
    BAD_IDENTIFICATION = 99003
    EXCESS_FLOOD = 99004
    IDLE_DISCONNECTION = 99005
    ADMIN_KICK = 99006
    UNKNOWN_ERROR = 99999
    # 10: client connection
    BAD_CLIENT_TYPE = 10000
    CLIENT_ALREADY_CONNECTED = 10001
    NO_CLIENT_NAME = 10002
    NO_CLIENT_VERSION = 10003
    NO_PROTOCOL_VERSION = 10004
    UNSUPPORTED_PROTOCOL = 10005
    BAD_PLAYER_NAME = 10100
    NO_PLAYER_NAME = 10101
    NAME_IN_USE = 10102
    NAME_ILLEGAL_CHARACTER = 10103
    NAME_TOO_LONG = 10104
    NAME_ALREADY_SET = 10105
    # 20: chat
    BAD_CHAT = 20000
    EMPTY_CHAT = 20001
    CHAT_TOO_LONG = 20002
    NO_WHISPER_ADDRESSEE = 20101
    UNKNOWN_ADDRESSEE = 20102
    EMPTY_WHISPER = 20103
    EMPTY_CHAT_ACTION = 20201
    # 30: game creation
    BAD_CREATE_GAME = 30100
    NO_GAME_NAME = 30101
    GAME_EXISTS = 30102
    GAME_NAME_ILLEGAL_CHARACTER = 30103
    NO_TIME_PER_TURN = 30104
    TIME_PER_TURN_NOT_INTEGER = 30105
    TIME_PER_TURN_TOO_SHORT = 30106
    NO_PREDEFINED_GAME = 30107
    UNKNOWN_PREDEFINED_GAME = 30108
    NO_MAX_PLAYERS = 30109
    MAX_PLAYERS_NOT_INTEGER = 30110
    MAX_PLAYERS_TOO_SMALL = 30111
    DESCRIPTION_ILLEGAL_CHARACTER = 30112
    MAX_PLAYERS_ABOVE_CAP = 30113
    TIME_PER_TURN_TOO_LONG = 30114
    ALREADY_IN_A_GAME = 30115
    GAME_NAME_TOO_LONG = 30116
    DESCRIPTION_TOO_LONG = 30117
    TOO_MANY_GAMES = 30118
    # 40: join game
    BAD_JOIN = 40000
    NO_JOIN_GAME_NAME = 40001
    UNKNOWN_GAME = 40002
    GAME_FULL = 40003
    JOIN_ALREADY_IN_A_GAME = 40004
    GAME_ALREADY_STARTED = 40005
    GAME_OVER = 40006
    KICKED_FROM_GAME = 40007
    # 50: operator actions
    BAD_OPERATOR_FORMAT = 50000
    NOT_OPERATOR = 50001
    NOT_IN_A_GAME = 50002
    GAME_ALREADY_RUNNING = 50003
    NO_PLAYER_TO_KICK = 50101
    PLAYER_NOT_IN_GAME = 50102
    CANNOT_KICK_YOURSELF = 50103
    NO_TURN_WAITING = 50201
    # 60: when playing
    BAD_MOVES = 60000
    MOVES_NOT_IN_A_GAME = 60001
    GAME_NOT_IN_PROGRESS = 60002
    NOT_YOUR_TURN = 60003
    TURN_NOT_ACCEPTING_MOVES = 60004
    SQUARE_OUTSIDE_BOARD = 60101
    SQUARE_OCCUPIED = 60102
    LETTER_NOT_IN_HAND = 60103
    NOT_ON_ONE_LINE = 60104
    GAP_IN_WORD = 60105
    NOT_CONNECTED = 60106
    BAD_BLANK = 60107
    NOT_A_WORD = 60108
    SAME_SQUARE_TWICE = 60109
    NO_WORD = 60110
    CHANGE_NOT_ALLOWED = 60201
    BAG_TOO_SMALL = 60202
    CHANGE_LETTER_NOT_IN_HAND = 60203
    PATH_NOT_ADJACENT = 60301
    PATH_CELL_REUSED = 60302
    PATH_GLYPH_DIFFERS = 60303
    WORD_TOO_SHORT = 60304
    WORD_ALREADY_SENT = 60305
    TOO_MANY_WORDS = 60306


class WireError(ProtocolError):
    """A frame the codec refuses, as the ERROR the peer must get.

    ``code`` (the contract's string) is the decimal code; ``number`` is the same as an
    :class:`ErrorCode`; ``parameter`` is the ERROR's second field; ``command`` is the 0.2
    token (1.0: the upper-cased root) of a recognised message whose fields were refused.
    ``recoverable`` is False only when the connection must close (99004).
    """

    def __init__(
        self,
        number: ErrorCode,
        parameter: str = "",
        *,
        reason: str | None = None,
        recoverable: bool = True,
        command: str | None = None,
    ) -> None:
        text = reason or number.name.lower().replace("_", " ")
        super().__init__(text, recoverable=recoverable, code=str(int(number)))
        self.number = number
        self.parameter = parameter
        self.command = command

    def to_message(self) -> Error:
        """The ERROR message the peer gets."""
        return Error(int(self.number), self.parameter)

    def with_command(self, command: str) -> WireError:
        """The same error, now knowing which command it refused."""
        return WireError(
            self.number, self.parameter, reason=self.reason, recoverable=self.recoverable, command=command
        )


__all__ = ["ErrorCode", "WireError"]

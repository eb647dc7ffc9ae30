"""Why a JDuplicate request is refused, as the note's error codes (§3.4, §7).

Two parts: the text rules of §3.4 (names, game names, descriptions, chat) checked by the
dialogue before anything reaches the hall, and the translation of the engine's and the hall's
refusals into ERROR codes with their parameters. Every refusal is a :class:`Refusal`; the
dialogue answers it with one ERROR and changes nothing.
"""

from __future__ import annotations

from typing import Final

from gamehall.protocols._core import HallError
from gamehall.protocols.jduplicate.errors import ErrorCode as E
from gamehall.protocols.jduplicate.messages import Error
from gamehall.protocols.jduplicate.outbound import WIRE_BLANK, square_parameter
from gamehall.rules._core import RuleError

NAME_MAX: Final = 24
GAME_NAME_MAX: Final = 32
DESCRIPTION_MAX: Final = 100
CHAT_MAX: Final = 400
REASON_MAX: Final = 200
FORBIDDEN_IN_NAMES: Final = "&#~<>\t\r\n"
"""The union of the 0.2 separators and the 1.0 brackets, plus TAB, CR and LF (§3.2, §3.4)."""


class Refusal(Exception):
    """One ERROR to answer with (code and parameter)."""

    def __init__(self, code: E, parameter: str = "") -> None:
        super().__init__(f"{int(code)} {parameter}")
        self.code = code
        self.parameter = parameter

    def to_message(self) -> Error:
        return Error(int(self.code), self.parameter)


def _illegal_character(text: str) -> str | None:
    return next((ch for ch in text if ch in FORBIDDEN_IN_NAMES or ord(ch) < 0x20), None)


def check_player_name(raw: str) -> str:
    """The player name of PLAYERNAME, trimmed (1-24 characters, none of ``& # ~ < >``).

    Raises:
        Refusal: 10101 (empty), 10103 (the character), 10104 (too long).
    """
    name = raw.strip(" ")
    if not name:
        raise Refusal(E.NO_PLAYER_NAME)
    bad = _illegal_character(name)
    if bad is not None:
        raise Refusal(E.NAME_ILLEGAL_CHARACTER, bad)
    if len(name) > NAME_MAX:
        raise Refusal(E.NAME_TOO_LONG, str(NAME_MAX))
    return name


def check_game_name(raw: str) -> str:
    """Raises: Refusal 30101, 30103, 30116."""
    name = raw.strip(" ")
    if not name:
        raise Refusal(E.NO_GAME_NAME)
    bad = _illegal_character(name)
    if bad is not None:
        raise Refusal(E.GAME_NAME_ILLEGAL_CHARACTER, bad)
    if len(name) > GAME_NAME_MAX:
        raise Refusal(E.GAME_NAME_TOO_LONG, str(GAME_NAME_MAX))
    return name


def check_description(raw: str) -> str:
    """Raises: Refusal 30112, 30117."""
    text = raw.strip(" ")
    bad = _illegal_character(text)
    if bad is not None:
        raise Refusal(E.DESCRIPTION_ILLEGAL_CHARACTER, bad)
    if len(text) > DESCRIPTION_MAX:
        raise Refusal(E.DESCRIPTION_TOO_LONG, str(DESCRIPTION_MAX))
    return text


def check_chat(text: str, empty: E) -> str:
    """A chat, whisper or action text: 1-400 characters (TAB, CR, LF allowed).

    Raises:
        Refusal: ``empty`` for an empty text, 20002 for a long one.
    """
    if not text.strip():
        raise Refusal(empty)
    if len(text) > CHAT_MAX:
        raise Refusal(E.CHAT_TOO_LONG, str(CHAT_MAX))
    return text


def reason_text(text: str) -> str:
    """A disconnect, leave or kick reason, cut silently at 200 characters."""
    return text[:REASON_MAX]


_RULE_CODES: Final[dict[str, E]] = {
    "bad_format": E.BAD_MOVES,
    "not_in_game": E.MOVES_NOT_IN_A_GAME,
    "not_in_progress": E.GAME_NOT_IN_PROGRESS,
    "not_your_turn": E.NOT_YOUR_TURN,
    "turn_closed": E.TURN_NOT_ACCEPTING_MOVES,
    "off_board": E.SQUARE_OUTSIDE_BOARD,
    "duplicate_square": E.SAME_SQUARE_TWICE,
    "occupied": E.SQUARE_OCCUPIED,
    "not_in_rack": E.LETTER_NOT_IN_HAND,
    "bad_blank": E.BAD_BLANK,
    "not_in_line": E.NOT_ON_ONE_LINE,
    "gap": E.GAP_IN_WORD,
    "first_move_centre": E.NOT_CONNECTED,
    "not_connected": E.NOT_CONNECTED,
    "too_short": E.NO_WORD,
    "not_in_dictionary": E.NOT_A_WORD,
    "change_not_allowed": E.CHANGE_NOT_ALLOWED,
    "bag_too_small": E.BAG_TOO_SMALL,
    "letter_not_in_hand": E.CHANGE_LETTER_NOT_IN_HAND,
    "path_not_adjacent": E.PATH_NOT_ADJACENT,
    "path_reused": E.PATH_CELL_REUSED,
    "path_glyph": E.PATH_GLYPH_DIFFERS,
    "word_too_short": E.WORD_TOO_SHORT,
    "word_already_sent": E.WORD_ALREADY_SENT,
    "too_many_words": E.TOO_MANY_WORDS,
    "not_operator": E.NOT_OPERATOR,
    "no_turn_waiting": E.NO_TURN_WAITING,
    "already_started": E.GAME_ALREADY_RUNNING,
    "table_full": E.GAME_FULL,
    "game_in_progress": E.GAME_ALREADY_STARTED,
    "game_over": E.GAME_OVER,
}
"""Engine refusal codes -> note §7 (the engine author's table, checked against the note)."""


def rule_refusal(error: RuleError, *, game_name: str = "") -> Refusal:
    """The ERROR for an engine refusal, with the parameter the note's table names."""
    code = _RULE_CODES.get(error.code, E.UNKNOWN_ERROR)
    detail = error.detail
    parameter = ""
    if "square" in detail and code not in (E.WORD_TOO_SHORT, E.WORD_ALREADY_SENT, E.GAP_IN_WORD):
        parameter = square_parameter(detail["square"])
    elif code in (E.LETTER_NOT_IN_HAND, E.CHANGE_LETTER_NOT_IN_HAND, E.BAD_BLANK) and "glyph" in detail:
        glyph = str(detail["glyph"])
        parameter = WIRE_BLANK if glyph in ("?", "*") else glyph
    elif code in (E.NOT_A_WORD, E.WORD_TOO_SHORT, E.WORD_ALREADY_SENT) and "word" in detail:
        parameter = str(detail["word"])
    elif code is E.BAD_MOVES and "item" in detail:
        parameter = str(detail["item"])
    elif code is E.BAG_TOO_SMALL and "count" in detail:
        parameter = str(detail["count"])
    elif code in (E.TOO_MANY_WORDS, E.GAME_FULL) and "max" in detail:
        parameter = str(detail["max"])
    elif code in (E.GAME_ALREADY_STARTED, E.GAME_OVER):
        parameter = game_name
    elif code is E.UNKNOWN_ERROR:
        parameter = error.reason[:REASON_MAX]
    return Refusal(code, parameter)


def hall_refusal(error: HallError, *, game_name: str = "") -> Refusal:
    """The ERROR for a hall refusal that the dialogue's own checks did not catch first."""
    if error.code == "room_full":
        return Refusal(E.GAME_FULL, game_name)
    if error.code == "game_in_progress":
        return Refusal(E.GAME_ALREADY_STARTED, game_name)
    if error.code == "name_in_use":
        return Refusal(E.NAME_IN_USE)
    if error.code == "no_such_user":
        return Refusal(E.UNKNOWN_ADDRESSEE)
    if error.code == "not_operator":
        return Refusal(E.NOT_OPERATOR)
    if error.code in ("not_in_room", "no_such_room", "closed"):
        return Refusal(E.NOT_IN_A_GAME)
    return Refusal(E.UNKNOWN_ERROR, error.reason[:REASON_MAX])

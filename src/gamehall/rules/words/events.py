"""What a word-game table tells its seats, one event per JDuplicate server message (note §6).

Each event maps to one message of the note, in the order the note lists them for a trigger
(§4.2), so a dialogue turns each event into its frames without looking back or ahead.
``audience=None`` means every seat and every spectator.

========================  =======================  =========================================
event                     audience                 JDuplicate message
========================  =======================  =========================================
SeatJoined (_core)        all                      PLAYERJOINED
SeatLeft (_core)          all                      PLAYERLEFT
GameStarted               all                      STARTGAME
TurnStarted               all / the rejoiner       STARTOFTURN
HandDealt                 duplicate: all;          HAND
                          scrabble: the owner
GridDealt                 all / the rejoiner       BOARD (boggle: every turn start)
SubmissionRecorded        the submitter            nothing on the wire (the browser shows it)
WordRecorded              the finder               nothing on the wire (boggle)
LettersChanged            all                      nothing (ENDOFTURN with status exchange)
MovesRequested            seats owing a move       MOVESREQUEST
TurnEnded                 all                      ENDOFTURN
WordResults               all (after the round)    WORDRESULTS (one per player, boggle)
ScoresUpdated             all / the rejoiner       SCORES
WaitingForStartTurn       all                      WAITINGFORSTARTTURN (boggle)
GameEnded                 all                      ENDOFGAME
========================  =======================  =========================================

Squares are ``(row, col)`` counted from 0 (JDuplicate's ``y = A..`` and ``x = 1..``); a glyph
is an upper-case letter, or lower case for a blank played as that letter (note §3.5).
"""

from __future__ import annotations

from dataclasses import dataclass

from gamehall.rules._core import Event, Seat

PlacedTile = tuple[int, int, str]
"""``(row, col, glyph)``: one tile of a move or one cell of a boggle path."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStarted(Event):
    """The game began (STARTGAME); turn 1 opens right after."""

    mode: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnStarted(Event):
    """A turn opened (STARTOFTURN): its number, its time, and in scrabble whose turn it is."""

    turn: int
    seconds: float
    player: Seat | None = None
    player_name: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class HandDealt(Event):
    """A rack (HAND): ``kept`` letters carried over come first; ``rejected`` is 1 when the draw
    failed the vowel/consonant minimum and was redrawn (duplicate). ``seat`` is the owner in
    scrabble, ``None`` for duplicate's shared rack. The blank is ``?``."""

    turn: int
    seat: Seat | None
    kept: int
    rejected: int
    letters: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class GridDealt(Event):
    """The boggle grid of a turn (BOARD): one string per row, ``Q`` reads ``QU``."""

    turn: int
    rows: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SubmissionRecorded(Event):
    """Duplicate: the seat's submission for the turn is recorded (a later one replaces it).
    Its validity and score stay hidden until the turn ends (note §8.3, "hidden validity")."""

    turn: int
    seat: Seat
    tiles: tuple[PlacedTile, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class WordRecorded(Event):
    """Boggle: a word the seat traced is recorded (only the finder sees it before the end)."""

    turn: int
    seat: Seat
    word: str


@dataclass(frozen=True, slots=True, kw_only=True)
class LettersChanged(Event):
    """Scrabble: a player exchanged ``count`` tiles (which ones stays hidden)."""

    seat: Seat
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MovesRequested(Event):
    """The turn's time ran out (MOVESREQUEST): the audience still owes a move and has ``grace``
    seconds to send it."""

    turn: int
    grace: float


@dataclass(frozen=True, slots=True)
class TurnResult:
    """One line of ENDOFTURN: what a player played this turn.

    ``status``: ``ok``; ``invalid`` (0 points); ``none`` (no submission); scrabble only:
    ``pass``, ``exchange``, ``timeout``. ``ref``/``word`` are ``"-"`` when there is no word.
    """

    seat: Seat
    name: str
    ref: str
    word: str
    score: int
    status: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnEnded(Event):
    """A turn closed (ENDOFTURN). The header is the top in duplicate (placed on the board), the
    move played in scrabble (``"-"``/empty for a pass or exchange), the grid's best word in boggle
    (``ref`` ``"-"``, ``tiles`` the path)."""

    turn: int
    ref: str
    word: str
    score: int
    tiles: tuple[PlacedTile, ...]
    results: tuple[TurnResult, ...]


@dataclass(frozen=True, slots=True)
class WordResult:
    """One word of WORDRESULTS: ``status`` is ``ok``, ``dup`` (found by several players, 0) or
    ``notword`` (0)."""

    word: str
    points: int
    status: str


@dataclass(frozen=True, slots=True, kw_only=True)
class WordResults(Event):
    """Boggle: one player's words and their points for the turn just closed."""

    turn: int
    seat: Seat
    name: str
    words: tuple[WordResult, ...]


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """One player's standing: total so far and points of the last turn."""

    seat: Seat
    name: str
    total: int
    last: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoresUpdated(Event):
    """SCORES: every player (leavers included, frozen), best first; ``toptotal`` is the sum of the
    tops in duplicate, 0 otherwise."""

    turn: int
    toptotal: int
    scores: tuple[PlayerScore, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class WaitingForStartTurn(Event):
    """Boggle: the pause between rounds; the operator's StartTurn opens ``next_turn``."""

    next_turn: int


@dataclass(frozen=True, slots=True, kw_only=True)
class GameEnded(Event):
    """ENDOFGAME. ``reason``: ``bag``, ``nomove``, ``out``, ``passes``, ``rounds`` or
    ``abandoned`` (every player left); ``ranking`` best first, final totals."""

    reason: str
    toptotal: int
    ranking: tuple[PlayerScore, ...]

"""What a JDuplicate player receives: engine events and table state as server messages (note §6).

The word-game engine emits one event per JDuplicate message (``rules/words/events.py``), so
:func:`table_messages` is a one-to-one translation; the only context it needs is the game's
name (STARTGAME, ENDOFGAME), how a departing player is leaving (PLAYERLEFT or KICK) and the
seconds left of a turn for a player who (re)joins in its middle. The snapshots sent on create
and join (LETTERSET, BOARDTYPE, BOARD) and the login's PREDEFGAMES are built here too.

Squares: the engine counts ``(row, col)`` from 0; the wire writes ``x = col + 1`` and
``y = "A" + row``. A lower-case engine glyph is a blank played as that letter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from gamehall.protocols._core import ChatSaid
from gamehall.protocols.jduplicate import messages as m
from gamehall.protocols.jduplicate.lobby import Departure
from gamehall.protocols.jduplicate.table import WordsPort
from gamehall.rules._core import Event, SeatJoined, SeatLeft
from gamehall.rules.words import events as ev
from gamehall.rules.words.board import STANDARD
from gamehall.rules.words.letters import BLANK, LetterSet
from gamehall.rules.words.settings import PRESETS

WIRE_BLANK = "*"

BOGGLE_BOARD = m.BoardType("boggle4", 4, 4, None, ("....",) * 4)


def wire_tile(row: int, col: int, glyph: str) -> m.Tile:
    """An engine ``(row, col, glyph)`` as a wire tile."""
    return m.Tile(col + 1, chr(ord("A") + row), glyph.upper(), blank=glyph.islower())


def engine_tile(tile: m.Tile) -> tuple[int, int, str]:
    """A wire tile as the engine's ``(row, col, glyph)`` (a blank in lower case)."""
    return (ord(tile.y.upper()) - ord("A"), tile.x - 1, tile.glyph.lower() if tile.blank else tile.glyph)


def wire_rack(letters: Iterable[str]) -> tuple[str, ...]:
    return tuple(WIRE_BLANK if letter == BLANK else letter for letter in letters)


def square_parameter(square: tuple[int, int]) -> str:
    """An ERROR parameter naming a square: ``x&y``."""
    row, col = square
    return f"{col + 1}&{chr(ord('A') + row) if 0 <= row < 26 else '?'}"


def predef_games() -> m.PredefGames:
    return m.PredefGames(
        tuple(
            m.PredefGame(p.code, m.Rules(p.mode), p.dictionary, p.letters, p.board, p.description)
            for p in PRESETS.values()
        )
    )


def letter_set(letters: LetterSet) -> m.LetterSet:
    return m.LetterSet(
        tuple(
            m.LetterInfo(
                WIRE_BLANK if g.glyph == BLANK else g.glyph, g.count, g.value, m.LetterClass(g.klass)
            )
            for g in letters.glyphs
        )
    )


def board_type(table: WordsPort) -> m.BoardType:
    if table.mode == "boggle":
        return BOGGLE_BOARD
    row, col = STANDARD.start
    start = m.Square(col + 1, chr(ord("A") + row))
    return m.BoardType(STANDARD.name, STANDARD.width, STANDARD.height, start, STANDARD.premiums)


def grid_board(rows: Iterable[str]) -> m.Board:
    return m.Board(tuple(wire_tile(r, c, glyph) for r, row in enumerate(rows) for c, glyph in enumerate(row)))


def board(table: WordsPort) -> m.Board:
    """BOARD of a table now: the tiles on the board, or the boggle grid while a round runs."""
    if table.mode == "boggle":
        return grid_board(table.grid_rows())
    return m.Board(tuple(wire_tile(r, c, glyph) for (r, c), glyph in table.board_glyphs()))


def scores(event: ev.ScoresUpdated) -> m.Scores:
    return m.Scores(
        event.turn, event.toptotal, tuple(m.PlayerScore(s.name, s.total, s.last) for s in event.scores)
    )


def end_of_turn(event: ev.TurnEnded) -> m.EndOfTurn:
    return m.EndOfTurn(
        turn=event.turn,
        ref=event.ref,
        word=event.word,
        score=event.score,
        tiles=tuple(wire_tile(*t) for t in event.tiles),
        results=tuple(
            m.TurnResult(r.name, r.ref, r.word, r.score, m.ResultStatus(r.status)) for r in event.results
        ),
    )


def table_messages(
    event: Event,
    *,
    game_name: str,
    departing: Mapping[str, Departure],
    seconds_left: Callable[[], int],
) -> list[m.ServerMessage]:
    """The messages one player receives for one room event (note §6; table in
    :mod:`gamehall.rules.words.events`). Events with no wire form give nothing."""
    if isinstance(event, SeatJoined):
        return [m.PlayerJoined(event.name)]
    if isinstance(event, SeatLeft):
        departure = departing.get(event.name.casefold(), Departure(""))
        if departure.kicker is not None:
            return [m.Kick(event.name, departure.kicker, departure.reason)]
        return [m.PlayerLeft(event.name, departure.reason)]
    if isinstance(event, ev.GameStarted):
        return [m.StartGame(game_name)]
    if isinstance(event, ev.TurnStarted):
        seconds = round(event.seconds) if event.audience is None else seconds_left()
        return [m.StartOfTurn(event.turn, seconds, event.player_name)]
    if isinstance(event, ev.HandDealt):
        return [m.Hand(event.turn, event.kept, event.rejected, wire_rack(event.letters))]
    if isinstance(event, ev.GridDealt):
        return [grid_board(event.rows)]
    if isinstance(event, ev.MovesRequested):
        return [m.MovesRequest(event.turn, round(event.grace))]
    if isinstance(event, ev.TurnEnded):
        return [end_of_turn(event)]
    if isinstance(event, ev.WordResults):
        words = tuple(m.WordResult(w.word, w.points, m.WordStatus(w.status)) for w in event.words)
        return [m.WordResults(event.turn, event.name, words)]
    if isinstance(event, ev.ScoresUpdated):
        return [scores(event)]
    if isinstance(event, ev.WaitingForStartTurn):
        return [m.WaitingForStartTurn(event.next_turn)]
    if isinstance(event, ev.GameEnded):
        if event.reason not in m.EndReason.__members__.values():
            return []  # "abandoned": nobody is seated any more
        ranking = tuple(m.PlayerTotal(s.name, s.total) for s in event.ranking)
        return [m.EndOfGame(game_name, m.EndReason(event.reason), event.toptotal, ranking)]
    if isinstance(event, ChatSaid) and event.scope == "room":
        return [m.Chat(event.sender, event.text)]
    return []

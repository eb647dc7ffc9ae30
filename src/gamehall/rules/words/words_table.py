"""The part every word-game table shares: seats, the operator, scores by name, phases and timers.

A mode (:mod:`.duplicate`, :mod:`.scrabble`, :mod:`.boggle`) subclasses :class:`WordsTable` and
fills in the turn: what opens it, what a player may send, what closes it. This layer does the
Game contract's membership part the JDuplicate way (note §4.2, §8):

- seats are handed out in join order and never reused; the **operator** is the seated player who
  joined earliest (the creator first);
- players may join a running game unless ``join_after_start`` is off (scrabble: never);
- scores are kept **by player name** for the life of a game: a player who leaves keeps a frozen
  total in SCORES and ENDOFGAME, and one who comes back under the same name gets it back;
- the turn runs through phases (``open`` -> ``grace`` after MOVESREQUEST -> closed, then
  ``pause`` or, in boggle, ``wait_start``) driven by one timer at a time.
"""

from __future__ import annotations

import abc
import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from gamehall.rules._core import (
    JSON,
    Action,
    Event,
    GameInProgress,
    Outcome,
    Rng,
    Seat,
    SeatAway,
    SeatBack,
    SeatJoined,
    SeatLeft,
    SeatRenamed,
    TableFull,
    Termination,
    Timer,
    ToMove,
    WrongPhase,
)
from gamehall.rules.words.board import Square
from gamehall.rules.words.events import GameEnded, GameStarted, PlayerScore, ScoresUpdated, TurnEnded
from gamehall.rules.words.lexicon import Lexicon
from gamehall.rules.words.settings import Rules


class Phase(enum.Enum):
    """Where a table is in its game."""

    WAITING = "waiting"
    """Before the start: seats fill, the operator starts."""
    OPEN = "open"
    """A turn runs; moves are accepted."""
    GRACE = "grace"
    """The turn's time is up; players who owe a move have the grace period (MOVESREQUEST)."""
    PAUSE = "pause"
    """Between two turns (duplicate, scrabble)."""
    WAIT_START = "wait_start"
    """Boggle: between two rounds, until the operator's StartTurn."""
    OVER = "over"


@dataclass(slots=True)
class Player:
    """Someone who played at this table: name, whether they still hold their seat, their score."""

    name: str
    seated: bool = True
    present: bool = True
    total: int = 0
    last: int = 0


class WordsTable(abc.ABC):
    """The shared base of the three modes; see the module docstring."""

    mode: ClassVar[str] = ""
    min_players: ClassVar[int] = 1

    def __init__(self, rules: Rules, seed: int, lexicon: Lexicon) -> None:
        self.rules = rules
        self.letters = rules.letters
        self.lexicon = lexicon
        self.rng = Rng(seed)
        self.players: dict[Seat, Player] = {}
        self._next_seat = 0
        self.phase = Phase.WAITING
        self.turn = 0
        self.toptotal = 0
        self.end_reason: str | None = None
        self.last_turn: TurnEnded | None = None
        self.history: list[tuple[int, dict[Seat, int]]] = []
        """Every player's total after each scored turn (and after the final adjustments): the
        score chart of the game-over panel; public like the totals themselves."""
        self._timer: Timer | None = None
        self._timer_kind = ""
        self._timer_serial = 0

    # ---------------------------------------------------------------- membership

    def seated(self) -> list[Seat]:
        """The seats currently held, in join order."""
        return [seat for seat, player in self.players.items() if player.seated]

    @property
    def operator(self) -> Seat | None:
        """The seated player who joined earliest (note §1: the creator, then the next oldest)."""
        seats = self.seated()
        return seats[0] if seats else None

    def seat_join(self, name: str) -> tuple[Seat, list[Event]]:
        if self.finished:
            raise GameInProgress("The game is over.", code="game_over")
        if self.started and not self.rules.join_after_start:
            raise GameInProgress("The game has started.")
        if len(self.seated()) >= self.rules.max_players:
            raise TableFull("The table is full.", max=self.rules.max_players)
        total = 0
        for old_seat, old in list(self.players.items()):
            if not old.seated and old.name.casefold() == name.casefold():
                total = old.total
                del self.players[old_seat]
        seat = self._next_seat
        self._next_seat += 1
        self.players[seat] = Player(name, total=total)
        events: list[Event] = [SeatJoined(seat=seat, name=name)]
        if self.started:
            self._joined_late(seat)
            events += self.resync(seat)
        return seat, events

    def seat_away(self, seat: Seat) -> list[Event]:
        player = self.players[seat]
        player.present = False
        return [SeatAway(seat=seat, name=player.name)]

    def seat_back(self, seat: Seat) -> list[Event]:
        player = self.players[seat]
        player.present = True
        return [SeatBack(seat=seat, name=player.name)]

    def seat_leave(self, seat: Seat) -> list[Event]:
        player = self.players[seat]
        events: list[Event] = [SeatLeft(seat=seat, name=player.name)]
        if not self.started:
            del self.players[seat]
            return events
        player.seated = False
        player.present = False
        if self.finished:
            return events
        if not self.seated():
            return events + self._end("abandoned")
        return events + self._left(seat)

    def seat_rename(self, seat: Seat, name: str) -> list[Event]:
        player = self.players[seat]
        old, player.name = player.name, name
        return [SeatRenamed(seat=seat, old=old, new=name)]

    def seat_names(self) -> Mapping[Seat, str]:
        return {seat: self.players[seat].name for seat in self.seated()}

    def start(self) -> list[Event]:
        if self.started:
            raise WrongPhase("The game has already started.", code="already_started")
        if len(self.seated()) < self.min_players:
            raise WrongPhase("Nobody is seated.", code="no_players")
        return [GameStarted(mode=self.mode), *self._begin()]

    @property
    def started(self) -> bool:
        return self.phase is not Phase.WAITING

    @property
    def finished(self) -> bool:
        return self.phase is Phase.OVER

    # ---------------------------------------------------------------- timers

    def pending_timers(self) -> Sequence[Timer]:
        return [self._timer] if self._timer is not None else []

    def on_timeout(self, key: str) -> list[Event]:
        """Apply what the fired timer means; a stale key (the timer was replaced) is ignored."""
        if self._timer is None or self._timer.key != key:
            return []
        kind = self._timer_kind
        self._clear_timer()
        return self._timed_out(kind)

    def _set_timer(self, kind: str, seconds: float) -> None:
        self._timer_serial += 1
        self._timer = Timer(f"{kind}:{self.turn}:{self._timer_serial}", seconds)
        self._timer_kind = kind

    def _clear_timer(self) -> None:
        self._timer = None
        self._timer_kind = ""

    def _pause_then(self) -> list[Event]:
        """After a turn closes: the pause between turns, or the next turn at once (pause 0)."""
        if self.rules.pause_s > 0:
            self.phase = Phase.PAUSE
            self._set_timer("pause", self.rules.pause_s)
            return []
        return self._next_turn()

    def _grace_or_close(self, owing: Sequence[Seat], request: Event) -> list[Event]:
        """The turn's time is up: MOVESREQUEST to ``owing`` and the grace period, or close now."""
        if not owing or self.rules.grace_s <= 0:
            return self._close_turn()
        self.phase = Phase.GRACE
        self._set_timer("grace", self.rules.grace_s)
        return [request]

    # ---------------------------------------------------------------- scores and the end

    def standings(self) -> tuple[PlayerScore, ...]:
        """Every player (leavers included), best total first, then join order."""
        order = sorted(self.players.items(), key=lambda item: (-item[1].total, item[0]))
        return tuple(PlayerScore(seat, p.name, p.total, p.last) for seat, p in order)

    def _scores_event(self, audience: frozenset[Seat] | None = None) -> ScoresUpdated:
        if audience is None:
            self._record_totals()
        return ScoresUpdated(
            turn=self.turn, toptotal=self.toptotal, scores=self.standings(), audience=audience
        )

    def _end(self, reason: str) -> list[Event]:
        self.phase = Phase.OVER
        self.end_reason = reason
        self._clear_timer()
        self._record_totals()
        return [GameEnded(reason=reason, toptotal=self.toptotal, ranking=self.standings())]

    def _record_totals(self) -> None:
        """Append the current totals to :attr:`history` unless they are already its last row."""
        totals = {seat: p.total for seat, p in self.players.items()}
        if self.history and self.history[-1] == (self.turn, totals):
            return
        self.history.append((self.turn, totals))

    def outcome(self) -> Outcome | None:
        if not self.finished:
            return None
        scores = {seat: p.total for seat, p in self.players.items()}
        best = max(scores.values(), default=0)
        winners = frozenset(seat for seat, total in scores.items() if total == best and scores)
        termination = Termination.ABORTED if self.end_reason == "abandoned" else Termination.NORMAL
        names = {seat: p.name for seat, p in self.players.items()}
        return Outcome(scores, winners, termination, names)

    # ---------------------------------------------------------------- what a client draws

    def board_glyphs(self) -> list[tuple[Square, str]]:
        """The tiles on the board as (square, glyph), in row order; none without a board
        (boggle). Reads only (JDuplicate's BOARD)."""
        return []

    def grid_rows(self) -> tuple[str, ...]:
        """The boggle grid while a round runs (open or in grace), else none. Reads only."""
        return ()

    # ---------------------------------------------------------------- view

    def view(self, seat: Seat | None) -> dict[str, JSON]:
        """The table as ``seat`` (``None``: a spectator) may see it; the mode adds its part."""
        rules = self.rules
        state = "waiting" if not self.started else "over" if self.finished else "playing"
        return {
            "game": "words",
            "mode": self.mode,
            "preset": rules.preset.code,
            "letters": self.letters.name,
            "dictionary": rules.dictionary,
            "board_type": "boggle4" if self.mode == "boggle" else "standard",
            "state": state,
            "phase": self.phase.value,
            "turn": self.turn,
            "time_per_turn": rules.time_per_turn,
            "rounds": rules.rounds,
            "max_players": rules.max_players,
            "operator": self.operator,
            "you": seat,
            "players": [
                {
                    "seat": s,
                    "name": p.name,
                    "seated": p.seated,
                    "present": p.present,
                    "total": p.total,
                    "last": p.last,
                }
                for s, p in self.players.items()
            ],
            "toptotal": self.toptotal,
            "end_reason": self.end_reason,
            "last_turn": _turn_json(self.last_turn),
            "history": [
                {"turn": turn, "totals": [[s, total] for s, total in totals.items()]}
                for turn, totals in self.history
            ],
            **self._view_mode(seat),
        }

    # ---------------------------------------------------------------- what a mode fills in

    def _begin(self) -> list[Event]:
        """Deal and open turn 1 (after GameStarted)."""
        return self._next_turn()

    @abc.abstractmethod
    def _next_turn(self) -> list[Event]:
        """Open the next turn (or end the game when the mode's end condition holds)."""

    @abc.abstractmethod
    def _close_turn(self) -> list[Event]:
        """Close the running turn: score it, ENDOFTURN and SCORES, then what follows."""

    @abc.abstractmethod
    def _timed_out(self, kind: str) -> list[Event]:
        """The timer of ``kind`` (``turn``, ``grace`` or ``pause``) fired: apply the default."""

    def _left(self, seat: Seat) -> list[Event]:
        """A seated player left a running game (others are still seated)."""
        return []

    def _joined_late(self, seat: Seat) -> None:
        """A player sat down in a running game (before :meth:`resync` brings them up to date)."""

    def _view_mode(self, seat: Seat | None) -> dict[str, JSON]:
        return {}

    @abc.abstractmethod
    def resync(self, seat: Seat) -> list[Event]:
        """Events, for ``seat`` alone, that bring a (re)joining player up to date."""

    @abc.abstractmethod
    def apply(self, seat: Seat, action: Action) -> list[Event]:
        """Apply a player's action; raise a RuleError and change nothing if it is refused."""

    @abc.abstractmethod
    def to_move(self) -> ToMove:
        """Who may act now and how (``moves``, ``play``, ``words``, ``start_turn``)."""

    def _check_player(self, seat: Seat) -> None:
        """Raise unless ``seat`` holds a seat in a running game."""
        if seat not in self.players or not self.players[seat].seated:
            raise WrongPhase("You are not playing at this table.", code="not_in_game")
        if not self.started:
            raise WrongPhase("The game has not started.", code="not_in_progress")
        if self.finished:
            raise WrongPhase("The game is over.", code="not_in_progress")


def _turn_json(turn: TurnEnded | None) -> JSON:
    if turn is None:
        return None
    return {
        "turn": turn.turn,
        "ref": turn.ref,
        "word": turn.word,
        "score": turn.score,
        "tiles": [list(t) for t in turn.tiles],
        "results": [
            {
                "seat": r.seat,
                "name": r.name,
                "ref": r.ref,
                "word": r.word,
                "score": r.score,
                "status": r.status,
            }
            for r in turn.results
        ],
    }

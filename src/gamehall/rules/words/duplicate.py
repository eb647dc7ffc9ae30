"""Duplicate: everyone plays the same rack on the same board; the top goes on the board (note §8.3).

A turn, as the note tells it:

1. **Open.** The reliquat (last rack minus the top's tiles) is topped up to seven from the bag,
   with at least two vowels and two consonants (one of each from turn 16; the blank is both).
   A rack that misses goes back whole and is redrawn: missing vowels, then consonants, then
   random tiles (``rejected=1``). The top (:func:`~.movegen.best_move`, deterministic
   tie-break) is computed at once. STARTOFTURN and the shared HAND go to everyone.
2. **Play.** Each player sends MOVES while the turn is open; format, rack and geometry errors
   are refused at once, but whether the words exist stays hidden until the end ("hidden
   validity": the dictionary cannot be probed). A later MOVES replaces the earlier one.
3. **Time up.** MOVESREQUEST to whoever has sent nothing, then the grace period.
4. **Close.** ENDOFTURN (the top, and each player's line: ``ok``, ``invalid`` or ``none``), then
   SCORES. Each player scores their own move; the top goes on the board; the pause follows.

The game ends at the start of a turn: ``bag`` when reliquat and bag hold fewer than two tiles or
cannot meet the minimum, ``nomove`` when the rack has no legal move.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamehall.rules._core import (
    JSON,
    NOBODY,
    Action,
    Event,
    IllegalAction,
    MalformedAction,
    Seat,
    ToMove,
    WrongPhase,
    only,
)
from gamehall.rules.words.actions import ChangeLetters, Moves, StartTurn
from gamehall.rules.words.bag import can_meet_minimum, draw_duplicate_rack, remove_tiles
from gamehall.rules.words.board import Board, Square
from gamehall.rules.words.events import (
    HandDealt,
    MovesRequested,
    SubmissionRecorded,
    TurnEnded,
    TurnResult,
    TurnStarted,
)
from gamehall.rules.words.lexicon import Lexicon
from gamehall.rules.words.movegen import best_move
from gamehall.rules.words.moves import Move, NotInDictionary, apply_move, validate_move
from gamehall.rules.words.placing import main_word, to_placement
from gamehall.rules.words.settings import Rules
from gamehall.rules.words.words_table import Phase, WordsTable


@dataclass(frozen=True, slots=True)
class Submission:
    """A player's MOVES for the turn: the tiles as sent and the move they make (``None``: not a
    word), with its reference and word for the ENDOFTURN line."""

    tiles: tuple[tuple[int, int, str], ...]
    move: Move | None
    ref: str
    word: str


class DuplicateTable(WordsTable):
    """A duplicate game; see the module docstring."""

    mode = "duplicate"

    def __init__(self, rules: Rules, seed: int, lexicon: Lexicon) -> None:
        super().__init__(rules, seed, lexicon)
        self.bag = rules.letters.bag()
        self.board = Board.empty()
        self.reliquat: list[str] = []
        self.rack: tuple[str, ...] = ()
        self.kept = 0
        self.rejected = 0
        self.top: Move | None = None
        self.tops: list[Move] = []
        """Every top placed so far, in order (replays compare these)."""
        self.submissions: dict[Seat, Submission] = {}

    def board_glyphs(self) -> list[tuple[Square, str]]:
        return [(square, tile.glyph) for square, tile in self.board.tiles()]

    # ---------------------------------------------------------------- the turn

    def _next_turn(self) -> list[Event]:
        turn = self.turn + 1
        if not can_meet_minimum(self.reliquat + self.bag, self.letters, turn):
            return self._end("bag")
        self.turn = turn
        self.kept = len(self.reliquat)
        self.rack, self.rejected = draw_duplicate_rack(self.bag, self.reliquat, self.rng, self.letters, turn)
        if self.rejected:
            self.kept = 0
        self.reliquat = []
        self.top = best_move(self.board, self.rack, self.lexicon, self.letters)
        if self.top is None:
            return self._end("nomove")
        self.submissions = {}
        self.phase = Phase.OPEN
        self._set_timer("turn", self.rules.time_per_turn)
        return [TurnStarted(turn=turn, seconds=self.rules.time_per_turn), self._hand()]

    def _hand(self, audience: frozenset[Seat] | None = None) -> HandDealt:
        return HandDealt(
            turn=self.turn,
            seat=None,
            kept=self.kept,
            rejected=self.rejected,
            letters=self.rack,
            audience=audience,
        )

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        self._check_player(seat)
        if isinstance(action, ChangeLetters):
            raise IllegalAction("Duplicate players share one rack: no exchange.", code="change_not_allowed")
        if isinstance(action, StartTurn):
            raise WrongPhase("Turns start on their own in duplicate.", code="no_turn_waiting")
        if not isinstance(action, Moves):
            raise MalformedAction("Unknown action.", code="bad_format")
        if self.phase not in (Phase.OPEN, Phase.GRACE):
            raise WrongPhase("The turn is not accepting moves.", code="turn_closed")
        events: list[Event] = []
        if not action.tiles:
            self.submissions.pop(seat, None)
        else:
            self.submissions[seat] = self._judge(action.tiles)
        events.append(SubmissionRecorded(turn=self.turn, seat=seat, tiles=action.tiles, audience=only(seat)))
        everyone = all(s in self.submissions for s in self.seated())
        if everyone and (self.phase is Phase.GRACE or self.rules.end_turn_when_all_moved):
            self._clear_timer()
            events += self._close_turn()
        return events

    def _judge(self, tiles: tuple[tuple[int, int, str], ...]) -> Submission:
        """Check a submission: geometry and rack now (raising), the dictionary silently."""
        placement = to_placement(tiles)
        try:
            move = validate_move(self.board, self.rack, placement, self.lexicon, self.letters)
        except NotInDictionary:
            ref, word = main_word(self.board, placement)
            return Submission(tiles, None, ref, word)
        return Submission(tiles, move, move.ref, move.word)

    def _timed_out(self, kind: str) -> list[Event]:
        if kind == "turn":
            owing = [s for s in self.seated() if s not in self.submissions]
            request = MovesRequested(turn=self.turn, grace=self.rules.grace_s, audience=frozenset(owing))
            return self._grace_or_close(owing, request)
        if kind == "grace":
            return self._close_turn()
        return self._next_turn()

    def _close_turn(self) -> list[Event]:
        top = self.top
        assert top is not None
        results = []
        scores: dict[Seat, int] = {}
        for seat in self.seated():
            player = self.players[seat]
            sub = self.submissions.get(seat)
            if sub is None:
                results.append(TurnResult(seat, player.name, "-", "-", 0, "none"))
                scores[seat] = 0
            elif sub.move is None:
                results.append(TurnResult(seat, player.name, sub.ref, sub.word, 0, "invalid"))
                scores[seat] = 0
            else:
                scores[seat] = sub.move.score
                results.append(TurnResult(seat, player.name, sub.ref, sub.word, sub.move.score, "ok"))
        solo = self._solo_winner(scores)
        if solo is not None:
            scores[solo] += self.rules.solo_bonus
            results = [
                TurnResult(r.seat, r.name, r.ref, r.word, scores[r.seat], r.status) if r.seat == solo else r
                for r in results
            ]
        for seat, player in self.players.items():
            player.last = scores.get(seat, 0)
            player.total += player.last
        self.toptotal += top.score
        ended = TurnEnded(
            turn=self.turn,
            ref=top.ref,
            word=top.word,
            score=top.score,
            tiles=tuple((row, col, tile.glyph) for (row, col), tile in top.placed()),
            results=tuple(results),
        )
        self.last_turn = ended
        self.board = apply_move(self.board, top)
        self.tops.append(top)
        self.reliquat = remove_tiles(self.rack, top.rack_tiles)
        self.submissions = {}
        return [ended, self._scores_event(), *self._pause_then()]

    def _solo_winner(self, scores: dict[Seat, int]) -> Seat | None:
        """The one player whose valid move strictly beats everyone's, if the solo bonus applies."""
        rules = self.rules
        if rules.solo_bonus <= 0 or len(scores) < rules.solo_min_players:
            return None
        valid = {
            s: sub.move.score for s, sub in self.submissions.items() if sub.move is not None and s in scores
        }
        if not valid:
            return None
        best = max(valid.values())
        leaders = [s for s, score in valid.items() if score == best]
        return leaders[0] if len(leaders) == 1 else None

    def _left(self, seat: Seat) -> list[Event]:
        self.submissions.pop(seat, None)
        closing = self.phase is Phase.GRACE or (
            self.phase is Phase.OPEN and self.rules.end_turn_when_all_moved
        )
        if closing and all(s in self.submissions for s in self.seated()):
            self._clear_timer()
            return self._close_turn()
        return []

    # ---------------------------------------------------------------- what seats see

    def resync(self, seat: Seat) -> list[Event]:
        if not self.started or self.finished:
            return []
        events: list[Event] = [self._scores_event(only(seat))]
        if self.phase in (Phase.OPEN, Phase.GRACE):
            events.append(TurnStarted(turn=self.turn, seconds=self.rules.time_per_turn, audience=only(seat)))
            events.append(self._hand(only(seat)))
        return events

    def to_move(self) -> ToMove:
        if self.phase not in (Phase.OPEN, Phase.GRACE):
            return NOBODY
        return ToMove(frozenset(s for s in self.seated() if s not in self.submissions), "moves")

    def moved_this_turn(self, seat: Seat) -> bool:
        """Whether ``seat`` has a submission standing in the open turn
        (:class:`~gamehall.rules._core.HeldTurn`): an empty MOVES withdraws it, and the seat
        owes a move again."""
        return self.phase in (Phase.OPEN, Phase.GRACE) and seat in self.submissions

    def _view_mode(self, seat: Seat | None) -> dict[str, JSON]:
        own = self.submissions.get(seat) if seat is not None else None
        return {
            "board": self.board.rows(),
            "rack": list(self.rack),
            "kept": self.kept,
            "rejected": self.rejected,
            "bag_count": len(self.bag),
            "submitted": sorted(self.submissions),
            "submission": [list(t) for t in own.tiles] if own is not None else None,
            "tops": [str(top) for top in self.tops],
        }

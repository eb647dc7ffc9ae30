"""Scrabble: classic turns, each player with their own rack (note §8.4).

Players play in join order; each draws seven tiles, and each HAND goes to its owner alone. On
their turn a player sends one of:

- MOVES with tiles: checked fully at once; a non-word is refused (``not_in_dictionary``,
  note 60108) and the player may retry until the time is up;
- an empty MOVES: a pass;
- CHANGELETTERS: an exchange, allowed while the bag holds at least seven tiles; the new tiles are
  drawn before the old ones go back.

When the time is up the player gets MOVESREQUEST and the grace period, then the turn counts as
a pass (status ``timeout``). After each turn: ENDOFTURN, HAND to the mover, SCORES, the pause.

**End.** ``out``: the bag is empty and a player empties their rack; they gain the value of every
other rack and each other player loses their own. ``passes``: six passes, exchanges or timeouts
in a row; each player loses their own rack's value. A player who leaves puts their rack back in
the bag and is skipped from then on.
"""

from __future__ import annotations

from collections import Counter

from gamehall.rules._core import (
    JSON,
    NOBODY,
    Action,
    Event,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    Seat,
    ToMove,
    WrongPhase,
    only,
)
from gamehall.rules.words.actions import ChangeLetters, Moves, StartTurn
from gamehall.rules.words.bag import RACK_SIZE, draw, remove_tiles
from gamehall.rules.words.board import Board, Square
from gamehall.rules.words.events import (
    HandDealt,
    LettersChanged,
    MovesRequested,
    TurnEnded,
    TurnResult,
    TurnStarted,
)
from gamehall.rules.words.letters import normalise_rack_tile
from gamehall.rules.words.lexicon import Lexicon
from gamehall.rules.words.moves import validate_move
from gamehall.rules.words.placing import to_placement
from gamehall.rules.words.settings import Rules
from gamehall.rules.words.words_table import Phase, WordsTable

PASSES_TO_END = 6
"""Scoreless turns (pass, exchange, timeout) in a row that end the game."""


class ScrabbleTable(WordsTable):
    """A classic game; see the module docstring."""

    mode = "scrabble"

    def __init__(self, rules: Rules, seed: int, lexicon: Lexicon) -> None:
        super().__init__(rules, seed, lexicon)
        self.bag = rules.letters.bag()
        self.board = Board.empty()
        self.racks: dict[Seat, list[str]] = {}
        self.current: Seat | None = None
        self.scoreless_turns = 0

    def board_glyphs(self) -> list[tuple[Square, str]]:
        return [(square, tile.glyph) for square, tile in self.board.tiles()]

    # ---------------------------------------------------------------- the turn

    def _begin(self) -> list[Event]:
        events: list[Event] = []
        for seat in self.seated():
            self.racks[seat] = draw(self.bag, RACK_SIZE, self.rng)
            events.append(self._hand(seat))
        return events + self._next_turn()

    def _hand(self, seat: Seat) -> HandDealt:
        rack = tuple(self.racks[seat])
        return HandDealt(turn=self.turn, seat=seat, kept=0, rejected=0, letters=rack, audience=only(seat))

    def _next_turn(self) -> list[Event]:
        seats = self.seated()
        later = [s for s in seats if self.current is None or s > self.current]
        self.current = later[0] if later else seats[0]
        self.turn += 1
        self.phase = Phase.OPEN
        self._set_timer("turn", self.rules.time_per_turn)
        name = self.players[self.current].name
        return [
            TurnStarted(
                turn=self.turn, seconds=self.rules.time_per_turn, player=self.current, player_name=name
            )
        ]

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        self._check_player(seat)
        if isinstance(action, StartTurn):
            raise WrongPhase("Turns start on their own in scrabble.", code="no_turn_waiting")
        if not isinstance(action, (Moves, ChangeLetters)):
            raise MalformedAction("Unknown action.", code="bad_format")
        if self.phase not in (Phase.OPEN, Phase.GRACE):
            raise WrongPhase("The turn is not accepting moves.", code="turn_closed")
        if seat != self.current:
            raise NotYourTurn("It is not your turn.")
        if isinstance(action, ChangeLetters):
            return self._exchange(seat, action.letters)
        if not action.tiles:
            return self._scoreless(seat, "pass")
        return self._play(seat, action.tiles)

    def _play(self, seat: Seat, tiles: tuple[tuple[int, int, str], ...]) -> list[Event]:
        rack = self.racks[seat]
        move = validate_move(self.board, rack, to_placement(tiles), self.lexicon, self.letters)
        self._clear_timer()
        self.board = self.board.with_tiles(move.placed())
        self.racks[seat] = remove_tiles(rack, move.rack_tiles)
        self.racks[seat] += draw(self.bag, RACK_SIZE - len(self.racks[seat]), self.rng)
        self.scoreless_turns = 0
        self._score_turn(seat, move.score)
        player = self.players[seat]
        ended = TurnEnded(
            turn=self.turn,
            ref=move.ref,
            word=move.word,
            score=move.score,
            tiles=tuple((row, col, tile.glyph) for (row, col), tile in move.placed()),
            results=(TurnResult(seat, player.name, move.ref, move.word, move.score, "ok"),),
        )
        self.last_turn = ended
        events: list[Event] = [ended, self._hand(seat), self._scores_event()]
        if not self.bag and not self.racks[seat]:
            return events + self._finish_out(seat)
        return events + self._pause_then()

    def _exchange(self, seat: Seat, letters: tuple[str, ...]) -> list[Event]:
        if not letters:
            raise MalformedAction("Name the letters to change.", code="bad_format")
        if len(self.bag) < RACK_SIZE:
            raise IllegalAction(
                f"The bag holds fewer than {RACK_SIZE} tiles.", code="bag_too_small", count=len(self.bag)
            )
        rack = self.racks[seat]
        wanted = Counter(normalise_rack_tile(t) for t in letters)
        have = Counter(rack)
        for tile, count in wanted.items():
            if have[tile] < count:
                raise IllegalAction(f"{tile} is not in your rack.", code="letter_not_in_hand", glyph=tile)
        returned = [normalise_rack_tile(t) for t in letters]
        fresh = draw(self.bag, len(returned), self.rng)
        self.racks[seat] = remove_tiles(rack, returned) + fresh
        self.bag.extend(returned)
        events: list[Event] = [LettersChanged(seat=seat, count=len(returned))]
        return events + self._scoreless(seat, "exchange")

    def _scoreless(self, seat: Seat, status: str) -> list[Event]:
        """A pass, an exchange or a timeout: ENDOFTURN with no word, and the six-in-a-row rule."""
        self._clear_timer()
        self.scoreless_turns += 1
        self._score_turn(seat, 0)
        ended = TurnEnded(
            turn=self.turn,
            ref="-",
            word="-",
            score=0,
            tiles=(),
            results=(TurnResult(seat, self.players[seat].name, "-", "-", 0, status),),
        )
        self.last_turn = ended
        events: list[Event] = [ended, self._hand(seat), self._scores_event()]
        if self.scoreless_turns >= PASSES_TO_END:
            return events + self._finish_passes()
        return events + self._pause_then()

    def _score_turn(self, seat: Seat, points: int) -> None:
        player = self.players[seat]
        player.last = points
        player.total += points

    def _timed_out(self, kind: str) -> list[Event]:
        current = self.current
        assert current is not None
        if kind == "turn":
            request = MovesRequested(turn=self.turn, grace=self.rules.grace_s, audience=only(current))
            return self._grace_or_close([current], request)
        if kind == "grace":
            return self._close_turn()
        return self._next_turn()

    def _close_turn(self) -> list[Event]:
        """The grace ran out: the turn counts as a pass (status ``timeout``)."""
        assert self.current is not None
        return self._scoreless(self.current, "timeout")

    def _left(self, seat: Seat) -> list[Event]:
        self.bag.extend(self.racks.pop(seat, []))
        if seat == self.current and self.phase in (Phase.OPEN, Phase.GRACE):
            self._clear_timer()
            return self._next_turn()
        return []

    # ---------------------------------------------------------------- the end

    def _finish_out(self, seat: Seat) -> list[Event]:
        """``out``: the player who emptied their rack gains every other rack's value."""
        gained = 0
        for other, rack in self.racks.items():
            if other != seat:
                value = self.letters.rack_value(rack)
                self.players[other].total -= value
                gained += value
        self.players[seat].total += gained
        return self._end("out")

    def _finish_passes(self) -> list[Event]:
        """``passes``: each player loses their own rack's value."""
        for seat, rack in self.racks.items():
            self.players[seat].total -= self.letters.rack_value(rack)
        return self._end("passes")

    # ---------------------------------------------------------------- what seats see

    def resync(self, seat: Seat) -> list[Event]:
        if not self.started or self.finished:
            return []
        events: list[Event] = [self._scores_event(only(seat))]
        if seat in self.racks:
            events.append(self._hand(seat))
        if self.phase in (Phase.OPEN, Phase.GRACE) and self.current is not None:
            name = self.players[self.current].name
            events.append(
                TurnStarted(
                    turn=self.turn,
                    seconds=self.rules.time_per_turn,
                    player=self.current,
                    player_name=name,
                    audience=only(seat),
                )
            )
        return events

    def to_move(self) -> ToMove:
        if self.phase not in (Phase.OPEN, Phase.GRACE) or self.current is None:
            return NOBODY
        return ToMove(frozenset([self.current]), "play")

    def _view_mode(self, seat: Seat | None) -> dict[str, JSON]:
        rack = self.racks.get(seat) if seat is not None else None
        return {
            "board": self.board.rows(),
            "rack": list(rack) if rack is not None else None,
            "rack_sizes": {str(s): len(r) for s, r in self.racks.items()},
            "bag_count": len(self.bag),
            "current": self.current,
            "scoreless_turns": self.scoreless_turns,
        }

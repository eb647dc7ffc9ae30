"""Boggle: words traced on a grid of letters, timed rounds, a pause the operator ends (note §8.5).

**The grid (ours, the note's decision).** The original dice are unknown and the common dice sets
are GPL, so the 4x4 grid is drawn from the game's letter set, blanks left out, without
replacement; a grid with fewer than four vowels is drawn again. A ``Q`` cell reads ``QU`` and
counts as two letters.

**A round.** STARTOFTURN and BOARD (the grid) open it. Each MOVES is one word: its path through
the grid, checked at once item by item (the glyph matches the cell, no cell twice, each step to
one of the eight neighbours), then the minimum length (3), not sent before, at most
``boggle_words_max`` words. Nothing is acknowledged on the wire, and what a player found stays
hidden from the others until the round ends. When the time is up: MOVESREQUEST and the grace
period, then ENDOFTURN (the grid's best word), one WORDRESULTS per player, SCORES. Until
``rounds`` rounds are played, WAITINGFORSTARTTURN follows and the operator's StartTurn opens the
next round (the seed's forced pause); then ENDOFGAME ``rounds``.

**Scoring (classic).** 3-4 letters: 1, 5: 2, 6: 3, 7: 5, 8 or more: 11. A word two or more
players found is cancelled for all of them (``dup``); a non-word scores 0 (``notword``).
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
    Rng,
    Seat,
    ToMove,
    WrongPhase,
    only,
)
from gamehall.rules.words.actions import ChangeLetters, Moves, StartTurn
from gamehall.rules.words.bag import draw
from gamehall.rules.words.events import (
    GridDealt,
    MovesRequested,
    TurnEnded,
    TurnResult,
    TurnStarted,
    WaitingForStartTurn,
    WordRecorded,
    WordResult,
    WordResults,
)
from gamehall.rules.words.letters import BLANK, LetterSet
from gamehall.rules.words.lexicon import Lexicon
from gamehall.rules.words.settings import Rules
from gamehall.rules.words.words_table import Phase, WordsTable

GRID_SIZE = 4
MIN_VOWELS = 4
MIN_LENGTH = 3

Cell = tuple[int, int]


def draw_grid(letters: LetterSet, rng: Rng) -> tuple[str, ...]:
    """A 4x4 grid from the letter set without blanks or replacement, with at least 4 vowels."""
    tiles = [tile for tile in letters.bag() if tile != BLANK]
    while True:
        cells = draw(list(tiles), GRID_SIZE * GRID_SIZE, rng)
        if sum(cell in letters.vowels for cell in cells) >= MIN_VOWELS:
            return tuple("".join(cells[r * GRID_SIZE : (r + 1) * GRID_SIZE]) for r in range(GRID_SIZE))


def cell_text(glyph: str) -> str:
    """What a cell reads: ``QU`` for ``Q``, else its letter."""
    return "QU" if glyph == "Q" else glyph


def word_points(word: str) -> int:
    """The classic scale: 3-4 letters 1, 5 letters 2, 6 letters 3, 7 letters 5, 8 or more 11."""
    length = len(word)
    if length < MIN_LENGTH:
        return 0
    return {3: 1, 4: 1, 5: 2, 6: 3, 7: 5}.get(length, 11)


def trace(grid: tuple[str, ...], tiles: tuple[tuple[int, int, str], ...]) -> tuple[str, tuple[Cell, ...]]:
    """The word a path spells and its cells, checked item by item (note §7 order).

    Raises:
        IllegalAction: ``off_board``, ``path_glyph`` (60303), ``path_reused`` (60302),
            ``path_not_adjacent`` (60301), then ``word_too_short`` (60304).
        MalformedAction: a glyph is not one letter (``bad_format``).
    """
    cells: list[Cell] = []
    for row, col, glyph in tiles:
        if len(glyph) != 1 or not "A" <= glyph.upper() <= "Z":
            raise MalformedAction(f"{glyph!r} is not a letter.", code="bad_format", item=glyph)
        if not (0 <= row < len(grid) and 0 <= col < len(grid[0])):
            raise IllegalAction("The path leaves the grid.", code="off_board", square=(row, col))
        if grid[row][col] != glyph.upper():
            raise IllegalAction("The letter differs from the grid.", code="path_glyph", square=(row, col))
        if (row, col) in cells:
            raise IllegalAction("A cell is used twice.", code="path_reused", square=(row, col))
        if cells and max(abs(row - cells[-1][0]), abs(col - cells[-1][1])) != 1:
            raise IllegalAction("The cells are not adjacent.", code="path_not_adjacent", square=(row, col))
        cells.append((row, col))
    word = "".join(cell_text(grid[r][c]) for r, c in cells)
    if len(word) < MIN_LENGTH:
        raise IllegalAction(f"{word} is too short.", code="word_too_short", word=word)
    return word, tuple(cells)


def best_word(grid: tuple[str, ...], lexicon: Lexicon) -> tuple[str, tuple[Cell, ...]] | None:
    """The grid's top: the best-scoring word, ties to the longer word, then alphabetical order
    (the first path found, in row order, for that word). A depth-first walk of the lexicon's
    left-to-right trie (:meth:`~.gaddag.Gaddag.forward`) over the grid."""
    gaddag = lexicon.gaddag
    size_r, size_c = len(grid), len(grid[0])
    best: list[tuple[tuple[int, int, str], str, tuple[Cell, ...]]] = []

    def advance(node: int, length: int, text: str) -> tuple[int, bool]:
        accepted = False
        for ch in text:
            if node < 0:
                return -1, False
            code = ord(ch) - 65
            if length == 0:
                node, accepted = gaddag.forward(code), False
            else:
                accepted = gaddag.accepts_after(node, code)
                node = gaddag.child(node, code)
            length += 1
        return node, accepted

    def visit(cell: Cell, node: int, word: str, path: tuple[Cell, ...]) -> None:
        text = cell_text(grid[cell[0]][cell[1]])
        node, accepted = advance(node, len(word), text)
        word += text
        path += (cell,)
        if accepted and len(word) >= MIN_LENGTH:
            key = (-word_points(word), -len(word), word)
            if not best or key < best[0][0]:
                best[:] = [(key, word, path)]
        if node < 0:
            return
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                nxt = (cell[0] + dr, cell[1] + dc)
                if (dr or dc) and 0 <= nxt[0] < size_r and 0 <= nxt[1] < size_c and nxt not in path:
                    visit(nxt, node, word, path)

    for r in range(size_r):
        for c in range(size_c):
            visit((r, c), gaddag.root, "", ())
    return (best[0][1], best[0][2]) if best else None


class BoggleTable(WordsTable):
    """A boggle game; see the module docstring."""

    mode = "boggle"

    def __init__(self, rules: Rules, seed: int, lexicon: Lexicon) -> None:
        super().__init__(rules, seed, lexicon)
        self.grid: tuple[str, ...] = ()
        self.found: dict[Seat, list[str]] = {}
        self.last_results: dict[Seat, tuple[WordResult, ...]] = {}

    def grid_rows(self) -> tuple[str, ...]:
        running = self.started and not self.finished and self.phase in (Phase.OPEN, Phase.GRACE)
        return self.grid if running else ()

    # ---------------------------------------------------------------- the round

    def _next_turn(self) -> list[Event]:
        self.turn += 1
        self.grid = draw_grid(self.letters, self.rng)
        self.found = {}
        self.phase = Phase.OPEN
        self._set_timer("turn", self.rules.time_per_turn)
        return [
            TurnStarted(turn=self.turn, seconds=self.rules.time_per_turn),
            GridDealt(turn=self.turn, rows=self.grid),
        ]

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        self._check_player(seat)
        if isinstance(action, ChangeLetters):
            raise IllegalAction("Boggle has no racks.", code="change_not_allowed")
        if isinstance(action, StartTurn):
            return self._start_turn(seat)
        if not isinstance(action, Moves):
            raise MalformedAction("Unknown action.", code="bad_format")
        if self.phase not in (Phase.OPEN, Phase.GRACE):
            raise WrongPhase("The round is not accepting words.", code="turn_closed")
        if not action.tiles:
            return []
        word, _ = trace(self.grid, action.tiles)
        words = self.found.setdefault(seat, [])
        if word in words:
            raise IllegalAction(f"{word} was already sent.", code="word_already_sent", word=word)
        if len(words) >= self.rules.boggle_words_max:
            raise IllegalAction(
                "Too many words this turn.", code="too_many_words", max=self.rules.boggle_words_max
            )
        words.append(word)
        return [WordRecorded(turn=self.turn, seat=seat, word=word, audience=only(seat))]

    def _start_turn(self, seat: Seat) -> list[Event]:
        if self.phase is not Phase.WAIT_START:
            raise WrongPhase("No round is waiting for a manual start.", code="no_turn_waiting")
        if seat != self.operator:
            raise NotYourTurn("Only the operator starts a round.", code="not_operator")
        return self._next_turn()

    def _timed_out(self, kind: str) -> list[Event]:
        if kind == "turn":
            seats = self.seated()
            request = MovesRequested(turn=self.turn, grace=self.rules.grace_s, audience=frozenset(seats))
            return self._grace_or_close(seats, request)
        return self._close_turn()

    def _close_turn(self) -> list[Event]:
        seats = self.seated()
        finders = Counter(word for seat in seats for word in set(self.found.get(seat, [])))
        results: list[TurnResult] = []
        word_events: list[Event] = []
        self.last_results = {}
        for seat, player in self.players.items():
            player.last = 0
            if seat not in seats:
                continue
            lines = []
            for word in self.found.get(seat, []):
                if word not in self.lexicon:
                    lines.append(WordResult(word, 0, "notword"))
                elif finders[word] > 1:
                    lines.append(WordResult(word, 0, "dup"))
                else:
                    lines.append(WordResult(word, word_points(word), "ok"))
            lines.sort(key=lambda line: -line.points)
            player.last = sum(line.points for line in lines)
            player.total += player.last
            self.last_results[seat] = tuple(lines)
            results.append(TurnResult(seat, player.name, "-", "-", player.last, "ok"))
            word_events.append(WordResults(turn=self.turn, seat=seat, name=player.name, words=tuple(lines)))
        top = best_word(self.grid, self.lexicon)
        word, path = top if top is not None else ("-", ())
        ended = TurnEnded(
            turn=self.turn,
            ref="-",
            word=word,
            score=word_points(word) if top is not None else 0,
            tiles=tuple((r, c, self.grid[r][c]) for r, c in path),
            results=tuple(results),
        )
        self.last_turn = ended
        self.found = {}
        events: list[Event] = [ended, *word_events, self._scores_event()]
        if self.turn >= self.rules.rounds:
            return events + self._end("rounds")
        self.phase = Phase.WAIT_START
        return [*events, WaitingForStartTurn(next_turn=self.turn + 1)]

    # ---------------------------------------------------------------- what seats see

    def resync(self, seat: Seat) -> list[Event]:
        if not self.started or self.finished:
            return []
        events: list[Event] = [self._scores_event(only(seat))]
        if self.phase in (Phase.OPEN, Phase.GRACE):
            events.append(TurnStarted(turn=self.turn, seconds=self.rules.time_per_turn, audience=only(seat)))
            events.append(GridDealt(turn=self.turn, rows=self.grid, audience=only(seat)))
        elif self.phase is Phase.WAIT_START:
            events.append(WaitingForStartTurn(next_turn=self.turn + 1, audience=only(seat)))
        return events

    def to_move(self) -> ToMove:
        if self.phase in (Phase.OPEN, Phase.GRACE):
            return ToMove(frozenset(self.seated()), "words")
        if self.phase is Phase.WAIT_START and self.operator is not None:
            return ToMove(frozenset([self.operator]), "start_turn")
        return NOBODY

    def moved_this_turn(self, seat: Seat) -> bool:
        """Whether ``seat`` sent a word in the open round
        (:class:`~gamehall.rules._core.HeldTurn`): it stays in ``to_move`` to send more, but it
        has answered. Between rounds nobody has moved: the operator owes ``start_turn``."""
        return self.phase in (Phase.OPEN, Phase.GRACE) and bool(self.found.get(seat))

    def _view_mode(self, seat: Seat | None) -> dict[str, JSON]:
        own = self.found.get(seat, []) if seat is not None else []
        return {
            "grid": list(self.grid),
            "words": list(own),
            "last_words": {
                str(s): [{"word": w.word, "points": w.points, "status": w.status} for w in lines]
                for s, lines in self.last_results.items()
            },
        }

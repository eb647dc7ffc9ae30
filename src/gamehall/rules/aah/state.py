"""The data of one AAH table: seats, piles, the current round, the running timer.

Plain records, no rules: the rules live in :mod:`.rounds` (the game) and :mod:`.table` (the
public face the hall talks to). Keeping every piece of state in :class:`TableState` makes the
whole table one object built only from ``(config, seed)`` and the inputs replayed on it.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gamehall.rules._core import JSON, Rng, Seat, Timer
from gamehall.rules.aah.cards import BlackCard, WhiteCard
from gamehall.rules.aah.piles import Pile, WhitePile

if TYPE_CHECKING:
    from gamehall.rules.aah.deck import DeckLibrary, SharedDeck

HAND_SIZE = 10
"""Cards in a full hand (seed)."""

SHORT_COUNTDOWN = 3
"""Seconds left of the autostart countdown once the table is full (5.2)."""


class Phase(enum.Enum):
    """Where the table is in its lifecycle (5.2); the values are what ``view()`` reports."""

    LOBBY = "lobby"
    WAITING = "waiting"
    PICK = "pick"
    JUDGE = "judge"
    GAP = "gap"
    OVER = "over"
    ABORTED = "aborted"


class TimerKind(enum.Enum):
    """What a running timer is for; its key is ``f"{kind}:{serial}"``."""

    AUTOSTART = "autostart"
    AUTOSTART_SHORT = "autostart_short"
    PICK = "pick"
    JUDGE = "judge"
    GAP = "gap"


@dataclass(slots=True)
class SeatRecord:
    """One seat: who holds it and what they hold.

    A seat is *present* while its player is connected, *held* while away (still counted for
    the table, skipped by the game), and *released* for good when it leaves; a released seat
    keeps its record (for the outcome) but its number is never handed out again.
    """

    seat: Seat
    name: str
    present: bool = True
    released: bool = False
    points: int = 0
    hand: list[WhiteCard] = field(default_factory=list)
    skips: int = 0
    """Consecutive timeouts (5.7), for ``kick_after_skips``."""
    drawn_round: int = 0
    """The last round whose draw step this seat received (a seat back from away may have
    missed the current one, 6.3)."""


@dataclass(slots=True)
class RoundState:
    """The round being played: czar, black card and the cards played so far."""

    number: int
    czar: Seat
    black: BlackCard
    legacy_draw_skipped: bool = False
    settled: bool = False
    """Whether the round has ended and its cards went to the discards or back to hands."""
    submissions: dict[Seat, list[WhiteCard]] = field(default_factory=dict)
    """Cards played per seat, in play order; partial ones included during the pick phase."""
    reveal_order: list[Seat] = field(default_factory=list)
    """The owners of the revealed submissions, in the one shuffled order every seat saw.
    A withdrawn submission (its seat was released) is removed."""

    def is_complete(self, seat: Seat) -> bool:
        return len(self.submissions.get(seat, ())) >= self.black.pick


@dataclass(frozen=True, slots=True)
class LastRound:
    """How the previous round ended, for ``view()``. ``submissions`` name their owners only
    for a won round: a void round's cards went back to their hands and stay secret."""

    winner: Seat | None
    winner_name: str | None
    card_id: int | None
    submissions: tuple[tuple[Seat, tuple[WhiteCard, ...]], ...] = ()


class TableDeck:
    """A table's :class:`Rng` and its two card piles, dealt when first needed.

    Why: a table waiting in the lobby needs neither, and they are most of what a table holds
    (the random generator's state alone is 2.5 KB; the piles' arrays another 2.5 KB with the
    bundled deck), so a waiting 3-seat table cost about 2 KB per seat for nothing (issue 12
    item 4). The deal is the generator's first use, whenever it happens: the seed gives
    the same ids, orders and later draws as when the deal was made at creation, so stored
    games replay unchanged. A deck given ready (tests) is used as given; its generator is still
    made on first use.
    """

    __slots__ = ("_blacks", "_library", "_rng", "_seed", "_shared", "_whites")

    def __init__(
        self,
        seed: int,
        source: tuple[DeckLibrary, SharedDeck] | tuple[WhitePile, Pile[BlackCard]],
    ) -> None:
        self._seed = seed
        self._rng: Rng | None = None
        self._library: DeckLibrary | None = None
        self._shared: SharedDeck | None = None
        self._whites: WhitePile | None = None
        self._blacks: Pile[BlackCard] | None = None
        if isinstance(source[0], WhitePile):
            self._whites, self._blacks = source
        else:
            self._library, self._shared = source

    @property
    def dealt(self) -> bool:
        """Whether the generator (and so the piles) exist yet."""
        return self._rng is not None

    def rng(self) -> Rng:
        if self._rng is None:
            self._deal()
        assert self._rng is not None
        return self._rng

    def whites(self) -> WhitePile:
        if self._whites is None:
            self._deal()
        assert self._whites is not None
        return self._whites

    def blacks(self) -> Pile[BlackCard]:
        if self._blacks is None:
            self._deal()
        assert self._blacks is not None
        return self._blacks

    def _deal(self) -> None:
        rng = self._rng = Rng(self._seed)
        if self._library is not None and self._shared is not None:
            ids, order, blacks = self._library.deal_order(self._shared, rng)
            self._whites = WhitePile(self._shared.whites, ids, order)
            self._blacks = Pile(blacks)
            self._library = self._shared = None


@dataclass(slots=True)
class TableState:
    """Everything one table knows. Built by :func:`gamehall.rules.aah.table.new_game`."""

    config: Mapping[str, JSON]
    deck: TableDeck
    """The generator and the piles (dealt on first use: :attr:`rng`, :attr:`whites`, :attr:`blacks`)."""
    deck_whites: int
    deck_blacks: int
    phase: Phase = Phase.LOBBY
    seats: dict[Seat, SeatRecord] = field(default_factory=dict)
    round_number: int = 0
    round: RoundState | None = None
    last_round: LastRound | None = None
    round_winners: list[tuple[int, Seat | None, str | None]] = field(default_factory=list)
    """(round, winning seat, its name) of every settled round, ``None`` for a void round: the
    game-over panel lists them and charts the points."""
    previous_czar: Seat | None = None
    previous_winner: Seat | None = None
    skip_next_legacy_draw: bool = False
    winner: Seat | None = None
    timer: Timer | None = None
    timer_kind: TimerKind | None = None
    timer_serial: int = 0

    # -- the deck ----------------------------------------------------------------------------

    @property
    def rng(self) -> Rng:
        return self.deck.rng()

    @property
    def whites(self) -> WhitePile:
        return self.deck.whites()

    @property
    def blacks(self) -> Pile[BlackCard]:
        return self.deck.blacks()

    # -- settings, typed ---------------------------------------------------------------------

    def setting(self, name: str) -> int:
        value = self.config[name]
        assert isinstance(value, int)
        return value

    def seconds(self, name: str) -> float:
        """A duration setting (``round_gap`` may be a fraction of a second)."""
        value = self.config[name]
        assert isinstance(value, (int, float))
        return float(value)

    @property
    def min_players(self) -> int:
        return self.setting("min_players")

    @property
    def playermax(self) -> int:
        return self.setting("playermax")

    # -- seats -------------------------------------------------------------------------------

    def taken(self) -> list[SeatRecord]:
        """Seats not released (present or held), in seat order."""
        return [rec for rec in self.seats.values() if not rec.released]

    def present(self) -> list[SeatRecord]:
        """Seats whose player is here, in seat order."""
        return [rec for rec in self.seats.values() if not rec.released and rec.present]

    def present_seats(self) -> frozenset[Seat]:
        return frozenset(rec.seat for rec in self.present())

    def current_czar(self) -> Seat | None:
        """The czar of the round in play or just ended; ``None`` before the first round and
        while waiting for players."""
        if self.round is None or self.phase in (Phase.LOBBY, Phase.WAITING):
            return None
        return self.round.czar

    # -- timers ------------------------------------------------------------------------------

    def set_timer(self, kind: TimerKind, seconds: float) -> None:
        """Start a timer; its key is new, so the hall restarts it."""
        self.timer_serial += 1
        self.timer = Timer(f"{kind.value}:{self.timer_serial}", seconds)
        self.timer_kind = kind

    def clear_timer(self) -> None:
        self.timer = None
        self.timer_kind = None

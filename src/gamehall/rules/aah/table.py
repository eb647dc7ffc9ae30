"""An Apps Against Humanity table: the :class:`gamehall.rules._core.Game` the hall drives.

The table owns its whole lifecycle (5.2): the lobby with its autostart countdown, the game
rounds, and the end (won or aborted). The hall feeds it inputs - seats joining, dropping,
coming back and leaving, player actions, fired timers - and sends the returned events on.
Everything random comes from the :class:`Rng` built from the seed, so replaying the same
inputs on ``new_game(config, seed)`` rebuilds the table exactly (crash recovery, replays).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gamehall.rules._core import (
    JSON,
    NOBODY,
    Action,
    ConfigError,
    Event,
    GameInProgress,
    IllegalAction,
    MalformedAction,
    Outcome,
    Seat,
    SeatJoined,
    SeatRenamed,
    TableFull,
    Termination,
    Timer,
    ToMove,
    WrongPhase,
)
from gamehall.rules.aah import checks, errors, notices, rounds
from gamehall.rules.aah.actions import Judge, Pick
from gamehall.rules.aah.cards import BlackCard, WhiteCard
from gamehall.rules.aah.events import CountdownShortened
from gamehall.rules.aah.piles import Pile, WhitePile
from gamehall.rules.aah.settings import check_config
from gamehall.rules.aah.state import SHORT_COUNTDOWN, Phase, SeatRecord, TableDeck, TableState, TimerKind
from gamehall.rules.aah.view import table_view

if TYPE_CHECKING:
    from gamehall.rules.aah.deck import DeckLibrary

Deck = tuple[list[WhiteCard], list[BlackCard]]
"""White cards (with their game ids) and black cards, top of each pile first."""


def new_game(
    config: Mapping[str, JSON], seed: int, *, deck: Deck | None = None, library: DeckLibrary | None = None
) -> AahTable:
    """A new table in the lobby.

    The deck comes from the config's ``packs`` (from ``library``, by default the bundled
    deck alone), checked now and dealt when the game first needs it, with ids and order from
    the table's :class:`Rng` (:class:`~gamehall.rules.aah.state.TableDeck`). Tests pass a
    ready ``deck`` instead: it is used as given (no shuffle), minus pick>1 black cards when
    ``pick1_only`` is set.

    Raises:
        ConfigError: invalid settings, unknown packs, or a deck that is too small.
    """
    config = check_config(config)
    pick1_only = bool(config["pick1_only"])
    if deck is None:
        from gamehall.rules.aah.deck import check_deck_size

        packs = config["packs"]
        assert isinstance(packs, list)
        lib = library or _bundled_library()
        shared = lib.shared_deck(packs, pick1_only=pick1_only)
        check_deck_size(shared.whites, shared.blacks, int(config["playermax"]), pick1_only)
        table_deck = TableDeck(seed, (lib, shared))  # dealt from the seed when the game needs it
        sizes = len(shared.whites), len(shared.blacks)
    else:
        given = list(deck[0])
        blacks = [black for black in deck[1] if not pick1_only or black.pick == 1]
        _check_given_deck(given, blacks)
        whites = WhitePile(tuple(c.text for c in given), [c.card_id for c in given], range(len(given)))
        table_deck = TableDeck(seed, (whites, Pile(blacks)))
        sizes = whites.available(), len(blacks)
    state = TableState(config=config, deck=table_deck, deck_whites=sizes[0], deck_blacks=sizes[1])
    return AahTable(state)


@functools.cache
def _bundled_library() -> DeckLibrary:
    from gamehall.rules.aah.deck import DeckLibrary

    return DeckLibrary.bundled()


def _check_given_deck(whites: list[WhiteCard], blacks: list[BlackCard]) -> None:
    ids = [card.card_id for card in whites]
    if not whites or not blacks:
        raise ConfigError("A deck needs white and black cards.")
    if len(set(ids)) != len(ids) or not all(1 <= i <= errors.MAX_CARD_ID for i in ids):
        raise ConfigError("White card ids must be unique and in [1, 2**31-1].")


@dataclass(frozen=True, slots=True)
class CardCensus:
    """Where every card is (section 5.3); the counts always add up to the deck."""

    white_draw: int
    white_discard: int
    in_hands: int
    in_play: int
    black_draw: int
    black_discard: int
    black_in_play: int
    white_ids: tuple[int, ...]


class AahTable:
    """One AAH table. See the module docstring and :class:`gamehall.rules._core.Game`."""

    def __init__(self, state: TableState) -> None:
        self._t = state

    # -- membership --------------------------------------------------------------------------

    def seat_join(self, name: str) -> tuple[Seat, list[Event]]:
        """Seat ``name`` (lobby only); may start or shorten the autostart countdown.

        Raises:
            GameInProgress, TableFull, RuleError (name_invalid, name_in_use).
        """
        t = self._t
        if t.phase is not Phase.LOBBY:
            raise GameInProgress("Game in progress; joining prohibited.")
        if len(t.taken()) >= t.playermax:
            raise TableFull("Player limit reached.")
        self._check_name(name, None)
        seat = len(t.seats)
        t.seats[seat] = SeatRecord(seat, name)
        out: list[Event] = [SeatJoined(seat=seat, name=name)]
        self._countdown_after_join(out)
        return seat, out

    def seat_rename(self, seat: Seat, name: str) -> list[Event]:
        """Rename a seat, in the lobby only (7.2).

        Raises:
            RuleError: not_seated, rename_in_game, name_invalid, name_in_use.
        """
        rec = self._taken(seat)
        if self._t.phase is not Phase.LOBBY:
            raise WrongPhase("Cannot change nickname during a game.", code="rename_in_game")
        self._check_name(name, seat)
        old, rec.name = rec.name, name
        return [SeatRenamed(seat=seat, old=old, new=name)]

    def seat_away(self, seat: Seat) -> list[Event]:
        """The seat's connection dropped. In a started game the seat is held (6.2); in the
        lobby there is no grace, so it is released at once (5.2). A seat the table already
        released itself (kicked for inactivity) changes nothing."""
        if self._released(seat):
            return []
        rec = self._taken(seat)
        if self._t.phase is Phase.LOBBY:
            return self.seat_leave(seat)
        if not rec.present:
            return []
        out: list[Event] = []
        rounds.seat_went_away(self._t, rec, out)
        return out

    def seat_back(self, seat: Seat) -> list[Event]:
        """A held seat's player is back: the state replay to it, then a notice to the others.

        Raises:
            RuleError: not_seated, or not_away when the seat is not held.
        """
        rec = self._taken(seat)
        if rec.present:
            raise IllegalAction(f"Seat {seat} is not away.", code="not_away", seat=seat)
        out: list[Event] = []
        rounds.seat_came_back(self._t, rec, out)
        return out

    def resync(self, seat: Seat) -> list[Event]:
        """The state replay of 6.3 for ``seat`` alone (``GSTR``, points, its whole hand, the
        round in play), for a connection that comes back while the engine still counts it
        present (after a server restart). Nothing in the lobby or after the end. Changes
        nothing.

        Raises:
            RuleError: not_seated.
        """
        out: list[Event] = []
        rounds.replay(self._t, self._taken(seat), out)
        return out

    def seat_leave(self, seat: Seat) -> list[Event]:
        """Release the seat for good (client DISC, kick, grace expiry, lobby drop). A seat the
        table already released itself (kicked for inactivity, 5.7) changes nothing, so the
        hall may still close its place in the room the usual way.

        Raises:
            RuleError: not_seated, for a seat number never handed out.
        """
        t = self._t
        if self._released(seat):
            return []
        rec = self._taken(seat)
        out: list[Event] = []
        if t.phase is Phase.LOBBY:
            rounds.release(t, rec, out)
            self._countdown_after_leave(out)
        else:
            rounds.seat_released(t, rec, out)
        return out

    def seat_names(self) -> Mapping[Seat, str]:
        return {rec.seat: rec.name for rec in self._t.taken()}

    def _released(self, seat: Seat) -> bool:
        rec = self._t.seats.get(seat)
        return rec is not None and rec.released

    def _taken(self, seat: Seat) -> SeatRecord:
        rec = self._t.seats.get(seat)
        if rec is None or rec.released:
            raise errors.not_seated(seat)
        return rec

    def _check_name(self, name: str, own_seat: Seat | None) -> None:
        if not name:
            raise IllegalAction("Nickname invalid; unchanged.", code="name_invalid")
        folded = name.casefold()
        if any(rec.name.casefold() == folded and rec.seat != own_seat for rec in self._t.taken()):
            raise IllegalAction("Nickname in use; unchanged.", code="name_in_use", name=name)

    # -- start and the autostart countdown (5.2) ---------------------------------------------

    def start(self) -> list[Event]:
        """Start now (operator or web request).

        Raises:
            RuleError: already_started, or not_enough_players when fewer than
                ``min_players`` seats are taken.
        """
        t = self._t
        if t.phase is not Phase.LOBBY:
            raise WrongPhase("The game has already started.", code="already_started")
        if len(t.present()) < t.min_players:
            raise IllegalAction(
                f"At least {t.min_players} players are needed to start.", code="not_enough_players"
            )
        out: list[Event] = []
        rounds.start_game(t, out)
        return out

    def _countdown_after_join(self, out: list[Event]) -> None:
        t = self._t
        delay = t.setting("autostart_delay")
        count = len(t.taken())
        if delay == 0 or count < t.min_players:
            return
        full = count >= t.playermax
        if t.timer is None:
            seconds = min(delay, SHORT_COUNTDOWN) if full else delay
            t.set_timer(TimerKind.AUTOSTART, seconds)
            out.append(notices.countdown_started(seconds))
        elif full and t.timer_kind is TimerKind.AUTOSTART and delay > SHORT_COUNTDOWN:
            t.set_timer(TimerKind.AUTOSTART_SHORT, SHORT_COUNTDOWN)
            out.append(CountdownShortened(seconds=SHORT_COUNTDOWN))

    def _countdown_after_leave(self, out: list[Event]) -> None:
        t = self._t
        if t.timer is not None and len(t.taken()) < t.min_players:
            t.clear_timer()
            out.append(notices.countdown_cancelled())

    # -- play --------------------------------------------------------------------------------

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        """Play cards (``Pick``) or judge (``Judge``). A ``Pick`` of several ids is taken
        whole or refused whole (see :func:`checks.check_pick`); the legacy dialogue sends
        one id per ``Pick`` to get the note's id-by-id handling.

        Raises:
            RuleError: the codes of :mod:`gamehall.rules.aah.errors`; nothing changes then.
        """
        t = self._t
        out: list[Event] = []
        if isinstance(action, Pick):
            cards = checks.check_pick(t, seat, action.card_ids)
            rounds.play_cards(t, t.seats[seat], cards, out)
        elif isinstance(action, Judge):
            owner = checks.check_judge(t, seat, action.card_id)
            rounds.judge(t, owner, action.card_id, out)
        else:
            raise MalformedAction(f"AAH has no action {type(action).__name__}.", code="unknown_action")
        return out

    def check_may_judge(self, seat: Seat) -> None:
        """Raise what a ``CZPK`` from ``seat`` would get before its id is even read (5.8:
        "not the czar", then "not now"), for the dialogue's ``CZPK`` without arguments.

        Raises:
            RuleError: not_seated, seat_away, not_czar, judging_not_accepted.
        """
        checks.check_may_judge(self._t, seat)

    def stop(self) -> list[Event]:
        """An operator or the web client ends the game now (the table closes)."""
        t = self._t
        if t.phase in (Phase.OVER, Phase.ABORTED):
            return []
        t.phase = Phase.ABORTED
        t.clear_timer()
        return [notices.table_closed("stopped")]

    # -- time --------------------------------------------------------------------------------

    def pending_timers(self) -> Sequence[Timer]:
        """At most one timer: the autostart countdown, the pick or czar timer, or the gap."""
        return [self._t.timer] if self._t.timer is not None else []

    def on_timeout(self, key: str) -> list[Event]:
        """Apply what the fired timer means; a stale key (the timer was replaced) is ignored."""
        t = self._t
        if t.timer is None or t.timer.key != key:
            return []
        kind = t.timer_kind
        t.clear_timer()
        out: list[Event] = []
        if kind in (TimerKind.AUTOSTART, TimerKind.AUTOSTART_SHORT):
            if len(t.present()) >= t.min_players:
                rounds.start_game(t, out)
        elif kind is TimerKind.PICK:
            rounds.end_pick_phase(t, out)
        elif kind is TimerKind.JUDGE:
            rounds.czar_timed_out(t, out)
        elif kind is TimerKind.GAP:
            rounds.begin_round(t, out)
        return out

    # -- queries -----------------------------------------------------------------------------

    def to_move(self) -> ToMove:
        t = self._t
        if t.phase is Phase.PICK:
            return ToMove(rounds.awaited_picker_seats(t), "pick")
        czar = t.current_czar()
        if t.phase is Phase.JUDGE and czar is not None:
            return ToMove(frozenset({czar}), "judge")
        return NOBODY

    def legal_actions(self, seat: Seat) -> list[Action]:
        """One-card picks of every hand card for a seat still picking; one ``Judge`` per
        revealed submission (by its first card) for the czar; else nothing."""
        t = self._t
        if seat not in self.to_move().seats:
            return []
        rnd = t.round
        assert rnd is not None
        if t.phase is Phase.PICK:
            return [Pick((card.card_id,)) for card in t.seats[seat].hand]
        return [Judge(rnd.submissions[owner][0].card_id) for owner in rnd.reveal_order]

    def outcome(self) -> Outcome | None:
        """Points of every seat that played (released ones too), the winner, and why."""
        t = self._t
        if t.phase not in (Phase.OVER, Phase.ABORTED):
            return None
        normal = t.phase is Phase.OVER and t.winner is not None
        return Outcome(
            scores={rec.seat: rec.points for rec in t.seats.values()},
            winners=frozenset({t.winner}) if normal and t.winner is not None else frozenset(),
            termination=Termination.NORMAL if normal else Termination.ABORTED,
            names={rec.seat: rec.name for rec in t.seats.values()},
        )

    def view(self, seat: Seat | None) -> dict[str, JSON]:
        """What ``seat`` (``None`` = spectator) may know::

        {"game": "aah", "phase": "lobby"|"waiting"|"pick"|"judge"|"gap"|"over"|"aborted",
         "round": int, "czar": seat|null, "black": {"text","pick","draw"}|null,
         "hand": [{"id","text"}] (own only), "my_submission": [ids] (own only),
         "submissions": [{"cards": [{"id","text"}]}] (judge phase, reveal order),
         "seats": [{"seat","name","present","points","czar","done"}],
         "last_round": {"winner","winner_name","card_id",
                        "submissions": [{"owner","cards"}]} | null,
         "points_limit", "timeout", "round_gap", "min_players", "playermax",
         "winner": seat|null}
        """
        return table_view(self._t, seat)

    @property
    def started(self) -> bool:
        return self._t.phase is not Phase.LOBBY

    @property
    def finished(self) -> bool:
        return self._t.phase in (Phase.OVER, Phase.ABORTED)

    @property
    def config(self) -> Mapping[str, JSON]:
        """The validated settings of this table (defaults filled in)."""
        return self._t.config

    def card_census(self) -> CardCensus:
        """Where every card is; for tests and audits of the pile invariant (5.3)."""
        t = self._t
        rnd = t.round
        hands = [card for rec in t.seats.values() for card in rec.hand]
        played = [card for cards in rnd.submissions.values() for card in cards] if rnd is not None else []
        black_in_play = 1 if rnd is not None and not rnd.settled else 0
        ids = [card.card_id for card in [*t.whites.cards(), *hands, *played]]
        return CardCensus(
            white_draw=t.whites.draw_count,
            white_discard=t.whites.discard_count,
            in_hands=len(hands),
            in_play=len(played),
            black_draw=t.blacks.draw_count,
            black_discard=t.blacks.discard_count,
            black_in_play=black_in_play,
            white_ids=tuple(ids),
        )

    @property
    def deck_size(self) -> tuple[int, int]:
        """White and black cards in this table's deck."""
        return self._t.deck_whites, self._t.deck_blacks

    @property
    def reshuffles(self) -> tuple[int, int]:
        """How often the white and the black discard piles were shuffled back."""
        return self._t.whites.reshuffles, self._t.blacks.reshuffles

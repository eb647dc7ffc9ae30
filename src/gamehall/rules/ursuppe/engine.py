"""An Ursuppe table: the :class:`gamehall.rules._core.Game` the hall drives.

The table seats N players (colours 0..N-1, lowest free first) and starts the moment the N-th
seat is taken (the UrServer has no start command). From then on the rules run as one flow
(:mod:`.phases`) that asks one request at a time; :meth:`UrsuppeTable.apply` checks an answer
against the pending request before the flow sees it, so a refused input changes nothing. A
seat that is away or has left is played with the default moves at once (A28); a request that
times out gets its default move after a :class:`~.events.ZeitUeberschritten` to its seat.
Everything random comes from the table's :class:`Rng`, so the same seed and inputs replay the
same game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gamehall.rules._core import (
    JSON,
    NOBODY,
    Action,
    Event,
    GameInProgress,
    IllegalAction,
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
from gamehall.rules.ursuppe import events as ev
from gamehall.rules.ursuppe.board import Board
from gamehall.rules.ursuppe.environment import parse_deck
from gamehall.rules.ursuppe.errors import fehler
from gamehall.rules.ursuppe.flow import Flow, Request
from gamehall.rules.ursuppe.phases import play
from gamehall.rules.ursuppe.settings import check_config
from gamehall.rules.ursuppe.state import CUBES_PER_COLOUR, START_CUBES, Player, TableState
from gamehall.rules.ursuppe.view import request_view, table_view


def new_game(config: Mapping[str, JSON], seed: int) -> UrsuppeTable:
    """A new, empty table. Raises ConfigError for invalid settings."""
    return UrsuppeTable(config, seed)


class UrsuppeTable:
    """One Ursuppe table. See the module docstring."""

    def __init__(self, config: Mapping[str, JSON], seed: int) -> None:
        config = check_config(config)
        rng = Rng(seed)
        deck_texts = config["environment_deck"]
        assert isinstance(deck_texts, list)
        deck = parse_deck(deck_texts)
        if config["shuffle_deck"]:
            rng.shuffle(deck)
        players = int(config["players"])
        board = Board.layout(str(config["board_layout"]))
        fields = board.fields()
        self.state = TableState(
            config=config,
            players=players,
            board=board,
            rng=rng,
            deck=deck[1:],
            card=deck[0],
            cubes={feld: [START_CUBES] * players for feld in fields},
            supply=[CUBES_PER_COLOUR - START_CUBES * len(fields)] * players,
        )
        self._flow: Flow[None] | None = None
        self._request: Request | None = None
        self._serial = 0
        self._over = False

    # -- membership --------------------------------------------------------------------------

    def seat_join(self, name: str) -> tuple[Seat, list[Event]]:
        """Seat ``name`` at the lowest free colour; the N-th join starts the game.

        Raises:
            GameInProgress, TableFull.
        """
        g = self.state
        if self.started:
            raise GameInProgress("The game has started.")
        free = [c for c in g.colours if c not in g.seats]
        if not free:
            raise TableFull("The game is full.")
        seat = free[0]
        g.seats[seat] = Player(seat, name)
        events: list[Event] = [SeatJoined(seat=seat, name=name)]
        if len(g.seats) == g.players:
            events += self._begin()
        return seat, events

    def seat_away(self, seat: Seat) -> list[Event]:
        """The connection dropped: the seat is held and played with defaults (A28)."""
        player = self._player(seat)
        player.present = False
        events: list[Event] = [SeatAway(seat=seat, name=player.name)]
        return events + self._autoplay()

    def seat_back(self, seat: Seat) -> list[Event]:
        """The player is back; a pending request is sent to it again."""
        player = self._player(seat)
        player.present = True
        return [SeatBack(seat=seat, name=player.name), *self.resync(seat)]

    def seat_leave(self, seat: Seat) -> list[Event]:
        """Before the start the seat becomes free; during the game it is kept and played
        with defaults until the end (A28)."""
        g = self.state
        player = self._player(seat)
        if not self.started:
            del g.seats[seat]
            return [SeatLeft(seat=seat, name=player.name)]
        player.left = True
        return [SeatLeft(seat=seat, name=player.name), *self._autoplay()]

    def seat_rename(self, seat: Seat, name: str) -> list[Event]:
        player = self._player(seat)
        old, player.name = player.name, name
        return [SeatRenamed(seat=seat, old=old, new=name)]

    def resync(self, seat: Seat) -> list[Event]:
        """The pending request of ``seat`` again, for a connection that comes back."""
        request = self._request
        if request is None or seat not in request.seats:
            return []
        return [request.prompt(seat)]

    def seat_names(self) -> Mapping[Seat, str]:
        return {seat: player.name for seat, player in sorted(self.state.seats.items())}

    def _player(self, seat: Seat) -> Player:
        player = self.state.seats.get(seat)
        if player is None:
            raise fehler(17, f"Seat {seat} is not at this table.")
        return player

    # -- start ---------------------------------------------------------------------------------

    def start(self) -> list[Event]:
        """The table starts by itself when full; this only explains why it cannot start.

        Raises:
            WrongPhase (already_started) or IllegalAction (not_enough_players).
        """
        if self.started:
            raise WrongPhase("The game has already started.", code="already_started")
        raise IllegalAction(
            f"Ursuppe starts when all {self.state.players} seats are taken.", code="not_enough_players"
        )

    def _begin(self) -> list[Event]:
        g = self.state
        g.out = [
            ev.SpielBeginnt(
                stroemungsrichtung=g.card.stroemungsrichtung, ozonschichtdicke=g.card.ozonschichtdicke
            )
        ]
        self._flow = play(g)
        self._next(next(self._flow))
        return self._drain() + self._autoplay()

    # -- play ----------------------------------------------------------------------------------

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        """Answer (or send a pre-command for) the pending request.

        Raises:
            RuleError: 26 before the start or after the end, 17 not this seat's turn,
                30 the action does not fit the request, or the request's own checks
                (``detail["fehler"]`` is the seed's error number). Nothing changes then.
        """
        self.check(seat, action)
        self._send(seat, action)
        return self._drain() + self._autoplay()

    def check(self, seat: Seat, action: Action) -> None:
        """Raise what :meth:`apply` would raise for this action; change nothing.

        Raises:
            RuleError: see :meth:`apply`.
        """
        request = self._request
        if request is None:
            raise fehler(26, "The game is not running.")
        if seat not in request.seats:
            raise fehler(17, "It is not your turn.")
        if not isinstance(action, request.accepts):
            raise fehler(30, f"{type(action).__name__} does not answer {request.kind}.")
        request.check(seat, action)

    def legal_actions(self, seat: Seat) -> list[Action]:
        """Every action ``seat`` may send now (pre-commands included). Blocks are listed
        once per set: genes and surrendered genes in ascending order, new amoebas one block
        per set of fields with the lowest free numbers."""
        request = self._request
        if request is None or seat not in request.seats:
            return []
        return request.legal(seat)

    def default_action(self, seat: Seat) -> Action | None:
        """The move a timeout would make for ``seat`` now (note 9)."""
        request = self._request
        if request is None or seat not in request.seats:
            return None
        return request.default(seat)

    def _send(self, seat: Seat, action: Action) -> None:
        assert self._flow is not None
        try:
            following = self._flow.send((seat, action))
        except StopIteration:
            self._request = None
            self._over = True
            return
        self._next(following)

    def _next(self, request: Request) -> None:
        """Make ``request`` pending; a new request is announced to its seats."""
        if request is self._request:
            return
        self._request = request
        self._serial += 1
        for seat in sorted(request.seats):
            self.state.out.append(request.prompt(seat))

    def _drain(self) -> list[Event]:
        events, self.state.out = self.state.out, []
        return events

    def _autoplay(self) -> list[Event]:
        """Default moves for every pending request of a seat that is away or gone."""
        events: list[Event] = []
        while self._request is not None:
            gone = sorted(s for s in self._request.seats if self.state.seats[s].autoplay)
            if not gone:
                break
            events += self._play_default(gone[0])
        return events

    def _play_default(self, seat: Seat) -> list[Event]:
        assert self._request is not None
        action = self._request.default(seat)
        self._request.check(seat, action)
        self._send(seat, action)
        return self._drain()

    # -- time ----------------------------------------------------------------------------------

    def pending_timers(self) -> Sequence[Timer]:
        """One timer for the pending request (3x the timeout for ZUG_BEREIT); none when the
        table runs without a time limit."""
        timeout_ms = int(self.state.config["timeout_ms"])
        if self._request is None or timeout_ms == 0:
            return []
        return [Timer(f"zug:{self._serial}", timeout_ms * self._request.timeout_factor / 1000)]

    def on_timeout(self, key: str) -> list[Event]:
        """Default moves for every seat the timed-out request still waits for (a stale key
        is ignored)."""
        request = self._request
        if request is None or key != f"zug:{self._serial}":
            return []
        events: list[Event] = []
        for seat in sorted(request.seats):
            if self._request is not request:
                break
            events.append(ev.ZeitUeberschritten(farbe=seat, audience=frozenset({seat})))
            events += self._play_default(seat)
        return events + self._autoplay()

    # -- queries -------------------------------------------------------------------------------

    def to_move(self) -> ToMove:
        request = self._request
        if request is None:
            return NOBODY
        return ToMove(frozenset(request.seats), request.kind)

    def outcome(self) -> Outcome | None:
        """Final ladder positions by seat; the highest position wins."""
        if not self._over:
            return None
        g = self.state
        scores = {seat: player.position for seat, player in g.seats.items()}
        best = max(scores.values())
        return Outcome(
            scores=scores,
            winners=frozenset(seat for seat, score in scores.items() if score == best),
            termination=Termination.NORMAL,
            names=dict(self.seat_names()),
        )

    def environment_deck(self) -> list[str]:
        """The environment cards' texts: the one showing, then the deck in drawing order
        (UrServer's tournament log). Reads only."""
        return [card.text() for card in [self.state.card, *self.state.deck]]

    def view(self, seat: Seat | None) -> dict[str, JSON]:
        """Everything public (the deck order stays hidden) plus the seat's pending request."""
        request = self._request
        if request is None or seat is None or seat not in request.seats:
            return table_view(self.state, seat, None, self.to_move())
        return table_view(self.state, seat, request.kind, self.to_move(), request_view(request, seat))

    @property
    def started(self) -> bool:
        return self._flow is not None

    @property
    def finished(self) -> bool:
        return self._over

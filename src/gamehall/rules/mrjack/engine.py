"""A Mr. Jack in New York table: the :class:`gamehall.rules._core.Game` the hall drives.

The game runs like the seed's dialogue (note 6): ``PICK`` (the picker sends ``aktiv``) ->
``PARTS`` (``aktion`` for a Teilzug not yet done, or ``skip``) -> ``TARGET`` (``ziel`` until
the Teilzug ends) -> back to ``PARTS`` or the end of the activation; after four activations
the witness call, the suspicion marks (``MARKING`` only in ``round_end_mode=detective``) and
the next round, until an accusation, an escape or the end of round 8.

Two seats: whoever joins first holds ``mrjack`` and may switch with ``init`` while alone; the
second seat takes the other role and the game starts. Mr. Jack's colour reaches the detective
seat and spectators only in :class:`EndeSpiel`.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping, Sequence

from gamehall.rules._core import (
    JSON,
    NOBODY,
    Action,
    Event,
    GameInProgress,
    MalformedAction,
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
    action_name,
    only,
)
from gamehall.rules.mrjack import errors
from gamehall.rules.mrjack.abilities import ABILITY_STEPS
from gamehall.rules.mrjack.actions import (
    BEWEGEN,
    DETEKTIV,
    FAEHIGKEIT,
    MRJACK,
    ROLES,
    SKIP,
    Aktion,
    Aktiv,
    Aufgeben,
    Fertig,
    Init,
    Ziel,
)
from gamehall.rules.mrjack.board import is_label, sorted_labels
from gamehall.rules.mrjack.cards import AlibiDeck
from gamehall.rules.mrjack.characters import COLOURS, Ability, Cast
from gamehall.rules.mrjack.draft import CARDS_PER_ROUND, Draft, picker
from gamehall.rules.mrjack.events import (
    AktionAkzeptiert,
    Auswahl,
    BeginnRunde,
    BeginnSpiel,
    BeginnSpielzug,
    EndeRunde,
    EndeSpiel,
    EndeSpielzug,
    FarbeAktiv,
    Jack,
    KoordinateAkzeptiert,
    Moeglichkeiten,
    RolleGewaehlt,
    Sichtbar,
    Spielzugerlaubnis,
    UpdateVerdacht,
)
from gamehall.rules.mrjack.movement import is_escape_target, move_part
from gamehall.rules.mrjack.resync import resync_events
from gamehall.rules.mrjack.settings import Rules, check_config
from gamehall.rules.mrjack.setup import Setup, check_setup
from gamehall.rules.mrjack.state import Activation, Ask, BoardState, Phase, Step, Turn
from gamehall.rules.mrjack.visibility import innocents

ROUNDS = 8


_TERMINATIONS = {
    "accusation": Termination.NORMAL,
    "escape": Termination.NORMAL,
    "time": Termination.NORMAL,
    "resigned": Termination.RESIGNED,
    "left": Termination.LEFT,
    "timeout": Termination.TIMEOUT,
}


class MrJackGame:
    """One Mr. Jack table. See the module docstring and :class:`gamehall.rules._core.Game`."""

    def __init__(self, config: Mapping[str, JSON], seed: int, setup: Setup | None = None) -> None:
        self.config = check_config(config)
        self.rules = Rules.from_config(self.config)
        self.cast = Cast(self.rules.colour_map)
        self.rng = Rng(seed)
        self.setup = check_setup(setup or Setup())
        self.names: dict[Seat, str] = {}
        self.roles: dict[Seat, str] = {}
        self.final_names: dict[Seat, str] = {}
        self.phase = Phase.LOBBY
        self.board = BoardState.starting(self.cast, self.rules.tile_supply)
        self.draft = Draft(fixed_decks=Draft.check_fixed_decks(self.setup.character_decks))
        self.alibis = AlibiDeck(jack="", deck=[])
        self.round = 0
        self.activation_number = 0
        self.activation: Activation | None = None
        self.witness_seen = True
        self.suspects: set[str] = set(COLOURS)
        self.suspects_by_round: list[tuple[int, int]] = []
        """(round, suspects left) at the end of each round and at the game's end: the
        game-over chart; public like the suspects themselves."""
        self.winner: str | None = None
        self.reason: str | None = None
        self.aborted = False
        self.inputs = 0
        self._next_seat = 0

    # -- seats and roles ---------------------------------------------------------------------

    def seat_of(self, role: str) -> Seat | None:
        for seat, held in self.roles.items():
            if held == role:
                return seat
        return None

    def seat_join(self, name: str) -> tuple[Seat, list[Event]]:
        """Seat ``name`` with the first free role (``mrjack`` first); the second seat starts
        the game (note 5).

        Raises:
            GameInProgress, TableFull.
        """
        if self.phase is not Phase.LOBBY:
            raise GameInProgress("The game has started.")
        if len(self.names) >= len(ROLES):
            raise TableFull("Both roles are taken.")
        seat = self._next_seat
        self._next_seat += 1
        role = next(r for r in ROLES if self.seat_of(r) is None)
        self.names[seat] = name
        self.roles[seat] = role
        out: list[Event] = [SeatJoined(seat=seat, name=name), RolleGewaehlt(seat=seat, spieler=role)]
        if len(self.names) == len(ROLES):
            out += self.start()
        return seat, out

    def seat_away(self, seat: Seat) -> list[Event]:
        """The seat's connection dropped; the hall holds it for ``rejoin_grace`` (no rule effect)."""
        return [SeatAway(seat=seat, name=self._name(seat))]

    def seat_back(self, seat: Seat) -> list[Event]:
        """The held seat's player is back: a notice, then the catch-up for that seat alone."""
        return [SeatBack(seat=seat, name=self._name(seat)), *self.resync(seat)]

    def resync(self, seat: Seat) -> list[Event]:
        """The game so far for ``seat`` alone (:mod:`.resync`); changes nothing."""
        return resync_events(self, seat)

    def seat_leave(self, seat: Seat) -> list[Event]:
        """Release the seat. In a running game that is a forfeit (note 12): the other side wins.
        A waiting table left empty is over (aborted)."""
        self._name(seat)
        out: list[Event] = []
        if self.phase not in (Phase.LOBBY, Phase.OVER):
            out += self._forfeit(seat, "left")
        name = self.names.pop(seat)
        if self.phase is Phase.LOBBY:
            self.roles.pop(seat, None)
            if not self.names:
                self.aborted = True
        out.append(SeatLeft(seat=seat, name=name))
        return out

    def seat_rename(self, seat: Seat, name: str) -> list[Event]:
        old = self._name(seat)
        self.names[seat] = name
        return [SeatRenamed(seat=seat, old=old, new=name)]

    def _name(self, seat: Seat) -> str:
        """The name on ``seat``. Raises NotYourTurn (code ``not_seated``) for a free seat."""
        if seat not in self.names:
            raise errors.not_seated()
        return self.names[seat]

    def seat_names(self) -> Mapping[Seat, str]:
        return dict(self.names)

    @property
    def started(self) -> bool:
        return self.phase is not Phase.LOBBY

    @property
    def finished(self) -> bool:
        return self.phase is Phase.OVER or self.aborted

    def start(self) -> list[Event]:
        """Deal Mr. Jack and the alibi deck, then open round 1 (note 7.1).

        Raises:
            WrongPhase: already started, or a role is still free.
        """
        if self.phase is not Phase.LOBBY:
            raise WrongPhase("The game has already started.")
        detective, jack = self.seat_of(DETEKTIV), self.seat_of(MRJACK)
        if detective is None or jack is None:
            raise WrongPhase("Both roles must be taken.")
        self.alibis = AlibiDeck.deal(self.rng, self._alibi_order())
        out: list[Event] = [
            BeginnSpiel(spieler=DETEKTIV, audience=only(detective)),
            BeginnSpiel(spieler=MRJACK, audience=only(jack)),
            Jack(farbe=self.alibis.jack, audience=only(jack)),
        ]
        self._begin_round(1, out)
        return out

    def _alibi_order(self) -> list[str] | None:
        if self.setup.alibi_order is not None:
            return list(self.setup.alibi_order)
        if self.setup.jack is None:
            return None
        others = [c for c in COLOURS if c != self.setup.jack]
        self.rng.shuffle(others)
        return [self.setup.jack, *others]

    # -- play --------------------------------------------------------------------------------

    def awaited_seat(self) -> Seat | None:
        """The seat the game waits for, if any."""
        if self.phase in (Phase.PICK, Phase.PARTS, Phase.TARGET):
            return self.seat_of(picker(self.round, self.activation_number))
        if self.phase is Phase.MARKING:
            return self.seat_of(DETEKTIV)
        return None

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        """Apply a seat's command. Raises a :mod:`.errors` RuleError and changes nothing if the
        command is not allowed now."""
        if seat not in self.names:
            raise errors.not_seated()
        if isinstance(action, Init):
            return self._init(seat, action.spieler)
        if self.phase in (Phase.LOBBY, Phase.OVER):
            raise errors.wrong_phase(action_name(type(action)))
        if isinstance(action, Aufgeben):
            self.inputs += 1
            return self._forfeit(seat, "resigned")
        out: list[Event]
        if isinstance(action, Aktiv):
            out = self._aktiv(seat, action.farbe)
        elif isinstance(action, Aktion):
            out = self._aktion(seat, action.aktion)
        elif isinstance(action, Ziel):
            out = self._ziel(seat, action.koordinate)
        elif isinstance(action, Fertig):
            out = self._fertig(seat)
        else:
            raise MalformedAction(f"Not a Mr. Jack action: {action!r}.")
        self.inputs += 1
        return out

    def _init(self, seat: Seat, role: str) -> list[Event]:
        if role not in ROLES:
            raise errors.unknown_role(role)
        if self.phase is not Phase.LOBBY:
            raise errors.wrong_phase("init")
        if self.roles.get(seat) == role:
            return []
        if self.seat_of(role) is not None:
            raise errors.role_taken(role)
        self.roles[seat] = role
        return [RolleGewaehlt(seat=seat, spieler=role)]

    def _check_turn(self, seat: Seat, command: str, phases: tuple[Phase, ...]) -> None:
        if seat != self.awaited_seat():
            if command == "ziel" and self.phase is Phase.MARKING:
                raise errors.only_detective_marks()
            raise errors.not_your_turn(command)
        if self.phase not in phases:
            raise errors.wrong_phase(command)

    def _aktiv(self, seat: Seat, colour: str) -> list[Event]:
        self._check_turn(seat, "aktiv", (Phase.PICK,))
        if colour not in COLOURS:
            raise errors.unknown_colour(colour)
        if colour not in self.draft.available():
            raise errors.colour_unavailable(colour)
        self.draft.take(colour)
        if self.cast.ability(colour) is Ability.MOVE_OTHER_CHARACTER:
            parts = {FAEHIGKEIT, BEWEGEN} if self.rules.monk_own_move else {FAEHIGKEIT}
            self.activation = Activation(colour, seat, parts, 1)
        else:
            self.activation = Activation(colour, seat, {BEWEGEN, FAEHIGKEIT}, 2)
        self.phase = Phase.PARTS
        return [FarbeAktiv(seat=seat, farbe=colour, audience=only(seat))]

    def _aktion(self, seat: Seat, aktion: str) -> list[Event]:
        self._check_turn(seat, "aktion", (Phase.PARTS,))
        act = self.activation
        assert act is not None
        accepted = AktionAkzeptiert(seat=seat, aktion=aktion, audience=only(seat))
        if aktion == SKIP:
            if not self.may_skip():
                raise errors.invalid_action(aktion)
            out: list[Event] = [accepted]
            self._end_activation(out)
            return out
        if aktion not in act.remaining:
            raise errors.invalid_action(aktion)
        options = self.part_options(aktion)
        if not options:
            raise errors.invalid_action(aktion)
        act.part, act.chosen, act.options = aktion, (), options
        self.phase = Phase.TARGET
        return [accepted, Moeglichkeiten(seat=seat, koordinaten=options, audience=only(seat))]

    def _ziel(self, seat: Seat, label: str) -> list[Event]:
        if self.phase is Phase.MARKING:
            return self._mark(seat, label)
        self._check_turn(seat, "ziel", (Phase.TARGET,))
        act = self.activation
        assert act is not None and act.part is not None
        if not is_label(label):
            raise errors.unknown_coordinate(label)
        if label not in act.options:
            raise errors.coordinate_not_offered(label, act.options)
        out: list[Event] = [KoordinateAkzeptiert(seat=seat, koordinate=label, audience=only(seat))]
        if act.part == BEWEGEN and not act.chosen:
            target = self.board.occupant(label)
            if target is not None:
                self._game_over(DETEKTIV if target == self.alibis.jack else MRJACK, "accusation", out)
                return out
            if is_escape_target(label):
                self._game_over(MRJACK, "escape", out)
                return out
        act.chosen += (label,)
        step = self._step(act.part, act.chosen)
        if isinstance(step, Ask):
            assert step.options, "a Teilzug never asks with an empty list"
            act.options = step.options
            out += step.events
            out.append(Moeglichkeiten(seat=seat, koordinaten=step.options, audience=only(seat)))
            return out
        out += step.events
        act.remaining.discard(act.part)
        act.parts_left -= 1
        act.part, act.chosen, act.options = None, (), ()
        if act.parts_left == 0 or not act.remaining:
            self._end_activation(out)
        else:
            self.phase = Phase.PARTS
        return out

    def _mark(self, seat: Seat, label: str) -> list[Event]:
        self._check_turn(seat, "ziel", (Phase.MARKING,))
        colour = self.board.occupant(label) if is_label(label) else None
        if colour is None:
            raise errors.invalid_marking(label)
        self.suspects ^= {colour}
        return [UpdateVerdacht(farbe=colour, verdaechtig=colour in self.suspects)]

    def _fertig(self, seat: Seat) -> list[Event]:
        if self.phase is not Phase.MARKING:
            raise errors.wrong_phase("fertig")
        self._check_turn(seat, "fertig", (Phase.MARKING,))
        out: list[Event] = []
        self._end_round(out)
        return out

    # -- Teilzüge ----------------------------------------------------------------------------

    def turn(self) -> Turn:
        """The activation under way as the move and ability steps see it."""
        act = self.activation
        assert act is not None
        jack_player = self.roles[act.seat] == MRJACK
        return Turn(
            board=self.board,
            rules=self.rules,
            cast=self.cast,
            colour=act.colour,
            actor=act.seat,
            actor_is_detective=not jack_player,
            escape_allowed=jack_player and act.colour == self.alibis.jack and not self.witness_seen,
            alibis=self.alibis,
        )

    def _step(self, part: str, chosen: tuple[str, ...]) -> Step:
        turn = self.turn()
        if part == BEWEGEN:
            return move_part(turn, chosen)
        return ABILITY_STEPS[self.cast.ability(turn.colour)](turn, chosen)

    def part_options(self, part: str) -> tuple[str, ...]:
        """The first ``moeglichkeiten`` of Teilzug ``part`` (empty: it has no legal target)."""
        step = self._step(part, ())
        assert isinstance(step, Ask) and not step.events
        return step.options

    def part_skippable(self, part: str) -> bool:
        """Whether an open Teilzug may be left out (note 9.8)."""
        if part == BEWEGEN:
            return self.rules.min_move == 0 or not self.part_options(BEWEGEN)
        act = self.activation
        assert act is not None
        optional = self.rules.ability_skip_always or (
            self.rules.tumblety_optional and self.cast.ability(act.colour) is Ability.SWAP_CHARACTERS
        )
        return optional or not self.part_options(FAEHIGKEIT)

    def may_skip(self) -> bool:
        """``aktion(skip)`` is accepted iff every open Teilzug may be left out."""
        act = self.activation
        assert act is not None
        return all(self.part_skippable(part) for part in act.remaining)

    # -- activations and rounds --------------------------------------------------------------

    def _begin_round(self, number: int, out: list[Event]) -> None:
        self.round = number
        if self.rules.informant_reactivates:
            self.board.informant_talkative = True
        self.draft.deal(number, self.rng)
        out.append(BeginnRunde(runde=number))
        self._begin_activation(1, out)

    def _begin_activation(self, number: int, out: list[Event]) -> None:
        self.activation_number = number
        self.activation = None
        self.phase = Phase.PICK
        seat = self.awaited_seat()
        assert seat is not None
        out += [
            BeginnSpielzug(runde=self.round, spielzug=number),
            Auswahl(karten=self.draft.auswahl()),
            Spielzugerlaubnis(seat=seat, erlaubt=True, audience=only(seat)),
        ]

    def _end_activation(self, out: list[Event]) -> None:
        act = self.activation
        assert act is not None
        out += [Spielzugerlaubnis(seat=act.seat, erlaubt=False, audience=only(act.seat)), EndeSpielzug()]
        self.activation = None
        if self.activation_number < CARDS_PER_ROUND:
            self._begin_activation(self.activation_number + 1, out)
            return
        jack_seen, cleared = innocents(self.board, self.alibis.jack, park_hides=self.rules.park_hides)
        self.witness_seen = jack_seen
        out.append(Sichtbar(sichtbar=jack_seen))
        if self.rules.detective_marks:
            self.phase = Phase.MARKING
            return
        for colour in COLOURS:
            if colour in cleared and colour in self.suspects:
                self.suspects.discard(colour)
                out.append(UpdateVerdacht(farbe=colour, verdaechtig=False))
        self._end_round(out)

    def _end_round(self, out: list[Event]) -> None:
        self.suspects_by_round.append((self.round, len(self.suspects)))
        out.append(EndeRunde(runde=self.round))
        if self.round == ROUNDS:
            self._game_over(MRJACK, "time", out)
        else:
            self._begin_round(self.round + 1, out)

    def _game_over(self, winner: str, reason: str, out: list[Event]) -> None:
        self.winner, self.reason = winner, reason
        if not self.suspects_by_round or self.suspects_by_round[-1][0] != self.round:
            self.suspects_by_round.append((self.round, len(self.suspects)))
        self.phase = Phase.OVER
        self.activation = None
        self.final_names = dict(self.names)
        out.append(EndeSpiel(sieger=winner, farbe=self.alibis.jack, grund=reason))

    def _forfeit(self, seat: Seat, reason: str) -> list[Event]:
        out: list[Event] = []
        loser = self.roles[seat]
        self._game_over(DETEKTIV if loser == MRJACK else MRJACK, reason, out)
        return out

    # -- time --------------------------------------------------------------------------------

    def pending_timers(self) -> Sequence[Timer]:
        """The turn clock restarts on every accepted command (note 12); the marking clock runs
        once per round end."""
        if self.phase in (Phase.PICK, Phase.PARTS, Phase.TARGET) and self.rules.turn_timeout_s > 0:
            return [Timer(f"turn:{self.inputs}", float(self.rules.turn_timeout_s))]
        if self.phase is Phase.MARKING:
            return [Timer(f"marking:{self.round}", float(self.rules.round_end_timeout_s))]
        return []

    def on_timeout(self, key: str) -> list[Event]:
        """The awaited player was silent: with ``turn_timeout_action=forfeit`` (note 12) that
        player loses, with ``default_move`` :meth:`default_action` is played. The marking clock
        ends the marking phase.

        Raises:
            WrongPhase: ``key`` is not a running timer (stale).
        """
        if key not in {timer.key for timer in self.pending_timers()}:
            raise WrongPhase("stale timer", code="stale_timer")
        seat = self.awaited_seat()
        assert seat is not None
        if key.startswith("marking:"):
            return self.apply(seat, Fertig())
        if self.rules.turn_timeout_forfeits:
            self.inputs += 1
            return self._forfeit(seat, "timeout")
        return self.apply(seat, self.default_action(seat))

    def default_action(self, seat: Seat) -> Action:
        """The move played for a silent seat: ``skip`` where allowed, else the first legal
        action (first card, first Teilzug, first coordinate)."""
        legal = self.legal_actions(seat)
        if Aktion(SKIP) in legal:
            return Aktion(SKIP)
        if Fertig() in legal:
            return Fertig()
        return legal[0]

    # -- questions ---------------------------------------------------------------------------

    def legal_actions(self, seat: Seat) -> list[Action]:
        """Every action ``seat`` may send now, resigning left out (bots, perft counts)."""
        if seat != self.awaited_seat():
            return []
        if self.phase is Phase.PICK:
            return [Aktiv(colour) for colour in self.draft.available()]
        act = self.activation
        if self.phase is Phase.PARTS:
            assert act is not None
            legal: list[Action] = [
                Aktion(p) for p in (BEWEGEN, FAEHIGKEIT) if p in act.remaining and self.part_options(p)
            ]
            if self.may_skip():
                legal.append(Aktion(SKIP))
            return legal
        if self.phase is Phase.TARGET:
            assert act is not None
            return [Ziel(label) for label in act.options]
        if self.phase is Phase.MARKING:
            return [*(Ziel(label) for label in sorted_labels(self.board.occupied())), Fertig()]
        return []

    def to_move(self) -> ToMove:
        seat = self.awaited_seat()
        if seat is None:
            return NOBODY
        return ToMove(frozenset({seat}), self.phase.value)

    def outcome(self) -> Outcome | None:
        if self.winner is not None and self.reason is not None:
            winner_seat = self.seat_of(self.winner)
            return Outcome(
                scores={seat: int(role == self.winner) for seat, role in self.roles.items()},
                winners=frozenset() if winner_seat is None else frozenset({winner_seat}),
                termination=_TERMINATIONS[self.reason],
                names=dict(self.final_names),
            )
        if self.aborted:
            return Outcome({}, frozenset(), Termination.ABORTED, dict(self.names))
        return None

    def clone(self) -> MrJackGame:
        """An independent copy of this table (bots look ahead, perft counts branch)."""
        twin = copy.copy(self)
        twin.rng = self.rng.copy()
        twin.names, twin.roles, twin.final_names = dict(self.names), dict(self.roles), dict(self.final_names)
        twin.board = self.board.copy()
        twin.draft = self.draft.copy()
        twin.alibis = self.alibis.copy()
        twin.suspects = set(self.suspects)
        twin.suspects_by_round = list(self.suspects_by_round)
        act = self.activation
        if act is not None:
            twin.activation = dataclasses.replace(act, remaining=set(act.remaining))
        return twin

    def view(self, seat: Seat | None) -> dict[str, JSON]:
        from gamehall.rules.mrjack.view import game_view

        return game_view(self, seat)


def new_game(config: Mapping[str, JSON], seed: int, setup: Setup | None = None) -> MrJackGame:
    """A new table waiting for its two players.

    Raises:
        ConfigError: invalid settings or an invalid :class:`Setup`.
    """
    return MrJackGame(config, seed, setup)

"""A tiny game used to test the hall without any real game's rules.

"Race to N": seats take turns adding 1-3 to a shared counter; whoever reaches ``target`` wins.
Two to four seats; starts when full (or on ``start()`` with two or more); a turn timer adds 1
by default; a dropped seat is skipped. It exercises every part of the Game contract: hidden
information (each seat has a secret number only it sees), timers, membership and outcome.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gamehall.rules._config import ConfigSchema, Setting
from gamehall.rules._core import (
    JSON,
    Action,
    ActionCodec,
    Event,
    GameInProgress,
    GameType,
    IllegalAction,
    NotYourTurn,
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
    only,
)


@dataclass(frozen=True, slots=True)
class Add(Action):
    amount: int


@dataclass(frozen=True, slots=True)
class Resign(Action):
    """Leave the game for good: the engine releases the seat itself."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Added(Event):
    seat: Seat
    amount: int
    total: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Secret(Event):
    seat: Seat
    number: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Won(Event):
    seat: Seat


SCHEMA = ConfigSchema(
    "toy",
    [
        Setting("seats", 2, "int", 2, 4),
        Setting("target", 10, "int", 3, 100),
        Setting("turn_s", 5.0, "float", 0.1, 60),
        Setting("rejoin_grace", 60, "int", 0, 600),
        Setting("chat_enabled", True, "bool"),
    ],
)


class RaceTable:
    def __init__(self, config: Mapping[str, JSON], seed: int) -> None:
        self.config = dict(config)
        self.rng = Rng(seed)
        self.names: dict[Seat, str] = {}
        self.present: set[Seat] = set()
        self.secrets: dict[Seat, int] = {}
        self.total = 0
        self.turn: Seat | None = None
        self.moves = 0
        self._started = False
        self.winner: Seat | None = None
        self.aborted = False
        self._next_seat = 0

    # membership
    def seat_join(self, name: str) -> tuple[Seat, list[Event]]:
        if self._started:
            raise GameInProgress("The game has started.")
        if len(self.names) >= int(self.config["seats"]):
            raise TableFull("The table is full.")
        seat = self._next_seat
        self._next_seat += 1
        self.names[seat] = name
        self.present.add(seat)
        events: list[Event] = [SeatJoined(seat=seat, name=name)]
        if len(self.names) == int(self.config["seats"]):
            events += self.start()
        return seat, events

    def seat_away(self, seat: Seat) -> list[Event]:
        self.present.discard(seat)
        events: list[Event] = [SeatAway(seat=seat, name=self.names[seat])]
        if self.turn == seat:
            events += self._advance()
        return events

    def seat_back(self, seat: Seat) -> list[Event]:
        self.present.add(seat)
        return [SeatBack(seat=seat, name=self.names[seat])]

    def resync(self, seat: Seat) -> list[Event]:
        if seat not in self.secrets:
            return []
        return [Secret(seat=seat, number=self.secrets[seat], audience=only(seat))]

    def seat_leave(self, seat: Seat) -> list[Event]:
        name = self.names.pop(seat)
        self.present.discard(seat)
        events: list[Event] = [SeatLeft(seat=seat, name=name)]
        if self._started and len(self.names) < 2:
            self.aborted = True
        elif self.turn == seat:
            events += self._advance()
        return events

    def seat_rename(self, seat: Seat, name: str) -> list[Event]:
        old = self.names[seat]
        self.names[seat] = name
        return [SeatRenamed(seat=seat, old=old, new=name)]

    def start(self) -> list[Event]:
        if self._started:
            raise WrongPhase("Already started.")
        if len(self.names) < 2:
            raise WrongPhase("Two players are needed.")
        self._started = True
        events: list[Event] = []
        for seat in sorted(self.names):
            self.secrets[seat] = self.rng.between(1, 100)
            events.append(Secret(seat=seat, number=self.secrets[seat], audience=only(seat)))
        self.turn = min(self.names)
        return events

    # play
    def apply(self, seat: Seat, action: Action) -> list[Event]:
        if isinstance(action, Resign):
            return self.seat_leave(seat)
        if not isinstance(action, Add):
            raise IllegalAction("Unknown action.")
        if self.turn != seat:
            raise NotYourTurn("Not your turn.")
        if not 1 <= action.amount <= 3:
            raise IllegalAction("Add 1 to 3.", amount=action.amount)
        return self._add(seat, action.amount)

    def _add(self, seat: Seat, amount: int) -> list[Event]:
        self.total += amount
        self.moves += 1
        events: list[Event] = [Added(seat=seat, amount=amount, total=self.total)]
        if self.total >= int(self.config["target"]):
            self.winner = seat
            self.turn = None
            events.append(Won(seat=seat))
            return events
        return events + self._advance()

    def _advance(self) -> list[Event]:
        order = sorted(s for s in self.names if s in self.present)
        if not order or self.turn is None:
            return []
        later = [s for s in order if s > self.turn]
        self.turn = later[0] if later else order[0]
        return []

    def pending_timers(self) -> Sequence[Timer]:
        if self.turn is None or self.finished:
            return []
        return [Timer(f"turn:{self.moves}:{self.turn}", float(self.config["turn_s"]))]

    def on_timeout(self, key: str) -> list[Event]:
        if not self.pending_timers() or self.pending_timers()[0].key != key or self.turn is None:
            raise WrongPhase("stale timer")
        return self._add(self.turn, 1)

    def to_move(self) -> ToMove:
        return ToMove(frozenset([self.turn]) if self.turn is not None else frozenset(), "add")

    def outcome(self) -> Outcome | None:
        if self.winner is not None:
            return Outcome(
                {s: int(s == self.winner) for s in self.names},
                frozenset([self.winner]),
                Termination.NORMAL,
                dict(self.names),
            )
        if self.aborted:
            return Outcome({}, frozenset(), Termination.ABORTED, dict(self.names))
        return None

    def view(self, seat: Seat | None) -> dict[str, Any]:
        return {
            "total": self.total,
            "turn": self.turn,
            "seats": [
                {"seat": s, "name": n, "present": s in self.present} for s, n in sorted(self.names.items())
            ],
            "secret": self.secrets.get(seat) if seat is not None else None,
        }

    def seat_names(self) -> Mapping[Seat, str]:
        return dict(self.names)

    @property
    def started(self) -> bool:
        return self._started

    @property
    def finished(self) -> bool:
        return self.winner is not None or self.aborted


def new_game(config: Mapping[str, JSON], seed: int) -> RaceTable:
    return RaceTable(config, seed)


TOY = GameType(
    game_id="toy",
    title="Race to N",
    schema=SCHEMA,
    new_game=new_game,
    actions=ActionCodec([Add, Resign]),
    seat_count=lambda config: int(config["seats"]),
)

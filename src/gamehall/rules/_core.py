"""The engine contract shared by every game.

A game engine is a pure, deterministic state machine: no I/O, no asyncio, no clock, no global
random. The hall feeds it *inputs* (table membership changes, player actions, fired timers) and
gets back *events*, each tagged with the seats allowed to see it. Replaying the same inputs on a
state built from the same config and seed reproduces the game exactly; that one property gives
crash recovery, replays and audits (see ARCHITECTURE.md, "store").

Shape (python-chess for the typed errors, boardgame.io for seeded randomness and per-seat views):

- ``new_game(config, seed) -> State`` lives in each game package.
- Membership: ``seat_join(name)``, ``seat_away(seat)``, ``seat_back(seat)``,
  ``seat_leave(seat)``, ``seat_rename(seat, name)`` and ``start()``. Seats are small integers the
  engine hands out; names are what players see.
- Play: ``apply(seat, action)`` raises a :class:`RuleError` subclass and changes nothing when the
  action is illegal.
- Time: ``pending_timers()`` lists the timers the state wants running *now*, each with a key that
  changes whenever the timer should restart. When one fires, the hall calls ``on_timeout(key)``,
  which applies the documented default move. Timers are inputs like any other and are logged.
- ``to_move()`` says who must act and what kind of decision is expected; ``outcome()`` is
  ``None`` until the game is over; ``view(seat)`` is the only place that decides what a seat
  (``None`` = spectator) may know.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Callable, Iterable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from gamehall.rules._config import ConfigSchema

Seat = int
"""A position at a table, handed out by the engine (0, 1, 2, ...) and fixed for the game."""

JSON = Any
"""A value made of dicts with str keys, lists, str, int, float, bool and None."""


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------


class RuleError(Exception):
    """An input the rules do not allow. The state is unchanged when one is raised.

    ``code`` is a stable machine-readable name ("not_your_turn", "no_such_card", ...) that
    protocol dialogues map to their own error messages; ``reason`` is an English sentence for
    logs and the browser. ``detail`` carries values a protocol may need to word its message
    (for example the offending card id).
    """

    default_code: ClassVar[str] = "rule_error"

    def __init__(self, reason: str, *, code: str | None = None, **detail: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code or self.default_code
        self.detail: dict[str, Any] = detail


class NotYourTurn(RuleError):
    """The seat may not act now (another seat's turn, or this phase takes no action from it)."""

    default_code = "not_your_turn"


class IllegalAction(RuleError):
    """The action is well-formed but breaks a rule (card not in hand, illegal move...)."""

    default_code = "illegal_action"


class WrongPhase(RuleError):
    """The action exists but is not accepted in the current phase of the game."""

    default_code = "wrong_phase"


class MalformedAction(RuleError):
    """The action does not even have the right shape (unknown type, missing field...)."""

    default_code = "malformed_action"


class TableFull(RuleError):
    """No seat is free."""

    default_code = "table_full"


class GameInProgress(RuleError):
    """The table no longer takes new seats because its game has started."""

    default_code = "game_in_progress"


class ConfigError(ValueError):
    """A room configuration is invalid (unknown key, value out of range, wrong type)."""


# --------------------------------------------------------------------------------------------
# Events and actions
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Something that happened at a table.

    ``audience`` is ``None`` when every seat and every spectator may see the event, otherwise
    the exact set of seats that may. Engines set it; nobody else may widen it.
    """

    audience: frozenset[Seat] | None = None

    def visible_to(self, seat: Seat | None) -> bool:
        """Whether ``seat`` (``None`` = a spectator) may receive this event."""
        return self.audience is None or (seat is not None and seat in self.audience)


def only(*seats: Seat) -> frozenset[Seat]:
    """An audience of exactly these seats (reads well at the call site: ``audience=only(s)``).

    The audience of one seat is one shared set per seat number (below
    :data:`_SHARED_AUDIENCES`): a deal makes an event per card for one seat, and rooms keep
    their recent events, so a set of its own per event was 216 bytes and an object for the
    collector to walk, ten per seat and deal (issue 12 item 4). Frozen sets are immutable,
    so sharing them changes nothing else."""
    if len(seats) == 1 and 0 <= seats[0] < _SHARED_AUDIENCES:
        return _ONE_SEAT[seats[0]]
    return frozenset(seats)


_SHARED_AUDIENCES = 64
"""Seat numbers with a shared one-seat audience (larger ones get a set of their own)."""

_ONE_SEAT: tuple[frozenset[Seat], ...] = tuple(frozenset((seat,)) for seat in range(_SHARED_AUDIENCES))


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatJoined(Event):
    """A seat was taken by ``name``."""

    seat: Seat
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatAway(Event):
    """The seat's player lost the connection; the seat is held for them."""

    seat: Seat
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatBack(Event):
    """The seat's player is back after being away."""

    seat: Seat
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatLeft(Event):
    """The seat was released; ``name`` is who held it."""

    seat: Seat
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatRenamed(Event):
    """The seat's player now goes by ``new``."""

    seat: Seat
    old: str
    new: str


class Action:
    """Base of every player action. Subclasses are frozen dataclasses of JSON-able fields.

    Each game lists its action classes in an :class:`ActionCodec` so actions can be written to
    the room log and read from the browser's JSON.
    """

    __slots__ = ()


A = TypeVar("A", bound=Action)


class ActionCodec:
    """Turns a game's actions into JSON objects ``{"type": name, ...fields}`` and back.

    Tuples are written as lists and read back as tuples, so a decoded action compares equal to
    the original.
    """

    def __init__(self, classes: Iterable[type[Action]]) -> None:
        self._by_name: dict[str, type[Action]] = {}
        for cls in classes:
            if not dataclasses.is_dataclass(cls):
                raise TypeError(f"{cls.__name__} is not a dataclass")
            self._by_name[action_name(cls)] = cls

    @property
    def names(self) -> Sequence[str]:
        return tuple(self._by_name)

    def encode(self, action: Action) -> dict[str, JSON]:
        """The JSON object for ``action``."""
        out: dict[str, JSON] = {"type": action_name(type(action))}
        for f in dataclasses.fields(action):  # type: ignore[arg-type]
            value = getattr(action, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    def decode(self, obj: Mapping[str, JSON]) -> Action:
        """The action described by ``obj``.

        Raises:
            MalformedAction: unknown type, missing or extra fields, or a field of the wrong
                JSON type.
        """
        if not isinstance(obj, Mapping):
            raise MalformedAction("An action must be an object.")
        name = obj.get("type")
        cls = self._by_name.get(name) if isinstance(name, str) else None
        if cls is None:
            raise MalformedAction(f"Unknown action type {name!r}.", type=name)
        kwargs: dict[str, Any] = {}
        fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        extra = set(obj) - set(fields) - {"type"}
        if extra:
            raise MalformedAction(f"Unknown field(s) {sorted(extra)} for {name}.")
        hints = _field_types(cls)
        for fname in fields:
            if fname not in obj:
                if fields[fname].default is not dataclasses.MISSING:
                    continue
                raise MalformedAction(f"Field {fname!r} is missing for {name}.")
            kwargs[fname] = _coerce(obj[fname], hints[fname], f"{name}.{fname}")
        return cls(**kwargs)


def action_name(cls: type[Action]) -> str:
    """The wire name of an action class: its ``name`` class attribute, else the class name."""
    return str(getattr(cls, "name", cls.__name__))


_TYPE_CACHE: dict[type, dict[str, Any]] = {}


def _field_types(cls: type) -> dict[str, Any]:
    import typing

    if cls not in _TYPE_CACHE:
        _TYPE_CACHE[cls] = typing.get_type_hints(cls)
    return _TYPE_CACHE[cls]


def _coerce(value: JSON, hint: Any, where: str) -> Any:
    """Check ``value`` against a field's type hint (the few shapes actions use)."""
    import types
    import typing

    origin = typing.get_origin(hint)
    if hint is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        for option in typing.get_args(hint):
            try:
                return _coerce(value, option, where)
            except MalformedAction:
                continue
        raise MalformedAction(f"{where} has the wrong type.")
    if hint is type(None):
        if value is None:
            return None
        raise MalformedAction(f"{where} must be null.")
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            raise MalformedAction(f"{where} must be a list.")
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_coerce(v, args[0], where) for v in value)
        if len(args) != len(value):
            raise MalformedAction(f"{where} must have {len(args)} items.")
        return tuple(_coerce(item, item_hint, where) for item_hint, item in zip(args, value, strict=True))
    if origin is typing.Literal:
        if value in typing.get_args(hint):
            return value
        raise MalformedAction(f"{where} must be one of {typing.get_args(hint)}.")
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise MalformedAction(f"{where} must be true or false.")
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise MalformedAction(f"{where} must be an integer.")
    if hint is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        raise MalformedAction(f"{where} must be a number.")
    if hint is str:
        if isinstance(value, str):
            return value
        raise MalformedAction(f"{where} must be a string.")
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except ValueError:
            raise MalformedAction(f"{where} has an unknown value.") from None
    raise TypeError(f"unsupported action field type {hint!r} at {where}")


# --------------------------------------------------------------------------------------------
# Time, turns and outcome
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Timer:
    """A timer the state wants running. A new ``key`` means "restart"; same key: keep it."""

    key: str
    seconds: float


@dataclass(frozen=True, slots=True)
class ToMove:
    """Who must act now and what kind of decision is expected of them.

    ``seats`` may hold several seats (simultaneous decisions); ``kind`` is a game-specific name
    ("pick", "judge", "play_card", "bid", ...). An empty ``seats`` means nobody: the game waits
    for a timer or for players.
    """

    seats: frozenset[Seat]
    kind: str


NOBODY = ToMove(frozenset(), "wait")


class Termination(enum.Enum):
    """Why a game ended."""

    NORMAL = "normal"
    RESIGNED = "resigned"
    LEFT = "left"
    RULE_VIOLATION = "rule_violation"
    TIMEOUT = "timeout"
    ABORTED = "aborted"


class SeatResult(enum.Enum):
    """How one seat's game ended: played to the end, lost by forfeit, or voided with the game."""

    NORMAL = "normal"
    FORFEIT = "forfeit"
    ABORTED = "aborted"


class ForfeitReason(enum.Enum):
    """Why a seat forfeited. Typed so that results, replays and contest standings say what
    really happened (a crash is never a win; a bot that stopped answering is not a "left")."""

    LEFT = "left"
    DISCONNECTED = "disconnected"
    TIMEOUT = "timeout"
    SOFT_TIMEOUT = "soft_timeout"
    RULE_VIOLATION = "rule_violation"
    PROCESS_VIOLATION = "process_violation"


@dataclass(frozen=True, slots=True)
class SeatEnd:
    """One seat's typed result: ``reason`` is set exactly when ``result`` is FORFEIT."""

    result: SeatResult
    reason: ForfeitReason | None = None

    def to_json(self) -> dict[str, str]:
        out = {"result": self.result.value}
        if self.reason is not None:
            out["reason"] = self.reason.value
        return out


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: final scores by seat, the winners, and why it ended.

    ``seat_ends`` types each seat's end (stored in the room result as ``"seats"``); a seat
    missing from it ended ``normal`` when the termination is NORMAL, ``aborted`` when ABORTED.
    """

    scores: Mapping[Seat, int]
    winners: frozenset[Seat]
    termination: Termination
    names: Mapping[Seat, str] = field(default_factory=dict)
    seat_ends: Mapping[Seat, SeatEnd] = field(default_factory=dict)


# --------------------------------------------------------------------------------------------
# Randomness
# --------------------------------------------------------------------------------------------


class Rng:
    """The only source of randomness an engine may use: seeded, and stored inside the state.

    A thin wrapper over :class:`random.Random` so that engines name what they need (shuffle,
    choice, below) and nothing reaches the module-level generator by accident.
    """

    __slots__ = ("_random",)

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def shuffle(self, items: MutableSequence[Any]) -> None:
        self._random.shuffle(items)

    def choice(self, items: Sequence[A] | Sequence[Any]) -> Any:
        return self._random.choice(items)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        return self._random.randrange(n)

    def between(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``."""
        return self._random.randint(low, high)

    def sample(self, population: Sequence[Any], k: int) -> list[Any]:
        return self._random.sample(population, k)

    def copy(self) -> Rng:
        """An independent generator in the same state (bots looking ahead, perft branching)."""
        twin = Rng(0)
        twin._random.setstate(self._random.getstate())
        return twin


# --------------------------------------------------------------------------------------------
# The game contract
# --------------------------------------------------------------------------------------------


@runtime_checkable
class Game(Protocol):
    """What the hall needs of a game's state object. See the module docstring."""

    def seat_join(self, name: str) -> tuple[Seat, list[Event]]:
        """Give ``name`` a seat. Raises TableFull / GameInProgress."""
        ...

    def seat_away(self, seat: Seat) -> list[Event]:
        """The seat's connection dropped; hold the seat."""
        ...

    def seat_back(self, seat: Seat) -> list[Event]:
        """The seat's player reconnected."""
        ...

    def seat_leave(self, seat: Seat) -> list[Event]:
        """Release the seat for good."""
        ...

    def resync(self, seat: Seat) -> list[Event]:
        """Events (audience: ``seat`` alone) that bring a returning connection up to date when
        the engine never saw it leave: after a server restart the hall holds every seat for the
        grace without telling the engine, so rounds go on exactly as they were. Changes
        nothing."""
        ...

    def seat_rename(self, seat: Seat, name: str) -> list[Event]:
        """Rename the seat's player. Raises RuleError where the game forbids it."""
        ...

    def start(self) -> list[Event]:
        """Start the game now (operator or web request). Raises RuleError if it cannot."""
        ...

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        """Apply a player's action. Raises RuleError and changes nothing if illegal."""
        ...

    def pending_timers(self) -> Sequence[Timer]:
        """The timers that should be running now."""
        ...

    def on_timeout(self, key: str) -> list[Event]:
        """A timer from :meth:`pending_timers` fired: apply the documented default."""
        ...

    def to_move(self) -> ToMove: ...

    def outcome(self) -> Outcome | None: ...

    def view(self, seat: Seat | None) -> dict[str, JSON]:
        """What ``seat`` (``None`` = a spectator) may know, as JSON."""
        ...

    def seat_names(self) -> Mapping[Seat, str]:
        """Every seat currently taken (present or held), by seat number."""
        ...

    @property
    def started(self) -> bool:
        """Whether the game has begun (tables stop taking plain joins then, in most games)."""
        ...

    @property
    def finished(self) -> bool:
        """Whether the table is over (game ended or aborted): the hall closes the room."""
        ...


@runtime_checkable
class HeldTurn(Protocol):
    """An optional capability of a game whose turn is one window of time for several seats at
    once (duplicate, boggle): a seat stays in :meth:`Game.to_move` until the turn closes, even
    after it moved, because it may still act (a better move replaces the first, more words).

    ``to_move`` alone cannot tell a seat that has not answered from one that has; these
    read-only queries can. A contest's referee stops a seat's move clock once it has moved in
    the current turn and starts a new one when ``turn`` changes (docs/contest.md).
    """

    @property
    def turn(self) -> int:
        """The running turn's number: a new number is a new request for a move."""
        ...

    def moved_this_turn(self, seat: Seat) -> bool:
        """Whether ``seat`` has an accepted move standing in the current turn."""
        ...


@dataclass(frozen=True, slots=True)
class GameType:
    """Everything the hall needs to host a game: its id, settings, engine and actions.

    ``new_game(config, seed)`` builds a fresh state from a config already validated by
    ``schema``.
    """

    game_id: str
    title: str
    schema: ConfigSchema
    new_game: Callable[[Mapping[str, JSON], int], Game]
    actions: ActionCodec
    seat_count: Callable[[Mapping[str, JSON]], int] = lambda config: 0
    """How many seats a room with this config has (the lobby shows "2/5", bots fill the rest)."""
    default_title: Callable[[Mapping[str, JSON]], str] | None = None
    """The title of a room created without one, from its (validated) config, when the game's
    own title would not tell two rooms apart (words: "Duplicate (English)"); None: ``title``."""

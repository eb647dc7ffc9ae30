"""The whole state of a Doppelkopf table as plain dataclasses of JSON values.

Everything an engine knows lives here, in fields made only of ints, strs, bools, None, lists,
str-keyed dicts and nested dataclasses, so :func:`dump` / :func:`load` round-trip exactly and a
saved table (cg ``game.save``, crash recovery) comes back as it was.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from typing import Any

from gamehall.rules._core import JSON


@dataclass(slots=True)
class Question:
    """A question waiting for one seat (cg ``question{type, target}``)."""

    kind: str
    seat: int


@dataclass(slots=True)
class SoloOffer:
    seat: int
    solo: str


SEAT_ORDER_FROM = tuple(tuple((leader + i) % 4 for i in range(4)) for leader in range(4))
"""The four seats clockwise from each leader."""


@dataclass(slots=True)
class TrickState:
    """One trick: who led, the card each seat put down (by seat), in what time order, and which
    card ids act as pigs or superpigs in it (id -> strength)."""

    number: int
    leader: int
    cards: list[str | None] = field(default_factory=lambda: [None, None, None, None])
    order: list[int] = field(default_factory=list)
    promoted: dict[str, int] = field(default_factory=dict)
    winner: int | None = None

    def in_seat_order(self) -> tuple[int, ...]:
        """The seats from the leader on, clockwise."""
        return SEAT_ORDER_FROM[self.leader]

    def complete(self) -> bool:
        return None not in self.cards


@dataclass(slots=True)
class Move:
    """One entry of the round's move log (note §7.2): a card, a logged announcement or an
    accusation, with the flags that make it denounceable.

    ``hand`` keeps the hand an early card was played from, so its revoke check can run once the
    led card is known.
    """

    id: int
    seat: int
    kind: str
    data: str
    flags: list[str] = field(default_factory=list)
    punished: bool = False
    trick: int = 0
    card: str = ""
    hand: list[str] = field(default_factory=list)


@dataclass(slots=True)
class AnnouncementRecord:
    """A legal re/kontra/denial: it counts for its party."""

    seat: int
    kind: str
    party: str


@dataclass(slots=True)
class Complaint:
    """A pending accusation (note §7.3)."""

    accuser: int
    accused: int
    kind: str
    listed: list[int] = field(default_factory=list)
    voters: list[int] = field(default_factory=list)
    votes: dict[str, bool] = field(default_factory=dict)


@dataclass(slots=True)
class Poverty:
    """A poverty in progress: the poor seat, the passed cards, candidates still to ask."""

    poor: int
    passed: list[str] = field(default_factory=list)
    candidates: list[int] = field(default_factory=list)
    taker: int | None = None
    returned: list[str] = field(default_factory=list)


@dataclass(slots=True)
class RoundState:
    """One deal, from the shuffle to the end-of-round vote."""

    number: int
    player_list: list[int]
    values: dict[str, str]
    stack: list[str]
    hands: list[list[str]]
    dealt: list[list[str]]
    tricks_total: int
    phase: str = "w_for_ready"
    ready: list[bool] = field(default_factory=lambda: [False] * 4)
    question: Question | None = None
    pending: list[Question] = field(default_factory=list)
    stage: str = "reservation"
    reserved: list[int] = field(default_factory=list)
    solo_offers: list[SoloOffer] = field(default_factory=list)
    game_type: str = "normal"
    soloist: int | None = None
    re_seats: list[int] | None = None
    bride: int | None = None
    wedding_wish: str = "foreign"
    clarification: int = 1
    poverty: Poverty | None = None
    pig_ids: list[str] = field(default_factory=list)
    superpig_ids: list[str] = field(default_factory=list)
    pig_call: list[str] = field(default_factory=lambda: ["", "", "", ""])
    pig_called_by: list[int] = field(default_factory=list)
    trick: TrickState | None = None
    tricks: list[TrickState] = field(default_factory=list)
    announcements: list[AnnouncementRecord] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    complaint: Complaint | None = None
    penalties: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    black_sow_chooser: int | None = None
    void_type: str | None = None


@dataclass(slots=True)
class BuckState:
    mode: str = "None"
    queue: int = 0
    counters: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class TableState:
    """The table: seats, the session's rounds and points, the current deal."""

    config: dict[str, Any]
    seed: int
    names: list[str | None] = field(default_factory=lambda: [None, None, None, None])
    present: list[bool] = field(default_factory=lambda: [False] * 4)
    started: bool = False
    end_reason: str | None = None
    round_number: int = 0
    deal_count: int = 0
    points: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    summaries: list[dict[str, Any]] = field(default_factory=list)
    buck: BuckState = field(default_factory=BuckState)
    votes: dict[str, dict[str, bool]] = field(default_factory=dict)
    round: RoundState | None = None


def dump(state: TableState) -> dict[str, JSON]:
    """The state as JSON (a deep copy)."""
    return dataclasses.asdict(state)


def load(data: dict[str, JSON]) -> TableState:
    """The state :func:`dump` wrote."""
    result = _load(TableState, data)
    assert isinstance(result, TableState)
    return result


def _load(cls: type, data: Any) -> Any:
    hints = typing.get_type_hints(cls)
    kwargs = {f.name: _convert(hints[f.name], data[f.name]) for f in dataclasses.fields(cls)}
    return cls(**kwargs)


def _convert(hint: Any, value: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        options = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        return _convert(options[0], value)
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return _load(hint, value)
    if origin is list:
        (item,) = typing.get_args(hint)
        return [_convert(item, v) for v in value]
    if origin is dict:
        _, item = typing.get_args(hint)
        return {k: _convert(item, v) for k, v in value.items()}
    if isinstance(value, (list, dict)):
        return _deep_copy(value)
    return value


def _deep_copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _deep_copy(v) for k, v in value.items()}
    return value

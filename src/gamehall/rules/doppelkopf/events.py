"""What a Doppelkopf table tells its seats, one event per cg packet meaning (note §4.4, §7).

Every event carries its audience (``None`` = everyone, spectators included). Hidden things only
travel in events whose audience is the seats allowed to know them: hand values go to their
owner, the poverty cards to the two parties, the complaint move list to the accuser.
Seats in events are table seats (0..3); ``player_list`` gives the round's order.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamehall.rules._core import Event, Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStarted(Event):
    """The table is full and play begins (cg ``game.start``)."""

    names: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundStarted(Event):
    """A deal begins: its number, the player order (index 0 leads trick 1) and every card id in
    stack order (values hidden), for the cg creation transfers."""

    round: int
    player_list: tuple[Seat, ...]
    stack: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandDealt(Event):
    """A seat's hand: ids for everyone, values only in :class:`HandShown`."""

    seat: Seat
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class HandShown(Event):
    """The values of a seat's hand, to that seat (to everyone with ``dk.open_cards``)."""

    seat: Seat
    cards: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseChanged(Event):
    """``w_for_ready``, ``reservations``, ``tricks`` (with the game type shown) or ``end``."""

    phase: str
    game_type: str | None = None
    soloist: Seat | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ButtonsChanged(Event):
    """Private: the next announcement the seat may make and its pig button label."""

    seat: Seat
    rebtn_lbl: str
    pigbtn_lbl: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Asked(Event):
    """A question to one seat (cg ``question``), e.g. ``reservation`` or ``poverty_accept``."""

    kind: str
    target: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class Answered(Event):
    """A seat's announcement other than re/kontra/denials (cg ``announce``): ``ready``,
    ``reservation_no``, ``solo_yes`` with data, ``poverty_return``..."""

    seat: Seat
    kind: str
    data: dict[str, str | int] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Announced(Event):
    """Re, kontra or a denial; ``party`` is the announcer's party for denials. ``legal`` is
    False for an illegal announcement accepted under ``dk.misplay=penalize`` (no effect)."""

    seat: Seat
    kind: str
    party: str | None
    legal: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class PigsCalled(Event):
    """``pigs`` or ``superpigs`` announced (in the reservations or in play)."""

    seat: Seat
    kind: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsPassed(Event):
    """Poverty cards moved between two seats; values are in :class:`CardsRevealed`."""

    giver: Seat
    receiver: Seat | None
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsRevealed(Event):
    """Card values shown to the seats concerned (the poverty exchange)."""

    cards: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class GameTypeChanged(Event):
    """The contract was settled or changed during play (wedding partner found, black sow)."""

    game_type: str
    soloist: Seat | None
    re_seats: tuple[Seat, ...] | None


@dataclass(frozen=True, slots=True, kw_only=True)
class WeddingTrickDecided(Event):
    """The wedding's clarification trick (cg ``wedding_trick_num``)."""

    trick: int
    partner: Seat | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Turn(Event):
    """Whose card is due (cg ``turn``); sent at each trick start and after each card."""

    current_trick: int
    total_tricks: int
    current_player: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class CardPlayed(Event):
    """A card from ``seat``'s hand went to the table, shown; ``early`` when before its turn."""

    seat: Seat
    card: str
    value: str
    early: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class TrickTaken(Event):
    """The trick went to ``winner``: its cards, eyes, and the winner's eyes this round."""

    trick: int
    winner: Seat
    cards: tuple[str, ...]
    eyes: int
    winner_eyes: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreChanged(Event):
    """A seat's game points changed (round end or penalty)."""

    seat: Seat
    points: int
    change: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundEnded(Event):
    """The round's result (cg ``round.change`` phase end): winner ``re``/``kontra``/None,
    eyes ``(re, kontra)``, extras per party and the ``game_summary`` codes.

    ``game_summary`` is gamehall's full list; ``reference_summary`` the reference server's list
    that vanilla connections get (note §6.5 step 6), ``None`` when both are the same."""

    round: int
    game_type: str
    winner: str | None
    eyes: tuple[int, int]
    modifiers: dict[str, list[str]]
    extras: tuple[tuple[str, ...], tuple[str, ...]]
    game_summary: tuple[str, ...]
    point_change: tuple[int, ...]
    re_seats: tuple[Seat, ...]
    reference_summary: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Accused(Event):
    """A complaint was opened (cg ``complaint`` without ``moves``)."""

    accuser: Seat
    accused: Seat
    kind: str


@dataclass(frozen=True, slots=True, kw_only=True)
class MovesListed(Event):
    """To the accuser only: every move of the accused this round, ``(id, type, data)``."""

    accused: Seat
    kind: str
    moves: tuple[tuple[int, str, str], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Verdict(Event):
    """The complaint's verdict: ``guilty``, ``wrong`` or ``cancelled``, and who was punished."""

    accuser: Seat
    accused: Seat
    kind: str
    verdict: str
    punished: Seat
    move: tuple[int, str, str] | None


@dataclass(frozen=True, slots=True, kw_only=True)
class VoteCast(Event):
    """A seat voted (``continue``, ``adjourn``, ``end``, ``cancel`` or ``accusation``)."""

    seat: Seat
    kind: str
    yes: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class GameEnded(Event):
    """The table is over: ``end``, ``cancel``, ``adjourn``, ``penalty_abort`` or ``left``."""

    reason: str
    points: tuple[int, ...]

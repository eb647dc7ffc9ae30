"""What a seat can do at a Doppelkopf table, one class per cg packet meaning (note §4.4, §7).

Each action maps 1:1 to a cg client packet, so the cg dialogue translates without judgement:

===============================================  ==================================================
cg packet                                        action
===============================================  ==================================================
announce ``ready``                               :class:`Ready`
announce ``throw`` (``w_for_ready``)             :class:`Throw`
announce ``<q>_yes`` / ``<q>_no``                :class:`Answer` (q = reservation, throw, pigs,
                                                 superpigs, poverty, wedding)
announce ``solo_yes`` + type / ``solo_no``       :class:`AnswerSolo`
card.intent ``pass_card`` (3 ids)                :class:`PassCards`
announce ``poverty_accept`` / ``_decline``       :class:`PovertyAccept` / :class:`PovertyDecline`
card.intent ``return_card`` (3 ids)              :class:`ReturnCards`
announce ``poverty_return`` + amount             :class:`PovertyReturn`
announce ``wedding_clarification_trick``         :class:`WeddingClarification`
announce ``black_sow_solo`` + type               :class:`BlackSowSolo`
card.intent ``play``                             :class:`PlayCard`
announce ``re/kontra/no90/no60/no30/black``      :class:`Announce`
announce ``pigs`` / ``superpigs``                :class:`CallPigs`
complaint (open / pick / cancel)                 :class:`Accuse` / :class:`PickMove` /
                                                 :class:`CancelAccusation`
announce ``accusation_yes`` / ``_no``            :class:`AccusationVote`
announce ``continue/adjourn/end/cancel_yes|no``  :class:`Vote`
===============================================  ==================================================

Cards are named by their round id (32 hex digits), as on the cg wire.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gamehall.rules._core import Action, ActionCodec

QuestionKind = Literal["reservation", "throw", "pigs", "superpigs", "poverty", "wedding"]
AnnouncementKind = Literal["re", "kontra", "no90", "no60", "no30", "black"]
VoteKind = Literal["continue", "adjourn", "end", "cancel"]
AccusationKind = Literal["wrong_card", "wrong_announcement", "played_early", "external"]
WeddingTrick = Literal["foreign", "trump", "miss", "hearts", "spades", "clubs", "diamonds"]


@dataclass(frozen=True, slots=True)
class Ready(Action):
    """The hand is seen; the seat is ready for the reservations."""


@dataclass(frozen=True, slots=True)
class Throw(Action):
    """Throw a qualifying hand in ``w_for_ready`` (``dk.throw=throw``): the round is void."""


@dataclass(frozen=True, slots=True)
class Answer(Action):
    """Yes or no to a reservation-type question (``reservation_yes``, ``wedding_no``...)."""

    question: QuestionKind
    yes: bool


@dataclass(frozen=True, slots=True)
class AnswerSolo(Action):
    """Answer to the ``solo`` question: a ``solo_*`` type, or ``None`` for ``solo_no``."""

    solo: str | None


@dataclass(frozen=True, slots=True)
class PassCards(Action):
    """The poor player's 3 cards for the partner; they must include every trump held."""

    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PovertyAccept(Action):
    """The asked candidate takes the poverty."""


@dataclass(frozen=True, slots=True)
class PovertyDecline(Action):
    """The asked candidate refuses the poverty."""


@dataclass(frozen=True, slots=True)
class ReturnCards(Action):
    """The poverty taker's 3 cards back to the poor player."""

    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PovertyReturn(Action):
    """The taker declares how many trumps the returned cards hold (checked)."""

    amount: int


@dataclass(frozen=True, slots=True)
class WeddingClarification(Action):
    """The bride picks which trick finds her partner (``dk.wedding=wish_trick``)."""

    trick: WeddingTrick


@dataclass(frozen=True, slots=True)
class BlackSowSolo(Action):
    """The winner of the second ♠Q in a black sow names the solo for the rest of the round."""

    solo: str


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """Play one card from the hand."""

    card: str


@dataclass(frozen=True, slots=True)
class Announce(Action):
    """Re/kontra or a denial (no 90, no 60, no 30, black)."""

    kind: AnnouncementKind


@dataclass(frozen=True, slots=True)
class CallPigs(Action):
    """Call pigs (``superpigs=False``) or superpigs on one's own turn."""

    superpigs: bool = False


@dataclass(frozen=True, slots=True)
class Accuse(Action):
    """Open a complaint against another seat (``dk.misplay=penalize`` only)."""

    accused: int
    kind: AccusationKind


@dataclass(frozen=True, slots=True)
class PickMove(Action):
    """The accuser names the illegal move among the accused's moves (by move id)."""

    move_id: int


@dataclass(frozen=True, slots=True)
class CancelAccusation(Action):
    """The accuser withdraws the pending accusation (and is punished for it)."""


@dataclass(frozen=True, slots=True)
class AccusationVote(Action):
    """A bystander backs (yes) or rejects an ``external`` accusation."""

    yes: bool


@dataclass(frozen=True, slots=True)
class Vote(Action):
    """A vote: continue, adjourn or end in phase ``end``; cancel at any time."""

    kind: VoteKind
    yes: bool


ACTION_CLASSES: tuple[type[Action], ...] = (
    Ready,
    Throw,
    Answer,
    AnswerSolo,
    PassCards,
    PovertyAccept,
    PovertyDecline,
    ReturnCards,
    PovertyReturn,
    WeddingClarification,
    BlackSowSolo,
    PlayCard,
    Announce,
    CallPigs,
    Accuse,
    PickMove,
    CancelAccusation,
    AccusationVote,
    Vote,
)

CODEC = ActionCodec(ACTION_CLASSES)

"""Whether a ``Pick`` or a ``Judge`` is allowed, checked in the order of sections 5.7 and 5.8.

The checks only read the state: an input is either refused with a :class:`RuleError` (the
state untouched) or handed to :mod:`.rounds` to be carried out.
"""

from __future__ import annotations

from gamehall.rules._core import RuleError, Seat
from gamehall.rules.aah import errors
from gamehall.rules.aah.cards import WhiteCard
from gamehall.rules.aah.rounds import owner_of_revealed
from gamehall.rules.aah.state import Phase, SeatRecord, TableState


def seat_at_table(table: TableState, seat: Seat) -> SeatRecord:
    """The record of a seat that is taken and present.

    Raises:
        RuleError: ``not_seated`` (unknown or released seat) or ``seat_away`` (held seat).
    """
    rec = table.seats.get(seat)
    if rec is None or rec.released:
        raise errors.not_seated(seat)
    if not rec.present:
        raise errors.seat_away(seat)
    return rec


def check_pick(table: TableState, seat: Seat, card_ids: tuple[int, ...]) -> list[WhiteCard]:
    """The cards a ``Pick`` plays, in order, if every id may be played one after another.

    A pick of several ids is accepted whole or not at all; the error is the one the first
    failing id would get were the ids sent one by one (``detail["index"]`` says which). The
    legacy dialogue, which must accept a frame's ids up to the first bad one, sends them as
    one-id picks.

    Raises:
        RuleError: see :mod:`.errors` (pick_no_arguments, invalid_card_id, not_in_hand,
            picks_not_accepted, czar_does_not_pick, submission_complete).
    """
    rec = seat_at_table(table, seat)
    if not card_ids:
        raise errors.pick_no_arguments()
    hand = list(rec.hand)
    rnd = table.round
    played = len(rnd.submissions.get(seat, ())) if rnd is not None else 0
    cards: list[WhiteCard] = []
    for index, card_id in enumerate(card_ids):
        try:
            card = _check_one(table, seat, hand, played, card_id)
        except RuleError as exc:
            exc.detail["index"] = index
            raise
        hand.remove(card)
        cards.append(card)
        played += 1
    return cards


def _check_one(table: TableState, seat: Seat, hand: list[WhiteCard], played: int, card_id: int) -> WhiteCard:
    if not 1 <= card_id <= errors.MAX_CARD_ID:
        raise errors.invalid_card_id(card_id)
    card = next((card for card in hand if card.card_id == card_id), None)
    if card is None:
        raise errors.not_in_hand(card_id)
    rnd = table.round
    if table.phase is not Phase.PICK or rnd is None:
        raise errors.picks_not_accepted(card)
    if seat == rnd.czar:
        raise errors.czar_does_not_pick(card)
    if played >= rnd.black.pick:
        raise errors.submission_complete(card)
    return card


def check_may_judge(table: TableState, seat: Seat) -> None:
    """The first two ``CZPK`` checks (5.8), which come before any look at the id.

    Raises:
        RuleError: ``not_czar`` or ``judging_not_accepted``.
    """
    seat_at_table(table, seat)
    if table.current_czar() != seat:
        raise errors.not_czar()
    if table.phase is not Phase.JUDGE:
        raise errors.judging_not_accepted()


def check_judge(table: TableState, seat: Seat, card_id: int) -> Seat:
    """The owner of the submission the czar names by ``card_id``.

    Raises:
        RuleError: not_czar, judging_not_accepted, invalid_card_id or card_not_played.
    """
    check_may_judge(table, seat)
    if not 1 <= card_id <= errors.MAX_CARD_ID:
        raise errors.invalid_card_id(card_id)
    owner = owner_of_revealed(table, card_id)
    if owner is None:
        raise errors.card_not_played(card_id)
    return owner

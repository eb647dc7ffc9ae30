"""The ways an AAH table refuses an input, as :class:`RuleError` subclasses with stable codes.

Each error's ``reason`` is the exact English text of the note's string table (11.2) where the
legacy protocol has one, so a dialogue may send it as is; ``code`` is what a dialogue should
branch on. ``detail`` always carries ``card_id`` for card errors, and ``restore`` (the
:class:`WhiteCard` the sender still holds) where section 5.7 says "+ restore": the legacy
client hides a card as soon as it sends ``PICK``, so the dialogue answers with a ``WHTE`` of
that card. Raising never changes the table.

Codes, in the order the rules check them:

=========================  ==============  ===================================================
code                       class           legacy reply (UNRG text, 11.2)
=========================  ==============  ===================================================
pick_no_arguments          MalformedAction PICK received without arguments; invalid.
invalid_card_id            MalformedAction Invalid card identifier sent (X).
not_in_hand                IllegalAction   You do not have the card N.
picks_not_accepted         WrongPhase      PICK commands are not being accepted at this time. +restore
czar_does_not_pick         NotYourTurn     The Card Czar does not play this round. +restore
submission_complete        IllegalAction   Gambling is disabled on this server. +restore
not_czar                   NotYourTurn     You are not the Card Czar.
judging_not_accepted       WrongPhase      CZPK commands are not being accepted at this time.
card_not_played            IllegalAction   Card has not been played (N).
not_seated                 NotYourTurn     (no legacy text: the seat is not at this table)
seat_away                  NotYourTurn     (no legacy text: the seat is held, not present)
unknown_action             MalformedAction (no legacy text)
table_full                 TableFull       Player limit reached. (REFU)
game_in_progress           GameInProgress  Game in progress; joining prohibited. (REFU)
name_invalid               IllegalAction   Nickname invalid; unchanged. (NDNY)
name_in_use                IllegalAction   Nickname in use; unchanged. (NDNY)
rename_in_game             WrongPhase      Cannot change nickname during a game. (NDNY)
not_away                   IllegalAction   (seat_back for a seat that is not held)
already_started            WrongPhase      (start() after the game began)
not_enough_players         IllegalAction   (start() with fewer than min_players present)
=========================  ==============  ===================================================

``judge_no_arguments`` ("CZPK sent without arguments; invalid.") is never raised: a ``Judge``
always has an id. The legacy dialogue checks it itself, after calling
:meth:`AahTable.check_may_judge` so "not the czar" and "not now" still come first (5.8).
"""

from __future__ import annotations

from gamehall.rules._core import IllegalAction, MalformedAction, NotYourTurn, RuleError, Seat, WrongPhase
from gamehall.rules.aah.cards import WhiteCard

MAX_CARD_ID = 2**31 - 1
"""Card ids are int32 on the 0.2.0 client (section 2.4)."""


def pick_no_arguments() -> RuleError:
    return MalformedAction("PICK received without arguments; invalid.", code="pick_no_arguments")


def invalid_card_id(card_id: int) -> RuleError:
    return MalformedAction(
        f"Invalid card identifier sent ({card_id}).", code="invalid_card_id", card_id=card_id
    )


def not_in_hand(card_id: int) -> RuleError:
    return IllegalAction(f"You do not have the card {card_id}.", code="not_in_hand", card_id=card_id)


def picks_not_accepted(card: WhiteCard) -> RuleError:
    return WrongPhase(
        "PICK commands are not being accepted at this time.",
        code="picks_not_accepted",
        card_id=card.card_id,
        restore=card,
    )


def czar_does_not_pick(card: WhiteCard) -> RuleError:
    return NotYourTurn(
        "The Card Czar does not play this round.",
        code="czar_does_not_pick",
        card_id=card.card_id,
        restore=card,
    )


def submission_complete(card: WhiteCard) -> RuleError:
    return IllegalAction(
        "Gambling is disabled on this server.",
        code="submission_complete",
        card_id=card.card_id,
        restore=card,
    )


def not_czar() -> RuleError:
    return NotYourTurn("You are not the Card Czar.", code="not_czar")


def judging_not_accepted() -> RuleError:
    return WrongPhase("CZPK commands are not being accepted at this time.", code="judging_not_accepted")


def card_not_played(card_id: int) -> RuleError:
    return IllegalAction(f"Card has not been played ({card_id}).", code="card_not_played", card_id=card_id)


def not_seated(seat: Seat) -> RuleError:
    return NotYourTurn(f"Seat {seat} is not at this table.", code="not_seated", seat=seat)


def seat_away(seat: Seat) -> RuleError:
    return NotYourTurn(f"Seat {seat} is held for a player who is away.", code="seat_away", seat=seat)

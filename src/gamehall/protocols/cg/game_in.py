"""cg ``game_dk`` packets from a client -> Doppelkopf actions (note §4.4, §7.3).

Each function returns the action, or raises :class:`Dropped` (the packet is malformed in a way
the note says to drop silently, e.g. a card not in the hand) or :class:`Refused` (answered with
a ``status.message`` warn key). The engine then judges the action itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from gamehall.protocols.cg.codec import parse_uuid
from gamehall.rules._core import Action
from gamehall.rules.doppelkopf import actions as act

QUESTIONS: Final = ("reservation", "throw", "pigs", "superpigs", "poverty", "wedding")
ANNOUNCEMENTS: Final = ("re", "kontra", "no90", "no60", "no30", "black")
VOTES: Final = ("continue", "adjourn", "end", "cancel")
ACCUSATIONS: Final = ("wrong_card", "wrong_announcement", "played_early", "external")
WEDDING_TRICKS: Final = ("foreign", "trump", "miss", "hearts", "spades", "clubs", "diamonds")


class Dropped(Exception):
    """Drop the packet and log why (no reply)."""


class Refused(Exception):
    """Answer with ``status.message`` warn ``message`` (an i18n key)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _data(body: dict[str, Any]) -> dict[str, Any]:
    data = body.get("data")
    return data if isinstance(data, dict) else {}


def announce(body: dict[str, Any]) -> Action:
    kind = body.get("type")
    if not isinstance(kind, str):
        raise Dropped("announce without a type")
    data = _data(body)
    if kind == "ready":
        return act.Ready()
    if kind == "throw":
        return act.Throw()
    if kind in ANNOUNCEMENTS:
        return act.Announce(kind)  # type: ignore[arg-type]
    if kind in ("pigs", "pig"):
        return act.CallPigs(False)
    if kind in ("superpigs", "superpig"):
        return act.CallPigs(True)
    if kind == "poverty_accept":
        return act.PovertyAccept()
    if kind == "poverty_decline":
        return act.PovertyDecline()
    if kind == "poverty_return":
        amount = data.get("amount")
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise Refused("cg:msg.game.dk.invalid_return_amount")
        return act.PovertyReturn(amount)
    if kind == "wedding_clarification_trick":
        trick = data.get("trick")
        if trick not in WEDDING_TRICKS:
            raise Refused("cg:msg.game.dk.invalid_wedding")
        return act.WeddingClarification(trick)
    if kind == "black_sow_solo" or kind == "solo_yes":
        solo = data.get("type")
        if not isinstance(solo, str):
            raise Dropped(f"{kind} without a solo type")
        return act.BlackSowSolo(solo) if kind == "black_sow_solo" else act.AnswerSolo(solo)
    if kind == "solo_no":
        return act.AnswerSolo(None)
    stem, _, answer = kind.rpartition("_")
    if answer in ("yes", "no"):
        yes = answer == "yes"
        if stem in QUESTIONS:
            return act.Answer(stem, yes)  # type: ignore[arg-type]
        if stem in VOTES:
            return act.Vote(stem, yes)  # type: ignore[arg-type]
        if stem == "accusation":
            return act.AccusationVote(yes)
    raise Dropped(f"unknown announce type {kind!r}")


def card_intent(body: dict[str, Any], in_hand: Callable[[str], bool]) -> Action:
    """``play`` one id, or ``pass_card`` / ``return_card`` exactly 3 ids; every id in the hand."""
    intent, card = body.get("intent"), body.get("card")
    if intent == "play":
        card_id = parse_uuid(card)
        if card_id is None or not in_hand(card_id):
            raise Dropped("played card is not in the hand")
        return act.PlayCard(card_id)
    if intent in ("pass_card", "return_card"):
        if not isinstance(card, list) or len(card) != 3:
            raise Refused("cg:msg.game.dk.invalid_poverty_cards")
        ids = [parse_uuid(c) for c in card]
        if any(c is None or not in_hand(c) for c in ids) or len(set(ids)) != 3:
            raise Dropped("poverty cards are not in the hand")
        chosen = tuple(c for c in ids if c is not None)
        return act.PassCards(chosen) if intent == "pass_card" else act.ReturnCards(chosen)
    raise Dropped(f"unknown intent {intent!r}")


def complaint(body: dict[str, Any], seat_of: Callable[[str], int | None]) -> Action:
    """Open (no ``move``), pick (one entry) or cancel (``move:{}``) an accusation."""
    accused_uuid = parse_uuid(body.get("accused"))
    accused = None if accused_uuid is None else seat_of(accused_uuid)
    kind = body.get("type")
    if accused is None or kind not in ACCUSATIONS:
        raise Refused("gamehall:msg.game.dk.complaint.invalid")
    if "move" not in body:
        return act.Accuse(accused, kind)
    move = body["move"]
    if move == {}:
        return act.CancelAccusation()
    if not isinstance(move, dict) or len(move) != 1:
        raise Refused("gamehall:msg.game.dk.complaint.invalid_move")
    (move_id,) = move
    try:
        number = int(move_id)
    except ValueError:
        raise Refused("gamehall:msg.game.dk.complaint.invalid_move") from None
    if str(number) != move_id:
        raise Refused("gamehall:msg.game.dk.complaint.invalid_move")
    return act.PickMove(number)


def refusal_key(code: str) -> str:
    """The ``status.message`` key of an engine refusal code."""
    if code.startswith("complaint."):
        return f"gamehall:msg.game.dk.{code}"
    if code == "invalid_solo":
        return "gamehall:msg.game.dk.invalid_solo"
    if code in DK_KEYS:
        return f"cg:msg.game.dk.{code}"
    if code in ("not_your_turn", "no_seat"):
        return "cg:msg.game.dk.pc_wrong_turn"
    return "cg:msg.game.dk.pc_wrong_phase"


DK_KEYS: Final = frozenset(
    [
        "pc_wrong_phase",
        "pc_wrong_turn",
        "pc_wrong_card",
        "pc_called_pigs",
        "pc_called_superpigs",
        "invalid_poverty_cards",
        "re_no_party",
        "re_too_late",
        "invalid_pigs",
        "invalid_pigs_game",
        "invalid_superpigs",
        "invalid_superpigs_game",
        "invalid_superpigs_call",
        "invalid_throw",
        "invalid_poverty",
        "invalid_return_amount",
        "invalid_wedding",
        "invalid_solo",
    ]
)
"""Engine refusal codes that are reference message keys under ``cg:msg.game.dk.``."""

"""Legal actions and default moves.

:func:`legal_actions` lists what a seat may do now without being flagged (bots, tests and the
perft-like counts use it). :func:`default_action` is what a timer does for a seat that did not
act: ``ready``, the "no" answer (``reservation_no`` = healthy), the lowest legal card...
"""

from __future__ import annotations

from itertools import combinations

from gamehall.rules._core import Action, RuleError
from gamehall.rules.doppelkopf.actions import (
    AccusationVote,
    Announce,
    Answer,
    AnswerSolo,
    BlackSowSolo,
    CallPigs,
    CancelAccusation,
    PassCards,
    PickMove,
    PlayCard,
    PovertyAccept,
    PovertyDecline,
    PovertyReturn,
    Ready,
    ReturnCards,
    Throw,
    Vote,
    VoteKind,
    WeddingClarification,
)
from gamehall.rules.doppelkopf.announcements import DENIALS, refusal
from gamehall.rules.doppelkopf.cards import SOLO_ORDER, eyes_of
from gamehall.rules.doppelkopf.play import Referee, black_sow_choices
from gamehall.rules.doppelkopf.reservations import WEDDING_WISHES, check_yes, throw_cases_met

YES_NO_QUESTIONS = ("reservation", "throw", "pigs", "superpigs", "poverty", "wedding")


def _question_answers(ref: Referee, seat: int, kind: str) -> list[Action]:
    rnd, rules = ref.rnd, ref.rules
    if kind in YES_NO_QUESTIONS:
        answers: list[Action] = [Answer(kind, False)]  # type: ignore[arg-type]
        try:
            check_yes(ref, seat, kind)
        except RuleError:
            return answers
        return [*answers, Answer(kind, True)]  # type: ignore[arg-type]
    if kind == "solo":
        return [AnswerSolo(None), *(AnswerSolo(s) for s in SOLO_ORDER if s in rules["solos"])]
    if kind == "black_sow_solo":
        return [BlackSowSolo(s) for s in black_sow_choices(rules)]
    if kind == "wedding_clarification_trick":
        return [WeddingClarification(w) for w in WEDDING_WISHES]  # type: ignore[arg-type]
    hand = rnd.hands[seat]
    if kind == "poverty_trump_choice":
        trumps = [c for c in hand if ref.ranking().is_trump(ref.value(c))]
        others = [c for c in hand if c not in trumps]
        return [PassCards(tuple(trumps) + rest) for rest in combinations(others, 3 - len(trumps))]
    if kind == "poverty_accept":
        poverty = rnd.poverty
        assert poverty is not None
        duty = rules["poverty"] == "circulate_duty" and len(poverty.candidates) == 1
        return [PovertyAccept()] if duty else [PovertyAccept(), PovertyDecline()]
    if kind == "poverty_return_choice":
        return [ReturnCards(combo) for combo in combinations(hand, 3)]
    if kind == "poverty_return_trumps":
        poverty = rnd.poverty
        assert poverty is not None
        return [PovertyReturn(sum(1 for c in poverty.returned if ref.ranking().is_trump(ref.value(c))))]
    return []


def legal_actions(ref: Referee, seat: int, votes: dict[str, dict[str, bool]]) -> list[Action]:
    """Every unflagged action open to ``seat`` now."""
    rnd, rules = ref.rnd, ref.rules
    complaint = rnd.complaint
    if complaint is not None:
        if complaint.kind == "external":
            if seat in complaint.voters and str(seat) not in complaint.votes:
                return [AccusationVote(True), AccusationVote(False)]
            return []
        if seat == complaint.accuser:
            return [*(PickMove(i) for i in complaint.listed), CancelAccusation()]
        return []
    if rnd.phase == "w_for_ready":
        if rnd.ready[seat]:
            return []
        actions: list[Action] = [Ready()]
        if rules["throw"] == "throw" and throw_cases_met(
            ref.values_of(rnd.hands[seat]), list(rules["throw_cases"])
        ):
            actions.append(Throw())
        return actions
    if rnd.phase == "end":
        kinds: tuple[VoteKind, ...] = ("continue", "end")
        return [Vote(kind, True) for kind in kinds if str(seat) not in votes.get(kind, {})]
    if rnd.question is not None:
        return _question_answers(ref, seat, rnd.question.kind) if rnd.question.seat == seat else []
    if rnd.phase != "tricks":
        return []
    actions = [PlayCard(card) for card in ref.legal_plays(seat)]
    if ref.current_player() == seat:
        for superpigs in (False, True):
            if ref.pig_refusal(seat, superpigs=superpigs) is None:
                actions.append(CallPigs(superpigs))
    ctx = ref.announcement_context(seat)
    for kind in ("re", "kontra", *DENIALS):
        if refusal(kind, ctx) is None:
            actions.append(Announce(kind))  # type: ignore[arg-type]
    return actions


def default_action(ref: Referee, seat: int) -> Action | None:
    """What the timer does for ``seat``: ready, the "no" answer, or the first legal card."""
    rnd, rules = ref.rnd, ref.rules
    if rnd.phase == "w_for_ready":
        return None if rnd.ready[seat] else Ready()
    question = rnd.question
    if question is not None and question.seat == seat:
        kind = question.kind
        if kind in YES_NO_QUESTIONS:
            return Answer(kind, False)  # type: ignore[arg-type]
        if kind == "solo":
            return AnswerSolo(None)
        if kind == "wedding_clarification_trick":
            return WeddingClarification("foreign")
        if kind == "black_sow_solo":
            return BlackSowSolo(black_sow_choices(rules)[0])
        if kind == "poverty_return_choice":
            hand = sorted(
                rnd.hands[seat], key=lambda c: (ref.ranking().is_trump(ref.value(c)), eyes_of(ref.value(c)))
            )
            return ReturnCards(tuple(hand[:3]))
        options = _question_answers(ref, seat, kind)
        if kind == "poverty_accept":
            return options[-1]
        return options[0]
    plays = ref.legal_plays(seat)
    return PlayCard(plays[0]) if plays else None

"""From the deal to the first card: readiness, throwing, reservations and their priority, solos,
pigs, poverty with its card exchange, and the wedding (note §6.2, §6.3).

The reservations are a queue of questions, each to one seat, asked in ``player_list`` order:

1. ``reservation`` to everyone. Nobody reserved -> normal game.
2. ``solo`` to the reserved players (``dk.solo_prio``: the first yes, or the highest type).
3. Without a solo, to the reserved players: ``throw`` (``dk.throw=reservation``), ``pigs``
   (``two_reservation``), ``superpigs`` (everyone, after pigs, ``superpigs=reservation``),
   ``poverty``, ``wedding``; then the normal game.

A yes that the hand does not justify is always refused (``invalid_throw``, ``invalid_pigs``...),
in both misplay modes: the round would be undefined otherwise.
"""

from __future__ import annotations

from gamehall.rules._core import Event, IllegalAction, MalformedAction, NotYourTurn, WrongPhase, only
from gamehall.rules.doppelkopf.cards import COLOUR_SOLOS, SOLO_ORDER, rank_of, ranking_for, suit_of
from gamehall.rules.doppelkopf.events import (
    Answered,
    Asked,
    CardsPassed,
    CardsRevealed,
    PhaseChanged,
    PigsCalled,
)
from gamehall.rules.doppelkopf.play import Referee
from gamehall.rules.doppelkopf.state import Poverty, Question, SoloOffer

WEDDING_WISHES = ("foreign", "trump", "miss", "hearts", "spades", "clubs", "diamonds")
YES_NO_QUESTIONS = ("reservation", "throw", "pigs", "superpigs", "poverty", "wedding")
"""The questions :func:`answer` takes; every other question has its own action (cards to pass,
a solo type, a wedding wish...), so a bare yes/no to it is malformed."""
NON_SOLO_STAGES = ("throw", "pigs", "superpigs", "poverty", "wedding")
PIGS_SOLO_GAMES = (*COLOUR_SOLOS, "solo_null")
"""Solos in which ``pigs=two_reservation`` asks everyone for pigs before play."""


# ---------------------------------------------------------------------------------------------
# Readiness and throwing
# ---------------------------------------------------------------------------------------------


def ready(ref: Referee, seat: int) -> list[Event]:
    """A seat has looked at its hand; when all four are ready the reservations begin."""
    rnd = ref.rnd
    if rnd.phase != "w_for_ready":
        raise WrongPhase("Nobody is waiting for ready now.", code="pc_wrong_phase")
    if rnd.ready[seat]:
        raise IllegalAction("You are ready already.", code="already_ready")
    rnd.ready[seat] = True
    events: list[Event] = [Answered(seat=seat, kind="ready")]
    if all(rnd.ready):
        events += start_reservations(ref)
    return events


def throw_cases_met(values: list[str], cases: list[str]) -> list[str]:
    """Which of ``dk.throw_cases`` a hand meets (note §6.3, judged with the normal trumps)."""
    ranks = [rank_of(v) for v in values if v != "j0"]
    nines, kings = ranks.count("9"), ranks.count("k")
    suits_with = {
        rank: {suit_of(v) for v in values if v != "j0" and rank_of(v) == rank} for rank in ("9", "k")
    }
    normal = ranking_for("normal", heart10=True, shift_h10=False, joker="None")
    trumps = [v for v in values if normal.is_trump(v)]
    met = {
        "5_9": nines >= 5,
        "5_k": kings >= 5,
        "4_9+4_k": nines >= 4 and kings >= 4,
        "9_all_c": len(suits_with["9"]) == 4,
        "k_all_c": len(suits_with["k"]) == 4,
        "7full": ranks.count("a") + ranks.count("10") >= 7,
        "t<hj": all(normal.strength(v) <= normal.strength("dj") for v in trumps),
        "t<dj": all(normal.strength(v) <= normal.strength("da") for v in trumps),
    }
    return [case for case in cases if met.get(case, False)]


def _check_throw(ref: Referee, seat: int) -> None:
    if not throw_cases_met(ref.values_of(ref.rnd.hands[seat]), list(ref.rules["throw_cases"])):
        raise IllegalAction("This hand may not be thrown.", code="invalid_throw")


def throw(ref: Referee, seat: int) -> list[Event]:
    """``dk.throw=throw``: a qualifying hand voids the round instead of saying ready."""
    if ref.rnd.phase != "w_for_ready":
        raise WrongPhase("Hands are thrown before the reservations.", code="pc_wrong_phase")
    if ref.rules["throw"] != "throw":
        raise IllegalAction("Throwing is not allowed here.", code="invalid_throw")
    _check_throw(ref, seat)
    ref.rnd.void_type = "throw"
    ref.rnd.phase = "void"
    return [Answered(seat=seat, kind="throw")]


# ---------------------------------------------------------------------------------------------
# The question queue
# ---------------------------------------------------------------------------------------------


def start_reservations(ref: Referee) -> list[Event]:
    rnd = ref.rnd
    rnd.phase = "reservations"
    rnd.stage = "reservation"
    rnd.pending = [Question("reservation", seat) for seat in rnd.player_list]
    return [PhaseChanged(phase="reservations"), *ask_next(ref)]


def ask(ref: Referee, kind: str, seat: int) -> list[Event]:
    ref.rnd.question = Question(kind, seat)
    return [Asked(kind=kind, target=seat, audience=only(seat))]


def ask_next(ref: Referee) -> list[Event]:
    """Ask the next queued question, or move on to the next stage when the queue is empty."""
    rnd = ref.rnd
    rnd.question = None
    if rnd.pending:
        question = rnd.pending.pop(0)
        return ask(ref, question.kind, question.seat)
    return _next_stage(ref)


def _seats_for(ref: Referee, stage: str) -> list[int]:
    """Who is asked in ``stage`` (empty when the rules leave the stage out)."""
    rules, rnd = ref.rules, ref.rnd
    if stage == "throw":
        return list(rnd.reserved) if rules["throw"] == "reservation" else []
    if stage == "pigs":
        return list(rnd.reserved) if rules["pigs"] == "two_reservation" else []
    if stage == "pigs_solo":
        return list(rnd.player_list) if rules["pigs"] == "two_reservation" else []
    if stage in ("superpigs", "superpigs_solo"):
        return list(rnd.player_list) if rules["superpigs"] == "reservation" and rnd.pig_ids else []
    if stage == "poverty":
        return list(rnd.reserved) if rules["poverty"] != "None" else []
    if stage == "wedding":
        return list(rnd.reserved) if rules["wedding"] != "None" else []
    return []


def _enter(ref: Referee, stage: str) -> list[Event]:
    ref.rnd.stage = stage
    kind = stage.removesuffix("_solo")
    ref.rnd.pending = [Question(kind, seat) for seat in _seats_for(ref, stage)]
    return ask_next(ref)


def _next_stage(ref: Referee) -> list[Event]:
    rnd = ref.rnd
    stage = rnd.stage
    if stage == "reservation":
        if rnd.reserved:
            rnd.stage = "solo"
            rnd.pending = [Question("solo", seat) for seat in rnd.reserved]
            return ask_next(ref)
        return ref.begin_play()
    if stage == "solo":
        if rnd.solo_offers:
            best = min(rnd.solo_offers, key=lambda o: SOLO_ORDER.index(o.solo))
            return _start_solo(ref, best.seat, best.solo)
        return _enter(ref, NON_SOLO_STAGES[0])
    if stage == "pigs_solo":
        return _enter(ref, "superpigs_solo")
    if stage == "superpigs_solo":
        return ref.begin_play()
    if stage in NON_SOLO_STAGES and stage != NON_SOLO_STAGES[-1]:
        return _enter(ref, NON_SOLO_STAGES[NON_SOLO_STAGES.index(stage) + 1])
    return ref.begin_play()


def _expect(ref: Referee, seat: int, kinds: tuple[str, ...]) -> str:
    """The pending question's kind, checking it is one of ``kinds`` and addressed to ``seat``."""
    question = ref.rnd.question
    if ref.rnd.phase != "reservations" or question is None or question.kind not in kinds:
        raise WrongPhase("That question was not asked.", code="pc_wrong_phase")
    if question.seat != seat:
        raise NotYourTurn("The question is for another player.", code="pc_wrong_turn")
    return question.kind


# ---------------------------------------------------------------------------------------------
# Yes/no answers
# ---------------------------------------------------------------------------------------------


def answer(ref: Referee, seat: int, question: str, yes: bool) -> list[Event]:
    """``<question>_yes`` / ``<question>_no`` for reservation, throw, pigs, superpigs, poverty
    and wedding."""
    if question not in YES_NO_QUESTIONS:
        raise MalformedAction(f"{question!r} is not a yes/no question.")
    _expect(ref, seat, (question,))
    rnd = ref.rnd
    if yes:
        check_yes(ref, seat, question)
    kind = f"{question}_{'yes' if yes else 'no'}"
    ref.log(seat, "announcement", kind)
    events: list[Event] = [Answered(seat=seat, kind=kind)]
    if not yes:
        return events + ask_next(ref)
    if question == "reservation":
        rnd.reserved.append(seat)
        return events + ask_next(ref)
    if question == "throw":
        rnd.question = None
        rnd.void_type = "throw"
        rnd.phase = "void"
        return events
    if question in ("pigs", "superpigs"):
        wanted = _pig_value(ref, question)
        mine = [c for c in rnd.hands[seat] if ref.value(c) == wanted]
        if question == "pigs":
            rnd.pig_ids = mine
        else:
            rnd.superpig_ids = mine
        rnd.pending = [q for q in rnd.pending if q.kind != question]
        return [*events, PigsCalled(seat=seat, kind=question), *ask_next(ref)]
    if question == "poverty":
        rnd.poverty = Poverty(poor=seat)
        return events + ask(ref, "poverty_trump_choice", seat)
    rnd.pending = []
    rnd.game_type = "wedding"
    rnd.bride = seat
    if ref.rules["wedding"] == "wish_trick":
        return events + ask(ref, "wedding_clarification_trick", seat)
    rnd.question = None
    return events + ref.begin_play()


def _pig_value(ref: Referee, kind: str) -> str | None:
    ranking = ref.ranking()
    return ranking.pig_value() if kind == "pigs" else ranking.superpig_value(str(ref.rules["without9"]))


def check_yes(ref: Referee, seat: int, question: str) -> None:
    values = ref.values_of(ref.rnd.hands[seat])
    if question == "throw":
        _check_throw(ref, seat)
    elif question in ("pigs", "superpigs"):
        wanted = _pig_value(ref, question)
        if wanted is None or values.count(wanted) != 2:
            raise IllegalAction(f"You do not hold both {question}.", code=f"invalid_{question}")
    elif question == "poverty":
        if sum(1 for v in values if ref.ranking().is_trump(v)) > 3:
            raise IllegalAction("A poverty has at most 3 trumps.", code="invalid_poverty")
    elif question == "wedding" and values.count("cq") != 2:
        raise IllegalAction("A wedding needs both ♣Q.", code="invalid_wedding")


# ---------------------------------------------------------------------------------------------
# Solos
# ---------------------------------------------------------------------------------------------


def answer_solo(ref: Referee, seat: int, solo: str | None) -> list[Event]:
    """``solo_yes`` with a type, or ``solo_no``."""
    _expect(ref, seat, ("solo",))
    if solo is not None and solo not in ref.rules["solos"]:
        raise IllegalAction(f"{solo} is not played at this table.", code="invalid_solo", solo=solo)
    if solo is None:
        ref.log(seat, "announcement", "solo_no")
        return [Answered(seat=seat, kind="solo_no"), *ask_next(ref)]
    ref.log(seat, "announcement", solo)
    events: list[Event] = [Answered(seat=seat, kind="solo_yes", data={"type": solo})]
    if ref.rules["solo_prio"] == "first":
        ref.rnd.pending = []
        ref.rnd.question = None
        return events + _start_solo(ref, seat, solo)
    ref.rnd.solo_offers.append(SoloOffer(seat, solo))
    return events + ask_next(ref)


def _start_solo(ref: Referee, seat: int, solo: str) -> list[Event]:
    rnd = ref.rnd
    rnd.game_type = solo
    rnd.soloist = seat
    rnd.re_seats = [seat]
    if solo in PIGS_SOLO_GAMES and ref.rules["pigs"] == "two_reservation":
        return _enter(ref, "pigs_solo")
    rnd.question = None
    return ref.begin_play()


# ---------------------------------------------------------------------------------------------
# Wedding with a clarification wish
# ---------------------------------------------------------------------------------------------


def wedding_clarification(ref: Referee, seat: int, trick: str) -> list[Event]:
    """The bride's choice of clarification trick (``dk.wedding=wish_trick``)."""
    _expect(ref, seat, ("wedding_clarification_trick",))
    if trick not in WEDDING_WISHES:
        raise MalformedAction(f"There is no {trick!r} clarification trick.")
    ref.rnd.wedding_wish = trick
    ref.rnd.question = None
    ref.log(seat, "announcement", f"wedding_clarification_trick_{trick}")
    return [Answered(seat=seat, kind="wedding_clarification_trick", data={"trick": trick}), *ref.begin_play()]


# ---------------------------------------------------------------------------------------------
# Poverty
# ---------------------------------------------------------------------------------------------


def _three_cards(ref: Referee, seat: int, cards: tuple[str, ...]) -> list[str]:
    if len(cards) != 3 or len(set(cards)) != 3 or any(c not in ref.rnd.hands[seat] for c in cards):
        raise IllegalAction("Pick exactly 3 cards of your hand.", code="invalid_poverty_cards")
    return list(cards)


def _candidates(ref: Referee, poor: int) -> list[int]:
    order = ref.rnd.player_list
    start = order.index(poor)
    return [order[(start + i) % 4] for i in range(1, 4)]


def pass_cards(ref: Referee, seat: int, cards: tuple[str, ...]) -> list[Event]:
    """The poor player's 3 cards, holding every trump of the hand."""
    _expect(ref, seat, ("poverty_trump_choice",))
    chosen = _three_cards(ref, seat, cards)
    ranking = ref.ranking()
    trumps = [c for c in ref.rnd.hands[seat] if ranking.is_trump(ref.value(c))]
    if any(c not in chosen for c in trumps):
        raise IllegalAction("The passed cards must hold all your trumps.", code="invalid_poverty_cards")
    poverty = ref.rnd.poverty
    assert poverty is not None
    for card in chosen:
        ref.rnd.hands[seat].remove(card)
    poverty.passed = chosen
    poverty.candidates = _candidates(ref, seat)
    events: list[Event] = [CardsPassed(giver=seat, receiver=None, cards=tuple(chosen))]
    return events + _ask_candidate(ref)


def _ask_candidate(ref: Referee) -> list[Event]:
    poverty = ref.rnd.poverty
    assert poverty is not None
    if not poverty.candidates:
        return _nobody_took(ref)
    candidate = poverty.candidates[0]
    events = ask(ref, "poverty_accept", candidate)
    if ref.rules["poverty"] != "sell":
        events.append(_reveal(ref, poverty.passed, candidate))
    return events


def _reveal(ref: Referee, cards: list[str], seat: int) -> CardsRevealed:
    audience = None if ref.rules["open_cards"] else only(seat)
    return CardsRevealed(cards=tuple((c, ref.value(c)) for c in cards), audience=audience)


def poverty_accept(ref: Referee, seat: int) -> list[Event]:
    _expect(ref, seat, ("poverty_accept",))
    poverty = ref.rnd.poverty
    assert poverty is not None
    poverty.taker = seat
    poverty.candidates = []
    ref.rnd.hands[seat] += poverty.passed
    ref.log(seat, "announcement", "poverty_accept")
    events: list[Event] = [
        Answered(seat=seat, kind="poverty_accept"),
        CardsPassed(giver=poverty.poor, receiver=seat, cards=tuple(poverty.passed)),
        _reveal(ref, poverty.passed, seat),
    ]
    return events + ask(ref, "poverty_return_choice", seat)


def poverty_decline(ref: Referee, seat: int) -> list[Event]:
    _expect(ref, seat, ("poverty_accept",))
    poverty = ref.rnd.poverty
    assert poverty is not None
    if ref.rules["poverty"] == "circulate_duty" and len(poverty.candidates) == 1:
        raise IllegalAction("The last candidate must take the poverty.", code="invalid_poverty")
    poverty.candidates.pop(0)
    ref.log(seat, "announcement", "poverty_decline")
    return [Answered(seat=seat, kind="poverty_decline"), *_ask_candidate(ref)]


def return_cards(ref: Referee, seat: int, cards: tuple[str, ...]) -> list[Event]:
    """The taker gives 3 cards back to the poor player."""
    _expect(ref, seat, ("poverty_return_choice",))
    chosen = _three_cards(ref, seat, cards)
    poverty = ref.rnd.poverty
    assert poverty is not None
    for card in chosen:
        ref.rnd.hands[seat].remove(card)
    ref.rnd.hands[poverty.poor] += chosen
    poverty.returned = chosen
    events: list[Event] = [
        CardsPassed(giver=seat, receiver=poverty.poor, cards=tuple(chosen)),
        _reveal(ref, chosen, poverty.poor),
    ]
    return events + ask(ref, "poverty_return_trumps", seat)


def poverty_return(ref: Referee, seat: int, amount: int) -> list[Event]:
    """The taker declares the trumps among the returned cards; the amount is checked."""
    _expect(ref, seat, ("poverty_return_trumps",))
    poverty = ref.rnd.poverty
    assert poverty is not None
    ranking = ref.ranking()
    actual = sum(1 for c in poverty.returned if ranking.is_trump(ref.value(c)))
    if amount != actual:
        raise IllegalAction("That is not the number of trumps returned.", code="invalid_return_amount")
    ref.log(seat, "announcement", f"poverty_return_{amount}")
    ref.rnd.game_type = "poverty"
    ref.rnd.re_seats = [poverty.poor, seat]
    ref.rnd.question = None
    ref.rnd.pending = []
    return [Answered(seat=seat, kind="poverty_return", data={"amount": amount}), *ref.begin_play()]


def _nobody_took(ref: Referee) -> list[Event]:
    """``dk.poverty_consequence``: go on, redeal, black sow or ramsch."""
    rnd = ref.rnd
    poverty = rnd.poverty
    assert poverty is not None
    rnd.hands[poverty.poor] += poverty.passed
    events: list[Event] = [
        CardsPassed(giver=poverty.poor, receiver=poverty.poor, cards=tuple(poverty.passed))
    ]
    rnd.poverty = None
    consequence = ref.rules["poverty_consequence"]
    rnd.question = None
    if consequence == "redeal":
        rnd.void_type = "poverty_cancel"
        rnd.phase = "void"
        return events
    if consequence in ("black_sow", "ramsch"):
        rnd.pending = []
        rnd.game_type = str(consequence)
        return events + ref.begin_play()
    rnd.pending = [q for q in rnd.pending if q.kind != "poverty" or q.seat != poverty.poor]
    return events + ask_next(ref)

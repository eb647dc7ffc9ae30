"""The trick phase of a deal: cards, announcements, pig calls, the wedding's clarification and
the black sow (note §6.1, §6.3, §6.4, §7.2).

:class:`Referee` wraps one :class:`RoundState` and the table's effective rules. It answers the
questions every phase asks (which ranking, who is in which party, whose card is due) and
applies the moves of the trick phase. Under ``dk.misplay=penalize`` (``penalize=True``) an
illegal card or announcement is accepted and flagged in the move log instead of refused.

Pigs called in play (``dk.pigs``; Decision (ours) where the note is terse): the call is made on
one's own turn, and the next card must be the called one. ``two_on_play`` needs both trump-suit
aces and makes both the highest trumps for the rest of the round. The ``one_*`` rules let the
holder of both aces make one of them the highest trump for one trick, once per round (Ref):
``one_first`` while both are in hand, ``one_on_play`` while one of the pair is left, ``one_on_fox``
likewise once the caller's party has brought one of them home. A call that would force a revoke
is refused.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

from gamehall.rules._core import Event, IllegalAction, MalformedAction, NotYourTurn, WrongPhase, only
from gamehall.rules.doppelkopf.announcements import DENIALS, AnnouncementContext, next_label, refusal
from gamehall.rules.doppelkopf.cards import (
    EYES_OF_VALUE,
    NULL_SOLOS,
    SOLO_ORDER,
    Ranking,
    ranking_for,
    suit_of,
)
from gamehall.rules.doppelkopf.events import (
    Announced,
    Asked,
    ButtonsChanged,
    CardPlayed,
    GameTypeChanged,
    PhaseChanged,
    PigsCalled,
    TrickTaken,
    Turn,
    WeddingTrickDecided,
)
from gamehall.rules.doppelkopf.state import AnnouncementRecord, Move, Question, RoundState, TrickState
from gamehall.rules.doppelkopf.tricks import (
    PIG_STRENGTH,
    SUPERPIG_STRENGTH,
    TieRules,
    follows,
    legal_cards,
    trick_winner,
)

ON_PLAY_PIGS = ("two_on_play", "one_first", "one_on_play", "one_on_fox")
ONE_PIG_RULES = ("one_first", "one_on_play", "one_on_fox")
WISH_DIAMONDS = ("d9", "d10", "dk", "da")
"""The cards a wedding's ``diamonds`` wish asks for, all four of them in the trick."""
SHOWN_AS = {"silent_wedding": "normal", "ramsch_sw": "ramsch"}
"""Game types shown as another one (a silent wedding looks like a normal game)."""


_RANKINGS: dict[tuple[Any, ...], Ranking] = {}
"""Rankings by (game type, heart10, solo_shift_h10, joker) as the rules hold them: a plain
dict lookup per input instead of a keyword-argument cache call."""

ONLY = tuple(only(seat) for seat in range(4))
"""Each seat's private audience, made once (frozensets are immutable, so one per seat does)."""


@functools.lru_cache(maxsize=1024)
def buttons_event(seat: int, rebtn_lbl: str, pigbtn_lbl: str) -> ButtonsChanged:
    """The private buttons event, one shared instance per content: events are immutable, and
    a deal sends these after every trick and announcement, mostly with the same labels."""
    return ButtonsChanged(seat=seat, rebtn_lbl=rebtn_lbl, pigbtn_lbl=pigbtn_lbl, audience=ONLY[seat])


@functools.lru_cache(maxsize=1024)
def turn_event(current_trick: int, total_tricks: int, current_player: int) -> Turn:
    """The ``turn`` event, one shared (immutable) instance per content, as :func:`buttons_event`."""
    return Turn(current_trick=current_trick, total_tricks=total_tricks, current_player=current_player)


def black_sow_choices(rules: Mapping[str, Any]) -> list[str]:
    """The solos a black sow may turn into: ``dk.solos``, or the ♦ solo when that list is empty
    (Decision (ours): the round must go on)."""
    return [solo for solo in SOLO_ORDER if solo in rules["solos"]] or ["solo_diamonds"]


class Referee:
    """The rules of one deal, applied to its state."""

    __slots__ = ("_ranking", "rnd", "rules")

    def __init__(self, rnd: RoundState, rules: Mapping[str, Any]) -> None:
        self.rnd = rnd
        self.rules = rules
        self._ranking: Ranking | None = None

    # -- knowledge -----------------------------------------------------------------------------

    @property
    def penalize(self) -> bool:
        return bool(self.rules["misplay"] == "penalize")

    def ranking(self) -> Ranking:
        """The ranking of the deal's game type now (kept while the game type stays: a wedding
        can turn into a solo and a black sow into the solo its chooser names)."""
        known = self._ranking
        game_type = self.rnd.game_type
        if known is not None and known.game_type == game_type:
            return known
        rules = self.rules
        key = (game_type, rules["heart10"], rules["solo_shift_h10"], rules["joker"])
        known = _RANKINGS.get(key)
        if known is None:
            known = _RANKINGS[key] = ranking_for(
                game_type,
                heart10=bool(rules["heart10"]),
                shift_h10=bool(rules["solo_shift_h10"]),
                joker=str(rules["joker"]),
            )
        self._ranking = known
        return known

    def ties(self) -> TieRules:
        return TieRules(
            str(self.rules["heart10_prio"]),
            str(self.rules["heart10_lasttrick"]),
            str(self.rules["charlie_prio"]),
        )

    def value(self, card: str) -> str:
        return self.rnd.values[card]

    def values_of(self, cards: Iterable[str]) -> list[str]:
        return [self.rnd.values[c] for c in cards]

    def party_of(self, seat: int) -> str | None:
        """``re``/``kontra`` once parties are settled for this seat; None in an open wedding or
        a black sow before its solo is named."""
        if self.rnd.re_seats is None:
            return None
        return "re" if seat in self.rnd.re_seats else "kontra"

    def announced_by(self, party: str | None) -> list[str]:
        return [a.kind for a in self.rnd.announcements if a.party == party]

    def null_game(self) -> bool:
        return self.rnd.game_type in NULL_SOLOS

    def current_player(self) -> int | None:
        """The seat whose card is due: from the leader on, the first without a card down."""
        trick = self.rnd.trick
        if self.rnd.phase != "tricks" or trick is None or trick.complete():
            return None
        for seat in trick.in_seat_order():
            if trick.cards[seat] is None:
                return seat
        return None

    def paused(self) -> bool:
        """Play waits for a complaint verdict or a question (the black sow's solo)."""
        return self.rnd.complaint is not None or self.rnd.question is not None

    def led_card(self) -> str | None:
        trick = self.rnd.trick
        return None if trick is None else trick.cards[trick.leader]

    def legal_plays(self, seat: int) -> list[str]:
        """The cards ``seat`` may play now without any flag (empty when it is not due)."""
        if self.paused() or self.current_player() != seat:
            return []
        hand = self.rnd.hands[seat]
        obligation = self.rnd.pig_call[seat]
        if obligation:
            wanted = self._called_value(obligation)
            forced = [c for c in hand if self.value(c) == wanted]
            if forced:
                return forced
        trick = self.rnd.trick
        promoted = trick.promoted if trick else {}
        return legal_cards(
            hand, self.rnd.values, self.led_card(), self.ranking(), self._promotion_map(promoted)
        )

    def _promotion_map(self, promoted: Mapping[str, int]) -> dict[str, int]:
        result = dict(promoted)
        for card in self.rnd.pig_ids:
            result[card] = PIG_STRENGTH
        for card in self.rnd.superpig_ids:
            result[card] = SUPERPIG_STRENGTH
        return result

    def _called_value(self, call: str) -> str | None:
        ranking = self.ranking()
        if call == "pigs":
            return ranking.pig_value()
        return ranking.superpig_value(str(self.rules["without9"]))

    def announcement_context(
        self, seat: int, announced: Mapping[str, list[str]] | None = None
    ) -> AnnouncementContext:
        """What ``seat``'s announcements depend on; ``announced`` (party -> its announcements)
        saves working that out again when all four seats are asked in a row."""
        party = self.party_of(seat)
        other = None if party is None else ("kontra" if party == "re" else "re")
        if announced is None:
            announced = {p: self.announced_by(p) for p in (party, other) if p is not None}
        return AnnouncementContext(
            party=party,
            own=announced[party] if party else [],
            other=announced[other] if other else [],
            cards_in_hand=len(self.rnd.hands[seat]),
            tricks_total=self.rnd.tricks_total,
            clarification_trick=self.rnd.clarification,
            null_game=self.null_game(),
        )

    def buttons(
        self,
        seat: int,
        announced: Mapping[str, list[str]] | None = None,
        labels: dict[tuple[str | None, int], str] | None = None,
    ) -> ButtonsChanged:
        """The seat's private button labels (cg ``rebtn_lbl``, ``pigbtn_lbl``); ``announced``
        and ``labels`` are :meth:`all_buttons`' shared work."""
        if self.rnd.phase != "tricks":
            return buttons_event(seat, "none", "none")
        pig = "none"
        if not self.pig_calls_in_play():
            pass
        elif self.pig_refusal(seat, superpigs=False, own_turn=False) is None:
            pig = "pigs"
        elif self.pig_refusal(seat, superpigs=True, own_turn=False) is None:
            pig = "superpigs"
        key = (self.party_of(seat), len(self.rnd.hands[seat]))
        rebtn = None if labels is None else labels.get(key)
        if rebtn is None:
            rebtn = next_label(self.announcement_context(seat, announced))
            if labels is not None:
                labels[key] = rebtn
        return buttons_event(seat, rebtn, pig)

    def all_buttons(self) -> list[Event]:
        """Every seat's buttons (after each trick and announcement). The parties'
        announcements are listed once for the four, and a seat whose announcement label
        depends on the same things as an earlier seat's (its party, its hand size) gets that
        label without working it out again."""
        announced = {party: self.announced_by(party) for party in ("re", "kontra")}
        labels: dict[tuple[str | None, int], str] = {}
        return [self.buttons(seat, announced, labels) for seat in range(4)]

    def shown_type(self) -> str:
        return SHOWN_AS.get(self.rnd.game_type, self.rnd.game_type)

    # -- move log -------------------------------------------------------------------------------

    def log(self, seat: int, kind: str, data: str, flags: Iterable[str] = (), **extra: Any) -> Move:
        """Append a move to the round's log (ids count from 0 over all seats)."""
        move = Move(id=len(self.rnd.moves), seat=seat, kind=kind, data=data, flags=list(flags), **extra)
        self.rnd.moves.append(move)
        return move

    # -- starting play --------------------------------------------------------------------------

    def begin_play(self) -> list[Event]:
        """Settle the parties of a party game and lead the first trick."""
        rnd = self.rnd
        if rnd.game_type in ("normal", "ramsch"):
            holders = [seat for seat in range(4) if "cq" in self.values_of(rnd.hands[seat])]
            if len(holders) == 1:
                rnd.game_type = "silent_wedding" if rnd.game_type == "normal" else "ramsch_sw"
                rnd.soloist = holders[0]
            rnd.re_seats = holders
        rnd.phase = "tricks"
        leader = rnd.player_list[0]
        if self.rules["solist_begins"] and rnd.soloist is not None and rnd.game_type != "silent_wedding":
            leader = rnd.soloist
        rnd.trick = TrickState(number=1, leader=leader)
        shown_soloist = None if rnd.game_type in SHOWN_AS else rnd.soloist
        # The private button labels come first, as in the note's golden transcript (§5.1).
        events = self.all_buttons()
        events.append(PhaseChanged(phase="tricks", game_type=self.shown_type(), soloist=shown_soloist))
        events.append(self.turn_event())
        return events

    def turn_event(self) -> Turn:
        trick = self.rnd.trick
        assert trick is not None
        current = self.current_player()
        return turn_event(trick.number, self.rnd.tricks_total, trick.leader if current is None else current)

    # -- announcements --------------------------------------------------------------------------

    def announce(self, seat: int, kind: str) -> list[Event]:
        """Re, kontra or a denial (any time during ``tricks``, within the deadlines)."""
        if self.rnd.phase != "tricks" or self.paused():
            raise WrongPhase("Announcements are made during the tricks.", code="pc_wrong_phase")
        if kind not in ("re", "kontra", *DENIALS):
            raise MalformedAction(f"There is no {kind!r} announcement.")
        ctx = self.announcement_context(seat)
        problem = refusal(kind, ctx)
        party = ctx.party
        if problem is not None:
            if not self.penalize:
                raise IllegalAction(f"{kind} may not be announced now.", code=problem, kind=kind)
            self.log(seat, "announcement", self._announce_data(kind, party), ["wrong_announcement"])
            return [Announced(seat=seat, kind=kind, party=party, legal=False)]
        assert party is not None
        self.rnd.announcements.append(AnnouncementRecord(seat=seat, kind=kind, party=party))
        self.log(seat, "announcement", self._announce_data(kind, party))
        return [Announced(seat=seat, kind=kind, party=party), *self.all_buttons()]

    @staticmethod
    def _announce_data(kind: str, party: str | None) -> str:
        return kind if kind in ("re", "kontra") else f"{kind}_{party or 'none'}"

    # -- pigs -----------------------------------------------------------------------------------

    def pig_calls_in_play(self) -> bool:
        """Whether the rules let anyone call pigs or superpigs during the tricks at all (the
        default rules do not: then every pig button says ``none`` without asking further)."""
        return self.rules["pigs"] in ON_PLAY_PIGS or self.rules["superpigs"] in ("on_pig", "on_play")

    def pig_refusal(self, seat: int, *, superpigs: bool, own_turn: bool = True) -> str | None:
        """Why ``seat`` may not call (super)pigs now, or None."""
        rnd = self.rnd
        if own_turn and (self.current_player() != seat or self.paused()):
            return "pc_wrong_turn"
        if superpigs:
            return self._superpig_refusal(seat)
        rule = str(self.rules["pigs"])
        if rule not in ON_PLAY_PIGS:
            return "invalid_pigs"
        pig = self.ranking().pig_value()
        if pig is None or rnd.game_type in ("black_sow",):
            return "invalid_pigs_game"
        in_hand = [c for c in rnd.hands[seat] if self.value(c) == pig]
        if rnd.pig_ids or rnd.pig_called_by or not self._may_play_now(seat, in_hand):
            return "invalid_pigs"
        if rule == "two_on_play":
            return None if len(in_hand) == 2 else "invalid_pigs"
        # one_*: the holder of both pigs makes one of them the highest trump for one trick, once
        # per round (Ref): one_first while both are still in hand, one_on_play and one_on_fox
        # while one of the pair the holder started play with is left.
        if rule == "one_first":
            return None if len(in_hand) == 2 else "invalid_pigs"
        started_with = [c for c in self._hand_at_play(seat) if self.value(c) == pig]
        if len(started_with) != 2:
            return "invalid_pigs"
        if rule == "one_on_fox" and not self.brought_fox_home(seat):
            return "invalid_pigs"
        return None

    def _hand_at_play(self, seat: int) -> list[str]:
        """The cards ``seat`` held when play began (after any poverty exchange)."""
        played = [m.card for m in self.rnd.moves if m.kind == "card" and m.seat == seat]
        return [*self.rnd.hands[seat], *played]

    def _superpig_refusal(self, seat: int) -> str | None:
        rule = str(self.rules["superpigs"])
        if rule == "None":
            return "invalid_superpigs_game"
        superpig = self.ranking().superpig_value(str(self.rules["without9"]))
        if superpig is None:
            return "invalid_superpigs_game"
        if rule == "reservation":
            return "invalid_superpigs_call"
        if not (self.rnd.pig_ids or self.rnd.pig_called_by):  # superpigs only after pigs (Ref)
            return "invalid_superpigs_call"
        if rule == "on_pig" and "pigs" not in [m.data for m in self.rnd.moves[-2:]]:
            return "invalid_superpigs_call"  # right after the pig call: within its next move (Ref)
        in_hand = [c for c in self.rnd.hands[seat] if self.value(c) == superpig]
        if self.rnd.superpig_ids or len(in_hand) != 2 or not self._may_play_now(seat, in_hand):
            return "invalid_superpigs"
        return None

    def _may_play_now(self, seat: int, cards: list[str]) -> bool:
        """Whether the called card could follow suit now (Decision (ours): a call that would
        force a revoke is refused)."""
        led = self.led_card()
        if not cards or led is None:
            return bool(cards)
        trick = self.rnd.trick
        promoted = self._promotion_map(trick.promoted if trick else {})
        return follows(cards[0], self.rnd.hands[seat], self.rnd.values, led, self.ranking(), promoted)

    def brought_fox_home(self, seat: int) -> bool:
        """Whether ``seat``'s party has won a finished trick holding a trump-suit ace: a fox
        "brought home" (Ref; with ``one_on_fox`` both are the caller's own)."""
        party = self.party_of(seat)
        fox = self.ranking().pig_value()
        if party is None or fox is None:
            return False
        for trick in self.rnd.tricks:
            assert trick.winner is not None
            if self.party_of(trick.winner) == party and any(
                card is not None and self.value(card) == fox for card in trick.cards
            ):
                return True
        return False

    def call_pigs(self, seat: int, superpigs: bool) -> list[Event]:
        """``announce pigs`` / ``superpigs`` on one's own turn (always refused when illegal)."""
        if self.rnd.phase != "tricks":
            raise WrongPhase("Pigs are called during the tricks.", code="pc_wrong_phase")
        problem = self.pig_refusal(seat, superpigs=superpigs)
        if problem == "pc_wrong_turn":
            raise NotYourTurn("Pigs are called on your own turn.", code=problem)
        if problem is not None:
            raise IllegalAction("You may not call that now.", code=problem)
        kind = "superpigs" if superpigs else "pigs"
        wanted = self._called_value(kind)
        mine = [c for c in self.rnd.hands[seat] if self.value(c) == wanted]
        if superpigs:
            self.rnd.superpig_ids = mine
        elif self.rules["pigs"] == "two_on_play":
            self.rnd.pig_ids = mine
        if not superpigs:
            self.rnd.pig_called_by.append(seat)
        self.rnd.pig_call[seat] = kind
        self.log(seat, "announcement", kind)
        return [PigsCalled(seat=seat, kind=kind), *self.all_buttons()]

    # -- cards ----------------------------------------------------------------------------------

    def play_card(self, seat: int, card: str) -> list[Event]:
        """Play ``card`` from ``seat``'s hand: on turn, or early under ``penalize``."""
        rnd = self.rnd
        if rnd.phase != "tricks" or self.paused():
            raise WrongPhase("No card can be played now.", code="pc_wrong_phase")
        trick = rnd.trick
        assert trick is not None
        hand = rnd.hands[seat]
        if card not in hand:
            raise IllegalAction("That card is not in your hand.", code="not_in_hand", card=card)
        current = self.current_player()
        early = seat != current
        if early and not (self.penalize and trick.cards[seat] is None):
            raise NotYourTurn("It is not your turn.", code="pc_wrong_turn")
        flags: list[str] = []
        one_pig = False
        obligation = rnd.pig_call[seat]
        if obligation:
            if self.value(card) != self._called_value(obligation):
                code = "pc_called_pigs" if obligation == "pigs" else "pc_called_superpigs"
                if not self.penalize:
                    raise IllegalAction("You called pigs: play the called card.", code=code)
                flags.append("wrong_card")
            else:
                one_pig = obligation == "pigs" and self.rules["pigs"] in ONE_PIG_RULES
        led = self.led_card()
        promotions = self._promotion_map(trick.promoted)
        if one_pig:
            promotions[card] = PIG_STRENGTH
        if led is not None and not follows(card, hand, rnd.values, led, self.ranking(), promotions):
            if not self.penalize:
                raise IllegalAction("You must follow suit.", code="pc_wrong_card", card=card)
            if "wrong_card" not in flags:
                flags.append("wrong_card")
        if early:
            flags.append("early")
        rnd.pig_call[seat] = ""
        hand_then = list(hand) if early and led is None else []
        hand.remove(card)
        trick.cards[seat] = card
        trick.order.append(seat)
        if card in rnd.pig_ids or one_pig:
            trick.promoted[card] = PIG_STRENGTH
        if card in rnd.superpig_ids:
            trick.promoted[card] = SUPERPIG_STRENGTH
        self.log(seat, "card", self.value(card), flags, trick=trick.number, card=card, hand=hand_then)
        events: list[Event] = [CardPlayed(seat=seat, card=card, value=self.value(card), early=early)]
        if seat == trick.leader and self.penalize:  # early cards exist only under penalize
            self._check_early_revokes(trick)
        if trick.complete():
            events += self._close_trick(trick)
        else:
            events.append(self.turn_event())
        return events

    def _check_early_revokes(self, trick: TrickState) -> None:
        """Once the led card is known, judge the cards played before it."""
        led = trick.cards[trick.leader]
        assert led is not None
        promotions = self._promotion_map(trick.promoted)
        for move in self.rnd.moves:
            if (
                move.kind != "card"
                or move.trick != trick.number
                or not move.hand
                or "wrong_card" in move.flags
            ):
                continue
            if not follows(move.card, move.hand, self.rnd.values, led, self.ranking(), promotions):
                move.flags.append("wrong_card")

    def _close_trick(self, trick: TrickState) -> list[Event]:
        rnd = self.rnd
        order = trick.in_seat_order()
        cards = [trick.cards[seat] for seat in order]
        assert all(c is not None for c in cards)
        in_order = [c for c in cards if c is not None]
        last = trick.number == rnd.tricks_total
        index = trick_winner(
            in_order,
            rnd.values,
            self.ranking(),
            last_trick=last,
            ties=self.ties(),
            promoted=self._promotion_map(trick.promoted),
        )
        winner = order[index]
        trick.winner = winner
        rnd.tricks.append(trick)
        rnd.trick = None
        trick_eyes = sum(EYES_OF_VALUE[self.value(c)] for c in in_order)
        events: list[Event] = [
            TrickTaken(
                trick=trick.number,
                winner=winner,
                cards=tuple(in_order),
                eyes=trick_eyes,
                winner_eyes=self.eyes_of_seat(winner),
            )
        ]
        events += self._after_trick(trick)
        if last:
            if rnd.question is None:
                rnd.phase = "counting"
            return events
        rnd.trick = TrickState(number=trick.number + 1, leader=winner)
        if rnd.question is None:
            events += self.all_buttons()
            events.append(self.turn_event())
        return events

    def eyes_of_seat(self, seat: int) -> int:
        """The eyes of every trick ``seat`` has taken so far."""
        values = self.rnd.values
        return sum(
            EYES_OF_VALUE[values[c]]
            for t in self.rnd.tricks
            if t.winner == seat
            for c in t.cards
            if c is not None
        )

    # -- wedding and black sow ------------------------------------------------------------------

    def _after_trick(self, trick: TrickState) -> list[Event]:
        rnd = self.rnd
        if rnd.game_type == "wedding" and rnd.re_seats is None:
            return self._clarify_wedding(trick)
        if rnd.game_type == "black_sow" and rnd.black_sow_chooser is None:
            played = [self.value(c) for t in rnd.tricks for c in t.cards if c is not None]
            in_trick = [self.value(c) for c in trick.cards if c is not None]
            if played.count("sq") == 2 and "sq" in in_trick:
                assert trick.winner is not None
                rnd.black_sow_chooser = trick.winner
                rnd.question = Question("black_sow_solo", trick.winner)
                return [Asked(kind="black_sow_solo", target=trick.winner, audience=only(trick.winner))]
        return []

    def _clarify_wedding(self, trick: TrickState) -> list[Event]:
        rnd = self.rnd
        assert rnd.bride is not None and trick.winner is not None
        if trick.winner != rnd.bride and self._meets_wish(trick):
            rnd.re_seats = [rnd.bride, trick.winner]
            rnd.clarification = trick.number
            return [
                WeddingTrickDecided(trick=trick.number, partner=trick.winner),
                GameTypeChanged(game_type="wedding", soloist=None, re_seats=tuple(rnd.re_seats)),
            ]
        if trick.number >= min(3, rnd.tricks_total):
            rnd.game_type = "solo_diamonds"
            rnd.soloist = rnd.bride
            rnd.re_seats = [rnd.bride]
            rnd.clarification = trick.number
            return [
                WeddingTrickDecided(trick=trick.number, partner=None),
                GameTypeChanged(game_type="solo_diamonds", soloist=rnd.bride, re_seats=(rnd.bride,)),
            ]
        return []

    def _meets_wish(self, trick: TrickState) -> bool:
        """Whether a trick fulfils the bride's clarification condition (``dk.wedding``)."""
        wish = self.rnd.wedding_wish if self.rules["wedding"] == "wish_trick" else "foreign"
        ranking = self.ranking()
        assert trick.winner is not None
        led = trick.cards[trick.leader]
        winning = trick.cards[trick.winner]
        assert led is not None and winning is not None
        if wish == "foreign":
            return True
        if wish == "trump":
            return ranking.is_trump(self.value(led))
        if wish == "miss":
            return not ranking.is_trump(self.value(winning))
        if wish in ("hearts", "spades", "clubs"):
            value = self.value(winning)
            return not ranking.is_trump(value) and suit_of(value) == wish[0]
        # "diamonds": every card a ♦9/♦10/♦K/♦A, no ♦J/♦Q (Ref's reading; ♦ are trumps in a
        # wedding, so "four plain ♦" could never be met).
        return all(c is not None and self.value(c) in WISH_DIAMONDS for c in trick.cards)

    def name_black_sow_solo(self, seat: int, solo: str) -> list[Event]:
        """The winner of the second ♠Q names the solo for the rest of the round."""
        rnd = self.rnd
        if rnd.question is None or rnd.question.kind != "black_sow_solo" or rnd.question.seat != seat:
            raise WrongPhase("Nobody asked you for a solo.", code="pc_wrong_phase")
        if solo not in black_sow_choices(self.rules):
            raise IllegalAction(f"{solo} is not played at this table.", code="invalid_solo", solo=solo)
        rnd.question = None
        rnd.game_type = solo
        rnd.soloist = seat
        rnd.re_seats = [seat]
        rnd.clarification = len(rnd.tricks)
        self.log(seat, "announcement", f"black_sow_{solo}")
        events: list[Event] = [GameTypeChanged(game_type=solo, soloist=seat, re_seats=(seat,))]
        if len(rnd.tricks) == rnd.tricks_total:
            rnd.phase = "counting"
            return events
        events += self.all_buttons()
        events.append(self.turn_event())
        return events

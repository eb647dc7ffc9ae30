"""The Doppelkopf table: four seats, a session of deals, and the Game contract (note §5, §6).

The table starts when its fourth seat is taken. Each deal rotates the player order left by one
(``player_list`` = seats rotated by (round - 1) mod 4; index 0 leads the first trick); a void
deal is replayed with the same round number. After each deal the seats vote in phase ``end``:
``continue`` (the next deal), ``end``, ``adjourn``; ``cancel`` is open at any time. A vote
passes when every present seat says yes.

An illegal action changes nothing, and no input copies the state to make sure of it: every
handler checks every rule before its first change (as python-chess validates a move before
pushing it), so a refusal leaves the table exactly as it was. Nothing that runs after a first
change raises a :class:`RuleError` (the follow-ups: the next question, the deal's scoring, a
verdict's penalty, a new deal); ``tests/rules/doppelkopf/test_dk_refusals.py`` checks this for
every action type at random points of random games. One timer runs at a time, keyed by the
decision it waits for; when it fires, the default move of whoever is waited for is
applied (a legal card, ``reservation_no`` = healthy, ``ready``, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gamehall.rules._core import (
    JSON,
    Action,
    Event,
    GameInProgress,
    MalformedAction,
    NotYourTurn,
    Outcome,
    Rng,
    Seat,
    SeatAway,
    SeatBack,
    SeatJoined,
    SeatLeft,
    SeatRenamed,
    TableFull,
    Termination,
    Timer,
    ToMove,
    WrongPhase,
    only,
)
from gamehall.rules.doppelkopf import complaints, reservations
from gamehall.rules.doppelkopf.actions import (
    AccusationVote,
    Accuse,
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
    WeddingClarification,
)
from gamehall.rules.doppelkopf.cards import card_id_key, deal, tricks_per_round
from gamehall.rules.doppelkopf.complaints import Judgement
from gamehall.rules.doppelkopf.defaults import default_action, legal_actions
from gamehall.rules.doppelkopf.events import (
    Asked,
    CardsRevealed,
    GameEnded,
    GameStarted,
    HandDealt,
    HandShown,
    MovesListed,
    PhaseChanged,
    RoundStarted,
    VoteCast,
)
from gamehall.rules.doppelkopf.play import Referee
from gamehall.rules.doppelkopf.resume import apply_resume, carry_over, parse_resume
from gamehall.rules.doppelkopf.session import abort_round, finish_round, punish, void_round
from gamehall.rules.doppelkopf.settings import check_config, effective_rules
from gamehall.rules.doppelkopf.state import BuckState, RoundState, TableState, dump, load
from gamehall.rules.doppelkopf.views import CardPlace, card_places, table_view

TERMINATIONS = {
    "end": Termination.NORMAL,
    "cancel": Termination.ABORTED,
    "adjourn": Termination.ABORTED,
    "penalty_abort": Termination.RULE_VIOLATION,
    "left": Termination.LEFT,
}
END_VOTES = ("continue", "adjourn", "end")
DEAL_MOVES: dict[type[Action], Callable[[Referee, Seat, Any], list[Event]]] = {
    PlayCard: lambda ref, seat, a: ref.play_card(seat, a.card),
    Announce: lambda ref, seat, a: ref.announce(seat, a.kind),
    CallPigs: lambda ref, seat, a: ref.call_pigs(seat, a.superpigs),
    Ready: lambda ref, seat, a: reservations.ready(ref, seat),
    Throw: lambda ref, seat, a: reservations.throw(ref, seat),
    Answer: lambda ref, seat, a: reservations.answer(ref, seat, a.question, a.yes),
    AnswerSolo: lambda ref, seat, a: reservations.answer_solo(ref, seat, a.solo),
    PassCards: lambda ref, seat, a: reservations.pass_cards(ref, seat, a.cards),
    PovertyAccept: lambda ref, seat, a: reservations.poverty_accept(ref, seat),
    PovertyDecline: lambda ref, seat, a: reservations.poverty_decline(ref, seat),
    ReturnCards: lambda ref, seat, a: reservations.return_cards(ref, seat, a.cards),
    PovertyReturn: lambda ref, seat, a: reservations.poverty_return(ref, seat, a.amount),
    WeddingClarification: lambda ref, seat, a: reservations.wedding_clarification(ref, seat, a.trick),
    BlackSowSolo: lambda ref, seat, a: ref.name_black_sow_solo(seat, a.solo),
}
"""The moves of a deal (everything but votes and complaints) by action type: one dict lookup
instead of a chain of ``isinstance`` tests on every input (cards, the most frequent, came
last). Each handler checks every rule before it changes anything."""
ACCUSATION_KINDS = ("wrong_card", "wrong_announcement", "played_early", "external")


class DoppelkopfTable:
    """One Doppelkopf table (implements :class:`gamehall.rules._core.Game`)."""

    def __init__(self, config: Mapping[str, JSON], seed: int) -> None:
        rules = effective_rules(check_config(config))
        self.s = TableState(config=rules, seed=seed, buck=BuckState(mode=str(rules["buck_round"])))

    # -- save and load --------------------------------------------------------------------------

    def carry_over(self) -> str:
        """What a new table needs to continue this game (the ``resume`` setting, JSON text)."""
        return carry_over(self.s)

    def to_json(self) -> dict[str, JSON]:
        """The whole state as JSON; :meth:`from_json` restores it exactly."""
        return dump(self.s)

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> DoppelkopfTable:
        table = cls.__new__(cls)
        table.s = load(data)
        return table

    # -- helpers ----------------------------------------------------------------------------------

    @property
    def rules(self) -> dict[str, Any]:
        return self.s.config

    @property
    def round(self) -> RoundState:
        if self.s.round is None:
            raise WrongPhase("No deal is running.", code="pc_wrong_phase")
        return self.s.round

    def referee(self) -> Referee:
        return Referee(self.round, self.rules)

    # -- membership -----------------------------------------------------------------------------

    def seat_join(self, name: str) -> tuple[Seat, list[Event]]:
        if self.s.started:
            raise GameInProgress("The game has started.")
        free = [seat for seat in range(4) if self.s.names[seat] is None]
        if not free:
            raise TableFull("The table is full.")
        seat = free[0]
        self.s.names[seat] = name
        self.s.present[seat] = True
        events: list[Event] = [SeatJoined(seat=seat, name=name)]
        if len(free) == 1:
            events += self.start()
        return seat, events

    def seat_away(self, seat: Seat) -> list[Event]:
        self.s.present[seat] = False
        return [SeatAway(seat=seat, name=self.s.names[seat] or "")]

    def seat_back(self, seat: Seat) -> list[Event]:
        self.s.present[seat] = True
        return [SeatBack(seat=seat, name=self.s.names[seat] or "")]

    def seat_leave(self, seat: Seat) -> list[Event]:
        name = self.s.names[seat] or ""
        events: list[Event] = [SeatLeft(seat=seat, name=name)]
        self.s.present[seat] = False
        if not self.s.started:
            self.s.names[seat] = None
        elif not self.finished:
            events += self._end_game("left")
        return events

    def resync(self, seat: Seat) -> list[Event]:
        """What ``seat`` alone must see again: its hand, buttons, pending question, the poverty
        cards it may see and a complaint's move list. Changes nothing."""
        rnd = self.s.round
        if rnd is None or self.finished:
            return []
        ref = self.referee()
        me = only(seat)
        events: list[Event] = [
            HandShown(seat=seat, cards=tuple((c, rnd.values[c]) for c in rnd.hands[seat]), audience=me)
        ]
        if rnd.phase == "tricks":
            events.append(ref.buttons(seat))
        if rnd.question is not None and rnd.question.seat == seat:
            events.append(Asked(kind=rnd.question.kind, target=seat, audience=me))
        poverty = rnd.poverty
        if poverty is not None and poverty.passed:
            candidate = poverty.candidates[0] if poverty.candidates else None
            if seat in (poverty.poor, poverty.taker) or (
                seat == candidate and self.rules["poverty"] != "sell"
            ):
                shown = tuple((c, rnd.values[c]) for c in poverty.passed + poverty.returned)
                events.append(CardsRevealed(cards=shown, audience=me))
        complaint = rnd.complaint
        if complaint is not None:
            if seat == complaint.accuser and complaint.listed:
                moves = tuple((m.id, m.kind, m.data) for m in rnd.moves if m.id in complaint.listed)
                events.append(
                    MovesListed(accused=complaint.accused, kind=complaint.kind, moves=moves, audience=me)
                )
            if seat in complaint.voters and str(seat) not in complaint.votes:
                events.append(Asked(kind="accusation_vote", target=seat, audience=me))
        return events

    def seat_rename(self, seat: Seat, name: str) -> list[Event]:
        old = self.s.names[seat] or ""
        self.s.names[seat] = name
        return [SeatRenamed(seat=seat, old=old, new=name)]

    def seat_names(self) -> Mapping[Seat, str]:
        return {seat: name for seat, name in enumerate(self.s.names) if name is not None}

    def start(self) -> list[Event]:
        if self.s.started:
            raise WrongPhase("The game has started already.")
        if any(name is None for name in self.s.names):
            raise WrongPhase("Doppelkopf needs four players.", code="not_enough_players")
        self.s.started = True
        events: list[Event] = [GameStarted(names=tuple(n or "" for n in self.s.names))]
        first = 1
        resume = parse_resume(str(self.rules.get("resume", "")))
        if resume is not None:  # a loaded game goes on from its carried-over record
            first = apply_resume(self.s, resume)
        return events + self._new_deal(next_number=first)

    @property
    def started(self) -> bool:
        return self.s.started

    @property
    def finished(self) -> bool:
        return self.s.end_reason is not None

    # -- deals ----------------------------------------------------------------------------------

    def _new_deal(self, next_number: int) -> list[Event]:
        s, rules = self.s, self.rules
        s.round_number = next_number
        s.deal_count += 1
        s.votes = {}
        player_list = [(next_number - 1 + i) % 4 for i in range(4)]
        dealt = deal(
            Rng(s.seed * 1_000_003 + s.deal_count),
            str(rules["without9"]),
            str(rules["joker"]),
            id_key=card_id_key(s.seed),
            deal_no=s.deal_count,
        )
        hands: list[list[str]] = [[], [], [], []]
        for index, seat in enumerate(player_list):
            hands[seat] = list(dealt.hands[index])
        s.round = RoundState(
            number=next_number,
            player_list=player_list,
            values=dict(dealt.values),
            stack=list(dealt.stack),
            hands=hands,
            dealt=[list(h) for h in hands],
            tricks_total=tricks_per_round(str(rules["without9"])),
        )
        events: list[Event] = [
            RoundStarted(round=next_number, player_list=tuple(player_list), stack=tuple(dealt.stack))
        ]
        for seat in player_list:
            events.append(HandDealt(seat=seat, cards=tuple(hands[seat])))
        for seat in player_list:
            audience = None if rules["open_cards"] else frozenset({seat})
            shown = tuple((c, dealt.values[c]) for c in hands[seat])
            events.append(HandShown(seat=seat, cards=shown, audience=audience))
        events.append(PhaseChanged(phase="w_for_ready"))
        return events

    def _settle(self) -> list[Event]:
        """Finish a deal that reached its end (all tricks, or void)."""
        rnd = self.s.round
        if rnd is None:
            return []
        if rnd.phase == "counting":
            return finish_round(self.s, self.referee())
        if rnd.phase == "void":
            return void_round(self.s, self.referee())
        return []

    def _end_game(self, reason: str) -> list[Event]:
        self.s.end_reason = reason
        return [GameEnded(reason=reason, points=tuple(self.s.points))]

    # -- actions --------------------------------------------------------------------------------

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        if not self.s.started or self.finished:
            raise WrongPhase("The game is not running.", code="pc_wrong_phase")
        if not 0 <= seat < 4 or self.s.names[seat] is None:
            raise NotYourTurn("You have no seat at this table.", code="no_seat")
        events = self._dispatch(seat, action)
        return events + self._settle()

    def _dispatch(self, seat: Seat, action: Action) -> list[Event]:
        if isinstance(action, Vote):
            return self._vote(seat, action.kind, action.yes)
        if isinstance(action, (Accuse, PickMove, CancelAccusation, AccusationVote)):
            return self._complaint(seat, action)
        ref = self.referee()
        if ref.rnd.complaint is not None:
            raise WrongPhase("Play waits for the verdict.", code="pc_wrong_phase")
        handler = DEAL_MOVES.get(type(action))
        if handler is None:
            raise MalformedAction(f"Unknown action {type(action).__name__}.")
        return handler(ref, seat, action)

    def _complaint(self, seat: Seat, action: Action) -> list[Event]:
        ref = self.referee()
        events: list[Event] = []
        judgement: Judgement | None
        if isinstance(action, Accuse):
            if action.kind not in ACCUSATION_KINDS:
                raise MalformedAction(f"There is no {action.kind!r} accusation.")
            events, judgement = complaints.open_complaint(ref, seat, action.accused, action.kind)
        elif isinstance(action, PickMove):
            judgement = complaints.pick_move(ref, seat, action.move_id)
        elif isinstance(action, CancelAccusation):
            judgement = complaints.cancel(ref, seat)
        else:
            assert isinstance(action, AccusationVote)
            events, judgement = complaints.vote(ref, seat, action.yes)
        if judgement is not None:
            events += self._apply_verdict(ref, judgement)
        return events

    def _apply_verdict(self, ref: Referee, judgement: Judgement) -> list[Event]:
        events = punish(self.s, ref, judgement)
        if judgement.verdict != "guilty":
            return events
        abort = self.rules["penalty_abort"]
        if abort == "round" and ref.rnd.phase != "end":
            events += abort_round(self.s, ref)
        elif abort == "game":
            events += self._end_game("penalty_abort")
        return events

    # -- votes ----------------------------------------------------------------------------------

    def _vote(self, seat: Seat, kind: str, yes: bool) -> list[Event]:
        if kind not in (*END_VOTES, "cancel"):
            raise MalformedAction(f"There is no {kind!r} vote.")
        if kind in END_VOTES and (self.round.phase != "end" or self.round.complaint is not None):
            raise WrongPhase(
                "That vote is held after a round, with no accusation pending.", code="pc_wrong_phase"
            )
        ballots = self.s.votes.setdefault(kind, {})
        events: list[Event] = [VoteCast(seat=seat, kind=kind, yes=yes)]
        if not yes:
            self.s.votes.pop(kind, None)
            return events
        ballots[str(seat)] = True
        voters = [s for s in range(4) if self.s.present[s]] or list(range(4))
        if all(str(s) in ballots for s in voters):
            events += self._vote_passed(kind)
        return events

    def _vote_passed(self, kind: str) -> list[Event]:
        if kind == "continue":
            rnd = self.round
            void = rnd.void_type is not None
            return self._new_deal(rnd.number if void else rnd.number + 1)
        return self._end_game(kind)

    # -- time -----------------------------------------------------------------------------------

    def _waiting_for(self) -> tuple[str, float] | None:
        """The key of what the single timer waits for now, and its length.

        The key names the awaited decision (the deal, the move count, the seat), so the timer
        restarts when that decision changes and keeps running across unrelated inputs."""
        if not self.s.started or self.finished or self.s.round is None:
            return None
        rnd, rules = self.s.round, self.rules
        deal_no, moves = self.s.deal_count, len(rnd.moves)
        turn = float(rules["turn_timeout_s"])
        if rnd.complaint is not None:
            if rnd.complaint.kind == "external":
                return f"accusation_vote:{deal_no}:{moves}", float(rules["vote_timeout_s"])
            return f"complaint:{deal_no}:{moves}", float(rules["complaint_timeout_s"])
        if rnd.phase == "end":
            return f"vote:{deal_no}", float(rules["vote_timeout_s"])
        if rnd.phase == "w_for_ready":
            return f"ready:{deal_no}", turn
        if rnd.question is not None:
            question = rnd.question
            return f"question:{deal_no}:{moves}:{question.kind}:{question.seat}", turn
        current = self.referee().current_player()
        if rnd.phase == "tricks" and current is not None:
            cards = sum(1 for m in rnd.moves if m.kind == "card")
            return f"card:{deal_no}:{cards}:{current}", turn
        return None

    def pending_timers(self) -> Sequence[Timer]:
        waiting = self._waiting_for()
        if waiting is None:
            return []
        key, seconds = waiting
        return [Timer(key, seconds)]

    def on_timeout(self, key: str) -> list[Event]:
        timers = self.pending_timers()
        if not timers or timers[0].key != key:
            raise WrongPhase("That timer is stale.", code="stale_timer")
        events = self._default_moves()
        return events + self._settle()

    def _default_moves(self) -> list[Event]:
        """The documented default of every seat waited for. Each is one of that seat's legal
        actions at the time it is applied, so none is refused and none needs a rollback."""
        ref = self.referee()
        rnd = ref.rnd
        if rnd.complaint is not None:
            return self._apply_verdict(ref, complaints.time_out(ref))
        if rnd.phase == "end":
            return self._vote_passed("continue")
        events: list[Event] = []
        for seat in sorted(self.to_move().seats):
            action = default_action(ref, seat)
            if action is not None:
                events += self._dispatch(seat, action)
        return events

    # -- the contract's queries -----------------------------------------------------------------

    def to_move(self) -> ToMove:
        if not self.s.started or self.finished or self.s.round is None:
            return ToMove(frozenset(), "wait")
        rnd = self.s.round
        if rnd.complaint is not None:
            complaint = rnd.complaint
            if complaint.kind == "external":
                waiting = [v for v in complaint.voters if str(v) not in complaint.votes]
                return ToMove(frozenset(waiting), "accusation_vote")
            return ToMove(frozenset({complaint.accuser}), "pick_move")
        if rnd.phase == "w_for_ready":
            return ToMove(frozenset(s for s in range(4) if not rnd.ready[s]), "ready")
        if rnd.phase == "end":
            ballots = self.s.votes.get("continue", {})
            return ToMove(frozenset(s for s in range(4) if str(s) not in ballots), "vote")
        if rnd.question is not None:
            return ToMove(frozenset({rnd.question.seat}), rnd.question.kind)
        current = self.referee().current_player()
        return ToMove(frozenset() if current is None else frozenset({current}), "play_card")

    def legal_actions(self, seat: Seat) -> list[Action]:
        """Every action ``seat`` may take now without a flag (for bots, tests and counts)."""
        if not self.s.started or self.finished or self.s.round is None:
            return []
        return legal_actions(self.referee(), seat, self.s.votes)

    def outcome(self) -> Outcome | None:
        if self.s.end_reason is None:
            return None
        best = max(self.s.points)
        return Outcome(
            scores={seat: self.s.points[seat] for seat in range(4)},
            winners=frozenset(seat for seat in range(4) if self.s.points[seat] == best),
            termination=TERMINATIONS[self.s.end_reason],
            names={seat: name or "" for seat, name in enumerate(self.s.names)},
        )

    def view(self, seat: Seat | None) -> dict[str, JSON]:
        return table_view(self.s, seat, self.to_move())

    def card_places(self, seat: Seat | None) -> list[CardPlace]:
        """Where every card of the deal lies, as ``seat`` may know it (:func:`.views.card_places`)."""
        return card_places(self.s, seat)


def new_game(config: Mapping[str, JSON], seed: int) -> DoppelkopfTable:
    return DoppelkopfTable(config, seed)

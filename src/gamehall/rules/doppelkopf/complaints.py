"""Complaints: denouncing a wrong move (seed ``cg:game.dk.complaint``, note §7.3).

Only with ``dk.misplay=penalize``. An accusation names the accused and a type:

* ``wrong_card`` / ``wrong_announcement``: the accuser alone gets every move of the accused
  this round and picks one. Guilty <=> that move is flagged for this type and was not punished.
* ``played_early``: decided at once: guilty <=> the accused's most recent card is flagged
  ``early`` and was not punished.
* ``external`` (a misdeed in chat): the two other seats vote; guilty <=> both say yes (3 of 4).

A wrong or cancelled accusation punishes the accuser. This module decides; the engine applies
the points and ``dk.penalty_abort``.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamehall.rules._core import Event, IllegalAction, NotYourTurn, WrongPhase, only
from gamehall.rules.doppelkopf.events import Accused, Asked, MovesListed, VoteCast
from gamehall.rules.doppelkopf.play import Referee
from gamehall.rules.doppelkopf.state import Complaint, Move

FLAG_FOR = {
    "wrong_card": ("card", "wrong_card"),
    "wrong_announcement": ("announcement", "wrong_announcement"),
}
"""Accusation type -> (move kind, flag) a guilty pick must have."""

OPEN_PHASES = ("reservations", "tricks", "end")


@dataclass(frozen=True, slots=True)
class Judgement:
    """A decided complaint: ``verdict`` is guilty, wrong or cancelled."""

    accuser: int
    accused: int
    kind: str
    verdict: str
    move: Move | None

    @property
    def punished(self) -> int:
        return self.accused if self.verdict == "guilty" else self.accuser


def _describe(move: Move) -> tuple[int, str, str]:
    return move.id, move.kind, move.data


def open_complaint(
    ref: Referee, accuser: int, accused: int, kind: str
) -> tuple[list[Event], Judgement | None]:
    """Accept an accusation; ``played_early`` is judged at once."""
    rnd = ref.rnd
    if not ref.penalize:
        raise IllegalAction("Complaints are off at this table.", code="complaint.disabled")
    if rnd.complaint is not None:
        raise IllegalAction("Another accusation is pending.", code="complaint.busy")
    if rnd.phase not in OPEN_PHASES or accused == accuser or not 0 <= accused < 4:
        raise IllegalAction("That accusation cannot be made.", code="complaint.invalid")
    ref.log(accuser, "accusation", kind)
    events: list[Event] = [Accused(accuser=accuser, accused=accused, kind=kind)]
    if kind == "played_early":
        cards = [m for m in rnd.moves if m.kind == "card" and m.seat == accused]
        last = cards[-1] if cards else None
        guilty = last is not None and "early" in last.flags and not last.punished
        return events, Judgement(accuser, accused, kind, "guilty" if guilty else "wrong", last)
    complaint = Complaint(accuser=accuser, accused=accused, kind=kind)
    if kind == "external":
        complaint.voters = [seat for seat in range(4) if seat not in (accuser, accused)]
        rnd.complaint = complaint
        for voter in complaint.voters:
            events.append(Asked(kind="accusation_vote", target=voter, audience=only(voter)))
        return events, None
    moves = [m for m in rnd.moves if m.seat == accused]
    complaint.listed = [m.id for m in moves]
    rnd.complaint = complaint
    events.append(
        MovesListed(
            accused=accused, kind=kind, moves=tuple(_describe(m) for m in moves), audience=only(accuser)
        )
    )
    return events, None


def _pending(ref: Referee, seat: int, kinds: tuple[str, ...]) -> Complaint:
    complaint = ref.rnd.complaint
    if complaint is None or complaint.kind not in kinds:
        raise WrongPhase("No such accusation is pending.", code="complaint.invalid_move")
    return complaint


def pick_move(ref: Referee, seat: int, move_id: int) -> Judgement:
    """The accuser names the move; the verdict follows from its flags."""
    complaint = _pending(ref, seat, tuple(FLAG_FOR))
    if seat != complaint.accuser:
        raise NotYourTurn("Only the accuser picks the move.", code="complaint.invalid_move")
    if move_id not in complaint.listed:
        raise IllegalAction("That move was not listed.", code="complaint.invalid_move", move_id=move_id)
    move = ref.rnd.moves[move_id]
    kind, flag = FLAG_FOR[complaint.kind]
    guilty = move.kind == kind and flag in move.flags and not move.punished
    ref.rnd.complaint = None
    return Judgement(
        complaint.accuser, complaint.accused, complaint.kind, "guilty" if guilty else "wrong", move
    )


def cancel(ref: Referee, seat: int) -> Judgement:
    """The accuser withdraws (``move:{}``): the accuser is punished."""
    complaint = _pending(ref, seat, (*FLAG_FOR, "external"))
    if seat != complaint.accuser:
        raise NotYourTurn("Only the accuser can cancel.", code="complaint.invalid_move")
    ref.rnd.complaint = None
    return Judgement(complaint.accuser, complaint.accused, complaint.kind, "cancelled", None)


def vote(ref: Referee, seat: int, yes: bool) -> tuple[list[Event], Judgement | None]:
    """A bystander's vote on an ``external`` accusation; both yes -> guilty."""
    complaint = _pending(ref, seat, ("external",))
    if seat not in complaint.voters or str(seat) in complaint.votes:
        raise NotYourTurn("You are not asked to vote.", code="pc_wrong_turn")
    complaint.votes[str(seat)] = yes
    events: list[Event] = [VoteCast(seat=seat, kind="accusation", yes=yes)]
    if not yes or len(complaint.votes) == len(complaint.voters):
        return events, _decide_vote(ref, complaint)
    return events, None


def _decide_vote(ref: Referee, complaint: Complaint) -> Judgement:
    guilty = len(complaint.votes) == len(complaint.voters) and all(complaint.votes.values())
    ref.rnd.complaint = None
    return Judgement(
        complaint.accuser, complaint.accused, complaint.kind, "guilty" if guilty else "wrong", None
    )


def time_out(ref: Referee) -> Judgement:
    """No pick in time: cancelled. Missing votes count as no."""
    complaint = ref.rnd.complaint
    assert complaint is not None
    if complaint.kind == "external":
        return _decide_vote(ref, complaint)
    ref.rnd.complaint = None
    return Judgement(complaint.accuser, complaint.accused, complaint.kind, "cancelled", None)

"""The end of a deal and the session around it: scoring a round into the table's points,
void rounds, penalties and the abort rules (note §6.2 step 8, §6.5, §7.3).

A *session* (the cg "game") is a run of deals with the same four seats; each deal adds one
summary row ``{round_num, winner, game_type, eyes, extras, point_change, points}`` whatever
happens in it (scored, void, or aborted by a penalty).
"""

from __future__ import annotations

from typing import Any

from gamehall.rules._core import Event
from gamehall.rules.doppelkopf.cards import NULL_SOLOS
from gamehall.rules.doppelkopf.complaints import Judgement
from gamehall.rules.doppelkopf.events import PhaseChanged, RoundEnded, ScoreChanged, Verdict
from gamehall.rules.doppelkopf.extras import all_plain, collect_extras
from gamehall.rules.doppelkopf.play import Referee
from gamehall.rules.doppelkopf.scoring import (
    BuckRounds,
    RoundFacts,
    RoundScore,
    buck_causes,
    payout,
    score_round,
)
from gamehall.rules.doppelkopf.state import RoundState, TableState

AGAINST_CQS_GAMES = ("normal", "wedding", "ramsch")


def _eyes(ref: Referee) -> tuple[int, int]:
    """Eyes of (Re, Kontra) so far; with unknown parties all count for nobody."""
    re_seats = ref.rnd.re_seats or []
    re_eyes = sum(ref.eyes_of_seat(seat) for seat in re_seats)
    kontra_eyes = sum(ref.eyes_of_seat(seat) for seat in range(4) if seat not in re_seats)
    return re_eyes, kontra_eyes


def _facts(ref: Referee, re_extras: list[str], kontra_extras: list[str]) -> RoundFacts:
    re_eyes, kontra_eyes = _eyes(ref)
    return RoundFacts(
        game_type=ref.rnd.game_type,
        re_eyes=re_eyes,
        kontra_eyes=kontra_eyes,
        re_announced=ref.announced_by("re"),
        kontra_announced=ref.announced_by("kontra"),
        re_extras=re_extras,
        kontra_extras=kontra_extras,
        null_game=ref.rnd.game_type in NULL_SOLOS,
        re_kontra_rule=str(ref.rules["re_kontra"]),
        coward_rule=str(ref.rules["coward"]),
    )


def judge_round(ref: Referee) -> tuple[RoundScore, list[str], list[str]]:
    """Score the played round: winner, value and each party's extras."""
    re_extras, kontra_extras = collect_extras(ref)
    score = score_round(_facts(ref, re_extras, kontra_extras))
    if score.winner == "kontra" and ref.rnd.game_type in AGAINST_CQS_GAMES:
        kontra_extras = ["against_cqs", *kontra_extras]  # listed first, as the reference does
        score = score_round(_facts(ref, re_extras, kontra_extras))
    return score, re_extras, kontra_extras


def _row(table: TableState, rnd: RoundState, **fields: Any) -> dict[str, Any]:
    return {"round_num": rnd.number, **fields, "points": list(table.points)}


def finish_round(table: TableState, ref: Referee) -> list[Event]:
    """Score the round that just ended, update points and buck rounds, enter phase ``end``."""
    rnd, rules = ref.rnd, ref.rules
    assert rnd.re_seats is not None
    score, re_extras, kontra_extras = judge_round(ref)
    if rules["repeat_game"] and score.winner is not None and score.value <= 0:
        rnd.void_type = rnd.game_type
        return void_round(table, ref)
    buck = BuckRounds(table.buck.mode, table.buck.queue, dict(table.buck.counters))
    multiplier = buck.multiplier()
    changes = payout(
        score.re_value, rnd.re_seats, ramsch=rnd.game_type in ("ramsch", "ramsch_sw"), multiplier=multiplier
    )
    buck.use_one()
    loser = None if score.winner is None else ("kontra" if score.winner == "re" else "re")
    causes = buck_causes(
        enabled=list(rules["buck_cause"]),
        four_hearts_trick=any(all_plain(ref, t, "h") for t in rnd.tricks),
        eyes=_eyes(ref),
        score=score,
        announced_loser=loser is not None and loser in ref.announced_by(loser),
        solo_lost=len(rnd.re_seats) == 1 and score.winner != "re",
    )
    buck.add(causes, int(rules["buck_amount"]))
    table.buck.queue, table.buck.counters = buck.queue, buck.counters
    events: list[Event] = []
    for seat in range(4):
        table.points[seat] += changes[seat]
    total_change = [changes[s] + rnd.penalties[s] for s in range(4)]
    for seat in range(4):
        events.append(ScoreChanged(seat=seat, points=table.points[seat], change=total_change[seat]))
    eyes = _eyes(ref)
    row = _row(
        table,
        rnd,
        winner=score.winner,
        game_type=ref.shown_type(),
        eyes=list(eyes),
        extras=list(score.summary),
        point_change=total_change,
        reference_extras=list(score.reference_summary),
    )
    table.summaries.append(row)
    rnd.phase = "end"
    events += [
        RoundEnded(
            round=rnd.number,
            game_type=ref.shown_type(),
            winner=score.winner,
            eyes=eyes,
            modifiers={"re": ref.announced_by("re"), "kontra": ref.announced_by("kontra")},
            extras=(tuple(re_extras), tuple(kontra_extras)),
            game_summary=score.summary,
            point_change=tuple(total_change),
            re_seats=tuple(rnd.re_seats),
            reference_summary=score.reference_summary,
        ),
        PhaseChanged(phase="end"),
    ]
    return events


def void_round(table: TableState, ref: Referee) -> list[Event]:
    """A thrown hand, a cancelled poverty or a worthless repeat game: no points, one row."""
    rnd = ref.rnd
    void_type = rnd.void_type or "throw"
    change = list(rnd.penalties)
    table.summaries.append(
        _row(table, rnd, winner=None, game_type=void_type, eyes=[0, 0], extras=[], point_change=change)
    )
    rnd.phase = "end"
    return [
        RoundEnded(
            round=rnd.number,
            game_type=void_type,
            winner=None,
            eyes=(0, 0),
            modifiers={"re": [], "kontra": []},
            extras=((), ()),
            game_summary=(),
            point_change=tuple(change),
            re_seats=(),
        ),
        PhaseChanged(phase="end"),
    ]


def abort_round(table: TableState, ref: Referee) -> list[Event]:
    """``dk.penalty_abort=round``: end the round now; only the penalties are scored."""
    rnd = ref.rnd
    eyes = _eyes(ref)
    change = list(rnd.penalties)
    rnd.phase = "end"
    rnd.question = None
    rnd.trick = None
    table.summaries.append(
        _row(
            table,
            rnd,
            winner=None,
            game_type=ref.shown_type(),
            eyes=list(eyes),
            extras=["penalty_abort"],
            point_change=change,
        )
    )
    return [
        RoundEnded(
            round=rnd.number,
            game_type=ref.shown_type(),
            winner=None,
            eyes=eyes,
            modifiers={"re": ref.announced_by("re"), "kontra": ref.announced_by("kontra")},
            extras=((), ()),
            game_summary=("penalty_abort",),
            point_change=tuple(change),
            re_seats=tuple(rnd.re_seats or ()),
        ),
        PhaseChanged(phase="end"),
    ]


def punish(table: TableState, ref: Referee, judgement: Judgement) -> list[Event]:
    """Announce the verdict and move the penalty points (minus the penalty to the punished seat,
    +bonus to each other seat); mark a guilty move as punished."""
    rnd, rules = ref.rnd, ref.rules
    move = judgement.move
    events: list[Event] = [
        Verdict(
            accuser=judgement.accuser,
            accused=judgement.accused,
            kind=judgement.kind,
            verdict=judgement.verdict,
            punished=judgement.punished,
            move=None if move is None else (move.id, move.kind, move.data),
        )
    ]
    changes = [int(rules["penalty_bonus"])] * 4
    changes[judgement.punished] = -int(rules["penalty_points"])
    scored_row = table.summaries[-1] if rnd.phase == "end" and table.summaries else None
    for seat in range(4):
        if changes[seat] == 0:
            continue
        table.points[seat] += changes[seat]
        if scored_row is not None:
            scored_row["point_change"][seat] += changes[seat]
            scored_row["points"][seat] += changes[seat]
        else:
            rnd.penalties[seat] += changes[seat]
        events.append(ScoreChanged(seat=seat, points=table.points[seat], change=changes[seat]))
    if judgement.verdict == "guilty" and move is not None:
        move.punished = True
    return events

"""What a finished room stores as its result: scores, winners, termination and one typed end
per seat (docs/recovery.md, "Results").

The engine knows how its game ended by the rules (:class:`~gamehall.rules._core.Outcome`); the
hall alone knows how each *seat* ended when a person was involved: a deliberate leave, a
connection that did not come back within its grace, an operator's kick, the engine releasing
a seat for inactivity. This module merges the two into one JSON result, under three rules that
keep a result honest:

- a seat that forfeited never wins, whatever the engine's scores say;
- a game the engine calls aborted has no winners;
- a game ended by a seat's release (the engine only knows "a seat left") is recorded as
  ``"forfeit"``, and a seat still held for a player who never came back forfeits too
  (``disconnected``): so a server crash, after which nobody returns, is never a win for anyone.

The result's shape::

    {"scores": {"0": 12, ...}, "winners": [0], "termination": "normal",
     "names": {"0": "alice", ...},
     "seats": {"0": {"result": "normal"}, "1": {"result": "forfeit", "reason": "disconnected"}}}

``termination`` is the engine's (``normal``, ``resigned``, ``timeout``, ``rule_violation``,
``aborted``), or ``forfeit`` when a seat's release ended the game, or ``aborted`` when no seat
is left that ended normally and the game did not end by its rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from gamehall.rules._core import JSON, ForfeitReason, Outcome, Seat, SeatEnd, SeatResult, Termination


def room_result(
    outcome: Outcome,
    *,
    forfeits: Mapping[Seat, ForfeitReason],
    still_away: Iterable[Seat],
    ended_by_release: bool,
) -> dict[str, JSON]:
    """The stored result of a room whose game just ended.

    Args:
        outcome: the engine's outcome.
        forfeits: seats the hall released during the game, with why (see module docstring).
        still_away: seats held for a player who had not come back when the game ended.
        ended_by_release: whether the input that ended the game was a seat's release by the
            hall (leave, grace expiry, kick), rather than a move or a timer of the game.
    """
    aborted = outcome.termination is Termination.ABORTED
    seats: set[Seat] = set(outcome.names) | set(outcome.scores) | set(outcome.seat_ends) | set(forfeits)
    ends: dict[Seat, SeatEnd] = {}
    for seat in seats:
        ends[seat] = outcome.seat_ends.get(seat) or SeatEnd(
            SeatResult.ABORTED if aborted else SeatResult.NORMAL
        )
    for seat, reason in forfeits.items():
        if ends[seat].result is not SeatResult.FORFEIT:  # the engine's own forfeit reason wins
            ends[seat] = SeatEnd(SeatResult.FORFEIT, reason)
    termination = outcome.termination.value
    if ended_by_release and not aborted:
        termination = "forfeit"
        for seat in still_away:
            if seat in ends and ends[seat].result is SeatResult.NORMAL:
                ends[seat] = SeatEnd(SeatResult.FORFEIT, ForfeitReason.DISCONNECTED)
        if not any(end.result is SeatResult.NORMAL for end in ends.values()):
            termination = "aborted"  # everybody forfeited: nobody won a game nobody finished
    winners: list[Seat] = []
    if termination != "aborted":
        winners = sorted(
            s for s in outcome.winners if ends.get(s, SeatEnd(SeatResult.NORMAL)).result is SeatResult.NORMAL
        )
    return {
        "scores": {str(k): v for k, v in outcome.scores.items()},
        "winners": winners,
        "termination": termination,
        "names": {str(k): v for k, v in outcome.names.items()},
        "seats": {str(seat): ends[seat].to_json() for seat in sorted(ends)},
    }


def abandoned_to_bots_result(
    names: Mapping[Seat, str], forfeits: Mapping[Seat, ForfeitReason]
) -> dict[str, JSON]:
    """The result of a running game that the hall ends because no person is left at it, only
    in-hall bots (bots never play on alone): aborted, no winners; the people's seats say why
    they went, the bots' seats are aborted."""
    seats = set(names) | set(forfeits)
    ends = {
        seat: SeatEnd(SeatResult.FORFEIT, forfeits[seat]) if seat in forfeits else SeatEnd(SeatResult.ABORTED)
        for seat in seats
    }
    return {
        "scores": {},
        "winners": [],
        "termination": "aborted",
        "names": {str(k): v for k, v in sorted(names.items())},
        "seats": {str(seat): ends[seat].to_json() for seat in sorted(ends)},
    }


def describe_seats(result: JSON) -> list[str]:
    """One line per seat of a stored result, for ``gamehall replay``: ``seat 1 bob: forfeit
    (disconnected)``. Results stored before per-seat ends existed give no lines."""
    if not isinstance(result, dict):
        return []
    seats = result.get("seats")
    names = result.get("names")
    if not isinstance(seats, dict):
        return []
    lines = []
    for seat, end in sorted(seats.items(), key=lambda item: int(item[0]) if item[0].isdigit() else 0):
        if not isinstance(end, dict):
            continue
        name = names.get(seat, "") if isinstance(names, dict) else ""
        text = str(end.get("result", "?"))
        if end.get("reason"):
            text += f" ({end['reason']})"
        lines.append(f"seat {seat} {name}: {text}".replace("  ", " "))
    return lines

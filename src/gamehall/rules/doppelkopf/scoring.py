"""Winning, game value, extras, payout and buck rounds (note §6.5).

:func:`score_round` turns the facts of a played round (eyes, announcements, extras) into the
winner, the value from Re's point of view, and the ``game_summary`` codes, in the note's order:
outcome, announced re/kontra, eye tier, ``c_*``, ``fc_*``, ``*vs_*``, ``o*``, ``cowardice``,
then ``p_<extra>`` (winner side) and ``n_<extra>`` (loser side). :func:`payout` spreads a value
over the seats; :class:`BuckRounds` keeps the buck-round counters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gamehall.rules.doppelkopf.announcements import DENIALS

RAISED_TARGET = {"no90": 151, "no60": 181, "no30": 211, "black": 240}
LOWERED_TARGET = {"no90": 90, "no60": 60, "no30": 30, "black": 1}
TIER_BELOW = {"no90": 90, "no60": 60, "no30": 30, "black": 1}
"""The loser's eyes must be below this for the tier (``black``: no eyes at all)."""
GOT_PAST = {"no90": 120, "no60": 90, "no30": 60, "black": 30}
"""Eyes with which the winner "got past" a denial of the loser (``120vs_no90`` ...)."""
NULL_BANDS = (30, 60, 90, 120, 150, 180, 210)

EXTRAS_GAMES = ("normal", "wedding", "poverty", "ramsch")
"""The only game types that score extras (never solos, the silent wedding or black sow)."""


@dataclass(frozen=True, slots=True)
class RoundFacts:
    """What scoring needs to know about a finished round."""

    game_type: str
    re_eyes: int
    kontra_eyes: int
    re_announced: Sequence[str]
    kontra_announced: Sequence[str]
    re_extras: Sequence[str]
    kontra_extras: Sequence[str]
    null_game: bool = False
    re_kontra_rule: str = "+2"
    coward_rule: str = "None"


@dataclass(frozen=True, slots=True)
class RoundScore:
    """The result: ``winner`` (``re``/``kontra``/None), ``re_value`` (signed, Re's view), the
    winner's own ``value`` (<= 0 means a worthless win) and the summary codes.

    ``summary`` is gamehall's full list (every tier, denial and got-past code that counted);
    ``reference_summary`` is the list the reference server sends, which vanilla clients get
    (note §6.5 step 6): only the highest eye tier, the highest ``c_*``/``fc_*`` and got-past
    code per side, no ``re``/``kontra`` codes in a no-win round, and each extra once."""

    winner: str | None
    re_value: int
    value: int
    summary: tuple[str, ...]
    reference_summary: tuple[str, ...] = ()


def targets(re_ann: Sequence[str], kontra_ann: Sequence[str]) -> tuple[int, int]:
    """The eyes Re and Kontra need to win, after announcements."""
    re_target, kontra_target = 121, 120
    if "kontra" in kontra_ann and "re" not in re_ann:
        re_target, kontra_target = 120, 121
    re_denial = _highest_denial(re_ann)
    kontra_denial = _highest_denial(kontra_ann)
    if re_denial:
        re_target = RAISED_TARGET[re_denial]
        if not kontra_denial:
            kontra_target = LOWERED_TARGET[re_denial]
    if kontra_denial:
        kontra_target = RAISED_TARGET[kontra_denial]
        if not re_denial:
            re_target = LOWERED_TARGET[kontra_denial]
    return re_target, kontra_target


def _highest_denial(announced: Sequence[str]) -> str | None:
    made = [d for d in DENIALS if d in announced]
    return made[-1] if made else None


def _tiers(loser_eyes: int) -> list[str]:
    return [tier for tier, below in TIER_BELOW.items() if loser_eyes < below]


def _got_past(winner_eyes: int, loser_ann: Sequence[str]) -> list[str]:
    band = min(winner_eyes // 30 * 30, 120)
    return [f"{band}vs_{d}" for d in DENIALS if d in loser_ann and winner_eyes >= GOT_PAST[d]]


def score_round(facts: RoundFacts) -> RoundScore:
    """Winner, value and summary codes of a round (note §6.5 steps 1-3 and 6)."""
    if facts.null_game:
        return _score_null(facts)
    re_target, kontra_target = targets(facts.re_announced, facts.kontra_announced)
    winner: str | None = None
    if facts.re_eyes >= re_target:
        winner = "re"
    elif facts.kontra_eyes >= kontra_target:
        winner = "kontra"
    calls = [k for k in ("re", "kontra") if k in (*facts.re_announced, *facts.kontra_announced)]
    codes: list[str] = [f"{winner}_win" if winner else "no_win", *calls]
    if winner is None:
        # Both eye blocks apply and net out (Re's view). With no winner, dk.re_kontra has
        # nothing to act on: no +2 and no doubling (Ref; note §6.5 step 2f).
        gained_tiers = _tiers(facts.kontra_eyes)
        gained_past = _got_past(facts.re_eyes, facts.kontra_announced)
        lost_tiers = _tiers(facts.re_eyes)
        lost_past = _got_past(facts.kontra_eyes, facts.re_announced)
        value = len(gained_tiers) + len(gained_past) - len(lost_tiers) - len(lost_past)
        codes += gained_tiers + gained_past + lost_tiers + lost_past
        value += len(facts.re_extras) - len(facts.kontra_extras)
        extra_codes = [f"p_{e}" for e in facts.re_extras] + [f"n_{e}" for e in facts.kontra_extras]
        codes += extra_codes
        reference = [
            "no_win",
            *_highest(gained_tiers),
            *_highest(lost_tiers),
            *_highest(lost_past),
            *_highest(gained_past),
            *extra_codes,
        ]
        return RoundScore(None, value, value, tuple(codes), tuple(reference))
    loser = "kontra" if winner == "re" else "re"
    eyes = {"re": facts.re_eyes, "kontra": facts.kontra_eyes}
    announced = {"re": facts.re_announced, "kontra": facts.kontra_announced}
    extras_of = {"re": facts.re_extras, "kontra": facts.kontra_extras}
    tiers = _tiers(eyes[loser])
    fulfilled = [f"c_{d}" for d in DENIALS if d in announced[winner] and d in tiers]
    failed = [f"fc_{d}" for d in DENIALS if d in announced[loser]]
    past = _got_past(eyes[winner], announced[loser])
    codes += tiers + fulfilled + failed + past
    value = 1 + len(tiers) + len(fulfilled) + len(failed) + len(past)
    value = _apply_calls(value, calls, facts.re_kontra_rule, before_extras=True)
    # dk.coward flips the sign before the extras are added; *2_extra still doubles after them.
    coward = _cowardly(facts.coward_rule, eyes[winner], announced[winner])
    if coward:
        value = -value
        codes.append("cowardice")
    value += len(extras_of[winner]) - len(extras_of[loser])
    value = _apply_calls(value, calls, facts.re_kontra_rule, before_extras=False)
    extra_codes = [f"p_{e}" for e in extras_of[winner]] + [f"n_{e}" for e in extras_of[loser]]
    codes += extra_codes
    reference = [
        f"{winner}_win",
        *calls,
        *_highest(tiers),
        *_highest(fulfilled),
        *_highest(failed),
        *_highest(past),
        *(["cowardice"] if coward else []),
        *extra_codes,
    ]
    re_value = value if winner == "re" else -value
    return RoundScore(winner, re_value, value, tuple(codes), tuple(reference))


def _highest(codes: Sequence[str]) -> list[str]:
    """The last (highest) code of a ladder, as the reference lists it."""
    return list(codes[-1:])


def _apply_calls(value: int, calls: Sequence[str], rule: str, *, before_extras: bool) -> int:
    """Step (f): what announced re and kontra do to a winner's value under ``dk.re_kontra``."""
    if rule == "+2":
        return value + 2 * len(calls) if before_extras else value
    if (rule == "*2") == before_extras:
        return value * (1 << len(calls))
    return value


def _cowardly(rule: str, winner_eyes: int, winner_announced: Sequence[str]) -> bool:
    """``dk.coward`` (Ref): any setting punishes a winner with more than 210 eyes who made no
    re/kontra of their own; ``240_no_u90`` also punishes 240 eyes without an own no90."""
    if rule == "None" or winner_eyes <= 210:
        return False
    if not any(call in winner_announced for call in ("re", "kontra")):
        return True
    return rule == "240_no_u90" and winner_eyes == 240 and "no90" not in winner_announced


def _score_null(facts: RoundFacts) -> RoundScore:
    """Null and boneless: the soloist (Re) wins by taking no eyes (note §6.5 step 3)."""
    calls = [k for k in ("re", "kontra") if k in (*facts.re_announced, *facts.kontra_announced)]
    bands: list[str] = []
    if facts.re_eyes == 0:
        winner, value = "re", 2
    else:
        bands = [f"o{b}" for b in NULL_BANDS if facts.re_eyes > b]
        if facts.re_eyes >= 240:
            bands.append("black")
        winner, value = "kontra", 1 + len(bands)
    codes = [f"{winner}_win", *calls, *bands]
    reference = [f"{winner}_win", *_highest(bands), *calls]
    value = _apply_calls(value, calls, facts.re_kontra_rule, before_extras=True)
    value = _apply_calls(value, calls, facts.re_kontra_rule, before_extras=False)
    re_value = value if winner == "re" else -value
    return RoundScore(winner, re_value, value, tuple(codes), tuple(reference))


def payout(re_value: int, re_seats: Sequence[int], *, ramsch: bool, multiplier: int) -> list[int]:
    """Points per seat (0..3): a lone Re player gets 3x, each opponent the single value."""
    value = -re_value if ramsch else re_value
    value *= multiplier
    result = [0, 0, 0, 0]
    kontra = [seat for seat in range(4) if seat not in re_seats]
    for seat in re_seats:
        result[seat] = value * (3 if len(re_seats) == 1 else 1)
    for seat in kontra:
        result[seat] = -value * (3 if len(kontra) == 1 else 1)
    return result


# ---------------------------------------------------------------------------------------------
# Buck rounds (Bockrunden)
# ---------------------------------------------------------------------------------------------


@dataclass(slots=True)
class BuckRounds:
    """Pending buck rounds: one queue (``succession``) or one counter per cause (``parallel``)."""

    mode: str = "None"
    queue: int = 0
    counters: dict[str, int] = field(default_factory=dict)

    def multiplier(self) -> int:
        """The factor of the round being scored now."""
        if self.mode == "succession":
            return 2 if self.queue > 0 else 1
        if self.mode == "parallel":
            return 1 << sum(1 for n in self.counters.values() if n > 0)
        return 1

    def use_one(self) -> None:
        """A scored round used one buck round from each active counter."""
        if self.queue > 0:
            self.queue -= 1
        for cause in self.counters:
            if self.counters[cause] > 0:
                self.counters[cause] -= 1

    def add(self, causes: Sequence[str], amount: int) -> None:
        """Causes seen this round add ``amount`` rounds each, from the next scored round on."""
        if self.mode == "succession":
            self.queue += amount * len(causes)
        elif self.mode == "parallel":
            for cause in causes:
                self.counters[cause] = self.counters.get(cause, 0) + amount


def buck_causes(
    *,
    enabled: Sequence[str],
    four_hearts_trick: bool,
    eyes: tuple[int, int],
    score: RoundScore,
    announced_loser: bool,
    solo_lost: bool,
) -> list[str]:
    """Which of the enabled ``dk.buck_cause`` events the round produced."""
    seen = {
        "4hearts": four_hearts_trick,
        "draw": eyes == (120, 120),
        "0points": score.winner is not None and score.value <= 0,
        "re_kontra_lost": announced_loser,
        "solo_lost": solo_lost,
    }
    return [cause for cause in enabled if seen.get(cause, False)]

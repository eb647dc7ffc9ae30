"""Doppelkopf bot policies on a seat's own view (``decide(view, seat, rng) -> Action | None``).

Both styles play the cg ``dk_dumb`` manners (note §4.2): ``ready`` at once, "no" to every
reservation-type question, never accuse, vote ``accusation_no``, follow the humans in the
continue/adjourn/end/cancel votes (they wait until another seat has voted). They differ in play:

- ``random``: a legal card chosen at random; never announces;
- ``heuristic``: follows suit well (wins a trick cheaply when it can, else throws the least
  valuable card; leads a plain ace, else a low card), and announces re/kontra on a strong hand
  (many high trumps) while the deadline allows.

A question the view alone cannot answer well (the poverty exchange) is left to the table's
timer, whose default move is always legal.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from gamehall.rules._core import Action, Seat
from gamehall.rules.doppelkopf import actions as act
from gamehall.rules.doppelkopf.cards import Ranking, eyes_of, ranking_for

STYLES: Final = ("random", "heuristic")
NO_QUESTIONS: Final = ("reservation", "throw", "pigs", "superpigs", "poverty", "wedding")
FOLLOWED_VOTES: Final = ("cancel", "end", "adjourn", "continue")
STRONG_TRUMPS: Final = 5
"""Trumps of at least ♦Q strength (queens and up) that make a heuristic bot announce."""


class DoppelkopfPolicy:
    """One bot style (see the module docstring)."""

    acts_out_of_turn = True
    """Asked after every event (not only on its turn), so it answers a vote when one is open."""

    def __init__(self, style: str = "random") -> None:
        if style not in STYLES:
            raise ValueError(f"no Doppelkopf bot style {style!r}")
        self.style = style

    def decide(self, view: Mapping[str, Any], seat: Seat, rng: random.Random) -> Action | None:
        rnd = view.get("round")
        to_move = view.get("to_move") or {}
        if rnd is None or view.get("finished"):
            return None
        vote = self._follow_vote(view, seat)
        if vote is not None:
            return vote
        if seat not in to_move.get("seats", []):
            return None
        kind = to_move.get("kind")
        if kind == "ready":
            return act.Ready()
        if kind == "accusation_vote":
            return act.AccusationVote(False)
        if kind == "pick_move":
            return act.CancelAccusation()
        if kind == "vote":
            return None  # wait for a human's vote (the timer continues otherwise)
        if kind == "play_card":
            return self._play(view, rnd, seat, rng)
        return self._answer(view, rnd)

    # -- votes and questions ------------------------------------------------------------------

    @staticmethod
    def _follow_vote(view: Mapping[str, Any], seat: Seat) -> Action | None:
        votes: Mapping[str, list[int]] = view.get("votes") or {}
        phase_end = (view.get("round") or {}).get("phase") == "end"
        for kind in FOLLOWED_VOTES:
            voters = votes.get(kind, [])
            if voters and seat not in voters and (kind == "cancel" or phase_end):
                return act.Vote(kind, True)
        return None

    @staticmethod
    def _answer(view: Mapping[str, Any], rnd: Mapping[str, Any]) -> Action | None:
        question = rnd.get("question")
        if question in NO_QUESTIONS:
            return act.Answer(question, False)
        if question == "solo":
            return act.AnswerSolo(None)
        if question == "poverty_accept":
            return act.PovertyDecline()
        if question == "wedding_clarification_trick":
            return act.WeddingClarification("foreign")
        if question == "black_sow_solo":
            solos = view.get("rules", {}).get("solos") or ["solo_diamonds"]
            return act.BlackSowSolo(str(solos[0]))
        return None

    # -- cards ------------------------------------------------------------------------------

    def _play(
        self, view: Mapping[str, Any], rnd: Mapping[str, Any], seat: Seat, rng: random.Random
    ) -> Action | None:
        playable: list[str] = list(rnd.get("playable") or [])
        if not playable:
            return None
        if self.style == "random":
            return act.PlayCard(rng.choice(playable))
        ranking = ranking_of(view, rnd)
        announce = self._announcement(rnd, ranking)
        if announce is not None:
            return announce
        values = {c["id"]: c["value"] for c in rnd.get("hand", [])}
        return act.PlayCard(choose_card(playable, values, rnd.get("trick"), ranking))

    @staticmethod
    def _announcement(rnd: Mapping[str, Any], ranking: Ranking) -> Action | None:
        label = rnd.get("rebtn_lbl")
        if label not in ("re", "kontra") or rnd.get("game_type") not in ("normal", None):
            return None
        queen = ranking.strength("dq")
        strong = sum(
            1
            for c in rnd.get("hand", [])
            if ranking.is_trump(c["value"]) and ranking.strength(c["value"]) >= queen
        )
        if strong >= STRONG_TRUMPS:
            return act.Announce(label)
        return None


def ranking_of(view: Mapping[str, Any], rnd: Mapping[str, Any]) -> Ranking:
    """The trump order of the round's game type under the view's rules."""
    rules = view.get("rules", {})
    return ranking_for(
        str(rnd.get("game_type") or "normal"),
        heart10=bool(rules.get("heart10", True)),
        shift_h10=bool(rules.get("solo_shift_h10", False)),
        joker=str(rules.get("joker", "None")),
    )


def _power(value: str, led: str | None, ranking: Ranking) -> int:
    """How strong ``value`` is in a trick led with class ``led`` (0: it cannot win)."""
    if ranking.is_trump(value):
        return 1000 + ranking.strength(value)
    if led is not None and ranking.classify(value) == led:
        return ranking.strength(value) + 1
    return 0


def choose_card(
    playable: list[str], values: Mapping[str, str], trick: Mapping[str, Any] | None, ranking: Ranking
) -> str:
    """The heuristic's card: lead a plain ace (else the weakest card); following, the cheapest
    card that wins the trick so far, else the one with the fewest eyes."""
    on_table = [c for c in (trick or {}).get("cards", []) if c is not None]
    if not on_table:  # lead: a plain ace if there is one, else the lowest card
        aces = [c for c in playable if values[c].endswith("a") and not ranking.is_trump(values[c])]
        if aces:
            return aces[0]
        return min(playable, key=lambda c: (_power(values[c], None, ranking), eyes_of(values[c])))
    led = ranking.classify(on_table[0]["value"])
    best = max(_power(c["value"], led, ranking) for c in on_table)
    winners = [c for c in playable if _power(values[c], led, ranking) > best]
    if winners:  # win as cheaply as possible
        return min(winners, key=lambda c: (_power(values[c], led, ranking), -eyes_of(values[c])))
    return min(playable, key=lambda c: (eyes_of(values[c]), _power(values[c], led, ranking)))

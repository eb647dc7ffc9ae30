#!/usr/bin/env python3
"""Differential run: gamehall's Doppelkopf engine against the reference engine (not-na/cardgame).

Run on demand, never in ``make test``::

    .venv/bin/python tools/dk_differential.py --reference /path/to/cardgame --games 600

``--reference`` is the root of a not-na/cardgame checkout (commit 1614ab5 was used; obtain it
with the ``fetch`` tool or ``git clone``; never commit or vendor it). The reference is imported
from there at run time (``tools/dk_reference.py``).

Each *game* is a session of up to ``--rounds`` deals under a rule set drawn from
:data:`FEATURES` (pigs, superpigs, the joker, throwing, poverty and the black sow, ramsch, buck
rounds, ``repeat_game``, every solo, ...). gamehall deals; the reference's hands are overwritten
with the same cards, so both engines hold identical hands. A seeded policy picks gamehall-legal
actions (reservations, solos, poverty, wedding wishes, announcements on one's own turn, pig
calls, cards), and every action goes to both engines; now and then an illegal card is tried on
both. After each action the engines must agree on acceptance and on the questions asked; after
each trick on its winner and eyes; after each deal on the game type, parties, winner, eyes,
extras, the vanilla ``game_summary`` and every seat's points. The first disagreement of a game
ends that game and is put in a *class* (:func:`classify`), with the side that is right taken
from docs/doppelkopf-differential.md.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from dk_reference import RefTable, load_reference

from gamehall.rules._core import Action, Event, RuleError
from gamehall.rules.doppelkopf import events as ev
from gamehall.rules.doppelkopf.actions import (
    Announce,
    Answer,
    AnswerSolo,
    BlackSowSolo,
    CallPigs,
    PassCards,
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
from gamehall.rules.doppelkopf.cards import SOLO_ORDER
from gamehall.rules.doppelkopf.engine import DoppelkopfTable

ALL_SOLOS = list(SOLO_ORDER)

FEATURES: dict[str, list[dict[str, Any]]] = {
    "pigs": [
        {},
        {"pigs": "two_reservation"},
        {"pigs": "two_reservation", "superpigs": "reservation"},
        {"pigs": "two_on_play"},
        {"pigs": "two_on_play", "superpigs": "on_pig"},
        {"pigs": "two_on_play", "superpigs": "on_play"},
        {"pigs": "one_first"},
        {"pigs": "one_on_play"},
        {"pigs": "one_on_fox"},
        {"joker": "over_h10"},
        {"joker": "over_pigs"},
    ],
    "reservations": [
        {},
        {
            "throw": "throw",
            "throw_cases": ["5_9", "5_k", "4_9+4_k", "9_all_c", "k_all_c", "7full", "t<hj", "t<dj"],
        },
        {"throw": "reservation", "throw_cases": ["5_9", "5_k", "7full", "9_all_c", "k_all_c"]},
        {"poverty": "sell"},
        {"poverty": "circulate", "poverty_consequence": "black_sow"},
        {"poverty": "circulate", "poverty_consequence": "ramsch"},
        {"poverty": "sell", "poverty_consequence": "redeal"},
        {"poverty": "circulate_duty"},
        {"wedding": "wish_trick"},
        {"wedding": "None"},
    ],
    "scoring": [
        {},
        {
            "buck_round": "succession",
            "buck_cause": ["4hearts", "draw", "0points", "re_kontra_lost", "solo_lost"],
        },
        {"buck_round": "parallel", "buck_cause": ["draw", "re_kontra_lost", "solo_lost"], "buck_amount": "2"},
        {"repeat_game": True},
        {"re_kontra": "*2"},
        {"re_kontra": "*2_extra"},
        {"coward": "210_no_re"},
        {"coward": "240_no_u90"},
    ],
    "extras": [
        {},
        {"heart_trick": True, "hobgoblin": True},
        {"sec_black_trick": True, "charlie_broken": True},
        {"jane": True},
        {"fox_lasttrick": True},
        {"doppelkopf": False, "charlie": False, "fox": False},
    ],
    "cards": [
        {},
        {},
        {"without9": "with_four"},
        {"without9": "without"},
        {"heart10_prio": "second", "heart10_lasttrick": "second", "charlie_prio": "second"},
        {"heart10": False},
    ],
    "solos": [
        {},
        {"solos": ALL_SOLOS},
        {"solos": ALL_SOLOS, "solo_prio": "prio"},
        {"solos": ALL_SOLOS, "solist_begins": True},
        {"solos": ALL_SOLOS, "solo_shift_h10": True},
    ],
}


def draw_rules(rng: random.Random) -> dict[str, Any]:
    config: dict[str, Any] = {}
    for options in FEATURES.values():
        config.update(rng.choice(options))
    return config


def ref_rules(table: DoppelkopfTable) -> dict[str, Any]:
    """gamehall's effective rules as the reference's ``dk.*`` gamerules."""
    return {f"dk.{k}": v for k, v in table.rules.items() if f"dk.{k}" in REF_KEYS}


REF_KEYS: set[str] = set()
COVERAGE: collections.Counter[str] = collections.Counter()
"""Agreeing deals per game type (void deals by their void type)."""


# ---------------------------------------------------------------------------------------------
# One game through both engines
# ---------------------------------------------------------------------------------------------


class Divergence(Exception):
    def __init__(self, kind: str, detail: str, context: dict[str, Any]) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind, self.detail, self.context = kind, detail, context


@dataclass
class Pair:
    gh: DoppelkopfTable
    ref: RefTable
    ids: dict[str, str] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    full_log: bool = False
    soft: list[Divergence] = field(default_factory=list)
    rng: random.Random = field(default_factory=random.Random)
    ignore_points: bool = False
    """Set once a buck-round difference (a decision of ours) has been noted: the points part
    from then on, everything else is still compared."""

    def context(self) -> dict[str, Any]:
        rnd = self.gh.s.round
        return {
            "rules": {k: v for k, v in self.gh.rules.items() if v != DEFAULTS.get(k)},
            "game_type": None if rnd is None else rnd.game_type,
            "ref_game_type": getattr(self.ref.round, "game_type", None),
            "round": None if rnd is None else rnd.number,
            "hands": None if rnd is None else [[rnd.values[c] for c in h] for h in rnd.dealt],
            "table": []
            if rnd is None or rnd.trick is None
            else [rnd.values[c] for c in rnd.trick.cards if c],
            "last_trick": []
            if rnd is None or not rnd.tricks
            else [rnd.values[c] for c in rnd.tricks[-1].cards if c],
            "offers": [] if rnd is None else [o.solo for o in rnd.solo_offers],
            "tricks_total": None if rnd is None else rnd.tricks_total,
            "log": self.log if self.full_log else self.log[-12:],
            "seen": sorted({line.split(":", 1)[1].split("(")[0] for line in self.log if ":" in line[:3]}),
            "wedding": any("wedding', yes=True" in line for line in self.log),
        }


DEFAULTS: dict[str, Any] = {}


def start_pair(module: Any, config: dict[str, Any], seed: int) -> tuple[Pair, list[Event]]:
    gh = DoppelkopfTable(config, seed)
    events: list[Event] = []
    for name in "ABCD":
        events += gh.seat_join(name)[1]
    ref = RefTable(module, ref_rules(gh))
    pair = Pair(gh, ref, rng=random.Random(seed ^ 0x5EED))
    ref.game.start()
    ref.drain()
    sync_deal(pair)
    return pair, events


def rig_poverty(pair: Pair) -> None:
    """In half the deals of a poverty table, make one seat poor (at most 3 trumps) by swapping
    its trumps with other seats' plain cards, before anyone acts: a poverty hand is otherwise
    rare, and poverty, its consequences (black sow, ramsch, redeal) need comparing too."""
    gh, rng = pair.gh, pair.rng
    if gh.rules["poverty"] == "None" or rng.random() < 0.5:
        return
    rnd = gh.round
    ranking = gh.referee().ranking()
    poor = rng.randrange(4)
    target = rng.randint(1, 3)
    hand = rnd.hands[poor]
    trumps = [c for c in hand if ranking.is_trump(rnd.values[c])]
    others = [
        (s, c) for s in range(4) if s != poor for c in rnd.hands[s] if not ranking.is_trump(rnd.values[c])
    ]
    rng.shuffle(others)
    for card, (seat, plain) in zip(trumps[target:], others, strict=False):
        i, j = hand.index(card), rnd.hands[seat].index(plain)
        hand[i], rnd.hands[seat][j] = plain, card
    rnd.dealt = [list(h) for h in rnd.hands]


def sync_deal(pair: Pair) -> None:
    """Deal the reference's round and give its hands gamehall's cards (same player order)."""
    rig_poverty(pair)
    ref, rnd = pair.ref, pair.gh.round
    for seat in range(4):
        ref.event("cg:game.dk.ready_to_deal", seat)
    rplayers = [ref.players.index(p) for p in ref.round.players]
    if rplayers != rnd.player_list:
        raise Divergence("player_list", f"{rplayers} != {rnd.player_list}", pair.context())
    pair.ids = {}
    for index, seat in enumerate(rnd.player_list):
        slot = ref.round.slots[f"hand{index}"]
        if len(slot) != len(rnd.hands[seat]):
            raise Divergence("deal", f"hand sizes {len(slot)} != {len(rnd.hands[seat])}", pair.context())
        for gh_id, ref_id in zip(rnd.hands[seat], slot, strict=True):
            ref.round.cards[ref_id].card_value = rnd.values[gh_id]
            pair.ids[gh_id] = ref_id.hex


def ref_input(pair: Pair, seat: int, action: Action) -> None:
    """Send ``action`` to the reference as its packet handlers would."""
    ev_ = pair.ref.event
    if isinstance(action, Ready):
        ev_("cg:game.dk.ready", seat, type="ready")
    elif isinstance(action, Throw):
        ev_("cg:game.dk.throw", seat, type="throw")
    elif isinstance(action, Answer):
        yes = "yes" if action.yes else "no"
        ev_(f"cg:game.dk.{RESERVATION_EVENTS[action.question]}", seat, type=f"{action.question}_{yes}")
    elif isinstance(action, AnswerSolo):
        if action.solo is None:
            ev_("cg:game.dk.reservation_solo", seat, type="solo_no", data={})
        else:
            ev_("cg:game.dk.reservation_solo", seat, type="solo_yes", data={"type": action.solo})
    elif isinstance(action, (PassCards, ReturnCards)):
        kind = "pass_card" if isinstance(action, PassCards) else "return_card"
        cards = [pair.ids[c] for c in action.cards]
        ev_("cg:game.dk.reservation_poverty_pass_card", seat, type=kind, card=cards)
    elif isinstance(action, PovertyAccept):
        ev_("cg:game.dk.reservation_poverty_accept", seat, type="poverty_accept")
    elif isinstance(action, PovertyDecline):
        ev_("cg:game.dk.reservation_poverty_accept", seat, type="poverty_decline")
    elif isinstance(action, PovertyReturn):
        ev_(
            "cg:game.dk.reservation_poverty_accept",
            seat,
            type="poverty_return",
            data={"amount": action.amount},
        )
    elif isinstance(action, WeddingClarification):
        ev_(
            "cg:game.dk.reservation_wedding_clarification_trick",
            seat,
            type="wedding_clarification_trick",
            data={"trick": action.trick},
        )
    elif isinstance(action, BlackSowSolo):
        ev_("cg:game.dk.black_sow_solo", seat, type="black_sow_solo", data={"type": action.solo})
    elif isinstance(action, PlayCard):
        ev_("cg:game.dk.play_card", seat, card=pair.ids[action.card])
    elif isinstance(action, Announce):
        name = "call_re" if action.kind in ("re", "kontra") else "call_denial"
        ev_(f"cg:game.dk.{name}", seat, type=action.kind)
    elif isinstance(action, CallPigs):
        kind = "superpigs" if action.superpigs else "pigs"
        ev_(f"cg:game.dk.call_{kind}", seat, type=kind)
    elif isinstance(action, Vote):
        ev_(f"cg:game.dk.play.{action.kind}_{'yes' if action.yes else 'no'}", seat)
    else:
        raise AssertionError(f"no reference input for {action!r}")


RESERVATION_EVENTS = {
    "reservation": "reservation",
    "throw": "reservation_throw",
    "pigs": "reservation_pigs",
    "superpigs": "reservation_superpigs",
    "poverty": "reservation_poverty",
    "wedding": "reservation_wedding",
}


def describe(pair: Pair, action: Action) -> str:
    if isinstance(action, PlayCard):
        return f"PlayCard({pair.gh.round.values[action.card]})"
    if isinstance(action, (PassCards, ReturnCards)):
        return f"{type(action).__name__}({[pair.gh.round.values[c] for c in action.cards]})"
    return repr(action)


def step(pair: Pair, seat: int, action: Action, *, expect_legal: bool = True) -> list[Event]:
    """Apply ``action`` to both engines; raise :class:`Divergence` when they disagree."""
    gh, ref = pair.gh, pair.ref
    pair.log.append(f"{seat}:{describe(pair, action)}")
    before = len(ref.sent)
    gh_events: list[Event] = []
    gh_refusal: str | None = None
    try:
        gh_events = gh.apply(seat, action)
    except RuleError as error:
        gh_refusal = error.code or type(error).__name__
    ref_refusal: str | None = None
    try:
        ref_input(pair, seat, action)
    except Exception as error:  # the reference raises its own error types (and bugs)
        ref_refusal = f"raised {type(error).__name__}: {error}"[:160]
    sent = ref.sent[before:]
    warns = [
        d["message"] for s, p, d in sent if p == "cg:status.message" and s == seat and d["type"] == "warn"
    ]
    if ref_refusal is None and warns:
        ref_refusal = warns[0]
    if (gh_refusal is None) != (ref_refusal is None):
        raise Divergence(
            "acceptance",
            f"{describe(pair, action)} by {seat}: gamehall {gh_refusal or 'accepts'}, "
            f"reference {ref_refusal or 'accepts'}",
            pair.context(),
        )
    if gh_refusal is None:
        for e in gh_events:
            if isinstance(e, ev.TrickTaken):
                pair.log.append(
                    f"  trick {e.trick} -> {e.winner} ({e.eyes}) {[gh.round.values[c] for c in e.cards]}"
                )
        compare_step(pair, gh_events, sent)
    elif pair.log:
        pair.log[-1] += f"  [refused: {gh_refusal}]"
    return gh_events


def compare_step(pair: Pair, gh_events: list[Event], sent: list[tuple[int, str, dict[str, Any]]]) -> None:
    gh_questions = [(e.kind, e.target) for e in gh_events if isinstance(e, ev.Asked)]
    ref_questions: list[tuple[str, int]] = []
    for _seat, packet, data in sent:
        if packet == "cg:game.dk.question":
            q = (data["type"], pair.ref.players.index(pair.ref.players[0].__class__(hex=data["target"])))
            if not ref_questions or ref_questions[-1] != q:
                ref_questions.append(q)
    if gh_questions != ref_questions:
        raise Divergence(
            "question", f"gamehall asks {gh_questions}, reference asks {ref_questions}", pair.context()
        )
    gh_tricks = [(e.winner, e.eyes) for e in gh_events if isinstance(e, ev.TrickTaken)]
    ref_tricks = []
    for s, packet, data in sent:
        if packet == "cg:game.dk.scoreboard" and "pip_change" in data and s == 0:
            winner = pair.ref.players.index(pair.ref.players[0].__class__(hex=data["player"]))
            ref_tricks.append((winner, data["pip_change"]))
    if gh_tricks != ref_tricks:
        raise Divergence("trick", f"gamehall {gh_tricks}, reference {ref_tricks}", pair.context())
    for e in gh_events:
        if isinstance(e, ev.RoundEnded):
            compare_round(pair, e)


def compare_round(pair: Pair, end: ev.RoundEnded) -> None:
    ref = pair.ref
    if not ref.ended:
        raise Divergence("round_end", "the reference did not end the round", pair.context())
    data = ref.ended.pop()
    rows = ref.game.game_summaries
    ref_change = rows[-1]["point_change"] if rows else []
    gh = pair.gh
    seat_of = {p: i for i, p in enumerate(ref.players)}
    mine: dict[str, Any] = {
        "game_type": end.game_type,
        "winner": end.winner,
        "eyes": list(end.eyes),
        "re": sorted(end.re_seats),
        "extras": [sorted(end.extras[0]), sorted(end.extras[1])],
        "game_summary": _summary_key(end.reference_summary or end.game_summary),
        "point_change": list(end.point_change),
        "points": list(gh.s.points),
    }
    ref_points = [ref.game.points[p] for p in ref.players]
    order = [ref.game.players.index(p) for p in ref.players]
    theirs: dict[str, Any] = {
        "game_type": _shown(data["game_type"]),
        "winner": data["winner"],
        "eyes": list(data["eyes"]),
        "re": sorted(seat_of[p] for p in data["re"]),
        "extras": [sorted(x) for x in data["extras"]] if data["extras"] else [[], []],
        "game_summary": _summary_key(tuple(data["game_summary"])),
        "point_change": [ref_change[i] for i in order] if len(ref_change) == 4 else ref_change,
        "points": ref_points,
    }
    buck = (gh.s.buck.queue, dict(gh.s.buck.counters))
    mine["buck"] = buck[0] if gh.s.buck.mode == "succession" else sorted(n for n in buck[1].values() if n)
    theirs["buck"] = (
        sum(ref.game.buckrounds) if gh.s.buck.mode == "succession" else sorted(ref.game.buckrounds)
    )
    if end.game_type in ("throw", "poverty_cancel") or (end.winner is None and not end.re_seats):
        mine["re"] = theirs["re"] = []  # void rounds: no parties
    if mine["game_summary"] != theirs["game_summary"]:
        soft = Divergence(
            "score", "game_summary", {**pair.context(), "gamehall": dict(mine), "reference": dict(theirs)}
        )
        if _extras_twice(soft):  # a listing difference only: note it, play on
            pair.soft.append(soft)
            theirs["game_summary"] = mine["game_summary"]
    if pair.ignore_points:
        for key in ("point_change", "points", "buck"):
            mine.pop(key)
            theirs.pop(key)
    elif mine["buck"] != theirs["buck"] or mine["points"] != theirs["points"]:
        soft = Divergence(
            "score", "buck", {**pair.context(), "gamehall": dict(mine), "reference": dict(theirs)}
        )
        if _only_buck_differs(soft):  # a decision of ours: note it, compare the rest from here on
            pair.soft.append(soft)
            pair.ignore_points = True
            for key in ("point_change", "points", "buck"):
                mine.pop(key)
                theirs.pop(key)
    for key in mine:
        if mine[key] != theirs[key]:
            ctx = pair.context()
            ctx["gamehall"], ctx["reference"] = mine, theirs
            raise Divergence("score", f"{key}: gamehall {mine[key]} reference {theirs[key]}", ctx)


def _shown(game_type: str) -> str:
    return {"silent_wedding": "normal", "ramsch_sw": "ramsch"}.get(game_type, game_type)


def _summary_key(codes: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """Codes in order, extras as a sorted multiset (the reference lists a party's extras in
    the iteration order of a set of player uuids, which is arbitrary)."""
    head = [c for c in codes if not c.startswith(("p_", "n_"))]
    tail = sorted(c for c in codes if c.startswith(("p_", "n_")))
    return head, tail


# ---------------------------------------------------------------------------------------------
# The policy
# ---------------------------------------------------------------------------------------------


def choose(rng: random.Random, pair: Pair) -> Iterator[tuple[int, Action, bool]]:
    """The next action(s): (seat, action, expected legal)."""
    gh = pair.gh
    rnd = gh.round
    movers = sorted(gh.to_move().seats)
    if rnd.phase == "end":
        for seat in range(4):
            yield seat, Vote("continue", True), True
        return
    seat = rng.choice(movers)
    actions = gh.legal_actions(seat)
    if rnd.phase == "tricks" and rnd.question is None:
        cards = [a for a in actions if isinstance(a, PlayCard)]
        calls = [a for a in actions if isinstance(a, (Announce, CallPigs))]
        if calls and rng.random() < 0.25:
            yield seat, rng.choice(calls), True
            return
        illegal = [c for c in rnd.hands[seat] if PlayCard(c) not in cards]
        if illegal and rng.random() < 0.08:
            yield seat, PlayCard(rng.choice(illegal)), False
            return
        yield seat, rng.choice(cards), True
        return
    yes = [a for a in actions if isinstance(a, (Answer, Throw)) and getattr(a, "yes", True)]
    eager = 0.25 if rnd.question is not None and rnd.question.kind == "reservation" else 0.6
    if yes and rng.random() < eager:
        yield seat, rng.choice(yes), True
        return
    if isinstance(actions[0], AnswerSolo):
        solo = rng.random() < 0.35 and actions[1:]
        yield seat, rng.choice(actions[1:]) if solo else actions[0], True
        return
    plain = [a for a in actions if not isinstance(a, Throw)] or actions
    yield seat, rng.choice(plain), True


def play_game(
    module: Any, seed: int, rounds: int, *, full_log: bool = False, soft: list[Divergence] | None = None
) -> tuple[int, Divergence | None, dict[str, Any]]:
    """One session; returns (deals that agreed, the divergence or None, its rules)."""
    rng = random.Random(seed)
    config = draw_rules(rng)
    pair, _ = start_pair(module, config, seed)
    pair.full_log = full_log
    if soft is not None:
        pair.soft = soft
    agreed = 0
    try:
        for _ in range(4000):
            rnd = pair.gh.round
            if rnd.phase == "end":
                agreed += 1
                COVERAGE[rnd.void_type or rnd.game_type] += 1
                if rnd.black_sow_chooser is not None:
                    COVERAGE["(black sow, then that solo)"] += 1
                if rnd.poverty is not None and rnd.game_type in ("ramsch", "ramsch_sw"):
                    COVERAGE["(poverty nobody took, then ramsch)"] += 1
                if pair.gh.s.deal_count >= rounds:
                    return agreed, None, config
                for seat, action, _legal in list(choose(rng, pair)):
                    step(pair, seat, action)
                sync_deal(pair)
                continue
            for seat, action, _legal in list(choose(rng, pair)):
                step(pair, seat, action)
        raise Divergence("stuck", "no end after 4000 actions", pair.context())
    except Divergence as divergence:
        return agreed, divergence, config
    except Exception as error:  # a crash of either engine is a finding too
        return agreed, Divergence("crash", f"{type(error).__name__}: {error}"[:200], pair.context()), config


# ---------------------------------------------------------------------------------------------
# The card tables of both engines, compared directly
# ---------------------------------------------------------------------------------------------

TABLE_GAMES = (
    "normal",
    "wedding",
    "silent_wedding",
    "poverty",
    "black_sow",
    "ramsch",
    "ramsch_sw",
    *SOLO_ORDER,
)
SUIT_NAMES = {"c": "clubs", "s": "spades", "h": "hearts", "d": "diamonds"}


def card_tables(module: Any) -> dict[tuple[str, str], list[str]]:
    """For every game type and card rule set: where the reference classes a card (trump or
    suit) or orders the trumps differently from gamehall. Keys ``(game type, rules)``."""
    from gamehall.rules.doppelkopf.cards import deck_values, ranking_for

    found: dict[tuple[str, str], list[str]] = {}
    variants = [
        {"heart10": True, "solo_shift_h10": False},
        {"heart10": True, "solo_shift_h10": True},
        {"heart10": False, "solo_shift_h10": False},
    ]
    for rules in variants:
        ref = RefTable(module, {f"dk.{k}": v for k, v in rules.items()})
        ref.game.start()
        ref.drain()
        rnd = ref.round
        values = sorted(set(deck_values("with_all", "None")))
        by_value = {}
        for card in list(rnd.cards.values()):
            by_value.setdefault(card.card_value, card)
        for game in TABLE_GAMES:
            rnd.game_type = game
            ranking = ranking_for(
                game, heart10=rules["heart10"], shift_h10=rules["solo_shift_h10"], joker="None"
            )
            problems: list[str] = []
            trumps_ref, trumps_gh = [], []
            for value in values:
                card = by_value[value]
                rnd.current_trick = [(ref.players[0], card.card_id)]
                try:
                    colour = rnd.get_card_color(card)
                    key = rnd.get_card_sort_key(card) if colour == "trump" else None
                except Exception as error:
                    problems.append(f"{value}: reference raises {type(error).__name__}")
                    continue
                mine = "trump" if ranking.is_trump(value) else SUIT_NAMES[value[0]]
                if colour != mine:
                    problems.append(f"{value} is {colour} (gamehall: {mine})")
                if colour == "trump" == mine:
                    trumps_ref.append((key, value))
                    trumps_gh.append((ranking.strength(value), value))
            order_ref = [v for _k, v in sorted(trumps_ref, key=lambda kv: (-kv[0], kv[1]))]
            order_gh = [v for _k, v in sorted(trumps_gh, key=lambda kv: (-kv[0], kv[1]))]
            ties = sorted({v for k, v in trumps_ref if [kk for kk, _ in trumps_ref].count(k) > 1})
            if order_ref != order_gh:
                problems.append(f"trump order {order_ref} (gamehall: {order_gh})")
            if ties:
                problems.append(f"equal reference keys for different trumps: {ties}")
            if problems:
                found[(game, ",".join(f"{k}={v}" for k, v in rules.items()))] = problems
    return found


# ---------------------------------------------------------------------------------------------
# Classes of difference
# ---------------------------------------------------------------------------------------------


REFERENCE = "reference bug"
OURS = "Decision (ours)"


def _cards_seen(ctx: dict[str, Any]) -> set[str]:
    hands = ctx.get("hands") or []
    return {*(v for h in hands for v in h), *ctx.get("table", []), *ctx.get("last_trick", [])}


def _acting_hand(d: Divergence) -> list[str]:
    """The dealt hand of the seat whose action diverged (from the last log line)."""
    log = [line for line in d.context.get("log", []) if not line.startswith(" ")]
    hands = d.context.get("hands") or []
    if not log or not hands:
        return []
    seat = int(log[-1].split(":", 1)[0])
    return list(hands[seat])


def _extras_twice(d: Divergence) -> bool:
    mine, theirs = d.context.get("gamehall"), d.context.get("reference")
    if not d.detail.startswith("game_summary") or not mine or mine["winner"] is not None:
        return False
    if mine["game_summary"][0] != theirs["game_summary"][0] or not mine["game_summary"][1]:
        return False
    flipped = [("n_" if c.startswith("p_") else "p_") + c[2:] for c in mine["game_summary"][1]]
    return sorted(mine["game_summary"][1] + flipped) == theirs["game_summary"][1]


CLASSES: list[tuple[str, str, Any]] = [
    (
        "buck rounds: one counter per cause, each cause once per round, 4hearts in every game type "
        "(the reference: a counter per event, re_kontra_lost per party, 4hearts per trick and only "
        "in some game types, 0points only for Re)",
        OURS,
        lambda d: (d.kind == "score" and d.detail.startswith("buck")) or _only_buck_differs(d),
    ),
    (
        "no-win rounds list every extra twice in game_summary (as p_ and n_); vanilla clients get each once",
        REFERENCE,
        _extras_twice,
    ),
    (
        "solo_prio=prio starts the solo of the last player asked, not the winning announcer "
        "(KeyError when that player has none)",
        REFERENCE,
        lambda d: d.context["rules"].get("solo_prio") == "prio" and d.context.get("offers"),
    ),
    (
        "the ♥10 is a trump in the jack solo",
        REFERENCE,
        lambda d: (
            d.context.get("game_type") == "solo_jack"
            and (
                "h10" in _acting_hand(d)
                or "h10" in d.context.get("table", []) + d.context.get("last_trick", [])
            )
        ),
    ),
    (
        "with solo_shift_h10 the ♥10 is the lowest trump of a hearts solo (key 0)",
        REFERENCE,
        lambda d: (
            d.context.get("game_type") == "solo_hearts"
            and d.context["rules"].get("solo_shift_h10")
            and "h10" in _cards_seen(d.context)
        ),
    ),
    (
        "poverty: the passed cards must include the ♥10 even when dk.heart10 is off, and the joker "
        "is no trump, both for the passed cards and for the returned amount (note §9.12)",
        REFERENCE,
        lambda d: (
            ("invalid_poverty_cards" in d.detail or "invalid_return_amount" in d.detail)
            and (
                "j0" in _acting_hand(d)
                or any("'j0'" in line for line in d.context["log"][-3:])
                or (
                    not d.context["rules"].get("heart10", True)
                    and ("h10" in _acting_hand(d) or any("'h10'" in line for line in d.context["log"][-3:]))
                )
            )
        ),
    ),
    (
        "a wedding whose third trick is won by a non-bride without meeting the wish stays an open "
        "wedding for the rest of the round (no diamonds solo)",
        REFERENCE,
        lambda d: (
            d.context.get("game_type") == "solo_diamonds" and d.context.get("ref_game_type") == "wedding"
        ),
    ),
    (
        "a wedding that turns into a diamonds solo empties the Kontra party (parties['kontra'] is "
        "the cleared 'none' set): kontra is refused, Kontra's eyes and points are lost",
        REFERENCE,
        lambda d: (
            d.context.get("ref_game_type") == "solo_diamonds"
            and d.context["wedding"]
            and (
                "kontra party" in d.detail
                or (d.kind == "score" and len(d.context["reference"]["point_change"]) != 4)
            )
        ),
    ),
    (
        "jane is only looked at inside charlie_broken, which its requirement excludes, so it is "
        "never scored (note §9.13)",
        REFERENCE,
        lambda d: (
            d.kind == "score"
            and d.detail.startswith("extras")
            and sum(x.count("jane") for x in d.context["gamehall"]["extras"])
            > sum(x.count("jane") for x in d.context["reference"]["extras"])
        ),
    ),
    (
        "superpigs in a 40- or 44-card deck: the reference looks for the trump-suit 9 at "
        "reservation time (note §9.9; the superpig is the K there)",
        REFERENCE,
        lambda d: "superpigs" in d.detail and d.context["rules"].get("without9", "with_all") != "with_all",
    ),
    (
        "black sow: re/kontra deadlines count from the trick in which the solo was named (the "
        "parties were unknown before); the reference counts from trick 1",
        OURS,
        lambda d: "re_too_late" in d.detail and "BlackSowSolo" in d.context["seen"],
    ),
    (
        "black sow whose second ♠Q falls in the last trick: gamehall still asks for the solo, so the "
        "deal has parties to score; the reference asks nothing and scores all four as Kontra",
        OURS,
        lambda d: (
            d.kind == "question"
            and "black_sow_solo" in d.detail
            and any(
                line.startswith("  trick") and f"trick {d.context['tricks_total']} " in line
                for line in d.context["log"][-2:]
            )
        ),
    ),
    (
        "circulate_duty: the last candidate is still asked poverty_accept (only accepting is "
        "legal); the reference accepts for them without asking",
        OURS,
        lambda d: (
            d.kind == "question"
            and "poverty_accept" in d.detail
            and d.context["rules"].get("poverty") == "circulate_duty"
        ),
    ),
    (
        "with both re and kontra announced Kontra's target rises to 121 as well, so 120:120 has no "
        "winner (note §6.5: only a lone kontra raises it)",
        REFERENCE,
        lambda d: (
            d.kind == "score"
            and d.context["gamehall"]["eyes"] == [120, 120]
            and d.context["gamehall"]["winner"] != d.context["reference"]["winner"]
        ),
    ),
    (
        "an announcement between a pig call and the pig card lifts the obligation to play the pig "
        "(the reference only looks at the last logged move)",
        REFERENCE,
        lambda d: (
            "pc_called_pigs, reference accepts" in d.detail
            and any("Announce" in line for line in d.context["log"][-3:])
        ),
    ),
    (
        "pigs=one_on_fox while a player has no party yet (open wedding, black sow): the reference "
        "crashes building the pig button (KeyError '')",
        REFERENCE,
        lambda d: "KeyError: ''" in d.detail and d.context["rules"].get("pigs") == "one_on_fox",
    ),
    (
        "ramsch with both ♣Q in one hand (ramsch_sw) makes every card a trump of equal rank",
        REFERENCE,
        lambda d: d.context.get("ref_game_type") == "ramsch_sw",
    ),
    (
        "pigs in a solo: the first question names the soloist while the answer is awaited from "
        "player_list[0]",
        REFERENCE,
        lambda d: d.kind == "question" and "pigs" in d.detail and d.context.get("round") is not None,
    ),
]


def _only_buck_differs(d: Divergence) -> bool:
    mine, theirs = d.context.get("gamehall"), d.context.get("reference")
    if not mine or not theirs or mine["buck"] == theirs["buck"]:
        return False
    return all(mine[k] == theirs[k] for k in mine if k not in ("point_change", "points", "buck"))


def classify(d: Divergence) -> tuple[str, str]:
    """(class, side that is right) of a difference; unexplained ones say so."""
    for name, side, test in CLASSES:
        try:
            if test(d):
                return name, side
        except (KeyError, IndexError, ValueError):
            continue
    return f"UNEXPLAINED {d.kind} [{d.context.get('game_type')}] {_shape(d.detail)}", "?"


def _shape(detail: str) -> str:
    """The detail without the varying numbers, so equal causes group together."""
    out = []
    for word in detail.split():
        out.append(
            "#"
            if any(ch.isdigit() for ch in word) and not word.startswith(("no", "c_", "fc_", "o"))
            else word
        )
    return " ".join(out)[:140]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--reference", type=Path, required=True, help="root of a not-na/cardgame checkout")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=4, help="deals per game (buck rounds need several)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--examples", type=Path, help="write one example per class (JSON) here")
    parser.add_argument("--tables", action="store_true", help="compare the card tables of both engines")
    parser.add_argument("--show", type=int, help="replay the game of this seed and print its full log")
    args = parser.parse_args()
    module = load_reference(args.reference)
    REF_KEYS.update(module.DoppelkopfGame.GAMERULES)
    from gamehall.rules.doppelkopf.settings import effective_rules

    DEFAULTS.update(effective_rules({}))
    if args.tables:
        for (game, rules), problems in card_tables(module).items():
            print(f"{game} [{rules}]")
            for problem in problems:
                print(f"    {problem}")
        return
    if args.show is not None:
        agreed, divergence, config = play_game(module, args.show, args.rounds, full_log=True)
        print(json.dumps(config), agreed)
        if divergence is not None:
            print(divergence.detail)
            print(json.dumps({k: v for k, v in divergence.context.items() if k != "log"}, default=str))
            print("\n".join(divergence.context["log"]))
        return
    started = time.time()
    classes: collections.Counter[str] = collections.Counter()
    listing: collections.Counter[str] = collections.Counter()
    examples: dict[str, dict[str, Any]] = {}
    agreed_deals = compared_deals = 0
    for game in range(args.games):
        seed = args.seed * 1_000_000 + game
        soft: list[Divergence] = []
        agreed, divergence, _config = play_game(module, seed, args.rounds, soft=soft)
        for noted in soft:
            name, side = classify(noted)
            listing[f"{side}: {name}"] += 1
        agreed_deals += agreed
        compared_deals += agreed + (divergence is not None)
        if divergence is not None:
            name, side = classify(divergence)
            classes[f"{side}: {name}"] += 1
            examples.setdefault(name, {"seed": seed, "detail": divergence.detail, **divergence.context})
    print(f"games {args.games}, deals compared {compared_deals}, deals agreeing {agreed_deals}")
    print(f"seconds {time.time() - started:.0f}")
    print("agreeing deals by game type:", ", ".join(f"{k} {n}" for k, n in COVERAGE.most_common()))
    print("listing differences (the game went on):")
    for name, count in listing.most_common():
        print(f"{count:6d}  {name}")
    print("differences (first one of a game; the game stops there):")
    for name, count in classes.most_common():
        print(f"{count:6d}  {name}")
    if args.examples:
        args.examples.write_text(json.dumps(examples, indent=1, default=str), encoding="utf-8")


if __name__ == "__main__":
    main()

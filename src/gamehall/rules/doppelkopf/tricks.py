"""Following suit and taking tricks (note §6.1).

Pure functions over card values: the engine passes the round's :class:`Ranking`, the values it
holds, and which card ids are promoted to pigs or superpigs in the trick at hand.

The tie rule: of two equal cards the one played first (in seat order from the leader) wins,
except two ♥10 (the card in the ♥10 role) — ``dk.heart10_prio``, or ``dk.heart10_lasttrick`` in
the last trick — and two ♣J in the last trick — ``dk.charlie_prio``; ``second`` makes the later
one win.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gamehall.rules.doppelkopf.cards import TRUMP, Ranking

PIG_STRENGTH = 90
SUPERPIG_STRENGTH = 100


@dataclass(frozen=True, slots=True)
class TieRules:
    """The three "second one wins" switches (``"first"`` or ``"second"`` each)."""

    heart10_prio: str = "first"
    heart10_lasttrick: str = "first"
    charlie_prio: str = "first"


def card_class(value: str, ranking: Ranking, promoted: Mapping[str, int], card_id: str = "") -> str:
    """The class a card belongs to: a promoted pig is always a trump."""
    if card_id in promoted:
        return TRUMP
    return ranking.classify(value)


def legal_cards(
    hand: Sequence[str],
    values: Mapping[str, str],
    led: str | None,
    ranking: Ranking,
    promoted: Mapping[str, int] | None = None,
) -> list[str]:
    """The ids in ``hand`` that may be played on a trick led by ``led`` (None: any card).

    If the hand holds a card of the led class it must play one; otherwise anything goes.
    """
    if led is None:
        return list(hand)
    promoted = promoted or {}
    led_class = card_class(values[led], ranking, promoted, led)
    following = [c for c in hand if card_class(values[c], ranking, promoted, c) == led_class]
    return following or list(hand)


def follows(
    card: str,
    hand: Sequence[str],
    values: Mapping[str, str],
    led: str,
    ranking: Ranking,
    promoted: Mapping[str, int] | None = None,
) -> bool:
    """Whether playing ``card`` from ``hand`` on ``led`` obeys the follow-suit rule (the same
    answer as ``card in legal_cards(...)``, without building the list)."""
    if card not in hand:
        return False
    promoted = promoted or {}
    led_class = card_class(values[led], ranking, promoted, led)
    if card_class(values[card], ranking, promoted, card) == led_class:
        return True
    return all(card_class(values[c], ranking, promoted, c) != led_class for c in hand)


def trick_winner(
    cards: Sequence[str],
    values: Mapping[str, str],
    ranking: Ranking,
    *,
    last_trick: bool,
    ties: TieRules,
    promoted: Mapping[str, int] | None = None,
) -> int:
    """Index into ``cards`` (seat order from the leader) of the card that takes the trick.

    ``promoted`` maps card ids acting as pigs or superpigs to their strength.
    """
    promoted = promoted or {}
    led_class = card_class(values[cards[0]], ranking, promoted, cards[0])
    best = 0
    for index in range(1, len(cards)):
        if _beats(cards[index], cards[best], values, ranking, led_class, promoted, last_trick, ties):
            best = index
    return best


def _key(
    card: str, values: Mapping[str, str], ranking: Ranking, promoted: Mapping[str, int]
) -> tuple[str, int]:
    if card in promoted:
        return TRUMP, promoted[card]
    value = values[card]
    return ranking.classify(value), ranking.strength(value)


def _beats(
    card: str,
    best: str,
    values: Mapping[str, str],
    ranking: Ranking,
    led_class: str,
    promoted: Mapping[str, int],
    last_trick: bool,
    ties: TieRules,
) -> bool:
    """Whether the later ``card`` beats the current ``best``."""
    card_cls, card_strength = _key(card, values, ranking, promoted)
    best_cls, best_strength = _key(best, values, ranking, promoted)
    if card_cls != best_cls:
        return card_cls == TRUMP
    if card_cls not in (TRUMP, led_class):
        return False
    if card_strength != best_strength:
        return card_strength > best_strength
    value = values[card]
    if card not in promoted and value == values[best]:
        if ranking.normal_set and value == ranking.heart10:  # only the card in the ♥10's role
            prio = ties.heart10_lasttrick if last_trick else ties.heart10_prio
            return prio == "second"
        if value == "cj" and last_trick:
            return ties.charlie_prio == "second"
    return False

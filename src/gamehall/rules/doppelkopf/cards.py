"""Doppelkopf cards: values, eyes, decks and the ranking of every game type (note §6.1).

A card *value* is what the note's wire shows: suit ``c|s|h|d`` + rank ``9|j|q|k|10|a``
(``"cq"``, ``"h10"``, ``"da"``), or ``"j0"`` for the joker. Two physical cards share each value,
so each dealt card also has an *id*: 32 lowercase hex digits, fresh each deal (the note's "fresh
random UUIDs"). Every seat sees every id, so ids must say nothing about the shuffle: they are an
HMAC-SHA256 of (deal number, position) under a key derived from the table's secret seed
(:func:`card_id_key`), never a draw from the shuffling generator, whose outputs would expose its
state. The seed is in the room log and never sent, so replays rebuild the same ids.

Ranking is expressed as a *class* and a *strength*: the class is ``"trump"`` or the plain suit
letter; a card can only beat cards of the led class or trumps, and within a class the higher
strength wins. Which cards are trumps, and in what order, depends on the game type.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
from dataclasses import dataclass, field

from gamehall.rules._core import Rng

SUITS = ("c", "s", "h", "d")
"""Clubs, spades, hearts, diamonds: also the tie order inside a rank (♣ highest)."""

RANKS = ("9", "j", "q", "k", "10", "a")

JOKER = "j0"

EYES = {"a": 11, "10": 10, "k": 4, "q": 3, "j": 2, "9": 0}
"""Card points ("eyes", the wire's ``pips``); 240 in a full deck."""

TRUMP = "trump"

ALL_VALUES = (*(suit + rank for suit in SUITS for rank in RANKS), JOKER)
"""Every card value of every deck variant."""

EYES_OF_VALUE = {value: 0 if value == JOKER else EYES[value[1:]] for value in ALL_VALUES}
"""The eyes of every card value (a lookup for the hot paths: tricks, scores)."""

# ---------------------------------------------------------------------------------------------
# Game types
# ---------------------------------------------------------------------------------------------

SOLO_ORDER = (
    "solo_aces",
    "solo_10s",
    "solo_picture",
    "solo_noble_brothel",
    "solo_monastery",
    "solo_king",
    "solo_brothel",
    "solo_queen",
    "solo_jack",
    "solo_9s",
    "solo_clubs",
    "solo_spades",
    "solo_hearts",
    "solo_diamonds",
    "solo_pure_clubs",
    "solo_pure_spades",
    "solo_pure_hearts",
    "solo_pure_diamonds",
    "solo_fleshless",
    "solo_null",
    "solo_boneless",
)
"""Every solo of the rule set, highest priority first (note §6.2, for ``dk.solo_prio=prio``)."""

COLOUR_SOLOS = {"solo_clubs": "c", "solo_spades": "s", "solo_hearts": "h", "solo_diamonds": "d"}
"""Solos that keep the normal trumps but change the trump suit."""

RANK_SOLOS: dict[str, tuple[str, ...]] = {
    "solo_queen": ("q",),
    "solo_jack": ("j",),
    "solo_king": ("k",),
    "solo_aces": ("a",),
    "solo_10s": ("10",),
    "solo_9s": ("9",),
    "solo_brothel": ("j", "q"),
    "solo_monastery": ("j", "k"),
    "solo_noble_brothel": ("q", "k"),
    "solo_picture": ("j", "q", "k"),
}
"""Solos whose trumps are whole ranks, lowest rank first."""

PURE_SOLOS = {
    "solo_pure_clubs": "c",
    "solo_pure_spades": "s",
    "solo_pure_hearts": "h",
    "solo_pure_diamonds": "d",
}
"""Solos where one suit alone is trump, 9<J<Q<K<10<A."""

TRUMPLESS_SOLOS = ("solo_fleshless", "solo_boneless")

NULL_SOLOS = ("solo_null", "solo_boneless")
"""Solos the soloist wins by taking no eyes at all."""

NORMAL_TRUMP_GAMES = ("normal", "wedding", "poverty", "silent_wedding", "black_sow", "ramsch", "ramsch_sw")
"""Game types played with the normal trumps and ♦ as trump suit."""

SHIFTED_HEART10 = {"solo_hearts": "s10", "solo_spades": "c10", "solo_clubs": "d10"}
"""Where ``dk.solo_shift_h10`` moves the ♥10's role in a colour solo."""


def suit_of(value: str) -> str:
    return value[0]


def rank_of(value: str) -> str:
    return value[1:]


def eyes_of(value: str) -> int:
    known = EYES_OF_VALUE.get(value)
    if known is not None:
        return known
    return 0 if value == JOKER else EYES[rank_of(value)]


# ---------------------------------------------------------------------------------------------
# Decks and deals
# ---------------------------------------------------------------------------------------------


def deck_values(without9: str, joker: str) -> list[str]:
    """The values of a deck in a fixed order, before shuffling.

    ``without9`` is ``with_all`` (48 cards), ``with_four`` (one 9 per suit removed, 44) or
    ``without`` (all nines removed, 40). With a joker, one ♦9 (♦K in the 40-card deck) becomes
    ``j0``.
    """
    nines = {"with_all": 2, "with_four": 1, "without": 0}[without9]
    values: list[str] = []
    for suit in SUITS:
        for rank in RANKS:
            copies = nines if rank == "9" else 2
            values += [suit + rank] * copies
    if joker != "None":
        values.remove("dk" if nines == 0 else "d9")
        values.append(JOKER)
    return values


def tricks_per_round(without9: str) -> int:
    return {"with_all": 12, "with_four": 11, "without": 10}[without9]


def deal_steps(deck_size: int) -> list[int]:
    """How many cards each of the 16 dealing steps gives (3 each; the last four 2 or 1)."""
    last = (deck_size - 36) // 4
    return [3] * 12 + [last] * 4


@dataclass(frozen=True, slots=True)
class Deal:
    """A shuffled deal: each card's id and value, and the four hands by player-list index."""

    values: dict[str, str]
    hands: list[list[str]]
    stack: list[str]


def card_id_key(seed: int) -> bytes:
    """The table's key for card ids: a hash of its seed under a fixed label, so it is as secret
    as the seed (64 random bits from ``secrets``, logged, never sent) and replays derive it
    again. Guessing it is no easier than guessing the seed, which a seat's own hand already
    narrows no further than the shuffle itself does."""
    return hashlib.sha256(b"gamehall/doppelkopf/card-ids\0" + str(seed).encode()).digest()


def card_id(key: bytes, deal_no: int, position: int) -> str:
    """The id of the card at ``position`` of deal ``deal_no``'s shuffled stack."""
    return hmac.new(key, f"{deal_no}:{position}".encode(), hashlib.sha256).hexdigest()[:32]


def card_ids(key: bytes, deal_no: int, count: int) -> list[str]:
    """:func:`card_id` of positions ``0 .. count-1``, the same digests made faster: HMAC-SHA256
    (RFC 2104) is sha256(key^opad + sha256(key^ipad + message)), so the two keyed hash states
    are made once per deal and copied per card instead of keying a new HMAC 48 times."""
    block = hashlib.sha256(key).digest() if len(key) > _SHA256_BLOCK else key
    block = block.ljust(_SHA256_BLOCK, b"\0")
    inner_key = hashlib.sha256(bytes(b ^ 0x36 for b in block))
    outer_key = hashlib.sha256(bytes(b ^ 0x5C for b in block))
    ids = []
    for position in range(count):
        inner = inner_key.copy()
        inner.update(f"{deal_no}:{position}".encode())
        outer = outer_key.copy()
        outer.update(inner.digest())
        ids.append(outer.hexdigest()[:32])
    return ids


_SHA256_BLOCK = 64


def deal(rng: Rng, without9: str, joker: str, *, id_key: bytes, deal_no: int) -> Deal:
    """Shuffle a fresh deck, give every card a keyed id, deal in the note's 16 steps."""
    values = deck_values(without9, joker)
    rng.shuffle(values)
    ids = card_ids(id_key, deal_no, len(values))
    assert len(set(ids)) == len(ids)  # 128-bit HMAC prefixes: a collision is not a real event
    by_id = dict(zip(ids, values, strict=True))
    hands: list[list[str]] = [[], [], [], []]
    position = 0
    for step, count in enumerate(deal_steps(len(ids))):
        hands[step % 4] += ids[position : position + count]
        position += count
    return Deal(by_id, hands, ids)


# ---------------------------------------------------------------------------------------------
# Ranking
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ranking:
    """The trump set of one game type under the table's rules.

    ``heart10`` is the value playing the ♥10's role (``None`` when there is none), ``joker`` the
    joker's placement (``"None"``, ``"over_h10"`` or ``"over_pigs"``).
    """

    game_type: str
    heart10: str | None
    joker: str
    _classes: dict[str, str] = field(init=False, repr=False, compare=False, hash=False)
    _strengths: dict[str, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        """Work out every value's class and strength once: a deal asks for them thousands of
        times (every follow-suit check, every trick), and :func:`ranking_for` hands out one
        ranking per game type and rule set, so the tables are built once per process."""
        object.__setattr__(self, "_classes", {v: self._work_out_class(v) for v in ALL_VALUES})
        object.__setattr__(self, "_strengths", {v: self._work_out_strength(v) for v in ALL_VALUES})

    @property
    def trump_suit(self) -> str | None:
        """The suit whose A, 10, K, 9 are low trumps (♦ in normal games), if any."""
        if self.game_type in NORMAL_TRUMP_GAMES or self.game_type == "solo_null":
            return "d"
        if self.game_type in COLOUR_SOLOS:
            return COLOUR_SOLOS[self.game_type]
        if self.game_type in PURE_SOLOS:
            return PURE_SOLOS[self.game_type]
        return None

    @property
    def normal_set(self) -> bool:
        """Whether queens, jacks and the ♥10 role are trumps (normal, ♦/colour and null solos)."""
        return (
            self.game_type in NORMAL_TRUMP_GAMES
            or self.game_type in COLOUR_SOLOS
            or self.game_type == "solo_null"
        )

    def is_trump(self, value: str) -> bool:
        return self.classify(value) == TRUMP

    def classify(self, value: str) -> str:
        """``"trump"`` or the plain suit the card belongs to in this game."""
        known = self._classes.get(value)
        return self._work_out_class(value) if known is None else known

    def strength(self, value: str) -> int:
        """Order inside the card's class: higher beats lower (pig promotions come on top)."""
        known = self._strengths.get(value)
        return self._work_out_strength(value) if known is None else known

    def _work_out_class(self, value: str) -> str:
        if value == JOKER:
            return TRUMP
        suit, rank = suit_of(value), rank_of(value)
        game = self.game_type
        if self.normal_set:
            if value == self.heart10 or rank in ("q", "j") or suit == self.trump_suit:
                return TRUMP
            return suit
        if game in RANK_SOLOS:
            return TRUMP if rank in RANK_SOLOS[game] else suit
        if game in PURE_SOLOS:
            return TRUMP if suit == PURE_SOLOS[game] else suit
        return suit

    def _work_out_strength(self, value: str) -> int:
        if value == JOKER:
            return 86 if self.joker == "over_h10" and self.normal_set else 95
        suit, rank = suit_of(value), rank_of(value)
        suit_bonus = 3 - SUITS.index(suit)  # ♣ 3, ♠ 2, ♥ 1, ♦ 0
        if self._work_out_class(value) != TRUMP:
            return _plain_order(rank)
        game = self.game_type
        if self.normal_set:
            if value == self.heart10:
                return 80
            if rank == "q":
                return 70 + suit_bonus
            if rank == "j":
                return 60 + suit_bonus
            return 40 + _plain_order(rank)
        if game in RANK_SOLOS:
            return 10 * (RANK_SOLOS[game].index(rank) + 1) + suit_bonus
        return 40 + _pure_order(rank)

    def pig_value(self) -> str | None:
        """The trump-suit ace (the pigs), in games that have a trump suit with the normal set."""
        suit = self.trump_suit
        return None if suit is None or not self.normal_set else suit + "a"

    def superpig_value(self, without9: str) -> str | None:
        """The trump-suit 9, or K when the deck lacks nines (Decision (ours), fixes Ref)."""
        suit = self.trump_suit
        if suit is None or not self.normal_set:
            return None
        return suit + ("9" if without9 == "with_all" else "k")


def _plain_order(rank: str) -> int:
    """A > 10 > K > Q > J > 9 in a plain suit."""
    return {"a": 6, "10": 5, "k": 4, "q": 3, "j": 2, "9": 1}[rank]


def _pure_order(rank: str) -> int:
    """9 < J < Q < K < 10 < A in a pure-suit solo."""
    return {"9": 1, "j": 2, "q": 3, "k": 4, "10": 5, "a": 6}[rank]


@functools.lru_cache(maxsize=512)
def ranking_for(game_type: str, *, heart10: bool, shift_h10: bool, joker: str) -> Ranking:
    """The ranking of ``game_type`` under ``dk.heart10``, ``dk.solo_shift_h10`` and ``dk.joker``
    (one shared, immutable object per combination: its tables are built once)."""
    role: str | None = "h10" if heart10 else None
    if heart10 and shift_h10 and game_type in SHIFTED_HEART10:
        role = SHIFTED_HEART10[game_type]
    return Ranking(game_type, role, joker)

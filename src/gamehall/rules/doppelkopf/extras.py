"""Special points (extras) of a finished round (note §6.5 step 5).

Each extra is +1 for the party that collects it, and only in normal, wedding, poverty and ramsch
games. They are judged with the final parties, so a fox caught before a wedding was clarified
still counts for the right side. ``against_cqs`` (Kontra wins against the queens) is added by
the engine once the winner is known.
"""

from __future__ import annotations

from gamehall.rules.doppelkopf.cards import eyes_of, suit_of
from gamehall.rules.doppelkopf.play import Referee
from gamehall.rules.doppelkopf.scoring import EXTRAS_GAMES
from gamehall.rules.doppelkopf.state import TrickState


def _seat_cards(trick: TrickState) -> list[tuple[int, str]]:
    return [(seat, card) for seat in trick.in_seat_order() if (card := trick.cards[seat]) is not None]


def all_plain(ref: Referee, trick: TrickState, suit: str) -> bool:
    """Whether the trick is four non-trump cards of ``suit``."""
    ranking = ref.ranking()
    return all(
        not ranking.is_trump(ref.value(c)) and suit_of(ref.value(c)) == suit for _, c in _seat_cards(trick)
    )


def collect_extras(ref: Referee) -> tuple[list[str], list[str]]:
    """The extras of Re and of Kontra, in trick order."""
    rnd, rules = ref.rnd, ref.rules
    if rnd.game_type not in EXTRAS_GAMES:
        return [], []
    won: dict[str, list[str]] = {"re": [], "kontra": []}
    black_tricks = {"s": 0, "c": 0}
    fox = ref.ranking().pig_value() or "da"
    for trick in rnd.tricks:
        assert trick.winner is not None
        party = ref.party_of(trick.winner)
        assert party is not None
        cards = _seat_cards(trick)
        values = [ref.value(c) for _, c in cards]
        winning = ref.value(trick.cards[trick.winner] or "")
        last = trick.number == rnd.tricks_total
        if rules["doppelkopf"] and sum(eyes_of(v) for v in values) >= 40:
            won[party].append("doppelkopf")
        if rules["fox"]:
            for seat, card in cards:
                # A pig is still a fox: caught by superpigs it counts (Ref; note §6.5 step 5).
                if ref.value(card) == fox and ref.party_of(seat) != party:
                    won[party].append("fox")
        if rules["heart_trick"] and all_plain(ref, trick, "h"):
            won[party].append("heart_trick")
        if rules["sec_black_trick"]:
            for suit in black_tricks:
                if all_plain(ref, trick, suit):
                    black_tricks[suit] += 1
                    if black_tricks[suit] == 2:
                        won[party].append("sec_black_trick")
        if rules["hobgoblin"] and winning == "sq":
            won[party] += ["hobgoblin"] * values.count("sk")  # one per ♠K, like foxes (Ref)
        if last:
            _last_trick_extras(ref, cards, winning, party, won[party])
    return won["re"], won["kontra"]


def _last_trick_extras(
    ref: Referee, cards: list[tuple[int, str]], winning: str, party: str, won: list[str]
) -> None:
    rules = ref.rules
    caught_charlies = sum(1 for seat, c in cards if ref.value(c) == "cj" and ref.party_of(seat) != party)
    if rules["charlie"] and winning == "cj":
        won.append("charlie")
    if rules["fox_lasttrick"] and winning == "da":
        won.append("fox_lasttrick")
    if rules["charlie_broken"]:
        won += ["charlie_broken"] * caught_charlies
    if rules["jane"] and winning == "dq":
        won += ["jane"] * caught_charlies

"""What one seat (or a spectator, ``None``) may know about a Doppelkopf table.

This is the only place that decides visibility: a seat sees its own hand (every hand with
``dk.open_cards``), the cards on the table, the taken tricks' eyes, announcements, points and
summaries. The poverty cards are shown only to the two parties of the exchange (a ``sell``
candidate only after accepting), a question only to its target, and a complaint's move list
only to the accuser.

:func:`card_places` is the same seat's view of where every card of the deal lies (hands, won
tricks, the table), for a client that moves each card as an object and must rebuild them all
when a seat returns (cg). Card *ids* are public (every seat saw every card dealt); values
follow the rules above.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gamehall.rules._core import JSON, Seat, ToMove
from gamehall.rules.doppelkopf.cards import JOKER, SUITS, TRUMP, Ranking, ranking_for
from gamehall.rules.doppelkopf.play import Referee
from gamehall.rules.doppelkopf.state import RoundState, TableState


def _cards(rnd: RoundState, ids: list[str]) -> list[dict[str, str]]:
    return [{"id": c, "value": rnd.values[c]} for c in ids]


def _sorted_hand(ref: Referee, ids: list[str]) -> list[dict[str, JSON]]:
    """A hand in the order a player holds it under the round's game type: trumps first,
    strongest first, then the plain suits (clubs, spades, hearts, diamonds), each strongest
    first. Each card says whether it is a trump now, so a table can set the trumps apart.

    Before play starts the order is the normal game's: the game type is not public during the
    reservations, and a hand re-sorted by a solo someone chose would tell every seat about it."""
    ranking = ref.ranking() if ref.rnd.phase in ("tricks", "end") else _normal_ranking(ref)

    def key(card: str) -> tuple[int, int, int]:
        value = ref.rnd.values[card]
        kind = ranking.classify(value)
        group = -1 if kind == TRUMP else SUITS.index(kind)
        return (group, -ranking.strength(value), SUITS.index(value[0]) if value != JOKER else -1)

    return [
        {"id": c, "value": ref.rnd.values[c], "trump": ranking.is_trump(ref.rnd.values[c])}
        for c in sorted(ids, key=key)
    ]


def _normal_ranking(ref: Referee) -> Ranking:
    return ranking_for(
        "normal",
        heart10=bool(ref.rules["heart10"]),
        shift_h10=bool(ref.rules["solo_shift_h10"]),
        joker=str(ref.rules["joker"]),
    )


def _poverty_view(ref: Referee, seat: Seat | None) -> dict[str, JSON] | None:
    poverty = ref.rnd.poverty
    if poverty is None:
        return None
    view: dict[str, JSON] = {"poor": poverty.poor, "taker": poverty.taker, "passed": len(poverty.passed)}
    candidate = poverty.candidates[0] if poverty.candidates else None
    sees = bool(ref.rules["open_cards"]) or (
        seat is not None
        and (seat in (poverty.poor, poverty.taker) or (seat == candidate and ref.rules["poverty"] != "sell"))
    )
    if sees:
        view["passed_cards"] = _cards(ref.rnd, poverty.passed)
        view["returned_cards"] = _cards(ref.rnd, poverty.returned)
    return view


def _round_view(table: TableState, ref: Referee, seat: Seat | None) -> dict[str, JSON]:
    rnd, rules = ref.rnd, ref.rules
    open_cards = bool(rules["open_cards"])
    trick = rnd.trick
    view: dict[str, Any] = {
        "round": rnd.number,
        "phase": rnd.phase,
        "player_list": list(rnd.player_list),
        "total_tricks": rnd.tricks_total,
        "hand_sizes": [len(h) for h in rnd.hands],
        "hand": _sorted_hand(ref, rnd.hands[seat]) if seat is not None else [],
        "hands": [_cards(rnd, h) for h in rnd.hands] if open_cards else None,
        "ready": list(rnd.ready),
        "game_type": ref.shown_type() if rnd.phase in ("tricks", "end") else None,
        "soloist": rnd.soloist if rnd.game_type not in ("silent_wedding", "ramsch_sw") else None,
        "trick": None
        if trick is None
        else {
            "number": trick.number,
            "leader": trick.leader,
            "cards": [None if c is None else {"id": c, "value": rnd.values[c]} for c in trick.cards],
        },
        "current_player": ref.current_player(),
        "tricks_won": [sum(1 for t in rnd.tricks if t.winner == s) for s in range(4)],
        "eyes": [ref.eyes_of_seat(s) for s in range(4)],
        "last_trick": None
        if not rnd.tricks
        else [None if c is None else rnd.values[c] for c in rnd.tricks[-1].cards],
        "last_trick_winner": rnd.tricks[-1].winner if rnd.tricks else None,
        "last_trick_leader": rnd.tricks[-1].leader if rnd.tricks else None,
        # Once the round is scored every seat's party is public (the result names them).
        "re_seats": sorted(rnd.re_seats) if rnd.phase == "end" and rnd.re_seats is not None else None,
        "announcements": [{"seat": a.seat, "kind": a.kind, "party": a.party} for a in rnd.announcements],
        "pigs": bool(rnd.pig_ids),
        "superpigs": bool(rnd.superpig_ids),
        "wedding": None if rnd.bride is None else {"bride": rnd.bride, "trick": rnd.clarification},
        "poverty": _poverty_view(ref, seat),
        "asked": None if rnd.question is None else rnd.question.seat,
        "question": rnd.question.kind if rnd.question is not None and rnd.question.seat == seat else None,
        "complaint": None,
    }
    view["playable"] = ref.legal_plays(seat) if seat is not None else []
    if seat is not None and rnd.phase == "tricks":
        buttons = ref.buttons(seat)
        view["rebtn_lbl"], view["pigbtn_lbl"] = buttons.rebtn_lbl, buttons.pigbtn_lbl
    if seat is not None and rnd.phase in ("tricks", "end"):
        view["party"] = ref.party_of(seat)
    if rnd.complaint is not None:
        complaint = rnd.complaint
        shown: dict[str, JSON] = {
            "accuser": complaint.accuser,
            "accused": complaint.accused,
            "kind": complaint.kind,
        }
        if seat == complaint.accuser:
            shown["moves"] = [
                {"id": m.id, "type": m.kind, "data": m.data} for m in rnd.moves if m.id in complaint.listed
            ]
        view["complaint"] = shown
    return view


def _copy(value: Any) -> Any:
    """A deep copy of JSON data, so a view never shares lists with the state."""
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


def table_view(table: TableState, seat: Seat | None, to_move: ToMove) -> dict[str, JSON]:
    """The whole view of ``seat`` (``None`` = a spectator)."""
    if seat is not None and not 0 <= seat < 4:
        seat = None
    rules = table.config
    view: dict[str, JSON] = {
        "seats": [
            {"seat": s, "name": name, "present": table.present[s]} for s, name in enumerate(table.names)
        ],
        "started": table.started,
        "finished": table.end_reason is not None,
        "end_reason": table.end_reason,
        "points": list(table.points),
        "summaries": _copy(table.summaries),
        "votes": {kind: sorted(int(s) for s in ballots) for kind, ballots in table.votes.items()},
        "to_move": {"seats": sorted(to_move.seats), "kind": to_move.kind},
        "rules": _copy(rules),
        "round": None,
    }
    if table.round is not None:
        view["round"] = _round_view(table, Referee(table.round, rules), seat)
    return view


@dataclass(frozen=True, slots=True)
class CardPlace:
    """Where one card of the deal lies, as one seat may know it.

    ``place`` is ``"hand"`` or ``"tricks"`` (of ``seat``) or ``"table"`` (the trick being
    played; ``seat`` is ``None``). ``value`` is ``None`` when the seat may not see the card.
    """

    card: str
    place: str
    seat: Seat | None
    value: str | None


def card_places(table: TableState, seat: Seat | None) -> list[CardPlace]:
    """Every card of the current deal, as ``seat`` (``None`` = a spectator) may know it: each
    hand in seat order (values only of its own hand, or of all with ``dk.open_cards``), then
    the won tricks in the order they were taken (values hidden), then the cards of the trick
    on the table (values shown). Empty between deals."""
    rnd = table.round
    if rnd is None:
        return []
    open_cards = bool(table.config["open_cards"])
    places = [
        CardPlace(card, "hand", owner, rnd.values[card] if open_cards or owner == seat else None)
        for owner, hand in enumerate(rnd.hands)
        for card in hand
    ]
    for trick in rnd.tricks:
        if trick.winner is not None:
            places += [CardPlace(card, "tricks", trick.winner, None) for card in trick.cards if card]
    if rnd.trick is not None and rnd.trick.winner is None:
        places += [CardPlace(card, "table", None, rnd.values[card]) for card in rnd.trick.cards if card]
    return places

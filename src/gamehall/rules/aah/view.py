"""What one seat (or a spectator) may know about an AAH table, as JSON.

This is the only place that decides it: a hand is shown to its owner alone, submissions are
shown without owners until the round is won, and the cards of a void round (back in their
owners' hands) are never attributed.
"""

from __future__ import annotations

from collections.abc import Iterable

from gamehall.rules._core import JSON, Seat
from gamehall.rules.aah.cards import WhiteCard
from gamehall.rules.aah.state import Phase, TableState


def table_view(table: TableState, seat: Seat | None) -> dict[str, JSON]:
    """The view of ``seat`` (``None`` = a spectator); the shape is documented in
    :meth:`gamehall.rules.aah.table.AahTable.view`."""
    rnd = table.round
    czar = table.current_czar()
    in_round = table.phase in (Phase.PICK, Phase.JUDGE)
    me = table.seats.get(seat) if seat is not None else None
    if me is not None and me.released:
        me = None
    return {
        "game": "aah",
        "phase": table.phase.value,
        "round": table.round_number,
        "czar": czar,
        "black": (
            {"text": rnd.black.text, "pick": rnd.black.pick, "draw": rnd.black.draw}
            if rnd is not None and czar is not None
            else None
        ),
        "hand": _cards(me.hand) if me is not None else [],
        "my_submission": (
            [card.card_id for card in rnd.submissions.get(me.seat, ())]
            if me is not None and rnd is not None and in_round
            else []
        ),
        "submissions": (
            [{"cards": _cards(rnd.submissions[owner])} for owner in rnd.reveal_order]
            if rnd is not None and table.phase is Phase.JUDGE
            else []
        ),
        "seats": [
            {
                "seat": rec.seat,
                "name": rec.name,
                "present": rec.present,
                "points": rec.points,
                "czar": rec.seat == czar,
                "done": rnd is not None and in_round and rnd.is_complete(rec.seat),
            }
            for rec in table.taken()
        ],
        "last_round": _last_round(table),
        "rounds": [
            {"round": number, "winner": winner, "winner_name": name}
            for number, winner, name in table.round_winners
        ],
        "points_limit": table.setting("aplimit"),
        "timeout": table.setting("timeout"),
        "round_gap": table.seconds("round_gap"),
        "min_players": table.min_players,
        "playermax": table.playermax,
        "winner": table.winner,
    }


def _cards(cards: Iterable[WhiteCard]) -> list[JSON]:
    return [{"id": card.card_id, "text": card.text} for card in cards]


def _last_round(table: TableState) -> dict[str, JSON] | None:
    last = table.last_round
    if last is None:
        return None
    return {
        "winner": last.winner,
        "winner_name": last.winner_name,
        "card_id": last.card_id,
        "submissions": [{"owner": owner, "cards": _cards(cards)} for owner, cards in last.submissions],
    }

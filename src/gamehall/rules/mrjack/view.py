"""What a seat may know of a Mr. Jack table (the only place that decides it).

Everything on the board is public, and so are the round's cards, the witness card and the
suspicion marks. Private: Mr. Jack's colour (Mr. Jack's seat only, everybody once the game
is over, as ``ende(spiel,Sieger,Farbe)`` names it), the alibi cards a seat drew (that seat
only), the open ``moeglichkeiten`` (the active seat only), and the order of the face-down
decks (nobody). ``legal_parts`` (the active seat only, while it chooses a Teilzug) lists the
``aktion`` values the engine accepts now, so a client offers no refused button.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamehall.rules._core import JSON, Seat
from gamehall.rules.mrjack.actions import MRJACK, ROLES, Aktion
from gamehall.rules.mrjack.characters import COLOURS
from gamehall.rules.mrjack.state import Phase
from gamehall.rules.mrjack.visibility import seen_colours

if TYPE_CHECKING:
    from gamehall.rules.mrjack.engine import MrJackGame


def game_view(game: MrJackGame, seat: Seat | None) -> dict[str, JSON]:
    """The table as ``seat`` (``None`` = a spectator) may see it, as JSON."""
    role = game.roles.get(seat) if seat is not None else None
    names = game.final_names if game.finished and game.final_names else game.names
    act = game.activation
    view: dict[str, JSON] = {
        "phase": game.phase.value,
        "seats": [
            {"seat": s, "name": names.get(s, ""), "role": game.roles.get(s)} for s in sorted(game.roles)
        ],
        "roles": {r: game.seat_of(r) for r in ROLES},
        "you": role,
        "round": game.round,
        "spielzug": game.activation_number,
        "to_move": game.awaited_seat(),
        "characters": game.cast.keys(),
        "auswahl": [[colour, free] for colour, free in game.draft.auswahl()],
        "active": None if act is None else act.colour,
        "open_parts": [] if act is None else sorted(act.remaining),
        "part": None if act is None else act.part,
        "board": game.board.snapshot(),
        "seen": sorted(seen_colours(game.board, park_hides=game.rules.park_hides), key=COLOURS.index),
        "witness_seen": game.witness_seen,
        "suspects": [c for c in COLOURS if c in game.suspects],
        "suspects_by_round": [[number, left] for number, left in game.suspects_by_round],
        "alibi_deck": len(game.alibis.deck),
        "alibis": list(game.alibis.drawn.get(seat, [])) if seat is not None else [],
        "jack": None,
        "moeglichkeiten": [],
        "legal_parts": [],
        "winner": game.winner,
        "reason": game.reason,
    }
    if game.finished or (role == MRJACK and game.started):
        view["jack"] = game.alibis.jack or None
    if act is not None and seat == act.seat and act.part is not None:
        view["moeglichkeiten"] = list(act.options)
    if act is not None and seat == act.seat and game.phase is Phase.PARTS:
        view["legal_parts"] = [a.aktion for a in game.legal_actions(seat) if isinstance(a, Aktion)]
    return view

"""The catch-up a returning player gets (``seat_back`` and ``resync``): the seed has no
"whole board" message (the layout is fixed, note 7.1), so the board is replayed as the updates
that lead from the starting layout to the board now, followed by the activation in play.

Every event goes to the returning seat alone, and only what that seat may know: its role,
Mr. Jack's colour for Mr. Jack's seat, the alibi cards that seat drew, its open
``moeglichkeiten``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamehall.rules._core import Event, Seat, only
from gamehall.rules.mrjack.actions import MRJACK
from gamehall.rules.mrjack.board import (
    START_INFORMANT,
    START_INVESTIGATION_TILES,
    START_STEAMERS,
    START_TILES,
    sorted_labels,
)
from gamehall.rules.mrjack.characters import COLOURS
from gamehall.rules.mrjack.events import (
    Auswahl,
    BeginnRunde,
    BeginnSpiel,
    BeginnSpielzug,
    FarbeAktiv,
    Jack,
    Moeglichkeiten,
    Sichtbar,
    Spielzugerlaubnis,
    UpdateAbsp,
    UpdateAlibi,
    UpdateArt,
    UpdateFigur,
    UpdateSchiff,
    UpdateSpion,
    UpdateVerdacht,
)
from gamehall.rules.mrjack.state import Phase

if TYPE_CHECKING:
    from gamehall.rules.mrjack.engine import MrJackGame


def resync_events(game: MrJackGame, seat: Seat) -> list[Event]:
    """The game so far, for ``seat`` alone. Nothing before the start or after the end."""
    if game.phase in (Phase.LOBBY, Phase.OVER) or seat not in game.roles:
        return []
    to = only(seat)
    role = game.roles[seat]
    out: list[Event] = [BeginnSpiel(spieler=role, audience=to)]
    if role == MRJACK:
        out.append(Jack(farbe=game.alibis.jack, audience=to))
    out.append(BeginnRunde(runde=game.round, audience=to))
    out += _board_updates(game, seat)
    if game.phase is Phase.MARKING:
        out.append(Sichtbar(sichtbar=game.witness_seen, audience=to))
        return out
    out += [
        BeginnSpielzug(runde=game.round, spielzug=game.activation_number, audience=to),
        Auswahl(karten=game.draft.auswahl(), audience=to),
    ]
    if seat == game.awaited_seat():
        out.append(Spielzugerlaubnis(seat=seat, erlaubt=True, audience=to))
        act = game.activation
        if act is not None:
            out.append(FarbeAktiv(seat=seat, farbe=act.colour, audience=to))
            if act.part is not None:
                out.append(Moeglichkeiten(seat=seat, koordinaten=act.options, audience=to))
    return out


def _board_updates(game: MrJackGame, seat: Seat) -> list[Event]:
    """The updates from the starting layout to the board now, then the seat's alibis and the
    suspicion marks that changed."""
    to = only(seat)
    board = game.board
    starts = game.cast.start_positions()
    out: list[Event] = [
        UpdateFigur(koordinate=board.figures[c], farbe=c, audience=to)
        for c in COLOURS
        if board.figures[c] != starts[c]
    ]
    out += [
        UpdateArt(koordinate=h, art=board.tiles[h], audience=to)
        for h in sorted_labels(list(board.tiles))
        if START_TILES.get(h) != board.tiles[h]
    ]
    left = sorted_labels([p for p in START_STEAMERS if p not in board.steamers])
    arrived = sorted_labels([p for p in board.steamers if p not in START_STEAMERS])
    out += [UpdateSchiff(von=a, nach=b, audience=to) for a, b in zip(left, arrived, strict=True)]
    for old, new in zip(START_INVESTIGATION_TILES, board.investigation, strict=True):
        if old != new:
            out.append(UpdateAbsp(alt1=old[0], alt2=old[1], neu1=new[0], neu2=new[1], audience=to))
    if board.informant != START_INFORMANT:
        out.append(UpdateSpion(koordinate=board.informant, audience=to))
    out += [UpdateAlibi(seat=seat, farbe=c, audience=to) for c in game.alibis.drawn.get(seat, [])]
    cleared = [c for c in COLOURS if c not in game.suspects]
    out += [UpdateVerdacht(farbe=c, verdaechtig=False, audience=to) for c in cleared]
    return out

"""The tournament log of UrServer games (note 10): what a game needs to be replayed, and its
result, one log line each.

At ``SPIEL_BEGINNT`` the room's RNG seed, the environment deck in order and the seat names are
logged (with the command log in the store, the seed replays the game); at ``SPIEL_BEENDET``
one line with every colour's name and final position, best first. Each line is written once
per game, whichever connection renders the event first.
"""

from __future__ import annotations

import logging

from gamehall.protocols._core import HallError, Session
from gamehall.protocols.urserver.lobby import UrGame

log = logging.getLogger(__name__)


def log_start(game: UrGame, session: Session | None) -> None:
    if "start" in game.logged:
        return
    game.logged.add("start")
    seed: int | None = None
    if session is not None and game.room_id is not None:
        try:
            seed = session.room(game.room_id).seed
        except HallError:  # the room is gone already: the deck and seats still say much
            seed = None
    log.info(
        "tournament game %s starts: seed=%s deck=%s seats=%s",
        game.name,
        seed,
        " ".join(game.table.environment_deck()),
        {seat: game.wire_name_of(name) for seat, name in game.table.seat_names().items()},
    )


def log_result(game: UrGame) -> None:
    if "result" in game.logged:
        return
    game.logged.add("result")
    view = game.table.view(None)
    ranked = sorted(view["seats"], key=lambda s: -int(s["position"]))
    log.info(
        "result %s: %s",
        game.name,
        " ".join(f"{s['seat']}:{game.seat_wire_name(int(s['seat']))}:{s['position']}" for s in ranked),
    )

"""A table state rebuilt from what a seat sees: the engine's ``view(seat)``.

The in-hall policy (:mod:`.policy`) judges positions with the engine's own rule functions
(:mod:`.judgement`), which take a :class:`TableState`. It never touches the real table: it
rebuilds one from the view, the way the wire player rebuilds one from the STATUS and
SPIELFELD blocks (:func:`gamehall.bots.ursuppe.player.mirror`). The view does not show the
environment deck's order, so the rebuilt deck only has the right length (copies of the
face-up card), and the rebuilt random source is a fixed one the policy never draws from.

Genes carry no purchase round in the view; they count as bought in an earlier round. That is
exact whenever a bot builds a purchase (every gene it owns then is from an earlier round) or
a division (which does not look at rounds).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from gamehall.rules._core import JSON, Rng
from gamehall.rules.ursuppe import check_config
from gamehall.rules.ursuppe.board import Board
from gamehall.rules.ursuppe.environment import EnvironmentCard
from gamehall.rules.ursuppe.genes import Gene
from gamehall.rules.ursuppe.state import Amoeba, Player, TableState


@functools.lru_cache(maxsize=16)
def _config(players: int, ladder_length: int, finish_zone: int, timeout_ms: int) -> Mapping[str, JSON]:
    return check_config(
        {
            "players": players,
            "shuffle_deck": False,
            "ladder_length": ladder_length,
            "finish_zone": finish_zone,
            "timeout_ms": timeout_ms,
        }
    )


@functools.lru_cache(maxsize=16)
def _board(mask: tuple[str, ...]) -> Board:
    """Boards are never changed after construction, so equal masks share one."""
    return Board(mask)


def state_from_view(view: Mapping[str, Any]) -> TableState:
    """The public table state the view describes (see the module docstring)."""
    players = int(view["players"])
    config = _config(players, int(view["ladder_length"]), int(view["finish_zone"]), int(view["timeout_ms"]))
    direction, ozone = view["card"]
    card = EnvironmentCard(int(direction), int(ozone))
    g = TableState(
        config=config,
        players=players,
        board=_board(tuple(str(row) for row in view["board"])),
        rng=Rng(0),
        deck=[card] * int(view["cards_left"]),
        card=card,
    )
    g.round = int(view["round"])
    g.phase = str(view["phase"])
    for entry in view["seats"]:
        farbe = int(entry["seat"])
        player = Player(
            farbe,
            str(entry["name"]),
            present=bool(entry["present"]),
            left=bool(entry["left"]),
            position=int(entry["position"]),
            bp=int(entry["bp"]),
            genes={Gene(int(n)): 0 for n in entry["genes"]},
        )
        g.seats[farbe] = player
        for a in entry["amoebas"]:
            amoeba = Amoeba(farbe, int(a["number"]), (int(a["x"]), int(a["y"])), int(a["damage"]))
            g.amoebas[amoeba.ident] = amoeba
    g.cubes = {(int(f["x"]), int(f["y"])): [int(c) for c in f["cubes"]] for f in view["fields"]}
    g.supply = [int(n) for n in view["supply"]]
    return g

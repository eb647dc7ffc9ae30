"""A table state rebuilt from what a seat sees: the engine's ``view(seat)``.

The in-hall policy (:mod:`.policy`) judges positions with the engine's own rule functions
(:mod:`.judgement`), which take a :class:`TableState`. It never touches the real table: it
rebuilds one from the view, the way the wire player rebuilds one from the STATUS and
SPIELFELD blocks (:func:`gamehall.bots.ursuppe.player.mirror`). The view does not show the
environment deck's order, so the rebuilt deck is the unshuffled default one (only its length
is ever read), and the rebuilt random source is a fixed one the policy never draws from.

Genes carry no purchase round in the view; they count as bought in an earlier round. That is
exact whenever a bot builds a purchase (every gene it owns then is from an earlier round) or
a division (which does not look at rounds).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamehall.rules.ursuppe import new_game
from gamehall.rules.ursuppe.board import Board
from gamehall.rules.ursuppe.environment import EnvironmentCard
from gamehall.rules.ursuppe.genes import Gene
from gamehall.rules.ursuppe.state import Amoeba, Player, TableState


def state_from_view(view: Mapping[str, Any]) -> TableState:
    """The public table state the view describes (see the module docstring)."""
    players = int(view["players"])
    config = {
        "players": players,
        "shuffle_deck": False,
        "ladder_length": int(view["ladder_length"]),
        "finish_zone": int(view["finish_zone"]),
        "timeout_ms": int(view["timeout_ms"]),
    }
    g = new_game(config, 0).state
    g.board = Board(tuple(str(row) for row in view["board"]))
    direction, ozone = view["card"]
    g.card = EnvironmentCard(int(direction), int(ozone))
    g.round = int(view["round"])
    g.phase = str(view["phase"])
    g.seats = {}
    g.amoebas = {}
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

"""What a seat (or a spectator) may know about an Ursuppe table, as JSON.

Ursuppe hides nothing but the order of the face-down environment deck, so every seat sees
the same board, players, genes and face-up card; a seat additionally learns the request that
is waiting for it (:func:`request_view`: the prompt its connection would get again on a
resync, the answers the rules accept now and the timeout move). That is all a bot needs to
decide, so bots never read the table itself. This is the data behind the UrServer STATUS and
SPIELFELD blocks too.
"""

from __future__ import annotations

import dataclasses

from gamehall.rules._core import JSON, Seat, ToMove
from gamehall.rules.ursuppe import events as ev
from gamehall.rules.ursuppe.actions import ACTIONS
from gamehall.rules.ursuppe.flow import Request
from gamehall.rules.ursuppe.genes import EFFECTS, GENES
from gamehall.rules.ursuppe.state import AMOEBAS_PER_COLOUR, CUBES_PER_COLOUR, TableState


def _json(value: object) -> JSON:
    if isinstance(value, (tuple, list, frozenset, set)):
        return [_json(v) for v in value]
    assert value is None or isinstance(value, (bool, int, str)), value
    return value


def request_view(request: Request, seat: Seat) -> dict[str, JSON]:
    """The request pending for ``seat``::

    {"kind": "ZUG_BEWEGEN", "prompt": {"amoebe": 2, "schritt": 1},
     "answers": [action JSON, ...] | null, "default": action JSON}

    ``prompt`` holds the fields of the ZUG event a resync would send again; ``answers`` every
    action the rules accept now (pre-commands included, in the engine's ``legal_actions``
    order: after a roll only the directions the dice allow). A gene purchase and the phase-4
    division are blocks whose listing explodes with many BP, so their ``answers`` are null;
    the public part of the view says everything needed to build one.
    """
    prompt = request.prompt(seat)
    fields = {
        f.name: _json(getattr(prompt, f.name)) for f in dataclasses.fields(prompt) if f.name != "audience"
    }
    block = isinstance(prompt, ev.ZugGenKaufen) or (
        isinstance(prompt, ev.ZugAmoebeSetzen) and not prompt.aufbau
    )
    answers: JSON = None if block else [ACTIONS.encode(action) for action in request.legal(seat)]
    return {
        "kind": request.kind,
        "prompt": fields,
        "answers": answers,
        "default": ACTIONS.encode(request.default(seat)),
    }


def table_view(
    g: TableState,
    seat: Seat | None,
    pending: str | None,
    to_move: ToMove,
    request: dict[str, JSON] | None = None,
) -> dict[str, JSON]:
    """The view::

    {"game": "ursuppe", "players": N, "round", "phase", "card": [direction, ozone],
     "cards_left", "to_move": {"seats", "kind"}, "my_request": kind|null,
     "request": see request_view | null,
     "seats": [{"seat","name","present","left","position","bp","genes",
                "amoebas": [{"number","x","y","damage"}]}],
     "fields": [{"x","y","cubes": [per colour]}], "supply": [per colour],
     "gene_pool": [{"gene","name","price","copies","free","effect"}], constants...}
    """
    return {
        "game": "ursuppe",
        "players": g.players,
        "round": g.round,
        "phase": g.phase,
        "card": [g.card.stroemungsrichtung, g.card.ozonschichtdicke],
        "cards_left": len(g.deck),
        "to_move": {"seats": sorted(to_move.seats), "kind": to_move.kind},
        "my_request": pending,
        "request": request,
        "seats": [
            {
                "seat": farbe,
                "name": player.name,
                "present": player.present,
                "left": player.left,
                "position": player.position,
                "bp": player.bp,
                "genes": sorted(int(gene) for gene in player.genes),
                "amoebas": [
                    {"number": a.nummer, "x": a.feld[0], "y": a.feld[1], "damage": a.schaden}
                    for a in g.amoebas_of(farbe)
                ],
            }
            for farbe, player in sorted(g.seats.items())
        ],
        "board": list(g.board.mask),
        "fields": [{"x": x, "y": y, "cubes": list(cubes)} for (x, y), cubes in sorted(g.cubes.items())],
        "supply": list(g.supply),
        "history": [
            {"round": number, "positions": [[farbe, pos] for farbe, pos in sorted(positions.items())]}
            for number, positions in g.position_history
        ],
        "gene_pool": [
            {
                "gene": int(gene),
                "name": gene.name,
                "price": info.price,
                "copies": info.copies(g.players),
                "free": g.free_copies(gene),
                "effect": EFFECTS[gene],
            }
            for gene, info in GENES.items()
        ],
        "cubes_per_colour": CUBES_PER_COLOUR,
        "amoebas_per_colour": AMOEBAS_PER_COLOUR,
        "ladder_length": g.config["ladder_length"],
        "finish_zone": g.config["finish_zone"],
        "timeout_ms": g.config["timeout_ms"],
        "viewer": seat,
    }

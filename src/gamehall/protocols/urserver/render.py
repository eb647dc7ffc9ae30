"""Server lines of the UrServer: table events as lines, and the STATUS and board blocks.

Each engine event is one line or one block (note 5.5, 5.6, 6.3); :func:`event_lines` writes it
without looking at other events, since the engine emits them in wire order. The STATUS,
SPIELFELD, SPIELFELD2 and TELNET_STATUS blocks (note 5.3, 5.4) are written from the engine's
public view, so every connection and the browser see the same table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gamehall.rules._core import Event
from gamehall.rules.ursuppe import events as ev
from gamehall.rules.ursuppe.genes import Gene

View = Mapping[str, Any]
NameOf = Callable[[int], str]


def vector(values: Sequence[int]) -> str:
    return ":".join(str(v) for v in values)


def event_lines(event: Event) -> list[str]:
    """The lines of one table event (requests included); ``[]`` for events the wire does
    not show. Seat changes, chat and spectators depend on the connection (see the dialogue).
    """
    writer = _WRITERS.get(type(event))
    return [] if writer is None else writer(event)


def _bewegung(e: Any) -> list[str]:
    lines = [f"BEWEGUNG {e.farbe} {e.amoebe} {e.richtung}"]
    if e.flucht:
        lines.append("FLUCHT")
    if e.tentakel is not None:
        lines.append(f"TENTAKEL {vector(e.tentakel)}")
    lines += [f"KLAMMERN {farbe} {amoebe}" for farbe, amoebe in e.klammern]
    lines.append(f"BEWEGUNG_ENDE {e.farbe} {e.amoebe}")
    return lines


_WRITERS: dict[type[Event], Callable[[Any], list[str]]] = {
    ev.ZugBereit: lambda e: ["ZUG_BEREIT"],
    ev.ZugPosition: lambda e: ["ZUG_POSITION " + "".join("1" if b else "0" for b in e.belegt)],
    ev.ZugAmoebeSetzen: lambda e: ["ZUG_AMOEBE_SETZEN"],
    ev.ZugBewegen: lambda e: [f"ZUG_BEWEGEN {e.amoebe}"],
    ev.ZugKlammern: lambda e: [
        f"ZUG_KLAMMERN {e.amoebe} {e.mitfahr_farbe} {e.mitfahr_amoebe} {e.richtung} {vector(e.naehrstoffe)}"
    ],
    ev.ZugFressen: lambda e: [f"ZUG_FRESSEN {e.amoebe}"],
    ev.ZugAbwehr: lambda e: [
        f"ZUG_ABWEHR {e.amoebe} {e.angreifende_farbe} {e.angreifende_amoebe} {e.was_darf_sie_tun}"
    ],
    ev.ZugGendefekte: lambda e: ["ZUG_GENDEFEKTE"],
    ev.ZugGenKaufen: lambda e: ["ZUG_GEN_KAUFEN"],
    ev.ZugAggression: lambda e: ["ZUG_AGGRESSION"],
    ev.Bereit: lambda e: [f"BEREIT {e.farbe}"],
    ev.Position: lambda e: [f"POSITION {e.farbe} {e.position}"],
    ev.AmoebenGesetzt: lambda e: [
        *(f"AMOEBE_SETZEN {e.farbe} {n} {x} {y}" for n, x, y in e.setzungen),
        f"AMOEBE_SETZEN_ENDE {e.farbe}",
    ],
    ev.Runde: lambda e: [f"RUNDE {e.nummer}"],
    ev.Wuerfel: lambda e: [f"WUERFEL {e.farbe} {e.wuerfel1} {e.wuerfel2}"],
    ev.Biopunkte: lambda e: [f"BIOPUNKTE {e.farbe} {e.differenz}"],
    ev.Bewegung: _bewegung,
    ev.Parasitismus: lambda e: [f"PARASITISMUS {e.farbe} {e.amoebe} {e.gegen_farbe}"],
    ev.Fressen: lambda e: [f"FRESSEN {e.farbe} {e.amoebe} {vector(e.naehrstoffe)}"],
    ev.Naehrstoff: lambda e: [f"NAEHRSTOFF {e.farbe} {e.anzahl} {e.x} {e.y}"],
    ev.AmoebeSchaden: lambda e: [f"AMOEBE_SCHADEN {e.farbe} {e.amoebe}"],
    ev.AmoebeEntfernt: lambda e: [f"AMOEBE_ENTFERNT {e.farbe} {e.amoebe}"],
    ev.AmoebeAngegriffen: lambda e: [
        f"AMOEBE_ANGEGRIFFEN {e.angegriffene_farbe} {e.angegriffene_amoebe} "
        f"{e.angreifende_farbe} {e.angreifende_amoebe}"
    ],
    ev.Abwehr: lambda e: [f"ABWEHR {e.farbe} {e.amoebe}"],
    ev.VerteidigungErfolgreich: lambda e: [f"VERTEIDIGUNG_ERFOLGREICH {e.farbe} {e.amoebe}"],
    ev.VerteidigungErfolglos: lambda e: [f"VERTEIDIGUNG_ERFOLGLOS {e.farbe} {e.amoebe}"],
    ev.Umweltkarte: lambda e: [f"UMWELTKARTE {e.stroemungsrichtung} {e.ozonschichtdicke}"],
    ev.DefektAusgleichen: lambda e: [
        f"DEFEKT_AUSGLEICHEN {e.farbe}",
        *(f"ABGEBEN {g}" for g in e.abgeben),
        f"DEFEKT_AUSGLEICHEN_ENDE {e.farbe}",
    ],
    ev.GenKaufen: lambda e: [
        f"GEN_KAUFEN {e.farbe}",
        *(f"GEN {g}" for g in e.gene),
        *(f"ABGEBEN {g}" for g in e.abgeben),
        f"GEN_KAUFEN_ENDE {e.farbe}",
    ],
    ev.Aggression: lambda e: [f"AGGRESSION {e.farbe} {e.amoebe} {e.gegnerin} {e.gegen_amoebe}"],
    ev.Punkte: lambda e: [f"PUNKTE {e.farbe} {e.punkte}"],
    ev.SpielBeendet: lambda e: ["SPIEL_BEENDET"],
}


# -- the blocks ---------------------------------------------------------------------------------


def initial_view(view: View, card: tuple[int, int]) -> dict[str, Any]:
    """The table as it was at ``SPIEL_BEGINNT``: start cubes, no amoebas, no positions, start
    BP, no genes, the first face-up card. The start blocks are written from this, so they
    are right even when away seats were played on before the events reached the wire."""
    players = int(view["players"])
    return {
        **view,
        "card": list(card),
        "seats": [{**seat, "position": -1, "bp": 4, "genes": [], "amoebas": []} for seat in view["seats"]],
        "fields": [{**f, "cubes": [2] * players} for f in view["fields"]],
    }


def status_block(
    name: str, view: View, timeout_ms: int, name_of: NameOf, spectators: Sequence[str]
) -> list[str]:
    """The STATUS block (note 5.3): game data, then per colour the player, then spectators."""
    players = int(view["players"])
    seats = {int(s["seat"]): s for s in view["seats"]}
    direction, ozone = view["card"]
    lines = [
        f"STATUS {name}",
        f"TIMEOUT {timeout_ms}",
        f"ANZAHL_SPIELERINNEN {len(seats)} {players}",
        f"ANZAHL_NAEHRSTOFFE {view['cubes_per_colour']}",
        f"ANZAHL_AMOEBEN {view['amoebas_per_colour']}",
        f"LAENGE_LAUFBAHN {view['ladder_length']}",
        f"LAENGE_ZIELZONE {view['finish_zone']}",
        f"UMWELTKARTE {direction} {ozone}",
    ]
    for colour in range(players):
        lines.append(f"SPIELERIN {colour}")
        seat = seats.get(colour)
        if seat is None:
            continue
        amoebas = seat["amoebas"]
        lines += [
            f"NAME {name_of(colour)}",
            f"PUNKTE {seat['position']}",
            f"BIOPUNKTE {seat['bp']}",
            f"AMOEBEN {len(amoebas)}",
            *(f"AMOEBE {a['number']} {a['damage']}" for a in amoebas),
            f"GENE {len(seat['genes'])}",
            *(f"GEN {g}" for g in seat["genes"]),
        ]
    lines += [f"ZUSCHAUERIN {s}" for s in spectators]
    lines.append(f"STATUS_ENDE {name}")
    return lines


def _cells(view: View) -> dict[tuple[int, int], tuple[list[list[int]], list[int]]]:
    """Per playable field: amoeba numbers per colour and cubes per colour."""
    players = int(view["players"])
    cells: dict[tuple[int, int], tuple[list[list[int]], list[int]]] = {
        (int(f["x"]), int(f["y"])): ([[] for _ in range(players)], list(f["cubes"])) for f in view["fields"]
    }
    for seat in view["seats"]:
        for a in seat["amoebas"]:
            cells[(int(a["x"]), int(a["y"]))][0][int(seat["seat"])].append(int(a["number"]))
    return cells


def _size(view: View) -> tuple[int, int]:
    mask = view["board"]
    return len(mask[0]), len(mask)


def spielfeld_block(view: View) -> list[str]:
    """SPIELFELD: 25 FELDCHEN lines in row-major order (note 5.4)."""
    width, height = _size(view)
    cells = _cells(view)
    lines = [f"SPIELFELD {width} {height}"]
    for y in range(height):
        for x in range(width):
            cell = cells.get((x, y))
            if cell is None:
                lines.append(f"FELDCHEN {x} {y} UNGUELTIG")
                continue
            numbers, cubes = cell
            entries = [
                f"{','.join(str(n) for n in sorted(ns)) or '-'}:{count}"
                for ns, count in zip(numbers, cubes, strict=True)
            ]
            lines.append(f"FELDCHEN {x} {y} " + " ".join(entries))
    lines.append("SPIELFELD_ENDE")
    return lines


def spielfeld2_block(view: View) -> list[str]:
    """SPIELFELD2: the board as a matrix of amoeba and cube counts (note 5.4)."""
    width, height = _size(view)
    cells = _cells(view)
    lines = [f"SPIELFELD2 {width} {height}"]
    for y in range(height):
        row = []
        for x in range(width):
            cell = cells.get((x, y))
            if cell is None:
                row.append("(UNGUELTIG)")
            else:
                numbers, cubes = cell
                row.append(
                    "(" + " ".join(f"{len(ns)}:{c}" for ns, c in zip(numbers, cubes, strict=True)) + ")"
                )
        lines.append(" ".join(row))
    lines.append("SPIELFELD_ENDE")
    return lines


def telnet_status_block(name: str, view: View, name_of: NameOf) -> list[str]:
    """TELNET_STATUS: a human-readable dump (note 5.4, Decision (ours)); bots never parse it."""
    direction, ozone = view["card"]
    lines = [
        f"TELNET_STATUS {name}",
        f"Runde {view['round']}, Phase {view['phase']}, Umweltkarte: Richtung {direction}, Ozon {ozone}",
    ]
    for seat in view["seats"]:
        colour = int(seat["seat"])
        genes = ", ".join(Gene(g).name for g in seat["genes"]) or "-"
        amoebas = (
            ", ".join(f"{a['number']}@({a['x']},{a['y']}) DP {a['damage']}" for a in seat["amoebas"]) or "-"
        )
        lines.append(
            f"Farbe {colour} {name_of(colour)}: Position {seat['position']}, BP {seat['bp']}, "
            f"Gene {genes}, Amoeben {amoebas}"
        )
    width, height = _size(view)
    cells = _cells(view)
    for y in range(height):
        row = []
        for x in range(width):
            cell = cells.get((x, y))
            if cell is None:
                row.append("#" * 12)
            else:
                numbers, cubes = cell
                amoebas = "".join(str(len(ns)) for ns in numbers)
                row.append(f"{amoebas}|{'/'.join(str(c) for c in cubes)}".ljust(12))
        lines.append(" ".join(row).rstrip())
    lines.append("TELNET_STATUS_ENDE")
    return lines

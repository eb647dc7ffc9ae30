"""The fixed texts of the UrServer: the version and every FEHLER of the seed, verbatim.

The texts are the seed's (``seeds/002_7e4428382d845ed9.txt``, "Fehler"), including error 4
without a full stop and "GenPANZERUNG" in error 31. Clients parse only the number.
"""

from __future__ import annotations

from typing import Final

VERSION: Final = "1.13"

FEHLER_TEXTS: Final[dict[int, str]] = {
    1: "Die angegebene Amöbe ist nicht am Zug.",
    2: "Die Amöbe steht nicht da, wo die Spielerin sie vermutet.",
    3: "Die Amöbe kann nicht noch einmal ins Spielfeld gesetzt werden.",
    4: "Die Anzahl der Spielerinnen liegt nicht zwischen 3 und 4",
    5: "In Phase 2 wurde versucht, ein Gen doppelt abzugeben.",
    6: "In Phase 3 wurde versucht, ein Gen ein zweites Mal zu kaufen.",
    7: "Nährstoffe der eigenen Farbe dürfen nicht gefressen werden.",
    8: "Das Paßwort ist falsch.",
    9: (
        "Beim Kauf des Genes PANZERUNG wurde nicht angegeben, welches der beiden möglichen "
        "niedrigen Gene abgegeben werden soll."
    ),
    10: "Es sollte ein Gen verwendet werden, daß der Spielerin nicht gehört.",
    11: "Das Gen ist ausverkauft.",
    12: "Es darf nicht gehungert werden, wenn es nicht sein muß.",
    13: "Fehler bei der Anmeldung.",
    14: "Der Parameter war keine Zahl.",
    15: "Der Server nimmt keine weiteren Spiele mehr auf.",
    16: "Der Name ist bereits vergeben.",
    17: "Die Spielerin ist nicht am Zug.",
    18: "Die Biopunkte reichen nicht aus.",
    19: "Nährstoffmangel.",
    20: "Es sollte eine (echte) Bewegung ausgeführt werden, ohne daß gewürfelt wurde.",
    21: "Die Anzahl der Parameter paßt nicht zum Befehl.",
    22: "Mindestens ein Parameter ist ungültig.",
    23: "PARASITISMUS darf nur angewendet werden, wenn nicht gehungert wird.",
    24: "Es wurde bereits gewürfelt.",
    25: "Das angegebene Spielfeldchen ist ungültig.",
    26: "Das Spiel läuft nicht.",
    27: "Das Spiel ist nicht vorhanden.",
    28: "Das Spiel ist schon voll.",
    29: "Der Timeout wurde überschritten.",
    30: "Der Befehl ist (zumindest in diesem Kontext) unbekannt.",
    31: (
        "Beim Kampf ums Überleben wurde entweder eine Amöbe angegriffen, die das GenPANZERUNG "
        "besitzt oder die Amöbe wollte sich selber angreifen oder die Amöbe mußte gar nicht hungern."
    ),
    32: "Die Richtung ist für diesen Zug ungültig.",
    33: "Es darf nicht mehr gefressen werden als notwendig.",
    34: "Nach dem Würfeln muß eine Amöbe sich auch bewegen.",
    35: "Beim Tentakeln zu viele Nährstoffe mitgenommen.",
    36: "Tentakelt ist tentakelt. Umentscheiden geht nicht.",
    37: "Du bist schon geflohen.",
    38: "Du hast dich schon verteidigt.",
}


def fehler_line(number: int) -> str:
    """``FEHLER <number> <seed text>``."""
    return f"FEHLER {number} {FEHLER_TEXTS[number]}"

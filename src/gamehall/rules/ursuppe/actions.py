"""What a player can do at an Ursuppe table: one action per client command of the seed.

Class and field names follow the UrServer commands (``BEWEGEN amoebennummer richtung`` is
``Bewegen(amoebe, richtung)``), so the dialogue maps a line to an action and back 1:1.
Nutrient vectors (``farbe0:farbe1:..``) are tuples indexed by colour. Multi-line client blocks
(``GEN_KAUFEN ... GEN_KAUFEN_ENDE``, phase-4 ``AMOEBE_SETZEN ... AMOEBE_SETZEN_ENDE``) are one
action each, since the seed applies a block whole or not at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamehall.rules._core import Action, ActionCodec


@dataclass(frozen=True, slots=True)
class Bereit(Action):
    """``BEREIT``: answer to ZUG_BEREIT."""


@dataclass(frozen=True, slots=True)
class Position(Action):
    """``POSITION position``: a free start space 0..N-1 on the score track."""

    position: int


@dataclass(frozen=True, slots=True)
class AmoebeSetzen(Action):
    """``AMOEBE_SETZEN amoebennummer x y``: one first amoeba during setup."""

    amoebe: int
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Tentakel(Action):
    """``TENTAKEL amoebe v``: cubes to carry along on the coming step (pre-command)."""

    amoebe: int
    naehrstoffe: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Wuerfeln(Action):
    """``WUERFELN``: roll both dice for a move or a flight (pre-command)."""


@dataclass(frozen=True, slots=True)
class Bewegen(Action):
    """``BEWEGEN amoebennummer richtung``: drift, stay or move in direction 1-5."""

    amoebe: int
    richtung: int


@dataclass(frozen=True, slots=True)
class KeineZweiteBewegung(Action):
    """``KEINE_ZWEITE_BEWEGUNG amoebe``: skip the Speed step."""

    amoebe: int


@dataclass(frozen=True, slots=True)
class Klammern(Action):
    """``KLAMMERN amoebe mitfahrFarbe mitfahrAmoebe``: ride along with a leaving amoeba."""

    amoebe: int
    mitfahr_farbe: int
    mitfahr_amoebe: int


@dataclass(frozen=True, slots=True)
class NichtKlammern(Action):
    """``NICHT_KLAMMERN amoebe mitfahrFarbe mitfahrAmoebe``: stay behind."""

    amoebe: int
    mitfahr_farbe: int
    mitfahr_amoebe: int


@dataclass(frozen=True, slots=True)
class Parasitismus(Action):
    """``PARASITISMUS amoebenNummer gegenFarbe``: eat one cube less at ``gegen_farbe``'s cost."""

    amoebe: int
    gegen_farbe: int


@dataclass(frozen=True, slots=True)
class Fressen(Action):
    """``FRESSEN amoebennummer v``: the meal, or all zeros to starve."""

    amoebe: int
    naehrstoffe: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Ueberlebenskampf(Action):
    """``UEBERLEBENSKAMPF amoebe fremdeFarbe fremdeAmoebe``: a starving amoeba attacks."""

    amoebe: int
    fremde_farbe: int
    fremde_amoebe: int


@dataclass(frozen=True, slots=True)
class Flucht(Action):
    """``FLUCHT amoebe richtung``: flee after a roll."""

    amoebe: int
    richtung: int


@dataclass(frozen=True, slots=True)
class KeineFlucht(Action):
    """``KEINE_FLUCHT amoebe``."""

    amoebe: int


@dataclass(frozen=True, slots=True)
class Verteidigung(Action):
    """``VERTEIDIGUNG amoebe``: pay 1 BP and fight with dice."""

    amoebe: int


@dataclass(frozen=True, slots=True)
class KeineVerteidigung(Action):
    """``KEINE_VERTEIDIGUNG amoebe``."""

    amoebe: int


@dataclass(frozen=True, slots=True)
class DefektAusgleichen(Action):
    """``DEFEKT_AUSGLEICHEN [gen ...]``: genes to surrender; BP pay the rest."""

    gene: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class GenKaufen(Action):
    """The ``GEN_KAUFEN`` block: genes to buy; ``panzerung_abgeben`` is the second
    parameter of ``GEN 19 4`` / ``GEN 19 5``."""

    gene: tuple[int, ...] = ()
    panzerung_abgeben: int | None = None


@dataclass(frozen=True, slots=True)
class AmoebenSetzen(Action):
    """The phase-4 ``AMOEBE_SETZEN`` block: ``(amoebe, x, y)`` per new amoeba, in order.

    (Typed as variable-length tuples because the action codec reads those; a placement of
    another length is refused with FEHLER 21.)"""

    setzungen: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Aggression(Action):
    """``AGGRESSION amoebe gegenFarbe gegenAmoebe``."""

    amoebe: int
    gegen_farbe: int
    gegen_amoebe: int


@dataclass(frozen=True, slots=True)
class KeineAggression(Action):
    """``KEINE_AGGRESSION``."""


ACTIONS = ActionCodec(
    [
        Bereit,
        Position,
        AmoebeSetzen,
        Tentakel,
        Wuerfeln,
        Bewegen,
        KeineZweiteBewegung,
        Klammern,
        NichtKlammern,
        Parasitismus,
        Fressen,
        Ueberlebenskampf,
        Flucht,
        KeineFlucht,
        Verteidigung,
        KeineVerteidigung,
        DefektAusgleichen,
        GenKaufen,
        AmoebenSetzen,
        Aggression,
        KeineAggression,
    ]
)

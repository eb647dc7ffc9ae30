"""What an Ursuppe table tells its seats: one event per server line or block of the seed.

Event names follow the UrServer messages (``BEWEGUNG ... BEWEGUNG_ENDE`` is one
:class:`Bewegung`), and the engine returns them in wire order, so the dialogue writes each
event as its lines without looking back or ahead. Requests (``ZUG_*``) are events too, with
the addressed seat as their only audience; everything else goes to everyone
(``audience=None``), since Ursuppe has no hidden information besides the face-down deck.
Vectors are tuples indexed by colour; amoebas are ``(farbe, amoebe)`` pairs.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamehall.rules._core import Event

# -- requests (ZUG_*), each to one seat -------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ZugBereit(Event):
    """``ZUG_BEREIT`` (sent to all players at once; three times the timeout)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ZugPosition(Event):
    """``ZUG_POSITION bits``: ``belegt[i]`` is true if start space i is taken."""

    belegt: tuple[bool, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ZugAmoebeSetzen(Event):
    """``ZUG_AMOEBE_SETZEN``: one first amoeba (``aufbau``) or the phase-4 block."""

    aufbau: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class ZugBewegen(Event):
    """``ZUG_BEWEGEN amoebennummer`` (``schritt`` 2 is the Speed step)."""

    amoebe: int
    schritt: int = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class ZugKlammern(Event):
    """``ZUG_KLAMMERN amoebe mitfahrFarbe mitfahrAmoebe richtung v``."""

    amoebe: int
    mitfahr_farbe: int
    mitfahr_amoebe: int
    richtung: int
    naehrstoffe: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ZugFressen(Event):
    """``ZUG_FRESSEN amoebennummer``."""

    amoebe: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ZugAbwehr(Event):
    """``ZUG_ABWEHR amoebe angreifendeFarbe angreifendeAmoebe wasDarfSieTun``
    (0 flight only, 1 defence only, 2 both)."""

    amoebe: int
    angreifende_farbe: int
    angreifende_amoebe: int
    was_darf_sie_tun: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ZugGendefekte(Event):
    """``ZUG_GENDEFEKTE``; ``defekt`` (d = MP - ozone) is what must be covered."""

    defekt: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ZugGenKaufen(Event):
    """``ZUG_GEN_KAUFEN``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ZugAggression(Event):
    """``ZUG_AGGRESSION``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ZeitUeberschritten(Event):
    """The seat's request timed out and its default move follows (``FEHLER 29``)."""

    farbe: int


# -- broadcasts -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class SpielBeginnt(Event):
    """``SPIEL_BEGINNT``; the board and status blocks follow on the wire."""

    stroemungsrichtung: int
    ozonschichtdicke: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Bereit(Event):
    """``BEREIT farbe``."""

    farbe: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Position(Event):
    """``POSITION farbe position``."""

    farbe: int
    position: int


@dataclass(frozen=True, slots=True, kw_only=True)
class AmoebenGesetzt(Event):
    """``AMOEBE_SETZEN farbe n x y`` per amoeba, then ``AMOEBE_SETZEN_ENDE farbe``."""

    farbe: int
    setzungen: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Runde(Event):
    """``RUNDE rundenNummer``."""

    nummer: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Wuerfel(Event):
    """``WUERFEL farbe wuerfel1 wuerfel2``."""

    farbe: int
    wuerfel1: int
    wuerfel2: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Biopunkte(Event):
    """``BIOPUNKTE farbe differenz``."""

    farbe: int
    differenz: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Bewegung(Event):
    """The movement block: ``BEWEGUNG farbe n richtung``, ``FLUCHT`` (a flight),
    ``TENTAKEL v`` (if sent), ``KLAMMERN farbe n`` per rider, ``BEWEGUNG_ENDE farbe n``."""

    farbe: int
    amoebe: int
    richtung: int
    flucht: bool = False
    tentakel: tuple[int, ...] | None = None
    klammern: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Parasitismus(Event):
    """``PARASITISMUS farbe amoebenNr gegenFarbe``."""

    farbe: int
    amoebe: int
    gegen_farbe: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Fressen(Event):
    """``FRESSEN farbe amoebennr v`` (all zeros: the amoeba starves)."""

    farbe: int
    amoebe: int
    naehrstoffe: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Naehrstoff(Event):
    """``NAEHRSTOFF farbe anzahl x y``: cubes from the supply land on a field."""

    farbe: int
    anzahl: int
    x: int
    y: int


@dataclass(frozen=True, slots=True, kw_only=True)
class AmoebeSchaden(Event):
    """``AMOEBE_SCHADEN farbe amoebennr``: one damage point."""

    farbe: int
    amoebe: int


@dataclass(frozen=True, slots=True, kw_only=True)
class AmoebeEntfernt(Event):
    """``AMOEBE_ENTFERNT farbe amoebenNummer``: the amoeba died."""

    farbe: int
    amoebe: int


@dataclass(frozen=True, slots=True, kw_only=True)
class AmoebeAngegriffen(Event):
    """``AMOEBE_ANGEGRIFFEN angegriffeneFarbe angegriffeneAmoebe angreifendeFarbe
    angreifendeAmoebe``."""

    angegriffene_farbe: int
    angegriffene_amoebe: int
    angreifende_farbe: int
    angreifende_amoebe: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Abwehr(Event):
    """``ABWEHR farbe amoebe``: the victim has a usable defence gene."""

    farbe: int
    amoebe: int


@dataclass(frozen=True, slots=True, kw_only=True)
class VerteidigungErfolgreich(Event):
    """``VERTEIDIGUNG_ERFOLGREICH farbe amoebe``: the victim won the fight."""

    farbe: int
    amoebe: int


@dataclass(frozen=True, slots=True, kw_only=True)
class VerteidigungErfolglos(Event):
    """``VERTEIDIGUNG_ERFOLGLOS farbe amoebe``: the fight was lost or not tried."""

    farbe: int
    amoebe: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Umweltkarte(Event):
    """``UMWELTKARTE stroemungsrichtung ozonschichtdicke``: the new face-up card."""

    stroemungsrichtung: int
    ozonschichtdicke: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DefektAusgleichen(Event):
    """``DEFEKT_AUSGLEICHEN farbe``, ``ABGEBEN g`` per gene, ``DEFEKT_AUSGLEICHEN_ENDE farbe``."""

    farbe: int
    abgeben: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class GenKaufen(Event):
    """``GEN_KAUFEN farbe``, ``GEN g`` per gene, ``ABGEBEN g`` per returned basic gene,
    ``GEN_KAUFEN_ENDE farbe``."""

    farbe: int
    gene: tuple[int, ...]
    abgeben: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Aggression(Event):
    """``AGGRESSION farbe amoebe gegnerin gegenAmoebe``."""

    farbe: int
    amoebe: int
    gegnerin: int
    gegen_amoebe: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Punkte(Event):
    """``PUNKTE farbe gesamtpunktzahl``: the ladder position after phase 6."""

    farbe: int
    punkte: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SpielBeendet(Event):
    """``SPIEL_BEENDET``."""

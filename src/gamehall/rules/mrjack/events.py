"""What a Mr. Jack game tells its seats: one event per seed message, in wire order.

Each event is named after the seed term it becomes (``update_Figur`` -> :class:`UpdateFigur`)
and carries the seed's arguments under the seed's names, so the term dialogue renders each
event on its own, without looking back or ahead. The audience follows the seed's prefixes:

================================  ========================  ==================================
event                             audience                  seed term
================================  ========================  ==================================
RolleGewaehlt                     all                       (lobby; dialogue: ``ok(Du bist R)``)
BeginnSpiel                       that player               ``beginn(spiel,Spieler)`` (S>D, S>J)
Jack                              Mr. Jack only             ``jack(Farbe)``
BeginnRunde                       all                       ``beginn(runde)``
BeginnSpielzug                    all                       ``beginn(spielzug)``
Auswahl                           all                       ``auswahl([[F,B],...])``
Spielzugerlaubnis                 the picker                ``spielzugerlaubnis(ja|nein)``
FarbeAktiv                        the sender                ``ok(Farbe ist aktiv: F)``
AktionAkzeptiert                  the sender                ``ok(Aktion wurde akzeptiert)``
KoordinateAkzeptiert              the sender                ``ok(Koordinate akzeptiert)``
Moeglichkeiten                    the active player         ``moeglichkeiten([K,...])``
UpdateAlibi                       the consulting player     ``update_Alibi(F)``
UpdateSpion                       all (or the mover)        ``update_Spion(K)``
UpdateFigur/Art/Schiff/Absp       all                       ``update_Figur(K,F)`` ...
EndeSpielzug                      all                       ``ende(spielzug)``
Sichtbar                          all                       ``sichtbar(ja|nein)``
UpdateVerdacht                    all                       ``update_Verdacht(F)``
EndeRunde                         all                       ``ende(runde)``
EndeSpiel                         all                       ``ende(spiel,Sieger,Farbe)``
================================  ========================  ==================================

Mr. Jack's colour travels only in :class:`Jack` (audience: Mr. Jack's seat) until the game is
over; :class:`EndeSpiel` then names it to everybody, as the seed's ``ende(spiel,...)`` does.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamehall.rules._core import Event, Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class RolleGewaehlt(Event):
    """A seat holds role ``spieler`` (``mrjack`` / ``detektiv``) at the waiting table."""

    seat: Seat
    spieler: str


@dataclass(frozen=True, slots=True, kw_only=True)
class BeginnSpiel(Event):
    """The game starts; ``spieler`` is the receiving seat's role."""

    spieler: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Jack(Event):
    """Mr. Jack's identity, to Mr. Jack's seat only."""

    farbe: str


@dataclass(frozen=True, slots=True, kw_only=True)
class BeginnRunde(Event):
    runde: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BeginnSpielzug(Event):
    runde: int
    spielzug: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Auswahl(Event):
    """The round's four character cards in reveal order; ``True`` = still available."""

    karten: tuple[tuple[str, bool], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Spielzugerlaubnis(Event):
    """``erlaubt=True``: ``seat`` picks now; ``False``: its activation is over."""

    seat: Seat
    erlaubt: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class FarbeAktiv(Event):
    """``aktiv(F)`` was accepted."""

    seat: Seat
    farbe: str


@dataclass(frozen=True, slots=True, kw_only=True)
class AktionAkzeptiert(Event):
    """``aktion(A)`` was accepted."""

    seat: Seat
    aktion: str


@dataclass(frozen=True, slots=True, kw_only=True)
class KoordinateAkzeptiert(Event):
    """``ziel(K)`` was accepted as a step of the open Teilzug."""

    seat: Seat
    koordinate: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Moeglichkeiten(Event):
    """The coordinates the active player may send as the next ``ziel`` (sorted, never empty)."""

    seat: Seat
    koordinaten: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdateAlibi(Event):
    """The informant showed ``seat`` the alibi card of ``farbe`` (never Mr. Jack)."""

    seat: Seat
    farbe: str


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdateSpion(Event):
    """The informant now stands on ``koordinate``."""

    koordinate: str


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdateFigur(Event):
    """``farbe`` now stands on ``koordinate``."""

    koordinate: str
    farbe: str


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdateArt(Event):
    """A tile on ``koordinate`` now shows ``art`` (``metro``, ``laterne``, ``haus``, ``park``)."""

    koordinate: str
    art: str


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdateSchiff(Event):
    """A steamer moved from port ``von`` to port ``nach``."""

    von: str
    nach: str


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdateAbsp(Event):
    """An investigation tile moved from ``alt1``+``alt2`` to ``neu1``+``neu2``."""

    alt1: str
    alt2: str
    neu1: str
    neu2: str


@dataclass(frozen=True, slots=True, kw_only=True)
class EndeSpielzug(Event):
    pass


@dataclass(frozen=True, slots=True, kw_only=True)
class Sichtbar(Event):
    """Whether Mr. Jack is seen at the end of the round (the witness card)."""

    sichtbar: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdateVerdacht(Event):
    """The suspicion mark of ``farbe`` flipped; ``verdaechtig`` is the new state."""

    farbe: str
    verdaechtig: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class EndeRunde(Event):
    runde: int


@dataclass(frozen=True, slots=True, kw_only=True)
class EndeSpiel(Event):
    """The game is over: ``sieger`` (``mrjack``/``detektiv``) won; ``farbe`` was Mr. Jack.

    ``grund``: ``accusation`` (right or wrong), ``escape``, ``time`` (round 8 over),
    ``resigned``, ``left`` or ``timeout``.
    """

    sieger: str
    farbe: str
    grund: str

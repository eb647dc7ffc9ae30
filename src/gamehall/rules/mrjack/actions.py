"""What a seat can do at a Mr. Jack table: the seed's commands, one class each.

The action names are the seed's functors and the fields its arguments, as plain strings
(``Aktiv("gelb")``, ``Aktion("bewegen")``, ``Ziel("f5")``), so the term dialogue maps a parsed
command to an action 1:1. Values are checked by the engine, not the codec, so an unknown
colour or coordinate is refused with the seed's own error (``unknown_colour``,
``unknown_coordinate``) rather than as a malformed action.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gamehall.rules._core import Action, ActionCodec

MRJACK = "mrjack"
DETEKTIV = "detektiv"
ROLES: tuple[str, ...] = (MRJACK, DETEKTIV)
"""The ``Spieler`` terms."""

BEWEGEN = "bewegen"
FAEHIGKEIT = "faehigkeit"
SKIP = "skip"
AKTIONEN: tuple[str, ...] = (BEWEGEN, FAEHIGKEIT, SKIP)
"""The ``Aktion`` terms."""


@dataclass(frozen=True, slots=True)
class Init(Action):
    """``init(Spieler)`` before the start: take role ``spieler`` at this table."""

    name: ClassVar[str] = "init"
    spieler: str


@dataclass(frozen=True, slots=True)
class Aktiv(Action):
    """``aktiv(Farbe)``: activate one of the available character cards."""

    name: ClassVar[str] = "aktiv"
    farbe: str


@dataclass(frozen=True, slots=True)
class Aktion(Action):
    """``aktion(Aktion)``: start a Teilzug (``bewegen``, ``faehigkeit``) or end it (``skip``)."""

    name: ClassVar[str] = "aktion"
    aktion: str


@dataclass(frozen=True, slots=True)
class Ziel(Action):
    """``ziel(Koordinate)``: the next target of the open Teilzug, or a suspicion toggle at a
    round end in ``round_end_mode=detective``."""

    name: ClassVar[str] = "ziel"
    koordinate: str


@dataclass(frozen=True, slots=True)
class Fertig(Action):
    """``fertig``: the detective is done marking suspects (detective mode)."""

    name: ClassVar[str] = "fertig"


@dataclass(frozen=True, slots=True)
class Aufgeben(Action):
    """``aufgeben``: resign; the other side wins."""

    name: ClassVar[str] = "aufgeben"


ACTIONS = ActionCodec([Init, Aktiv, Aktion, Ziel, Fertig, Aufgeben])

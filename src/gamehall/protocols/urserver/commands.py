"""Client game lines of the UrServer: syntax, and which request each keyword answers.

A game line is a keyword and its parameters (note 5.6). :func:`parse_game_line` checks the
parameter count (FEHLER 21), that every number is a decimal integer (14) and the shape of
nutrient vectors (22: exactly N non-negative entries), in that order, and returns the values;
:func:`action_for` turns them into the engine's action. Which keywords fit which pending
request is :data:`ANSWERS` (a keyword that does not fit gives FEHLER 30, before any syntax
check: note 8, precedence).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from gamehall.rules._core import Action
from gamehall.rules.ursuppe import actions as act


class Fehler(Exception):
    """A line the server answers with ``FEHLER number``."""

    def __init__(self, number: int, reason: str = "") -> None:
        super().__init__(reason or f"FEHLER {number}")
        self.number = number


_INTEGER: Final = re.compile(r"-?[0-9]+")

SIGNATURES: Final[dict[str, str]] = {
    "BEREIT": "",
    "POSITION": "i",
    "AMOEBE_SETZEN": "iii",
    "AMOEBE_SETZEN_ENDE": "",
    "TENTAKEL": "iv",
    "WUERFELN": "",
    "BEWEGEN": "ii",
    "KEINE_ZWEITE_BEWEGUNG": "i",
    "KLAMMERN": "iii",
    "NICHT_KLAMMERN": "iii",
    "PARASITISMUS": "ii",
    "FRESSEN": "iv",
    "UEBERLEBENSKAMPF": "iii",
    "FLUCHT": "ii",
    "KEINE_FLUCHT": "i",
    "VERTEIDIGUNG": "i",
    "KEINE_VERTEIDIGUNG": "i",
    "DEFEKT_AUSGLEICHEN": "*",
    "GEN_KAUFEN": "",
    "GEN": "g",
    "GEN_KAUFEN_ENDE": "",
    "AGGRESSION": "iii",
    "KEINE_AGGRESSION": "",
}
"""Each game keyword's parameters: ``i`` integer, ``v`` nutrient vector, ``*`` any number of
integers, ``g`` a gene with an optional second integer (PANZERUNG's surrendered gene)."""

GAME_KEYWORDS: Final = frozenset(SIGNATURES)

ANSWERS: Final[dict[str, frozenset[str]]] = {
    "ZUG_BEREIT": frozenset({"BEREIT"}),
    "ZUG_POSITION": frozenset({"POSITION"}),
    "ZUG_AMOEBE_SETZEN": frozenset({"AMOEBE_SETZEN", "AMOEBE_SETZEN_ENDE"}),
    "ZUG_BEWEGEN": frozenset({"TENTAKEL", "WUERFELN", "BEWEGEN", "KEINE_ZWEITE_BEWEGUNG"}),
    "ZUG_KLAMMERN": frozenset({"KLAMMERN", "NICHT_KLAMMERN"}),
    "ZUG_FRESSEN": frozenset({"PARASITISMUS", "FRESSEN", "UEBERLEBENSKAMPF"}),
    "ZUG_ABWEHR": frozenset({"WUERFELN", "FLUCHT", "KEINE_FLUCHT", "VERTEIDIGUNG", "KEINE_VERTEIDIGUNG"}),
    "ZUG_GENDEFEKTE": frozenset({"DEFEKT_AUSGLEICHEN"}),
    "ZUG_GEN_KAUFEN": frozenset({"GEN_KAUFEN"}),
    "ZUG_AGGRESSION": frozenset({"AGGRESSION", "KEINE_AGGRESSION"}),
}
"""The keywords that may be sent while a request is pending (``GEN`` and ``GEN_KAUFEN_ENDE``
only inside an open ``GEN_KAUFEN`` block)."""

Value = int | tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameLine:
    """One parsed game line."""

    keyword: str
    values: tuple[Value, ...]

    def int_at(self, index: int) -> int:
        value = self.values[index]
        assert isinstance(value, int)
        return value

    def vector_at(self, index: int) -> tuple[int, ...]:
        value = self.values[index]
        assert isinstance(value, tuple)
        return value


def _count_ok(signature: str, count: int) -> bool:
    if signature == "*":
        return True
    if signature == "g":
        return count in (1, 2)
    return count == len(signature)


def parse_game_line(keyword: str, params: list[str], players: int) -> GameLine:
    """Check one game line (21, then 14, then 22) and return its values.

    Raises:
        Fehler: 21, 14 or 22.
    """
    signature = SIGNATURES[keyword]
    if not _count_ok(signature, len(params)):
        raise Fehler(21)
    kinds = ["i"] * len(params) if signature in ("*", "g") else list(signature)
    for kind, token in zip(kinds, params, strict=True):
        parts = token.split(":") if kind == "v" else [token]
        if not all(_INTEGER.fullmatch(part) for part in parts):
            raise Fehler(14)
    values: list[Value] = []
    for kind, token in zip(kinds, params, strict=True):
        if kind == "v":
            vector = tuple(int(part) for part in token.split(":"))
            if len(vector) != players or any(count < 0 for count in vector):
                raise Fehler(22)
            values.append(vector)
        else:
            values.append(int(token))
    return GameLine(keyword, tuple(values))


def action_for(line: GameLine) -> Action:
    """The engine action of a single-line answer or pre-command (blocks: see the dialogue)."""
    k, i = line.keyword, line.int_at
    if k == "BEREIT":
        return act.Bereit()
    if k == "POSITION":
        return act.Position(i(0))
    if k == "AMOEBE_SETZEN":
        return act.AmoebeSetzen(i(0), i(1), i(2))
    if k == "TENTAKEL":
        return act.Tentakel(i(0), line.vector_at(1))
    if k == "WUERFELN":
        return act.Wuerfeln()
    if k == "BEWEGEN":
        return act.Bewegen(i(0), i(1))
    if k == "KEINE_ZWEITE_BEWEGUNG":
        return act.KeineZweiteBewegung(i(0))
    if k == "KLAMMERN":
        return act.Klammern(i(0), i(1), i(2))
    if k == "NICHT_KLAMMERN":
        return act.NichtKlammern(i(0), i(1), i(2))
    if k == "PARASITISMUS":
        return act.Parasitismus(i(0), i(1))
    if k == "FRESSEN":
        return act.Fressen(i(0), line.vector_at(1))
    if k == "UEBERLEBENSKAMPF":
        return act.Ueberlebenskampf(i(0), i(1), i(2))
    if k == "FLUCHT":
        return act.Flucht(i(0), i(1))
    if k == "KEINE_FLUCHT":
        return act.KeineFlucht(i(0))
    if k == "VERTEIDIGUNG":
        return act.Verteidigung(i(0))
    if k == "KEINE_VERTEIDIGUNG":
        return act.KeineVerteidigung(i(0))
    if k == "DEFEKT_AUSGLEICHEN":
        return act.DefektAusgleichen(tuple(i(n) for n in range(len(line.values))))
    if k == "AGGRESSION":
        return act.Aggression(i(0), i(1), i(2))
    if k == "KEINE_AGGRESSION":
        return act.KeineAggression()
    raise Fehler(30, f"{k} is not a single-line answer")


class GeneBlock:
    """An open ``GEN_KAUFEN`` block of a client: the genes so far."""

    def __init__(self) -> None:
        self.gene: list[int] = []
        self.panzerung_abgeben: int | None = None

    def add(self, line: GameLine) -> None:
        """One ``GEN g [abgeben]`` line. Raises Fehler 21 for a second parameter on a gene
        other than PANZERUNG (19) or a second such parameter in the block."""
        gene = line.int_at(0)
        if len(line.values) == 2:
            if gene != 19 or self.panzerung_abgeben is not None:
                raise Fehler(21)
            self.panzerung_abgeben = line.int_at(1)
        self.gene.append(gene)

    def action(self) -> act.GenKaufen:
        return act.GenKaufen(tuple(self.gene), self.panzerung_abgeben)


class DivisionBlock:
    """An open phase-4 ``AMOEBE_SETZEN`` block: the placements so far."""

    def __init__(self) -> None:
        self.setzungen: list[tuple[int, int, int]] = []

    def add(self, line: GameLine) -> None:
        self.setzungen.append((line.int_at(0), line.int_at(1), line.int_at(2)))

    def action(self) -> act.AmoebenSetzen:
        return act.AmoebenSetzen(tuple(self.setzungen))


# -- the client side: an action as the lines a client sends ---------------------------------------


def _vec(values: tuple[int, ...]) -> str:
    return ":".join(str(v) for v in values)


def client_lines(action: Action, *, setup: bool = False) -> list[str]:
    """The line(s) a client sends for ``action`` (bots and tests). ``AmoebeSetzen`` is the setup
    placement; ``AmoebenSetzen`` the phase-4 block."""
    a: object = action
    if isinstance(a, act.GenKaufen):
        genes = [f"GEN {g}" for g in a.gene]
        if a.panzerung_abgeben is not None:
            genes = [f"GEN {g} {a.panzerung_abgeben}" if g == 19 else f"GEN {g}" for g in a.gene]
        return ["GEN_KAUFEN", *genes, "GEN_KAUFEN_ENDE"]
    if isinstance(a, act.AmoebenSetzen):
        return [*(f"AMOEBE_SETZEN {' '.join(str(v) for v in s)}" for s in a.setzungen), "AMOEBE_SETZEN_ENDE"]
    if isinstance(a, act.DefektAusgleichen):
        return [" ".join(["DEFEKT_AUSGLEICHEN", *(str(g) for g in a.gene)])]
    if isinstance(a, (act.Tentakel, act.Fressen)):
        keyword = "TENTAKEL" if isinstance(a, act.Tentakel) else "FRESSEN"
        return [f"{keyword} {a.amoebe} {_vec(a.naehrstoffe)}"]
    keyword = _KEYWORD_OF[type(a)]
    values = [str(getattr(a, name)) for name in a.__dataclass_fields__]  # type: ignore[attr-defined]
    return [" ".join([keyword, *values])]


_KEYWORD_OF: Final[dict[type, str]] = {
    act.Bereit: "BEREIT",
    act.Position: "POSITION",
    act.AmoebeSetzen: "AMOEBE_SETZEN",
    act.Wuerfeln: "WUERFELN",
    act.Bewegen: "BEWEGEN",
    act.KeineZweiteBewegung: "KEINE_ZWEITE_BEWEGUNG",
    act.Klammern: "KLAMMERN",
    act.NichtKlammern: "NICHT_KLAMMERN",
    act.Parasitismus: "PARASITISMUS",
    act.Ueberlebenskampf: "UEBERLEBENSKAMPF",
    act.Flucht: "FLUCHT",
    act.KeineFlucht: "KEINE_FLUCHT",
    act.Verteidigung: "VERTEIDIGUNG",
    act.KeineVerteidigung: "KEINE_VERTEIDIGUNG",
    act.Aggression: "AGGRESSION",
    act.KeineAggression: "KEINE_AGGRESSION",
}

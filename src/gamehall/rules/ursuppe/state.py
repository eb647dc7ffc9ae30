"""The data of one Ursuppe table and the small bookkeeping steps every phase shares.

Plain records plus the primitive changes that always come with the same event (BP paid,
cubes placed from the supply, an amoeba damaged or removed), so each phase module reads like
the rulebook and the wire events cannot be forgotten. Invariant: for every colour, the cubes
on the board plus the supply are always :data:`CUBES_PER_COLOUR`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from gamehall.rules._core import JSON, Event, Rng, Seat
from gamehall.rules.ursuppe import events as ev
from gamehall.rules.ursuppe.board import Board, Field
from gamehall.rules.ursuppe.environment import EnvironmentCard
from gamehall.rules.ursuppe.genes import GENES, Gene, has_effect

CUBES_PER_COLOUR = 55
"""ANZAHL_NAEHRSTOFFE (A30)."""

AMOEBAS_PER_COLOUR = 7
"""ANZAHL_AMOEBEN (A30): numbers 0..6."""

START_BP = 4
START_CUBES = 2
"""Cubes of every colour in play on each playable field at the start."""

AmoebaId = tuple[int, int]
"""``(farbe, amoebe)``."""


@dataclass(slots=True)
class Amoeba:
    farbe: int
    nummer: int
    feld: Field
    schaden: int = 0

    @property
    def ident(self) -> AmoebaId:
        return (self.farbe, self.nummer)


@dataclass(slots=True)
class Player:
    """One seat (= one colour). ``genes`` maps each owned gene to the round it was bought
    in (0 = never in a round), which decides when it may be upgraded (7.7)."""

    farbe: Seat
    name: str
    present: bool = True
    left: bool = False
    position: int = -1
    bp: int = START_BP
    genes: dict[Gene, int] = field(default_factory=dict)

    @property
    def autoplay(self) -> bool:
        """Whether the seat's requests get default moves at once (A28: gone or away)."""
        return self.left or not self.present


@dataclass(slots=True)
class TableState:
    config: Mapping[str, JSON]
    players: int
    board: Board
    rng: Rng
    deck: list[EnvironmentCard]
    card: EnvironmentCard
    seats: dict[Seat, Player] = field(default_factory=dict)
    cubes: dict[Field, list[int]] = field(default_factory=dict)
    supply: list[int] = field(default_factory=list)
    amoebas: dict[AmoebaId, Amoeba] = field(default_factory=dict)
    round: int = 0
    phase: str = "lobby"
    last_card_revealed: bool = False
    position_history: list[tuple[int, dict[Seat, int]]] = field(default_factory=list)
    """(round, every colour's score-track position) after each phase 6: the game-over chart."""
    attacked: set[AmoebaId] = field(default_factory=set)
    """Amoebas that attacked this round (one Struggle per amoeba per round)."""
    fled: set[AmoebaId] = field(default_factory=set)
    defended: set[AmoebaId] = field(default_factory=set)
    out: list[Event] = field(default_factory=list)
    """Events of the input being processed, in wire order."""

    # -- queries ----------------------------------------------------------------------------

    @property
    def colours(self) -> range:
        return range(self.players)

    @property
    def finish_line(self) -> int:
        return int(self.config["ladder_length"]) - int(self.config["finish_zone"])

    def owns(self, farbe: int, gene: Gene) -> bool:
        """Whether the player has the effect of ``gene`` (own or included, see genes)."""
        return has_effect(self.seats[farbe].genes, gene)

    def amoebas_of(self, farbe: int) -> list[Amoeba]:
        return sorted((a for a in self.amoebas.values() if a.farbe == farbe), key=lambda a: a.nummer)

    def amoebas_at(self, feld: Field) -> list[Amoeba]:
        return sorted((a for a in self.amoebas.values() if a.feld == feld), key=lambda a: a.ident)

    def alive(self, amoeba: Amoeba) -> bool:
        return self.amoebas.get(amoeba.ident) is amoeba

    def ascending(self) -> list[int]:
        """Colours by ladder position, lowest first (phase 1, first setup amoebas)."""
        return sorted(self.colours, key=lambda c: self.seats[c].position)

    def descending(self) -> list[int]:
        """Colours by ladder position, highest first (phases 2-6, second setup amoebas)."""
        return self.ascending()[::-1]

    def free_copies(self, gene: Gene) -> int:
        owned = sum(1 for p in self.seats.values() if gene in p.genes)
        return GENES[gene].copies(self.players) - owned

    def death_threshold(self, farbe: int) -> int:
        return 3 if self.owns(farbe, Gene.LEBENSERWARTUNG) else 2

    # -- changes that always come with their event -------------------------------------------

    def change_bp(self, farbe: int, difference: int) -> None:
        """Add (or with a negative value take) BP; BP never go below zero (A27)."""
        if difference == 0:
            return
        player = self.seats[farbe]
        assert player.bp + difference >= 0, "callers check BP first"
        player.bp += difference
        self.out.append(ev.Biopunkte(farbe=farbe, differenz=difference))

    def place_cubes(self, farbe: int, wanted: int, feld: Field) -> None:
        """Cubes of ``farbe`` from the supply onto ``feld``, as many as the supply holds."""
        count = min(wanted, self.supply[farbe])
        if count <= 0:
            return
        self.supply[farbe] -= count
        self.cubes[feld][farbe] += count
        self.out.append(ev.Naehrstoff(farbe=farbe, anzahl=count, x=feld[0], y=feld[1]))

    def damage(self, amoeba: Amoeba) -> None:
        amoeba.schaden += 1
        self.out.append(ev.AmoebeSchaden(farbe=amoeba.farbe, amoebe=amoeba.nummer))

    def remove(self, amoeba: Amoeba, cubes_per_colour: int) -> None:
        """An amoeba dies and leaves cubes of every colour in play (limited by the supply)."""
        del self.amoebas[amoeba.ident]
        self.out.append(ev.AmoebeEntfernt(farbe=amoeba.farbe, amoebe=amoeba.nummer))
        for colour in self.colours:
            self.place_cubes(colour, cubes_per_colour, amoeba.feld)

    def put_amoeba(self, farbe: int, nummer: int, feld: Field) -> Amoeba:
        amoeba = Amoeba(farbe, nummer, feld)
        self.amoebas[amoeba.ident] = amoeba
        return amoeba

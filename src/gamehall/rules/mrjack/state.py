"""What stands where on the board during a game, and the little vocabulary the move and ability
steps share.

:class:`BoardState` is the changing part of the board (characters, tiles, investigation
tiles, steamers, the informant); :mod:`.board` holds what never changes. :class:`Turn` is what
a Teilzug needs to know about the activation under way. A Teilzug is a short dialogue of
targets (note 8): each step function answers either :class:`Ask` (send these
``moeglichkeiten`` next) or :class:`Done` (the Teilzug is over, here are its board updates).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field

from gamehall.rules._core import Event, Seat
from gamehall.rules.mrjack.board import (
    BOARD,
    PRINTED_BUILDINGS,
    PRINTED_METRO,
    START_INFORMANT,
    START_INVESTIGATION_TILES,
    START_STEAMERS,
    START_TILES,
    STREETS,
    Kind,
    sorted_labels,
)
from gamehall.rules.mrjack.cards import AlibiDeck
from gamehall.rules.mrjack.characters import Cast
from gamehall.rules.mrjack.settings import Rules

METRO = "metro"
LATERNE = "laterne"
HAUS = "haus"
PARK = "park"
ARTEN: tuple[str, ...] = (HAUS, PARK, METRO, LATERNE)
"""The ``Art`` terms (a tile's visible side)."""


@dataclass(slots=True)
class BoardState:
    """The changing board: characters by colour, removable tiles by hex (with the side up),
    tiles left in the supply, the two investigation tiles (stored order), steamers and the
    informant."""

    figures: dict[str, str]
    tiles: dict[str, str]
    supply: dict[str, int]
    investigation: list[tuple[str, str]]
    steamers: list[str]
    informant: str
    informant_talkative: bool = True

    @classmethod
    def starting(cls, cast: Cast, tile_supply: Mapping[str, int]) -> BoardState:
        """The starting layout (10.3); the supply is the box minus the tiles already placed."""
        placed = {art: sum(1 for side in START_TILES.values() if side == art) for art in tile_supply}
        return cls(
            figures=cast.start_positions(),
            tiles=dict(START_TILES),
            supply={art: tile_supply[art] - placed[art] for art in tile_supply},
            investigation=list(START_INVESTIGATION_TILES),
            steamers=sorted(START_STEAMERS),
            informant=START_INFORMANT,
        )

    # -- who and what is where --------------------------------------------------------------

    def occupant(self, label: str) -> str | None:
        """The colour of the character on ``label``, if any."""
        for colour, where in self.figures.items():
            if where == label:
                return colour
        return None

    def occupied(self) -> frozenset[str]:
        return frozenset(self.figures.values())

    def investigation_hexes(self) -> frozenset[str]:
        return frozenset(h for pair in self.investigation for h in pair)

    def metro_entrances(self) -> frozenset[str]:
        """Printed metro entrances and metro tiles with the metro side up."""
        return PRINTED_METRO | {h for h, art in self.tiles.items() if art == METRO}

    def is_lamp(self, label: str) -> bool:
        return self.tiles.get(label) == LATERNE

    def is_park(self, label: str) -> bool:
        return self.tiles.get(label) == PARK

    def blocks_walkers(self, label: str) -> bool:
        """Whether no character may enter ``label`` (9.3): printed buildings, building sites,
        gas lamps and investigation-tile hexes."""
        return (
            label in PRINTED_BUILDINGS
            or self.tiles.get(label) in (HAUS, LATERNE)
            or label in self.investigation_hexes()
        )

    def is_building(self, label: str) -> bool:
        """Printed building or building site: what Cloud Rider may fly over."""
        return label in PRINTED_BUILDINGS or self.tiles.get(label) == HAUS

    def empty_streets(self, *, ignoring: tuple[str, ...] = ()) -> tuple[str, ...]:
        """Street hexes with nothing on them (8): no printed building or metro, no tile on
        either side, no investigation tile, no character, no informant. Hexes in ``ignoring``
        count as free of their investigation tile (Callahan lifts one)."""
        taken = (
            PRINTED_BUILDINGS
            | PRINTED_METRO
            | set(self.tiles)
            | (self.investigation_hexes() - set(ignoring))
            | self.occupied()
            | {self.informant}
        )
        return tuple(h for h in STREETS if h not in taken)

    def copy(self) -> BoardState:
        return BoardState(
            figures=dict(self.figures),
            tiles=dict(self.tiles),
            supply=dict(self.supply),
            investigation=list(self.investigation),
            steamers=list(self.steamers),
            informant=self.informant,
            informant_talkative=self.informant_talkative,
        )

    def snapshot(self) -> dict[str, object]:
        """The board as JSON (public: everything on the board is visible to all)."""
        return {
            "figures": dict(self.figures),
            "tiles": {h: self.tiles[h] for h in sorted_labels(list(self.tiles))},
            "supply": dict(self.supply),
            "investigation": [list(pair) for pair in self.investigation],
            "steamers": list(self.steamers),
            "informant": {"hex": self.informant, "talkative": self.informant_talkative},
            "printed_buildings": list(sorted_labels(PRINTED_BUILDINGS)),
            "printed_metro": list(sorted_labels(PRINTED_METRO)),
        }


def is_street(label: str) -> bool:
    return BOARD[label].kind is Kind.STREET


@dataclass(slots=True)
class Turn:
    """The activation under way, as a move or ability step sees it."""

    board: BoardState
    rules: Rules
    cast: Cast
    colour: str
    actor: Seat
    actor_is_detective: bool
    escape_allowed: bool
    alibis: AlibiDeck


@dataclass(frozen=True, slots=True)
class Ask:
    """The Teilzug goes on: the next ``ziel`` must be one of ``options`` (sorted). ``events``
    happened on the way (the alibi card the informant showed)."""

    options: tuple[str, ...]
    events: list[Event] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Done:
    """The Teilzug is over; ``events`` are its board updates (Teilzug end, 7.3)."""

    events: list[Event]


Step = Ask | Done


class Phase(enum.Enum):
    """What the game waits for (note 6); the value is the ``ToMove`` kind."""

    LOBBY = "lobby"
    PICK = "aktiv"
    PARTS = "aktion"
    TARGET = "ziel"
    MARKING = "verdacht"
    OVER = "over"


@dataclass(slots=True)
class Activation:
    """The character being played: its colour, the player, the Teilzüge still open and how
    many may still be made (two, or one for Monk Eastman)."""

    colour: str
    seat: Seat
    remaining: set[str]
    parts_left: int
    part: str | None = None
    chosen: tuple[str, ...] = ()
    options: tuple[str, ...] = ()

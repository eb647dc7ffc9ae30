"""The eight special abilities (note 9.4), one step function each, with the target dialogues
of note 8.

Every function has the shape ``ability(turn, chosen) -> Ask | Done``: ``chosen`` holds the
targets accepted so far in this Teilzug. With nothing chosen it only *looks* (the engine uses
that to tell whether the ability has a target at all); once the last target is in, it changes
the board and returns the Teilzug-end updates. Targets are coordinates throughout, as the seed
has a single ``ziel(Koordinate)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from gamehall.rules.mrjack.board import PORTS, neighbours, sorted_labels
from gamehall.rules.mrjack.characters import Ability
from gamehall.rules.mrjack.events import UpdateAbsp, UpdateArt, UpdateFigur, UpdateSchiff
from gamehall.rules.mrjack.movement import destinations, flies
from gamehall.rules.mrjack.state import HAUS, LATERNE, METRO, PARK, Ask, Done, Step, Turn


def _place_tile(turn: Turn, chosen: tuple[str, ...], art: str) -> Step:
    """Place a tile from the supply, ``art`` side up, on an empty street hex."""
    board = turn.board
    if not chosen:
        return Ask(board.empty_streets() if board.supply[art] > 0 else ())
    board.tiles[chosen[0]] = art
    board.supply[art] -= 1
    return Done([UpdateArt(koordinate=chosen[0], art=art)])


def place_metro(turn: Turn, chosen: tuple[str, ...]) -> Step:
    """Beach (``braun``): a metro entrance on an empty street hex."""
    return _place_tile(turn, chosen, METRO)


def place_gas_lamp(turn: Turn, chosen: tuple[str, ...]) -> Step:
    """Latimer (``gelb``): a gas lamp on an empty street hex."""
    return _place_tile(turn, chosen, LATERNE)


def place_building_site(turn: Turn, chosen: tuple[str, ...]) -> Step:
    """Cloud Rider (``beige``): a building site on an empty street hex."""
    return _place_tile(turn, chosen, HAUS)


def turn_to_park(turn: Turn, chosen: tuple[str, ...]) -> Step:
    """Grant (``gruen``): turn a removable tile (metro, gas lamp, building site; not the
    printed metro entrance, not a park) to its park side. It never returns to the supply."""
    board = turn.board
    if not chosen:
        return Ask(sorted_labels([h for h, art in board.tiles.items() if art != PARK]))
    board.tiles[chosen[0]] = PARK
    return Done([UpdateArt(koordinate=chosen[0], art=PARK)])


def _new_pairs(turn: Turn, old: tuple[str, str]) -> dict[str, tuple[str, ...]]:
    """Where tile ``old`` may go: first hex -> second hexes, both empty street hexes with the
    tile lifted, adjacent, and not the old pair again."""
    free = set(turn.board.empty_streets(ignoring=old))
    pairs: dict[str, tuple[str, ...]] = {}
    for first in free:
        seconds = [h for h in neighbours(first) if h in free and {first, h} != set(old)]
        if seconds:
            pairs[first] = sorted_labels(seconds)
    return pairs


def move_investigation_tile(turn: Turn, chosen: tuple[str, ...]) -> Step:
    """Callahan (``rot``): lift one investigation tile (pick either of its hexes), then name
    the two adjacent empty street hexes it goes to, N1 then N2."""
    board = turn.board
    if not chosen:
        return Ask(sorted_labels([h for pair in board.investigation if _new_pairs(turn, pair) for h in pair]))
    index = next(i for i, pair in enumerate(board.investigation) if chosen[0] in pair)
    old = board.investigation[index]
    pairs = _new_pairs(turn, old)
    if len(chosen) == 1:
        return Ask(sorted_labels(list(pairs)))
    if len(chosen) == 2:
        return Ask(pairs[chosen[1]])
    board.investigation[index] = (chosen[1], chosen[2])
    return Done([UpdateAbsp(alt1=old[0], alt2=old[1], neu1=chosen[1], neu2=chosen[2])])


def move_steamer(turn: Turn, chosen: tuple[str, ...]) -> Step:
    """Smith (``weiss``): move a steamer to a port without one."""
    board = turn.board
    if not chosen:
        return Ask(sorted_labels(board.steamers))
    if len(chosen) == 1:
        return Ask(sorted_labels([p for p in PORTS if p not in board.steamers]))
    board.steamers = sorted(set(board.steamers) - {chosen[0]} | {chosen[1]})
    return Done([UpdateSchiff(von=chosen[0], nach=chosen[1])])


def _moves_of_other(turn: Turn, colour: str) -> tuple[str, ...]:
    return destinations(turn.board, colour, flies=flies(turn, colour), accusation=False, escape=False)


def move_other_character(turn: Turn, chosen: tuple[str, ...]) -> Step:
    """Eastman (``schwarz``): move another character 1-3 steps by its own movement rules (no
    escape, no accusation, no informant visit). Step 1 names the character by its hex."""
    board = turn.board
    if not chosen:
        others = [h for c, h in board.figures.items() if c != turn.colour and _moves_of_other(turn, c)]
        return Ask(sorted_labels(others))
    colour = board.occupant(chosen[0])
    assert colour is not None
    if len(chosen) == 1:
        return Ask(_moves_of_other(turn, colour))
    board.figures[colour] = chosen[1]
    return Done([UpdateFigur(koordinate=chosen[1], farbe=colour)])


def swap_characters(turn: Turn, chosen: tuple[str, ...]) -> Step:
    """Tumblety (``lila``): swap a character next to him with any other character but him."""
    board = turn.board
    here = board.figures[turn.colour]
    if not chosen:
        return Ask(sorted_labels([h for h in neighbours(here) if board.occupant(h) is not None]))
    if len(chosen) == 1:
        return Ask(sorted_labels([h for h in board.occupied() if h not in (here, chosen[0])]))
    first, second = board.occupant(chosen[0]), board.occupant(chosen[1])
    assert first is not None and second is not None
    board.figures[first], board.figures[second] = chosen[1], chosen[0]
    return Done(
        [UpdateFigur(koordinate=chosen[1], farbe=first), UpdateFigur(koordinate=chosen[0], farbe=second)]
    )


ABILITY_STEPS: Mapping[Ability, Callable[[Turn, tuple[str, ...]], Step]] = {
    Ability.MOVE_INVESTIGATION_TILE: move_investigation_tile,
    Ability.PLACE_GAS_LAMP: place_gas_lamp,
    Ability.PLACE_METRO: place_metro,
    Ability.TURN_TO_PARK: turn_to_park,
    Ability.PLACE_BUILDING_SITE: place_building_site,
    Ability.MOVE_OTHER_CHARACTER: move_other_character,
    Ability.SWAP_CHARACTERS: swap_characters,
    Ability.MOVE_STEAMER: move_steamer,
}
"""The step function of each ability."""

"""Movement (note 9.3) and the ``bewegen`` Teilzug with its informant visit (9.5).

A move is a path of 1 to 3 steps. A step goes to a geometric neighbour that does not block
(printed building, building site, gas lamp, investigation tile), along a one-way ferry link
(``b5``/``d4`` -> ``a1`` -> ``f9``/``h2``) or through the metro from one entrance to any other.
Occupied hexes may be crossed but not ended on, except by the detective's accusation. Ports
and the land exit are only ever the last step of Mr. Jack's escape. Cloud Rider (with
``cloud_rider_flies``) crosses buildings and building sites but never stops on them.
"""

from __future__ import annotations

from gamehall.rules.mrjack.board import BOARD, LAND_EXIT, Kind, sorted_labels
from gamehall.rules.mrjack.characters import Ability
from gamehall.rules.mrjack.events import UpdateAlibi, UpdateFigur, UpdateSpion
from gamehall.rules.mrjack.state import Ask, BoardState, Done, Step, Turn

MAX_STEPS = 3

_STANDABLE = (Kind.STREET, Kind.QUAY_EMBARK, Kind.QUAY_LAND, Kind.LIBERTY)


def steps_from(board: BoardState, label: str) -> tuple[str, ...]:
    """Every hex one step away, before any blocking: geometric neighbours, ferry links and,
    from a metro entrance, every other metro entrance."""
    node = BOARD[label]
    out = list(node.neighbours) + list(node.ferry_to)
    entrances = board.metro_entrances()
    if label in entrances:
        out += [e for e in entrances if e != label]
    return tuple(out)


def destinations(
    board: BoardState,
    colour: str,
    *,
    flies: bool,
    accusation: bool,
    escape: bool,
) -> tuple[str, ...]:
    """Where character ``colour`` may end a move, sorted (4.2).

    Args:
        flies: the character crosses buildings and building sites (Cloud Rider).
        accusation: reachable occupied hexes are listed too (the detective's own move).
        escape: the land exit and ports with a steamer may be the last step.
    """
    start = board.figures[colour]
    occupied = board.occupied()
    found: set[str] = set()
    reached = {start}
    frontier = [start]
    for _ in range(MAX_STEPS):
        following: list[str] = []
        for here in frontier:
            for there in steps_from(board, here):
                if there in reached:
                    continue
                kind = BOARD[there].kind
                if kind is Kind.PORT or kind is Kind.LAND_EXIT:
                    if escape and (there == LAND_EXIT or there in board.steamers):
                        found.add(there)
                    continue
                if board.blocks_walkers(there):
                    if flies and board.is_building(there):
                        reached.add(there)
                        following.append(there)
                    continue
                assert kind in _STANDABLE
                reached.add(there)
                following.append(there)
                if there not in occupied or accusation:
                    found.add(there)
        frontier = following
    found.discard(start)
    return sorted_labels(found)


def flies(turn: Turn, colour: str) -> bool:
    """Whether ``colour`` flies over buildings (Cloud Rider with ``cloud_rider_flies``)."""
    return turn.rules.cloud_rider_flies and turn.cast.ability(colour) is Ability.PLACE_BUILDING_SITE


def own_move_destinations(turn: Turn) -> tuple[str, ...]:
    """The ``moeglichkeiten`` of the active character's ``bewegen``: the detective also gets
    reachable occupied hexes (accusation); Mr. Jack's own character may get escape targets."""
    return destinations(
        turn.board,
        turn.colour,
        flies=flies(turn, turn.colour),
        accusation=turn.actor_is_detective,
        escape=turn.escape_allowed,
    )


def is_escape_target(label: str) -> bool:
    return BOARD[label].kind in (Kind.PORT, Kind.LAND_EXIT)


def move_part(turn: Turn, chosen: tuple[str, ...]) -> Step:
    """The ``bewegen`` Teilzug (8): step 1 the destination; if the character lands on the
    talkative informant and the alibi deck is not empty, the active player sees the top card
    and (``informant_relocate``) picks the informant's new hex as step 2.

    Accusation and escape end the game at step 1; the engine handles them before calling this.
    """
    board = turn.board
    if not chosen:
        return Ask(own_move_destinations(turn))
    destination = chosen[0]
    if len(chosen) == 1:
        board.figures[turn.colour] = destination
        if destination == board.informant and board.informant_talkative:
            card = turn.alibis.draw(turn.actor)
            if card is not None:
                alibi = UpdateAlibi(seat=turn.actor, farbe=card, audience=frozenset({turn.actor}))
                board.informant_talkative = False
                if turn.rules.informant_relocate:
                    return Ask(board.empty_streets(), [alibi])
                return Done([alibi, UpdateFigur(koordinate=destination, farbe=turn.colour)])
        return Done([UpdateFigur(koordinate=destination, farbe=turn.colour)])
    board.informant = chosen[1]
    audience = None if turn.rules.spion_broadcast else frozenset({turn.actor})
    return Done(
        [
            UpdateSpion(koordinate=chosen[1], audience=audience),
            UpdateFigur(koordinate=destination, farbe=turn.colour),
        ]
    )

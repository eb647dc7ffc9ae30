"""What a Mr. Jack bot can work out from a seat's view: the board, the legal actions, and what a
move would change.

The view (``MrJackGame.view(seat)``) holds the public board and this seat's own secrets, but
not which Teilzug has a target. The bot rebuilds a :class:`~gamehall.rules.mrjack.state.BoardState`
from the view and asks the engine's own pure step functions (movement and abilities) for the
first ``moeglichkeiten`` of each open Teilzug, with the default rule options (the view does not
carry the room's options; a room with other options may see a refused ``aktion``, which the
wire bot answers by trying the next choice).

The wire bot (:mod:`.wire`) builds the same view keys from the messages it receives, so one
policy serves both.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from functools import cache
from typing import Any

from gamehall.rules._core import Action
from gamehall.rules.mrjack.abilities import ABILITY_STEPS
from gamehall.rules.mrjack.actions import (
    BEWEGEN,
    DETEKTIV,
    FAEHIGKEIT,
    MRJACK,
    SKIP,
    Aktion,
    Aktiv,
    Fertig,
    Ziel,
)
from gamehall.rules.mrjack.board import BOARD, LAND_EXIT, PORTS, neighbours
from gamehall.rules.mrjack.cards import AlibiDeck
from gamehall.rules.mrjack.characters import COLOURS, DEFAULT_COLOUR_MAP, Ability, Cast
from gamehall.rules.mrjack.movement import move_part
from gamehall.rules.mrjack.settings import Rules, check_config
from gamehall.rules.mrjack.state import Ask, BoardState, Turn
from gamehall.rules.mrjack.visibility import seen_colours

View = Mapping[str, Any]


@cache
def default_rules() -> Rules:
    return Rules.from_config(check_config({}))


def cast_of(view: View) -> Cast:
    """The colour -> character table of the view (``characters``), else the default."""
    keys = view.get("characters")
    if isinstance(keys, Mapping) and all(c in keys for c in COLOURS):
        return Cast([str(keys[c]) for c in COLOURS])
    return Cast(DEFAULT_COLOUR_MAP)


def board_of(view: View) -> BoardState:
    """The board of a view as the engine's :class:`BoardState`."""
    board = view["board"]
    informant = board.get("informant", {})
    return BoardState(
        figures=dict(board["figures"]),
        tiles=dict(board["tiles"]),
        supply=dict(board.get("supply", {"metro": 4, "laterne": 4, "haus": 4})),
        investigation=[(str(a), str(b)) for a, b in board["investigation"]],
        steamers=list(board["steamers"]),
        informant=str(informant.get("hex", "a1")),
        informant_talkative=bool(informant.get("talkative", True)),
    )


def turn_of(view: View, seat: int, board: BoardState | None = None) -> Turn:
    """The activation under way, as the engine's step functions see it."""
    colour = str(view["active"])
    jack_player = view.get("you") == MRJACK
    return Turn(
        board=board if board is not None else board_of(view),
        rules=default_rules(),
        cast=cast_of(view),
        colour=colour,
        actor=seat,
        actor_is_detective=not jack_player,
        escape_allowed=jack_player and colour == view.get("jack") and not view.get("witness_seen", True),
        alibis=AlibiDeck(jack="", deck=[]),
    )


def part_options(view: View, seat: int, part: str) -> tuple[str, ...]:
    """The first ``moeglichkeiten`` Teilzug ``part`` would offer (empty: no target)."""
    turn = turn_of(view, seat)
    if part == BEWEGEN:
        step = move_part(turn, ())
    else:
        step = ABILITY_STEPS[turn.cast.ability(turn.colour)](turn, ())
    return step.options if isinstance(step, Ask) else ()


def may_skip(view: View, seat: int, parts: list[str]) -> bool:
    """Whether ``aktion(skip)`` is accepted (note 9.8, default options)."""
    rules = default_rules()
    cast = cast_of(view)
    for part in parts:
        if part == BEWEGEN:
            if rules.min_move != 0 and part_options(view, seat, BEWEGEN):
                return False
            continue
        optional = rules.ability_skip_always or (
            rules.tumblety_optional and cast.ability(str(view["active"])) is Ability.SWAP_CHARACTERS
        )
        if not optional and part_options(view, seat, FAEHIGKEIT):
            return False
    return True


def legal_actions(view: View, seat: int) -> list[Action]:
    """Every action the seat may send now, as far as the view tells (resigning left out)."""
    if view.get("to_move") != seat:
        return []
    phase = view.get("phase")
    if phase == "aktiv":
        return [Aktiv(str(colour)) for colour, free in view["auswahl"] if free]
    if phase == "aktion":
        parts = [str(p) for p in view.get("open_parts", [])]
        legal: list[Action] = [
            Aktion(p) for p in (BEWEGEN, FAEHIGKEIT) if p in parts and part_options(view, seat, p)
        ]
        if may_skip(view, seat, parts):
            legal.append(Aktion(SKIP))
        return legal
    if phase == "ziel":
        return [Ziel(str(label)) for label in view.get("moeglichkeiten", [])]
    if phase == "verdacht":
        return [Fertig()]
    return []


# --------------------------------------------------------------------------------------------
# Looking ahead
# --------------------------------------------------------------------------------------------


def seen_after(board: BoardState, colour: str, target: str) -> frozenset[str]:
    """Who is seen once ``colour`` stands on ``target``."""
    moved = board.copy()
    moved.figures[colour] = target
    return seen_colours(moved)


def split_score(seen: frozenset[str], suspects: list[str]) -> int:
    """How evenly the witness call would split the suspects (0 = perfectly even): what the
    detective wants."""
    seen_suspects = sum(1 for c in suspects if c in seen)
    return -abs(2 * seen_suspects - len(suspects))


def jack_group(seen: frozenset[str], suspects: list[str], jack: str) -> int:
    """How many suspects stay on Mr. Jack's side of the witness call: what Mr. Jack wants."""
    jack_seen = jack in seen
    return sum(1 for c in suspects if (c in seen) == jack_seen)


@cache
def exit_distance(label: str) -> int:
    """Steps from ``label`` to the land exit or a port, ignoring what blocks (a rough pull)."""
    goals = {LAND_EXIT, *PORTS}
    seen = {label}
    queue = deque([(label, 0)])
    while queue:
        here, distance = queue.popleft()
        if here in goals:
            return distance
        for there in (*neighbours(here), *BOARD[here].ferry_to):
            if there not in seen:
                seen.add(there)
                queue.append((there, distance + 1))
    return 99


__all__ = [
    "DETEKTIV",
    "MRJACK",
    "View",
    "board_of",
    "cast_of",
    "exit_distance",
    "jack_group",
    "legal_actions",
    "may_skip",
    "part_options",
    "seen_after",
    "split_score",
    "turn_of",
]

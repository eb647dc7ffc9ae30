"""Eastman's and Tumblety's target sets against the table of note §8, over many random
positions and random games (issue 10 item 8): ``aktion(faehigkeit)`` is accepted exactly when
§8 gives a first target, and each ``moeglichkeiten`` step offers exactly §8's set. Otherwise
``err('Aktion ist ungültig: faehigkeit')`` (note §9.8).

The oracle below is written from the note alone: geometric neighbours by the coordinate rule of
§10.1 (not the engine's stored lists), the ferry links and the blocking rules of §9.3, and every
path of 1-3 steps enumerated (not the engine's breadth-first search)."""

from __future__ import annotations

import random

import pytest

from gamehall.rules._core import RuleError
from gamehall.rules.mrjack import Aktion, MrJackGame, Phase, Ziel, new_game
from gamehall.rules.mrjack.board import BOARD, PRINTED_BUILDINGS, PRINTED_METRO, STREETS, Kind
from gamehall.rules.mrjack.state import HAUS, LATERNE, METRO, PARK, Activation

FERRY = {"b5": ("a1",), "d4": ("a1",), "a1": ("f9", "h2")}
"""§9.3 / §10.2: the directed ferry links."""
EASTMAN, TUMBLETY, CLOUD_RIDER = "schwarz", "lila", "beige"
STANDABLE = (Kind.STREET, Kind.QUAY_EMBARK, Kind.QUAY_LAND, Kind.LIBERTY)


def column_row(label: str) -> tuple[int, int]:
    column, n = ord(label[0]) - ord("a"), int(label[1:])
    return column, 2 * (n - 1) + (column % 2 == 0)


LABEL_AT = {column_row(label): label for label in BOARD}


def adjacent(label: str) -> set[str]:
    """§10.1: ``(c, r±2)`` and ``(c±1, r±1)`` that exist; Liberty Island has none."""
    if label == "a1":
        return set()
    c, r = column_row(label)
    around = [(c, r - 2), (c, r + 2), (c - 1, r - 1), (c - 1, r + 1), (c + 1, r - 1), (c + 1, r + 1)]
    return {LABEL_AT[p] for p in around if p in LABEL_AT and LABEL_AT[p] != "a1"}


def moves(game: MrJackGame, colour: str) -> set[str]:
    """§9.3 for a character Eastman moves: 1-3 steps, no escape, never ending on a character."""
    board = game.board
    metro = set(PRINTED_METRO) | {h for h, art in board.tiles.items() if art == METRO}
    investigation = {h for pair in board.investigation for h in pair}
    flies = game.rules.cloud_rider_flies and colour == CLOUD_RIDER
    occupied, start = set(board.figures.values()), board.figures[colour]
    ends: set[str] = set()
    walked: dict[str, int] = {}  # hex -> most steps left it was walked on with (same paths onward)

    def walk(here: str, steps_left: int) -> None:
        if steps_left == 0 or walked.get(here, -1) >= steps_left:
            return
        walked[here] = steps_left
        following = adjacent(here) | set(FERRY.get(here, ())) | (metro - {here} if here in metro else set())
        for there in following:
            if BOARD[there].kind in (Kind.PORT, Kind.LAND_EXIT):
                continue  # only an escape ends there
            building = there in PRINTED_BUILDINGS or board.tiles.get(there) == HAUS
            if building or board.tiles.get(there) == LATERNE or there in investigation:
                if flies and building:
                    walk(there, steps_left - 1)
                continue
            if there not in occupied and there != start:
                ends.add(there)
            walk(there, steps_left - 1)

    walk(start, 3)
    return ends


def first_targets(game: MrJackGame, colour: str) -> set[str]:
    figures = game.board.figures
    if colour == EASTMAN:
        return {hex_ for c, hex_ in figures.items() if c != EASTMAN and moves(game, c)}
    return adjacent(figures[TUMBLETY]) & set(figures.values())


def second_targets(game: MrJackGame, colour: str, first: str) -> set[str]:
    figures = game.board.figures
    if colour == EASTMAN:
        return moves(game, next(c for c, h in figures.items() if h == first))
    return set(figures.values()) - {figures[TUMBLETY], first}


def check_ability(game: MrJackGame, colour: str) -> None:
    """Ask for the ability as the awaited seat; compare every step with the oracle."""
    seat = game.awaited_seat()
    assert seat is not None
    wanted = first_targets(game, colour)
    trial = game.clone()
    if not wanted:
        with pytest.raises(RuleError) as refused:
            trial.apply(seat, Aktion("faehigkeit"))
        assert refused.value.code == "invalid_action"
        assert Aktion("faehigkeit") not in game.legal_actions(seat)
        return
    trial.apply(seat, Aktion("faehigkeit"))
    assert set(trial.activation.options) == wanted  # type: ignore[union-attr]
    ordered = sorted(wanted)
    for first in {ordered[0], ordered[-1]}:  # the second step, for two of the first choices
        step = trial.clone()
        step.apply(seat, Ziel(first))
        assert set(step.activation.options) == second_targets(game, colour, first)  # type: ignore[union-attr]


def random_position(rng: random.Random) -> MrJackGame:
    """A started table with characters, tiles and investigation tiles scattered at random."""
    game = new_game({"cloud_rider_flies": rng.random() < 0.7}, rng.randrange(1 << 30))
    game.seat_join("jack")
    game.seat_join("detective")
    board = game.board
    free = [h for h in STREETS if h not in PRINTED_BUILDINGS and h not in PRINTED_METRO]
    rng.shuffle(free)
    count = rng.randint(0, 30)
    board.tiles = {h: rng.choice((HAUS, LATERNE, METRO, PARK)) for h in free[:count]}
    pairs: list[tuple[str, str]] = []
    for hex_ in free[count:]:
        partner = next(
            (n for n in sorted(adjacent(hex_)) if n in free[count:] and n not in sum(pairs, ())), None
        )
        if partner is not None and hex_ not in sum(pairs, ()):
            pairs.append((hex_, partner))
        if len(pairs) == 2:
            break
    board.investigation = pairs
    taken = set(board.tiles) | set(sum(pairs, ()))
    spots = [h for h, node in BOARD.items() if node.kind in STANDABLE and h not in PRINTED_BUILDINGS]
    spots = [h for h in spots if h not in taken or board.tiles.get(h) in (METRO, PARK)]
    for colour, hex_ in zip(list(board.figures), rng.sample(spots, len(board.figures)), strict=True):
        board.figures[colour] = hex_
    return game


def boxed_in_position(rng: random.Random) -> MrJackGame:
    """Every character stuck: six on Liberty Island, the quays and the printed metro, two on
    streets, every other street under a gas lamp (the starting investigation tiles stay)."""
    game = new_game({}, rng.randrange(1 << 30))
    game.seat_join("jack")
    game.seat_join("detective")
    board = game.board
    spots = ["a1", "b5", "d4", "f9", "h2", "h5"]
    investigation = {h for pair in board.investigation for h in pair}
    streets = [
        h for h in STREETS if h not in PRINTED_BUILDINGS and h not in PRINTED_METRO and h not in investigation
    ]
    spots += rng.sample(streets, 2)
    for colour, hex_ in zip(list(board.figures), rng.sample(spots, len(spots)), strict=True):
        board.figures[colour] = hex_
    board.tiles = {h: LATERNE for h in streets if h not in spots}
    return game


@pytest.mark.parametrize("colour", [EASTMAN, TUMBLETY])
def test_targets_match_note_8_in_random_positions(colour: str) -> None:
    rng = random.Random(f"note-8-{colour}")
    without_target = 0
    for number in range(150):
        game = boxed_in_position(rng) if number % 10 == 0 else random_position(rng)
        seat = game.awaited_seat()
        assert seat is not None
        game.activation = Activation(colour, seat, {"faehigkeit"}, 1)
        game.phase = Phase.PARTS
        without_target += not first_targets(game, colour)
        check_ability(game, colour)
    assert 0 < without_target < 150  # both kinds of position were tried


def test_targets_match_note_8_in_random_games() -> None:
    rng = random.Random("note-8-games")
    checked = 0
    for number in range(12):
        game = new_game({"monk_own_move": number % 2 == 1}, number)
        game.seat_join("jack")
        game.seat_join("detective")
        while not game.finished:
            seat = game.awaited_seat()
            assert seat is not None
            act = game.activation
            if (
                game.phase is Phase.PARTS
                and act is not None
                and "faehigkeit" in act.remaining
                and act.colour in (EASTMAN, TUMBLETY)
            ):
                check_ability(game, act.colour)
                checked += 1
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert checked > 25

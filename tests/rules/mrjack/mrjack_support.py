"""Helpers for the Mr. Jack engine tests: a started table with a known Mr. Jack and card
order, a runner for command lists, random-legal play and an event digest for fixtures."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from gamehall.rules._core import Action, Event, Rng
from gamehall.rules.mrjack import ACTIONS, Aktion, Aktiv, MrJackGame, Setup, Ziel, new_game
from gamehall.rules.mrjack.board import PORTS
from gamehall.rules.mrjack.events import Moeglichkeiten

JACK_SEAT = 0
DETECTIVE_SEAT = 1

ROUND1_DECK = ("gelb", "rot", "weiss", "schwarz", "braun", "gruen", "beige", "lila")
"""Round 1 reveals gelb rot weiss schwarz (note 7.6); round 2 gets braun gruen beige lila."""


def started(
    *,
    jack: str = "lila",
    decks: tuple[tuple[str, ...], ...] = (ROUND1_DECK,),
    config: Mapping[str, Any] | None = None,
    seed: int = 7,
    alibi_order: tuple[str, ...] | None = None,
) -> MrJackGame:
    """A game in round 1, activation 1: seat 0 is Mr. Jack, seat 1 the detective."""
    setup = Setup(jack=jack, alibi_order=alibi_order, character_decks=decks)
    game = new_game(dict(config or {}), seed, setup)
    game.seat_join("jack")
    game.seat_join("detective")
    return game


def play(game: MrJackGame, seat: int, *commands: str) -> list[Event]:
    """Apply commands written as seed terms: ``aktiv(gelb)``, ``aktion(bewegen)``, ``ziel(a1)``."""
    out: list[Event] = []
    for command in commands:
        out += game.apply(seat, parse(command))
    return out


def parse(command: str) -> Action:
    functor, _, rest = command.partition("(")
    argument = rest.rstrip(")")
    if functor == "aktiv":
        return Aktiv(argument)
    if functor == "aktion":
        return Aktion(argument)
    if functor == "ziel":
        return Ziel(argument)
    return ACTIONS.decode({"type": functor})


def options_of(events: list[Event]) -> tuple[str, ...]:
    """The last ``moeglichkeiten`` among ``events``."""
    lists = [e.koordinaten for e in events if isinstance(e, Moeglichkeiten)]
    assert lists, "no moeglichkeiten sent"
    return tuple(lists[-1])


def names(events: list[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


CONFIGS: tuple[dict[str, Any], ...] = (
    {},
    {"round_end_mode": "detective"},
    {"monk_own_move": True, "min_move": 0},
    {"ability_skip": "always", "tumblety_optional": False, "cloud_rider_flies": False, "park_hides": False},
    {"informant_relocate": False, "informant_reactivate": "never", "spion_broadcast": False},
    {"turn_timeout_action": "default_move"},
)
"""Rule-option mixes the random games cycle through, so every option is played."""

Entry = tuple[int, Action] | str
"""One input of a game log: a seat's action, or the key of a timer that fired."""


def ends_game(game: MrJackGame, action: Action) -> bool:
    """Whether ``action`` is an accusation or an escape (the first ``ziel`` of a move onto a
    character, a port or the exit)."""
    act = game.activation
    if not isinstance(action, Ziel) or act is None or act.part != "bewegen" or act.chosen:
        return False
    return game.board.occupant(action.koordinate) is not None or action.koordinate in ("o6", *PORTS)


def random_game(
    seed: int,
    config: Mapping[str, Any] | None = None,
    *,
    cautious: bool = False,
    timeout_rate: int = 0,
    on_step: Callable[[MrJackGame, list[Event]], None] | None = None,
) -> tuple[MrJackGame, list[Entry], list[Event]]:
    """A whole game between two random-legal players drawn from one :class:`Rng`.

    ``cautious`` players accuse or escape only when nothing else is legal, so games run long;
    ``timeout_rate`` n > 0 lets a running timer fire instead of a move about once in n inputs.
    ``on_step`` sees the game and the new events after every input.
    """
    game = new_game(dict(config or {}), seed)
    events: list[Event] = []
    for name in ("a", "b"):
        events += game.seat_join(name)[1]
    rng = Rng(seed + 1_000_003)
    log: list[Entry] = []
    while not game.finished:
        timers = game.pending_timers()
        if timers and timeout_rate and rng.below(timeout_rate) == 0:
            log.append(timers[0].key)
            new = game.on_timeout(timers[0].key)
        else:
            (seat,) = game.to_move().seats
            legal = game.legal_actions(seat)
            if cautious:
                legal = [a for a in legal if not ends_game(game, a)] or legal
            action = rng.choice(legal)
            log.append((seat, action))
            new = game.apply(seat, action)
        events += new
        if on_step is not None:
            on_step(game, new)
    return game, log, events


def replay(seed: int, config: Mapping[str, Any], log: list[Entry]) -> tuple[MrJackGame, list[Event]]:
    """Feed a recorded log to a fresh table built from the same seed and config."""
    game = new_game(dict(config), seed)
    events: list[Event] = []
    for name in ("a", "b"):
        events += game.seat_join(name)[1]
    for entry in log:
        if isinstance(entry, str):
            events += game.on_timeout(entry)
        else:
            events += game.apply(*entry)
    return game, events


def encode_log(log: list[Entry]) -> list[Any]:
    return [entry if isinstance(entry, str) else [entry[0], ACTIONS.encode(entry[1])] for entry in log]


def decode_log(data: list[Any]) -> list[Entry]:
    return [entry if isinstance(entry, str) else (entry[0], ACTIONS.decode(entry[1])) for entry in data]


def perft(game: MrJackGame, depth: int) -> int:
    """The number of legal decision sequences of length ``depth`` (shorter when the game ends)."""
    if depth == 0 or game.finished:
        return 1
    (seat,) = game.to_move().seats
    total = 0
    for action in game.legal_actions(seat):
        branch = game.clone()
        branch.apply(seat, action)
        total += perft(branch, depth - 1)
    return total


def digest(events: list[Event]) -> str:
    """A short fingerprint of an event stream (types, fields and audiences)."""
    text = "\n".join(repr(e) for e in events)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


FIXTURES = Path(__file__).parent / "fixtures"
GAMES_FIXTURE = FIXTURES / "mrjack_games.json"
PERFT_FIXTURE = FIXTURES / "mrjack_perft.json"

RECORDED_SEEDS = range(1, 13)
PERFT_POSITIONS = ((3, 0, 5), (5, 9, 5), (8, 40, 4), (13, 75, 4))
"""(seed, random plies played first, depth) of each perft count."""


def recorded_game(seed: int) -> tuple[dict[str, Any], bool, MrJackGame, list[Entry], list[Event]]:
    config = CONFIGS[seed % len(CONFIGS)]
    cautious = seed % 2 == 0
    game, log, events = random_game(seed, config, cautious=cautious, timeout_rate=400)
    return config, cautious, game, log, events


def perft_position(seed: int, plies: int) -> MrJackGame:
    """The table after ``plies`` cautious random inputs of game ``seed``."""
    game = new_game({}, seed)
    game.seat_join("a")
    game.seat_join("b")
    rng = Rng(seed)
    for _ in range(plies):
        (seat,) = game.to_move().seats
        legal = [a for a in game.legal_actions(seat) if not ends_game(game, a)]
        game.apply(seat, rng.choice(legal))
    return game


def record() -> None:
    """Write the fixtures from the current engine (run this file as a script). Review the
    diff: a changed count means the rules changed."""
    FIXTURES.mkdir(exist_ok=True)
    games = []
    for seed in RECORDED_SEEDS:
        config, cautious, game, log, events = recorded_game(seed)
        games.append(
            {
                "seed": seed,
                "config": config,
                "cautious": cautious,
                "log": encode_log(log),
                "winner": game.winner,
                "reason": game.reason,
                "rounds": game.round,
                "events": len(events),
                "digest": digest(events),
            }
        )
    GAMES_FIXTURE.write_text(json.dumps(games, indent=1) + "\n")
    counts = [
        {"seed": seed, "plies": plies, "depth": depth, "count": perft(perft_position(seed, plies), depth)}
        for seed, plies, depth in PERFT_POSITIONS
    ]
    PERFT_FIXTURE.write_text(json.dumps(counts, indent=1) + "\n")


if __name__ == "__main__":
    record()

"""Helpers for the Mr. Jack engine tests: a started table with a known Mr. Jack and card
order, a runner for command lists, random-legal play and an event digest for fixtures."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from gamehall.rules._core import Action, Event, Rng
from gamehall.rules.mrjack import ACTIONS, Aktion, Aktiv, MrJackGame, Setup, Ziel, new_game

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
    lists = [e.koordinaten for e in events if type(e).__name__ == "Moeglichkeiten"]
    assert lists, "no moeglichkeiten sent"
    return tuple(lists[-1])


def names(events: list[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


def random_game(
    seed: int, config: Mapping[str, Any] | None = None
) -> tuple[MrJackGame, list[tuple[int, Action]], list[Event]]:
    """A whole game between two random-legal players, both drawn from ``Rng(seed)``."""
    game = new_game(dict(config or {}), seed)
    events: list[Event] = []
    for name in ("a", "b"):
        events += game.seat_join(name)[1]
    rng = Rng(seed + 1_000_003)
    log: list[tuple[int, Action]] = []
    while not game.finished:
        (seat,) = game.to_move().seats
        action = rng.choice(game.legal_actions(seat))
        log.append((seat, action))
        events += game.apply(seat, action)
    return game, log, events


def digest(events: list[Event]) -> str:
    """A short fingerprint of an event stream (types, fields and audiences)."""
    text = "\n".join(repr(e) for e in events)
    return hashlib.sha256(text.encode()).hexdigest()[:16]

"""Whole games: recorded random games that must replay exactly, perft counts from seeded
positions, many random games under every rule-option mix, and the secret of Mr. Jack's
identity checked on every event and every view."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mrjack_support import (
    CONFIGS,
    GAMES_FIXTURE,
    PERFT_FIXTURE,
    decode_log,
    digest,
    perft,
    perft_position,
    random_game,
    recorded_game,
    replay,
)

from gamehall.rules._core import Event, Termination
from gamehall.rules.mrjack import MrJackGame
from gamehall.rules.mrjack.events import EndeSpiel, Jack, Moeglichkeiten, UpdateAlibi

RECORDED: list[dict[str, Any]] = json.loads(GAMES_FIXTURE.read_text())
PERFT: list[dict[str, Any]] = json.loads(PERFT_FIXTURE.read_text())

PRIVATE_VIEW_KEYS = ("you", "alibis", "moeglichkeiten", "jack", "legal_parts")
"""The only view entries that may differ between seats."""

PRIVATE_EVENTS = (
    "BeginnSpiel",
    "Jack",
    "Spielzugerlaubnis",
    "FarbeAktiv",
    "AktionAkzeptiert",
    "KoordinateAkzeptiert",
    "Moeglichkeiten",
    "UpdateAlibi",
    "UpdateSpion",
)
"""Event types that may go to fewer than everybody (``UpdateSpion`` with spion_broadcast off)."""


@pytest.mark.parametrize("record", RECORDED, ids=[f"seed{r['seed']}" for r in RECORDED])
def test_recorded_game_replays_exactly(record: dict[str, Any]) -> None:
    game, events = replay(record["seed"], record["config"], decode_log(record["log"]))
    assert game.finished
    assert (game.winner, game.reason, game.round) == (record["winner"], record["reason"], record["rounds"])
    assert (len(events), digest(events)) == (record["events"], record["digest"])


@pytest.mark.parametrize("record", RECORDED, ids=[f"seed{r['seed']}" for r in RECORDED])
def test_random_play_from_the_seed_makes_the_recorded_game(record: dict[str, Any]) -> None:
    config, cautious, _game, log, events = recorded_game(record["seed"])
    assert (config, cautious) == (record["config"], record["cautious"])
    assert log == decode_log(record["log"])
    assert digest(events) == record["digest"]


@pytest.mark.parametrize("count", PERFT, ids=[f"seed{c['seed']}-{c['plies']}-d{c['depth']}" for c in PERFT])
def test_perft_counts(count: dict[str, Any]) -> None:
    game = perft_position(count["seed"], count["plies"])
    assert perft(game, count["depth"]) == count["count"]


def test_a_clone_goes_its_own_way_and_draws_the_same_future() -> None:
    game = perft_position(6, 20)
    twin = game.clone()
    (seat,) = game.to_move().seats
    twin.apply(seat, twin.legal_actions(seat)[0])
    assert game.view(seat) != twin.view(seat) or game.inputs != twin.inputs
    assert game.rng.below(10**9) == twin.rng.below(10**9)
    assert game.board.figures is not twin.board.figures and game.alibis.deck is not twin.alibis.deck


class SecrecyCheck:
    """Called after every input: the detective and spectators never learn Mr. Jack's colour
    before the end, and every event goes only where the seed sends it."""

    def __init__(self) -> None:
        self.steps = 0

    def __call__(self, game: MrJackGame, events: list[Event]) -> None:
        self.steps += 1
        jack_seat, detective = game.seat_of("mrjack"), game.seat_of("detektiv")
        assert jack_seat is not None and detective is not None
        for event in events:
            name = type(event).__name__
            if event.audience is not None:
                assert name in PRIVATE_EVENTS, name
                assert len(event.audience) == 1
            if isinstance(event, Jack):
                assert event.audience == frozenset({jack_seat})
            if isinstance(event, UpdateAlibi):
                assert event.farbe != game.alibis.jack and event.audience == frozenset({event.seat})
            if isinstance(event, Moeglichkeiten):
                assert event.koordinaten and event.audience == frozenset({event.seat})
            if isinstance(event, EndeSpiel):
                assert event.farbe == game.alibis.jack and game.finished
        views = {seat: game.view(seat) for seat in (None, jack_seat, detective)}
        if not game.finished:
            assert views[None]["jack"] is None and views[detective]["jack"] is None
            assert views[jack_seat]["jack"] == game.alibis.jack
        public = [{k: v for k, v in view.items() if k not in PRIVATE_VIEW_KEYS} for view in views.values()]
        assert public[0] == public[1] == public[2]
        assert views[None]["alibis"] == [] and views[None]["moeglichkeiten"] == []
        assert set(views[detective]["alibis"]) <= set(game.alibis.drawn.get(detective, []))
        json.dumps(views[None])


def play_and_check(seed: int) -> MrJackGame:
    check = SecrecyCheck()
    config = CONFIGS[seed % len(CONFIGS)]
    game, _, _ = random_game(seed, config, cautious=seed % 3 == 0, timeout_rate=500, on_step=check)
    outcome = game.outcome()
    assert outcome is not None and game.finished and check.steps > 0
    assert len(outcome.winners) == 1 and sum(outcome.scores.values()) == 1
    if game.reason in ("accusation", "escape", "time"):
        assert outcome.termination is Termination.NORMAL
    if game.reason == "time":
        assert game.round == 8 and game.winner == "mrjack"
    if game.reason == "escape":
        assert game.winner == "mrjack" and game.board.figures[game.alibis.jack] != "o6"
    return game


def test_100_seeded_random_games_keep_every_rule_and_the_secret() -> None:
    reasons = {play_and_check(seed).reason for seed in range(100)}
    assert {"accusation", "time"} <= reasons


@pytest.mark.soak
def test_1000_seeded_random_games_keep_every_rule_and_the_secret() -> None:
    reasons = {play_and_check(seed).reason for seed in range(1000, 2000)}
    assert {"accusation", "time", "escape"} <= reasons

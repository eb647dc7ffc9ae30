"""The Mr. Jack bot policies on the engine's views: the legal actions worked out from a view are
the engine's own, every decision is legal for both roles and styles, the heuristics beat random
play, and in-hall bots play whole games on a fake clock."""

from __future__ import annotations

import random

import pytest
from mrjack_support import CONFIGS, random_game
from recording_listener import RecordingListener

from gamehall.bots.hall_bots import add_bots, make_policy
from gamehall.bots.mrjack import MrJackPolicy
from gamehall.bots.mrjack.model import legal_actions
from gamehall.hall import FakeClock, Hall
from gamehall.protocols._core import HallError
from gamehall.rules._core import Event
from gamehall.rules.mrjack import GAME_TYPE, MrJackGame, new_game
from gamehall.store.memory import MemoryStore


def play(seed: int, jack_style: str, detective_style: str) -> MrJackGame:
    """A whole game between two policies on the engine; every decision must be accepted."""
    game = new_game({}, seed)
    game.seat_join("jack")
    game.seat_join("detective")
    policies = {0: MrJackPolicy(jack_style), 1: MrJackPolicy(detective_style)}
    rng = random.Random(seed)
    while not game.finished:
        (seat,) = game.to_move().seats
        action = policies[seat].decide(game.view(seat), seat, rng)
        assert action is not None and action in game.legal_actions(seat), action
        game.apply(seat, action)
    return game


@pytest.mark.parametrize("seed", range(8))
def test_the_legal_actions_of_a_view_are_the_engines_own(seed: int) -> None:
    checked = 0

    def compare(game: MrJackGame, _events: list[Event]) -> None:
        nonlocal checked
        for seat in (0, 1):
            if not game.finished:
                assert legal_actions(game.view(seat), seat) == game.legal_actions(seat)
                checked += 1

    random_game(seed, CONFIGS[0], on_step=compare)
    assert checked > 20


@pytest.mark.parametrize(
    ("jack_style", "detective_style"), [("random", "random"), ("heuristic", "heuristic")]
)
def test_every_decision_is_legal_whatever_the_style(jack_style: str, detective_style: str) -> None:
    for seed in range(10):
        assert play(seed, jack_style, detective_style).finished


def test_the_heuristic_detective_beats_random_mr_jack_and_the_heuristic_jack_does_better() -> None:
    detective_wins = sum(play(seed, "random", "heuristic").winner == "detektiv" for seed in range(20))
    assert detective_wins >= 16
    jack_wins_random = sum(play(seed, "random", "heuristic").winner == "mrjack" for seed in range(20))
    jack_wins_heuristic = sum(play(seed, "heuristic", "heuristic").winner == "mrjack" for seed in range(20))
    assert jack_wins_heuristic > jack_wins_random


def test_the_same_rng_gives_the_same_decision() -> None:
    game = new_game({}, 3)
    game.seat_join("a")
    game.seat_join("b")
    (seat,) = game.to_move().seats
    view = game.view(seat)
    decisions = {MrJackPolicy("heuristic").decide(view, seat, random.Random(9)) for _ in range(5)}
    assert len(decisions) == 1
    assert MrJackPolicy("random").decide(game.view(1 - seat), 1 - seat, random.Random(1)) is None


def test_unknown_style_is_refused() -> None:
    with pytest.raises(ValueError, match="style"):
        MrJackPolicy("clever")
    with pytest.raises(HallError):
        make_policy("mrjack", "clever")


@pytest.mark.parametrize("config", CONFIGS, ids=[",".join(c) or "defaults" for c in CONFIGS])
@pytest.mark.parametrize("style", ["random", "heuristic"])
def test_two_hall_bots_play_a_whole_game_on_a_fake_clock(
    style: str, config: dict[str, object], caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()
    hall = Hall(games={"mrjack": GAME_TYPE}, store=MemoryStore(), clock=clock, seed_source=lambda: 5)
    host = hall.login("host", RecordingListener(), protocol="test")
    room = host.create_room("mrjack", {**config, "turn_timeout_s": 0})
    add_bots(hall, room.room_id, 2, style, delay=0.1, seed=1)
    host.logout(dropped=False)
    for _ in range(3000):
        if not hall.rooms("mrjack"):
            break
        clock.advance(0.1)
    assert hall.rooms("mrjack") == []
    (record,) = hall.store.recent_rooms(game="mrjack")
    assert isinstance(record.result, dict) and record.result["termination"] == "normal"
    assert len(record.result["winners"]) == 1
    assert not [r for r in caplog.records if "refused" in r.getMessage()]  # no decision was illegal

"""Ursuppe bots: seeded whole games of both policies (3 and 4 players) on the table, games of
in-hall bots on a fake clock, and wire players over the UrServer dialogue. The 1,000-game run
is behind the ``soak`` marker."""

from __future__ import annotations

import json
import random

import pytest

from gamehall.bots.hall_bots import add_bots, make_policy
from gamehall.bots.ursuppe import UrsuppePolicy
from gamehall.bots.ursuppe.judgement import choose_division, choose_purchase
from gamehall.bots.ursuppe.player import WirePlayer
from gamehall.hall import FakeClock, Hall
from gamehall.rules.ursuppe import GAME_TYPE, new_game
from gamehall.rules.ursuppe.actions import Bereit, GenKaufen
from gamehall.rules.ursuppe.engine import UrsuppeTable
from gamehall.rules.ursuppe.state import CUBES_PER_COLOUR
from gamehall.store.memory import MemoryStore


def play(seed: int, players: int, policies: list[str]) -> UrsuppeTable:
    """A whole game on the table; every decision must pass the engine's check."""
    table = new_game({"players": players}, seed)
    for seat in range(players):
        table.seat_join(f"p{seat}")
    bots = [UrsuppePolicy(policies[seat % len(policies)]) for seat in range(players)]
    rng = random.Random(seed)
    for _ in range(20_000):
        if table.finished:
            break
        seat = min(table.to_move().seats)
        action = bots[seat].decide(table.view(seat), seat, rng)
        assert action is not None
        table.check(seat, action)
        table.apply(seat, action)
        g = table.state
        assert all(
            sum(c[colour] for c in g.cubes.values()) + g.supply[colour] == CUBES_PER_COLOUR
            for colour in g.colours
        )
    assert table.finished
    return table


MIXES = [["random"], ["heuristic"], ["heuristic", "random"]]


@pytest.mark.parametrize("seed", range(24))
@pytest.mark.parametrize("players", [3, 4])
def test_seeded_bot_games_end_normally(seed: int, players: int) -> None:
    table = play(seed, players, MIXES[seed % 3])
    outcome = table.outcome()
    assert outcome is not None and outcome.winners
    positions = table.state
    assert max(p.position for p in positions.seats.values()) >= 0


@pytest.mark.soak
@pytest.mark.parametrize("block", range(20))
def test_a_thousand_seeded_bot_games(block: int) -> None:
    for seed in range(block * 50, block * 50 + 50):
        play(seed, 3 + seed % 2, MIXES[seed % 3])


def test_the_heuristic_beats_random_players_more_often_than_chance() -> None:
    wins = 0
    for seed in range(30):
        table = play(1000 + seed, 3, ["heuristic", "random", "random"])
        outcome = table.outcome()
        assert outcome is not None
        wins += 0 in outcome.winners
    assert wins > 30 / 3


def test_purchases_with_many_bp_are_built_without_listing_every_block() -> None:
    table = new_game({"players": 4}, 3)
    for seat in range(4):
        table.seat_join(f"p{seat}")
    g = table.state
    g.round = 3
    g.seats[0].bp = 200
    for heuristic in (True, False):
        purchase = choose_purchase(g, 0, random.Random(1), heuristic=heuristic)
        assert isinstance(purchase, GenKaufen)
    heuristic_buy = choose_purchase(g, 0, random.Random(1), heuristic=True)
    assert len(heuristic_buy.gene) >= 3
    division = choose_division(g, 0, random.Random(1), heuristic=True)
    assert len(division.setzungen) == 7  # a player without amoebas fills the board with seven


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_hall_bots_play_a_whole_game_on_a_fake_clock(policy: str, caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    hall = Hall(games={"ursuppe": GAME_TYPE}, store=MemoryStore(), clock=clock, seed_source=lambda: 9)
    host = hall.login("host", _Silent(), protocol="test")
    room = host.create_room("ursuppe", {"players": 3, "timeout_ms": 0})
    add_bots(hall, room.room_id, 3, policy, delay=0.01, seed=2)
    host.logout(dropped=False)
    for _ in range(20_000):
        if not hall.rooms("ursuppe"):
            break
        clock.advance(0.01)
    assert hall.rooms("ursuppe") == []
    (record,) = hall.store.recent_rooms(game="ursuppe")
    assert isinstance(record.result, dict) and record.result["termination"] == "normal"
    assert not [r for r in caplog.records if "refused" in r.getMessage()]


def test_make_policy_knows_ursuppe() -> None:
    assert isinstance(make_policy("ursuppe", "heuristic"), UrsuppePolicy)


@pytest.mark.parametrize("seed", range(3))
def test_wire_players_finish_a_game_through_the_dialogue_without_a_fehler(seed: int) -> None:
    from urserver_support import UrHarness

    players = 3 + seed % 2
    harness = UrHarness(seed=seed, timeout_ms=0)
    harness.new_game(players=players, timeout=0)
    clients = [harness.join(f"b{i}") for i in range(players)]
    bots = [WirePlayer(["heuristic", "random"][i % 2], random.Random(seed * 10 + i)) for i in range(players)]
    for _ in range(100_000):
        moved = False
        for client, bot in zip(clients, bots, strict=True):
            for line in client.take():
                out = bot.feed(line)
                if out:
                    client.send(*out)
                    moved = True
        if all(bot.finished for bot in bots) or not moved:
            break
    assert all(bot.finished for bot in bots)
    assert bots[0].scores == bots[1].scores and len(bots[0].scores) == players
    assert all(not bot.errors for bot in bots)


class _Silent:
    def deliver(self, room_id: str, delivery: object) -> None:
        return None

    def hall_event(self, event: object) -> None:
        return None

    def ended(self, room_id: str, reason: object, text: str) -> None:
        return None

    def disconnect(self, reason: object, text: str) -> None:
        return None


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_a_policy_decides_from_the_json_view_alone_and_never_sees_the_deck(policy: str) -> None:
    """The policy gets a plain JSON copy of the seat's view (no table object to reach into):
    every answer passes the engine's check, and a twin table whose hidden deck order differs
    gives the same views and so the same decisions."""
    table = new_game({"players": 3}, 21)
    twin = new_game({"players": 3}, 21)
    for seat in range(3):
        table.seat_join(f"p{seat}")
        twin.seat_join(f"p{seat}")
    twin.state.deck = list(reversed(twin.state.deck))
    bot = UrsuppePolicy(policy)
    compared = 0
    for _ in range(150):
        if table.finished or table.state.deck != list(reversed(twin.state.deck)):
            break  # a card was drawn: from here on the twins' tables differ in public too
        seat = min(table.to_move().seats)
        view = json.loads(json.dumps(table.view(seat)))
        action = bot.decide(view, seat, random.Random(seat))
        assert action is not None
        assert bot.decide(json.loads(json.dumps(twin.view(seat))), seat, random.Random(seat)) == action
        table.check(seat, action)
        table.apply(seat, action)
        twin.apply(seat, action)
        compared += 1
    assert compared >= 20 and table.state.round >= 1


def test_a_seat_without_a_request_gets_no_decision() -> None:
    table = new_game({"players": 3}, 4)
    for seat in range(3):
        table.seat_join(f"p{seat}")
    for seat in range(3):
        table.apply(seat, Bereit())
    waiting = {0, 1, 2} - set(table.to_move().seats)
    assert waiting
    for seat in waiting:
        assert UrsuppePolicy("heuristic").decide(table.view(seat), seat, random.Random(0)) is None
    assert UrsuppePolicy("random").decide(table.view(None), 0, random.Random(0)) is None

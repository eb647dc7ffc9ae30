"""Word-game bots seated in a real hall (fake clock): they play whole games on their own."""

from __future__ import annotations

from gamehall.bots.hall_bots import add_bots
from gamehall.hall import FakeClock, Hall
from gamehall.protocols._core import CloseReason, Delivery
from gamehall.rules._core import Event
from gamehall.rules.words import GAME_TYPE, StartTurn
from gamehall.rules.words.words_table import WordsTable
from gamehall.store.memory import MemoryStore


class Quiet:
    """A listener for a person who watches and never plays."""

    def deliver(self, room_id: str, delivery: Delivery) -> None:
        return None

    def hall_event(self, event: Event) -> None:
        return None

    def ended(self, room_id: str, reason: CloseReason, text: str) -> None:
        return None

    def disconnect(self, reason: CloseReason, text: str) -> None:
        return None


def words_hall(clock: FakeClock) -> Hall:
    seeds = iter(range(1, 1000))
    return Hall(
        games={"words": GAME_TYPE},
        store=MemoryStore(),
        clock=clock,
        defaults={"words": {}},
        seed_source=lambda: next(seeds),
    )


def test_two_heuristic_bots_play_a_whole_duplicate_game_scoring_every_master_move() -> None:
    clock = FakeClock()
    hall = words_hall(clock)
    ann = hall.login("ann", Quiet(), protocol="test")
    settings = {"preset": "DupEN", "time_per_turn": 5, "pause_s": 0.0, "grace_s": 0.0}
    room_id = ann.create_room("words", settings).room_id
    ann.join(room_id)
    add_bots(hall, room_id, 2, "heuristic", seed=1)
    ann.start(room_id)
    game = hall.room(room_id).game
    assert isinstance(game, WordsTable)
    for _ in range(400):
        if game.finished:
            break
        clock.advance(1.0)
    assert game.finished and game.end_reason in ("bag", "nomove")
    totals = {p.name: p.total for p in game.players.values()}
    assert totals.pop("ann") == 0  # never played
    assert list(totals.values()) == [game.toptotal, game.toptotal]  # both played every top


def test_a_boggle_bot_sends_words_every_round_and_opens_rounds_once_it_is_the_operator() -> None:
    clock = FakeClock()
    hall = words_hall(clock)
    ann = hall.login("ann", Quiet(), protocol="test")
    settings = {"preset": "BogEN", "dictionary": "english", "rounds": 3, "time_per_turn": 20, "grace_s": 0.0}
    room_id = ann.create_room("words", settings).room_id
    ann.join(room_id)
    add_bots(hall, room_id, 1, "random", seed=2)
    ann.start(room_id)
    game = hall.room(room_id).game
    assert isinstance(game, WordsTable)
    clock.advance(21)
    view = game.view(1)
    assert view["phase"] == "wait_start" and view["operator"] == 0
    assert view["last_words"]["1"] and all(w["status"] == "ok" for w in view["last_words"]["1"])
    clock.advance(5)
    assert game.view(1)["phase"] == "wait_start"  # the person is the operator: the bot waits
    ann.act(room_id, StartTurn())
    clock.advance(21)
    assert game.view(1)["phase"] == "wait_start"
    ann.leave(room_id)  # the bot becomes the operator and opens round 3 itself
    clock.advance(1)
    assert game.view(1)["turn"] == 3 and game.view(1)["phase"] == "open"
    clock.advance(21)
    assert game.finished and game.end_reason == "rounds"
    assert game.players[1].total > 0

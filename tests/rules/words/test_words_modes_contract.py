"""The word games against the engine contract (rules/_core.py): GAME_TYPE and its settings, the
predefined games, the action codec, membership, timers, determinism, outcome, and JSON views that
leak nothing (racks, found words and the bag order stay where they belong)."""

from __future__ import annotations

import json

import pytest
from words_modes_support import enable_slice, fire, table

from gamehall.rules._core import (
    ConfigError,
    Event,
    Game,
    GameInProgress,
    Rng,
    RuleError,
    TableFull,
    Termination,
    WrongPhase,
)
from gamehall.rules.words import GAME_TYPE, PRESETS, new_game
from gamehall.rules.words.actions import ChangeLetters, Moves, StartTurn
from gamehall.rules.words.boggle import BoggleTable
from gamehall.rules.words.duplicate import DuplicateTable
from gamehall.rules.words.events import GameEnded, HandDealt, SubmissionRecorded, WordRecorded
from gamehall.rules.words.movegen import generate_moves
from gamehall.rules.words.scrabble import ScrabbleTable
from gamehall.rules.words.settings import resolve
from gamehall.rules.words.words_table import WordsTable


def test_game_type_words_with_every_predefined_game() -> None:
    assert GAME_TYPE.game_id == "words"
    assert GAME_TYPE.schema.validate({})["preset"] == "DupEN"
    expected = {
        "fr": ("duplicate", "francais", "FR"),
        "DupEN": ("duplicate", "english", "EN"),
        "ScrEN": ("scrabble", "english", "EN"),
        "ScrFR": ("scrabble", "francais", "FR"),
        "BogEN": ("boggle", "english-lp", "EN"),
        "BogFR": ("boggle", "francais", "FR"),
    }
    assert {code: (p.mode, p.dictionary, p.letters) for code, p in PRESETS.items()} == expected
    assert resolve({"preset": "BogFR"}).rounds == 5
    assert GAME_TYPE.seat_count({"preset": "ScrEN", "max_players": 8}) == 4
    assert GAME_TYPE.seat_count({"preset": "DupEN", "max_players": 8}) == 8


def test_settings_override_the_preset() -> None:
    rules = resolve(
        {"preset": "DupEN", "mode": "boggle", "letters": "FR", "dictionary": "francais", "rounds": 3}
    )
    assert (rules.mode, rules.letters.name, rules.dictionary, rules.rounds) == ("boggle", "FR", "francais", 3)
    with pytest.raises(ConfigError):
        GAME_TYPE.schema.validate({"preset": "dupen"})
    with pytest.raises(ConfigError):
        GAME_TYPE.schema.validate({"time_per_turn": 1})
    with pytest.raises(ConfigError):
        new_game({"dictionary": "/nonexistent/words.txt"}, 1)


@pytest.mark.parametrize(
    ("settings", "title"),
    [
        ({}, "Duplicate (English)"),
        ({"preset": "fr"}, "Duplicate (French)"),
        ({"preset": "ScrEN"}, "Scrabble (English)"),
        ({"preset": "BogFR"}, "Boggle (French)"),
        ({"preset": "DupEN", "mode": "boggle", "letters": "FR"}, "Boggle (French)"),
    ],
)
def test_a_room_without_a_title_is_named_by_its_mode(settings: dict[str, str], title: str) -> None:
    assert GAME_TYPE.default_title is not None
    assert GAME_TYPE.default_title(GAME_TYPE.schema.validate(settings)) == title


def test_actions_round_trip_through_the_codec() -> None:
    codec = GAME_TYPE.actions
    assert set(codec.names) == {"Moves", "ChangeLetters", "StartTurn"}
    for action in (Moves(((7, 7, "B"), (7, 8, "e"))), Moves(()), ChangeLetters(("Z", "?")), StartTurn()):
        assert codec.decode(json.loads(json.dumps(codec.encode(action)))) == action


@pytest.mark.parametrize("preset", ["DupEN", "ScrEN", "BogEN"])
def test_each_mode_is_a_game(preset: str) -> None:
    game, _ = table({"preset": preset}, ("ams",), start=False)
    assert isinstance(game, Game)
    assert isinstance(game, {"DupEN": DuplicateTable, "ScrEN": ScrabbleTable, "BogEN": BoggleTable}[preset])


def test_membership_start_and_the_end_when_everyone_leaves() -> None:
    game, _ = table(
        {"preset": "DupEN", "max_players": 2}, ("ams", "jim"), lexicon=enable_slice(), start=False
    )
    with pytest.raises(TableFull):
        game.seat_join("luc")
    game.seat_leave(1)
    assert game.seat_names() == {0: "ams"} and len(game.players) == 1
    empty, _ = table({"preset": "DupEN"}, (), start=False)
    with pytest.raises(WrongPhase):
        empty.start()
    game.start()
    with pytest.raises(WrongPhase):
        game.start()
    events = game.seat_leave(0)
    assert isinstance(events[-1], GameEnded) and events[-1].reason == "abandoned"
    outcome = game.outcome()
    assert game.finished and outcome is not None and outcome.termination is Termination.ABORTED
    with pytest.raises(GameInProgress):
        game.seat_join("luc")


def test_a_stale_timer_is_ignored() -> None:
    game, _ = table({"preset": "DupEN"}, ("ams",), lexicon=enable_slice())
    (timer,) = game.pending_timers()
    fire(game)
    assert game.on_timeout(timer.key) == []


def play_randomly(preset: str, seed: int) -> tuple[WordsTable, list[Event]]:
    """A whole game where seats send random legal (and some illegal) actions between timers."""
    lexicon = enable_slice()
    game, events = table({"preset": preset, "rounds": 2}, ("ams", "jim", "luc"), seed=seed, lexicon=lexicon)
    rng = Rng(seed)
    for _ in range(400):
        if game.finished:
            break
        for seat in sorted(game.to_move().seats):
            action = random_action(game, seat, rng)
            try:
                events += game.apply(seat, action)
            except RuleError:
                continue  # a random action may break a rule: refused, nothing changes
            if game.finished:
                break
        for seat in (0, 1, 2, None):
            json.dumps(game.view(seat))
        if not game.finished and game.pending_timers():
            events += fire(game)
    return game, events


def random_action(game: WordsTable, seat: int, rng: Rng) -> Moves | ChangeLetters | StartTurn:
    if isinstance(game, BoggleTable):
        if game.phase.value == "wait_start":
            return StartTurn()
        row, col = rng.below(4), rng.below(4)
        path = [(row, col)]
        for _ in range(rng.between(2, 5)):
            row, col = min(3, max(0, row + rng.between(-1, 1))), min(3, max(0, col + rng.between(-1, 1)))
            path.append((row, col))
        return Moves(tuple((r, c, game.grid[r][c]) for r, c in path))
    rack = game.rack if isinstance(game, DuplicateTable) else game.racks[seat]  # type: ignore[attr-defined]
    if isinstance(game, ScrabbleTable) and rng.below(6) == 0:
        return ChangeLetters((rack[0],))
    moves = generate_moves(game.board, rack, game.lexicon, game.letters)  # type: ignore[attr-defined]
    if not moves or rng.below(8) == 0:
        return Moves(())
    move = moves[rng.below(min(len(moves), 5))]
    return Moves(tuple((r, c, tile.glyph) for (r, c), tile in move.placed()))


@pytest.mark.parametrize("preset", ["DupEN", "ScrEN", "BogEN"])
def test_random_games_end_deterministically_and_keep_secrets(preset: str) -> None:
    game, events = play_randomly(preset, 5)
    _, replayed = play_randomly(preset, 5)
    assert game.finished and events == replayed
    assert isinstance(events[-1], GameEnded)
    outcome = game.outcome()
    assert outcome is not None and set(outcome.scores) == {0, 1, 2}
    for event in events:
        if isinstance(event, HandDealt) and preset == "ScrEN":
            assert event.audience == frozenset({event.seat})
        if isinstance(event, (SubmissionRecorded, WordRecorded)):
            assert event.audience == frozenset({event.seat})


def test_views_hold_no_bag_order_and_no_other_rack() -> None:
    game, _ = table({"preset": "ScrEN"}, ("ams", "jim"), lexicon=enable_slice())
    assert isinstance(game, ScrabbleTable)
    spectator = json.dumps(game.view(None))
    for letters in game.racks.values():
        assert json.dumps(letters) not in spectator
    assert json.dumps(game.bag) not in json.dumps(game.view(0))
    assert game.view(0)["players"] == [
        {"seat": 0, "name": "ams", "seated": True, "present": True, "total": 0, "last": 0},
        {"seat": 1, "name": "jim", "seated": True, "present": True, "total": 0, "last": 0},
    ]

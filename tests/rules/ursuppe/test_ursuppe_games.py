"""Whole Ursuppe games: seeded random-legal play, recorded results, perft-like counts,
determinism, timeouts and departures.

The fixtures in ``data/ursuppe_fixtures.json`` were recorded from this engine; a change of any
rule, order or Rng use shows up here as a different score, legal-action count or tree size.
Every decision in these games is drawn uniformly from ``legal_actions`` with
``random.Random(seed)``, so the engine also proves that each listed action is accepted.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from ursuppe_support import (
    check_invariants,
    perft,
    random_game,
    random_prefix,
    replay,
    seated_table,
)

from gamehall.rules._core import Termination
from gamehall.rules.ursuppe import ACTIONS, GAME_TYPE
from gamehall.rules.ursuppe.engine import UrsuppeTable

FIXTURES = json.loads((Path(__file__).parent / "data" / "ursuppe_fixtures.json").read_text())


def _scores(table: UrsuppeTable) -> list[int]:
    outcome = table.outcome()
    assert outcome is not None
    return [outcome.scores[seat] for seat in range(table.state.players)]


@pytest.mark.parametrize("game", FIXTURES["games"], ids=lambda g: f"{g['players']}p-seed{g['seed']}")
def test_recorded_random_games_replay_to_their_scores(game: dict[str, int]) -> None:
    table = random_game(game["players"], game["seed"])
    assert _scores(table) == game["scores"]
    assert table.state.round == game["rounds"]


@pytest.mark.parametrize(
    "spot", FIXTURES["perft"], ids=lambda s: f"{s['players']}p-{s['kind']}-d{s['depth']}"
)
def test_perft_counts_from_seeded_positions(spot: dict[str, int]) -> None:
    prefix = random_prefix(spot["players"], spot["seed"], spot["prefix"])
    assert replay(spot["players"], spot["seed"], prefix).to_move().kind == spot["kind"]
    assert perft(spot["players"], spot["seed"], prefix, spot["depth"]) == spot["count"]


@pytest.mark.parametrize("sequence", FIXTURES["legal_counts"], ids=lambda s: f"{s['players']}p")
def test_legal_action_counts_along_a_seeded_game(sequence: dict[str, object]) -> None:
    players, seed = int(str(sequence["players"])), int(str(sequence["seed"]))
    table = seated_table(players, seed)
    chooser = random.Random(seed)
    counts = []
    while not table.finished:
        seat = min(table.to_move().seats)
        legal = table.legal_actions(seat)
        counts.append(len(legal))
        table.apply(seat, chooser.choice(legal))
    assert counts == sequence["counts"]


ALL_REQUESTS = {
    "ZUG_BEREIT",
    "ZUG_POSITION",
    "ZUG_AMOEBE_SETZEN",
    "ZUG_BEWEGEN",
    "ZUG_KLAMMERN",
    "ZUG_FRESSEN",
    "ZUG_ABWEHR",
    "ZUG_GENDEFEKTE",
    "ZUG_GEN_KAUFEN",
    "ZUG_AGGRESSION",
}


@pytest.mark.parametrize("players", [3, 4])
def test_fifty_random_games_each_end_normally(players: int) -> None:
    """Every request kind occurs in these games, and each time its timeout default is
    accepted."""
    seen: set[str] = set()
    for seed in range(100, 150):
        table = seated_table(players, seed)
        chooser = random.Random(seed)
        while not table.finished:
            seat = min(table.to_move().seats)
            legal = table.legal_actions(seat)
            seen.add(table.to_move().kind)
            default = table.default_action(seat)
            assert default is not None
            table.check(seat, default)
            table.apply(seat, chooser.choice(legal))
        outcome = table.outcome()
        assert outcome is not None and outcome.termination is Termination.NORMAL
        best = max(outcome.scores.values())
        assert outcome.winners == {s for s, score in outcome.scores.items() if score == best}
        assert table.state.round <= 10
        assert table.to_move().seats == frozenset()
        assert table.pending_timers() == []
    assert seen == ALL_REQUESTS


@pytest.mark.parametrize("players", [3, 4])
def test_invariants_and_defaults_hold_after_every_decision(players: int) -> None:
    """Cubes are conserved, BP never negative, positions unique; the default move of every
    request is one of its legal actions; every action survives the codec round trip."""
    for seed in range(5):
        table = seated_table(players, seed)
        chooser = random.Random(seed)
        while not table.finished:
            seat = min(table.to_move().seats)
            legal = table.legal_actions(seat)
            assert table.default_action(seat) in legal
            action = chooser.choice(legal)
            assert ACTIONS.decode(ACTIONS.encode(action)) == action
            table.apply(seat, action)
            check_invariants(table)


@pytest.mark.parametrize("players", [3, 4])
def test_every_listed_action_is_accepted(players: int) -> None:
    table = seated_table(players, 77)
    chooser = random.Random(players)
    while not table.finished:
        seat = min(table.to_move().seats)
        legal = table.legal_actions(seat)
        assert legal and len(set(legal)) == len(legal)
        for action in legal:
            table.check(seat, action)
        table.apply(seat, chooser.choice(legal))


def test_same_seed_and_inputs_give_the_same_events() -> None:
    def events(seed: int) -> list[str]:
        table = seated_table(4, seed)
        chooser = random.Random(seed)
        log = []
        while not table.finished:
            seat = min(table.to_move().seats)
            log += [repr(e) for e in table.apply(seat, chooser.choice(table.legal_actions(seat)))]
        return log

    assert events(5) == events(5)
    assert events(5) != events(6)


def test_timeouts_play_default_moves_to_the_end() -> None:
    table = random_game(3, 3, timeouts=0.5, invariants=True)
    assert table.outcome() is not None


def test_a_timeout_tells_the_seat_and_a_stale_key_is_ignored() -> None:
    table = seated_table(3, 1)
    (timer,) = table.pending_timers()
    assert timer.seconds == 3.0  # ZUG_BEREIT: three times the 1000 ms timeout
    events = table.on_timeout(timer.key)
    assert [type(e).__name__ for e in events][:2] == ["ZeitUeberschritten", "Bereit"]
    assert table.to_move().kind == "ZUG_POSITION"
    assert table.on_timeout(timer.key) == []
    (position_timer,) = table.pending_timers()
    assert position_timer.key != timer.key and position_timer.seconds == 1.0


def test_no_timer_without_a_time_limit() -> None:
    table = seated_table(3, 1, timeout_ms=0)
    assert table.pending_timers() == []


def test_when_every_player_leaves_the_game_plays_out_at_once() -> None:
    table = seated_table(4, 2)
    table.apply(0, ACTIONS.decode({"type": "Bereit"}))
    for seat in range(4):
        table.seat_leave(seat)
    assert table.finished
    assert table.outcome() is not None


def test_an_away_seat_is_played_by_defaults_and_gets_its_request_back() -> None:
    table = seated_table(3, 4)
    table.seat_away(1)
    assert 1 not in table.to_move().seats
    events = table.seat_back(1)
    assert [type(e).__name__ for e in events] == ["SeatBack"]
    seat = next(iter(table.to_move().seats))
    assert table.resync(seat)[0].audience == frozenset({seat})


def test_game_type_is_registered_as_ursuppe() -> None:
    assert GAME_TYPE.game_id == "ursuppe"
    table = GAME_TYPE.new_game(GAME_TYPE.schema.defaults(), 1)
    assert not table.started


@pytest.mark.soak
@pytest.mark.parametrize("players", [3, 4])
def test_soak_a_thousand_random_games(players: int) -> None:
    for seed in range(1000):
        table = random_game(players, 10_000 + seed, timeouts=0.05 if seed % 10 == 0 else 0.0)
        check_invariants(table)
        assert table.outcome() is not None


def _junk(chooser: random.Random, players: int) -> list[object]:
    """Plausible but mostly illegal actions of every type."""
    from gamehall.rules.ursuppe import actions as a

    def n() -> int:
        return chooser.randint(-1, 7)

    def vec() -> tuple[int, ...]:
        return tuple(chooser.randint(0, 3) for _ in range(chooser.choice([players, players, 2])))

    return [
        a.Bereit(),
        a.Position(n()),
        a.AmoebeSetzen(n(), n(), n()),
        a.Tentakel(n(), vec()),
        a.Wuerfeln(),
        a.Bewegen(n(), n()),
        a.KeineZweiteBewegung(n()),
        a.Klammern(n(), n(), n()),
        a.NichtKlammern(n(), n(), n()),
        a.Parasitismus(n(), n()),
        a.Fressen(n(), vec()),
        a.Ueberlebenskampf(n(), n(), n()),
        a.Flucht(n(), n()),
        a.KeineFlucht(n()),
        a.Verteidigung(n()),
        a.KeineVerteidigung(n()),
        a.DefektAusgleichen(tuple(n() for _ in range(chooser.randint(0, 3)))),
        a.GenKaufen(
            tuple(chooser.randint(-1, 20) for _ in range(chooser.randint(0, 3))), chooser.choice([None, 4, 5])
        ),
        a.AmoebenSetzen(tuple((n(), n(), n()) for _ in range(chooser.randint(0, 3)))),
        a.Aggression(n(), n(), n()),
        a.KeineAggression(),
    ]


@pytest.mark.parametrize("players", [3, 4])
def test_refused_actions_change_nothing_and_carry_a_seed_error_number(players: int) -> None:
    """Throughout a random game, every kind of action is tried at every decision: a refusal
    must leave the table unchanged and name a FEHLER number; a junk action that is accepted
    must be one of the legal actions (modulo the canonical order of block answers)."""
    from gamehall.rules._core import RuleError
    from gamehall.rules.ursuppe.errors import error_number

    table = seated_table(players, 50)
    chooser = random.Random(players)
    while not table.finished:
        seat = min(table.to_move().seats)
        legal = table.legal_actions(seat)
        kind = table.to_move().kind
        before = json.dumps(table.view(seat))
        for junk in _junk(chooser, players):
            try:
                table.apply(seat, junk)  # type: ignore[arg-type]
            except RuleError as error:
                assert error_number(error) is not None
                continue
            assert junk in legal or kind in ("ZUG_GEN_KAUFEN", "ZUG_AMOEBE_SETZEN", "ZUG_GENDEFEKTE")
            break
        else:
            assert json.dumps(table.view(seat)) == before
            table.apply(seat, chooser.choice(legal))

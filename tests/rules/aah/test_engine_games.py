"""Whole games: the end at the points limit, the pile invariant over a long game on the bundled
deck, determinism, and what each seat may see (events and views) over many random games."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aah_engine_support import (
    NAMES,
    assert_census,
    czar,
    fire,
    next_round,
    pickers,
    play_all,
    started,
    tiny_deck,
)

from gamehall.rules._core import NOBODY, Action, Event, RuleError, SeatBack, Termination
from gamehall.rules.aah import rounds
from gamehall.rules.aah.actions import Judge, Pick
from gamehall.rules.aah.events import CardPlayed, GameWon, RoundWon, TableClosed, WhiteDealt
from gamehall.rules.aah.state import Phase
from gamehall.rules.aah.table import AahTable, new_game


def test_reaching_the_points_limit_ends_the_game() -> None:
    table, _ = started(3, seed=1, aplimit=2)
    winner = pickers(table)[0]
    next_round(table, winner=winner)
    while winner not in pickers(table):
        next_round(table, winner=next(s for s in pickers(table)))
    play_all(table)
    events = table.apply(czar(table), Judge(table.view(winner)["my_submission"][0]))
    name = NAMES[winner]
    assert isinstance(events[0], RoundWon)
    assert events[-2:] == [
        GameWon(seat=winner, name=name),
        TableClosed(cause="won", text="The game has ended."),
    ]
    assert table.finished and table.pending_timers() == [] and table.to_move() == NOBODY
    view = table.view(None)
    assert view["phase"] == "over" and view["winner"] == winner
    outcome = table.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.NORMAL and outcome.winners == frozenset({winner})
    assert outcome.scores[winner] == 2 and outcome.names[winner] == name


def test_outcome_is_none_while_playing() -> None:
    table, _ = started(3)
    assert table.outcome() is None


def test_stop_by_an_operator_closes_the_table() -> None:
    table, _ = started(3)
    assert table.stop() == [TableClosed(cause="stopped", text="Game ended by server or administrator.")]
    assert table.finished and table.pending_timers() == []
    assert table.stop() == []


# -- the pile invariant (5.3, acceptance 23) -------------------------------------------------


def test_long_game_on_the_bundled_deck_keeps_every_card_in_one_place() -> None:
    table = new_game({"aplimit": 100, "autostart_delay": 0}, 2026)
    for name in ("alice", "bob", "carol"):
        table.seat_join(name)
    table.start()
    rounds_played = 0
    while not table.finished:
        the_czar = czar(table)
        play_all(table)
        if table.view(None)["phase"] == "judge":
            # the czar spreads the wins: the submission of the seat with the fewest points
            points = {s["seat"]: s["points"] for s in table.view(None)["seats"]}
            owner = min(
                (s for s in points if s != the_czar and table.view(s)["my_submission"]), key=points.get
            )
            table.apply(the_czar, Judge(table.view(owner)["my_submission"][-1]))
        assert_census(table)
        rounds_played += 1
        if not table.finished:
            fire(table, "gap")
    assert rounds_played >= 250
    white_reshuffles, black_reshuffles = table.reshuffles
    assert white_reshuffles >= 1 and black_reshuffles >= 1


def test_a_deck_too_small_for_the_table_never_crashes() -> None:
    table, _ = started(3, seed=4, deck=tiny_deck(whites=33, blacks=((1, 1), (2, 1), (3, 2))), aplimit=30)
    for _ in range(60):
        play_all(table)
        if table.view(None)["phase"] == "pick":
            fire(table, "pick")
        if table.view(None)["phase"] == "judge":
            fire(table, "judge")
        assert_census(table)
        if table.finished:
            break
        fire(table, "gap")


# -- random games: determinism and secrecy ---------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One input of a scripted game and what came of it."""

    label: str
    seat: int | None
    action: Action | None
    events: list[Event]
    refused: str | None = None


Check = Callable[[AahTable, Step], None]


def random_game(seed: int, steps: int = 250, check: Check | None = None) -> tuple[AahTable, list[Step]]:
    """A game driven by a seeded script: legal and illegal actions, timers, drops, returns and
    leaves. ``check`` runs after every step. Returns the table and every step."""
    script = random.Random(seed)
    players = script.randint(3, 5)
    settings: dict[str, Any] = {
        "autostart_delay": 0,
        "playermax": 5,
        "min_players": script.choice([2, 3]),
        "czar_mode": script.choice(["sequential", "random", "winner"]),
        "draw_mode": script.choice(["refill", "legacy"]),
        "aplimit": 8,
        "kick_after_skips": script.choice([0, 3]),
    }
    blacks = ((1, 1),) * 8 + ((2, 1),) * 3 + ((3, 2),) * 2
    table = new_game(settings, seed, deck=tiny_deck(whites=80, blacks=blacks))
    log: list[Step] = []

    def record(step: Step) -> None:
        log.append(step)
        assert_census(table)
        if check is not None:
            check(table, step)

    for name in NAMES[:players]:
        record(Step(f"join {name}", None, None, table.seat_join(name)[1]))
    record(Step("start", None, None, table.start()))
    for _ in range(steps):
        if table.finished:
            break
        seats = sorted(table.seat_names())
        present = {s["seat"] for s in table.view(None)["seats"] if s["present"]}
        roll = script.random()
        if roll < 0.05:
            seat = script.choice(seats)
            if seat in present:
                record(Step("away", seat, None, table.seat_away(seat)))
            else:
                record(Step("back", seat, None, table.seat_back(seat)))
        elif roll < 0.06:
            seat = script.choice(seats)
            record(Step("leave", seat, None, table.seat_leave(seat)))
        elif roll < 0.2 or not table.to_move().seats:
            key = table.pending_timers()[0].key if table.pending_timers() else "none"
            record(Step(f"timeout {key}", None, None, table.on_timeout(key)))
        else:
            seat = script.choice(sorted(table.to_move().seats))
            actions = table.legal_actions(seat)
            if script.random() < 0.1:
                actions = [Pick((script.randint(0, 90),)), Judge(script.randint(0, 90))]
            action = script.choice(actions)
            try:
                record(Step("apply", seat, action, table.apply(seat, action)))
            except RuleError as exc:
                record(Step("apply", seat, action, [], refused=exc.code))
    return table, log


def test_same_seed_and_inputs_give_the_same_game() -> None:
    for seed in range(5):
        first_table, first = random_game(seed)
        second_table, second = random_game(seed)
        assert first == second
        for seat in (None, 0, 1, 2, 3, 4):
            assert first_table.view(seat) == second_table.view(seat)


def test_different_seeds_deal_differently() -> None:
    one = new_game({}, 1)
    two = new_game({}, 2)
    assert one.card_census().white_ids != two.card_census().white_ids


def test_scripted_games_cover_the_interesting_paths() -> None:
    kinds_seen: set[str] = set()
    for seed in range(40):
        _, log = random_game(seed)
        kinds_seen |= {type(event).__name__ for step in log for event in step.events}
        kinds_seen |= {step.refused for step in log if step.refused}
    expected = {
        "SeatBack",
        "SeatKicked",
        "GameWon",
        "GameAborted",
        "CzarTimedOut",
        "PickTimedOut",
        "RoundVoid",
    }
    assert expected | {"not_in_hand", "card_not_played"} <= kinds_seen


def test_no_seat_ever_receives_another_seats_cards() -> None:
    def check(table: AahTable, step: Step) -> None:
        for event in step.events:
            if isinstance(event, WhiteDealt):
                assert event.audience == frozenset({event.seat})
            if isinstance(event, CardPlayed):  # public, and carries no card
                assert event.audience is None and not hasattr(event, "card")
        assert_views_hide_secrets(table)

    for seed in range(40):
        random_game(seed, check=check)


def test_a_client_following_its_events_knows_its_hand() -> None:
    """What a legacy client learns (WHTE in, its own accepted PICKs out, the whole hand again
    after a return) is exactly its hand, after every step of every game."""
    hands: dict[int, set[int]] = {}

    def check(table: AahTable, step: Step) -> None:
        if isinstance(step.action, Pick) and step.refused is None and step.seat is not None:
            hands[step.seat] -= set(step.action.card_ids)  # the client hides a card it plays
        for event in step.events:
            if isinstance(event, SeatBack):
                hands[event.seat] = set()
            if isinstance(event, WhiteDealt):
                hands.setdefault(event.seat, set()).add(event.card.card_id)
        if table.finished:
            return
        for seat in present_seats(table):
            assert hands.get(seat, set()) == {card["id"] for card in table.view(seat)["hand"]}

    for seed in range(40):
        hands.clear()
        random_game(seed, check=check)


def present_seats(table: AahTable) -> list[int]:
    return [s["seat"] for s in table.view(None)["seats"] if s["present"]]


def assert_views_hide_secrets(table: AahTable) -> None:
    """Views never show a hand to anyone but its owner, nor a submission's owner before the
    round is won."""
    names = table.seat_names()
    hands = {seat: {c["id"] for c in table.view(seat)["hand"]} for seat in names}
    spectator = table.view(None)
    assert spectator["hand"] == [] and spectator["my_submission"] == []
    for viewer in [None, *names]:
        view = table.view(viewer)
        shown = _ids_in(view["hand"]) | _ids_in(view["submissions"]) | set(view["my_submission"])
        for owner, hand in hands.items():
            if owner != viewer:
                assert not (hand & shown), (viewer, owner)
        assert all(set(sub) == {"cards"} for sub in view["submissions"])
        assert view["submissions"] == spectator["submissions"]
        json.dumps(view)  # JSON, nothing else


def _ids_in(value: Any) -> set[int]:
    if isinstance(value, dict):
        found = {value["id"]} if "id" in value and "text" in value else set()
        return found.union(*(_ids_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_ids_in(v) for v in value))
    return set()


def test_to_move_names_exactly_the_present_non_czar_seats_still_picking() -> None:
    """``to_move()`` is asked twice per input (stale-action marks), so it is computed in one
    pass; it must still name exactly the seats ``awaited_pickers`` names, through drops,
    returns, leaves, multi-card prompts and timeouts."""

    def same_pickers(table: AahTable, _step: Step) -> None:
        t = table._t
        if t.phase is Phase.PICK:
            assert table.to_move().seats == {rec.seat for rec in rounds.awaited_pickers(t)}
            assert table.to_move().kind == "pick"

    for seed in range(20):
        random_game(seed, check=same_pickers)

"""The contest formats: who meets whom, in which seat, with which seed."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from gamehall.contest.ports import Deadlines, GameOrder, GameReport, SeatReport
from gamehall.contest.schedule import (
    Knockout,
    RoundRobin,
    ScheduleError,
    Swiss,
    Table,
    bracket_slots,
    make_format,
    points_by_entrant,
    seat_orders,
)
from gamehall.rules._core import SeatEnd, SeatResult

NAMES = ["ann", "ben", "cy", "dee", "eve"]


def report_for(table: Table, number: int, winner: str | None) -> GameReport:
    """A finished two-seat game that ``winner`` won (``None``: a draw)."""
    entrants = {s: s for s in table.seats}
    order = GameOrder(
        "c", number, "mrjack", "mrjack", table.seed, table.seats, entrants, {}, Deadlines(2, 10), table.round
    )
    seats = tuple(
        SeatReport(name, name, SeatEnd(SeatResult.NORMAL), 0, 1 if winner in (None, name) else 2)
        for name in table.seats
    )
    return GameReport(order, f"r{number}", "normal", seats)


def test_two_player_round_robin_plays_every_pair_in_both_roles() -> None:
    tables = RoundRobin(NAMES, 2, 2, seed=7).next_round([])
    assert len(tables) == 10 * 2
    seatings = Counter(t.seats for t in tables)
    for a, b in itertools.combinations(NAMES, 2):
        assert seatings[(a, b)] == 1 and seatings[(b, a)] == 1  # both roles once


def test_round_robin_is_one_round_and_then_over() -> None:
    schedule = RoundRobin(NAMES, 2, 2, seed=7)
    assert schedule.next_round([]) and schedule.next_round([]) == []
    assert schedule.planned_games() == 20


def test_multiplayer_round_robin_covers_every_table_and_balances_seats() -> None:
    tables = RoundRobin(NAMES, 4, 4, seed=3).next_round([])
    combos = Counter(frozenset(t.seats) for t in tables)
    assert set(combos) == {frozenset(c) for c in itertools.combinations(NAMES, 4)}
    assert set(combos.values()) == {4}
    seat_of = Counter((name, t.seats.index(name)) for t in tables for name in t.seats)
    assert len(set(seat_of.values())) == 1  # every entrant equally often in every seat


def test_seat_orders_rotate_and_reach_every_permutation() -> None:
    assert seat_orders(2, 2) == [(0, 1), (1, 0)]
    for entrant in range(3):  # three games: every entrant once in every seat
        assert sorted(order.index(entrant) for order in seat_orders(3, 3)) == [0, 1, 2]
    assert set(seat_orders(3, 6)) == set(itertools.permutations(range(3)))
    assert len(set(seat_orders(4, 24))) == 24


def test_the_same_seed_gives_the_same_schedule_and_another_seed_other_deals() -> None:
    assert RoundRobin(NAMES, 2, 2, seed=1).next_round([]) == RoundRobin(NAMES, 2, 2, seed=1).next_round([])
    one = [t.seed for t in RoundRobin(NAMES, 2, 2, seed=1).next_round([])]
    two = [t.seed for t in RoundRobin(NAMES, 2, 2, seed=2).next_round([])]
    assert one != two and len(set(one)) == len(one)


def test_duplicate_tables_of_one_game_index_share_their_seed() -> None:
    tables = RoundRobin(NAMES, 2, 2, seed=5, duplicate=True).next_round([])
    assert len({t.seed for t in tables}) == 2  # one per seat order: everyone meets the same racks


def test_swiss_pairs_by_points_and_never_repeats_a_pairing() -> None:
    names = [f"p{i}" for i in range(8)]
    strength = {n: i for i, n in enumerate(names)}
    swiss = Swiss(names, 1, seed=4, rounds=5)
    played: list[GameReport] = []
    met: set[frozenset[str]] = set()
    for _ in range(5):
        tables = swiss.next_round(played)
        assert len(tables) == 4
        points = points_by_entrant(played)
        for table in tables:
            pair = frozenset(table.seats)
            assert pair not in met
            met.add(pair)
            a, b = (points.get(n, 0.0) for n in table.seats)
            assert abs(a - b) <= 1  # neighbours in the points order
            winner = max(table.seats, key=strength.__getitem__)
            played.append(report_for(table, len(played) + 1, winner))
    assert swiss.next_round(played) == []
    assert points_by_entrant(played)["p7"] == 5  # the strongest won every round


def test_swiss_round_two_pairs_winners_with_winners() -> None:
    names = ["a", "b", "c", "d"]
    swiss = Swiss(names, 1, seed=9, rounds=2)
    first = swiss.next_round([])
    played = [report_for(t, i + 1, t.seats[0]) for i, t in enumerate(first)]
    winners = {t.seats[0] for t in first}
    second = swiss.next_round(played)
    assert {frozenset(t.seats) for t in second} >= {frozenset(winners)}


def test_swiss_gives_an_odd_field_one_bye_per_round_to_different_entrants() -> None:
    swiss = Swiss(NAMES, 1, seed=2, rounds=3)
    played: list[GameReport] = []
    for _ in range(3):
        tables = swiss.next_round(played)
        assert len(tables) == 2
        played += [report_for(t, len(played) + i + 1, t.seats[0]) for i, t in enumerate(tables)]
    byes = [name for _, name in swiss.byes]
    assert len(byes) == 3 and len(set(byes)) == 3


def test_bracket_slots_keep_the_top_seeds_apart() -> None:
    assert bracket_slots(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_slots(4) == [1, 4, 2, 3]


def test_knockout_gives_byes_to_top_seeds_and_ends_with_one_champion() -> None:
    knockout = Knockout(NAMES, 2, seed=1)  # 5 entrants: a bracket of 8, three byes
    strength = {n: -i for i, n in enumerate(NAMES)}  # the file order is the strength order
    played: list[GameReport] = []
    rounds = 0
    while tables := knockout.next_round(played):
        rounds += 1
        for table in tables:
            winner = max(table.seats, key=strength.__getitem__)
            played.append(report_for(table, len(played) + 1, winner))
    assert rounds == 3
    assert [name for r, name in knockout.byes if r == 1] == ["ann", "ben", "cy"]
    assert knockout.champion == "ann"
    assert len(played) == knockout.planned_games() == (5 - 1) * 2
    pairs = Counter(frozenset(r.order.seats) for r in played)
    assert all(count == 2 for count in pairs.values())  # both roles per pairing


def test_a_drawn_knockout_pairing_goes_to_the_higher_seed() -> None:
    knockout = Knockout(["top", "low"], 2, seed=1)
    tables = knockout.next_round([])
    played = [report_for(t, i + 1, None) for i, t in enumerate(tables)]
    assert knockout.next_round(played) == [] and knockout.champion == "top"


def test_head_to_head_formats_refuse_bigger_tables() -> None:
    with pytest.raises(ScheduleError, match="2 seats"):
        make_format("swiss", NAMES, seats=4, games_per_pairing=1, seed=1)
    with pytest.raises(ScheduleError, match="unknown format"):
        make_format("league", NAMES, seats=2, games_per_pairing=1, seed=1)
    with pytest.raises(ScheduleError, match="only 3 entrants"):
        make_format("round-robin", NAMES[:3], seats=4, games_per_pairing=1, seed=1)

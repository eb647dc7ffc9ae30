"""Standings, crosstable and ratings from fixed reports."""

from __future__ import annotations

import csv
import io

import pytest

from gamehall.contest.entrants import Entrant
from gamehall.contest.ports import Deadlines, GameOrder, GameReport, SeatReport
from gamehall.contest.records import report_from_json, report_to_json
from gamehall.contest.standings import compute_standings, game_points, render_table, standings_csv
from gamehall.rules._core import ForfeitReason, SeatEnd, SeatResult

NORMAL = SeatEnd(SeatResult.NORMAL)


def game(number: int, ranked: list[tuple[str, int]], ends: dict[str, SeatEnd] | None = None) -> GameReport:
    names = tuple(name for name, _ in ranked)
    order = GameOrder(
        "c", number, "ursuppe", "urserver", number, names, {n: n for n in names}, {}, Deadlines(2, 10)
    )
    ends = ends or {}
    seats = tuple(SeatReport(n, n, ends.get(n, NORMAL), 10.0 - rank, rank) for n, rank in ranked)
    return GameReport(order, f"r{number}", "normal", seats)


def test_two_player_points_are_win_one_draw_half_loss_zero() -> None:
    assert game_points(game(1, [("a", 1), ("b", 2)])) == {"a": 1.0, "b": 0.0}
    assert game_points(game(1, [("a", 1), ("b", 1)])) == {"a": 0.5, "b": 0.5}


def test_multiplayer_points_follow_the_ranks_and_ties_share() -> None:
    assert game_points(game(1, [("a", 1), ("b", 2), ("c", 3), ("d", 4)])) == pytest.approx(
        {"a": 1.0, "b": 2 / 3, "c": 1 / 3, "d": 0.0}
    )
    assert game_points(game(1, [("a", 1), ("b", 2), ("c", 2)])) == {"a": 1.0, "b": 0.25, "c": 0.25}


def test_an_aborted_game_counts_for_nobody() -> None:
    aborted = game(
        1, [("a", 1), ("b", 1)], {"a": SeatEnd(SeatResult.ABORTED), "b": SeatEnd(SeatResult.ABORTED)}
    )
    assert game_points(aborted) == {}
    standings = compute_standings([Entrant("a"), Entrant("b")], [aborted])
    assert [row.games for row in standings.rows] == [0, 0]


def test_a_game_cut_short_by_forfeits_is_scored_by_its_ranks() -> None:
    aborted, timeout = SeatEnd(SeatResult.ABORTED), SeatEnd(SeatResult.FORFEIT, ForfeitReason.TIMEOUT)
    ends = {"a": aborted, "b": aborted, "c": timeout}  # too few left to go on after c's forfeit
    assert game_points(game(1, [("a", 1), ("b", 1), ("c", 3)], ends)) == {"a": 0.75, "b": 0.75, "c": 0.0}


def test_standings_count_points_typed_losses_and_rate_the_winner_up() -> None:
    entrants = [Entrant("strong", 2), Entrant("weak", 1), Entrant("sleeper")]
    timeout = SeatEnd(SeatResult.FORFEIT, ForfeitReason.TIMEOUT)
    reports = [
        game(1, [("strong", 1), ("weak", 2)]),
        game(2, [("weak", 1), ("sleeper", 2)], {"sleeper": timeout}),
        game(3, [("strong", 1), ("sleeper", 2)], {"sleeper": timeout}),
        game(4, [("strong", 1), ("weak", 1)]),
    ]
    standings = compute_standings(entrants, reports)
    rows = {row.name: row for row in standings.rows}
    assert [row.name for row in standings.rows] == ["strong", "weak", "sleeper"]
    assert (rows["strong"].points, rows["strong"].wins, rows["strong"].draws) == (2.5, 2, 1)
    assert rows["sleeper"].forfeits["timeout"] == 2 and rows["sleeper"].points == 0
    assert rows["strong"].ordinal > rows["weak"].ordinal > rows["sleeper"].ordinal
    assert rows["strong"].mu > 25 > rows["sleeper"].mu
    assert standings.crosstable["strong"] == {"weak": 1.5, "sleeper": 1.0}
    assert [games for games, _ in standings.ratings["strong"]] == [1, 2, 3]


def test_partners_sharing_first_place_both_win() -> None:
    entrants = [Entrant(n) for n in "abcd"]
    standings = compute_standings(entrants, [game(1, [("a", 1), ("b", 3), ("c", 1), ("d", 3)])])
    rows = {row.name: (row.wins, row.draws, row.losses) for row in standings.rows}
    assert rows == {"a": (1, 0, 0), "c": (1, 0, 0), "b": (0, 0, 1), "d": (0, 0, 1)}


def test_ratings_use_the_ranks_of_a_multiplayer_game() -> None:
    entrants = [Entrant(n) for n in "abcd"]
    standings = compute_standings(entrants, [game(1, [("a", 1), ("b", 2), ("c", 3), ("d", 4)])])
    mus = [row.mu for row in standings.rows]
    assert [row.name for row in standings.rows] == ["a", "b", "c", "d"]
    assert mus == sorted(mus, reverse=True) and len(set(mus)) == 4


def test_the_order_of_reports_does_not_change_the_standings() -> None:
    entrants = [Entrant("a"), Entrant("b"), Entrant("c")]
    reports = [game(1, [("a", 1), ("b", 2)]), game(2, [("b", 1), ("c", 2)]), game(3, [("c", 1), ("a", 2)])]
    assert (
        compute_standings(entrants, reports).to_json() == compute_standings(entrants, reports[::-1]).to_json()
    )


def test_csv_has_a_column_per_forfeit_reason_and_the_rating() -> None:
    entrants = [Entrant("a", 1), Entrant("b")]
    violation = SeatEnd(SeatResult.FORFEIT, ForfeitReason.PROCESS_VIOLATION)
    standings = compute_standings(entrants, [game(1, [("a", 1), ("b", 2)], {"b": violation})])
    rows = list(csv.DictReader(io.StringIO(standings_csv(standings))))
    assert rows[1]["name"] == "b" and rows[1]["forfeit_process_violation"] == "1" and rows[1]["grade"] == ""
    assert {"mu", "sigma", "ordinal", "forfeit_soft_timeout", "forfeit_disconnected"} <= set(rows[0])
    table = render_table(standings)
    assert "process_violation 1" in table and "crosstable" in table


def test_a_report_survives_its_json_line() -> None:
    report = game(5, [("a", 1), ("b", 2)], {"b": SeatEnd(SeatResult.FORFEIT, ForfeitReason.SOFT_TIMEOUT)})
    assert report_from_json(report_to_json(report)) == report

"""Section 5.5: who is Card Czar - a random first czar, then sequential, random or winner,
never a held seat, and the rotation stays right after seats leave."""

from __future__ import annotations

from aah_engine_support import czar, fire, lobby, next_round, pickers, started, win_round


def test_first_czar_is_random_among_present_seats() -> None:
    firsts = set()
    for seed in range(40):
        table, _ = started(4, seed=seed)
        firsts.add(czar(table))
    assert firsts == {0, 1, 2, 3}


def test_sequential_rotation_wraps_around() -> None:
    table, _ = started(4, seed=3)
    first = czar(table)
    seen = [first]
    for _ in range(7):
        next_round(table)
        seen.append(czar(table))
    assert seen == [(first + i) % 4 for i in range(8)]


def test_sequential_skips_held_seats() -> None:
    table, _ = started(5, seed=2)
    first = czar(table)
    skipped = (first + 1) % 5
    table.seat_away(skipped)
    next_round(table)
    assert czar(table) == (first + 2) % 5


def test_sequential_rotation_is_by_seat_number_after_a_leave() -> None:
    for seed in range(30):
        table, _ = started(5, seed=seed)
        if czar(table) == 1:
            break
    win_round(table)
    table.seat_leave(2)  # released during the gap
    fire(table, "gap")
    assert czar(table) == 3  # not 4, as a stale list index would give
    next_round(table)
    next_round(table)
    assert czar(table) == 0  # 4 -> wraps to 0
    next_round(table)
    assert czar(table) == 1


def test_random_mode_reaches_every_seat_but_never_a_held_one() -> None:
    table, _ = started(5, seed=11, czar_mode="random", aplimit=100)
    away = 4 if czar(table) != 4 else 3
    table.seat_away(away)
    seen = set()
    for _ in range(60):
        next_round(table)
        seen.add(czar(table))
    assert seen == {0, 1, 2, 3, 4} - {away}


def test_random_mode_can_pick_the_last_seat() -> None:
    table, _ = started(3, seed=4, czar_mode="random", aplimit=100)
    seen = set()
    for _ in range(40):
        next_round(table)
        seen.add(czar(table))
    assert 2 in seen


def test_winner_mode_makes_the_winner_czar() -> None:
    table, _ = started(4, seed=6, czar_mode="winner", aplimit=100)
    for _ in range(6):
        winner = pickers(table)[-1]
        next_round(table, winner=winner)
        assert czar(table) == winner


def test_winner_mode_falls_back_to_sequential_after_a_void_round_or_an_absent_winner() -> None:
    table, _ = started(4, seed=6, czar_mode="winner", aplimit=100)
    first = czar(table)
    fire(table, "pick")  # nobody played: void
    assert table.view(None)["rounds"] == [{"round": 1, "winner": None, "winner_name": None}]
    fire(table, "gap")
    assert czar(table) == (first + 1) % 4
    second = czar(table)
    winner = next(s for s in pickers(table) if s != (second + 1) % 4)
    win_round(table, winner=winner)
    table.seat_away(winner)
    fire(table, "gap")
    assert czar(table) == (second + 1) % 4


def test_lobby_has_no_czar() -> None:
    assert lobby(3).view(None)["czar"] is None

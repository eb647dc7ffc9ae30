"""Boggle (JDuplicate note §8.5, golden test 8, checklist 12): the grid from the letter set, paths
checked item by item, classic scoring with shared words cancelled, hidden words until the round
ends, the forced pause and the operator's manual start of the next round.

Golden grid (rows A..D): ``CATS / OQIE / RUND / ELMP``; paths are ``(row, col, glyph)``.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from words_modes_support import FIXTURE, fire, of_type, table, visible

from gamehall.rules._core import IllegalAction, NotYourTurn, Rng, WrongPhase
from gamehall.rules.words.actions import ChangeLetters, Moves, StartTurn
from gamehall.rules.words.boggle import BoggleTable, best_word, cell_text, draw_grid, trace, word_points
from gamehall.rules.words.events import (
    GameEnded,
    GridDealt,
    MovesRequested,
    ScoresUpdated,
    TurnEnded,
    TurnStarted,
    WaitingForStartTurn,
    WordRecorded,
    WordResult,
    WordResults,
)
from gamehall.rules.words.letters import ENGLISH, FRENCH, LetterSet
from gamehall.rules.words.lexicon import Lexicon

GRID = ("CATS", "OQIE", "RUND", "ELMP")
CATS = Moves(((0, 0, "C"), (0, 1, "A"), (0, 2, "T"), (0, 3, "S")))
QUITE = Moves(((1, 1, "Q"), (1, 2, "I"), (0, 2, "T"), (1, 3, "E")))  # MOVES|2&B&Q#3&B&I#3&A&T#4&B&E#


def started(players: tuple[str, ...] = ("ams", "jim"), **config: object) -> BoggleTable:
    game, _ = table({"preset": "BogEN", **config}, players)
    assert isinstance(game, BoggleTable)
    game.grid = GRID
    return game


@pytest.mark.parametrize("letters", [ENGLISH, FRENCH])
@pytest.mark.parametrize("seed", range(20))
def test_the_grid_comes_from_the_letter_set_without_blanks_with_four_vowels(
    seed: int, letters: LetterSet
) -> None:
    grid = draw_grid(letters, Rng(seed))
    cells = "".join(grid)
    assert [len(row) for row in grid] == [4, 4, 4, 4]
    assert "?" not in cells
    assert sum(cell in letters.vowels for cell in cells) >= 4
    counts = {g.glyph: g.count for g in letters.glyphs}
    assert all(n <= counts[glyph] for glyph, n in Counter(cells).items())
    assert draw_grid(letters, Rng(seed)) == grid


def test_a_round_opens_with_the_turn_and_the_grid() -> None:
    game, events = table({"preset": "BogEN"}, ("ams",))
    grid = of_type(events, GridDealt)[0]
    assert of_type(events, TurnStarted)[0] == TurnStarted(turn=1, seconds=120.0)
    assert isinstance(grid, GridDealt) and grid.audience is None
    assert game.view(None)["grid"] == list(grid.rows)


def test_golden_shared_words_are_cancelled() -> None:
    game = started()
    assert game.apply(0, CATS) == [WordRecorded(turn=1, seat=0, word="CATS", audience=frozenset({0}))]
    game.apply(0, QUITE)
    game.apply(1, CATS)
    assert fire(game) == [MovesRequested(turn=1, grace=5.0, audience=frozenset({0, 1}))]
    closing = fire(game)
    results = of_type(closing, WordResults)
    assert results == [
        WordResults(
            turn=1, seat=0, name="ams", words=(WordResult("QUITE", 2, "ok"), WordResult("CATS", 0, "dup"))
        ),
        WordResults(turn=1, seat=1, name="jim", words=(WordResult("CATS", 0, "dup"),)),
    ]
    ended = closing[0]
    assert isinstance(ended, TurnEnded) and ended.ref == "-"
    assert [(r.name, r.score, r.status) for r in ended.results] == [("ams", 2, "ok"), ("jim", 0, "ok")]
    scores = of_type(closing, ScoresUpdated)[0]
    assert [(s.name, s.total) for s in scores.scores] == [("ams", 2), ("jim", 0)]  # type: ignore[attr-defined]
    assert closing[-1] == WaitingForStartTurn(next_turn=2)


def test_the_top_is_the_grids_best_word_with_its_path() -> None:
    assert best_word(GRID, FIXTURE) == ("QUITE", ((1, 1), (1, 2), (0, 2), (1, 3)))
    game = started()
    ended = of_type(fire(game) + fire(game), TurnEnded)[0]
    assert isinstance(ended, TurnEnded)
    assert (ended.word, ended.score, ended.tiles) == (
        "QUITE",
        2,
        ((1, 1, "Q"), (1, 2, "I"), (0, 2, "T"), (1, 3, "E")),
    )


def test_a_non_word_scores_zero() -> None:
    game = started(("ams",))
    game.apply(0, Moves(((0, 0, "C"), (0, 1, "A"), (1, 0, "O"))))  # CAO
    closing = fire(game) + fire(game)
    assert of_type(closing, WordResults)[0].words == (WordResult("CAO", 0, "notword"),)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("path", "code"),
    [
        (((0, 0, "C"), (0, 2, "T")), "path_not_adjacent"),  # 1&A&C#3&A&T# -> 60301
        (((0, 0, "C"), (0, 1, "A"), (0, 0, "C")), "path_reused"),  # 1&A&C#2&A&A#1&A&C# -> 60302
        (((0, 0, "C"), (0, 1, "X")), "path_glyph"),  # 60303
        (((0, 0, "C"), (0, 1, "A")), "word_too_short"),  # 60304
        (((0, 0, "C"), (4, 0, "A")), "off_board"),
    ],
)
def test_paths_are_checked_item_by_item(path: tuple[tuple[int, int, str], ...], code: str) -> None:
    game = started()
    with pytest.raises(IllegalAction) as error:
        game.apply(0, Moves(path))
    assert error.value.code == code
    assert game.found == {}


def test_the_first_failing_item_wins() -> None:
    with pytest.raises(IllegalAction) as error:
        trace(GRID, ((0, 0, "X"), (0, 2, "T")))
    assert error.value.code == "path_glyph"


def test_a_q_cell_reads_qu_and_counts_two_letters() -> None:
    assert cell_text("Q") == "QU"
    assert trace(GRID, ((1, 1, "Q"), (1, 2, "I"))) == ("QUI", ((1, 1), (1, 2)))


def test_a_word_is_sent_once_and_the_count_is_capped() -> None:
    game = started(boggle_words_max=1)
    game.apply(0, CATS)
    with pytest.raises(IllegalAction) as again:
        game.apply(0, CATS)
    assert again.value.code == "word_already_sent"
    with pytest.raises(IllegalAction) as many:
        game.apply(0, QUITE)
    assert many.value.code == "too_many_words"
    with pytest.raises(IllegalAction) as change:
        game.apply(0, ChangeLetters(("A",)))
    assert change.value.code == "change_not_allowed"


@pytest.mark.parametrize(
    ("word", "points"),
    [
        ("CAT", 1),
        ("CATS", 1),
        ("QUITE", 2),
        ("QUITES", 3),
        ("ABCDEFG", 5),
        ("ABCDEFGH", 11),
        ("ABCDEFGHIJ", 11),
    ],
)
def test_classic_scoring(word: str, points: int) -> None:
    assert word_points(word) == points


def test_found_words_stay_hidden_until_the_round_ends() -> None:
    game = started()
    events = game.apply(0, CATS)
    assert visible(events, 1) == [] and visible(events, None) == []
    assert game.view(0)["words"] == ["CATS"]
    assert game.view(1)["words"] == [] and game.view(None)["words"] == []
    closing = fire(game) + fire(game)
    assert all(e.audience is None for e in of_type(closing, WordResults))
    assert game.view(None)["last_words"] == {"0": [{"word": "CATS", "points": 1, "status": "ok"}], "1": []}


def test_the_forced_pause_and_the_operators_manual_start() -> None:
    game = started(("ams", "jim"), rounds=2)
    with pytest.raises(WrongPhase) as early:
        game.apply(0, StartTurn())
    assert early.value.code == "no_turn_waiting"
    fire(game)
    fire(game)
    assert game.pending_timers() == [] and game.to_move().seats == frozenset({0})
    with pytest.raises(NotYourTurn) as not_operator:
        game.apply(1, StartTurn())
    assert not_operator.value.code == "not_operator"
    with pytest.raises(WrongPhase):
        game.apply(0, CATS)
    opened = game.apply(0, StartTurn())
    assert [type(e) for e in opened] == [TurnStarted, GridDealt]
    assert opened[0] == TurnStarted(turn=2, seconds=120.0)
    fire(game)
    last = fire(game)
    assert isinstance(last[-1], GameEnded) and last[-1].reason == "rounds"
    assert not of_type(last, WaitingForStartTurn)


def test_the_operator_passes_to_the_earliest_remaining_player() -> None:
    game = started(("ams", "jim", "luc"))
    fire(game)
    fire(game)
    game.seat_leave(0)
    assert game.operator == 1
    assert game.apply(1, StartTurn())


def brute_force_top(grid: tuple[str, ...], words: list[str]) -> tuple[int, int, str] | None:
    """The best (points, length, word) found by searching every word's spelling on the grid."""
    cells = [(r, c) for r in range(4) for c in range(4)]

    def spells(word: str, path: list[tuple[int, int]]) -> bool:
        if not word:
            return True
        for cell in cells:
            if cell in path or (path and max(abs(cell[0] - path[-1][0]), abs(cell[1] - path[-1][1])) != 1):
                continue
            text = cell_text(grid[cell[0]][cell[1]])
            if word.startswith(text) and spells(word[len(text) :], [*path, cell]):
                return True
        return False

    found = [(word_points(w), len(w), w) for w in words if len(w) >= 3 and spells(w, [])]
    if not found:
        return None
    return min(found, key=lambda f: (-f[0], -f[1], f[2]))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_the_top_equals_a_brute_force_search(seed: int) -> None:
    rng = Rng(seed)
    grid = draw_grid(ENGLISH, rng)
    letters = "".join(cell_text(c) for c in "".join(grid))
    words = sorted({"".join(rng.sample(list(letters), rng.between(3, 6))) for _ in range(150)})
    words += ["".join(grid[0]), grid[0][0] + grid[1][1] + grid[2][2] + grid[3][3]]
    words = sorted({w.replace("Q", "QU") if "QU" not in w else w for w in words})
    lexicon = Lexicon.from_words(words)
    expected = brute_force_top(grid, list(lexicon))
    found = best_word(grid, lexicon)
    if expected is None:
        assert found is None
        return
    assert found is not None and found[0] == expected[2]
    assert trace(grid, tuple((r, c, grid[r][c]) for r, c in found[1]))[0] == found[0]


def test_every_grid_path_of_two_cells_is_adjacent_exactly_when_trace_accepts() -> None:
    for (r1, c1), (r2, c2), (r3, c3) in itertools.permutations([(0, 0), (1, 1), (2, 2), (0, 1)], 3):
        path = ((r1, c1, GRID[r1][c1]), (r2, c2, GRID[r2][c2]), (r3, c3, GRID[r3][c3]))
        adjacent = all(max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1 for a, b in itertools.pairwise(path))
        try:
            trace(GRID, path)
        except IllegalAction as error:
            assert not adjacent and error.code == "path_not_adjacent"
        else:
            assert adjacent


def test_a_returning_player_is_brought_up_to_date() -> None:
    game = started()
    during = game.resync(1)
    assert [type(e) for e in during] == [ScoresUpdated, TurnStarted, GridDealt]
    assert all(e.audience == frozenset({1}) for e in during)
    fire(game)
    fire(game)
    assert game.resync(1)[-1] == WaitingForStartTurn(next_turn=2, audience=frozenset({1}))

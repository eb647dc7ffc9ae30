"""Move clocks in held turns (docs/contest.md "Held turns"): duplicate and boggle keep every seat
"to move" until the turn closes, so the referee asks the engine whether a seat has moved this
turn. A sleeper that sends nothing is typed ``timeout`` at the hard deadline, inside the turn;
a seat that answered at once and then waits for the turn's end is not. Scrabble's turn is one
seat's move and keeps the plain rule. Played through hall sessions (no sockets)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping

from contest_orders import order
from recording_listener import RecordingListener

from gamehall.contest.hall_side import contest_hall, report_of
from gamehall.contest.ports import Deadlines, GameOrder, GameReport
from gamehall.contest.profiles import profile_for
from gamehall.games import game_types
from gamehall.hall.hall import Hall, Session
from gamehall.hall.room import Room
from gamehall.protocols._core import HallError
from gamehall.rules._core import JSON, Action, HeldTurn, RuleError
from gamehall.rules.words import BoggleTable, DuplicateTable, Moves, ScrabbleTable, StartTurn, new_game
from gamehall.rules.words.boggle import best_word
from gamehall.rules.words.movegen import best_move
from gamehall.rules.words.words_table import Phase
from gamehall.server.clock import LoopClock
from gamehall.store import MemoryStore

TURN_S = 5  # the shortest turn the words settings allow
CLOCKS = Deadlines(soft_s=2.0, hard_s=3.0, connect_s=5.0, soft_strikes=100)
"""Both deadlines inside the turn, as the words profile has them."""
QUICK = {"time_per_turn": TURN_S, "grace_s": 0.5, "pause_s": 0.1, "max_players": 2}
EARLY, SLEEPER = 0, 1


async def started(hall: Hall, game: GameOrder) -> tuple[asyncio.Task[GameReport], Room]:
    playing = asyncio.create_task(contest_hall(hall).play(game))
    await asyncio.sleep(0)
    (info,) = hall.rooms(game.game)
    return playing, hall.room(info.room_id)


def seated(hall: Hall, room: Room, game: GameOrder) -> dict[int, Session]:
    """Every entrant logged in and back in its held seat (the sleeper too: it is there, silent)."""
    sessions = {}
    for seat, login in enumerate(game.seats):
        session = hall.login(login, RecordingListener(), protocol="jduplicate", resume_without_token=True)
        session.retake(room.room_id)
        sessions[seat] = session
    return sessions


Answer = Callable[[Room], Action | None]
"""The early seat's answer to what the room shows now (``None``: it owes nothing now)."""


async def contest_game(config: Mapping[str, JSON], seats: tuple[str, str], answer: Answer) -> GameReport:
    """Referee one words game where seat 0 answers every request at once (``answer``) and
    then waits for the turn to end, and seat 1 sits at the table and never sends anything."""
    hall = Hall(games=game_types(), store=MemoryStore(), clock=LoopClock())
    game = order("words", "jduplicate", seats, config=config, deadlines=CLOCKS)
    playing, room = await started(hall, game)
    early = seated(hall, room, game)[EARLY]

    async def play_early() -> None:
        while not room.closed:
            action = answer(room)
            if action is not None:
                with contextlib.suppress(HallError, RuleError):  # the turn closed meanwhile
                    early.act(room.room_id, action)
            await asyncio.sleep(0.05)

    driver = asyncio.create_task(play_early())
    try:
        report = await asyncio.wait_for(playing, timeout=40)
    finally:
        driver.cancel()
    record = hall.store.load_room(report.room_id)
    assert record is not None and report_of(record, game) == report
    return report


def duplicate_top(room: Room) -> Action | None:
    """The top of the open turn, once per turn (a submission stands until the turn closes)."""
    table = room.state
    assert isinstance(table, DuplicateTable)
    if table.phase is not Phase.OPEN or table.moved_this_turn(EARLY):
        return None
    top = best_move(table.board, table.rack, table.lexicon, table.letters)
    if top is None:
        return None
    return Moves(tuple((row, col, tile.glyph) for (row, col), tile in top.placed()))


def boggle_word(room: Room) -> Action | None:
    """One word per round (the round stays open until its time is up), and the operator's
    start of the next round."""
    table = room.state
    assert isinstance(table, BoggleTable)
    if table.phase is Phase.WAIT_START:
        return StartTurn()
    if table.phase is not Phase.OPEN or table.moved_this_turn(EARLY):
        return None
    found = best_word(table.grid, table.lexicon)
    assert found is not None
    _word, path = found
    return Moves(tuple((row, col, table.grid[row][col]) for row, col in path))


def scrabble_move(room: Room) -> Action | None:
    table = room.state
    assert isinstance(table, ScrabbleTable)
    if table.phase is not Phase.OPEN or table.current != EARLY:
        return None
    top = best_move(table.board, tuple(table.racks[EARLY]), table.lexicon, table.letters)
    tiles = () if top is None else tuple((row, col, tile.glyph) for (row, col), tile in top.placed())
    return Moves(tiles)


def ends(report: GameReport) -> list[JSON]:
    return [seat.end.to_json() for seat in report.seats]


TIMEOUT = {"result": "forfeit", "reason": "timeout"}


async def test_duplicate_sleeper_times_out_inside_the_turn_and_the_early_mover_does_not() -> None:
    config = {"preset": "DupEN", **QUICK, "end_turn_when_all_moved": True}
    report = await contest_game(config, ("early1", "sleep1"), duplicate_top)
    assert ends(report)[SLEEPER] == TIMEOUT
    assert ends(report)[EARLY] == {"result": "normal"}
    assert report.seats[EARLY].soft_timeouts == 0 and report.seats[EARLY].rank == 1


async def test_boggle_sleeper_times_out_and_a_seat_that_sent_a_word_waits_out_the_round() -> None:
    # A boggle round never closes early: the early seat waits TURN_S after its word, longer
    # than hard_s, while it stays "to move" the whole round.
    config = {"preset": "BogEN", **QUICK, "rounds": 2}
    report = await contest_game(config, ("early2", "sleep2"), boggle_word)
    assert ends(report)[SLEEPER] == TIMEOUT
    assert ends(report)[EARLY] == {"result": "normal"}
    assert report.termination == "normal"


async def test_scrabble_keeps_the_plain_rule_one_seat_one_move() -> None:
    config = {"preset": "ScrEN", **QUICK}
    report = await contest_game(config, ("early3", "sleep3"), scrabble_move)
    assert ends(report)[SLEEPER] == TIMEOUT
    assert ends(report)[EARLY] != TIMEOUT


def test_only_the_turn_held_modes_answer_the_held_turn_query() -> None:
    held = {
        preset: isinstance(new_game({"preset": preset}, 1), HeldTurn)
        for preset in ("DupEN", "BogEN", "ScrEN")
    }
    assert held == {"DupEN": True, "BogEN": True, "ScrEN": False}


def test_the_words_profile_deadlines_lie_inside_its_turn() -> None:
    profile = profile_for("words")
    turn = profile.config["time_per_turn"]
    assert isinstance(turn, int)
    assert profile.deadlines.soft_s <= profile.deadlines.hard_s < turn

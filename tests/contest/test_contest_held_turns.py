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
from gamehall.rules._core import JSON, Action, HeldTurn, RuleError, Seat
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


Answer = Callable[[Room, Seat], Action | None]
"""A seat's answer to what the room shows now (``None``: it sends nothing now)."""


async def contest_game(
    config: Mapping[str, JSON], seats: tuple[str, str], answers: Mapping[Seat, Answer]
) -> GameReport:
    """Referee one words game where each seat of ``answers`` acts as its answer says, looked at
    every 50 ms; any other seat sits at the table and never sends anything (a sleeper)."""
    hall = Hall(games=game_types(), store=MemoryStore(), clock=LoopClock())
    game = order("words", "jduplicate", seats, config=config, deadlines=CLOCKS)
    playing, room = await started(hall, game)
    sessions = seated(hall, room, game)

    async def play() -> None:
        while not room.closed:
            for seat, answer in answers.items():
                action = answer(room, seat) if seat in room.state.seat_names() else None
                if action is not None:
                    with contextlib.suppress(HallError, RuleError):  # the turn closed meanwhile
                        sessions[seat].act(room.room_id, action)
            await asyncio.sleep(0.05)

    driver = asyncio.create_task(play())
    try:
        report = await asyncio.wait_for(playing, timeout=40)
    finally:
        driver.cancel()
    record = hall.store.load_room(report.room_id)
    assert record is not None and report_of(record, game) == report
    return report


def duplicate_top(room: Room, seat: Seat) -> Action | None:
    """The top of the open turn, once per turn (a submission stands until the turn closes)."""
    table = room.state
    assert isinstance(table, DuplicateTable)
    if table.phase is not Phase.OPEN or table.moved_this_turn(seat):
        return None
    top = best_move(table.board, table.rack, table.lexicon, table.letters)
    if top is None:
        return None
    return Moves(tuple((row, col, tile.glyph) for (row, col), tile in top.placed()))


def boggle_word(room: Room, seat: Seat) -> Action | None:
    """One word per round (the round stays open until its time is up), and the operator's
    start of the next round."""
    table = room.state
    assert isinstance(table, BoggleTable)
    if table.phase is Phase.WAIT_START:
        return StartTurn()
    if table.phase is not Phase.OPEN or table.moved_this_turn(seat):
        return None
    found = best_word(table.grid, table.lexicon)
    assert found is not None
    _word, path = found
    return Moves(tuple((row, col, table.grid[row][col]) for row, col in path))


def scrabble_move(room: Room, seat: Seat) -> Action | None:
    table = room.state
    assert isinstance(table, ScrabbleTable)
    if table.phase is not Phase.OPEN or table.current != seat:
        return None
    top = best_move(table.board, tuple(table.racks[seat]), table.lexicon, table.letters)
    tiles = () if top is None else tuple((row, col, tile.glyph) for (row, col), tile in top.placed())
    return Moves(tiles)


def ends(report: GameReport) -> list[JSON]:
    return [seat.end.to_json() for seat in report.seats]


TIMEOUT = {"result": "forfeit", "reason": "timeout"}


async def test_duplicate_sleeper_times_out_inside_the_turn_and_the_early_mover_does_not() -> None:
    config = {"preset": "DupEN", **QUICK, "end_turn_when_all_moved": True}
    report = await contest_game(config, ("early1", "sleep1"), {EARLY: duplicate_top})
    assert ends(report)[SLEEPER] == TIMEOUT
    assert ends(report)[EARLY] == {"result": "normal"}
    assert report.seats[EARLY].soft_timeouts == 0 and report.seats[EARLY].rank == 1


async def test_boggle_sleeper_times_out_and_a_seat_that_sent_a_word_waits_out_the_round() -> None:
    # A boggle round never closes early: the early seat waits TURN_S after its word, longer
    # than hard_s, while it stays "to move" the whole round.
    config = {"preset": "BogEN", **QUICK, "rounds": 2}
    report = await contest_game(config, ("early2", "sleep2"), {EARLY: boggle_word})
    assert ends(report)[SLEEPER] == TIMEOUT
    assert ends(report)[EARLY] == {"result": "normal"}
    assert report.termination == "normal"


async def test_scrabble_keeps_the_plain_rule_one_seat_one_move() -> None:
    config = {"preset": "ScrEN", **QUICK}
    report = await contest_game(config, ("early3", "sleep3"), {EARLY: scrabble_move})
    assert ends(report)[SLEEPER] == TIMEOUT
    assert ends(report)[EARLY] != TIMEOUT


class Withdrawer:
    """Submits the top at once in turn 1, takes it back (an empty MOVES) ``after`` seconds
    later, and sends nothing more."""

    def __init__(self, after: float) -> None:
        self.after = after
        self.sent_at: float | None = None
        self.withdrawn = False

    def __call__(self, room: Room, seat: Seat) -> Action | None:
        now = asyncio.get_running_loop().time()
        if self.sent_at is None:
            self.sent_at = now
            return duplicate_top(room, seat)
        if not self.withdrawn and now - self.sent_at >= self.after:
            self.withdrawn = True
            return Moves(())
        return None


async def test_a_duplicate_move_withdrawn_resumes_the_turns_clock_instead_of_a_fresh_one() -> None:
    # Withdrawn at 2.5 s: the clock that ran from the turn's start ends the seat at 3 s, inside
    # turn 1; a fresh clock (2.5 + 3 s) would outlast the turn (5 s, no grace) into turn 2.
    # The other seat moves only after the withdrawal, so turn 1 does not close early.
    withdrawer = Withdrawer(after=2.5)
    released: list[int] = []

    def after_the_withdrawal(room: Room, seat: Seat) -> Action | None:
        table = room.state
        assert isinstance(table, DuplicateTable)
        if SLEEPER not in table.seat_names() and not released:
            released.append(table.turn)
        return duplicate_top(room, seat) if withdrawer.withdrawn else None

    config = {"preset": "DupEN", **QUICK, "grace_s": 0.0, "end_turn_when_all_moved": True}
    answers = {EARLY: after_the_withdrawal, SLEEPER: withdrawer}
    report = await contest_game(config, ("early4", "taker4"), answers)
    assert ends(report)[SLEEPER] == TIMEOUT
    assert released == [1]


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

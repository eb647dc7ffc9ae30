"""The referee's rules, played through hall sessions (no sockets): late moves, drops, the
runner's forfeit, strangers, and entrants who never come, in every game."""

from __future__ import annotations

import asyncio
import random

import pytest
from contest_orders import order
from recording_listener import RecordingListener

from gamehall.contest.hall_side import contest_hall, report_of
from gamehall.contest.ports import Deadlines, GameOrder, GameReport
from gamehall.games import game_types
from gamehall.hall.hall import Hall, Session
from gamehall.hall.room import Room
from gamehall.protocols._core import HallError
from gamehall.rules._core import ForfeitReason, RuleError
from gamehall.server.clock import LoopClock
from gamehall.store import MemoryStore
from gamehall.store.accounts import MemoryAccounts


def new_hall() -> Hall:
    return Hall(games=game_types(), store=MemoryStore(), clock=LoopClock())


async def started(hall: Hall, game: GameOrder) -> tuple[asyncio.Task[GameReport], Room]:
    playing = asyncio.create_task(contest_hall(hall).play(game))
    await asyncio.sleep(0)
    (info,) = hall.rooms(game.game)
    return playing, hall.room(info.room_id)


def entrant(hall: Hall, room: Room, login: str, protocol: str) -> Session:
    """An entrant logged in over its protocol, back in its held seat (what every dialogue does)."""
    session = hall.login(login, RecordingListener(), protocol=protocol, resume_without_token=True)
    session.retake(room.room_id)
    return session


async def play_mrjack(room: Room, sessions: dict[int, Session], think: dict[int, float]) -> None:
    """Both seats play legal moves; seat ``s`` thinks ``think[s]`` seconds before each."""
    rng = random.Random(3)
    while not room.closed:
        seats = sorted(room.state.to_move().seats & set(sessions))
        if not seats:
            await asyncio.sleep(0.01)
            continue
        seat = seats[0]
        await asyncio.sleep(think.get(seat, 0.0))
        if room.closed or seat not in room.state.to_move().seats:
            continue
        try:
            sessions[seat].act(room.room_id, rng.choice(room.state.legal_actions(seat)))
        except (HallError, RuleError):
            await asyncio.sleep(0.01)


async def test_late_moves_are_soft_timeout_strikes_and_enough_of_them_forfeit() -> None:
    hall = new_hall()
    deadlines = Deadlines(soft_s=0.15, hard_s=3.0, connect_s=2.0, soft_strikes=2)
    game = order("mrjack", "mrjack", ("quick1", "slow1"), deadlines=deadlines)
    playing, room = await started(hall, game)
    sessions = {seat: entrant(hall, room, login, "mrjack") for seat, login in enumerate(game.seats)}
    driver = asyncio.create_task(play_mrjack(room, sessions, {1: 0.3}))
    report = await asyncio.wait_for(playing, timeout=30)
    driver.cancel()
    slow = report.seats[1]
    assert slow.end.to_json() == {"result": "forfeit", "reason": "soft_timeout"}
    assert slow.soft_timeouts == 2 and slow.rank == 2
    assert report.seats[0].soft_timeouts == 0
    record = hall.store.load_room(report.room_id)
    assert record is not None and report_of(record, game) == report


async def test_a_drop_not_back_within_connect_s_forfeits_as_disconnected() -> None:
    hall = new_hall()
    deadlines = Deadlines(soft_s=5.0, hard_s=5.0, connect_s=0.3)
    game = order("mrjack", "mrjack", ("stay2", "gone2"), deadlines=deadlines)
    playing, room = await started(hall, game)
    sessions = [entrant(hall, room, login, "mrjack") for login in game.seats]
    await asyncio.sleep(0.05)
    sessions[1].logout(dropped=True)
    report = await asyncio.wait_for(playing, timeout=5)
    assert [s.end.to_json() for s in report.seats] == [
        {"result": "normal"},
        {"result": "forfeit", "reason": "disconnected"},
    ]


async def test_a_drop_that_comes_back_in_time_plays_on() -> None:
    hall = new_hall()
    deadlines = Deadlines(soft_s=5.0, hard_s=5.0, connect_s=0.5)
    game = order("mrjack", "mrjack", ("stay3", "back3"), deadlines=deadlines)
    playing, room = await started(hall, game)
    entrant(hall, room, "stay3", "mrjack")
    entrant(hall, room, "back3", "mrjack").logout(dropped=True)
    await asyncio.sleep(0.2)
    entrant(hall, room, "back3", "mrjack")
    await asyncio.sleep(0.5)
    assert not playing.done() and room.forfeits == {}
    contest_hall(hall).forfeit("cup", "back3", ForfeitReason.PROCESS_VIOLATION)  # the runner killed it
    report = await asyncio.wait_for(playing, timeout=5)
    assert report.seats[1].end.to_json() == {"result": "forfeit", "reason": "process_violation"}
    record = hall.store.load_room(report.room_id)
    assert record is not None
    assert [(e.kind, e.seat, e.data) for e in record.entries if e.kind == "leave"] == [
        ("leave", 1, {"reason": "process_violation"})
    ]


SEATS = {
    "aah": ("aah", ("a4", "b4", "c4")),
    "doppelkopf": ("cg", ("Anna4", "Bert4", "Carl4", "Dirk4")),
    "ursuppe": ("urserver", ("a4", "b4", "c4")),
    "mrjack": ("mrjack", ("a4", "b4")),
    "words": ("jduplicate", ("a4", "b4")),
}


@pytest.mark.parametrize("game_id", sorted(SEATS))
async def test_strangers_cannot_sit_spectators_may_watch_and_absent_entrants_forfeit(game_id: str) -> None:
    protocol, seats = SEATS[game_id]
    accounts = MemoryAccounts()
    hall = new_hall()
    contest_hall(hall, accounts=lambda: accounts)
    for login in seats:
        contest_hall(hall).register_account(protocol, login, "secret")
    game = order(game_id, protocol, seats, deadlines=Deadlines(soft_s=1.0, hard_s=1.0, connect_s=0.3))
    playing, room = await started(hall, game)
    assert room.info().seats == dict(enumerate(seats))
    assert room.meta["contest"] == game.to_json() and room.seed == game.seed
    stranger = hall.login("stranger", RecordingListener(), protocol="web")
    with pytest.raises(HallError) as refused:
        stranger.join(room.room_id)
    assert refused.value.code == "seat_reserved"
    stranger.spectate(room.room_id)
    with pytest.raises(HallError):
        stranger.join(room.room_id)  # a spectator cannot take a seat either
    with pytest.raises(HallError):
        hall.login(
            seats[0], RecordingListener(), protocol="web"
        )  # the seat's owner plays over its own protocol
    report = await asyncio.wait_for(playing, timeout=5)
    assert report.termination == "aborted"
    assert {(s.end.to_json()["reason"], s.rank) for s in report.seats} == {("disconnected", 1)}
    record = hall.store.load_room(report.room_id)
    assert record is not None and report_of(record, game) == report


async def test_no_move_clock_runs_before_every_entrant_is_at_the_table() -> None:
    hall = new_hall()
    deadlines = Deadlines(soft_s=0.2, hard_s=0.2, connect_s=2.0)
    game = order("mrjack", "mrjack", ("early5", "late5"), deadlines=deadlines)
    playing, room = await started(hall, game)
    entrant(hall, room, "early5", "mrjack")
    await asyncio.sleep(0.6)  # three hard deadlines long: nobody's clock runs yet
    assert not playing.done() and room.forfeits == {} and room.timers() == []
    entrant(hall, room, "late5", "mrjack")
    to_move = next(iter(room.state.to_move().seats))
    report = await asyncio.wait_for(playing, timeout=5)  # now it runs: nobody moves
    assert report.seats[to_move].end.to_json() == {"result": "forfeit", "reason": "timeout"}
    assert report.seats[1 - to_move].end.to_json() == {"result": "normal"}


async def test_a_game_the_runner_gives_up_is_closed_as_aborted() -> None:
    hall = new_hall()
    game = order("mrjack", "mrjack", ("a6", "b6"))
    playing, room = await started(hall, game)
    playing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await playing
    assert room.closed
    record = hall.store.load_room(room.room_id)
    assert record is not None and report_of(record, game).termination == "aborted"

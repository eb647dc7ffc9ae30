"""Crash recovery and seat ownership at hall level, on the fake clock (docs/recovery.md):
a restart brings rooms back with their bots playing and their timers' remaining time, seats
are held for their grace and then taken over by a bot or forfeited, results are typed per
seat, and a held seat is retaken only by its owner over its owner's protocol."""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from recording_listener import RecordingListener
from toy_game import TOY, Add, Added, Secret
from turns import turn_by_turn_hall

from gamehall.bots import hall_bots
from gamehall.hall import FakeClock, Hall
from gamehall.hall.lifecycle import SeatStatus
from gamehall.hall.recovery import RESTART_GRACE_S, bot_seats
from gamehall.protocols._core import HallError
from gamehall.rules._core import Action, Seat
from gamehall.store.sqlite import SqliteStore


class AddOne:
    """The toy game's bot policy: always add 1."""

    def decide(self, view: Mapping[str, Any], seat: Seat, rng: random.Random) -> Action | None:
        return Add(1)


@pytest.fixture(autouse=True)
def toy_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hall_bots, "make_policy", lambda game, name: AddOne())


def make_hall(db: Path, clock: FakeClock, *, tournament: bool = False, bots: bool = True) -> Hall:
    seeds = iter(range(1, 10_000))
    return turn_by_turn_hall(
        games={"toy": TOY},
        store=SqliteStore(db),
        clock=clock,
        seed_source=lambda: next(seeds),
        wall_time=clock.now,  # one time line: the outage is a jump of the fake clock
        tournament=tournament,
        bot_seater=hall_bots.add_bots if bots else None,
        bot_driver=hall_bots.drive_seat if bots else None,
    )


def result_of(db: Path, room_id: str) -> Any:
    record = SqliteStore(db).load_room(room_id)
    assert record is not None and record.finished_at is not None
    return record.result


def acts_by_seat(db: Path, room_id: str) -> list[int | None]:
    record = SqliteStore(db).load_room(room_id)
    assert record is not None
    return [e.seat for e in record.entries if e.kind == "act"]


# ------------------------------------------------------------------------------ restart


def test_after_a_restart_the_rooms_bots_are_seated_again_and_play_on(tmp_path: Path) -> None:
    db, clock = tmp_path / "hall.db", FakeClock()
    hall = make_hall(db, clock)
    alice = hall.login("alice", RecordingListener(), protocol="aah")
    room_id = alice.create_room("toy", {"seats": 3, "target": 9, "turn_s": 60.0}).room_id
    alice.join(room_id)
    hall.add_bots(room_id, 2)
    assert sorted(bot_seats(hall.room(room_id).meta)) == [1, 2]
    alice.act(room_id, Add(3))
    # the process dies before the bots' next move: a new hall on the same store
    clock2 = FakeClock(clock.now() + 5)
    hall2 = make_hall(db, clock2)
    assert hall2.restore() == 1
    room = hall2.room(room_id)
    assert [m.bot for m in room.members.values() if m.seat != 0] == ["random", "random"]
    clock2.advance(1)  # the bots think after their short delay: seats 1 and 2 move
    assert room.state.view(None)["total"] == 5 and room.state.view(None)["turn"] == 0
    alice2 = hall2.login("alice", RecordingListener(), protocol="aah", resume_without_token=True)
    alice2.retake(room_id)
    alice2.act(room_id, Add(3))
    clock2.advance(1)  # bot seat 1 reaches 9 and wins: a normal end by the rules
    result = result_of(db, room_id)
    assert result["termination"] == "normal" and result["winners"] == [1]
    assert result["seats"] == {str(s): {"result": "normal"} for s in (0, 1, 2)}
    assert acts_by_seat(db, room_id) == [0, 1, 2, 0, 1]


def test_a_timer_resumes_with_the_time_it_had_left(tmp_path: Path) -> None:
    db, clock = tmp_path / "hall.db", FakeClock()
    hall = make_hall(db, clock)
    room_id = _pair(hall, turn_s=30.0)
    clock.advance(12)  # alice's 30 s turn clock has 18 s left when the process dies
    clock2 = FakeClock(clock.now() + 5)  # 5 s of outage: 13 s left
    hall2 = make_hall(db, clock2)
    hall2.restore()
    room = hall2.room(room_id)
    assert [round(left, 3) for _, left in room.timers()] == [13.0]
    clock2.advance(12.9)
    assert room.state.view(None)["total"] == 0
    clock2.advance(0.2)
    assert room.state.view(None)["total"] == 1  # the default move, on time


def test_a_timer_that_fell_due_during_the_outage_fires_after_the_restart_grace(tmp_path: Path) -> None:
    db, clock = tmp_path / "hall.db", FakeClock()
    hall = make_hall(db, clock)
    room_id = _pair(hall, turn_s=30.0)
    clock2 = FakeClock(clock.now() + 45)  # the turn ran out during the outage
    hall2 = make_hall(db, clock2)
    hall2.restore()
    room = hall2.room(room_id)
    clock2.advance(RESTART_GRACE_S - 0.1)
    assert room.state.view(None)["total"] == 0  # not at once: players get a moment back
    clock2.advance(0.2)
    assert room.state.view(None)["total"] == 1


def test_a_restart_holds_seats_at_least_a_minute_even_where_a_drop_forfeits(tmp_path: Path) -> None:
    db, clock = tmp_path / "hall.db", FakeClock()
    hall = make_hall(db, clock, tournament=True)
    room_id = _pair(hall, turn_s=60.0, rejoin_grace=0)
    clock2 = FakeClock(clock.now() + 1)
    hall2 = make_hall(db, clock2, tournament=True)
    hall2.restore()
    clock2.advance(59)
    assert hall2.room(room_id).member("bob").status is SeatStatus.AWAY  # type: ignore[union-attr]
    bob = hall2.login("bob", RecordingListener(), protocol="aah", resume_without_token=True)
    assert bob.retake(room_id).seat == 1


# ------------------------------------------------------------------------------ grace ends


def test_a_seat_not_back_in_time_is_taken_over_by_a_bot_and_recorded_as_forfeit(tmp_path: Path) -> None:
    db, clock = tmp_path / "hall.db", FakeClock()
    hall = make_hall(db, clock)
    la = RecordingListener()
    alice = hall.login("alice", la, protocol="aah")
    bob = hall.login("bob", RecordingListener(), protocol="aah")
    carol = hall.login("carol", RecordingListener(), protocol="aah")
    room_id = alice.create_room("toy", {"seats": 3, "target": 6, "turn_s": 60.0, "rejoin_grace": 20}).room_id
    for session in (alice, bob, carol):
        session.join(room_id)
    alice.act(room_id, Add(1))
    bob.logout(dropped=True)  # bob's turn: the game passes it on and holds his seat
    carol.act(room_id, Add(1))
    clock.advance(21)  # the grace is over: a bot plays bob's seat from now on
    room = hall.room(room_id)
    assert room.member("bob").bot == "heuristic"  # type: ignore[union-attr]
    alice.act(room_id, Add(1))
    clock.advance(1)
    assert [d.event.seat for _, d in la.deliveries if isinstance(d.event, Added)][-1] == 1
    with pytest.raises(HallError) as err:  # the seat is no longer bob's
        hall.login("bob", RecordingListener(), protocol="aah", resume_without_token=True).join(room_id)
    assert err.value.code == "seat_taken_over"
    carol.act(room_id, Add(2))  # 6: carol wins
    result = result_of(db, room_id)
    assert result["termination"] == "normal" and result["winners"] == [2]
    assert result["seats"]["1"] == {"result": "forfeit", "reason": "disconnected"}
    assert result["seats"]["0"] == result["seats"]["2"] == {"result": "normal"}


def test_a_bot_that_took_a_seat_over_plays_it_again_after_a_restart(tmp_path: Path) -> None:
    db, clock = tmp_path / "hall.db", FakeClock()
    hall = make_hall(db, clock)
    room_id = _pair(hall, turn_s=60.0, rejoin_grace=5, target=50)
    hall.room(room_id).act("alice", Add(1))
    hall.logout(hall._users["bob"], dropped=True)
    clock.advance(6)  # taken over by a bot
    clock2 = FakeClock(clock.now())
    hall2 = make_hall(db, clock2)
    hall2.restore()
    room = hall2.room(room_id)
    assert room.member("bob").bot == "heuristic"  # type: ignore[union-attr]
    alice = hall2.login("alice", RecordingListener(), protocol="aah", resume_without_token=True)
    alice.retake(room_id)
    alice.act(room_id, Add(1))
    clock2.advance(1)
    assert room.state.view(None)["total"] == 3  # the bot moved for bob's seat
    assert acts_by_seat(db, room_id)[-1] == 1
    assert {s: r.value for s, r in room.forfeits.items()} == {1: "disconnected"}


def test_bots_do_not_play_on_alone_when_the_last_person_does_not_come_back(tmp_path: Path) -> None:
    db, clock = tmp_path / "hall.db", FakeClock()
    hall = make_hall(db, clock)
    alice = hall.login("alice", RecordingListener(), protocol="aah")
    room_id = alice.create_room("toy", {"seats": 3, "target": 100, "turn_s": 60.0, "rejoin_grace": 5}).room_id
    alice.join(room_id)
    hall.add_bots(room_id, 2)
    alice.logout(dropped=True)  # the bots play on while her seat is held
    clock.advance(6)
    result = result_of(db, room_id)  # released, not taken over, and the room ended
    assert result["termination"] == "aborted" and result["winners"] == []
    assert result["seats"] == {
        "0": {"result": "forfeit", "reason": "disconnected"},
        "1": {"result": "aborted"},
        "2": {"result": "aborted"},
    }


def test_without_bot_takeover_the_seat_forfeits_and_the_other_wins(tmp_path: Path) -> None:
    db, clock = tmp_path / "hall.db", FakeClock()
    hall = make_hall(db, clock, tournament=True)  # tournament mode: no bot takeover
    room_id = _pair(hall, turn_s=60.0, rejoin_grace=20)
    hall.logout(hall._users["bob"], dropped=True)
    clock.advance(21)
    result = result_of(db, room_id)
    # the toy aborts with one player left; the seat that did not come back forfeited
    assert result["winners"] == [] and result["termination"] == "aborted"
    assert result["seats"] == {
        "0": {"result": "aborted"},
        "1": {"result": "forfeit", "reason": "disconnected"},
    }


def test_a_deliberate_leave_is_left_and_a_kick_is_not(tmp_path: Path) -> None:
    db, clock = tmp_path / "hall.db", FakeClock()
    hall = make_hall(db, clock)
    alice = hall.login("alice", RecordingListener(), protocol="aah")
    names = [hall.login(n, RecordingListener(), protocol="aah") for n in ("bob", "carol", "dave")]
    room_id = alice.create_room("toy", {"seats": 4, "target": 5, "turn_s": 60.0}).room_id
    alice.join(room_id)
    for session in names:
        session.join(room_id)
    names[0].leave(room_id)
    alice.kick(room_id, 2)
    alice.act(room_id, Add(3))
    names[2].act(room_id, Add(3))
    result = result_of(db, room_id)
    assert result["winners"] == [3]
    assert result["seats"]["1"] == {"result": "forfeit", "reason": "left"}
    assert result["seats"]["2"] == {"result": "forfeit", "reason": "process_violation"}


def test_nobody_wins_when_nobody_comes_back_after_a_crash(tmp_path: Path) -> None:
    """The Mr. Jack case of issue 9: a two-seat game whose players never return after a
    restart, in a room without bot takeover, ends with no winner (not as a win by "left")."""
    db, clock = tmp_path / "hall.db", FakeClock()
    hall = make_hall(db, clock, tournament=True)
    room_id = _pair(hall, turn_s=60.0, rejoin_grace=0, seats=3)
    hall.login("carol", RecordingListener(), protocol="aah").join(room_id)
    clock2 = FakeClock(clock.now())
    hall2 = make_hall(db, clock2, tournament=True)
    hall2.restore()
    clock2.advance(61)
    result = result_of(db, room_id)
    assert result["winners"] == []
    assert {end["result"] for end in result["seats"].values()} <= {"forfeit", "aborted"}


# ------------------------------------------------------------------------------ ownership


def test_a_held_seat_is_retaken_only_over_its_owners_protocol(tmp_path: Path) -> None:
    db, clock = tmp_path / "hall.db", FakeClock()
    hall = make_hall(db, clock)
    alice = hall.login("alice", RecordingListener(), protocol="web")
    bob = hall.login("bob", RecordingListener(), protocol="cg")
    room_id = alice.create_room("toy", {"turn_s": 60.0}).room_id
    alice.join(room_id)
    bob.join(room_id)
    token = alice.token
    alice.logout(dropped=True)
    with pytest.raises(HallError) as err:  # a cg login with the browser player's name
        hall.login("alice", RecordingListener(), protocol="cg", resume_without_token=True)
    assert err.value.code == "name_in_use"
    with pytest.raises(HallError):  # nor the browser without the token
        hall.login("alice", RecordingListener(), protocol="web")
    assert hall.room(room_id).member("alice").status is SeatStatus.AWAY  # type: ignore[union-attr]
    # the same holds after a restart: the owner's protocol is in the room's meta
    clock2 = FakeClock(clock.now())
    hall2 = make_hall(db, clock2)
    hall2.restore()
    with pytest.raises(HallError):
        hall2.login("alice", RecordingListener(), protocol="cg", resume_without_token=True)
    with pytest.raises(HallError):
        hall2.login("bob", RecordingListener(), protocol="web", resume_without_token=True)
    lb = RecordingListener()
    bob2 = hall2.login("bob", lb, protocol="cg", resume_without_token=True)
    alice2 = hall2.login("alice", RecordingListener(), protocol="web", token=token)
    assert [(h.room_id, h.seat, h.away) for h in bob2.held_seats("toy")] == [(room_id, 1, True)]
    assert bob2.held_seats("aah") == []
    retaken = bob2.retake(room_id)
    assert retaken.seat == 1 and bob2.held_seats()[0].away is False
    assert [d.seq > retaken.since for _, d in lb.deliveries] == [True] and lb.events(Secret)
    assert alice2.retake(room_id).seat == 0


def test_retake_refuses_a_room_where_no_seat_is_held(tmp_path: Path) -> None:
    hall = make_hall(tmp_path / "hall.db", FakeClock())
    room_id = _pair(hall, turn_s=60.0)
    carol = hall.login("carol", RecordingListener(), protocol="aah")
    with pytest.raises(HallError) as err:
        carol.retake(room_id)
    assert err.value.code == "not_in_room"


def _pair(hall: Hall, **settings: object) -> str:
    alice = hall.login("alice", RecordingListener(), protocol="aah")
    bob = hall.login("bob", RecordingListener(), protocol="aah")
    room_id = alice.create_room("toy", dict(settings)).room_id
    alice.join(room_id)
    bob.join(room_id)
    return room_id


# ------------------------------------------------------------------------------ real games


SEATS = {"aah": 3, "doppelkopf": 4, "ursuppe": 3, "mrjack": 2, "words": 2}


@pytest.mark.parametrize("game", sorted(SEATS))
def test_a_crash_nobody_returns_from_is_never_recorded_as_a_win(game: str, tmp_path: Path) -> None:
    """Issue 9's table: Mr. Jack ended at once as a win, Ursuppe recorded "normal" with a
    winner, words "aborted" with winners [0]. Without bot takeover (tournament mode) and with
    nobody coming back after a restart, every game ends with no winner."""
    from gamehall.games import game_types

    db, clock = tmp_path / "hall.db", FakeClock()
    games = {game: game_types()[game]}
    hall = turn_by_turn_hall(
        games=games, store=SqliteStore(db), clock=clock, wall_time=clock.now, tournament=True
    )
    sessions = [hall.login(f"p{i}", RecordingListener(), protocol="test") for i in range(SEATS[game])]
    room_id = sessions[0].create_room(game, {"autostart_delay": 1} if game == "aah" else {}).room_id
    for session in sessions:
        session.join(room_id)
    if not hall.room(room_id).state.started:
        try:
            sessions[0].start(room_id)
        except Exception:  # a game that starts on its own timer
            clock.advance(2)
    assert hall.room(room_id).state.started
    clock2 = FakeClock(clock.now() + 1)
    hall2 = turn_by_turn_hall(
        games=games, store=SqliteStore(db), clock=clock2, wall_time=clock2.now, tournament=True
    )
    assert hall2.restore() == 1
    assert len(hall2.rooms()) == 1  # a restart is not a drop: the game is still on
    clock2.advance(59)
    assert len(hall2.rooms()) == 1
    for _ in range(200):  # the graces end; a game that plays left seats by default runs out
        if not hall2.rooms():
            break
        clock2.advance(60)
    result = result_of(db, room_id)
    assert result["winners"] == [], result
    assert all(end["result"] != "normal" for end in result["seats"].values()), result


def test_the_operator_turns_bot_takeover_off_for_a_room(tmp_path: Path) -> None:
    db, clock = tmp_path / "hall.db", FakeClock()
    hall = make_hall(db, clock)
    sessions = [hall.login(n, RecordingListener(), protocol="aah") for n in ("alice", "bob", "carol")]
    settings = {"seats": 3, "target": 50, "turn_s": 60.0, "rejoin_grace": 5, "bot_takeover": False}
    room_id = sessions[0].create_room("toy", settings).room_id
    for session in sessions:
        session.join(room_id)
    sessions[1].logout(dropped=True)
    clock.advance(6)
    room = hall.room(room_id)
    assert room.member("bob") is None and room.forfeits == {1: room.forfeits[1]}  # released
    with pytest.raises(HallError) as err:
        sessions[0].create_room("toy", {"bot_takeover": "yes"})
    assert err.value.code == "config"


@pytest.mark.parametrize("game", ["aah", "mrjack", "ursuppe", "words"])
def test_after_a_restart_the_player_who_returns_finishes_against_bots_taking_over(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real game: after the restart one player comes back; the seats of those who do not
    are taken over by bots when their hold ends, and the game is played to its normal end."""
    from gamehall.games import game_types

    monkeypatch.undo()  # the real games' own bot policies
    db, clock = tmp_path / "hall.db", FakeClock()
    games = {game: game_types()[game]}

    def hall_on(clock: FakeClock) -> Hall:
        return turn_by_turn_hall(
            games=games,
            store=SqliteStore(db),
            clock=clock,
            wall_time=clock.now,
            bot_seater=hall_bots.add_bots,
            bot_driver=hall_bots.drive_seat,
        )

    hall = hall_on(clock)
    sessions = [hall.login(f"p{i}", RecordingListener(), protocol="test") for i in range(SEATS[game])]
    room_id = sessions[0].create_room(game, {"autostart_delay": 1} if game == "aah" else {}).room_id
    for session in sessions:
        session.join(room_id)
    if not hall.room(room_id).state.started:
        try:
            sessions[0].start(room_id)
        except Exception:  # a game that starts on its own timer
            clock.advance(2)
    clock2 = FakeClock(clock.now() + 3)
    hall2 = hall_on(clock2)
    hall2.restore()
    me = hall2.login("p0", RecordingListener(), protocol="test", resume_without_token=True)
    seat = me.retake(room_id).seat
    room = hall2.room(room_id)
    policy, rng = hall_bots.make_policy(game, "heuristic"), random.Random(3)
    for _ in range(20_000):
        if room.closed:
            break
        if seat in room.state.to_move().seats:
            action = policy.decide(room.state.view(seat), seat, rng)
            if action is not None:
                me.act(room_id, action)
        clock2.advance(0.5)
    result = result_of(db, room_id)
    assert result["termination"] == "normal", result
    assert result["seats"]["0"] == {"result": "normal"}
    others = {end["reason"] for s, end in result["seats"].items() if s != "0"}
    assert others == {"disconnected"}
    assert set(result["winners"]) <= {0}  # only the seat that played to the end may win


def test_new_bots_never_take_the_name_of_a_bot_seated_again_after_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, clock = tmp_path / "hall.db", FakeClock()
    hall = make_hall(db, clock)
    alice = hall.login("alice", RecordingListener(), protocol="aah")
    room_id = alice.create_room("toy", {"seats": 2, "turn_s": 60.0}).room_id
    alice.join(room_id)
    (old_bot,) = hall.add_bots(room_id, 1)
    hall2 = make_hall(db, FakeClock(clock.now()))  # a new process counts bot names from 1 again:
    monkeypatch.setattr(hall_bots, "_names", itertools.count(int(old_bot.removeprefix("Bot"))))
    hall2.restore()
    assert not hall2.name_free(old_bot)
    carol = hall2.login("carol", RecordingListener(), protocol="aah")
    other = carol.create_room("toy", {"seats": 2}).room_id
    carol.join(other)
    names = hall2.add_bots(other, 1)
    assert old_bot not in names

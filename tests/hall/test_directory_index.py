"""The directory's indexes (rooms per game, seats per name, rooms per placement rule) always
agree with a full scan of every room, whatever sequence of creates, joins, leaves, drops,
timeouts, renames and closes the rooms went through. Seeded random sequences over AAH tables
(the game the legacy placement indexes) and the toy game."""

from __future__ import annotations

import random

import pytest
from recording_listener import RecordingListener
from toy_game import TOY
from turns import turn_by_turn_hall

from gamehall.hall import FakeClock, Hall
from gamehall.hall.room import Room
from gamehall.protocols._core import CloseReason, HallError, RoomInfo, Session
from gamehall.protocols.aah import placement
from gamehall.rules._core import RuleError
from gamehall.rules.aah import GAME_TYPE as AAH
from gamehall.store.memory import MemoryStore

NAMES = ["Ann", "ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def lobby_rule(info: RoomInfo) -> bool:
    """A second rule over the same game: any lobby with a free seat."""
    return not info.started and len(info.seats) < info.max_seats


def full_scan_agrees(hall: Hall) -> None:
    every = hall.directory.rooms(None)
    for game in ("aah", "toy"):
        assert hall.room_count(game) == sum(1 for r in every if r.game_type.game_id == game)
    assert hall.room_count() == len(every)
    for name in {n.casefold() for n in NAMES} | {"renamed"}:
        scanned = [r.room_id for r in every if any(s.casefold() == name for s in r.info().seats.values())]
        assert [room.room_id for room in hall.directory.seated(name)] == scanned
        assert [info.room_id for info in hall.seats_of(name.upper())] == scanned
    for rule in (placement.is_open, lobby_rule):
        scanned_open = sorted(
            (r.info() for r in every if r.game_type.game_id == "aah" and rule(r.info())),
            key=lambda info: info.created_seq,
        )
        expected = [i.room_id for i in scanned_open]
        assert [room.room_id for room in hall.directory.matching("aah", rule)] == expected
        assert [i.room_id for i in hall.rooms_matching("aah", rule)] == expected


def random_step(rng: random.Random, hall: Hall, clock: FakeClock, sessions: dict[str, Session]) -> None:
    rooms: list[Room] = hall.directory.rooms(None)
    name = rng.choice(NAMES)
    session = sessions.get(name.lower())
    roll = rng.random()
    try:
        if session is None or roll < 0.08:
            if session is None:
                sessions[name.lower()] = hall.login(name, RecordingListener(), protocol="test")
        elif roll < 0.2:
            game = rng.choice(["aah", "aah", "toy"])
            settings = (
                {"playermax": rng.choice([3, 4]), "min_players": 3, "legacy_open": rng.random() < 0.8}
                if game == "aah"
                else {}
            )
            password = "pw" if rng.random() < 0.15 else None
            session.create_room(game, settings, password=password)
        elif roll < 0.5 and rooms:
            room = rng.choice(rooms)
            session.join(room.room_id, "pw" if room.meta.get("password_hash") else None)
        elif roll < 0.6 and rooms:
            session.leave(rng.choice(rooms).room_id)
        elif roll < 0.7:
            session.logout(dropped=rng.random() < 0.7)
            del sessions[name.lower()]
        elif roll < 0.75 and rooms:
            room = rng.choice(rooms)
            session.rename(room.room_id, "renamed" if rng.random() < 0.5 else name.swapcase())
        elif roll < 0.8 and rooms:
            rng.choice(rooms).close(CloseReason.SHUTDOWN, "closed")
        elif roll < 0.9:
            clock.advance(rng.choice([0.5, 3.0, 20.0, 90.0]))
        else:
            placement.place(hall, session)
    except (HallError, RuleError, placement.Refused):
        pass


@pytest.mark.parametrize("seed", range(8))
def test_indexes_agree_with_a_full_scan_after_random_sequences(seed: int) -> None:
    rng = random.Random(seed)
    clock = FakeClock()
    seeds = iter(range(1, 100_000))
    hall = turn_by_turn_hall(
        games={"aah": AAH, "toy": TOY},
        store=MemoryStore(),
        clock=clock,
        defaults={"aah": {"max_tables": 6, "autostart_delay": 2, "rejoin_grace": 5}},
        seed_source=lambda: next(seeds),
    )
    sessions: dict[str, Session] = {}
    for _ in range(250):
        random_step(rng, hall, clock, sessions)
        full_scan_agrees(hall)


def test_the_first_query_of_a_rule_builds_its_index_from_the_rooms_already_there() -> None:
    clock = FakeClock()
    hall = turn_by_turn_hall(
        games={"aah": AAH}, store=MemoryStore(), clock=clock, defaults={"aah": {"max_tables": 9}}
    )
    ann = hall.login("ann", RecordingListener(), protocol="test")
    first = ann.create_room("aah", {"playermax": 3, "min_players": 3})
    ann.join(first.room_id)
    second = ann.create_room("aah", {"playermax": 3, "min_players": 3, "legacy_open": False})

    def late_rule(info: RoomInfo) -> bool:
        return not info.started

    assert [i.room_id for i in hall.rooms_matching("aah", late_rule)] == [first.room_id, second.room_id]
    assert [i.room_id for i in hall.rooms_matching("aah", placement.is_open)] == [first.room_id]
    bob = hall.login("bob", RecordingListener(), protocol="test")
    cy = hall.login("cy", RecordingListener(), protocol="test")
    bob.join(first.room_id)
    cy.join(first.room_id)  # full: no longer open
    assert [i.room_id for i in hall.rooms_matching("aah", placement.is_open)] == []
    assert [i.room_id for i in hall.seats_of("CY")] == [first.room_id]

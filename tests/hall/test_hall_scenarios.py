"""Hall scenarios with a fake clock: rooms, seats, grace, timers, chat, passwords, kick,
numbered events and resume, the room log and crash recovery. The toy game "Race to N"
(tests/support/toy_game.py) stands in for a real game."""

from __future__ import annotations

from pathlib import Path

import pytest
from recording_listener import RecordingListener
from toy_game import TOY, Add, Added, Resign, Secret, Won
from turns import turn_by_turn_hall

from gamehall.hall import FakeClock, Hall
from gamehall.hall.lifecycle import SeatStatus
from gamehall.protocols._core import ChatSaid, CloseReason, HallError, RoomClosed, SpectatorsChanged
from gamehall.rules._core import NotYourTurn, SeatAway, SeatBack, SeatJoined, SeatLeft
from gamehall.store.memory import MemoryStore
from gamehall.store.sqlite import SqliteStore


def make_hall(store: object | None = None, clock: FakeClock | None = None, **defaults: object) -> Hall:
    seeds = iter(range(1, 10_000))
    return turn_by_turn_hall(
        games={"toy": TOY},
        store=store or MemoryStore(),  # type: ignore[arg-type]
        clock=clock or FakeClock(),
        defaults={"toy": dict(defaults)},
        seed_source=lambda: next(seeds),
    )


def seated_pair(hall: Hall, **settings: object):  # type: ignore[no-untyped-def]
    la, lb = RecordingListener(), RecordingListener()
    alice = hall.login("alice", la, protocol="test")
    bob = hall.login("bob", lb, protocol="test")
    room = alice.create_room("toy", dict(settings))
    alice.join(room.room_id)
    bob.join(room.room_id)
    return room.room_id, alice, bob, la, lb


def test_full_table_starts_and_each_seat_sees_only_its_secret() -> None:
    hall = make_hall()
    _room_id, _alice, _bob, la, lb = seated_pair(hall)
    assert [e.seat for e in la.events(Secret)] == [0]
    assert [e.seat for e in lb.events(Secret)] == [1]
    assert la.events(SeatJoined)[-1].name == "bob"


def test_events_are_numbered_without_gaps_per_room() -> None:
    hall = make_hall()
    room_id, alice, bob, la, lb = seated_pair(hall)
    alice.act(room_id, Add(2))
    bob.act(room_id, Add(3))
    seqs = sorted(set(la.seqs()) | set(lb.seqs()))
    assert seqs == list(range(seqs[0], seqs[-1] + 1))


def test_illegal_action_changes_nothing_and_is_not_logged() -> None:
    store = MemoryStore()
    hall = make_hall(store)
    room_id, _alice, bob, _la, _lb = seated_pair(hall)
    before = len(store.load_room(room_id).entries)  # type: ignore[union-attr]
    with pytest.raises(NotYourTurn):
        bob.act(room_id, Add(1))
    assert len(store.load_room(room_id).entries) == before  # type: ignore[union-attr]
    assert hall.room(room_id).state.view(None)["total"] == 0


def test_action_is_in_the_log_before_anyone_receives_it() -> None:
    store = MemoryStore()
    hall = make_hall(store)
    seen_in_log: list[int] = []

    class Checker(RecordingListener):
        def deliver(self, room_id, delivery):  # type: ignore[no-untyped-def]
            if isinstance(delivery.event, Added):
                entries = store.load_room(room_id).entries  # type: ignore[union-attr]
                seen_in_log.append(sum(1 for e in entries if e.kind == "act"))
            super().deliver(room_id, delivery)

    alice = hall.login("alice", Checker(), protocol="test")
    bob = hall.login("bob", RecordingListener(), protocol="test")
    room_id = alice.create_room("toy").room_id
    alice.join(room_id)
    bob.join(room_id)
    alice.act(room_id, Add(1))
    assert seen_in_log == [1]


def test_turn_timer_applies_the_default_move() -> None:
    clock = FakeClock()
    hall = make_hall(clock=clock)
    _room_id, _alice, _bob, la, _lb = seated_pair(hall, turn_s=5.0)
    clock.advance(4.9)
    assert la.events(Added) == []
    clock.advance(0.2)
    assert [(e.seat, e.amount) for e in la.events(Added)] == [(0, 1)]


def test_drop_holds_the_seat_and_grace_expiry_releases_it() -> None:
    clock = FakeClock()
    hall = make_hall(clock=clock)
    room_id, _alice, bob, la, _lb = seated_pair(hall, rejoin_grace=60, seats=3, turn_s=60.0, target=100)
    carol = hall.login("carol", RecordingListener(), protocol="test")
    carol.join(room_id)
    bob.logout(dropped=True)
    assert [e.name for e in la.events(SeatAway)] == ["bob"]
    assert hall.room(room_id).member("bob").status is SeatStatus.AWAY  # type: ignore[union-attr]
    clock.advance(59)
    assert la.events(SeatLeft) == []
    clock.advance(2)
    assert [e.name for e in la.events(SeatLeft)] == ["bob"]


def test_reconnect_within_grace_takes_the_held_seat_back_and_resumes_events() -> None:
    clock = FakeClock()
    hall = make_hall(clock=clock)
    room_id, alice, bob, la, lb = seated_pair(hall, rejoin_grace=60, seats=3, turn_s=60.0, target=100)
    carol = hall.login("carol", RecordingListener(), protocol="test")
    carol.join(room_id)
    last_seen = lb.seqs()[-1]
    token = bob.token
    bob.logout(dropped=True)
    alice.act(room_id, Add(2))
    clock.advance(10)
    with pytest.raises(HallError) as err:
        hall.login("bob", RecordingListener(), protocol="test")  # no token: not bob
    assert err.value.code == "name_in_use"
    lb2 = RecordingListener()
    bob2 = hall.login("bob", lb2, protocol="test", token=token)
    assert bob2.join(room_id) == 1
    missed = hall.room(room_id).deliveries_since(last_seen, 1)
    assert any(isinstance(d.event, Added) for d in missed)
    assert [e.name for e in la.events(SeatBack)] == ["bob"]
    clock.advance(120)
    assert la.events(SeatLeft) == []


def test_drop_in_the_lobby_releases_at_once() -> None:
    hall = make_hall()
    la = RecordingListener()
    alice = hall.login("alice", la, protocol="test")
    room_id = alice.create_room("toy", {"seats": 3}).room_id
    alice.join(room_id)
    bob = hall.login("bob", RecordingListener(), protocol="test")
    bob.join(room_id)
    bob.logout(dropped=True)
    assert [e.name for e in la.events(SeatLeft)] == ["bob"]
    assert hall.room(room_id).info().seats == {0: "alice"}


def test_password_spectators_and_chat() -> None:
    hall = make_hall()
    la, ls = RecordingListener(), RecordingListener()
    alice = hall.login("alice", la, protocol="test")
    room_id = alice.create_room("toy", password="s3cret").room_id
    alice.join(room_id, "s3cret")
    sam = hall.login("sam", ls, protocol="test")
    with pytest.raises(HallError) as err:
        sam.spectate(room_id, "wrong")
    assert err.value.code == "wrong_password"
    sam.spectate(room_id, "s3cret")
    assert la.events(SpectatorsChanged)[-1].names == ("sam",)
    sam.chat(room_id, "hello")
    assert [(e.sender, e.text) for e in la.events(ChatSaid)] == [("sam", "hello")]
    info = hall.rooms("toy")[0]
    assert info.has_password and info.spectators == ("sam",)
    assert "s3cret" not in repr(hall.room(room_id).meta)


def test_spectator_never_sees_seat_secrets() -> None:
    hall = make_hall()
    ls = RecordingListener()
    sam = hall.login("sam", ls, protocol="test")
    alice = hall.login("alice", RecordingListener(), protocol="test")
    bob = hall.login("bob", RecordingListener(), protocol="test")
    room_id = alice.create_room("toy").room_id
    sam.spectate(room_id)
    alice.join(room_id)
    bob.join(room_id)
    assert ls.events(Secret) == []
    assert ls.events(SeatJoined)


def test_chat_rate_limit_and_private_messages() -> None:
    clock = FakeClock()
    hall = make_hall(clock=clock)
    room_id, alice, bob, la, lb = seated_pair(hall)
    for i in range(5):
        alice.chat(room_id, f"line {i}")
    with pytest.raises(HallError) as err:
        alice.chat(room_id, "too much")
    assert err.value.code == "rate_limited"
    clock.advance(10.1)
    alice.chat(room_id, "again")
    bob.whisper("alice", "psst")
    assert [e.text for e in la.hall_events] == ["psst"]
    assert lb.hall_events[-1].scope == "private"


def test_only_the_operator_kicks() -> None:
    hall = make_hall()
    room_id, alice, bob, la, lb = seated_pair(hall, seats=3)
    with pytest.raises(HallError) as err:
        bob.kick(room_id, 0)
    assert err.value.code == "not_operator"
    alice.kick(room_id, 1)
    assert lb.ended_calls == [(room_id, CloseReason.KICKED, "Kicked by an administrator.")]
    assert [e.name for e in la.events(SeatLeft)] == ["bob"]


def test_game_over_closes_the_room_and_records_the_result() -> None:
    store = MemoryStore()
    hall = make_hall(store)
    room_id, alice, _bob, la, _lb = seated_pair(hall, target=3)
    alice.act(room_id, Add(3))
    assert la.events(Won)[0].seat == 0
    assert isinstance(la.events()[-1], RoomClosed)
    assert la.ended_calls[0][1] is CloseReason.GAME_OVER
    assert hall.rooms() == []
    record = store.load_room(room_id)
    assert record is not None and record.result["winners"] == [0]  # type: ignore[index]


def test_second_login_with_token_replaces_the_old_connection() -> None:
    hall = make_hall()
    la = RecordingListener()
    alice = hall.login("alice", la, protocol="test")
    la2 = RecordingListener()
    hall.login("alice", la2, protocol="test", token=alice.token)
    assert la.disconnects and la.disconnects[0][0] is CloseReason.REPLACED
    alice.logout(dropped=True)  # the old connection's late logout must not touch the new one
    assert hall.user_online("alice")


def test_bad_settings_are_refused() -> None:
    hall = make_hall()
    alice = hall.login("alice", RecordingListener(), protocol="test")
    with pytest.raises(HallError) as err:
        alice.create_room("toy", {"seats": 9})
    assert err.value.code == "config"
    with pytest.raises(HallError):
        alice.create_room("toy", {"nonsense": 1})


@pytest.mark.parametrize("name", ["", " bob", "a" * 33, "tab\there"])
def test_bad_names_are_refused(name: str) -> None:
    with pytest.raises(HallError) as err:
        make_hall().login(name, RecordingListener(), protocol="test")
    assert err.value.code == "name_invalid"


def test_crash_recovery_rebuilds_the_room_at_the_same_state(tmp_path: Path) -> None:
    db = tmp_path / "hall.db"
    clock = FakeClock()
    hall = make_hall(
        SqliteStore(db),
        clock,
    )
    room_id, alice, bob, _la, _lb = seated_pair(hall, seats=2, target=50)
    alice.act(room_id, Add(3))
    bob.act(room_id, Add(2))
    clock.advance(5.1)  # alice times out: +1
    before = hall.room(room_id).state.view(0)
    before_secret_of_bob = hall.room(room_id).state.view(1)["secret"]
    token, alice_token = bob.token, alice.token
    # the process dies here: no shutdown, the store is simply reopened
    clock2 = FakeClock()
    hall2 = make_hall(SqliteStore(db), clock2)
    assert hall2.restore() == 1
    room = hall2.room(room_id)
    assert room.state.view(0) == before  # a restart is not a drop: the game is as it was
    assert room.member("bob").status is SeatStatus.AWAY  # type: ignore[union-attr]
    lb2 = RecordingListener()
    bob2 = hall2.login("bob", lb2, protocol="test", token=token)
    assert bob2.join(room_id) == 1
    assert room.member("bob").status is SeatStatus.PLAYING  # type: ignore[union-attr]
    assert [e.number for e in lb2.events(Secret)] == [before_secret_of_bob]  # resynced, seat only
    alice2 = hall2.login("alice", RecordingListener(), protocol="test", token=alice_token)
    alice2.join(room_id)
    bob2.act(room_id, Add(1))  # it was bob's turn when the process died
    assert room.state.view(None)["total"] == 7


def test_after_a_restart_a_seat_nobody_reclaims_is_released_when_the_grace_ends(tmp_path: Path) -> None:
    db = tmp_path / "hall.db"
    hall = make_hall(SqliteStore(db))
    room_id, *_ = seated_pair(hall, seats=2, target=50, turn_s=60.0, rejoin_grace=30)
    clock2 = FakeClock()
    hall2 = make_hall(SqliteStore(db), clock2)
    hall2.restore()
    clock2.advance(59)  # a restart holds seats at least 60 s, even where the grace is shorter
    assert len(hall2.rooms()) == 1
    clock2.advance(2)
    assert hall2.rooms() == []  # both seats released: too few players, the room ended
    record = SqliteStore(db).load_room(room_id)
    assert record is not None and record.finished_at is not None
    # nobody came back: nobody won; the seat whose release ended the game forfeited
    assert record.result["termination"] == "aborted" and record.result["winners"] == []
    assert record.result["seats"]["0"] == {"result": "forfeit", "reason": "disconnected"}


def test_a_seat_the_game_releases_on_its_own_stops_being_a_member() -> None:
    hall = make_hall()
    room_id, _alice, bob, _la, lb = seated_pair(hall, seats=3, turn_s=60.0, target=100)
    carol = hall.login("carol", RecordingListener(), protocol="test")
    carol.join(room_id)
    bob.act(room_id, Resign())  # the engine releases bob's seat itself, as AAH does with a kick
    assert hall.room(room_id).member("bob") is None
    assert lb.ended_calls == [(room_id, CloseReason.INACTIVE, "Disconnected due to inactivity.")]


def test_a_lobby_room_everybody_left_closes() -> None:
    store = MemoryStore()
    hall = make_hall(store)
    la = RecordingListener()
    alice = hall.login("alice", la, protocol="test")
    room_id = alice.create_room("toy", {"seats": 3}).room_id
    alice.join(room_id)
    alice.leave(room_id)
    assert hall.rooms() == []
    assert store.load_room(room_id).result == {"termination": "abandoned"}  # type: ignore[union-attr]


def test_in_process_bots_take_seats_in_a_passworded_room(monkeypatch: pytest.MonkeyPatch) -> None:
    from gamehall.bots import hall_bots

    hall = make_hall()
    alice = hall.login("alice", RecordingListener(), protocol="test")
    room_id = alice.create_room("toy", {"seats": 2}, password="pw").room_id
    alice.join(room_id, "pw")
    monkeypatch.setattr(hall_bots, "make_policy", lambda game, name: object())  # the toy has no bots
    names = hall_bots.add_bots(hall, room_id, 1)
    assert list(hall.room(room_id).info().seats.values()) == ["alice", names[0]]


def test_view_watchers_hear_of_every_input_even_one_they_may_not_see() -> None:
    class Watcher(RecordingListener):
        def __init__(self) -> None:
            super().__init__()
            self.changes: list[int] = []

        def room_changed(self, room_id: str, seq: int) -> None:
            self.changes.append(seq)

    hall = make_hall()
    watcher = Watcher()
    sam = hall.login("sam", watcher, protocol="test")
    alice = hall.login("alice", RecordingListener(), protocol="test")
    bob = hall.login("bob", RecordingListener(), protocol="test")
    room_id = alice.create_room("toy").room_id
    sam.spectate(room_id)
    alice.join(room_id)
    bob.join(room_id)  # the table fills and starts: the secrets go to the seats alone
    assert watcher.events(Secret) == []
    assert watcher.changes and watcher.changes[-1] == hall.room(room_id).last_seq


def test_a_room_without_a_title_takes_the_games_default_title_for_its_config() -> None:
    import dataclasses

    titled = dataclasses.replace(TOY, default_title=lambda config: f"Race to {config['target']}")
    hall = turn_by_turn_hall(
        games={"toy": titled},
        store=MemoryStore(),
        clock=FakeClock(),
        defaults={"toy": {}},
        seed_source=lambda: 1,
    )
    alice = hall.login("alice", RecordingListener(), protocol="test")
    untitled = alice.create_room("toy", {"target": 7})
    named = alice.create_room("toy", {"target": 7}, title="Friday race")
    assert untitled.title == "Race to 7"
    assert named.title == "Friday race"
    plain = make_hall().login("bob", RecordingListener(), protocol="test").create_room("toy")
    assert plain.title == TOY.title

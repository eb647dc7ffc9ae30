"""The hall's side of the shared room directory (gamehall.hall.shared_rooms), without Redis:
the lobby view survives JSON, the copy of the other nodes' rooms keeps its indexes, the hall
merges it into every lobby query in creation order and tells its watchers, publishes its own
rooms' changes once per turn, and on one node makes the same ids and order as ever."""

from __future__ import annotations

import re
from collections.abc import Mapping

import orjson
import pytest
from recording_listener import RecordingListener
from shared_rooms_fake import FakeSharedRooms, elsewhere
from toy_game import TOY

from gamehall.hall import FakeClock, Hall
from gamehall.hall.shared_rooms import RemoteRooms, info_from_json, info_to_json
from gamehall.protocols._core import HallError, RoomInfo
from gamehall.rules._core import JSON
from gamehall.store.memory import MemoryStore


def open_seat(info: RoomInfo) -> bool:
    return len(info.seats) < info.max_seats


class Watcher:
    def __init__(self) -> None:
        self.pushes: list[tuple[str, str]] = []

    def lobby_changed(self, change: str, info: RoomInfo) -> None:
        self.pushes.append((change, info.room_id))

    def preparing_changed(self, state: Mapping[str, JSON] | None) -> None:
        pass


def node_hall(shared: FakeSharedRooms, wall: float = 1_800_000_000.0) -> tuple[Hall, FakeClock]:
    clock = FakeClock()
    hall = Hall(
        games={"toy": TOY}, store=MemoryStore(), clock=clock, shared_rooms=shared, wall_time=lambda: wall
    )
    return hall, clock


def test_a_lobby_view_survives_json_with_its_seat_numbers() -> None:
    info = RoomInfo(
        room_id="toy-a-1", game="toy", title="T", config={"seats": 3, "x": [1, "y"]},
        seats={0: "ann", 2: "bob"},
        away=frozenset({2}), spectators=("eve",), has_password=True, operator="ann", started=True,
        finished=False, max_seats=3, created_seq=1_800_000_000_000_001, extra={"legacy_open": False},
    )  # fmt: skip
    assert info_from_json(orjson.loads(orjson.dumps(info_to_json(info)))) == info


def test_the_copy_indexes_by_game_name_and_rule_and_forgets_a_node() -> None:
    remote = RemoteRooms()
    told: list[tuple[str, str]] = []
    remote.on_change = lambda change, info: told.append((change, info.room_id))
    remote.put("a", elsewhere("toy-a-2", "toy", seats={0: "Ann"}, created_seq=20))
    remote.put("b", elsewhere("toy-b-1", "toy", seats={0: "bob", 1: "ann"}, created_seq=10))
    remote.put("b", elsewhere("other-b-1", "other", created_seq=5))
    assert [i.room_id for i in remote.rooms(None)] == ["other-b-1", "toy-b-1", "toy-a-2"]
    assert [i.room_id for i in remote.seated("ANN")] == ["toy-b-1", "toy-a-2"]
    assert [i.room_id for i in remote.matching("toy", open_seat)] == ["toy-a-2"]
    assert remote.count("toy") == 2 and remote.count(None) == 3
    remote.put("a", elsewhere("toy-a-2", "toy", seats={0: "Ann", 1: "cy"}, created_seq=20))
    assert list(remote.matching("toy", open_seat)) == [] and [i.room_id for i in remote.seated("cy")] == [
        "toy-a-2"
    ]
    remote.remove("toy-b-1", "a")  # not a's: stays
    assert remote.get("toy-b-1") is not None
    assert sorted(remote.drop_node("b")) == ["other-b-1", "toy-b-1"]
    assert [i.room_id for i in remote.rooms(None)] == ["toy-a-2"] and remote.seated("bob") == []
    assert told == [
        ("created", "toy-a-2"), ("created", "toy-b-1"), ("created", "other-b-1"), ("changed", "toy-a-2"),
        ("closed", "toy-b-1"), ("closed", "other-b-1"),
    ]  # fmt: skip


def test_every_lobby_query_of_a_node_includes_the_other_nodes_rooms_in_creation_order() -> None:
    shared = FakeSharedRooms()
    hall, clock = node_hall(shared)
    watcher = Watcher()
    hall.watch_lobby(watcher)
    older = elsewhere("toy-far-1", "toy", seats={0: "zed"}, created_seq=1)
    newer = elsewhere("toy-far-2", "toy", seats={0: "ann", 1: "yan"}, created_seq=10**18)
    shared.remote.put("far", older)
    ann = hall.login("ann", RecordingListener(), protocol="test")
    shared.remote.put("far", newer)  # ann online here: another node's table seats her too
    mine = ann.create_room("toy").room_id
    ann.join(mine)
    assert re.fullmatch(r"toy-here-[0-9a-f]{8}", mine)
    clock.run_due()
    assert [i.room_id for i in hall.rooms()] == ["toy-far-1", mine, "toy-far-2"]
    assert [i.room_id for i in hall.rooms_matching("toy", open_seat)] == ["toy-far-1", mine]
    assert [i.room_id for i in hall.seats_of("ANN")] == [mine, "toy-far-2"]
    assert hall.room_count("toy") == 3
    assert hall.room_info("toy-far-1") == older and hall.room_info("toy-nowhere") is None
    assert watcher.pushes == [("created", mine), ("created", "toy-far-1"), ("created", "toy-far-2")]
    shared.remote.remove("toy-far-1", "far")
    clock.run_due()
    assert watcher.pushes[-1] == ("closed", "toy-far-1") and hall.room_count() == 2


def test_a_name_seated_at_a_room_of_a_dead_node_waits_for_the_adoption() -> None:
    """Nobody holds zed's name (their node died and its names went), but the lobby still
    lists the dead node's running room with zed seated: until a node adopts it and holds the
    name for zed, a login as zed is refused with the held wording, not given a fresh user."""
    shared = FakeSharedRooms()
    hall, _clock = node_hall(shared)
    shared.remote.put("dead", elsewhere("toy-dead-1", "toy", seats={0: "zed"}, created_seq=1))
    with pytest.raises(HallError) as error:
        hall.login("Zed", RecordingListener(), protocol="test")
    assert error.value.code == "name_in_use" and error.value.detail.get("held") is True
    shared.remote.remove("toy-dead-1", "dead")  # adopted (or finished) elsewhere
    assert hall.login("Zed", RecordingListener(), protocol="test").name == "Zed"


def test_the_running_rooms_of_a_dead_node_hold_their_names_until_adopted() -> None:
    """A node found dead: its rooms leave the lobby at once, but its running room waits
    aside, and its player's name with it, until a node adopts it (publishes it again)."""
    shared = FakeSharedRooms()
    hall, _clock = node_hall(shared)
    running = elsewhere("toy-dead-2", "toy", seats={0: "yul"}, created_seq=2)
    shared.remote.put("dead", running)
    assert shared.remote.drop_node("dead") == ["toy-dead-2"]
    assert hall.rooms() == []
    with pytest.raises(HallError) as error:
        hall.login("yul", RecordingListener(), protocol="test")
    assert error.value.detail.get("held") is True
    shared.remote.put("heir", running)  # adopted
    shared.remote.remove("toy-dead-2", "heir")  # and finished there
    assert hall.login("yul", RecordingListener(), protocol="test").name == "yul"


def test_a_node_publishes_its_rooms_once_per_turn_and_adopting_one_takes_it_out_of_the_copy() -> None:
    shared = FakeSharedRooms()
    hall, clock = node_hall(shared)
    watcher = Watcher()
    hall.watch_lobby(watcher)
    ann = hall.login("ann", RecordingListener(), protocol="test")
    room_id = ann.create_room("toy").room_id
    ann.join(room_id)
    clock.run_due()
    assert len(shared.published) == 1  # created and joined in one turn: one publication
    [(published_id, info)] = shared.published[0]
    assert published_id == room_id and info is not None and dict(info.seats) == {0: "ann"}
    ann.leave(room_id)  # the last seat before the start: the room closes
    clock.run_due()
    assert shared.published[-1] == [(room_id, None)]
    shared.remote.put("gone", elsewhere(room_id, "toy"))  # a late word from a node it moved from
    assert hall.room_info(room_id) is not None  # another node's now, as far as we know
    record = hall.store.load_room(room_id)
    assert record is not None
    hall.add_restored_room(record)  # adopted here: listed once, as this node's
    assert shared.remote.get(room_id) is None and [i.room_id for i in hall.rooms()] == [room_id]
    clock.run_due()
    assert watcher.pushes[-2:] == [("created", room_id), ("created", room_id)]  # far, then here
    shared.remote.put("gone", elsewhere(room_id, "toy"))  # ignored while the room lives here
    assert shared.remote.get(room_id) is None


def test_one_node_keeps_its_ids_and_counts_its_creation_order() -> None:
    hall = Hall(games={"toy": TOY}, store=MemoryStore(), clock=FakeClock())
    ann = hall.login("ann", RecordingListener(), protocol="test")
    first, second = ann.create_room("toy"), ann.create_room("toy")
    assert re.fullmatch(r"toy-[0-9a-f]{8}", first.room_id)
    assert (first.created_seq, second.created_seq) == (1, 2)
    assert hall.remote is None and hall.lobby.publish is None

"""JDuplicate on a node of several (docs/scale-out.md, "One hall"): a ``words`` room another
node holds is listed in the hall but not among this server's games (its board is not here to
show or join); this node's browser tables are listed as ever beside it."""

from __future__ import annotations

from jduplicate_dialogue_support import JdHarness
from recording_listener import RecordingListener
from shared_rooms_fake import FakeSharedRooms, elsewhere

from gamehall.hall import Hall
from gamehall.protocols.jduplicate.lobby import JdServices
from gamehall.store.memory import MemoryStore


def test_the_game_list_leaves_out_another_nodes_room() -> None:
    harness = JdHarness()
    shared = FakeSharedRooms()
    harness.hall = Hall(
        games=harness.hall.game_types, store=MemoryStore(), clock=harness.clock, shared_rooms=shared
    )
    harness.services = JdServices.for_hall(harness.hall, harness.clock)
    shared.remote.put("far", elsewhere("words-far-1", "words", seats={0: "zed"}, title="Far table"))
    web = harness.hall.login("wendy", RecordingListener(), protocol="web")
    web.join(web.create_room("words", {"preset": "DupEN"}, title="Near table").room_id)
    ams = harness.connect("ams")
    ams.login()
    listed = next(line for line in ams.take() if line.startswith("SERVERGAMELIST|"))
    assert "Near table" in listed and "Far table" not in listed and "words-far-1" not in listed
    assert harness.hall.rooms("words")[0].room_id == "words-far-1"

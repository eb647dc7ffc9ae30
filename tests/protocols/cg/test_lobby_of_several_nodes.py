"""cg on a node of several (docs/scale-out.md, "One hall"): a browser Doppelkopf table another
node holds is listed in the hall, but a cg client is offered (invited to) only the tables of
this node, whose game it can sit at; its login goes on as ever beside the far table."""

from __future__ import annotations

from cg_support import CgHarness
from recording_listener import RecordingListener
from shared_rooms_fake import FakeSharedRooms, elsewhere

from gamehall.hall import Hall
from gamehall.store.memory import MemoryStore


def test_a_cg_login_is_offered_this_nodes_browser_table_not_another_nodes() -> None:
    harness = CgHarness()
    shared = FakeSharedRooms()
    harness.hall = Hall(
        games=harness.hall.game_types, store=MemoryStore(), clock=harness.clock, shared_rooms=shared
    )
    far = elsewhere(
        "doppelkopf-far-1", "doppelkopf", seats={0: "webby"}, max_seats=4, extra={"origin": "web"}
    )
    shared.remote.put("far", far)
    assert invites_at_login(harness, "first") == []

    web = harness.hall.login("near", RecordingListener(), protocol="web")
    room_id = web.create_room("doppelkopf", extra={"origin": "web"}).room_id
    web.join(room_id)
    harness.settle()
    assert invites_at_login(harness, "second") == ["near"]


def invites_at_login(harness: CgHarness, name: str) -> list[str]:
    """Who invites a new cg account right at its login."""
    client = harness.connect(name)
    client.handshake()
    client.send("cg:auth", username=name, pwd="secret", create=True)
    packets = client.take()
    assert [p.body["status"] for p in packets if p.name == "cg:auth"] == ["logged_in"]
    return [p.body["username"] for p in packets if p.name == "cg:lobby.invite"]

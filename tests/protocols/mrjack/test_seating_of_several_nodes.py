"""Mr. Jack seating on a node of several (docs/scale-out.md, "One hall"): a waiting or
running game another node holds is listed in the hall, but ``init(R)`` and
``init(zuschauer)`` only use games whose room is on this node (a listed room elsewhere is
skipped, as one closed meanwhile would be), and the game count includes the whole hall."""

from __future__ import annotations

from mrjack_wire_support import JackHarness
from shared_rooms_fake import FakeSharedRooms, elsewhere

from gamehall.hall import Hall
from gamehall.protocols.mrjack.seating import MrJackServices
from gamehall.store.memory import MemoryStore


def node_harness(**options: int) -> tuple[JackHarness, FakeSharedRooms]:
    harness = JackHarness(**options)
    shared = FakeSharedRooms()
    harness.hall = Hall(
        games=harness.hall.game_types, store=MemoryStore(), clock=harness.clock, shared_rooms=shared
    )
    harness.services = MrJackServices(harness.hall, harness.clock)
    return harness, shared


def test_a_legacy_init_skips_a_waiting_game_of_another_node() -> None:
    h, shared = node_harness()
    shared.remote.put("far", elsewhere("mrjack-far-1", "mrjack", seats={0: "zed"}))
    watcher = h.login("early", "zuschauer")
    assert watcher.take()[-1] == "err('Kein Spiel vorhanden')."  # the far game is not watchable here
    det = h.login("det", "detektiv")
    assert det.take()[-1] == "ok('Du bist detektiv')."
    assert h.games() == 2  # a new table here, beside the far one
    assert h.hall.rooms("mrjack")[0].room_id == "mrjack-far-1"
    later = h.login("later", "zuschauer")
    assert later.take()[-1] == "ok('Du bist zuschauer')."  # this node's game


def test_the_game_limit_counts_the_whole_hall() -> None:
    h, shared = node_harness(max_games=1)
    shared.remote.put("far", elsewhere("mrjack-far-1", "mrjack", seats={0: "zed", 1: "yan"}, started=True))
    det = h.login("det", "detektiv")
    assert det.take()[-1].startswith("err(")
    assert h.games() == 1

"""The UrServer lobby on a node of several (docs/scale-out.md, "One hall"): an Ursuppe room
another node holds is listed by ``LISTE`` from the shared directory, follows its changes, and
is refused as a game this node cannot enter (join and watch: FEHLER 28, STATUS: 27); a game
of this node is played as ever beside it."""

from __future__ import annotations

from shared_rooms_fake import FakeSharedRooms, elsewhere
from urserver_support import UrHarness

from gamehall.hall import Hall
from gamehall.protocols.urserver.texts import fehler_line
from gamehall.store.memory import MemoryStore

CONFIG = {"players": 3, "timeout_ms": 0}


def node_harness() -> tuple[UrHarness, FakeSharedRooms]:
    harness = UrHarness()
    shared = FakeSharedRooms()
    plain = harness.hall
    harness.hall = Hall(
        games=plain.game_types, store=MemoryStore(), clock=harness.clock, shared_rooms=shared,
        defaults={"ursuppe": {"shuffle_deck": False}},
    )  # fmt: skip
    return harness, shared


def test_another_nodes_game_is_listed_and_followed_but_not_entered() -> None:
    harness, shared = node_harness()
    far = elsewhere("ursuppe-far-1", "ursuppe", seats={0: "zed"}, config=CONFIG, max_seats=3, title="farsoup")
    shared.remote.put("far", far)
    client = harness.connect("c")
    assert client.ask("LISTE") == ["SPIELE 1", "SPIEL farsoup 1 0 1 3"]
    assert client.ask("TEILNEHMEN farsoup", "PASSWORT", "NAME anna") == [fehler_line(28)]
    assert client.ask("ZUSCHAUEN farsoup", "NAME anna") == [fehler_line(28)]
    assert client.ask("STATUS farsoup") == [fehler_line(27)]

    shared.remote.put("far", elsewhere("ursuppe-far-1", "ursuppe", seats={0: "zed", 1: "yan"}, config=CONFIG,
                                       max_seats=3, title="farsoup", started=True))  # fmt: skip
    assert client.ask("LISTE") == ["SPIELE 1", "SPIEL farsoup 1 1 2 3"]

    harness.new_game("soup1")
    assert client.ask("LISTE") == ["SPIELE 2", "SPIEL farsoup 1 1 2 3", "SPIEL soup1 1 0 0 3"]
    anna = harness.join("anna", "soup1", password="")
    assert anna.take()[0] == "SPIELERIN_AKZEPTIERT 0 anna"

    shared.remote.remove("ursuppe-far-1", "far")
    assert client.ask("LISTE") == ["SPIELE 1", "SPIEL soup1 1 0 1 3"]

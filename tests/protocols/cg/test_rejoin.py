"""Rejoin (note §5.2, §11.22): a seated human who drops keeps the seat; logging in again gives
the resync sequence ending in the pending turn, with hand values to the owner only."""

from __future__ import annotations

from gamehall.hall import Hall
from gamehall.rules.doppelkopf import GAME_TYPE

from .cg_support import CgHarness, ScriptedPlayer, play_until_end, start_vs_bots


def test_a_dropped_player_logs_in_again_and_finishes_the_game() -> None:
    harness = CgHarness(seed=5)
    alice = start_vs_bots(harness)
    alice.send("cg:game.dk.announce", type="ready")
    harness.run(2.0)
    alice.send("cg:game.dk.announce", type="reservation_no")
    harness.run(2.0)
    alice.dialogue.connection_lost()
    harness.run(5.0)
    again = harness.connect("Alice")
    again.handshake()
    again.take()
    again.send("cg:auth", username="alice", pwd="secret")
    packets = again.take()
    names = [p.name for p in packets]
    again.uuid = packets[1].body["uuid"]
    start = names.index("cg:game.start")
    assert names[: start + 1] == [
        "cg:status.user",
        "cg:auth",
        "cg:lobby.join",
        *["cg:status.user"] * 4,
        "cg:lobby.change",
        "cg:game.start",
    ]
    transfers = [p.body for p in packets if p.name == "cg:game.dk.card.transfer"]
    assert len(transfers) == 96
    assert all(t["from_slot"] is None and t["to_slot"] == "stack" for t in transfers[:48])
    assert all(t["from_slot"] == "stack" for t in transfers[48:])
    mine = [t for t in transfers[48:] if t["to_slot"] == "hand0"]
    assert len(mine) == 12 and all(t["card_value"] for t in mine)
    assert all(
        t["card_value"] == "" for t in transfers[48:] if t["to_slot"].startswith("hand") and t not in mine
    )
    assert names[-1] == "cg:game.dk.turn" and packets[-1].body["current_player"] == again.uuid
    player = ScriptedPlayer(again)
    for packet in packets:
        player.on_packet(packet)
    play_until_end(harness, player)
    assert again.dialogue.state == "lobby"


def test_a_seat_dropped_until_the_game_ended_is_gone_from_the_lobby_and_logs_in_fresh() -> None:
    harness = CgHarness(seed=5)
    alice = harness.connect("Alice")
    alice.register()
    bob = harness.connect("Bobby")
    bob.register()
    alice.send("cg:lobby.create")
    alice.send("cg:lobby.invite", username="bobby")
    invite = next(p for p in bob.take() if p.name == "cg:lobby.invite")
    bob.send("cg:lobby.invite.accept", accepted=True, lobby_id=invite.body["lobby_id"], inviter=alice.uuid)
    for _ in range(2):
        alice.send("cg:lobby.invite", username="bot_dk_dumb")
    bob.send("cg:lobby.ready", ready=True)
    alice.send("cg:lobby.ready", ready=True)
    bob.dialogue.connection_lost()  # the table's timers play Bob's seat from now on
    play_until_end(harness, ScriptedPlayer(alice), limit_s=5000)
    lobby = alice.dialogue.directory.lobby_for(alice.uuid)
    assert lobby is not None and bob.uuid not in lobby.members and lobby.room_id is None
    assert any(
        p.body == {"users": {bob.uuid: {"role": -1}}} for p in alice.all() if p.name == "cg:lobby.change"
    )
    again = harness.connect("Bobby")
    again.handshake()
    again.send("cg:auth", username="bobby", pwd="secret")
    assert [p.name for p in again.take()][-2:] == ["cg:status.user", "cg:auth"]
    assert again.dialogue.state == "active"


def _restart(harness: CgHarness) -> None:
    """A new hall on the same store, its rooms rebuilt from their logs: the cg directory (in
    memory, per hall) starts empty, as after a real restart."""
    old = harness.hall
    harness.hall = Hall(
        games={"doppelkopf": GAME_TYPE},
        store=old.store,
        clock=harness.clock,
        defaults={"doppelkopf": dict(old.game_defaults("doppelkopf"))},
    )
    assert harness.hall.restore() == 1


def test_after_a_restart_the_same_account_rejoins_its_running_game() -> None:
    """Note §5.2: the lobby a rejoin needs comes back from the store (docs/recovery.md)."""
    harness = CgHarness(seed=5)
    alice = start_vs_bots(harness)
    alice.send("cg:game.dk.announce", type="ready")
    harness.run(2.0)
    _restart(harness)
    again = harness.connect("Alice")
    again.handshake()
    again.take()
    again.send("cg:auth", username="alice", pwd="secret")
    packets = again.take()
    names = [p.name for p in packets]
    assert names[:9] == [
        "cg:status.user",
        "cg:auth",
        "cg:lobby.join",
        *["cg:status.user"] * 4,
        "cg:lobby.change",
        "cg:game.start",
    ]
    uuid = packets[1].body["uuid"]
    assert uuid == alice.uuid  # the same account: the lobby knew it by its uuid
    change = packets[7].body
    assert change["user_order"][0] == uuid and len(change["user_order"]) == 4
    mine = [p.body for p in packets if p.name == "cg:game.dk.card.transfer" and p.body["to_slot"] == "hand0"]
    assert len(mine) == 12 and all(t["card_value"] for t in mine)


def test_after_a_restart_another_account_gets_no_seat_of_that_game() -> None:
    harness = CgHarness(seed=5)
    alice = start_vs_bots(harness)
    alice.send("cg:game.dk.announce", type="ready")
    harness.run(2.0)
    _restart(harness)
    mallory = harness.connect("Mallory")
    mallory.register()
    assert "cg:lobby.join" not in [p.name for p in mallory.take()]
    assert 0 in harness.hall.rooms("doppelkopf")[0].away  # alice's seat is still hers, held

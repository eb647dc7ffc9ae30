"""Lobbies (note §4.2, §6.6-6.7): create, invite humans and bots, accept/decline, rules, order,
kick, leave, ready; every refusal with its Ref message key."""

from __future__ import annotations

from typing import Any

from gamehall.protocols.cg.codec import Packet

from .cg_support import CgClient, CgHarness


def messages(client: CgClient) -> list[str]:
    return [p.body["message"] for p in client.take() if p.name == "cg:status.message"]


def lobby_of(client: CgClient) -> str:
    return next(p.body["lobby"] for p in client.all() if p.name == "cg:lobby.join")


def setup() -> tuple[CgHarness, CgClient, CgClient]:
    harness = CgHarness()
    alice = harness.connect("Alice")
    alice.register(flavor="gamehall")
    bob = harness.connect("Bobby")
    bob.register()
    alice.send("cg:lobby.create", game="doppelkopf", variant="m")
    alice.take()
    return harness, alice, bob


def invite_bob(alice: CgClient, bob: CgClient, accepted: bool = True) -> dict[str, Any]:
    alice.send("cg:lobby.invite", username="BOBBY")
    invite = next(p for p in bob.take() if p.name == "cg:lobby.invite")
    bob.send(
        "cg:lobby.invite.accept",
        accepted=accepted,
        lobby_id=invite.body["lobby_id"],
        inviter=invite.body["inviter"],
    )
    return dict(invite.body)


def test_create_gives_join_status_and_a_full_change_with_the_variant_rules() -> None:
    harness = CgHarness()
    alice = harness.connect("Alice")
    alice.register(flavor="gamehall")
    alice.send("cg:lobby.create", game="doppelkopf", variant="m")
    join, status, change = alice.take()
    assert join.name == "cg:lobby.join" and status.body["uuid"] == alice.uuid
    body = change.body
    assert body["users"] == {alice.uuid: {"ready": False, "role": 100, "index": 0}}
    assert body["game"] == "doppelkopf" and body["supported_bots"] == ["dk_dumb"]
    assert len(body["gamerule_validators"]) == 37 and len(body["gamerules"]) == 37
    assert body["gamerules"]["dk.pigs"] == "two_reservation"
    assert body["gamerules"]["dk.buck_amount"] == "4"
    assert body["gamerule_validators"]["dk.penalty_points"]["type"] == "number"
    assert alice.dialogue.state == "lobby"


def test_invite_accept_brings_the_joiner_in_and_tells_the_others() -> None:
    _harness, alice, bob = setup()
    invite = invite_bob(alice, bob)
    assert invite == {"username": "Alice", "inviter": alice.uuid, "lobby_id": lobby_of(alice)}
    names = [p.name for p in bob.take()]
    assert names == ["cg:lobby.join", "cg:status.user", "cg:status.user", "cg:lobby.change"]
    seen = alice.take()
    assert (
        seen[0].name == "cg:status.message" and seen[0].body["message"] == "cg:msg.lobby.invite.user_invited"
    )
    assert seen[1] == Packet(
        "cg:status.user",
        {"username": "Bobby", "uuid": bob.uuid, "profile_img": "default", "status": "online"},
    )
    assert seen[2] == Packet(
        "cg:lobby.change", {"users": {bob.uuid: {"ready": False, "role": 10, "index": 1}}}
    )
    full = next(p for p in bob.all() if p.name == "cg:lobby.change")
    assert len(full.body["gamerule_validators"]) == 33  # Bob is vanilla


def test_invite_refusals() -> None:
    harness, alice, bob = setup()
    alice.send("cg:lobby.invite", username="Ghost")
    assert messages(alice) == ["cg:msg.lobby.invite.user_does_not_exist"]
    carol = harness.connect("Carol")
    carol.register()
    carol.dialogue.connection_lost()
    alice.send("cg:lobby.invite", username="carol")
    assert messages(alice) == ["cg:msg.lobby.invite.user_not_online"]
    invite_bob(alice, bob)
    alice.take()
    alice.send("cg:lobby.invite", username="bobby")
    assert messages(alice) == ["cg:msg.lobby.invite.user_in_lobby"]
    alice.send("cg:lobby.invite", username="bot_dk_clever")
    assert messages(alice) == ["cg:msg.lobby.invite.user_does_not_exist"]
    for _ in range(2):
        alice.send("cg:lobby.invite", username="bot_dk_dumb")
    alice.send("cg:lobby.invite", username="bot_dk_dumb")
    assert messages(alice) == ["cg:msg.lobby.invite.lobby_full"]


def test_accept_refusals_and_decline() -> None:
    _harness, alice, bob = setup()
    bob.send("cg:lobby.invite.accept", accepted=True, lobby_id="0" * 32, inviter=alice.uuid)
    assert messages(bob) == ["cg:msg.lobby.invite.accept.lobby_not_exists"]
    bob.send("cg:lobby.invite.accept", accepted=True, lobby_id=lobby_of(alice), inviter="f" * 32)
    assert messages(bob) == ["cg:msg.lobby.invite.accept.invalid_inviter"]
    bob.send("cg:lobby.invite.accept", accepted=True, lobby_id=lobby_of(alice), inviter=alice.uuid)
    assert messages(bob) == ["cg:msg.lobby.invite.accept.not_invited"]
    invite_bob(alice, bob, accepted=False)
    assert bob.dialogue.state == "active"
    decline = [p.body for p in alice.take() if p.name == "cg:status.message"][-1]
    assert decline == {
        "type": "notice",
        "message": "cg:msg.lobby.invite.decline",
        "data": {"username": "Bobby"},
    }


def test_rules_are_checked_against_their_validators_and_broadcast_per_flavor() -> None:
    _harness, alice, bob = setup()
    invite_bob(alice, bob)
    alice.take()
    bob.take()
    alice.send(
        "cg:lobby.change",
        gamerules={"dk.heart10": False, "dk.without9": "sometimes", "dk.penalty_points": 5, "dk.unknown": 1},
    )
    assert alice.take() == [
        Packet(
            "cg:lobby.change",
            {"gamerules": {"dk.heart10": False, "dk.without9": "with_all", "dk.penalty_points": 5}},
        )
    ]
    assert bob.take() == [
        Packet("cg:lobby.change", {"gamerules": {"dk.heart10": False, "dk.without9": "with_all"}})
    ]
    bob.send("cg:lobby.change", gamerules={"dk.heart10": True})
    assert messages(bob) == []  # the refusal key is ours (gamehall:msg.*): vanilla gets none
    lobby = alice.dialogue.directory.lobby_for(alice.uuid)
    assert lobby is not None and lobby.rules["dk.heart10"] is False


def test_order_roles_kick_and_leave() -> None:
    _harness, alice, bob = setup()
    invite_bob(alice, bob)
    alice.send("cg:lobby.invite", username="bot_dk_dumb")
    bot = next(
        p.body["uuid"]
        for p in alice.take()
        if p.name == "cg:status.user" and p.body["username"].startswith("bot_")
    )
    bob.take()
    alice.send("cg:lobby.change", user_order=[bot, bob.uuid, alice.uuid])
    assert alice.take() == [Packet("cg:lobby.change", {"user_order": [bot, bob.uuid, alice.uuid]})]
    alice.send("cg:lobby.change", users={bob.uuid: {"role": 50}})
    assert bob.take()[-1] == Packet("cg:lobby.change", {"users": {bob.uuid: {"role": 50}}})
    bob.send("cg:lobby.kick", uuid=alice.uuid, reason="no")
    assert messages(bob) == []
    alice.send("cg:lobby.kick", uuid=alice.uuid, reason="me")
    assert messages(alice) == ["gamehall:msg.lobby.no_permission"]
    alice.send("cg:lobby.kick", uuid=bob.uuid, reason="rude")
    assert bob.take() == [
        Packet(
            "cg:status.message",
            {"type": "warn", "message": "cg:msg.lobby.kick.reason", "data": {"reason": "rude"}},
        ),
        Packet("cg:lobby.leave", {"lobby": lobby_of(alice)}),
    ]
    assert bob.dialogue.state == "active"
    assert alice.take()[-1] == Packet("cg:lobby.change", {"users": {bob.uuid: {"role": -1}}})
    alice.send("cg:lobby.leave", lobby=lobby_of(alice))
    assert alice.take() == [Packet("cg:lobby.leave", {"lobby": lobby_of(alice)})]
    assert alice.dialogue.state == "active"
    assert alice.dialogue.directory.lobbies == {}  # no human left: the lobby and its bot are gone


def test_the_creator_leaving_hands_the_lobby_on() -> None:
    _harness, alice, bob = setup()
    invite_bob(alice, bob)
    bob.take()
    alice.send("cg:lobby.leave", lobby=lobby_of(alice).upper())
    assert bob.take() == [
        Packet("cg:lobby.change", {"users": {alice.uuid: {"role": -1}}}),
        Packet("cg:lobby.change", {"users": {bob.uuid: {"role": 100}}}),
    ]


def test_ready_is_broadcast_and_a_disconnect_outside_games_leaves_the_lobby() -> None:
    _harness, alice, bob = setup()
    invite_bob(alice, bob)
    alice.take()
    bob.send("cg:lobby.ready", ready=True)
    assert alice.take() == [Packet("cg:lobby.change", {"users": {bob.uuid: {"ready": True}}})]
    bob.dialogue.connection_lost()
    assert alice.take() == [Packet("cg:lobby.change", {"users": {bob.uuid: {"role": -1}}})]

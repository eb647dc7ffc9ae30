"""Wire fidelity found by an independent client (issue 10 item 8, note §4.2, §4.4, §6.6): a vote
passes when every connected human says yes, also during the paced deal; vanilla connections get
only avatar names the reference client ships; ``dk.solos`` lists its options in the reference
server's order."""

from __future__ import annotations

from cg_support import CgClient, CgHarness

from gamehall.protocols.cg.codec import Packet

REFERENCE_SOLOS = [
    *(
        "solo_queen",
        "solo_jack",
        "solo_clubs",
        "solo_spades",
        "solo_hearts",
        "solo_diamonds",
        "solo_fleshless",
    ),
    *(
        "solo_aces",
        "solo_10s",
        "solo_king",
        "solo_9s",
        "solo_picture",
        "solo_noble_brothel",
        "solo_monastery",
    ),
    *("solo_brothel", "solo_pure_clubs", "solo_pure_spades", "solo_pure_hearts", "solo_pure_diamonds"),
    *("solo_null", "solo_boneless"),
]


def two_humans_two_bots(harness: CgHarness) -> tuple[CgClient, CgClient, list[Packet]]:
    alice = harness.connect("Alice")
    alice.register(flavor="gamehall")
    bob = harness.connect("Bobby")
    bob.register()
    alice.send("cg:lobby.create", game="doppelkopf", variant="c")
    alice.send("cg:lobby.invite", username="BOBBY")
    invite = next(p for p in bob.take() if p.name == "cg:lobby.invite")
    bob.send(
        "cg:lobby.invite.accept",
        accepted=True,
        lobby_id=invite.body["lobby_id"],
        inviter=invite.body["inviter"],
    )
    alice.send("cg:lobby.invite", username="bot_dk_dumb")
    alice.send("cg:lobby.invite", username="bot_dk_dumb")
    seen = alice.take() + bob.take()
    alice.send("cg:lobby.ready", ready=True)
    bob.send("cg:lobby.ready", ready=True)
    harness.run(0.2)
    return alice, bob, seen + alice.take() + bob.take()


def test_a_cancel_vote_of_the_connected_humans_ends_the_game_during_the_paced_deal() -> None:
    harness = CgHarness(deal_interval_s=1.0, loading_timeout_s=10.0)
    alice, bob, _ = two_humans_two_bots(harness)
    alice.send("cg:game.start")
    bob.send("cg:game.start")
    harness.run(1.0)  # the deal has begun: 16 bursts, a second apart
    alice.take()
    bob.take()
    alice.send("cg:game.dk.announce", type="cancel_yes")
    bob.send("cg:game.dk.announce", type="cancel_yes")
    ended: dict[str, float] = {}
    elapsed = 0.0
    while elapsed < 6.0 and len(ended) < 2:
        harness.run(0.1)
        elapsed += 0.1
        for client in (alice, bob):
            names = [p.name for p in client.take()]
            if "cg:game.end" in names:
                ended.setdefault(client.name, elapsed)
    assert set(ended) == {"Alice", "Bobby"} and max(ended.values()) < 1.0, ended


def test_vanilla_connections_see_only_the_default_avatar_and_gamehall_sees_the_real_one() -> None:
    harness = CgHarness()
    _alice, _bob, seen = two_humans_two_bots(harness)
    statuses = [p for p in harness.clients[1].all() if p.name == "cg:status.user"]
    assert statuses and {p.body["profile_img"] for p in statuses} == {"default"}
    bots = [
        p
        for p in harness.clients[0].all()
        if p.name == "cg:status.user" and p.body["username"].startswith("bot_")
    ]
    assert bots and {p.body["profile_img"] for p in bots} == {"bot"}
    assert seen


def test_dk_solos_lists_its_options_in_the_reference_order() -> None:
    harness = CgHarness()
    for flavor in ("vanilla", "gamehall"):
        client = harness.connect(f"Solo{flavor}")
        client.register(flavor=flavor)
        client.send("cg:lobby.create", game="doppelkopf", variant="c")
        change = next(
            p for p in client.take() if p.name == "cg:lobby.change" and "gamerule_validators" in p.body
        )
        solos = change.body["gamerule_validators"]["dk.solos"]
        assert solos["options"] == REFERENCE_SOLOS
        assert solos["default"] == REFERENCE_SOLOS[:7]


def test_gamehall_chat_is_in_the_halls_text_form() -> None:
    harness = CgHarness()
    alice, bob, _ = two_humans_two_bots(harness)
    alice.send("gamehall:chat", text="gg\x00 all\r\nnext\x03 round\u2028!")
    (chat,) = [p for p in alice.take() if p.name == "gamehall:chat"]
    assert chat.body["text"] == "gg  all\nnext  round\n!"
    assert [p for p in bob.take() if p.name == "gamehall:chat"] == []  # vanilla: never chat

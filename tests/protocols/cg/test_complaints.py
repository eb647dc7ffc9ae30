"""Complaints through the wire, exactly per the seed (``cg:game.dk.complaint``; note §7, §11.13-19).

Alice and Bob (gamehall connections) sit at seats 0 and 1 with two ``dk_dumb`` bots, under
``dk.misplay=penalize``. Bob revokes on purpose; Alice denounces him.
"""

from __future__ import annotations

import struct
from typing import Any

import msgpack

from gamehall.protocols.cg.codec import Packet

from .cg_support import CgClient, CgHarness


class Pair:
    def __init__(self, flavor_bob: str = "gamehall", **rules: Any) -> None:
        self.harness = CgHarness(seed=5)
        self.alice = self.harness.connect("Alice")
        self.alice.register(flavor="gamehall")
        self.bob = self.harness.connect("Bobby")
        self.bob.register(flavor=flavor_bob)
        self.alice.send("cg:lobby.create", game="doppelkopf", variant="c")
        self.alice.send("cg:lobby.change", gamerules={"dk.misplay": "penalize", **rules})
        self.alice.send("cg:lobby.invite", username="bobby")
        invite = next(p for p in self.bob.take() if p.name == "cg:lobby.invite")
        assert invite.body["username"] == "Alice" and invite.body["inviter"] == self.alice.uuid
        self.bob.send(
            "cg:lobby.invite.accept", accepted=True, **{k: invite.body[k] for k in ("lobby_id", "inviter")}
        )
        for _ in range(2):
            self.alice.send("cg:lobby.invite", username="bot_dk_dumb")
        self.bob.send("cg:lobby.ready", ready=True)
        self.alice.send("cg:lobby.ready", ready=True)
        for client in (self.alice, self.bob):
            client.send("cg:game.dk.announce", type="ready")
        self.harness.run(1.0)
        self.alice.send("cg:game.dk.announce", type="reservation_no")
        self.bob.send("cg:game.dk.announce", type="reservation_no")
        self.harness.run(2.0)

    def view(self, seat: int) -> dict[str, Any]:
        dialogue = self.alice.dialogue
        assert dialogue.session is not None and dialogue.room_id is not None
        view = dialogue.session.room(dialogue.room_id).game.view(seat)
        assert isinstance(view, dict)
        return view

    def client(self, seat: int) -> CgClient:
        return self.alice if seat == 0 else self.bob

    def play_until_bob_revokes(self) -> str:
        """Play on (legal cards) until Bob can revoke; he does. Returns the card value."""
        for _ in range(200):
            rnd = self.view(0)["round"]
            current = rnd["current_player"]
            if current in (0, 1):
                mine = self.view(current)["round"]
                illegal = [c for c in mine["hand"] if c["id"] not in mine["playable"]]
                if current == 1 and illegal:
                    self.bob.send("cg:game.dk.card.intent", intent="play", card=illegal[0]["id"])
                    return str(illegal[0]["value"])
                self.client(current).send("cg:game.dk.card.intent", intent="play", card=mine["playable"][0])
            self.harness.run(0.5)
        raise AssertionError("Bob never could revoke")

    def take_all(self) -> None:
        self.alice.take()
        self.bob.take()

    def points(self) -> list[int]:
        return list(self.view(0)["points"])


def complaints(client: CgClient) -> list[dict[str, Any]]:
    return [p.body for p in client.take() if p.name == "cg:game.dk.complaint"]


def test_wrong_card_guilty_follows_the_golden_transcript() -> None:
    pair = Pair()
    value = pair.play_until_bob_revokes()
    pair.take_all()
    alice, bob = pair.alice, pair.bob
    alice.send("cg:game.dk.complaint", accused=bob.uuid, type="wrong_card")
    (listed,) = complaints(alice)
    assert set(listed) == {"accused", "type", "moves"}
    assert listed["accused"] == bob.uuid and listed["type"] == "wrong_card"
    moves = listed["moves"]
    assert all(isinstance(k, str) and k.isdigit() for k in moves)
    assert {"type": "announcement", "data": "reservation_no"} in moves.values()
    revoke_id = max((k for k, m in moves.items() if m["type"] == "card"), key=int)
    assert moves[revoke_id] == {"type": "card", "data": value}
    assert complaints(bob) == [{"accused": bob.uuid, "type": "wrong_card", "accuser": alice.uuid}]
    before = pair.points()
    alice.send(
        "cg:game.dk.complaint", accused=bob.uuid, type="wrong_card", move={revoke_id: moves[revoke_id]}
    )
    packets = alice.take()
    verdict = {
        "accused": bob.uuid,
        "type": "wrong_card",
        "accuser": alice.uuid,
        "verdict": "guilty",
        "punished": bob.uuid,
        "move": {revoke_id: {"type": "card", "data": value}},
    }
    assert packets[0] == Packet("cg:game.dk.complaint", verdict)
    boards = [p.body for p in packets[1:5]]
    assert {"player": bob.uuid, "points": before[1] - 3, "point_change": -3} in boards
    assert {"player": alice.uuid, "points": before[0] + 1, "point_change": 1} in boards
    assert [b["point_change"] for b in boards].count(1) == 3
    assert pair.points() == [before[0] + 1, before[1] - 3, before[2] + 1, before[3] + 1]


def test_picking_a_legal_move_is_a_wrong_accusation_and_the_accuser_pays() -> None:
    pair = Pair()
    pair.play_until_bob_revokes()
    pair.take_all()
    alice, bob = pair.alice, pair.bob
    alice.send("cg:game.dk.complaint", accused=bob.uuid, type="wrong_card")
    moves = complaints(alice)[0]["moves"]
    legal = next(k for k, m in moves.items() if m["type"] == "announcement")
    before = pair.points()
    body = {"accused": bob.uuid, "type": "wrong_card", "move": {int(legal): moves[legal]}}  # an int key
    payload = msgpack.packb(body)
    alice.send_raw(struct.pack(">IIH", 6 + len(payload), 85, 0) + payload)
    verdict = complaints(alice)[0]
    assert verdict["verdict"] == "wrong" and verdict["punished"] == alice.uuid
    assert pair.points() == [before[0] - 3, before[1] + 1, before[2] + 1, before[3] + 1]


def test_cancelling_punishes_the_accuser_and_a_bad_pick_keeps_it_pending() -> None:
    pair = Pair()
    pair.play_until_bob_revokes()
    pair.take_all()
    alice, bob = pair.alice, pair.bob
    alice.send("cg:game.dk.complaint", accused=bob.uuid, type="wrong_card")
    moves = complaints(alice)[0]["moves"]
    two = dict(list(moves.items())[:2])
    alice.send("cg:game.dk.complaint", accused=bob.uuid, type="wrong_card", move=two)
    alice.send("cg:game.dk.complaint", accused=bob.uuid, type="wrong_card", move={"999": {"type": "card"}})
    alice.send("cg:game.dk.complaint", accused=bob.uuid, type="wrong_announcement", move={})
    messages = [p.body["message"] for p in alice.take() if p.name == "cg:status.message"]
    assert messages == ["gamehall:msg.game.dk.complaint.invalid_move"] * 3
    assert pair.view(0)["round"]["complaint"] is not None
    bob.send("cg:game.dk.card.intent", intent="play", card=pair.view(1)["round"]["hand"][0]["id"])
    assert [p.body["message"] for p in bob.take() if p.name == "cg:status.message"] == [
        "cg:msg.game.dk.pc_wrong_phase"
    ]
    before = pair.points()
    alice.send("cg:game.dk.complaint", accused=bob.uuid, type="wrong_card", move={})
    verdict = complaints(alice)[0]
    assert verdict["verdict"] == "cancelled" and verdict["punished"] == alice.uuid and "move" not in verdict
    assert pair.points()[0] == before[0] - 3


def test_a_second_accusation_is_busy_and_accusing_oneself_is_invalid() -> None:
    pair = Pair()
    pair.play_until_bob_revokes()
    pair.take_all()
    alice, bob = pair.alice, pair.bob
    alice.send("cg:game.dk.complaint", accused=alice.uuid, type="wrong_card")
    alice.send("cg:game.dk.complaint", accused="not-a-uuid", type="wrong_card")
    alice.send("cg:game.dk.complaint", accused=bob.uuid, type="mumbling")
    alice.send("cg:game.dk.complaint", accused=bob.uuid, type="wrong_card")
    bob.take()
    bob.send("cg:game.dk.complaint", accused=alice.uuid, type="wrong_card")
    messages = [p.body["message"] for p in alice.take() if p.name == "cg:status.message"]
    assert messages == ["gamehall:msg.game.dk.complaint.invalid"] * 3
    assert [p.body["message"] for p in bob.take() if p.name == "cg:status.message"] == [
        "gamehall:msg.game.dk.complaint.busy"
    ]


def test_external_accusation_asks_the_two_others_and_bots_vote_no() -> None:
    pair = Pair()
    pair.take_all()
    alice, bob = pair.alice, pair.bob
    before = pair.points()
    alice.send("cg:game.dk.complaint", accused=bob.uuid, type="external")
    opened = complaints(bob)
    assert opened == [{"accused": bob.uuid, "type": "external", "accuser": alice.uuid}]
    pair.harness.run(2.0)
    packets = alice.take()
    votes = [p.body["type"] for p in packets if p.name == "cg:game.dk.announce"]
    assert votes == ["accusation_no"]  # the first no settles it
    verdict = [p.body for p in packets if p.name == "cg:game.dk.complaint"][-1]
    assert verdict["verdict"] == "wrong" and verdict["punished"] == alice.uuid
    assert not [
        p for p in bob.all() if p.name == "cg:game.dk.question" and p.body["type"] == "accusation_vote"
    ]
    assert pair.points()[0] == before[0] - 3


def test_refuse_mode_answers_every_complaint_with_disabled() -> None:
    pair = Pair(**{"dk.misplay": "refuse"})
    pair.take_all()
    before = pair.points()
    pair.alice.send("cg:game.dk.complaint", accused=pair.bob.uuid, type="external")
    assert pair.alice.take() == [
        Packet(
            "cg:status.message",
            {"type": "warn", "message": "gamehall:msg.game.dk.complaint.disabled", "data": {}},
        )
    ]
    assert pair.points() == before


def test_a_vanilla_human_downgrades_penalize_to_refuse() -> None:
    pair = Pair(flavor_bob="vanilla")
    notices = [p.body["message"] for p in pair.alice.all() if p.name == "cg:status.message"]
    assert "gamehall:msg.game.dk.misplay_downgraded" in notices
    assert not [p for p in pair.bob.all() if p.name == "cg:status.message"]
    assert pair.view(0)["rules"]["misplay"] == "refuse"
    start = next(p for p in pair.alice.all() if p.name == "cg:game.start")
    assert start.body["gamerules"]["dk.misplay"] == "refuse" and len(start.body["gamerules"]) == 37


def test_penalty_abort_game_ends_the_game_after_the_scoreboard() -> None:
    pair = Pair(**{"dk.penalty_abort": "game"})
    pair.play_until_bob_revokes()
    pair.take_all()
    alice, bob = pair.alice, pair.bob
    alice.send("cg:game.dk.complaint", accused=bob.uuid, type="wrong_card")
    moves = complaints(alice)[0]["moves"]
    revoke_id = max((k for k, m in moves.items() if m["type"] == "card"), key=int)
    alice.send(
        "cg:game.dk.complaint", accused=bob.uuid, type="wrong_card", move={revoke_id: moves[revoke_id]}
    )
    names = [p.name for p in alice.take()]
    assert names[:5] == ["cg:game.dk.complaint"] + ["cg:game.dk.scoreboard"] * 4
    assert names[5:8] == ["cg:status.message", "cg:game.end", "cg:lobby.change"]
    assert alice.dialogue.state == "lobby"


def test_chat_reaches_gamehall_members_only_and_is_checked() -> None:
    pair = Pair(flavor_bob="vanilla")
    pair.take_all()
    alice = pair.alice
    alice.send("gamehall:chat", text="  good luck  ")
    (chat,) = [p for p in alice.take() if p.name == "gamehall:chat"]
    assert chat.body == {"sender": alice.uuid, "username": "Alice", "text": "good luck", "ts": 1e9}
    assert pair.bob.take() == []
    alice.send("gamehall:chat", text="x" * 501)
    alice.send("gamehall:chat", text="   ")
    assert [p.body["message"] for p in alice.take()] == ["gamehall:msg.chat.too_long"] * 2
    for _ in range(5):
        alice.send("gamehall:chat", text="spam")
    assert alice.take()[-1].body["message"] == "gamehall:msg.chat.rate_limited"

"""Bad table input through the wire (note §3, §4.4, §11.8, §11.10): each gets the note's
``status.message`` or is dropped, and the table is unchanged."""

from __future__ import annotations

import struct
import uuid
import zlib
from typing import Any

import msgpack

from gamehall.protocols.cg.codec import Packet

from .cg_support import CgClient, CgHarness, start_vs_bots


def warn(key: str) -> Packet:
    return Packet("cg:status.message", {"type": "warn", "message": f"cg:msg.game.dk.{key}", "data": {}})


class Table:
    """Alice (seat 0, leads trick 1) against three bots, in the reservations done."""

    def __init__(self, **rules: Any) -> None:
        self.harness = CgHarness(seed=5)
        self.alice: CgClient = start_vs_bots(self.harness, **rules)
        self.alice.send("cg:game.start")
        self.alice.send("cg:game.dk.announce", type="ready")
        self.harness.run(2.0)
        self.alice.send("cg:game.dk.announce", type="reservation_no")
        self.harness.run(2.0)
        assert self.round()["phase"] == "tricks", self.round()
        self.alice.take()

    def view(self) -> dict[str, Any]:
        dialogue = self.alice.dialogue
        assert dialogue.session is not None and dialogue.room_id is not None
        view = dialogue.session.room(dialogue.room_id).game.view(0)
        assert isinstance(view, dict)
        return view

    def round(self) -> dict[str, Any]:
        rnd = self.view()["round"]
        assert isinstance(rnd, dict)
        return rnd

    def play(self, card: str) -> list[Packet]:
        self.alice.take()
        self.alice.send("cg:game.dk.card.intent", intent="play", card=card)
        return self.alice.take()

    def wait_for_alice(self) -> None:
        for _ in range(100):
            if self.round()["current_player"] == 0:
                return
            self.harness.run(0.5)
        raise AssertionError("Alice never got the turn")


def test_a_card_not_in_the_hand_or_not_an_id_is_dropped_silently() -> None:
    table = Table()
    before = table.view()
    assert table.play(uuid.uuid4().hex) == []
    assert table.play("not a uuid") == []
    table.alice.send("cg:game.dk.card.intent", intent="play", card=[1, 2])
    table.alice.send("cg:game.dk.card.intent", intent="juggle", card="x")
    assert table.alice.take() == []
    assert table.view() == before


def test_a_dashed_uppercase_card_id_is_accepted() -> None:
    table = Table()
    card = table.round()["playable"][0]
    packets = table.play(str(uuid.UUID(card)).upper())
    transfer = packets[0]
    assert transfer.name == "cg:game.dk.card.transfer"
    assert transfer.body["card_id"] == card and transfer.body["to_slot"] == "table"


def test_playing_out_of_turn_is_refused_and_changes_nothing() -> None:
    table = Table()
    card = table.round()["playable"][0]
    table.play(card)
    hand = table.round()["hand"]
    assert table.play(hand[0]["id"]) == [warn("pc_wrong_turn")]
    assert table.round()["hand"] == hand


def test_a_revoke_is_refused_with_pc_wrong_card_and_no_transfer_follows() -> None:
    table = Table()
    for _ in range(12):
        table.wait_for_alice()
        rnd = table.round()
        illegal = [c["id"] for c in rnd["hand"] if c["id"] not in rnd["playable"]]
        if illegal:
            assert table.play(illegal[0]) == [warn("pc_wrong_card")]
            assert table.round()["hand"] == rnd["hand"]
            return
        table.play(rnd["playable"][0])
    raise AssertionError("no revoke chance in this deal")


def test_announcements_past_their_deadline_or_without_a_party_are_refused() -> None:
    table = Table()
    label = table.round()["rebtn_lbl"]
    assert label in ("re", "kontra")
    other = "kontra" if label == "re" else "re"
    table.alice.send("cg:game.dk.announce", type=other)
    table.alice.send("cg:game.dk.announce", type="no90")
    assert [p.body["message"] for p in table.alice.take()] == [
        "cg:msg.game.dk.re_no_party",
        "cg:msg.game.dk.re_no_party",
    ]
    for _ in range(2):  # two tricks: 10 cards left
        table.wait_for_alice()
        table.play(table.round()["playable"][0])
        table.harness.run(3.0)
    table.wait_for_alice()
    assert len(table.round()["hand"]) == 10
    table.alice.take()
    table.alice.send("cg:game.dk.announce", type=label)
    assert table.alice.take() == [warn("re_too_late")]
    assert table.round()["announcements"] == []


def test_an_announcement_in_time_is_broadcast() -> None:
    table = Table()
    label = table.round()["rebtn_lbl"]
    table.alice.send("cg:game.dk.announce", type=label)
    packets = table.alice.take()
    assert Packet("cg:game.dk.announce", {"announcer": table.alice.uuid, "type": label}) in packets


def test_a_compressed_card_intent_is_processed() -> None:
    table = Table()
    card = table.round()["playable"][0]
    payload = zlib.compress(msgpack.packb({"intent": "play", "card": card}))
    table.alice.send_raw(struct.pack(">IIH", 6 + len(payload), 83, 1) + payload)
    assert table.alice.take()[0].body["card_id"] == card


def test_table_packets_outside_game_dk_and_complaints_on_vanilla_are_dropped() -> None:
    harness = CgHarness()
    alice = harness.connect("Alice")
    alice.register()
    alice.send("cg:lobby.create")
    alice.take()
    alice.send("cg:game.dk.card.intent", intent="play", card=uuid.uuid4().hex)
    alice.send("cg:game.dk.announce", type="ready")
    alice.send("cg:game.dk.complaint", accused=alice.uuid, type="external")
    assert alice.take() == []
    table = Table()
    table.alice.send("cg:game.dk.complaint", accused=table.alice.uuid, type="external")
    assert table.alice.take() == []  # refuse mode: vanilla gets no gamehall key


def test_unknown_announce_types_and_malformed_answers_are_dropped() -> None:
    table = Table()
    before = table.view()
    table.alice.send("cg:game.dk.announce", type="hooray")
    table.alice.send("cg:game.dk.announce", type="solo_yes")
    table.alice.send("cg:game.dk.announce", type="ready", colour="red")
    assert table.alice.take() == []
    assert table.view() == before

"""A vanilla bride is never asked ``wedding_clarification_trick`` (the reference client cannot
answer it); ``foreign`` is chosen for her (note §4.4, Decision (ours))."""

from __future__ import annotations

from gamehall.rules.doppelkopf import new_game

from .cg_support import CgHarness, start_vs_bots


def seed_with_both_club_queens_at_seat_0() -> int:
    for seed in range(1, 500):
        table = new_game({"wedding": "wish_trick"}, seed)
        for name in "ABCD":
            table.seat_join(name)
        hand = [card["value"] for card in table.view(0)["round"]["hand"]]
        if hand.count("cq") == 2:
            return seed
    raise AssertionError("no such seed")


def test_the_vanilla_bride_gets_foreign_without_a_question() -> None:
    harness = CgHarness(seed=seed_with_both_club_queens_at_seat_0())
    alice = start_vs_bots(harness, **{"dk.wedding": "wish_trick"})
    alice.send("cg:game.dk.announce", type="ready")
    harness.run(2.0)
    asked = []
    for answer in ("reservation_yes", "solo_no", "wedding_yes"):
        alice.send("cg:game.dk.announce", type=answer)
        harness.run(2.0)
        asked += [p.body["type"] for p in alice.take() if p.name == "cg:game.dk.question"]
    assert "wedding_clarification_trick" not in asked
    dialogue = alice.dialogue
    assert dialogue.session is not None and dialogue.room_id is not None
    view = dialogue.session.room(dialogue.room_id).game.view(0)
    assert view["round"]["phase"] == "tricks"
    assert view["round"]["wedding"]["bride"] == 0

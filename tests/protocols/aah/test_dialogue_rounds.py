"""Rounds on the wire (specs/aah.md 5.4-5.9, transcripts 10.1-10.4; golden tests 13.4-13.7;
acceptance 11-19): exact per-recipient frames for pick-1, pick-2 and pick-3 rounds, every
PICK/CZPK refusal, pick and czar timeouts.

alice, bob and carol join in that order with the defaults; the seed makes bob the first czar.
The deck is :func:`aah_dialogue_support.dialogue_deck`: white ids 5001... dealt top first, so
alice holds 5001-5010, bob 5011-5020 and carol 5021-5030 after the opening deal.
"""

from __future__ import annotations

import pytest
from aah_dialogue_support import AahHarness, LegacyClient, assert_no_crash, dialogue_deck

from gamehall.rules.aah.errors import MAX_CARD_ID

NEXT_ROUND = "BDCSThe next round will begin in 5 seconds."


def whte(*ids: int) -> list[str]:
    return [f"WHTE{i}\0Answer {i}." for i in ids]


def revl(*ids: int) -> str:
    return "REVL" + "\0".join(f"{i}\0Answer {i}." for i in ids)


def pnts(alice: int, bob: int, carol: int) -> list[str]:
    return [f"PNTSalice\0{alice}", f"PNTSbob\0{bob}", f"PNTScarol\0{carol}"]


def round_start(czar: str, number: int, pick: int) -> list[str]:
    return ["RSTR", f"CZAR{czar}", f"BLCKPrompt {number}: " + " ".join(["_____"] * pick) + f"\0{pick}"]


def three_players(
    harness: AahHarness | None = None,
) -> tuple[AahHarness, LegacyClient, LegacyClient, LegacyClient]:
    """alice, bob, carol joined, the countdown run out: round 1 in the pick phase, czar bob."""
    harness = harness or AahHarness()
    alice, bob, carol = (harness.join(nick) for nick in ("alice", "bob", "carol"))
    harness.advance(15)
    return harness, alice, bob, carol


def drain(*clients: LegacyClient) -> None:
    for client in clients:
        client.take()


# -- start and a pick-1 round (13.4, 10.1, acceptance 11, 12, 17) ------------------------------------


@pytest.mark.parametrize("bytewise", [False, True])
def test_pick_1_round_as_in_transcript_10_1(bytewise: bool) -> None:
    harness = AahHarness(bytewise=bytewise)
    alice, bob, carol = (harness.join(nick) for nick in ("alice", "bob", "carol"))
    drain(alice, bob, carol)
    harness.advance(14.9)
    assert harness.take_all() == {"alice": [], "bob": [], "carol": []}
    harness.advance(0.1)
    start = ["GSTR", *pnts(0, 0, 0)]
    assert alice.take() == [*start, *whte(*range(5001, 5011)), *round_start("bob", 1, 1)]
    assert bob.take() == [*start, *whte(*range(5011, 5021)), *round_start("bob", 1, 1)]
    assert carol.take() == [*start, *whte(*range(5021, 5031)), *round_start("bob", 1, 1)]

    alice.pick(5001)
    assert harness.take_all() == {"alice": [], "bob": ["BLNK"], "carol": ["BLNK"]}
    carol.pick(5021)
    reveal = [revl(5021), revl(5001)]  # one shuffled order for all
    assert harness.take_all() == {"alice": ["BLNK", *reveal], "bob": ["BLNK", *reveal], "carol": reveal}

    bob.send("CZPK", "5021")
    end = ["RWINcarol\x005021", *pnts(0, 0, 1), NEXT_ROUND]
    assert harness.take_all() == {"alice": end, "bob": end, "carol": end}
    assert_no_crash(harness)


def test_start_with_the_bundled_deck_deals_30_distinct_ids() -> None:
    """Acceptance 11."""
    harness = AahHarness(bundled=True)
    alice, bob, carol = (harness.join(nick) for nick in ("alice", "bob", "carol"))
    assert carol.take()[3] == "BDCSThe game will start in 15 seconds."
    drain(alice, bob)
    harness.advance(15)
    ids: list[int] = []
    for client in (alice, bob, carol):
        frames = client.take_frames()
        assert [f.command for f in frames[:4]] == ["GSTR", "PNTS", "PNTS", "PNTS"]
        assert [f.args[1] for f in frames[1:4]] == ["0", "0", "0"]
        whites = [f for f in frames if f.command == "WHTE"]
        assert len(whites) == 10 and frames[4:14] == whites
        ids += [int(f.args[0]) for f in whites]
    assert len(set(ids)) == 30 and all(1 <= i <= MAX_CARD_ID for i in ids)
    assert_no_crash(harness)


def play_round(harness: AahHarness, clients: dict[str, LegacyClient]) -> None:
    """Every non-czar plays its first cards; the czar picks the first revealed submission."""
    view = harness.table().view(None)
    names = {seat["seat"]: seat["name"] for seat in view["seats"]}
    czar = names[view["czar"]]
    pick = view["black"]["pick"]
    for seat, name in names.items():
        if name != czar and name in clients:
            hand = [card["id"] for card in harness.table().view(seat)["hand"]]
            clients[name].pick(*hand[:pick])
    submissions = harness.table().view(None)["submissions"]
    clients[czar].send("CZPK", str(submissions[0]["cards"][0]["id"]))


def test_czar_rotates_and_each_seat_gets_czar_then_black_after_rstr() -> None:
    """Acceptance 12 and 17 over five rounds."""
    harness, alice, bob, carol = three_players()
    clients = {"alice": alice, "bob": bob, "carol": carol}
    czars = []
    for _ in range(5):
        play_round(harness, clients)
        harness.advance(5)
    for client in clients.values():
        frames = client.all_frames()
        for index, frame in enumerate(frames):
            if frame.command == "RSTR":
                assert [f.command for f in frames[index + 1 : index + 3]] == ["CZAR", "BLCK"]
            if frame.command == "RWIN":
                assert [(f.command, f.args[0]) for f in frames[index + 1 : index + 4]] == [
                    ("PNTS", "alice"),
                    ("PNTS", "bob"),
                    ("PNTS", "carol"),
                ]
        czars.append([f.args[0] for f in frames if f.command == "CZAR"])
    assert czars[0] == czars[1] == czars[2] == ["bob", "carol", "alice", "bob", "carol", "alice"]
    assert_no_crash(harness)


# -- pick-2 and pick-3 rounds (13.5, 13.6, 10.2, acceptance 15, 16) ------------------------------------


PICK_2_3_DECK = dialogue_deck(blacks=[(1, 1), (2, 1), (3, 2)] + [(1, 1)] * 27)


def test_pick_2_round_with_one_frame_and_with_two_frames() -> None:
    harness, alice, bob, carol = three_players(AahHarness(deck=PICK_2_3_DECK))
    alice.pick(5001)
    carol.pick(5021)
    bob.send("CZPK", "5021")
    drain(alice, bob, carol)
    harness.advance(5)
    # round 2: czar carol; the draw step tops alice (5031) and carol (5032) up to 10
    assert alice.take() == [*whte(5031), *round_start("carol", 2, 2)]
    assert bob.take() == round_start("carol", 2, 2)
    assert carol.take() == [*whte(5032), *round_start("carol", 2, 2)]

    alice.send("PICK", "5003", "5002")  # one frame, two cards, in judging order
    assert harness.take_all() == {"alice": [], "bob": ["BLNK", "BLNK"], "carol": ["BLNK", "BLNK"]}
    bob.pick(5011)
    assert harness.take_all() == {"alice": ["BLNK"], "bob": [], "carol": ["BLNK"]}
    bob.pick(5012)
    reveal = [revl(5003, 5002), revl(5011, 5012)]
    assert harness.take_all() == {"alice": ["BLNK", *reveal], "bob": reveal, "carol": ["BLNK", *reveal]}

    carol.send("CZPK", "5012")  # the second id of bob's pair
    end = ["RWINbob\x005012", *pnts(0, 1, 1), NEXT_ROUND]
    assert harness.take_all() == {"alice": end, "bob": end, "carol": end}

    # round 3: "draw 2, pick 3", czar alice: everyone topped up to 10, then 2 more to bob and carol
    harness.advance(5)
    assert alice.take() == [*whte(5033, 5034), *round_start("alice", 3, 3)]
    assert bob.take() == [*whte(5035, 5036, 5037, 5038), *round_start("alice", 3, 3)]
    assert carol.take() == [*whte(5039, 5040), *round_start("alice", 3, 3)]
    table = harness.table()
    assert [len(table.view(seat)["hand"]) for seat in (0, 1, 2)] == [10, 12, 12]
    assert_no_crash(harness)


def test_pick_3_draw_gives_two_extra_cards_to_every_non_czar() -> None:
    deck = dialogue_deck(blacks=[(3, 2)] * 30)
    harness, alice, bob, carol = three_players(AahHarness(deck=deck))
    # round 1 is already a pick-3 round: czar bob, alice and carol get 2 extra cards each
    assert alice.take()[-5:] == [*whte(5031, 5032), *round_start("bob", 1, 3)]
    assert bob.take()[-4:] == ["WHTE5020\0Answer 5020.", *round_start("bob", 1, 3)]
    table = harness.table()
    assert [len(table.view(seat)["hand"]) for seat in (0, 1, 2)] == [12, 10, 12]
    alice.pick(5001, 5002, 5003)
    carol.pick(5021, 5022, 5023)
    reveal = [f for f in bob.take() if f.startswith("REVL")]
    assert sorted(reveal) == sorted([revl(5001, 5002, 5003), revl(5021, 5022, 5023)])
    bob.send("CZPK", "5022")
    assert bob.take()[0] == "RWINcarol\x005022"
    harness.advance(5)
    # round 2, czar carol: alice (9 cards) and bob (10) topped up, then 2 extra; carol up to 10
    assert [len(table.view(seat)["hand"]) for seat in (0, 1, 2)] == [12, 12, 10]
    assert_no_crash(harness)


# -- refusals (acceptance 13, 14, 16) ---------------------------------------------------------------------


def test_czar_pick_is_refused_with_restore_and_no_blnk() -> None:
    """Acceptance 13."""
    harness, alice, bob, carol = three_players()
    drain(alice, bob, carol)
    bob.pick(5011)
    assert bob.take() == ["UNRGThe Card Czar does not play this round.", *whte(5011)]
    assert harness.take_all() == {"alice": [], "bob": [], "carol": []}


def test_pick_refusals() -> None:
    """Acceptance 14 and the PICK table of 5.7."""
    harness, alice, bob, carol = three_players(AahHarness(deck=PICK_2_3_DECK))
    alice.pick(5001)
    carol.pick(5021)
    drain(alice, bob, carol)
    alice.pick(5002)  # judging phase
    assert alice.take() == ["UNRGPICK commands are not being accepted at this time.", *whte(5002)]
    bob.send("CZPK", "5001")
    harness.advance(5)
    drain(alice, bob, carol)  # round 2: pick 2, czar carol
    alice.send("PICK")
    alice.send("PICK", "5011")
    alice.send("PICK", "abc", "-1", "99999999999", str(MAX_CARD_ID + 1), "0")
    assert alice.take() == [
        "UNRGPICK received without arguments; invalid.",
        "UNRGYou do not have the card 5011.",
        "UNRGInvalid card identifier sent (abc).",
        "UNRGInvalid card identifier sent (-1).",
        "UNRGInvalid card identifier sent (99999999999).",
        f"UNRGInvalid card identifier sent ({MAX_CARD_ID + 1}).",
        "UNRGInvalid card identifier sent (0).",
    ]
    # one frame, partly accepted: two cards fit, the third is gambling
    alice.send("PICK", "0005002", "5003", "5004")
    assert alice.take() == ["UNRGGambling is disabled on this server.", *whte(5004)]
    assert bob.take() == ["BLNK", "BLNK"]
    assert harness.table().view(0)["my_submission"] == [5002, 5003]
    assert_no_crash(harness)


def test_czpk_checks_in_the_order_of_5_8() -> None:
    """Acceptance 16 and the CZPK table of 5.8."""
    harness, alice, bob, carol = three_players(AahHarness(deck=PICK_2_3_DECK))
    drain(alice, bob, carol)
    alice.send("CZPK")
    alice.send("CZPK", "5021")
    bob.send("CZPK", "5021")  # the czar, but in the pick phase
    assert alice.take() == ["UNRGYou are not the Card Czar."] * 2
    assert bob.take() == ["UNRGCZPK commands are not being accepted at this time."]
    alice.pick(5001)
    carol.pick(5021)
    drain(alice, bob, carol)
    bob.send("CZPK")
    bob.send("CZPK", "x1")
    bob.send("CZPK", "5002")
    bob.send("CZPK", "5011")
    assert bob.take() == [
        "UNRGCZPK sent without arguments; invalid.",
        "UNRGInvalid card identifier sent (x1).",
        "UNRGCard has not been played (5002).",
        "UNRGCard has not been played (5011).",
    ]
    bob.send("CZPK", "005001", "5021")  # only the first argument counts; canonical echo
    end = ["RWINalice\x005001", *pnts(1, 0, 0), NEXT_ROUND]
    assert harness.take_all() == {"alice": end, "bob": end, "carol": end}


# -- timeouts (13.7, 10.3, 10.4, acceptance 18, 19) ------------------------------------------------------


def test_pick_timeout_skips_returns_partial_cards_and_voids() -> None:
    """10.3 with a pick-2 round: alice half done, carol nothing; acceptance 18."""
    harness, alice, bob, carol = three_players(AahHarness(deck=PICK_2_3_DECK))
    alice.pick(5001)
    carol.pick(5021)
    bob.send("CZPK", "5021")
    harness.advance(5)
    drain(alice, bob, carol)  # round 2: pick 2, czar carol
    alice.pick(5002)
    drain(alice, bob, carol)
    harness.advance(29.9)
    assert harness.take_all() == {"alice": [], "bob": [], "carol": []}
    harness.advance(0.1)
    skipped = [
        "BDCSPlayer alice failed to make a choice within the time-limit and has been skipped.",
        "BDCSPlayer bob failed to make a choice within the time-limit and has been skipped.",
    ]
    void = ["BDCSToo few players made a choice; the round is void.", "RWIN"]
    end = [*pnts(0, 0, 1), NEXT_ROUND]
    assert alice.take() == ["CRTO", skipped[0], *whte(5002), skipped[1], *void, *end]
    assert bob.take() == [skipped[0], "CRTO", skipped[1], *void, *end]
    assert carol.take() == [*skipped, *void, *end]  # never CRTO to the czar
    harness.advance(5)
    assert alice.take()[-3:] == round_start("alice", 3, 3)
    assert_no_crash(harness)


def test_void_round_returns_complete_submissions_too() -> None:
    """10.3: bob plays, carol does not; bob's card comes back after the empty RWIN."""
    harness, alice, bob, carol = three_players()
    alice.pick(5001)
    carol.pick(5021)
    bob.send("CZPK", "5001")
    harness.advance(5)
    drain(alice, bob, carol)  # round 2: czar carol; alice was topped up with 5031
    bob.pick(5011)
    drain(alice, bob, carol)
    harness.advance(30)
    skipped = "BDCSPlayer alice failed to make a choice within the time-limit and has been skipped."
    void = ["BDCSToo few players made a choice; the round is void.", "RWIN"]
    end = [*pnts(1, 0, 0), NEXT_ROUND]
    assert alice.take() == ["CRTO", skipped, *void, *end]
    assert bob.take() == [skipped, *void, *whte(5011), *end]
    assert carol.take() == [skipped, *void, *end]


def test_czar_timeout_as_in_transcript_10_4() -> None:
    """Acceptance 19: 2 x timeout, CZTO to the czar, BDCS, empty RWIN, cards back, next round."""
    harness, alice, bob, carol = three_players()
    alice.pick(5001)
    carol.pick(5021)
    drain(alice, bob, carol)
    harness.advance(59.9)
    assert harness.take_all() == {"alice": [], "bob": [], "carol": []}
    harness.advance(0.1)
    notice = "BDCSCard Czar bob failed to pick winner within the time-limit and so the round has ended."
    end = [*pnts(0, 0, 0), NEXT_ROUND]
    assert alice.take() == [notice, "RWIN", *whte(5001), *end]
    assert bob.take() == ["CZTO", notice, "RWIN", *end]
    assert carol.take() == [notice, "RWIN", *whte(5021), *end]
    harness.advance(4.9)
    assert alice.take() == []
    harness.advance(0.1)
    assert alice.take() == round_start("carol", 2, 1)  # hands are back at 10: no draw frames
    assert_no_crash(harness)

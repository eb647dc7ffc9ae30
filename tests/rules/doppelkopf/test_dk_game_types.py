"""A rule case for every game type: normal, silent wedding, wedding, poverty, each solo, black
sow, ramsch (note §6.2, §6.3)."""

from __future__ import annotations

import pytest
from dk_helpers import all_healthy, all_ready, card, find, full_table, hands_with, play_tricks, rig

from gamehall.rules._core import IllegalAction, NotYourTurn, WrongPhase
from gamehall.rules.doppelkopf.actions import (
    Answer,
    AnswerSolo,
    BlackSowSolo,
    PassCards,
    PlayCard,
    PovertyAccept,
    PovertyDecline,
    PovertyReturn,
    ReturnCards,
    Vote,
    WeddingClarification,
)
from gamehall.rules.doppelkopf.cards import SOLO_ORDER
from gamehall.rules.doppelkopf.events import (
    Asked,
    ButtonsChanged,
    CardsRevealed,
    GameTypeChanged,
    PhaseChanged,
    RoundEnded,
    WeddingTrickDecided,
)

ALL_SOLOS = {"solos": list(SOLO_ORDER)}


def reserve(table, seat_yes: int, *later: tuple[str, bool]) -> list:  # type: ignore[no-untyped-def]
    """Everyone ready; ``seat_yes`` reserves, the others are healthy; then its answers."""
    events = all_ready(table)
    for seat in table.round.player_list:
        events += table.apply(seat, Answer("reservation", seat == seat_yes))
    return events


def test_normal_game_parties_from_the_queens_of_clubs() -> None:
    table, _ = full_table()
    rig(table, hands_with({0: ["cq"], 2: ["cq"]}))
    events = all_healthy(table)
    phase = find(events, PhaseChanged)[-1]
    assert (phase.phase, phase.game_type, phase.soloist) == ("tricks", "normal", None)
    assert table.round.re_seats == [0, 2]
    labels = {e.seat: e.rebtn_lbl for e in find(events, ButtonsChanged)}
    assert labels == {0: "re", 1: "kontra", 2: "re", 3: "kontra"}
    assert all(e.audience == frozenset({e.seat}) for e in find(events, ButtonsChanged))


def test_silent_wedding_is_a_solo_shown_as_normal() -> None:
    table, _ = full_table()
    rig(table, hands_with({1: ["cq", "cq"]}))
    events = all_healthy(table)
    assert find(events, PhaseChanged)[-1].game_type == "normal"
    assert table.round.game_type == "silent_wedding"
    assert table.round.re_seats == [1]


def test_wedding_partner_is_the_first_foreign_trick_winner() -> None:
    table, _ = full_table()
    rig(table, [["cq", "cq", "c9"], ["ca", "s9", "s9"], ["c10", "h9", "h9"], ["ck", "sk", "sk"]])
    events = reserve(table, 0)
    events += table.apply(0, AnswerSolo(None))
    events += table.apply(0, Answer("wedding", True))
    assert find(events, PhaseChanged)[-1].game_type == "wedding"
    assert table.round.re_seats is None
    events = play_tricks(table, [["c9", "ca", "c10", "ck"]])
    assert find(events, WeddingTrickDecided)[0].partner == 1
    assert table.round.re_seats == [0, 1] and table.round.clarification == 1


def test_wedding_without_partner_becomes_a_diamond_solo() -> None:
    table, _ = full_table()
    rig(table, [["h10", "cq", "cq"], ["c9", "c9", "s9"], ["s9", "h9", "h9"], ["ck", "ck", "sk"]])
    reserve(table, 0)
    table.apply(0, AnswerSolo(None))
    table.apply(0, Answer("wedding", True))
    events = play_tricks(
        table, [["h10", "c9", "s9", "ck"], ["cq", "c9", "h9", "ck"], ["cq", "s9", "h9", "sk"]]
    )
    assert find(events, GameTypeChanged)[0].game_type == "solo_diamonds"
    end = find(events, RoundEnded)[0]
    assert end.game_type == "solo_diamonds" and end.re_seats == (0,)
    assert end.point_change[0] == -3 * end.point_change[1] > 0
    assert end.extras == ((), ())


def test_wedding_wish_trick_trump() -> None:
    table, _ = full_table({"wedding": "wish_trick"})
    rig(table, [["c9", "cq", "cq"], ["ca", "dj", "s9"], ["c10", "h9", "h9"], ["ck", "h10", "sk"]])
    reserve(table, 0)
    table.apply(0, AnswerSolo(None))
    events = table.apply(0, Answer("wedding", True))
    assert find(events, Asked)[-1].kind == "wedding_clarification_trick"
    table.apply(0, WeddingClarification("trump"))
    play_tricks(table, [["c9", "ca", "c10", "ck"]])  # seat 1 wins, but no trump was led
    assert table.round.re_seats is None
    events = play_tricks(table, [["dj", "h9", "h10", "cq"]])  # a trump led, seat 3 wins it
    assert find(events, WeddingTrickDecided)[0].partner == 3
    assert table.round.re_seats == [0, 3] and table.round.clarification == 2


def start_poverty(config: dict[str, object]):  # type: ignore[no-untyped-def]
    table, _ = full_table(config)
    hand = ["d9", "dk", "hj", "ca", "ca", "sa", "sa", "ha", "ha", "c9", "s9", "h9"]
    rig(table, hands_with({0: hand, 1: ["cq"], 3: ["cq"]}))
    reserve(table, 0)
    table.apply(0, AnswerSolo(None))
    events = table.apply(0, Answer("poverty", True))
    assert find(events, Asked)[-1].kind == "poverty_trump_choice"
    passed = (card(table, 0, "d9"), card(table, 0, "dk"), card(table, 0, "hj"))
    return table, passed


def test_poverty_exchange() -> None:
    table, passed = start_poverty({"poverty": "circulate"})
    with pytest.raises(IllegalAction) as refused:
        table.apply(0, PassCards((card(table, 0, "d9"), card(table, 0, "dk"), card(table, 0, "ca"))))
    assert refused.value.code == "invalid_poverty_cards"
    events = table.apply(0, PassCards(passed))
    shown = find(events, CardsRevealed)
    assert [e.audience for e in shown] == [frozenset({1})]  # circulate: the asked candidate sees them
    assert "passed_cards" not in table.view(3)["round"]["poverty"]
    events = table.apply(1, PovertyDecline())
    assert find(events, Asked)[-1].target == 2
    table.apply(2, PovertyAccept())
    taker_hand = table.round.hands[2]
    assert len(taker_hand) == 15
    back = tuple(c for c in taker_hand if table.round.values[c] not in ("cq", "h10"))[:3]
    table.apply(2, ReturnCards(back))
    trumps = sum(1 for c in back if table.referee().ranking().is_trump(table.round.values[c]))
    with pytest.raises(IllegalAction) as wrong:
        table.apply(2, PovertyReturn((trumps + 1) % 4))
    assert wrong.value.code == "invalid_return_amount"
    events = table.apply(2, PovertyReturn(trumps))
    assert find(events, PhaseChanged)[-1].game_type == "poverty"
    assert table.round.re_seats == [0, 2]
    assert [len(h) for h in table.round.hands] == [12, 12, 12, 12]
    assert "passed_cards" in table.view(0)["round"]["poverty"]
    assert "passed_cards" in table.view(2)["round"]["poverty"]
    assert "passed_cards" not in table.view(1)["round"]["poverty"]


def test_sell_poverty_shows_cards_only_after_accepting() -> None:
    table, passed = start_poverty({"poverty": "sell"})
    events = table.apply(0, PassCards(passed))
    assert not find(events, CardsRevealed)
    assert "passed_cards" not in table.view(1)["round"]["poverty"]
    events = table.apply(1, PovertyAccept())
    assert [e.audience for e in find(events, CardsRevealed)] == [frozenset({1})]


def test_circulate_duty_last_candidate_must_accept() -> None:
    table, passed = start_poverty({"poverty": "circulate_duty"})
    table.apply(0, PassCards(passed))
    table.apply(1, PovertyDecline())
    table.apply(2, PovertyDecline())
    with pytest.raises(IllegalAction):
        table.apply(3, PovertyDecline())
    table.apply(3, PovertyAccept())


@pytest.mark.parametrize(("consequence", "game_type"), [("black_sow", "black_sow"), ("ramsch", "ramsch")])
def test_poverty_nobody_takes(consequence: str, game_type: str) -> None:
    table, passed = start_poverty({"poverty": "circulate", "poverty_consequence": consequence})
    table.apply(0, PassCards(passed))
    for seat in (1, 2, 3):
        events = table.apply(seat, PovertyDecline())
    assert table.round.game_type == game_type
    assert find(events, PhaseChanged)[-1].phase == "tricks"
    assert len(table.round.hands[0]) == 12


def test_poverty_redeal_is_a_void_round_replayed_with_the_same_number() -> None:
    table, passed = start_poverty({"poverty": "circulate", "poverty_consequence": "redeal"})
    table.apply(0, PassCards(passed))
    for seat in (1, 2, 3):
        events = table.apply(seat, PovertyDecline())
    end = find(events, RoundEnded)[0]
    assert (end.game_type, end.winner, end.point_change) == ("poverty_cancel", None, (0, 0, 0, 0))
    assert len(table.s.summaries) == 1
    for seat in range(4):
        table.apply(seat, Vote("continue", True))
    assert table.round.number == 1 and table.s.deal_count == 2


def test_poverty_declined_goes_on_with_the_other_reservations() -> None:
    table, passed = start_poverty({"poverty": "circulate"})
    table.apply(0, PassCards(passed))
    for seat in (1, 2, 3):
        events = table.apply(seat, PovertyDecline())
    assert find(events, Asked)[-1].kind == "wedding"
    events = table.apply(0, Answer("wedding", False))
    assert find(events, PhaseChanged)[-1].game_type == "normal"


def test_poverty_needs_at_most_three_trumps() -> None:
    table, _ = full_table({"poverty": "circulate"})
    rig(table, hands_with({0: ["dq", "dj", "d9", "dk"]}))
    reserve(table, 0)
    table.apply(0, AnswerSolo(None))
    with pytest.raises(IllegalAction) as refused:
        table.apply(0, Answer("poverty", True))
    assert refused.value.code == "invalid_poverty"


@pytest.mark.parametrize("solo", SOLO_ORDER)
def test_every_solo_can_be_played(solo: str) -> None:
    table, _ = full_table(ALL_SOLOS)
    reserve(table, 2)
    events = table.apply(2, AnswerSolo(solo))
    phase = find(events, PhaseChanged)[-1]
    assert (phase.phase, phase.game_type, phase.soloist) == ("tricks", solo, 2)
    assert table.round.re_seats == [2]
    assert table.round.trick is not None and table.round.trick.leader == 0


def test_solo_not_in_the_list_is_refused() -> None:
    table, _ = full_table()
    reserve(table, 1)
    with pytest.raises(IllegalAction):
        table.apply(1, AnswerSolo("solo_aces"))


def test_soloist_begins() -> None:
    table, _ = full_table({"solist_begins": True})
    reserve(table, 2)
    table.apply(2, AnswerSolo("solo_queen"))
    assert next(iter(table.to_move().seats)) == 2


def test_solo_prio_first_and_prio() -> None:
    for prio, soloist, solo in (("first", 1, "solo_jack"), ("prio", 3, "solo_queen")):
        table, _ = full_table({"solo_prio": prio})
        all_ready(table)
        for seat in range(4):
            table.apply(seat, Answer("reservation", seat in (1, 3)))
        table.apply(1, AnswerSolo("solo_jack"))
        if prio == "prio":
            with pytest.raises(NotYourTurn):
                table.apply(1, AnswerSolo("solo_jack"))
            table.apply(3, AnswerSolo("solo_queen"))
        assert (table.round.game_type, table.round.soloist) == (solo, soloist)


def test_black_sow_winner_of_second_spade_queen_names_the_solo() -> None:
    table, passed = start_poverty({"poverty": "circulate", "poverty_consequence": "black_sow"})
    table.apply(0, PassCards(passed))
    for seat in (1, 2, 3):
        table.apply(seat, PovertyDecline())
    assert table.round.re_seats is None  # no parties in a black sow
    asked: list[Asked] = []
    while not asked:
        seat = next(iter(table.to_move().seats))
        events = table.apply(seat, table.legal_actions(seat)[0])
        asked = [e for e in find(events, Asked) if e.kind == "black_sow_solo"]
    last = table.round.tricks[-1]
    queens = [t for t in table.round.tricks for c in t.cards if c and table.round.values[c] == "sq"]
    assert len(queens) == 2 and queens[-1] is last
    assert asked[0].target == last.winner
    events = table.apply(last.winner, BlackSowSolo("solo_queen"))
    assert table.round.soloist == last.winner and table.round.game_type == "solo_queen"
    assert find(events, GameTypeChanged)[0].re_seats == (last.winner,)


def test_ramsch_negates_the_value() -> None:
    table, passed = start_poverty({"poverty": "circulate", "poverty_consequence": "ramsch"})
    table.apply(0, PassCards(passed))
    for seat in (1, 2, 3):
        table.apply(seat, PovertyDecline())
    while table.round.phase == "tricks":
        seat = next(iter(table.to_move().seats))
        table.apply(seat, table.legal_actions(seat)[0])
    row = table.s.summaries[-1]
    re_seats = table.round.re_seats
    assert re_seats is not None
    re_change = row["point_change"][re_seats[0]]
    assert row["winner"] in ("re", "kontra")
    assert (re_change < 0) == (row["winner"] == "re")  # in a ramsch the winners pay


def test_answers_must_come_from_the_asked_seat() -> None:
    table, _ = full_table()
    all_ready(table)
    with pytest.raises(NotYourTurn):
        table.apply(1, Answer("reservation", False))
    with pytest.raises(WrongPhase):
        table.apply(0, PlayCard(table.round.hands[0][0]))

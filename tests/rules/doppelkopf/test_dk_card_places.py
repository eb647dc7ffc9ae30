"""Where every card lies, as one seat may know it (``views.card_places``): what a cg client
needs to rebuild the table for a returning seat. Ids are public; values follow the view."""

from __future__ import annotations

from dk_helpers import all_healthy, full_table

from gamehall.rules.doppelkopf.actions import PlayCard
from gamehall.rules.doppelkopf.engine import DoppelkopfTable


def play_cards(table: DoppelkopfTable, count: int) -> None:
    for _ in range(count):
        seat = next(iter(table.to_move().seats))
        table.apply(seat, next(a for a in table.legal_actions(seat) if isinstance(a, PlayCard)))


def test_every_card_has_one_place_and_a_seat_sees_only_its_hand_and_the_table() -> None:
    table, _ = full_table()
    all_healthy(table)
    play_cards(table, 6)  # one trick taken, two cards on the table
    rnd = table.round
    places = table.card_places(2)
    assert sorted(p.card for p in places) == sorted(rnd.values)
    for place in places:
        if place.place == "hand":
            assert place.card in rnd.hands[place.seat]
            assert place.value == (rnd.values[place.card] if place.seat == 2 else None)
        elif place.place == "tricks":
            assert place.seat == rnd.tricks[0].winner and place.value is None
        else:
            assert place.place == "table" and place.seat is None and place.value == rnd.values[place.card]
    assert [p.place for p in places].count("table") == 2
    assert [p.place for p in places].count("tricks") == 4


def test_open_cards_show_every_hand_and_a_spectator_sees_no_hand_otherwise() -> None:
    closed, _ = full_table()
    all_healthy(closed)
    assert all(p.value is None for p in closed.card_places(None) if p.place == "hand")
    shown, _ = full_table({"open_cards": True})
    all_healthy(shown)
    assert all(p.value is not None for p in shown.card_places(None) if p.place == "hand")

"""Setup and phases 2-4 and 6 (note 6.1, 6.2, 7.1, 7.6-7.8, 7.10), the environment deck and
the end of the game."""

from __future__ import annotations

import pytest
from ursuppe_support import Driver, fresh_state, give, kinds, put, seated_table

from gamehall.rules._core import ConfigError, GameInProgress, NotYourTurn, RuleError, TableFull
from gamehall.rules.ursuppe import events as ev
from gamehall.rules.ursuppe import new_game
from gamehall.rules.ursuppe.actions import (
    AmoebenSetzen,
    AmoebeSetzen,
    Bereit,
    Bewegen,
    DefektAusgleichen,
    GenKaufen,
    Position,
    Wuerfeln,
)
from gamehall.rules.ursuppe.division import cell_division
from gamehall.rules.ursuppe.environment import DEFAULT_DECK, EnvironmentCard
from gamehall.rules.ursuppe.errors import error_number
from gamehall.rules.ursuppe.genes import Gene
from gamehall.rules.ursuppe.genetics import buying, environment_and_defects
from gamehall.rules.ursuppe.scoring import game_over, gene_spaces, leapfrog, score


def _refusal(table, seat: int, action) -> int | None:  # type: ignore[no-untyped-def]
    try:
        table.check(seat, action)
    except RuleError as error:
        return error_number(error)
    return None


# -- setup ---------------------------------------------------------------------------------------


def test_setup_counts_for_three_players() -> None:
    table = seated_table(3, 1)
    g = table.state
    assert len(g.cubes) == 19 and all(cubes == [2, 2, 2] for cubes in g.cubes.values())
    assert g.supply == [17, 17, 17]
    assert all(p.bp == 4 and p.position == -1 for p in g.seats.values())


def test_the_table_starts_when_the_last_seat_is_taken() -> None:
    table = new_game({"players": 3}, 1)
    assert _refusal(table, 0, Bereit()) == 26
    table.seat_join("a")
    table.seat_leave(0)
    table.seat_join("a")
    table.seat_join("b")
    with pytest.raises(RuleError):
        table.start()
    _, events = table.seat_join("c")
    assert kinds(events) == ["SeatJoined", "SpielBeginnt", "ZugBereit", "ZugBereit", "ZugBereit"]
    assert table.to_move().kind == "ZUG_BEREIT" and table.to_move().seats == {0, 1, 2}
    with pytest.raises((GameInProgress, TableFull)):
        table.seat_join("d")


def test_ready_positions_and_first_amoebas() -> None:
    table = seated_table(4, 3)
    for seat in range(4):
        assert kinds(table.apply(seat, Bereit()))[0] == "Bereit"
    request = table.to_move()
    assert request.kind == "ZUG_POSITION"
    first = next(iter(request.seats))
    assert _refusal(table, (first + 1) % 4, Position(0)) == 17
    assert _refusal(table, first, Bereit()) == 30
    assert _refusal(table, first, Position(4)) == 22
    events = table.apply(first, Position(2))
    assert events[0] == ev.Position(farbe=first, position=2)
    second = next(iter(table.to_move().seats))
    assert events[1] == ev.ZugPosition(belegt=(False, False, True, False), audience=frozenset({second}))
    assert _refusal(table, second, Position(2)) == 22
    while table.to_move().kind == "ZUG_POSITION":
        seat = next(iter(table.to_move().seats))
        table.apply(seat, table.legal_actions(seat)[0])
    g = table.state
    order = sorted(g.seats, key=lambda s: g.seats[s].position)
    assert table.to_move().seats == {order[0]}  # first amoebas: ascending
    assert _refusal(table, order[0], AmoebeSetzen(0, 2, 2)) == 25
    assert _refusal(table, order[0], AmoebeSetzen(7, 1, 1)) == 22
    events = table.apply(order[0], AmoebeSetzen(0, 1, 1))
    assert events[:2] == [
        ev.AmoebenGesetzt(farbe=order[0], setzungen=((0, 1, 1),)),
        ev.AmoebeSchaden(farbe=order[0], amoebe=0),  # 4 players: the first amoeba has 1 DP
    ]
    assert _refusal(table, order[1], AmoebeSetzen(0, 1, 1)) == 25  # occupied
    for seat in order[1:]:
        table.apply(seat, table.default_action(seat))  # type: ignore[arg-type]
    assert table.to_move().seats == {order[-1]}  # second amoebas: descending
    assert _refusal(table, order[-1], table.default_action(order[-1])) is None
    for seat in order[::-1]:
        placed = table.apply(seat, table.default_action(seat))  # type: ignore[arg-type]
        assert "AmoebeSchaden" not in kinds(placed)
    assert kinds(placed)[-2:] == ["Runde", "ZugBewegen"]
    assert _refusal(table, order[0], AmoebeSetzen(0, 1, 1)) == 30


def test_a_late_answer_and_another_seats_answer_are_refused() -> None:
    table = seated_table(3, 5)
    table.apply(0, Bereit())
    with pytest.raises(NotYourTurn):
        table.apply(0, Bereit())


# -- phase 2 -------------------------------------------------------------------------------------


def test_the_card_is_revealed_in_round_one_without_defects() -> None:
    g = fresh_state(3)
    g.round = 1
    give(g, 0, *[Gene(n) for n in range(12)])
    d = Driver(g, environment_and_defects(g))
    assert d.events == [ev.Umweltkarte(stroemungsrichtung=1, ozonschichtdicke=14)]
    assert d.request is None and g.card == EnvironmentCard(1, 14)


def test_defects_from_round_two_in_descending_order() -> None:
    g = fresh_state(3, environment_deck=["1:1", "3:10"])
    g.round = 2
    give(g, 0, Gene.STRAHLENSCHUTZ, Gene.PANZERUNG, Gene.AGGRESSION, Gene.TEILUNGSRATE)  # MP 14
    give(g, 2, Gene.GENUEGSAMKEIT, Gene.PARASITISMUS, Gene.INTELLIGENZ)  # MP 13
    d = Driver(g, environment_and_defects(g))
    assert kinds(d.events) == ["Umweltkarte", "ZugGendefekte"]
    assert d.events[-1] == ev.ZugGendefekte(defekt=3, audience=frozenset({2}))
    assert g.last_card_revealed
    g.seats[2].bp = 2
    assert d.refused(2, DefektAusgleichen()) == 18
    assert d.refused(2, DefektAusgleichen((0, 0))) == 5
    assert d.refused(2, DefektAusgleichen((7,))) == 10
    assert d.request is not None and d.request.default(2) == DefektAusgleichen((0,))
    events = d.send(2, DefektAusgleichen((0,)))
    assert events[:2] == [
        ev.DefektAusgleichen(farbe=2, abgeben=(0,)),
        ev.ZugGendefekte(defekt=4, audience=frozenset({0})),
    ]
    events = d.send(0, DefektAusgleichen((7,)))  # Ray Protection covers 4: no BP line
    assert events == [ev.DefektAusgleichen(farbe=0, abgeben=(7,))]
    assert Gene.STRAHLENSCHUTZ not in g.seats[0].genes and g.free_copies(Gene.STRAHLENSCHUTZ) == 1


def test_defects_paid_in_bp_only() -> None:
    g = fresh_state(3, environment_deck=["1:1", "3:3"])
    g.round = 3
    give(g, 1, Gene.VERTEIDIGUNG)  # MP 4
    d = Driver(g, environment_and_defects(g))
    assert d.send(1, DefektAusgleichen()) == [
        ev.DefektAusgleichen(farbe=1, abgeben=()),
        ev.Biopunkte(farbe=1, differenz=-1),
    ]


# -- phase 3 -------------------------------------------------------------------------------------


def _buyer(players: int = 3, bp: int = 30):  # type: ignore[no-untyped-def]
    g = fresh_state(players)
    g.round = 2
    for player in g.seats.values():
        player.bp = bp
    d = Driver(g, buying(g))
    if players == 4:
        d.send(3, GenKaufen())  # colour 3 holds the highest space and buys first
    return g, d


def test_buying_genes_in_descending_order() -> None:
    g, d = _buyer()
    assert d.events == [ev.ZugGenKaufen(audience=frozenset({2}))]
    events = d.send(2, GenKaufen((0, 15)))
    assert events[:2] == [
        ev.GenKaufen(farbe=2, gene=(0, 15), abgeben=()),
        ev.Biopunkte(farbe=2, differenz=-8),
    ]
    assert g.seats[2].genes == {Gene.INTELLIGENZ: 2, Gene.TEILUNGSRATE: 2}
    assert d.refused(1, GenKaufen((0,))) == 11  # one copy with three players
    assert d.refused(1, GenKaufen((12,))) == 11  # Frugality: none with three players
    assert d.refused(1, GenKaufen((14,))) == 11  # Parasitism: none with three players
    assert d.refused(1, GenKaufen((1, 1))) == 6
    assert d.refused(1, GenKaufen((20,))) == 22
    assert d.refused(1, GenKaufen((17,))) == 10
    assert d.refused(1, GenKaufen((1,), panzerung_abgeben=4)) == 21
    g.seats[1].bp = 5
    assert d.refused(1, GenKaufen((1, 2))) == 18
    d.send(1, GenKaufen())
    give(g, 0, Gene.INTELLIGENZ)
    assert d.refused(0, GenKaufen((3,))) is None


def test_an_advanced_gene_takes_back_its_basic_gene_from_an_earlier_round() -> None:
    g, d = _buyer(4)
    give(g, 2, Gene.GESCHWINDIGKEIT, bought_in=1)
    give(g, 1, Gene.BEWEGUNG1, bought_in=2)  # bought this round: too new
    give(g, 0, Gene.BEWEGUNG2)
    events = d.send(2, GenKaufen((16,)))
    assert events[0] == ev.GenKaufen(farbe=2, gene=(16,), abgeben=(3,))
    assert Gene.GESCHWINDIGKEIT not in g.seats[2].genes
    assert d.refused(1, GenKaufen((17,))) == 10
    d.send(1, GenKaufen())
    assert d.refused(0, GenKaufen((1,))) == 22  # part of an owned advanced gene
    assert d.refused(0, GenKaufen((17,))) == 6
    assert d.refused(0, GenKaufen((16,))) == 11


def test_armor_names_the_basic_gene_when_both_are_owned() -> None:
    g, d = _buyer(4)
    give(g, 2, Gene.VERTEIDIGUNG, Gene.FLUCHT, bought_in=1)
    give(g, 1, Gene.FLUCHT, bought_in=1)
    assert d.refused(2, GenKaufen((19,))) == 9
    assert d.refused(2, GenKaufen((19,), panzerung_abgeben=6)) == 22
    assert GenKaufen((19,), 4) in d.request.legal(2)  # type: ignore[union-attr]
    assert d.send(2, GenKaufen((19,), panzerung_abgeben=5))[0] == ev.GenKaufen(
        farbe=2, gene=(19,), abgeben=(5,)
    )
    assert set(g.seats[2].genes) == {Gene.VERTEIDIGUNG, Gene.PANZERUNG}
    assert d.refused(1, GenKaufen((19,))) == 11  # one copy only
    g.seats[2].genes.pop(Gene.PANZERUNG)
    assert d.refused(1, GenKaufen((19,), panzerung_abgeben=4)) == 10
    assert d.send(1, GenKaufen((19,)))[0] == ev.GenKaufen(farbe=1, gene=(19,), abgeben=(5,))


# -- phase 4 -------------------------------------------------------------------------------------


def test_income_first_then_division_next_to_own_amoebas() -> None:
    g = fresh_state(3)
    put(g, 2, 0, (1, 1))
    put(g, 2, 1, (3, 3))
    put(g, 1, 0, (1, 0))
    put(g, 0, 0, (4, 0))
    put(g, 0, 1, (4, 1))
    d = Driver(g, cell_division(g))
    assert kinds(d.events) == ["Biopunkte", "Biopunkte", "Biopunkte", "ZugAmoebeSetzen"]
    assert [e.farbe for e in d.events[:3]] == [2, 1, 0]  # type: ignore[attr-defined]
    assert d.refused(2, AmoebenSetzen(((2, 4, 4),))) == 25
    assert d.refused(2, AmoebenSetzen(((2, 2, 2),))) == 25  # the compass
    assert d.refused(2, AmoebenSetzen(((2, 1, 1),))) == 25  # own amoeba there
    assert d.refused(2, AmoebenSetzen(((1, 1, 2),))) == 3
    assert d.refused(2, AmoebenSetzen(((2, 0, 0),))) == 25
    assert d.refused(2, AmoebenSetzen(((2, 3, 1),))) == 25  # not adjacent
    assert d.refused(2, AmoebenSetzen(((2, 1, 2), (3, 1, 3), (4, 0, 3)))) == 18  # 18 BP > 14
    assert d.refused(2, AmoebenSetzen(((2, 1),))) == 21
    events = d.send(2, AmoebenSetzen(((2, 1, 2), (3, 0, 2))))  # the chain counts
    assert events[:2] == [
        ev.AmoebenGesetzt(farbe=2, setzungen=((2, 1, 2), (3, 0, 2))),
        ev.Biopunkte(farbe=2, differenz=-12),
    ]
    assert d.refused(1, AmoebenSetzen(((1, 3, 3),))) is None  # one amoeba: anywhere, paid
    assert d.send(1, AmoebenSetzen(((1, 3, 3),)))[1] == ev.Biopunkte(farbe=1, differenz=-6)
    give(g, 0, Gene.TEILUNGSRATE)
    assert d.send(0, AmoebenSetzen(((2, 3, 0),)))[1] == ev.Biopunkte(farbe=0, differenz=-4)


def test_division_with_no_amoeba_is_free_spores_place_anywhere_and_seven_is_the_cap() -> None:
    g = fresh_state(3)
    for n in range(7):
        put(g, 2, n, (n % 4, 1 + n // 4))
    put(g, 1, 0, (1, 0))
    put(g, 1, 1, (4, 0))
    give(g, 1, Gene.SPOREN)
    d = Driver(g, cell_division(g))
    assert d.request is not None and d.request.legal(2) == [AmoebenSetzen()]
    assert d.refused(2, AmoebenSetzen(((6, 4, 3),))) == 3
    d.send(2, AmoebenSetzen())
    assert d.refused(1, AmoebenSetzen(((2, 3, 4),))) is None  # Spores: far from its own
    d.send(1, AmoebenSetzen(((2, 3, 4),)))
    g.seats[0].bp = 0
    events = d.send(0, AmoebenSetzen(((5, 4, 4 - 1),)))
    assert kinds(events) == ["AmoebenGesetzt"]  # the first amoeba of an empty tribe is free


# -- phase 6 and the end -------------------------------------------------------------------------


def test_scoring_tables_and_gene_weights() -> None:
    assert [gene_spaces(w) for w in range(8)] == [0, 0, 0, 1, 2, 3, 4, 4]
    g = fresh_state(3)
    for n in range(5):
        put(g, 0, n, (n % 4, 1))
    give(g, 0, Gene.INTELLIGENZ, Gene.STRAHLENSCHUTZ, Gene.AGGRESSION)  # weight 1 + 0 + 2
    put(g, 1, 0, (1, 0))
    score(g)
    assert g.seats[0].position == 0 + 4 + 1 + 2  # jumps over spaces 1 and 2
    assert g.out[-3:] == [
        ev.Punkte(farbe=0, punkte=7),
        ev.Punkte(farbe=1, punkte=1),
        ev.Punkte(farbe=2, punkte=2),
    ]


def test_leapfrog_skips_occupied_spaces_and_markers_move_in_descending_order() -> None:
    assert leapfrog(3, 2, {4, 6}) == 7
    assert leapfrog(3, 0, {4}) == 3
    g = fresh_state(3)
    for farbe in range(3):
        for n in range(3):
            put(g, farbe, n, (n, 3))  # one space each
    put(g, 0, 3, (3, 3))  # colour 0: four amoebas, two spaces
    score(g)
    # Colour 2 (space 2) moves first, to 3; colour 1 then takes the free space 2; colour 0
    # counts space 1, skips the taken spaces 2 and 3 and lands on 4.
    assert [g.seats[c].position for c in range(3)] == [4, 2, 3]


def test_the_game_ends_at_the_finish_zone_or_after_the_last_card() -> None:
    g = fresh_state(3)
    assert not game_over(g)
    g.seats[1].position = 40
    assert game_over(g)
    g.seats[1].position = 39
    g.last_card_revealed = True
    assert game_over(g)


def test_a_full_game_lasts_at_most_as_many_rounds_as_cards_to_reveal() -> None:
    table = seated_table(3, 2, environment_deck=["5:20", "5:20", "5:20"], shuffle_deck=False)
    while not table.finished:
        seat = min(table.to_move().seats)
        table.apply(seat, table.default_action(seat))  # type: ignore[arg-type]
    assert table.state.round == 2
    assert table.outcome() is not None


# -- the environment deck ------------------------------------------------------------------------


def test_default_deck_and_configured_decks() -> None:
    assert len(DEFAULT_DECK) == 11
    table = new_game({"players": 3, "shuffle_deck": False}, 1)
    assert table.state.card == EnvironmentCard(2, 10)
    assert [c.text() for c in table.state.deck] == list(DEFAULT_DECK[1:])
    shuffled = new_game({"players": 3}, 1)
    assert sorted(c.text() for c in [shuffled.state.card, *shuffled.state.deck]) == sorted(DEFAULT_DECK)
    for bad in (["1:10"], ["6:10", "1:1"], ["x", "1:1"], ["1:-1", "1:1"]):
        with pytest.raises(ConfigError):
            new_game({"environment_deck": bad}, 1)
    with pytest.raises(ConfigError):
        new_game({"timeout_ms": 50}, 1)


def test_a_no_drift_card_and_the_drift_of_the_face_up_card() -> None:
    table = seated_table(3, 9, environment_deck=["5:10", "1:10"], shuffle_deck=False)
    while table.to_move().kind != "ZUG_BEWEGEN":
        seat = min(table.to_move().seats)
        table.apply(seat, table.default_action(seat))  # type: ignore[arg-type]
    seat = min(table.to_move().seats)
    (amoeba,) = [a.nummer for a in table.state.amoebas_of(seat)][:1]
    assert table.legal_actions(seat) == [Wuerfeln(), Bewegen(amoeba, 5)]


def test_a_tribe_without_amoebas_places_one_free_and_the_next_anywhere() -> None:
    g = fresh_state(3)
    put(g, 2, 0, (1, 1))
    put(g, 1, 0, (1, 0))
    d = Driver(g, cell_division(g))
    d.send(2, AmoebenSetzen())
    d.send(1, AmoebenSetzen())
    g.seats[0].bp = 6
    events = d.send(0, AmoebenSetzen(((0, 0, 1), (1, 4, 3))))
    assert events[1] == ev.Biopunkte(farbe=0, differenz=-6)


def test_an_armor_owner_may_buy_defense_again() -> None:
    g, d = _buyer(3)
    give(g, 2, Gene.PANZERUNG)
    assert d.refused(2, GenKaufen((4,))) is None

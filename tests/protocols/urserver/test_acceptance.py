"""Acceptance items of note 15 that the other files check only in part: the 4-player setup
damage (10) and meal (13), the exact defect payments (16) and the end at the finish zone (20).
Positions are arranged on the engine's table while a request is pending, as in
test_fehler.py."""

from __future__ import annotations

from urserver_support import Table, autoplay, seat_of

from gamehall.protocols.urserver.texts import fehler_line
from gamehall.rules.ursuppe import events as ev
from gamehall.rules.ursuppe.genes import Gene


def test_item_10_a_four_player_setup_placement_takes_one_damage_point() -> None:
    t = Table(4)
    placer = t.advance_to("ZUG_AMOEBE_SETZEN", setup=True)
    seat = seat_of(placer)
    g = t.engine.state
    taken = {a.feld for a in g.amoebas.values()}
    x, y = next(feld for feld in g.board.fields() if feld not in taken)
    broadcast = [f"AMOEBE_SETZEN {seat} 0 {x} {y}", f"AMOEBE_SETZEN_ENDE {seat}", f"AMOEBE_SCHADEN {seat} 0"]
    assert placer.ask(f"AMOEBE_SETZEN 0 {x} {y}")[:3] == broadcast
    for other in t.others(placer):
        assert other.take()[:3] == broadcast
    assert g.amoebas[(seat, 0)].schaden == 1


def test_item_13_the_legal_four_player_meal_and_its_excretion() -> None:
    t = Table(4)
    eater = t.advance_to("ZUG_FRESSEN", round_number=1)
    seat = seat_of(eater)
    (prompt,) = t.engine.resync(seat)
    assert isinstance(prompt, ev.ZugFressen)
    n = prompt.amoebe
    g = t.engine.state
    x, y = g.amoebas[(seat, n)].feld
    g.cubes[(x, y)] = [2, 2, 2, 2]
    meal = ":".join("0" if colour == seat else "1" for colour in range(4))
    starve = ":".join("0" for _ in range(4))
    assert eater.ask(f"FRESSEN {n} {starve}") == [fehler_line(12)]  # a meal fits
    assert eater.ask(f"FRESSEN {n} {meal}")[:2] == [
        f"FRESSEN {seat} {n} {meal}",
        f"NAEHRSTOFF {seat} 2 {x} {y}",
    ]
    assert g.cubes[(x, y)] == [2 + 2 if colour == seat else 2 - 1 for colour in range(4)]


def _payer(t: Table) -> tuple[int, int]:
    mover = t.advance_to("ZUG_BEWEGEN", round_number=2)
    seat = seat_of(mover)
    g = t.engine.state
    for gene in (Gene.VERTEIDIGUNG, Gene.FLUCHT, Gene.STROMLINIENFORM, Gene.STRAHLENSCHUTZ):
        g.seats[seat].genes[gene] = 0  # MP 4 + 4 + 4 - 2 = 10 against the next card's ozone
    payer = t.advance_to("ZUG_GENDEFEKTE")
    assert payer is mover
    (prompt,) = t.engine.resync(seat)
    assert isinstance(prompt, ev.ZugGendefekte) and prompt.defekt > 0
    return seat, prompt.defekt


def test_item_16_a_gene_paid_twice_gives_5() -> None:
    t = Table(3)
    seat, _ = _payer(t)
    assert t.client(seat).ask("DEFEKT_AUSGLEICHEN 7 7") == [fehler_line(5)]


def test_item_16_a_payment_in_bp_shows_the_block_then_the_bp() -> None:
    t = Table(3)
    seat, d = _payer(t)
    g = t.engine.state
    g.seats[seat].bp = d + 3
    lines = t.client(seat).ask("DEFEKT_AUSGLEICHEN")
    assert lines[:3] == [
        f"DEFEKT_AUSGLEICHEN {seat}",
        f"DEFEKT_AUSGLEICHEN_ENDE {seat}",
        f"BIOPUNKTE {seat} -{d}",
    ]
    assert g.seats[seat].bp == 3


def test_item_16_a_gene_worth_less_than_the_defect_leaves_the_rest_in_bp() -> None:
    t = Table(3)
    seat, d = _payer(t)
    g = t.engine.state
    g.seats[seat].bp = 20
    lines = t.client(seat).ask("DEFEKT_AUSGLEICHEN 7")  # Radiation Shield is worth 4
    rest = max(0, d - 4)
    expected = [f"DEFEKT_AUSGLEICHEN {seat}", "ABGEBEN 7", f"DEFEKT_AUSGLEICHEN_ENDE {seat}"]
    if rest:
        expected.append(f"BIOPUNKTE {seat} -{rest}")
    assert lines[: len(expected)] == expected
    assert Gene.STRAHLENSCHUTZ not in g.seats[seat].genes


def test_item_20_a_position_of_40_ends_the_game_after_that_round_s_scores() -> None:
    t = Table(3)
    mover = t.advance_to("ZUG_BEWEGEN", round_number=1)
    g = t.engine.state
    g.seats[seat_of(mover)].position = 40
    autoplay(t.harness, t.clients)
    assert t.engine.finished and g.round == 1
    for client in t.clients:
        lines = client.lines()
        assert lines[-1] == "SPIEL_BEENDET"
        assert lines[-4:-1] == [f"PUNKTE {c} {g.seats[c].position}" for c in range(3)]
        assert "RUNDE 2" not in lines

"""Every FEHLER of the seed, reached over the wire (note 8): each refused line gets exactly
one FEHLER line, changes nothing, and the request stays pending.

Positions are arranged on the engine's table while a request is pending (genes, BP, cubes,
where an amoeba stands), then the client sends its lines. The lobby's errors (4, 8, 13, 15,
16, 27, 28) are in test_lobby.py and repeated here briefly so this file covers 1-38.
"""

from __future__ import annotations

import re
from pathlib import Path

from urserver_support import Table, UrClient, UrHarness, answer_default, seat_of

from gamehall.protocols.urserver.texts import FEHLER_TEXTS, fehler_line
from gamehall.rules.ursuppe.environment import EnvironmentCard
from gamehall.rules.ursuppe.genes import Gene


def f(number: int) -> list[str]:
    return [fehler_line(number)]


def test_the_texts_are_the_seeds() -> None:
    assert len(FEHLER_TEXTS) == 38
    assert fehler_line(14) == "FEHLER 14 Der Parameter war keine Zahl."
    assert fehler_line(4) == "FEHLER 4 Die Anzahl der Spielerinnen liegt nicht zwischen 3 und 4"
    assert "GenPANZERUNG" in FEHLER_TEXTS[31]


def test_lobby_errors() -> None:
    harness = UrHarness()
    harness.new_game(password="geheim")
    c = harness.connect("c")
    assert c.ask("NEU 2") == f(4)
    assert c.ask("TEILNEHMEN soup1", "PASSWORT nein") == f(8)
    assert c.ask("NEU 3", "TIMEOUT 100") == f(13)
    assert c.ask("NEU drei") == f(14)
    assert c.ask("NEU 3", "NAME soup1") == f(16)
    assert c.ask("TEILNEHMEN soup9") == f(27)
    assert c.ask("FOO") == f(30)


def test_ready_and_position() -> None:
    t = Table(3)
    anna = t.advance_to("ZUG_BEREIT")
    assert anna.ask("BEREIT x") == f(21)
    assert anna.ask("POSITION 0") == f(30)
    assert anna.ask("BEREIT") == ["BEREIT 0"]
    assert anna.ask("BEREIT") == f(17)
    chooser = t.advance_to("ZUG_POSITION")
    assert chooser.ask("POSITION 3") == f(22)
    assert chooser.ask("POSITION -1") == f(22)
    assert chooser.ask("POSITION eins") == f(14)
    assert chooser.ask("POSITION 1") == [f"POSITION {seat_of(chooser)} 1"]
    second = t.advance_to("ZUG_POSITION")
    assert second.take() == []
    assert second.ask("POSITION 1") == f(22)


def test_setup_placement() -> None:
    t = Table(3)
    placer = t.advance_to("ZUG_AMOEBE_SETZEN")
    seat = seat_of(placer)
    assert placer.ask("AMOEBE_SETZEN 0 2 2") == f(25)
    assert placer.ask("AMOEBE_SETZEN 0 0 0") == f(25)
    assert placer.ask("AMOEBE_SETZEN 0 5 1") == f(25)
    assert placer.ask("AMOEBE_SETZEN 9 1 1") == f(22)
    assert placer.ask("AMOEBE_SETZEN 0 1") == f(21)
    assert placer.ask("AMOEBE_SETZEN_ENDE") == f(30)
    assert placer.ask("AMOEBE_SETZEN 0 1 1", "AMOEBE_SETZEN_ENDE") == [
        f"AMOEBE_SETZEN {seat} 0 1 1",
        f"AMOEBE_SETZEN_ENDE {seat}",
    ]
    nxt = t.advance_to("ZUG_AMOEBE_SETZEN", setup=True)
    assert nxt.ask("AMOEBE_SETZEN 0 1 1") == f(25)  # the field holds an amoeba
    while True:  # on to a player who places a second amoeba
        again = t.advance_to("ZUG_AMOEBE_SETZEN", setup=True)
        if t.engine.state.amoebas_of(seat_of(again)):
            break
        assert answer_default(t.harness, t.clients, table=t.engine)
    number = t.engine.state.amoebas_of(seat_of(again))[0].nummer
    assert again.ask(f"AMOEBE_SETZEN {number} " + " ".join(map(str, _empty(t)))) == f(3)


def _empty(t: Table) -> tuple[int, int]:
    g = t.engine.state
    taken = {a.feld for a in g.amoebas.values()}
    return next(feld for feld in g.board.fields() if feld not in taken)


def _mover(t: Table, players: int = 3) -> tuple[UrClient, int, int]:
    client = t.advance_to("ZUG_BEWEGEN", round_number=1)
    seat = seat_of(client)
    prompt = t.engine.resync(seat)[0]
    return client, seat, prompt.amoebe


def test_moving() -> None:
    t = Table(3)
    mover, seat, n = _mover(t)
    g = t.engine.state
    amoeba = g.amoebas[(seat, n)]
    other = t.others(mover)[0]
    assert other.ask(f"BEWEGEN {n} 5") == f(17)
    assert mover.ask(f"FRESSEN {n} 0:0:0") == f(30)
    assert mover.ask(f"KEINE_ZWEITE_BEWEGUNG {n}") == f(30)
    assert mover.ask("BEWEGEN 1") == f(21)
    assert mover.ask("BEWEGEN a 1") == f(14)
    assert mover.ask(f"BEWEGEN {n} 7") == f(22)
    assert mover.ask(f"BEWEGEN {(n + 1) % 7} 5") == f(1)
    g.card = EnvironmentCard(1, 12)
    amoeba.feld = (2, 1)
    assert mover.ask(f"BEWEGEN {n} 3") == f(20)
    amoeba.feld = (0, 1)
    assert mover.ask(f"BEWEGEN {n} 1") == f(32)
    assert mover.ask(f"TENTAKEL {n} 1:0:0") == f(10)
    g.seats[seat].genes[Gene.TENTAKEL] = 0
    assert mover.ask(f"TENTAKEL {n} 2:1:0") == f(35)
    assert mover.ask(f"TENTAKEL {n} 1:0") == f(22)
    g.cubes[(0, 1)] = [2, 0, 2]
    assert mover.ask(f"TENTAKEL {n} 0:1:0") == f(19)
    assert mover.ask(f"TENTAKEL {n} 1:0:1") == []
    assert mover.ask(f"TENTAKEL {n} 1:0:0") == f(36)
    g.seats[seat].bp = 0
    assert mover.ask("WUERFELN") == f(18)
    g.seats[seat].bp = 4
    rolled = mover.ask("WUERFELN")
    assert rolled[0].startswith(f"WUERFEL {seat} ") and rolled[1] == f"BIOPUNKTE {seat} -1"
    assert mover.ask("WUERFELN") == f(24)
    w1 = int(rolled[0].split()[2])
    allowed = set(range(1, 6)) if w1 == 6 else {w1}
    effective = {int(g.board.effective((0, 1), d)) for d in allowed}
    refused = next(d for d in range(1, 6) if d not in effective)
    assert mover.ask(f"BEWEGEN {n} {refused}") == f(32)
    go = min(effective)
    block = mover.ask(f"BEWEGEN {n} {go}")
    assert block[:3] == [f"BEWEGUNG {seat} {n} {go}", "TENTAKEL 1:0:1", f"BEWEGUNG_ENDE {seat} {n}"]


def test_a_drift_against_the_edge_must_be_sent_as_stay() -> None:
    t = Table(3)
    mover, seat, n = _mover(t)
    g = t.engine.state
    g.card = EnvironmentCard(1, 12)
    g.amoebas[(seat, n)].feld = (0, 1)
    assert mover.ask(f"BEWEGEN {n} 1") == f(32)
    assert mover.ask(f"BEWEGEN {n} 5")[:2] == [f"BEWEGUNG {seat} {n} 5", f"BEWEGUNG_ENDE {seat} {n}"]


def test_speed_after_a_roll_must_move() -> None:
    t = Table(3)
    mover, seat, n = _mover(t)
    g = t.engine.state
    g.seats[seat].genes[Gene.GESCHWINDIGKEIT] = 0
    g.seats[seat].genes[Gene.BEWEGUNG2] = 0
    mover.ask("WUERFELN")
    assert mover.ask(f"BEWEGEN {n} 5")[-1] == f"ZUG_BEWEGEN {n}"
    assert mover.ask(f"BEWEGEN {n} 5") == f(20)
    assert mover.ask("WUERFELN")[0].startswith(f"WUERFEL {seat}")
    assert mover.ask(f"KEINE_ZWEITE_BEWEGUNG {n}") == f(34)


def _feeder(t: Table) -> tuple[UrClient, int, int]:
    client = t.advance_to("ZUG_FRESSEN", round_number=1)
    seat = seat_of(client)
    return client, seat, t.engine.resync(seat)[0].amoebe


def test_feeding() -> None:
    t = Table(3)
    eater, seat, n = _feeder(t)
    g = t.engine.state
    feld = g.amoebas[(seat, n)].feld
    g.cubes[feld] = [2, 2, 2]
    own = ["0"] * 3
    own[seat] = "1"
    a, b = (c for c in range(3) if c != seat)

    def meal(counts: dict[int, int]) -> str:
        return ":".join(str(counts.get(c, 0)) for c in range(3))

    assert eater.ask(f"FRESSEN {n} {':'.join(own)}") == f(7)
    assert eater.ask(f"FRESSEN {n} {meal({a: 3})}") == f(19)
    assert eater.ask(f"FRESSEN {n} 0:0:0") == f(12)
    assert eater.ask(f"FRESSEN {n} {meal({a: 2, b: 2})}") == f(33)
    assert eater.ask(f"FRESSEN {n} {meal({a: 1})}") == f(12)
    assert eater.ask(f"FRESSEN {n} 1:1:1:1") == f(22)
    assert eater.ask(f"FRESSEN {n} 1:x:1") == f(14)
    assert eater.ask(f"UEBERLEBENSKAMPF {n} {a} 0") == f(10)
    g.seats[seat].genes[Gene.UEBERLEBENSKAMPF] = 0
    assert eater.ask(f"UEBERLEBENSKAMPF {n} {seat} {n}") == f(31)
    victim = g.amoebas_of(a)[0]
    victim.feld = (4, 3) if feld != (4, 3) else (1, 3)
    assert eater.ask(f"UEBERLEBENSKAMPF {n} {a} {victim.nummer}") == f(2)
    victim.feld = feld
    assert eater.ask(f"UEBERLEBENSKAMPF {n} {a} {victim.nummer}") == f(31)  # a meal fits
    lines = eater.ask(f"FRESSEN {n} {meal({a: 2, b: 1})}")
    assert lines[:2] == [
        f"FRESSEN {seat} {n} {meal({a: 2, b: 1})}",
        f"NAEHRSTOFF {seat} 2 {feld[0]} {feld[1]}",
    ]


def test_struggle_against_an_armored_or_defending_victim() -> None:
    t = Table(3)
    eater, seat, n = _feeder(t)
    g = t.engine.state
    feld = g.amoebas[(seat, n)].feld
    g.cubes[feld] = [0, 0, 0]
    victim_seat = (seat + 1) % 3
    victim = g.amoebas_of(victim_seat)[0]
    victim.feld = feld
    g.seats[seat].genes[Gene.UEBERLEBENSKAMPF] = 0
    g.seats[victim_seat].genes[Gene.PANZERUNG] = 0
    assert eater.ask(f"UEBERLEBENSKAMPF {n} {victim_seat} {victim.nummer}") == f(31)
    del g.seats[victim_seat].genes[Gene.PANZERUNG]
    g.seats[victim_seat].genes[Gene.VERTEIDIGUNG] = 0
    g.seats[victim_seat].genes[Gene.FLUCHT] = 0
    attacked = eater.ask(f"UEBERLEBENSKAMPF {n} {victim_seat} {victim.nummer}")
    assert attacked == [
        f"BIOPUNKTE {seat} -1",
        f"AMOEBE_ANGEGRIFFEN {victim_seat} {victim.nummer} {seat} {n}",
        f"ABWEHR {victim_seat} {victim.nummer}",
    ]
    defender = t.client(victim_seat)
    assert defender.take()[-1] == f"ZUG_ABWEHR {victim.nummer} {seat} {n} 2"
    assert defender.ask(f"KEINE_VERTEIDIGUNG {victim.nummer + 1}") == f(1)
    assert (
        defender.ask(f"KEINE_VERTEIDIGUNG {victim.nummer}")[-1] == f"ZUG_ABWEHR {victim.nummer} {seat} {n} 0"
    )
    assert defender.ask(f"VERTEIDIGUNG {victim.nummer}") == f(38)
    defender.ask("WUERFELN")
    assert defender.ask(f"KEINE_FLUCHT {victim.nummer}") == f(34)


def test_flight_twice() -> None:
    t = Table(3)
    eater, seat, n = _feeder(t)
    g = t.engine.state
    feld = g.amoebas[(seat, n)].feld
    g.cubes[feld] = [0, 0, 0]
    victim_seat = (seat + 1) % 3
    victim = g.amoebas_of(victim_seat)[0]
    victim.feld = feld
    g.seats[seat].genes[Gene.UEBERLEBENSKAMPF] = 0
    g.seats[victim_seat].genes[Gene.VERTEIDIGUNG] = 0
    g.seats[victim_seat].genes[Gene.FLUCHT] = 0
    eater.ask(f"UEBERLEBENSKAMPF {n} {victim_seat} {victim.nummer}")
    defender = t.client(victim_seat)
    defender.take()
    assert defender.ask(f"KEINE_FLUCHT {victim.nummer}")[-1] == f"ZUG_ABWEHR {victim.nummer} {seat} {n} 1"
    assert defender.ask(f"FLUCHT {victim.nummer} 5") == f(37)


def test_parasitism_four_players() -> None:
    t = Table(4)
    eater, seat, n = _feeder(t)
    g = t.engine.state
    feld = g.amoebas[(seat, n)].feld
    victim_seat = (seat + 1) % 4
    assert eater.ask(f"PARASITISMUS {n} {victim_seat}") == f(10)
    g.seats[seat].genes[Gene.PARASITISMUS] = 0
    assert eater.ask(f"PARASITISMUS {n} {victim_seat}") == f(2)
    g.amoebas_of(victim_seat)[0].feld = feld
    g.cubes[feld] = [0, 0, 0, 0]
    assert eater.ask(f"PARASITISMUS {n} {victim_seat}") == f(23)


def test_defects_in_round_two() -> None:
    t = Table(3)
    mover = t.advance_to("ZUG_BEWEGEN", round_number=2)
    seat = seat_of(mover)
    g = t.engine.state
    for gene in (Gene.VERTEIDIGUNG, Gene.FLUCHT, Gene.STROMLINIENFORM):
        g.seats[seat].genes[gene] = 0  # MP 12 against the next card's ozone 9: d = 3
    payer = t.advance_to("ZUG_GENDEFEKTE")
    assert payer is mover
    assert payer.ask("DEFEKT_AUSGLEICHEN 4 4") == f(5)
    assert payer.ask("DEFEKT_AUSGLEICHEN 9") == f(10)
    assert payer.ask("DEFEKT_AUSGLEICHEN 4 x") == f(14)
    g.seats[seat].bp = 0
    assert payer.ask("DEFEKT_AUSGLEICHEN") == f(18)
    assert payer.ask("DEFEKT_AUSGLEICHEN 4") == [
        f"DEFEKT_AUSGLEICHEN {seat}",
        "ABGEBEN 4",
        f"DEFEKT_AUSGLEICHEN_ENDE {seat}",
    ]


def test_buying_genes() -> None:
    t = Table(3)
    buyer = t.advance_to("ZUG_GEN_KAUFEN", round_number=1)
    seat = seat_of(buyer)
    g = t.engine.state
    g.seats[seat].bp = 30
    assert buyer.ask("GEN_KAUFEN", "GEN 3", "GEN 3", "GEN_KAUFEN_ENDE") == f(6)
    assert buyer.ask("GEN_KAUFEN", "GEN 12", "GEN_KAUFEN_ENDE") == f(11)
    assert buyer.ask("GEN_KAUFEN", "GEN 16", "GEN_KAUFEN_ENDE") == f(10)
    assert buyer.ask("GEN_KAUFEN", "GEN 20", "GEN_KAUFEN_ENDE") == f(22)
    assert buyer.ask("GEN_KAUFEN", "GEN 3 5") == f(21)
    assert buyer.ask("GEN_KAUFEN_ENDE") == f(30)  # the block was discarded
    assert buyer.ask("GEN_KAUFEN", "GEN x") == f(14)
    assert buyer.ask("GEN_KAUFEN", "PING") == f(30)
    assert buyer.ask("GEN") == f(30)
    g.seats[seat].genes[Gene.VERTEIDIGUNG] = 0
    g.seats[seat].genes[Gene.FLUCHT] = 0
    assert buyer.ask("GEN_KAUFEN", "GEN 19", "GEN_KAUFEN_ENDE") == f(9)
    g.seats[seat].bp = 5
    assert buyer.ask("GEN_KAUFEN", "GEN 19 4", "GEN_KAUFEN_ENDE") == f(18)
    g.seats[seat].bp = 6
    assert buyer.ask("GEN_KAUFEN", "GEN 19 4", "GEN_KAUFEN_ENDE") == [
        f"GEN_KAUFEN {seat}",
        "GEN 19",
        "ABGEBEN 4",
        f"GEN_KAUFEN_ENDE {seat}",
        f"BIOPUNKTE {seat} -6",
    ]


def test_division() -> None:
    t = Table(3)
    divider = t.advance_to("ZUG_AMOEBE_SETZEN", round_number=1, setup=False)
    seat = seat_of(divider)
    g = t.engine.state
    own = g.amoebas_of(seat)
    g.seats[seat].bp = 20
    assert divider.ask(f"AMOEBE_SETZEN {own[0].nummer} 1 1", "AMOEBE_SETZEN_ENDE") == f(3)
    assert divider.ask("AMOEBE_SETZEN 5 2 2", "AMOEBE_SETZEN_ENDE") == f(25)
    assert divider.ask("AMOEBE_SETZEN 5 2") == f(21)
    assert divider.ask("AMOEBE_SETZEN 5 x 1") == f(14)
    g.seats[seat].bp = 0
    neighbour = next(fd for fd in g.board.neighbours(own[0].feld) if fd not in {a.feld for a in own})
    assert divider.ask(f"AMOEBE_SETZEN 5 {neighbour[0]} {neighbour[1]}", "AMOEBE_SETZEN_ENDE") == f(18)
    assert divider.ask("AMOEBE_SETZEN_ENDE")[0] == f"AMOEBE_SETZEN_ENDE {seat}"


def test_timeout_plays_the_default_and_a_late_answer_is_refused() -> None:
    t = Table(3)
    mover, seat, n = _mover(t)
    t.harness.advance(4.999)
    assert mover.take() == []
    t.harness.advance(0.002)
    lines = mover.take()
    assert lines[0] == fehler_line(29)
    assert lines[1].startswith(f"BEWEGUNG {seat} {n} ")
    assert mover.ask(f"BEWEGEN {n} 5") == f(17)
    assert all(fehler_line(29) not in c.lines() for c in t.others(mover))


def test_after_the_end_game_commands_give_26_and_chat_goes_on() -> None:
    t = Table(3)
    from urserver_support import autoplay

    autoplay(t.harness, t.clients)
    anna, bert, _ = t.clients
    assert anna.lines()[-1] == "SPIEL_BEENDET"
    assert anna.ask("BEREIT") == f(26)
    assert anna.ask("NACHRICHT tschuess") == []
    assert bert.take()[-1] == f"NACHRICHT {seat_of(anna)} tschuess"
    assert not anna.closed
    t.harness.advance(1800)
    assert anna.closed and bert.closed


def test_every_seed_error_number_is_covered_here_or_in_the_lobby_tests() -> None:
    source = Path(__file__).read_text() + (Path(__file__).parent / "test_lobby.py").read_text()
    covered = {int(n) for n in re.findall(r"\bf\((\d+)\)", source)}
    covered |= {int(n) for n in re.findall(r"fehler_line\((\d+)\)", source)}
    assert covered >= set(range(1, 39)) - {15, 29}
    assert ("fehler_line(29)" in source and "f(15)" in source) or "fehler_line(15)" in source

"""The game over the wire beyond single errors (note 6, 9, 10, acceptance items 15-21):
combat broadcasts, upgrades, departures, chat, spectators, the end in normal and
tournament mode."""

from __future__ import annotations

import logging

import pytest
from recording_listener import RecordingListener
from urserver_support import Table, UrHarness, autoplay, seat_of

from gamehall.protocols.urserver.texts import fehler_line
from gamehall.rules.ursuppe.actions import Bereit
from gamehall.rules.ursuppe.environment import EnvironmentCard
from gamehall.rules.ursuppe.genes import Gene


def test_an_undefended_struggle() -> None:
    t = Table(3)
    eater = t.advance_to("ZUG_FRESSEN", round_number=1)
    seat = seat_of(eater)
    n = t.engine.resync(seat)[0].amoebe
    g = t.engine.state
    feld = g.amoebas[(seat, n)].feld
    g.cubes[feld] = [0, 0, 0]
    victim_seat = (seat + 2) % 3
    victim = g.amoebas_of(victim_seat)[0]
    victim.feld = feld
    g.seats[seat].genes[Gene.UEBERLEBENSKAMPF] = 0
    lines = eater.ask(f"UEBERLEBENSKAMPF {n} {victim_seat} {victim.nummer}")
    x, y = feld
    assert lines[:6] == [
        f"BIOPUNKTE {seat} -1",
        f"AMOEBE_ANGEGRIFFEN {victim_seat} {victim.nummer} {seat} {n}",
        f"AMOEBE_ENTFERNT {victim_seat} {victim.nummer}",
        f"NAEHRSTOFF 0 1 {x} {y}",
        f"NAEHRSTOFF 1 1 {x} {y}",
        f"NAEHRSTOFF 2 1 {x} {y}",
    ]
    assert not any(line.startswith("FRESSEN") for line in lines)


def test_a_defense_owner_is_asked_alone() -> None:
    t = Table(3)
    eater = t.advance_to("ZUG_FRESSEN", round_number=1)
    seat = seat_of(eater)
    n = t.engine.resync(seat)[0].amoebe
    g = t.engine.state
    feld = g.amoebas[(seat, n)].feld
    g.cubes[feld] = [0, 0, 0]
    victim_seat = (seat + 1) % 3
    victim = g.amoebas_of(victim_seat)[0]
    victim.feld = feld
    g.seats[seat].genes[Gene.UEBERLEBENSKAMPF] = 0
    g.seats[victim_seat].genes[Gene.VERTEIDIGUNG] = 0
    eater.send(f"UEBERLEBENSKAMPF {n} {victim_seat} {victim.nummer}")
    request = f"ZUG_ABWEHR {victim.nummer} {seat} {n} 1"
    for client in t.clients:
        lines = client.take()
        if client is t.client(victim_seat):
            assert lines[-1] == request
        assert f"ABWEHR {victim_seat} {victim.nummer}" in lines
        assert (request in lines) == (client is t.client(victim_seat))


def test_an_upgrade_returns_the_basic_gene() -> None:
    t = Table(3)
    buyer = t.advance_to("ZUG_GEN_KAUFEN", round_number=2)
    seat = seat_of(buyer)
    g = t.engine.state
    g.seats[seat].genes[Gene.GESCHWINDIGKEIT] = 1
    g.seats[seat].bp = 4
    assert buyer.ask("GEN_KAUFEN", "GEN 16", "GEN_KAUFEN_ENDE")[:5] == [
        f"GEN_KAUFEN {seat}",
        "GEN 16",
        "ABGEBEN 3",
        f"GEN_KAUFEN_ENDE {seat}",
        f"BIOPUNKTE {seat} -4",
    ]


def test_a_player_who_leaves_mid_game_is_played_with_defaults_to_the_end() -> None:
    t = Table(3)
    t.advance_to("ZUG_BEWEGEN", round_number=1)
    anna, bert, cleo = t.clients
    bert.send("ABMELDEN")
    assert bert.closed
    assert anna.take()[0] == f"SPIELERIN_ABGEMELDET {seat_of(bert)}"
    autoplay(t.harness, [anna, cleo])
    assert t.engine.finished
    assert anna.lines()[-1] == "SPIEL_BEENDET"
    assert not any(fehler_line(29) in line for line in anna.lines())


def test_when_every_player_is_gone_the_game_plays_out_at_once() -> None:
    t = Table(3)
    spectator = t.harness.connect("eve")
    spectator.send("ZUSCHAUEN soup1", "NAME eve")
    t.advance_to("ZUG_BEWEGEN", round_number=1)
    for client in t.clients:
        client.hang_up()
    assert t.engine.finished
    lines = spectator.lines()
    assert lines[-1] == "SPIEL_BEENDET"
    assert lines.count("SPIELERIN_ABGEMELDET 0") == 1


def test_chat_is_cut_to_70_characters_and_private_chat_reaches_only_its_target() -> None:
    t = Table(3)
    anna, bert, cleo = t.clients
    for c in t.clients:
        c.take()
    text = "x" * 100
    assert anna.ask(f"NACHRICHT {text}") == []
    assert bert.take() == [f"NACHRICHT {seat_of(anna)} {'x' * 70}"]
    assert cleo.take() == [f"NACHRICHT {seat_of(anna)} {'x' * 70}"]
    assert anna.ask("NACHRICHT   zwei   Leerzeichen ") == []
    assert bert.take() == [f"NACHRICHT {seat_of(anna)} zwei   Leerzeichen"]
    cleo.take()
    assert anna.ask(f"PRIVAT_NACHRICHT {seat_of(cleo)} nur fuer dich") == []
    assert cleo.take() == [f"PRIVAT_NACHRICHT {seat_of(anna)} nur fuer dich"]
    assert bert.take() == []
    assert anna.ask(f"PRIVAT_NACHRICHT {seat_of(anna)} ich") == [fehler_line(22)]
    assert anna.ask("PRIVAT_NACHRICHT 7 niemand") == [fehler_line(22)]
    assert anna.ask("PRIVAT_NACHRICHT x hallo") == [fehler_line(14)]
    assert anna.ask("PRIVAT_NACHRICHT 1") == [fehler_line(21)]
    assert anna.ask("NACHRICHT") == [fehler_line(21)]


def test_normal_mode_keeps_the_sockets_for_30_minutes_after_the_end() -> None:
    t = Table(3)
    autoplay(t.harness, t.clients)
    anna = t.clients[0]
    assert anna.lines()[-(3 + 1) :] == [
        *(f"PUNKTE {c} {t.engine.state.seats[c].position}" for c in range(3)),
        "SPIEL_BEENDET",
    ]
    listing = t.harness.connect("x").ask("LISTE")
    assert listing == ["SPIELE 1", "SPIEL soup1 1 2 3 3"]
    assert anna.ask("STATUS")[-1] == "STATUS_ENDE soup1"
    t.harness.advance(1799)
    assert not anna.closed
    t.harness.advance(2)
    assert all(c.closed for c in t.clients)
    assert t.harness.connect("y").ask("LISTE") == ["SPIELE 0"]


def test_tournament_mode_closes_every_socket_after_spiel_beendet() -> None:
    t = Table(3, tournament=True)
    spectator = t.harness.connect("eve")
    spectator.send("ZUSCHAUEN soup1", "NAME eve")
    autoplay(t.harness, t.clients)
    for client in [*t.clients, spectator]:
        assert client.lines()[-1] == "SPIEL_BEENDET"
        assert client.closed and client.wire.writes_after_close == 0
    assert t.harness.connect("y").ask("LISTE") == ["SPIELE 0"]


def test_tournament_mode_refuses_timeout_zero() -> None:
    harness = UrHarness(tournament=True)
    client = harness.connect("c")
    assert client.ask("NEU 3", "NAME t1", "PASSWORT", "TIMEOUT 0") == [fehler_line(22)]
    assert client.ask("NEU 3", "NAME t1", "PASSWORT", "TIMEOUT 100") == ["SPIEL_ANGEMELDET t1"]


def test_a_tournament_game_whose_players_never_answer_ends_by_timeouts() -> None:
    t = Table(3, tournament=True)
    for _ in range(2000):
        if t.engine.finished:
            break
        t.harness.advance(15.0)
    assert t.engine.finished
    for client in t.clients:
        assert client.closed
        assert fehler_line(29) in client.lines()


def test_several_games_at_once_with_passwords_and_spectators() -> None:
    harness = UrHarness()
    harness.new_game("soupA", password="a1")
    harness.new_game("soupB", players=4)
    a = [harness.join(n, "soupA", "a1") for n in ("anna", "bert", "cleo")]
    b = [harness.join(n, "soupB") for n in ("anna", "bert", "cleo", "dora")]
    watcher = harness.connect("w")
    watcher.send("ZUSCHAUEN soupA", "NAME wanda")
    assert watcher.take()[0] == "STATUS soupA"
    assert harness.connect("x").ask("LISTE") == ["SPIELE 2", "SPIEL soupA 0 1 3 3", "SPIEL soupB 1 1 4 4"]
    autoplay(harness, a, "soupA")
    autoplay(harness, b, "soupB")
    assert all(c.lines()[-1] == "SPIEL_BEENDET" for c in [*a, *b])
    assert watcher.lines()[-1] == "SPIEL_BEENDET"
    assert not any("soupB" in line for line in watcher.lines())


def test_a_browser_table_is_listed_and_urserver_clients_sit_at_it() -> None:
    harness = UrHarness()
    web = harness.hall.login("Web User", RecordingListener(), protocol="web")
    room = web.create_room("ursuppe", {"players": 3}, title="webroom", password="pw")
    web.join(room.room_id, "pw")
    client = harness.connect("c")
    assert client.ask("LISTE") == ["SPIELE 1", "SPIEL webroom 0 0 1 3"]
    assert harness.connect("x").ask("TEILNEHMEN webroom", "PASSWORT nein", "NAME bert") == [fehler_line(8)]
    bert = harness.join("bert", "webroom", "pw")
    assert bert.take() == ["SPIELERIN_AKZEPTIERT 1 bert"]
    cleo = harness.join("cleo", "webroom", "pw")
    lines = cleo.take()
    assert lines[0] == "SPIELERIN_AKZEPTIERT 2 cleo"
    assert "NAME Web_User" in lines
    assert bert.take()[0] == "SPIELERIN_ANGEMELDET 2 cleo"
    web.act(room.room_id, Bereit())
    assert bert.take() == ["BEREIT 0"]
    web.leave(room.room_id)
    assert bert.take()[0] == "SPIELERIN_ABGEMELDET 0"


def test_chat_reaches_browser_players_through_the_hall_and_back() -> None:
    harness = UrHarness()
    web_listener = RecordingListener()
    web = harness.hall.login("webby", web_listener, protocol="web")
    room = web.create_room("ursuppe", {"players": 3}, title="mixed")
    web.join(room.room_id)
    anna = harness.join("anna", "mixed")
    anna.take()
    anna.send("NACHRICHT hallo web")
    said = [d.event for _, d in web_listener.deliveries if type(d.event).__name__ == "ChatSaid"]
    assert [(e.sender, e.text) for e in said] == [("anna", "hallo web")]  # type: ignore[attr-defined]
    assert anna.take() == []
    web.chat(room.room_id, "hallo urserver")
    assert anna.take() == ["NACHRICHT 0 hallo urserver"]
    anna.send("PRIVAT_NACHRICHT 0 nur du")
    assert [e.text for e in web_listener.hall_events] == ["nur du"]  # type: ignore[attr-defined]
    web.whisper("anna", "zurueck")
    assert anna.take() == ["PRIVAT_NACHRICHT 0 zurueck"]


def test_the_spectator_limit_gives_28() -> None:
    harness = UrHarness()
    harness.new_game()
    for number in range(32):
        harness.connect(f"s{number}").send("ZUSCHAUEN soup1", f"NAME s{number}")
    assert harness.connect("late").ask("ZUSCHAUEN soup1") == [fehler_line(28)]


def test_a_timeout_fixed_by_the_tournament_operator_replaces_the_neu_value() -> None:
    harness = UrHarness(tournament=True, timeout_ms=2000)
    client = harness.connect("c")
    client.send("NEU 3", "NAME t1", "PASSWORT", "TIMEOUT 100")
    assert client.ask("STATUS t1")[1] == "TIMEOUT 2000"
    normal = UrHarness(timeout_ms=2000)
    other = normal.connect("c")
    other.send("NEU 3", "NAME t1", "PASSWORT", "TIMEOUT 100")
    assert other.ask("STATUS t1")[1] == "TIMEOUT 100"


def test_tournament_games_log_their_seed_deck_seats_and_result(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="gamehall.protocols.urserver")
    t = Table(3, tournament=True)
    autoplay(t.harness, t.clients)
    messages = [r.getMessage() for r in caplog.records]
    (start,) = [m for m in messages if m.startswith("tournament game soup1 starts")]
    assert "seed=" in start and "deck=2:10 1:14" in start and "'anna'" in start
    (result,) = [m for m in messages if m.startswith("result soup1:")]
    assert len(result.split(":", 1)[1].split()) == 3


def test_server_options_from_the_hall_defaults_set_the_charset_and_the_game_limit() -> None:
    from urserver_support import FakeWire

    from gamehall.hall import FakeClock, Hall
    from gamehall.protocols._spec import ServerResources
    from gamehall.protocols.urserver.spec import PROTOCOL
    from gamehall.rules._config import ConfigSchema, Setting
    from gamehall.rules._core import GameType
    from gamehall.rules.ursuppe import ACTIONS, SCHEMA, new_game
    from gamehall.store.memory import MemoryStore

    schema = ConfigSchema(
        "ursuppe",
        [
            *SCHEMA.settings.values(),
            Setting("urserver_charset", "latin-1", "choice", choices=("utf-8", "latin-1")),
            Setting("max_games", 1, "int", 1, 1000),
        ],
    )
    game_type = GameType(
        "ursuppe",
        "Ursuppe",
        schema,
        lambda config, seed: new_game({k: v for k, v in config.items() if k in SCHEMA.settings}, seed),
        ACTIONS,
    )
    clock = FakeClock()
    hall = Hall(games={"ursuppe": game_type}, store=MemoryStore(), clock=clock)
    wire = FakeWire("w")
    dialogue = PROTOCOL.open(ServerResources(hall, clock)).connect(wire)
    dialogue.data_received(b"NEU 3\nNAME a\nPASSWORT geheim\nTIMEOUT 0\nNEU 3\n")
    assert wire.writes == [
        b"SPIEL_ANGEMELDET a\n",
        b"FEHLER 15 Der Server nimmt keine weiteren Spiele mehr auf.\n",
    ]
    dialogue.data_received(b"TEILNEHMEN a\nPASSWORT x\n")
    assert wire.writes[-1] == b"FEHLER 8 Das Pa\xdfwort ist falsch.\n"  # ISO-8859-1


def test_holding_on_rides_along_in_the_movers_block() -> None:
    t = Table(3)
    mover = t.advance_to("ZUG_BEWEGEN", round_number=1)
    seat = seat_of(mover)
    n = t.engine.resync(seat)[0].amoebe
    g = t.engine.state
    g.card = EnvironmentCard(3, 12)  # drift east
    g.amoebas[(seat, n)].feld = (1, 1)
    rider_seat = (seat + 1) % 3
    rider = g.amoebas_of(rider_seat)[0]
    rider.feld = (1, 1)
    g.seats[rider_seat].genes[Gene.KLAMMERN] = 0
    assert mover.ask(f"BEWEGEN {n} 3") == []  # the rider is asked first: no block yet
    holder = t.client(rider_seat)
    assert holder.take()[-1] == f"ZUG_KLAMMERN {rider.nummer} {seat} {n} 3 0:0:0"
    assert holder.ask("NICHT_KLAMMERN 1 2") == [fehler_line(21)]
    block = holder.ask(f"KLAMMERN {rider.nummer} {seat} {n}")
    assert block[:3] == [
        f"BEWEGUNG {seat} {n} 3",
        f"KLAMMERN {rider_seat} {rider.nummer}",
        f"BEWEGUNG_ENDE {seat} {n}",
    ]
    assert rider.feld == (2, 1)


def test_aggression_in_phase_five() -> None:
    t = Table(3)
    t.advance_to("ZUG_GEN_KAUFEN", round_number=1)
    g = t.engine.state
    attacker_seat = t.to_move()[0]
    g.seats[attacker_seat].genes[Gene.AGGRESSION] = 0
    client = t.advance_to("ZUG_AGGRESSION", round_number=1)
    assert seat_of(client) == attacker_seat
    own = g.amoebas_of(attacker_seat)[0]
    victim_seat = (attacker_seat + 1) % 3
    victim = g.amoebas_of(victim_seat)[0]
    victim.feld = own.feld
    assert client.ask(f"AGGRESSION {own.nummer} {attacker_seat} {own.nummer}") == [fehler_line(22)]
    g.seats[attacker_seat].bp = 1
    lines = client.ask(f"AGGRESSION {own.nummer} {victim_seat} {victim.nummer}")
    assert lines[:4] == [
        f"AGGRESSION {attacker_seat} {own.nummer} {victim_seat} {victim.nummer}",
        f"BIOPUNKTE {attacker_seat} -1",
        f"AMOEBE_ANGEGRIFFEN {victim_seat} {victim.nummer} {attacker_seat} {own.nummer}",
        f"AMOEBE_ENTFERNT {victim_seat} {victim.nummer}",
    ]
    x, y = own.feld
    assert lines[4:7] == [f"NAEHRSTOFF {c} 2 {x} {y}" for c in range(3)]


def test_a_dropped_player_retakes_its_seat_by_name_within_the_grace() -> None:
    """Note 5.1, "Rejoin -- Decision (ours), 2026-12" (docs/recovery.md)."""
    t = Table(3)
    waiting = t.advance_to("ZUG_BEWEGEN", round_number=1)
    gone = t.others(waiting)[0]
    colour = seat_of(gone)
    gone.hang_up()
    assert waiting.take()[0] == f"SPIELERIN_ABGEMELDET {colour}"
    stranger = t.harness.connect("zoe")
    assert stranger.ask("TEILNEHMEN soup1", "PASSWORT x", "NAME zoe") == [fehler_line(28)]
    back = t.harness.join(gone.name)
    lines = back.take()
    assert lines[0] == f"SPIELERIN_AKZEPTIERT {colour} {gone.name}"
    assert lines[1].startswith("STATUS ") and "SPIELFELD" in [line.split()[0] for line in lines]
    assert waiting.take() == [f"SPIELERIN_ANGEMELDET {colour} {gone.name}"]
    autoplay(t.harness, [c for c in t.clients if c is not gone] + [back])
    assert t.engine.finished
    assert any(line.startswith("ZUG_") for line in back.lines())  # it plays on from here


def test_a_seat_not_retaken_within_the_grace_is_played_with_defaults_and_is_gone() -> None:
    t = Table(3)
    waiting = t.advance_to("ZUG_BEWEGEN", round_number=1)
    gone = t.others(waiting)[0]
    gone.hang_up()
    t.harness.advance(61)
    late = t.harness.connect(gone.name)
    assert late.ask("TEILNEHMEN soup1") == [fehler_line(28)]  # no held seat left: a running game

"""The game side of the dialogue (note 7, 8, 12, acceptance 7-21, 23, 24): the seed's messages
in order, every refusal as one ``err`` with nothing changed and the game going on, the round
end in both modes, the game end, resigning, drops and the turn clock."""

from __future__ import annotations

import json
from collections.abc import Callable

from mrjack_support import ends_game
from mrjack_wire_support import JackHarness, TermClient

from gamehall.protocols.mrjack.terms import Style
from gamehall.rules._core import Action
from gamehall.rules.mrjack import Aktion, Aktiv, Fertig, Setup, Ziel
from gamehall.rules.mrjack.board import sorted_labels

START_MOVES = (
    "moeglichkeiten([a1,c4,c5,d4,d5,e3,e4,e7,f4,f6,f7,f8,g3,g4,g5,g6,g7,h3,h4,h5,h6,h7,i3,i4,i5,i6,l3,m7])."
)
EMPTY_STREETS_AFTER_A1 = (
    "moeglichkeiten([b6,c4,c6,d5,d7,d8,e3,e4,e7,e8,f4,f5,f7,f8,g3,g4,g6,g7,g8,h3,h4,h6,h7,h8,i2,i4,i5,i7,"
    "j2,j3,j4,j6,j7,k2,k7,l2,l5,l7,m2,m3,m4,m5,m6,n2,n3,n4,n5,n6,n8,n9])."
)
UNKNOWN = "err('Unbekannter Befehl oder Befehl zur Zeit nicht möglich: {}')."


def snapshot(h: JackHarness) -> str:
    game = h.game()
    return json.dumps([game.view(0), game.view(1), game.view(None), game.inputs], sort_keys=True)


def line_of(action: Action) -> str:
    if isinstance(action, Aktiv):
        return f"aktiv({action.farbe})."
    if isinstance(action, Aktion):
        return f"aktion({action.aktion})."
    if isinstance(action, Ziel):
        return f"ziel({action.koordinate})."
    assert isinstance(action, Fertig)
    return "fertig."


def drive(h: JackHarness, by_seat: dict[int, TermClient], until: Callable[[], bool]) -> None:
    """Play the first legal action that does not end the game, through the wire, until done."""
    for _ in range(2000):
        if until():
            return
        game = h.game()
        (seat,) = game.to_move().seats
        legal = [a for a in game.legal_actions(seat) if not ends_game(game, a)]
        by_seat[seat].send(line_of(legal[0]))
    raise AssertionError("drive did not reach its goal")


def test_the_first_activation_of_note_7_6_line_by_line() -> None:
    h = JackHarness()
    jack, det = h.pair()
    watcher = h.login("watcher", "zuschauer")
    watcher.take()
    det.send("aktiv(gelb).")
    assert det.take() == ["ok('Farbe ist aktiv: gelb')."]
    det.send("aktion(bewegen).")
    assert det.take() == ["ok('Aktion wurde akzeptiert').", START_MOVES]
    det.send("ziel(a1).")
    (alibi,) = [line for line in det.take() if line.startswith("update_Alibi(")]
    assert alibi != "update_Alibi(lila)."
    assert det.lines()[-3:] == ["ok('Koordinate akzeptiert').", alibi, EMPTY_STREETS_AFTER_A1]
    det.send("ziel(h7).")
    assert det.take() == ["ok('Koordinate akzeptiert').", "update_Spion(h7).", "update_Figur(a1,gelb)."]
    det.send("aktion(faehigkeit).")
    assert det.take()[0] == "ok('Aktion wurde akzeptiert')."
    det.send("ziel(g6).")
    assert det.take() == [
        "ok('Koordinate akzeptiert').",
        "update_Art(g6,laterne).",
        "spielzugerlaubnis(nein).",
        "ende(spielzug).",
        "beginn(spielzug).",
        "auswahl([[gelb,nein],[rot,ja],[weiss,ja],[schwarz,ja]]).",
    ]
    cc = [
        "update_Spion(h7).",
        "update_Figur(a1,gelb).",
        "update_Art(g6,laterne).",
        "ende(spielzug).",
        "beginn(spielzug).",
        "auswahl([[gelb,nein],[rot,ja],[weiss,ja],[schwarz,ja]]).",
    ]
    assert jack.take() == [*cc, "spielzugerlaubnis(ja)."]
    assert watcher.take() == cc


def test_case_and_spacing_of_input_do_not_matter() -> None:
    _jack, det = JackHarness().pair()
    det.send("  AKTIV( Gelb ) . ")
    assert det.take() == ["ok('Farbe ist aktiv: gelb')."]
    det.send("aktion('BEWEGEN')", "ziel( F7 )")
    assert det.take()[-2:] == ["ok('Koordinate akzeptiert').", "update_Figur(f7,gelb)."]


def test_out_of_turn_commands_get_the_seeds_two_texts_and_change_nothing() -> None:
    h = JackHarness()
    jack, det = h.pair()
    before = snapshot(h)
    jack.send("aktiv(rot).", "aktion(bewegen).", "ziel(f5).", "fertig.", "aktiv(blau).")
    assert jack.take() == [
        "err('Du bist nicht dran.').",
        "err('Du bist nicht dran').",
        "err('Du bist nicht dran').",
        UNKNOWN.format("fertig"),
        "err('Du bist nicht dran.').",
    ]
    assert snapshot(h) == before and det.take() == []
    det.send("aktiv(gelb).")
    assert det.take() == ["ok('Farbe ist aktiv: gelb')."]


def test_bad_colours_actions_and_coordinates_change_nothing_and_the_game_goes_on() -> None:
    h = JackHarness()
    jack, det = h.pair()
    before = snapshot(h)
    det.send("aktiv(blau).", "aktiv(lila).", "aktion(bewegen).", "ziel(a1).")
    assert det.take() == [
        "err('Farbe ist unbekannt: blau').",
        "err('Farbe ist nicht verfügbar: lila').",
        UNKNOWN.format("aktion(bewegen)"),
        UNKNOWN.format("ziel(a1)"),
    ]
    assert snapshot(h) == before
    det.send("aktiv(gelb).")
    det.take()
    before = snapshot(h)
    det.send("aktion(fliegen).", "aktion(skip).", "aktiv(rot).", "ziel(a1).")
    assert det.take() == [
        "err('Aktion ist ungültig: fliegen').",
        "err('Aktion ist ungültig: skip').",
        UNKNOWN.format("aktiv(rot)"),
        UNKNOWN.format("ziel(a1)"),
    ]
    assert snapshot(h) == before
    det.send("aktion(bewegen).")
    det.take()
    before = snapshot(h)
    det.send("ziel(e5).", "ziel(z9).", "ziel(a99).", "ziel([a1]).")
    assert det.take() == [
        "err('Koordinate ist ungültig: e5').",
        START_MOVES,
        "err('Koordinate ist unbekannt: z9').",
        "err('Koordinate ist unbekannt: a99').",
        UNKNOWN.format("ziel([a1])"),
    ]
    assert snapshot(h) == before and jack.take() == []
    det.send("ziel(f7).")
    assert det.take() == ["ok('Koordinate akzeptiert').", "update_Figur(f7,gelb)."]
    det.send("aktion(bewegen).")
    assert det.take() == ["err('Aktion ist ungültig: bewegen')."]  # that Teilzug is done


def test_malformed_long_and_invalid_utf8_lines_change_nothing() -> None:
    h = JackHarness()
    _jack, det = h.pair()
    before = snapshot(h)
    det.send_raw(b"aktiv(gelb\n")
    det.send_raw(b"aktiv(" + b"g" * 5000 + b")\n")
    det.send_raw(b"aktiv(g\xe4lb)\n")
    det.send_raw(b"\xff\xfe\n")
    det.send_raw(b"\n  \r\n")
    assert det.take() == [
        UNKNOWN.format("aktiv(gelb"),
        "err('Zeile zu lang').",
        UNKNOWN.format("aktiv(gälb)"),  # read as Latin-1; words are ASCII (note 2.3 rule 5)
        UNKNOWN.format("ÿþ"),
    ]
    assert snapshot(h) == before
    det.send_raw(b"aktiv(gelb).\r\n")
    assert det.take() == ["ok('Farbe ist aktiv: gelb')."]


def test_accusation_right_and_wrong_ends_the_game_for_everybody() -> None:
    for target, winner in (("i6", "detektiv"), ("g5", "mrjack")):
        h = JackHarness()
        jack, det = h.pair()
        watcher = h.login("watcher", "zuschauer")
        watcher.take()
        det.send("aktiv(gelb).", "aktion(bewegen).")
        det.take()
        det.send(f"ziel({target}).")
        end = f"ende(spiel,{winner},lila)."
        hint = "ok('Du kannst dich mit init(mrjack) oder init(detektiv) an einem Spiel beteiligen')."
        assert det.take() == ["ok('Koordinate akzeptiert').", end, hint]
        assert jack.take() == [end, hint]
        assert watcher.take() == [end]
        assert h.games() == 0


def test_callahan_moves_an_investigation_tile_in_three_targets() -> None:
    jack, det = JackHarness().pair()
    det.send("aktiv(rot).", "aktion(faehigkeit).")
    assert det.take()[-1] == "moeglichkeiten([f3,g2,l8,m8])."
    det.send("ziel(g2).", "ziel(h6).", "ziel(h7).")
    lines = det.take()
    assert lines[-1] == "update_Absp(f3,g2,h6,h7)."
    assert lines.count("ok('Koordinate akzeptiert').") == 3
    assert jack.take() == ["update_Absp(f3,g2,h6,h7)."]


def test_smith_moves_a_steamer_and_latimer_places_a_lamp() -> None:
    jack, det = JackHarness().pair()
    det.send("aktiv(weiss).", "aktion(faehigkeit).")
    assert det.take()[-1] == "moeglichkeiten([f2,l9])."
    det.send("ziel(f2).")
    assert det.take() == ["ok('Koordinate akzeptiert').", "moeglichkeiten([c7,h9,m1])."]
    det.send("ziel(c7).")
    assert det.take() == ["ok('Koordinate akzeptiert').", "update_Schiff(f2,c7)."]
    assert jack.take() == ["update_Schiff(f2,c7)."]
    plain = JackHarness(style=Style.PLAIN)
    jack, det = plain.pair()
    det.send("aktiv(gelb)", "aktion(faehigkeit)", "ziel(g6)")
    assert det.take()[-1] == "update_Art(g6, laterne)"


def test_tumblety_without_neighbours_and_skipping_rules() -> None:
    deck = ("braun", "lila", "weiss", "schwarz", "rot", "gelb", "gruen", "beige")
    h = JackHarness(setup=Setup(jack="lila", character_decks=(deck,)))
    jack, det = h.pair()
    det.send("aktiv(braun).", "aktion(skip).")
    assert det.take() == ["ok('Farbe ist aktiv: braun').", "err('Aktion ist ungültig: skip')."]
    drive(h, {0: jack, 1: det}, lambda: h.game().to_move().kind == "aktiv")
    jack.take()
    jack.send("aktiv(lila).", "aktion(faehigkeit).")
    assert jack.take() == ["ok('Farbe ist aktiv: lila').", "err('Aktion ist ungültig: faehigkeit')."]
    jack.send("aktion(bewegen).", "ziel(j7).", "aktion(skip).")
    lines = jack.take()
    moved = lines.index("update_Figur(j7,lila).")
    assert lines[moved : moved + 5] == [
        "update_Figur(j7,lila).",
        "ok('Aktion wurde akzeptiert').",
        "spielzugerlaubnis(nein).",
        "ende(spielzug).",
        "beginn(spielzug).",
    ]


def test_escape_through_the_land_exit_when_the_witness_saw_nothing() -> None:
    deck = ("rot", "lila", "weiss", "schwarz", "gelb", "braun", "gruen", "beige")
    h = JackHarness(setup=Setup(jack="lila", character_decks=(deck, deck)))
    jack, det = h.pair()
    det.send("aktiv(rot).", "aktion(bewegen).")
    assert "o6" not in det.take()[-1]
    det.send("ziel(g6).", "aktion(faehigkeit).", "ziel(f3).", "ziel(e4).", "ziel(e3).")
    game = h.game()
    game.board.figures["lila"] = "n5"  # test hook: Mr. Jack next to the exit, unseen last round
    game.witness_seen = False
    jack.take()
    jack.send("aktiv(lila).", "aktion(bewegen).")
    assert "o6" in jack.take()[-1]
    jack.send("ziel(o6).")
    assert jack.take()[-3:-1] == ["ok('Koordinate akzeptiert').", "ende(spiel,mrjack,lila)."]
    assert det.take()[-2] == "ende(spiel,mrjack,lila)."


def test_no_escape_target_while_the_witness_saw_mr_jack() -> None:
    deck = ("rot", "lila", "weiss", "schwarz", "gelb", "braun", "gruen", "beige")
    h = JackHarness(setup=Setup(jack="lila", character_decks=(deck,)))
    jack, det = h.pair()
    drive(h, {0: jack, 1: det}, lambda: h.game().awaited_seat() == 0)
    h.game().board.figures["lila"] = "n5"
    jack.take()
    jack.send("aktiv(lila).", "aktion(bewegen).")
    assert "o6" not in jack.take()[-1]


def test_server_mode_round_end_sends_sichtbar_the_flips_in_colour_order_and_goes_on() -> None:
    h = JackHarness()
    jack, det = h.pair()
    drive(h, {0: jack, 1: det}, lambda: h.game().round == 2)
    lines = det.lines()
    end = lines.index("ende(runde).")
    sichtbar = max(i for i in range(end) if lines[i].startswith("sichtbar("))
    flips = lines[sichtbar + 1 : end]
    assert all(line.startswith("update_Verdacht(") for line in flips) and flips
    colours = [line[len("update_Verdacht(") : -2] for line in flips]
    order = ["rot", "gelb", "braun", "gruen", "beige", "schwarz", "lila", "weiss"]
    assert colours == sorted(colours, key=order.index) and "lila" not in colours
    assert lines[sichtbar - 1] == "ende(spielzug)."
    assert lines[end + 1 : end + 4] == ["beginn(runde).", "beginn(spielzug).", lines[end + 3]]
    assert "fertig." not in lines
    det.send("fertig.")
    assert det.take()[-1] == UNKNOWN.format("fertig")


def test_detective_mode_marks_toggle_and_fertig_ends_the_round() -> None:
    h = JackHarness(round_end_mode="detective")
    jack, det = h.pair()
    drive(h, {0: jack, 1: det}, lambda: h.game().to_move().kind == "verdacht")
    game = h.game()
    hex_of_gelb = game.board.figures["gelb"]
    det.take()
    jack.take()
    before = snapshot(h)
    jack.send(f"ziel({hex_of_gelb}).", "fertig.")
    assert jack.take() == ["err('Nur der Detektiv darf verdächtigen').", "err('Du bist nicht dran.')."]
    empty = next(h for h in sorted_labels(list(game.board.empty_streets())))
    det.send(f"ziel({empty}).")
    assert det.take() == ["err('Enthält ungültige Koordinaten')."]
    assert snapshot(h) == before
    det.send(f"ziel({hex_of_gelb}).")
    assert det.take() == ["update_Verdacht(gelb)."]
    assert jack.take() == ["update_Verdacht(gelb)."]
    det.send(f"ziel({hex_of_gelb}).", "fertig.")
    assert det.take()[:3] == ["update_Verdacht(gelb).", "ende(runde).", "beginn(runde)."]


def test_after_round_8_the_game_ends_for_mrjack_and_both_can_play_again() -> None:
    h = JackHarness(setup=Setup(jack="lila"))
    jack, det = h.pair()
    drive(h, {0: jack, 1: det}, lambda: h.game().round == 8 and h.game().activation_number == 4)
    game = h.game()
    while h.games():
        (seat,) = game.to_move().seats
        legal = [a for a in game.legal_actions(seat) if not ends_game(game, a)]
        (jack if seat == 0 else det).send(line_of(legal[0]))
    hint = "ok('Du kannst dich mit init(mrjack) oder init(detektiv) an einem Spiel beteiligen')."
    for client in (jack, det):
        assert client.lines()[-3:] == ["ende(runde).", "ende(spiel,mrjack,lila).", hint]
    assert det.lines().count("beginn(runde).") == 8
    det.send("init(mrjack).")
    jack.send("init(detektiv).")
    assert det.take()[-1].startswith("auswahl(") and jack.take()[-1] == "spielzugerlaubnis(ja)."


def test_aufgeben_ends_the_game_and_the_connection_stays() -> None:
    h = JackHarness()
    jack, det = h.pair()
    watcher = h.login("watcher", "zuschauer")
    watcher.take()
    det.send("aufgeben.")
    assert det.take()[0] == "ende(spiel,mrjack,lila)."
    assert jack.take()[0] == "ende(spiel,mrjack,lila)."
    assert watcher.take() == ["ende(spiel,mrjack,lila)."]
    assert not det.closed
    det.send("aufgeben.")
    assert det.take() == [UNKNOWN.format("aufgeben")]


def test_a_drop_is_a_forfeit_and_quit_says_goodbye_after_the_end() -> None:
    h = JackHarness(rejoin_grace=0)  # a drop forfeits only where the grace is 0 (default 60)
    jack, det = h.pair()
    jack.hang_up()
    assert det.take()[0] == "ende(spiel,detektiv,lila)."
    h2 = JackHarness()
    jack, det = h2.pair()
    jack.send("quit.")
    assert jack.take() == ["ende(spiel,detektiv,lila).", "ok('Auf Wiedersehen')."]
    assert jack.closed and det.take()[0] == "ende(spiel,detektiv,lila)."


def test_the_silent_player_loses_when_the_turn_clock_runs_out() -> None:
    h = JackHarness(turn_timeout_s=300)
    jack, det = h.pair()
    h.advance(299)
    assert det.take() == []
    det.send("aktiv(gelb).")
    h.advance(299)
    assert jack.take() == []
    h.advance(2)
    assert jack.take()[0] == "ende(spiel,mrjack,lila)."


def test_with_a_rejoin_grace_the_same_nick_gets_its_seat_and_the_game_back() -> None:
    h = JackHarness(rejoin_grace=60)
    jack, det = h.pair()
    det.send("aktiv(gelb).", "aktion(bewegen).", "ziel(f7).")
    det.hang_up()
    assert jack.take() == ["update_Figur(f7,gelb)."]
    back = h.login("det")
    assert back.take() == [
        "ok('Bitte einen Nick eingeben mit nick(Nick)').",
        "ok('Du heißt jetzt: det').",
        "ok('Du kannst dich mit init(mrjack) oder init(detektiv) an einem Spiel beteiligen').",
    ]
    back.send("init(mrjack).")  # any player role: the held seat is the nick's, as detektiv
    assert back.take() == [
        "ok('Du bist detektiv').",
        "beginn(spiel,detektiv).",
        "beginn(runde).",
        "update_Figur(f7,gelb).",
        "beginn(spielzug).",
        "auswahl([[gelb,nein],[rot,ja],[weiss,ja],[schwarz,ja]]).",
        "spielzugerlaubnis(ja).",
        "ok('Farbe ist aktiv: gelb').",
    ]
    back.send("aktion(faehigkeit).", "ziel(g6).")
    assert back.take()[-1].startswith("auswahl(")


def test_the_informant_talks_once_a_round_and_relocates_to_one_of_50_empty_streets() -> None:
    h = JackHarness()
    jack, det = h.pair()
    assert EMPTY_STREETS_AFTER_A1.count(",") + 1 == 50
    det.send("aktiv(gelb).", "aktion(bewegen).", "ziel(a1).", "ziel(h7).", "aktion(faehigkeit).", "ziel(g6).")
    assert sum(line.startswith("update_Alibi(") for line in det.take()) == 1
    assert jack.take()[:2] == ["update_Spion(h7).", "update_Figur(a1,gelb)."]
    jack.send("aktiv(rot).", "aktion(bewegen).")
    assert "h7" in jack.take()[-1]
    jack.send("ziel(h7).")  # the informant's new hex, visited again in the same round: silent
    assert jack.take() == ["ok('Koordinate akzeptiert').", "update_Figur(h7,rot)."]
    assert det.take() == ["update_Figur(h7,rot)."]


def test_with_spion_broadcast_off_only_the_mover_learns_where_the_informant_went() -> None:
    h = JackHarness(spion_broadcast=False)
    jack, det = h.pair()
    watcher = h.login("watcher", "zuschauer")
    watcher.take()
    det.send("aktiv(gelb).", "aktion(bewegen).", "ziel(a1).", "ziel(h7).")
    assert det.take()[-2:] == ["update_Spion(h7).", "update_Figur(a1,gelb)."]
    assert jack.take() == ["update_Figur(a1,gelb)."]
    assert watcher.take() == ["update_Figur(a1,gelb)."]

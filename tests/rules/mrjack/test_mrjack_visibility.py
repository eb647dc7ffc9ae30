"""Visibility, the witness call and suspicion marking at the round end (note 9.6, 7.4)."""

from __future__ import annotations

from mrjack_support import DETECTIVE_SEAT, JACK_SEAT, names, play, started

from gamehall.rules.mrjack.board import BOARD
from gamehall.rules.mrjack.characters import Cast
from gamehall.rules.mrjack.events import Sichtbar, UpdateVerdacht
from gamehall.rules.mrjack.state import BoardState
from gamehall.rules.mrjack.visibility import innocents, is_seen, seen_colours

SUPPLY = {"metro": 7, "laterne": 6, "haus": 4}


def fresh() -> BoardState:
    return BoardState.starting(Cast(), SUPPLY)


def test_at_start_six_are_seen_and_schwarz_lila_are_not() -> None:
    assert seen_colours(fresh()) == {"rot", "gelb", "braun", "gruen", "beige", "weiss"}


def test_gelb_on_liberty_island_is_unseen_and_the_rest_unchanged() -> None:
    board = fresh()
    board.figures["gelb"] = "a1"
    # braun on f6 still sees rot on g5, so nothing else changes
    assert seen_colours(board) == {"rot", "braun", "gruen", "beige", "weiss"}


def test_a_gas_lamp_lights_its_neighbours() -> None:
    board = fresh()
    board.figures["lila"] = "n6"  # next to the lamp tile on n7
    assert is_seen(board, "lila")
    board.tiles["n7"] = "park"
    assert not is_seen(board, "lila")


def test_a_park_hides_unless_park_hides_is_off() -> None:
    board = fresh()
    board.figures["lila"] = "c5"  # metro tile next to the lamp on d6
    assert is_seen(board, "lila")
    board.tiles["c5"] = "park"
    assert not is_seen(board, "lila")
    assert is_seen(board, "lila", park_hides=False)


def test_quays_are_unseen_but_light_their_neighbours() -> None:
    board = fresh()
    board.figures["lila"] = "d4"
    board.figures["schwarz"] = "e3"
    assert BOARD["d4"].kind.value == "quay_embark"
    assert not is_seen(board, "lila")
    assert is_seen(board, "schwarz")


def test_exoneration_when_jack_is_seen_clears_the_unseen() -> None:
    seen, cleared = innocents(fresh(), "gelb")
    assert seen is True
    assert cleared == {"schwarz", "lila"}


def test_exoneration_when_jack_is_unseen_clears_the_seen() -> None:
    seen, cleared = innocents(fresh(), "lila")
    assert seen is False
    assert cleared == {"rot", "gelb", "braun", "gruen", "beige", "weiss"}


def test_server_mode_round_end_sends_sichtbar_marks_in_colour_order_then_next_round() -> None:
    game = started(jack="lila")
    play(game, DETECTIVE_SEAT, "aktiv(weiss)", "aktion(faehigkeit)", "ziel(f2)", "ziel(c7)")
    play(game, DETECTIVE_SEAT, "aktion(bewegen)", "ziel(l5)")
    play(game, JACK_SEAT, "aktiv(rot)", "aktion(faehigkeit)", "ziel(l8)", "ziel(k7)", "ziel(l7)")
    play(game, JACK_SEAT, "aktion(bewegen)", "ziel(g6)")
    play(game, JACK_SEAT, "aktiv(gelb)", "aktion(faehigkeit)", "ziel(n9)", "aktion(bewegen)", "ziel(g4)")
    play(game, DETECTIVE_SEAT, "aktiv(schwarz)", "aktion(faehigkeit)", "ziel(f6)")
    events = play(game, DETECTIVE_SEAT, "ziel(f7)")
    # seen: rot g6 / braun f7 (each other), gruen k4 / beige j5 / weiss l5; unseen: gelb g4,
    # schwarz i3 and lila i6 = Mr. Jack, so the seen ones are cleared
    assert names(events) == [
        "KoordinateAkzeptiert",
        "UpdateFigur",
        "Spielzugerlaubnis",
        "EndeSpielzug",
        "Sichtbar",
        *["UpdateVerdacht"] * 5,
        "EndeRunde",
        "BeginnRunde",
        "BeginnSpielzug",
        "Auswahl",
        "Spielzugerlaubnis",
    ]
    assert events[4] == Sichtbar(sichtbar=False)
    assert events[5:10] == [
        UpdateVerdacht(farbe=c, verdaechtig=False) for c in ("rot", "braun", "gruen", "beige", "weiss")
    ]
    assert game.suspects == {"gelb", "schwarz", "lila"}
    assert game.witness_seen is False


def test_a_character_cleared_once_is_not_marked_again() -> None:
    game = started(jack="gelb")
    game.suspects.discard("rot")
    play(game, DETECTIVE_SEAT, "aktiv(weiss)", "aktion(faehigkeit)", "ziel(f2)", "ziel(c7)")
    play(game, DETECTIVE_SEAT, "aktion(bewegen)", "ziel(l5)")
    play(game, JACK_SEAT, "aktiv(rot)", "aktion(faehigkeit)", "ziel(l8)", "ziel(k7)", "ziel(l7)")
    play(game, JACK_SEAT, "aktion(bewegen)", "ziel(g6)")
    play(game, JACK_SEAT, "aktiv(gelb)", "aktion(faehigkeit)", "ziel(n9)", "aktion(bewegen)", "ziel(g4)")
    play(game, DETECTIVE_SEAT, "aktiv(schwarz)", "aktion(faehigkeit)", "ziel(f6)")
    events = play(game, DETECTIVE_SEAT, "ziel(f7)")
    # gelb = Mr. Jack is unseen on g4: the seen are cleared; rot was already innocent
    marks = [e.farbe for e in events if isinstance(e, UpdateVerdacht)]
    assert marks == ["braun", "gruen", "beige", "weiss"]

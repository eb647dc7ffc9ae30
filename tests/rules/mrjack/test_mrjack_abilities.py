"""One rule case per ability (note 9.4) with the target dialogues of note 8, and the skip
rules of 9.8."""

from __future__ import annotations

import pytest
from mrjack_support import DETECTIVE_SEAT, JACK_SEAT, names, options_of, play, started

from gamehall.rules._core import RuleError
from gamehall.rules.mrjack import MrJackGame
from gamehall.rules.mrjack.events import UpdateAbsp, UpdateArt, UpdateFigur, UpdateSchiff


def first(colour: str) -> tuple[str, ...]:
    """A round-1 deck that reveals ``colour`` first (picked by the detective)."""
    rest = [c for c in ("gelb", "rot", "weiss", "schwarz", "braun", "gruen", "beige", "lila") if c != colour]
    return (colour, *rest)


def code_of(game: MrJackGame, seat: int, *commands: str) -> str:
    with pytest.raises(RuleError) as caught:
        play(game, seat, *commands)
    return caught.value.code


def test_grant_turns_a_removable_tile_to_its_park_side() -> None:
    game = started(decks=(first("gruen"),))
    events = play(game, DETECTIVE_SEAT, "aktiv(gruen)", "aktion(faehigkeit)")
    assert options_of(events) == ("c5", "d6", "l3", "m7", "n7")  # never the printed h5
    events = play(game, DETECTIVE_SEAT, "ziel(c5)")
    assert events[-1] == UpdateArt(koordinate="c5", art="park")
    assert "c5" not in game.board.metro_entrances()
    assert game.board.supply["metro"] == 4  # a park never returns to the supply


def test_callahan_moves_an_investigation_tile_in_three_steps() -> None:
    game = started(decks=(first("rot"),))
    events = play(game, DETECTIVE_SEAT, "aktiv(rot)", "aktion(faehigkeit)")
    assert options_of(events) == ("f3", "g2", "l8", "m8")
    events = play(game, DETECTIVE_SEAT, "ziel(g2)")
    # the lifted tile's own hexes count as empty
    assert {"f3", "g2", "h6"} <= set(options_of(events))
    assert "h5" not in options_of(events)
    events = play(game, DETECTIVE_SEAT, "ziel(h6)")
    assert options_of(events) == ("g6", "h7", "i5")
    events = play(game, DETECTIVE_SEAT, "ziel(h7)")
    assert names(events) == ["KoordinateAkzeptiert", "UpdateAbsp"]
    assert events[-1] == UpdateAbsp(alt1="f3", alt2="g2", neu1="h6", neu2="h7")
    assert game.board.investigation == [("h6", "h7"), ("l8", "m8")]


def test_callahan_may_not_put_the_tile_back_where_it_was() -> None:
    game = started(decks=(first("rot"),))
    play(game, DETECTIVE_SEAT, "aktiv(rot)", "aktion(faehigkeit)", "ziel(f3)")
    events = play(game, DETECTIVE_SEAT, "ziel(f3)")
    assert "g2" not in options_of(events)
    assert set(options_of(events)) == {"e3", "f4", "g3"}


def test_smith_moves_a_steamer_to_a_free_port() -> None:
    game = started(decks=(first("weiss"),))
    events = play(game, DETECTIVE_SEAT, "aktiv(weiss)", "aktion(faehigkeit)")
    assert options_of(events) == ("f2", "l9")
    events = play(game, DETECTIVE_SEAT, "ziel(f2)")
    assert options_of(events) == ("c7", "h9", "m1")
    events = play(game, DETECTIVE_SEAT, "ziel(c7)")
    assert events[-1] == UpdateSchiff(von="f2", nach="c7")
    assert game.board.steamers == ["c7", "l9"]


def test_latimer_places_a_gas_lamp_on_an_empty_street() -> None:
    game = started()
    events = play(game, DETECTIVE_SEAT, "aktiv(gelb)", "aktion(faehigkeit)")
    assert len(options_of(events)) == 49
    events = play(game, DETECTIVE_SEAT, "ziel(g6)")
    assert events[-1] == UpdateArt(koordinate="g6", art="laterne")
    assert game.board.supply["laterne"] == 3
    assert game.phase.value == "aktion"  # his move is still to come


def test_beach_places_a_metro_entrance_and_may_not_skip_it() -> None:
    game = started(decks=(first("braun"),))
    play(game, DETECTIVE_SEAT, "aktiv(braun)", "aktion(bewegen)", "ziel(f7)")
    assert code_of(game, DETECTIVE_SEAT, "aktion(skip)") == "invalid_action"
    events = play(game, DETECTIVE_SEAT, "aktion(faehigkeit)", "ziel(n2)")
    assert events[3] == UpdateArt(koordinate="n2", art="metro")
    assert "n2" in game.board.metro_entrances()
    assert names(events)[4:6] == ["Spielzugerlaubnis", "EndeSpielzug"]
    assert game.activation_number == 2


def test_cloud_rider_places_a_building_site_that_blocks() -> None:
    game = started(decks=(first("beige"),))
    events = play(game, DETECTIVE_SEAT, "aktiv(beige)", "aktion(faehigkeit)", "ziel(g4)")
    assert events[-1] == UpdateArt(koordinate="g4", art="haus")
    assert game.board.blocks_walkers("g4")


def test_an_empty_supply_leaves_no_target_and_the_ability_may_be_skipped() -> None:
    game = started(config={"tile_supply_laterne": 2})
    assert game.board.supply["laterne"] == 0
    play(game, DETECTIVE_SEAT, "aktiv(gelb)")
    assert code_of(game, DETECTIVE_SEAT, "aktion(faehigkeit)") == "invalid_action"
    assert code_of(game, DETECTIVE_SEAT, "aktion(skip)") == "invalid_action"  # the move is left
    events = play(game, DETECTIVE_SEAT, "aktion(bewegen)", "ziel(f4)", "aktion(skip)")
    assert names(events)[4:7] == ["AktionAkzeptiert", "Spielzugerlaubnis", "EndeSpielzug"]
    assert game.activation_number == 2


def test_eastman_moves_another_character_and_nothing_else() -> None:
    game = started(decks=(first("schwarz"),))
    assert code_of(game, DETECTIVE_SEAT, "aktiv(schwarz)", "aktion(bewegen)") == "invalid_action"
    events = play(game, DETECTIVE_SEAT, "aktion(faehigkeit)")
    assert options_of(events) == ("f5", "f6", "g5", "i6", "j5", "k4", "k5")
    events = play(game, DETECTIVE_SEAT, "ziel(i6)")
    assert "f5" not in options_of(events)  # no occupied hex: Eastman accuses nobody
    events = play(game, DETECTIVE_SEAT, "ziel(h7)")
    assert events[1] == UpdateFigur(koordinate="h7", farbe="lila")
    assert names(events)[2:4] == ["Spielzugerlaubnis", "EndeSpielzug"]  # one Teilzug only


def test_monk_own_move_lets_eastman_move_himself_instead() -> None:
    game = started(decks=(first("schwarz"),), config={"monk_own_move": True})
    events = play(game, DETECTIVE_SEAT, "aktiv(schwarz)", "aktion(bewegen)", "ziel(i4)")
    assert events[4] == UpdateFigur(koordinate="i4", farbe="schwarz")
    assert names(events)[5:7] == ["Spielzugerlaubnis", "EndeSpielzug"]  # still one Teilzug
    assert game.activation_number == 2


def test_tumblety_swaps_a_neighbour_with_any_other_character() -> None:
    game = started(decks=(first("lila"),))
    play(game, DETECTIVE_SEAT, "aktiv(lila)")
    assert code_of(game, DETECTIVE_SEAT, "aktion(faehigkeit)") == "invalid_action"  # nobody next to him
    play(game, DETECTIVE_SEAT, "aktion(bewegen)", "ziel(i5)")
    events = play(game, DETECTIVE_SEAT, "aktion(faehigkeit)")
    assert options_of(events) == ("j5",)
    events = play(game, DETECTIVE_SEAT, "ziel(j5)")
    assert options_of(events) == ("f5", "f6", "g5", "i3", "k4", "k5")
    events = play(game, DETECTIVE_SEAT, "ziel(f5)")
    assert events[1:3] == [
        UpdateFigur(koordinate="f5", farbe="beige"),
        UpdateFigur(koordinate="j5", farbe="gelb"),
    ]


def test_tumblety_may_skip_his_swap_after_the_move() -> None:
    game = started(decks=(first("lila"),))
    play(game, DETECTIVE_SEAT, "aktiv(lila)")
    assert code_of(game, DETECTIVE_SEAT, "aktion(skip)") == "invalid_action"  # the move has targets
    events = play(game, DETECTIVE_SEAT, "aktion(bewegen)", "ziel(i5)", "aktion(skip)")
    assert names(events)[-6:-3] == ["AktionAkzeptiert", "Spielzugerlaubnis", "EndeSpielzug"]


def test_tumblety_optional_off_makes_the_swap_mandatory() -> None:
    game = started(decks=(first("lila"),), config={"tumblety_optional": False})
    play(game, DETECTIVE_SEAT, "aktiv(lila)", "aktion(bewegen)", "ziel(i5)")
    assert code_of(game, DETECTIVE_SEAT, "aktion(skip)") == "invalid_action"


def test_ability_skip_always_lets_any_ability_be_skipped() -> None:
    game = started(config={"ability_skip": "always"})
    play(game, DETECTIVE_SEAT, "aktiv(gelb)", "aktion(bewegen)", "ziel(f4)", "aktion(skip)")
    assert game.activation_number == 2 and game.board.supply["laterne"] == 4


def test_the_ability_may_come_before_or_after_the_move() -> None:
    game = started()
    play(game, DETECTIVE_SEAT, "aktiv(gelb)", "aktion(bewegen)", "ziel(f4)")
    assert code_of(game, DETECTIVE_SEAT, "aktion(bewegen)") == "invalid_action"  # done already
    play(game, DETECTIVE_SEAT, "aktion(faehigkeit)", "ziel(g6)")
    assert game.activation_number == 2
    play(game, JACK_SEAT, "aktiv(rot)", "aktion(faehigkeit)", "ziel(l8)", "ziel(k7)", "ziel(l7)")
    play(game, JACK_SEAT, "aktion(bewegen)", "ziel(g4)")
    assert game.activation_number == 3


def test_min_move_zero_makes_the_move_optional() -> None:
    game = started(config={"min_move": 0})
    play(game, DETECTIVE_SEAT, "aktiv(gelb)", "aktion(faehigkeit)", "ziel(g6)", "aktion(skip)")
    assert game.board.figures["gelb"] == "f5" and game.activation_number == 2

"""Movement (note 9.3): 1-3 steps, blocking, crossing occupied hexes, metro jumps, ferries,
Cloud Rider's flight and the escape targets."""

from __future__ import annotations

from mrjack_support import DETECTIVE_SEAT, JACK_SEAT, options_of, play, started

from gamehall.rules.mrjack.characters import Cast
from gamehall.rules.mrjack.movement import destinations
from gamehall.rules.mrjack.state import BoardState

SUPPLY = {"metro": 7, "laterne": 6, "haus": 4}

DETECTIVE_GELB = [
    "a1",
    "c4",
    "c5",
    "d4",
    "d5",
    "e3",
    "e4",
    "e7",
    "f4",
    "f6",
    "f7",
    "f8",
    "g3",
    "g4",
    "g5",
    "g6",
    "g7",
    "h3",
    "h4",
    "h5",
    "h6",
    "h7",
    "i3",
    "i4",
    "i5",
    "i6",
    "l3",
    "m7",
]


def fresh() -> BoardState:
    return BoardState.starting(Cast(), SUPPLY)


def walk(board: BoardState, colour: str, *, flies: bool = False, escape: bool = False) -> set[str]:
    return set(destinations(board, colour, flies=flies, accusation=False, escape=escape))


def test_detective_moving_gelb_from_f5_gets_the_28_of_the_note() -> None:
    game = started()
    events = play(game, DETECTIVE_SEAT, "aktiv(gelb)", "aktion(bewegen)")
    assert list(options_of(events)) == DETECTIVE_GELB


def test_mr_jack_moving_gelb_gets_the_same_24_without_occupied_hexes() -> None:
    game = started(decks=(("weiss", "gelb", "rot", "schwarz", "braun", "gruen", "beige", "lila"),))
    # the detective's weiss changes nothing within gelb's reach
    play(game, DETECTIVE_SEAT, "aktiv(weiss)", "aktion(faehigkeit)", "ziel(f2)", "ziel(c7)")
    play(game, DETECTIVE_SEAT, "aktion(bewegen)", "ziel(k7)")
    events = play(game, JACK_SEAT, "aktiv(gelb)", "aktion(bewegen)")
    assert list(options_of(events)) == [h for h in DETECTIVE_GELB if h not in ("f6", "g5", "i3", "i6")]


def test_buildings_lamps_sites_and_investigation_tiles_block() -> None:
    board = fresh()
    reach = walk(board, "gelb")
    assert not reach & {"e5", "e6", "d6", "f3", "g2"}
    board.tiles["g4"] = "haus"
    board.tiles["f4"] = "laterne"
    reach = walk(board, "gelb")
    assert not reach & {"g4", "f4"}
    assert "g3" not in reach  # only reachable through f4 or g4 within 3 steps... or h4
    board.tiles.pop("g4")
    assert "g3" in walk(board, "gelb")


def test_occupied_hexes_are_crossed_but_not_ended_on() -> None:
    board = fresh()
    # from f5, f7 is reached through braun on f6
    assert "f7" in walk(board, "gelb")
    assert "f6" not in walk(board, "gelb")


def test_a_metro_jump_is_one_step() -> None:
    board = fresh()
    board.figures["gelb"] = "h5"
    reach = walk(board, "gelb")
    # h5 -> c5 (jump) -> b5 (quay) -> a1 (ferry): three steps
    assert {"c5", "l3", "m7", "b5", "a1"} <= reach
    board.tiles["c5"] = "park"  # a park is no entrance any more
    assert "c5" not in walk(board, "gelb") and "b5" not in walk(board, "gelb")


def test_ferries_are_one_way() -> None:
    board = fresh()
    board.figures["gelb"] = "b5"
    assert {"a1", "f9", "h2"} <= walk(board, "gelb")
    board.figures["gelb"] = "f9"
    assert "a1" not in walk(board, "gelb")
    board.figures["gelb"] = "a1"
    assert walk(board, "gelb") == {
        "d8",
        "e7",
        "e8",
        "f7",
        "f8",
        "f9",
        "g3",
        "g7",
        "g8",
        "h2",
        "h3",
        "h4",
        "h8",
        "i2",
        "j2",
        "j3",
    }


def test_cloud_rider_flies_over_buildings_but_never_stops_there() -> None:
    board = fresh()
    board.figures["beige"] = "j3"
    walking, flying = walk(board, "beige"), walk(board, "beige", flies=True)
    # j3 -> k3 (building) -> l4 (building) -> m4: only a flyer gets there
    assert flying - walking == {"m4"}
    assert walking < flying
    assert not flying & {"k3", "l4", "e5", "e6", "k6", "l6"}
    board.tiles["j4"] = "laterne"
    assert "j4" not in walk(board, "beige", flies=True)


def test_ports_and_the_exit_only_as_escape_targets() -> None:
    board = fresh()
    board.figures["lila"] = "n5"
    assert "o6" not in walk(board, "lila")
    assert "o6" in walk(board, "lila", escape=True)
    board.figures["lila"] = "m2"
    assert "m1" not in walk(board, "lila", escape=True)  # no steamer there
    board.steamers = ["f2", "m1"]
    assert "m1" in walk(board, "lila", escape=True)
    assert "m1" not in walk(board, "lila")


def test_eastman_cannot_move_a_character_out_of_the_city() -> None:
    game = started(decks=(("schwarz", "lila", "rot", "weiss", "braun", "gruen", "beige", "gelb"),))
    game.board.figures["lila"] = "n5"
    game.witness_seen = False
    events = play(game, DETECTIVE_SEAT, "aktiv(schwarz)", "aktion(faehigkeit)", "ziel(n5)")
    assert "o6" not in options_of(events)


def test_cloud_rider_flies_option_reaches_the_engine() -> None:
    deck = ("beige", "gelb", "rot", "weiss", "braun", "gruen", "schwarz", "lila")
    flying = started(decks=(deck,))
    walking = started(decks=(deck,), config={"cloud_rider_flies": False})
    for game in (flying, walking):
        game.board.figures["beige"] = "j3"
    fly = options_of(play(flying, DETECTIVE_SEAT, "aktiv(beige)", "aktion(bewegen)"))
    walk_ = options_of(play(walking, DETECTIVE_SEAT, "aktiv(beige)", "aktion(bewegen)"))
    assert set(fly) - set(walk_) == {"m4"}

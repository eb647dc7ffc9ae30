"""How a game ends (note 9.7): accusation right or wrong, escape, the end of round 8, and
forfeits (resigning, leaving, the turn clock)."""

from __future__ import annotations

from mrjack_support import DETECTIVE_SEAT, JACK_SEAT, names, options_of, play, started

from gamehall.rules._core import Event, Rng, Termination
from gamehall.rules.mrjack import Aufgeben, MrJackGame, Ziel, new_game
from gamehall.rules.mrjack.board import BOARD, Kind
from gamehall.rules.mrjack.events import EndeRunde, EndeSpiel

DECK_LILA_SECOND = ("rot", "lila", "weiss", "schwarz", "braun", "gruen", "beige", "gelb")


def test_accusing_mr_jack_wins_for_the_detective() -> None:
    game = started(jack="lila")
    events = play(game, DETECTIVE_SEAT, "aktiv(gelb)", "aktion(bewegen)", "ziel(i6)")
    assert names(events)[-2:] == ["KoordinateAkzeptiert", "EndeSpiel"]
    assert events[-1] == EndeSpiel(sieger="detektiv", farbe="lila", grund="accusation")
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == {DETECTIVE_SEAT}
    assert outcome.termination is Termination.NORMAL and game.finished


def test_accusing_an_innocent_wins_for_mr_jack() -> None:
    game = started(jack="lila")
    events = play(game, DETECTIVE_SEAT, "aktiv(gelb)", "aktion(bewegen)", "ziel(g5)")
    assert events[-1] == EndeSpiel(sieger="mrjack", farbe="lila", grund="accusation")
    assert game.board.figures["gelb"] == "f5"  # no update: the game is decided
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == {JACK_SEAT}


def jack_to_move_lila(config: dict[str, object] | None = None) -> MrJackGame:
    game = started(jack="lila", decks=(DECK_LILA_SECOND,), config=config)
    play(game, DETECTIVE_SEAT, "aktiv(rot)", "aktion(bewegen)", "ziel(g4)")
    play(game, DETECTIVE_SEAT, "aktion(faehigkeit)", "ziel(f3)", "ziel(h6)", "ziel(h7)")
    game.board.figures["lila"] = "n5"  # test hook: Mr. Jack near the land exit
    return game


def test_escape_through_the_land_exit_when_the_witness_saw_nothing() -> None:
    game = jack_to_move_lila()
    game.witness_seen = False  # test hook: as after an unseen round
    events = play(game, JACK_SEAT, "aktiv(lila)", "aktion(bewegen)")
    assert "o6" in options_of(events)
    events = play(game, JACK_SEAT, "ziel(o6)")
    assert events[-1] == EndeSpiel(sieger="mrjack", farbe="lila", grund="escape")
    assert game.finished


def test_no_escape_while_the_witness_card_says_seen() -> None:
    game = jack_to_move_lila()
    assert game.witness_seen  # round 1: always seen
    events = play(game, JACK_SEAT, "aktiv(lila)", "aktion(bewegen)")
    assert "o6" not in options_of(events)


def test_escape_by_steamer_needs_a_steamer_in_the_port() -> None:
    game = jack_to_move_lila()
    game.witness_seen = False
    game.board.figures["lila"] = "m2"
    events = play(game, JACK_SEAT, "aktiv(lila)", "aktion(bewegen)")
    assert "m1" not in options_of(events)
    game2 = jack_to_move_lila()
    game2.witness_seen = False
    game2.board.figures["lila"] = "m2"
    game2.board.steamers = ["f2", "m1"]
    events = play(game2, JACK_SEAT, "aktiv(lila)", "aktion(bewegen)", "ziel(m1)")
    assert events[-1] == EndeSpiel(sieger="mrjack", farbe="lila", grund="escape")


def test_only_mr_jack_himself_escapes() -> None:
    game = started(jack="gelb", decks=(DECK_LILA_SECOND,))
    play(game, DETECTIVE_SEAT, "aktiv(rot)", "aktion(bewegen)", "ziel(g4)")
    play(game, DETECTIVE_SEAT, "aktion(faehigkeit)", "ziel(f3)", "ziel(h6)", "ziel(h7)")
    game.board.figures["lila"] = "n5"
    game.witness_seen = False
    events = play(game, JACK_SEAT, "aktiv(lila)", "aktion(bewegen)")
    assert "o6" not in options_of(events)


def test_after_round_8_mr_jack_wins() -> None:
    """Two random players that never accuse and never escape play out all eight rounds."""
    game = new_game({}, 4)
    game.seat_join("a")
    game.seat_join("b")
    rng = Rng(4)
    events: list[Event] = []
    while not game.finished:
        (seat,) = game.to_move().seats
        legal = [
            a
            for a in game.legal_actions(seat)
            if not (
                isinstance(a, Ziel)
                and game.activation is not None
                and game.activation.part == "bewegen"
                and not game.activation.chosen
                and (
                    game.board.occupant(a.koordinate)
                    or BOARD[a.koordinate].kind in (Kind.PORT, Kind.LAND_EXIT)
                )
            )
        ]
        events += game.apply(seat, rng.choice(legal))
    assert names(events)[-2:] == ["EndeRunde", "EndeSpiel"]
    assert events[-2] == EndeRunde(runde=8)
    assert events[-1] == EndeSpiel(sieger="mrjack", farbe=game.alibis.jack, grund="time")
    assert sum(isinstance(e, EndeRunde) for e in events) == 8


def test_resigning_hands_the_game_to_the_other_side() -> None:
    game = started(jack="lila")
    events = game.apply(JACK_SEAT, Aufgeben())  # at any time, not only on one's turn
    assert events == [EndeSpiel(sieger="detektiv", farbe="lila", grund="resigned")]
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.RESIGNED
    assert outcome.winners == {DETECTIVE_SEAT}


def test_leaving_a_running_game_is_a_forfeit() -> None:
    game = started(jack="lila")
    events = game.seat_leave(DETECTIVE_SEAT)
    assert names(events) == ["EndeSpiel", "SeatLeft"]
    assert events[0] == EndeSpiel(sieger="mrjack", farbe="lila", grund="left")
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.LEFT
    assert outcome.winners == {JACK_SEAT} and outcome.names == {0: "jack", 1: "detective"}


def test_the_silent_player_loses_when_the_turn_clock_runs_out() -> None:
    game = started(jack="lila")
    (timer,) = game.pending_timers()
    assert timer.seconds == 300
    events = game.on_timeout(timer.key)
    assert events == [EndeSpiel(sieger="mrjack", farbe="lila", grund="timeout")]
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.TIMEOUT

"""The table as the hall drives it: roles and seats, refusals with the seed's error codes,
timers, detective-mode marking, views, resync and the action codec."""

from __future__ import annotations

import pytest
from mrjack_support import DETECTIVE_SEAT, JACK_SEAT, names, play, started

from gamehall.rules._core import Action, ConfigError, Game, GameInProgress, RuleError, TableFull, Termination
from gamehall.rules.mrjack import (
    ACTIONS,
    GAME_TYPE,
    Aktion,
    Aktiv,
    Aufgeben,
    Fertig,
    Init,
    MrJackGame,
    Setup,
    Ziel,
    new_game,
)
from gamehall.rules.mrjack.events import (
    BeginnSpiel,
    EndeRunde,
    Jack,
    RolleGewaehlt,
    Spielzugerlaubnis,
    UpdateVerdacht,
)


def code_of(game: MrJackGame, seat: int, *commands: str) -> tuple[str, dict[str, object]]:
    with pytest.raises(RuleError) as caught:
        play(game, seat, *commands)
    return caught.value.code, caught.value.detail


# -- seats and roles -----------------------------------------------------------------------


def test_game_type_and_contract() -> None:
    game = GAME_TYPE.new_game(GAME_TYPE.schema.defaults(), 1)
    assert GAME_TYPE.game_id == "mrjack"
    assert isinstance(game, Game)


def test_first_seat_is_mr_jack_and_the_second_takes_the_other_role_and_starts() -> None:
    game = new_game({}, 1, Setup(jack="rot"))
    seat, events = game.seat_join("anna")
    assert (seat, names(events)) == (0, ["SeatJoined", "RolleGewaehlt"])
    assert not game.started
    seat, events = game.seat_join("bert")
    assert events[1] == RolleGewaehlt(seat=1, spieler="detektiv")
    assert events[2:5] == [
        BeginnSpiel(spieler="detektiv", audience=frozenset({1})),
        BeginnSpiel(spieler="mrjack", audience=frozenset({0})),
        Jack(farbe="rot", audience=frozenset({0})),
    ]
    assert names(events)[5:] == ["BeginnRunde", "BeginnSpielzug", "Auswahl", "Spielzugerlaubnis"]
    assert events[-1] == Spielzugerlaubnis(seat=1, erlaubt=True, audience=frozenset({1}))
    with pytest.raises(GameInProgress):
        game.seat_join("carl")


def test_init_switches_the_role_of_the_lone_seat() -> None:
    game = new_game({}, 1)
    game.seat_join("anna")
    assert game.apply(0, Init("detektiv")) == [RolleGewaehlt(seat=0, spieler="detektiv")]
    assert game.apply(0, Init("detektiv")) == []
    with pytest.raises(RuleError) as caught:
        game.apply(0, Init("zuschauer"))
    assert caught.value.code == "unknown_role"
    game.seat_join("bert")
    assert game.seat_of("mrjack") == 1 and game.seat_of("detektiv") == 0
    with pytest.raises(RuleError) as caught:
        game.apply(1, Init("detektiv"))
    assert caught.value.code == "wrong_phase"


def test_a_waiting_table_left_empty_is_over() -> None:
    game = new_game({}, 1)
    game.seat_join("anna")
    game.seat_leave(0)
    assert game.finished
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.ABORTED


def test_start_needs_both_roles() -> None:
    game = new_game({}, 1)
    game.seat_join("anna")
    with pytest.raises(RuleError):
        game.start()
    assert isinstance(TableFull("x"), RuleError)


def test_rename_away_and_back() -> None:
    game = started()
    assert names(game.seat_rename(0, "jill")) == ["SeatRenamed"]
    assert game.seat_names() == {0: "jill", 1: "detective"}
    assert names(game.seat_away(1)) == ["SeatAway"]
    back = game.seat_back(1)
    assert names(back)[:2] == ["SeatBack", "BeginnSpiel"]
    assert all(e.audience == frozenset({1}) for e in back[1:])
    assert "Jack" not in names(back)


# -- refusals --------------------------------------------------------------------------------


def test_not_your_turn_names_the_command() -> None:
    game = started()
    assert code_of(game, JACK_SEAT, "aktiv(rot)") == ("not_your_turn", {"command": "aktiv"})
    assert code_of(game, JACK_SEAT, "aktion(bewegen)")[0] == "not_your_turn"
    assert code_of(game, JACK_SEAT, "ziel(f5)") == ("not_your_turn", {"command": "ziel"})


def test_colour_errors() -> None:
    game = started()
    assert code_of(game, DETECTIVE_SEAT, "aktiv(blau)")[0] == "unknown_colour"
    assert code_of(game, DETECTIVE_SEAT, "aktiv(lila)")[0] == "colour_unavailable"  # not revealed
    play(game, DETECTIVE_SEAT, "aktiv(gelb)", "aktion(bewegen)", "ziel(f4)", "aktion(faehigkeit)", "ziel(g6)")
    assert code_of(game, JACK_SEAT, "aktiv(gelb)")[0] == "colour_unavailable"  # used


def test_action_and_coordinate_errors() -> None:
    game = started()
    assert code_of(game, DETECTIVE_SEAT, "aktion(bewegen)")[0] == "wrong_phase"  # nothing active
    play(game, DETECTIVE_SEAT, "aktiv(gelb)")
    assert code_of(game, DETECTIVE_SEAT, "aktiv(rot)")[0] == "wrong_phase"
    assert code_of(game, DETECTIVE_SEAT, "aktion(tanzen)")[0] == "invalid_action"
    assert code_of(game, DETECTIVE_SEAT, "ziel(f4)")[0] == "wrong_phase"  # no list open
    play(game, DETECTIVE_SEAT, "aktion(bewegen)")
    assert code_of(game, DETECTIVE_SEAT, "aktion(faehigkeit)")[0] == "wrong_phase"
    assert code_of(game, DETECTIVE_SEAT, "ziel(z9)")[0] == "unknown_coordinate"
    code, detail = code_of(game, DETECTIVE_SEAT, "ziel(e5)")
    assert code == "coordinate_not_offered" and "f4" in detail["moeglichkeiten"]  # type: ignore[operator]
    assert code_of(game, DETECTIVE_SEAT, "fertig")[0] == "wrong_phase"


def test_a_refused_command_changes_nothing() -> None:
    game = started()
    before = game.view(DETECTIVE_SEAT), game.inputs
    for command in ("aktiv(blau)", "aktiv(lila)", "ziel(f5)", "fertig"):
        with pytest.raises(RuleError):
            play(game, DETECTIVE_SEAT, command)
    assert (game.view(DETECTIVE_SEAT), game.inputs) == before


def test_nothing_after_the_end() -> None:
    game = started()
    game.apply(JACK_SEAT, Aufgeben())
    with pytest.raises(RuleError):
        game.apply(DETECTIVE_SEAT, Aktiv("gelb"))
    assert game.pending_timers() == [] and game.legal_actions(DETECTIVE_SEAT) == []
    assert game.to_move().seats == frozenset()


# -- detective-mode marking ------------------------------------------------------------------


def detective_mode_round_end() -> MrJackGame:
    game = started(config={"round_end_mode": "detective"})
    play(game, DETECTIVE_SEAT, "aktiv(weiss)", "aktion(faehigkeit)", "ziel(f2)", "ziel(c7)")
    play(game, DETECTIVE_SEAT, "aktion(bewegen)", "ziel(l5)")
    play(game, JACK_SEAT, "aktiv(rot)", "aktion(faehigkeit)", "ziel(l8)", "ziel(k7)", "ziel(l7)")
    play(game, JACK_SEAT, "aktion(bewegen)", "ziel(g6)")
    play(game, JACK_SEAT, "aktiv(gelb)", "aktion(faehigkeit)", "ziel(n9)", "aktion(bewegen)", "ziel(g4)")
    events = play(game, DETECTIVE_SEAT, "aktiv(schwarz)", "aktion(faehigkeit)", "ziel(f6)", "ziel(f7)")
    assert names(events)[-1] == "Sichtbar"
    return game


def test_detective_mode_waits_for_the_detectives_marks_and_fertig() -> None:
    game = detective_mode_round_end()
    assert game.to_move().kind == "verdacht" and game.to_move().seats == {DETECTIVE_SEAT}
    assert game.suspects == set(game.cast.keys())
    assert play(game, DETECTIVE_SEAT, "ziel(g4)") == [UpdateVerdacht(farbe="gelb", verdaechtig=False)]
    assert play(game, DETECTIVE_SEAT, "ziel(g4)") == [UpdateVerdacht(farbe="gelb", verdaechtig=True)]
    assert code_of(game, JACK_SEAT, "ziel(g4)")[0] == "only_detective_marks"
    assert code_of(game, DETECTIVE_SEAT, "ziel(e3)")[0] == "invalid_marking"
    assert code_of(game, DETECTIVE_SEAT, "ziel(zz)")[0] == "invalid_marking"
    events = play(game, DETECTIVE_SEAT, "fertig")
    assert events[0] == EndeRunde(runde=1) and names(events)[1] == "BeginnRunde"


def test_the_marking_clock_ends_the_phase() -> None:
    game = detective_mode_round_end()
    (timer,) = game.pending_timers()
    assert timer.seconds == 120 and timer.key.startswith("marking:")
    events = game.on_timeout(timer.key)
    assert events[0] == EndeRunde(runde=1)


# -- timers ------------------------------------------------------------------------------------


def test_the_turn_clock_restarts_on_every_accepted_command_and_stale_keys_are_refused() -> None:
    game = started()
    (first,) = game.pending_timers()
    play(game, DETECTIVE_SEAT, "aktiv(gelb)")
    (second,) = game.pending_timers()
    assert first.key != second.key
    with pytest.raises(RuleError):
        game.on_timeout(first.key)


def test_default_move_plays_skip_or_the_first_option() -> None:
    game = started(config={"turn_timeout_action": "default_move"})
    events = game.on_timeout(game.pending_timers()[0].key)
    assert (
        names(events) == ["FarbeAktiv"] and game.activation is not None and game.activation.colour == "gelb"
    )
    game.on_timeout(game.pending_timers()[0].key)  # aktion(bewegen)
    events = game.on_timeout(game.pending_timers()[0].key)  # ziel(a1): the informant
    assert "UpdateAlibi" in names(events)
    assert game.default_action(DETECTIVE_SEAT) == Ziel("b6")


def test_no_turn_clock_when_turned_off() -> None:
    game = started(config={"turn_timeout_s": 0})
    assert game.pending_timers() == []


# -- settings ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "given",
    [
        {"colour_map": ["callahan"] * 8},
        {"tile_supply_metro": 2},
        {"round_end_mode": "both"},
        {"no_such_option": 1},
    ],
)
def test_bad_settings_are_refused(given: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        new_game(given, 1)


def test_a_changed_colour_map_moves_abilities_and_start_hexes_with_the_character() -> None:
    swapped = ["latimer", "callahan", "beach", "grant", "cloudrider", "eastman", "tumblety", "smith"]
    game = started(config={"colour_map": swapped})
    assert game.board.figures["rot"] == "f5" and game.board.figures["gelb"] == "g5"
    assert game.view(None)["characters"] == dict(game.cast.keys())
    assert game.cast.keys()["rot"] == "latimer"


def test_schema_defaults_follow_the_note() -> None:
    defaults = GAME_TYPE.schema.defaults()
    assert defaults["round_end_mode"] == "server" and defaults["turn_timeout_s"] == 300
    assert defaults["ability_skip"] == "strict" and defaults["min_move"] == 1
    assert (defaults["tile_supply_metro"], defaults["tile_supply_laterne"], defaults["tile_supply_haus"]) == (
        7,
        6,
        4,
    )


# -- views and codec ---------------------------------------------------------------------------


def test_views_hide_mr_jack_until_the_end() -> None:
    game = started(jack="lila")
    assert game.view(JACK_SEAT)["jack"] == "lila"
    assert game.view(DETECTIVE_SEAT)["jack"] is None
    assert game.view(None)["jack"] is None
    game.apply(DETECTIVE_SEAT, Aufgeben())
    assert game.view(None)["jack"] == "lila" and game.view(DETECTIVE_SEAT)["jack"] == "lila"


def test_moeglichkeiten_are_in_the_active_seats_view_only() -> None:
    game = started()
    play(game, DETECTIVE_SEAT, "aktiv(gelb)", "aktion(bewegen)")
    assert len(game.view(DETECTIVE_SEAT)["moeglichkeiten"]) == 28
    assert game.view(JACK_SEAT)["moeglichkeiten"] == [] and game.view(None)["moeglichkeiten"] == []


def test_resync_replays_the_board_for_the_returning_seat_only() -> None:
    game = started(jack="lila")
    play(game, DETECTIVE_SEAT, "aktiv(gelb)", "aktion(bewegen)", "ziel(a1)", "ziel(h7)")
    play(game, DETECTIVE_SEAT, "aktion(faehigkeit)", "ziel(g6)")
    events = game.resync(JACK_SEAT)
    assert all(e.audience == frozenset({JACK_SEAT}) for e in events)
    assert names(events) == [
        "BeginnSpiel",
        "Jack",
        "BeginnRunde",
        "UpdateFigur",
        "UpdateArt",
        "UpdateSpion",
        "BeginnSpielzug",
        "Auswahl",
        "Spielzugerlaubnis",
    ]
    detective = game.resync(DETECTIVE_SEAT)
    assert "Jack" not in names(detective) and "UpdateAlibi" in names(detective)
    assert new_game({}, 1).resync(0) == []


@pytest.mark.parametrize(
    "action", [Init("mrjack"), Aktiv("gelb"), Aktion("skip"), Ziel("f5"), Fertig(), Aufgeben()]
)
def test_codec_round_trips_every_action(action: Action) -> None:
    encoded = ACTIONS.encode(action)
    assert ACTIONS.decode(encoded) == action
    assert encoded["type"] in {"init", "aktiv", "aktion", "ziel", "fertig", "aufgeben"}


@pytest.mark.parametrize(
    "setup",
    [
        Setup(jack="blau"),
        Setup(alibi_order=("rot",) * 8),
        Setup(
            jack="gelb", alibi_order=("rot", "gelb", "braun", "gruen", "beige", "schwarz", "lila", "weiss")
        ),
        Setup(character_decks=(("rot", "gelb"),)),
    ],
)
def test_a_bad_test_setup_is_refused_at_creation(setup: Setup) -> None:
    with pytest.raises(ConfigError):
        new_game({}, 1, setup)


def test_membership_calls_for_a_free_seat_are_refused() -> None:
    game = started()
    for call in (game.seat_away, game.seat_back, game.seat_leave):
        with pytest.raises(RuleError) as caught:
            call(5)
        assert caught.value.code == "not_seated"
    with pytest.raises(RuleError):
        game.apply(5, Aktiv("gelb"))


def test_resync_in_the_middle_of_a_teilzug_resends_the_open_list() -> None:
    game = started()
    play(game, DETECTIVE_SEAT, "aktiv(gelb)", "aktion(bewegen)")
    events = game.resync(DETECTIVE_SEAT)
    assert names(events)[-3:] == ["Spielzugerlaubnis", "FarbeAktiv", "Moeglichkeiten"]
    assert names(game.resync(JACK_SEAT))[-2:] == ["BeginnSpielzug", "Auswahl"]


def test_resigning_before_the_start_is_refused() -> None:
    game = new_game({}, 1)
    game.seat_join("anna")
    with pytest.raises(RuleError) as caught:
        game.apply(0, Aufgeben())
    assert caught.value.code == "wrong_phase"

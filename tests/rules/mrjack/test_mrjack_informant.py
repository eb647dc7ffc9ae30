"""Alibi cards and the informant (note 9.1, 9.5; checklist item 14)."""

from __future__ import annotations

from mrjack_support import DETECTIVE_SEAT, JACK_SEAT, names, options_of, play, started

from gamehall.rules._core import Rng
from gamehall.rules.mrjack.cards import AlibiDeck
from gamehall.rules.mrjack.characters import COLOURS
from gamehall.rules.mrjack.events import UpdateAlibi, UpdateFigur, UpdateSpion

ALIBIS = ("lila", "rot", "gelb", "braun", "gruen", "beige", "schwarz", "weiss")


def test_the_first_alibi_card_is_mr_jack_and_the_rest_the_deck() -> None:
    for seed in range(20):
        deck = AlibiDeck.deal(Rng(seed))
        assert sorted([deck.jack, *deck.deck]) == sorted(COLOURS)
        assert deck.jack not in deck.deck


def test_visiting_the_informant_shows_an_alibi_to_the_mover_only_then_relocates_it() -> None:
    game = started(alibi_order=ALIBIS)
    play(game, DETECTIVE_SEAT, "aktiv(gelb)", "aktion(bewegen)")
    events = play(game, DETECTIVE_SEAT, "ziel(a1)")
    assert names(events) == ["KoordinateAkzeptiert", "UpdateAlibi", "Moeglichkeiten"]
    assert events[1] == UpdateAlibi(seat=DETECTIVE_SEAT, farbe="rot", audience=frozenset({DETECTIVE_SEAT}))
    relocation = options_of(events)
    assert len(relocation) == 50 and "f5" in relocation and "a1" not in relocation
    events = play(game, DETECTIVE_SEAT, "ziel(h7)")
    assert events[1:] == [UpdateSpion(koordinate="h7"), UpdateFigur(koordinate="a1", farbe="gelb")]
    assert game.board.informant == "h7" and not game.board.informant_talkative
    assert game.view(DETECTIVE_SEAT)["alibis"] == ["rot"]
    assert game.view(JACK_SEAT)["alibis"] == []


def test_a_silent_informant_shows_nothing_and_talks_again_next_round() -> None:
    game = started(alibi_order=ALIBIS)
    play(game, DETECTIVE_SEAT, "aktiv(gelb)", "aktion(bewegen)", "ziel(a1)", "ziel(h6)")
    play(game, DETECTIVE_SEAT, "aktion(faehigkeit)", "ziel(g6)")
    events = play(game, JACK_SEAT, "aktiv(rot)", "aktion(bewegen)", "ziel(h6)")
    assert "UpdateAlibi" not in names(events)
    assert events[-1] == UpdateFigur(koordinate="h6", farbe="rot")
    play(game, JACK_SEAT, "aktion(faehigkeit)", "ziel(l8)", "ziel(k7)", "ziel(l7)")
    play(
        game,
        JACK_SEAT,
        "aktiv(weiss)",
        "aktion(bewegen)",
        "ziel(l5)",
        "aktion(faehigkeit)",
        "ziel(f2)",
        "ziel(c7)",
    )
    play(game, DETECTIVE_SEAT, "aktiv(schwarz)", "aktion(faehigkeit)", "ziel(l5)", "ziel(m5)")
    assert game.round == 2 and game.board.informant_talkative


def test_informant_reactivate_never_keeps_it_silent() -> None:
    game = started(alibi_order=ALIBIS, config={"informant_reactivate": "never"})
    play(game, DETECTIVE_SEAT, "aktiv(gelb)", "aktion(bewegen)", "ziel(a1)", "ziel(h6)")
    play(game, DETECTIVE_SEAT, "aktion(faehigkeit)", "ziel(g6)")
    play(game, JACK_SEAT, "aktiv(rot)", "aktion(bewegen)", "ziel(g4)")
    play(game, JACK_SEAT, "aktion(faehigkeit)", "ziel(l8)", "ziel(k7)", "ziel(l7)")
    play(
        game,
        JACK_SEAT,
        "aktiv(weiss)",
        "aktion(bewegen)",
        "ziel(l5)",
        "aktion(faehigkeit)",
        "ziel(f2)",
        "ziel(c7)",
    )
    play(game, DETECTIVE_SEAT, "aktiv(schwarz)", "aktion(faehigkeit)", "ziel(l5)", "ziel(m5)")
    assert game.round == 2 and not game.board.informant_talkative


def test_without_relocation_the_informant_stays_and_turns_silent() -> None:
    game = started(alibi_order=ALIBIS, config={"informant_relocate": False})
    play(game, DETECTIVE_SEAT, "aktiv(gelb)", "aktion(bewegen)")
    events = play(game, DETECTIVE_SEAT, "ziel(a1)")
    assert names(events) == ["KoordinateAkzeptiert", "UpdateAlibi", "UpdateFigur"]
    assert game.board.informant == "a1" and not game.board.informant_talkative


def test_spion_broadcast_off_sends_update_spion_to_the_mover_only() -> None:
    game = started(alibi_order=ALIBIS, config={"spion_broadcast": False})
    play(game, DETECTIVE_SEAT, "aktiv(gelb)", "aktion(bewegen)", "ziel(a1)")
    events = play(game, DETECTIVE_SEAT, "ziel(h7)")
    assert events[1] == UpdateSpion(koordinate="h7", audience=frozenset({DETECTIVE_SEAT}))


def test_an_empty_alibi_deck_means_nothing_happens() -> None:
    game = started(alibi_order=ALIBIS)
    game.alibis.deck.clear()
    play(game, DETECTIVE_SEAT, "aktiv(gelb)", "aktion(bewegen)")
    events = play(game, DETECTIVE_SEAT, "ziel(a1)")
    assert names(events) == ["KoordinateAkzeptiert", "UpdateFigur"]
    assert game.board.informant_talkative


def test_mr_jacks_player_draws_too_and_the_card_is_never_jack() -> None:
    game = started(
        jack="gelb", decks=(("weiss", "gelb", "rot", "schwarz", "braun", "gruen", "beige", "lila"),)
    )
    play(game, DETECTIVE_SEAT, "aktiv(weiss)", "aktion(faehigkeit)", "ziel(f2)", "ziel(c7)")
    play(game, DETECTIVE_SEAT, "aktion(bewegen)", "ziel(k7)")
    events = play(game, JACK_SEAT, "aktiv(gelb)", "aktion(bewegen)", "ziel(a1)")
    (alibi,) = [e for e in events if isinstance(e, UpdateAlibi)]
    assert alibi.audience == frozenset({JACK_SEAT}) and alibi.farbe != "gelb"


def test_characters_moved_by_eastman_never_consult_the_informant() -> None:
    game = started(decks=(("schwarz", "gelb", "rot", "weiss", "braun", "gruen", "beige", "lila"),))
    game.board.informant = "g4"
    events = play(game, DETECTIVE_SEAT, "aktiv(schwarz)", "aktion(faehigkeit)", "ziel(f5)")
    assert "g4" in options_of(events)
    events = play(game, DETECTIVE_SEAT, "ziel(g4)")
    assert "UpdateAlibi" not in names(events) and game.board.informant_talkative

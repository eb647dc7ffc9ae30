"""The draft (note 9.2): four cards per round, odd rounds shuffle, even rounds take the other
four, pickers D J J D / J D D J."""

from __future__ import annotations

from mrjack_support import DETECTIVE_SEAT, JACK_SEAT, random_game, started

from gamehall.rules._core import Rng
from gamehall.rules.mrjack.characters import COLOURS
from gamehall.rules.mrjack.draft import Draft, picker
from gamehall.rules.mrjack.events import Auswahl, BeginnRunde, Spielzugerlaubnis


def test_pickers_by_round_parity() -> None:
    assert [picker(1, a) for a in (1, 2, 3, 4)] == ["detektiv", "mrjack", "mrjack", "detektiv"]
    assert [picker(2, a) for a in (1, 2, 3, 4)] == ["mrjack", "detektiv", "detektiv", "mrjack"]
    assert [picker(7, a) for a in (1, 2, 3, 4)] == [picker(1, a) for a in (1, 2, 3, 4)]
    assert [picker(8, a) for a in (1, 2, 3, 4)] == [picker(2, a) for a in (1, 2, 3, 4)]


def test_an_even_round_gets_the_four_cards_the_odd_round_left() -> None:
    draft = Draft()
    draft.deal(1, Rng(3))
    first = list(draft.cards)
    kept = list(draft.upcoming)
    draft.deal(2, Rng(99))
    assert draft.cards == kept
    assert sorted(first + draft.cards) == sorted(COLOURS)


def test_auswahl_flips_used_cards_and_keeps_reveal_order() -> None:
    draft = Draft(fixed_decks=[list(COLOURS)])
    draft.deal(1, Rng(0))
    draft.take("braun")
    assert draft.auswahl() == (("rot", True), ("gelb", True), ("braun", False), ("gruen", True))
    assert draft.available() == ("rot", "gelb", "gruen")


def test_the_game_sends_spielzugerlaubnis_to_the_pickers_in_order() -> None:
    game, _, events = random_game(5)
    rounds = 0
    grants: list[list[int]] = []
    for event in events:
        if isinstance(event, BeginnRunde):
            rounds += 1
            grants.append([])
        if isinstance(event, Spielzugerlaubnis) and event.erlaubt:
            grants[-1].append(event.seat)
    jack, det = game.seat_of("mrjack"), game.seat_of("detektiv")
    for number, seats in enumerate(grants, start=1):
        order = [det, jack, jack, det] if number % 2 else [jack, det, det, jack]
        assert seats == order[: len(seats)]


def test_every_character_once_per_pair_of_rounds() -> None:
    _game, _, events = random_game(11, {"turn_timeout_s": 0})
    per_round = [e.karten for e in events if isinstance(e, Auswahl) and all(free for _, free in e.karten)]
    for odd, even in zip(per_round[::2], per_round[1::2], strict=False):
        assert sorted(c for c, _ in odd + even) == sorted(COLOURS)


def test_round_one_starts_with_the_detective_and_round_two_with_mr_jack() -> None:
    game = started()
    assert game.to_move().seats == {DETECTIVE_SEAT}
    assert game.to_move().kind == "aktiv"
    game.round = 2
    game.activation_number = 1
    assert game.awaited_seat() == JACK_SEAT

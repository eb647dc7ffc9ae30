"""The view's ``legal_parts``: while the active seat chooses a Teilzug it lists exactly the
``aktion`` values the engine accepts (the browser offers those buttons and no others); every
other seat, and every other phase, gets an empty list."""

from __future__ import annotations

from gamehall.rules.mrjack import Aktion, Aktiv, new_game
from gamehall.rules.mrjack.engine import MrJackGame


def started_game() -> MrJackGame:
    game = new_game({}, 5)
    game.seat_join("jack")
    game.seat_join("holmes")
    return game


def test_legal_parts_match_the_engines_legal_actions_while_choosing_a_part() -> None:
    game = started_game()
    seat = game.awaited_seat()
    assert seat is not None
    assert game.view(seat)["legal_parts"] == []  # picking a card, not a part
    colour = game.draft.available()[0]
    game.apply(seat, Aktiv(colour))
    legal = [a.aktion for a in game.legal_actions(seat) if isinstance(a, Aktion)]
    assert legal and game.view(seat)["legal_parts"] == legal
    other = 1 - seat
    assert game.view(other)["legal_parts"] == []
    assert game.view(None)["legal_parts"] == []


def test_legal_parts_empty_while_a_target_is_awaited() -> None:
    game = started_game()
    seat = game.awaited_seat()
    assert seat is not None
    game.apply(seat, Aktiv(game.draft.available()[0]))
    first = game.view(seat)["legal_parts"]
    assert isinstance(first, list)
    game.apply(seat, Aktion(str(first[0])))
    assert game.view(seat)["legal_parts"] == []

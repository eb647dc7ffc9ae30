"""The JDuplicate wire bot's way back after a lost connection when its name is still in use."""

from __future__ import annotations

from gamehall.bots.words.wire import WordsWirePlayer
from gamehall.protocols.jduplicate import messages as m
from gamehall.protocols.jduplicate.errors import ErrorCode

NAME_IN_USE = m.Error(int(ErrorCode.NAME_IN_USE), "ann")


def seated_player() -> WordsWirePlayer:
    player = WordsWirePlayer("ann", m.Version.V10, join="crash")
    player.in_game = True  # GAMEINFOS listed it among the players
    player.connection_lost()  # the node died
    return player


def test_a_name_in_use_on_the_way_back_marks_the_connection_refused() -> None:
    """On a hall of several nodes the name stays in use for up to a lease ttl after the bot's
    node died; the server answers ERROR and keeps the unnamed connection open, so the player
    marks it refused (the wire bot then closes it and tries again) instead of waiting there."""
    player = seated_player()
    assert player.receive(NAME_IN_USE) == []
    assert player.refused == ErrorCode.NAME_IN_USE and player.result.errors == []
    player.connection_lost()
    assert player.refused is None and player.rejoining  # the next login is still a rejoin


def test_a_name_in_use_at_the_first_login_is_an_error_as_before() -> None:
    player = WordsWirePlayer("ann", m.Version.V10, join="crash")
    player.receive(NAME_IN_USE)
    assert player.refused is None and player.result.errors == [f"{int(ErrorCode.NAME_IN_USE)}#ann"]

"""The Mr. Jack wire bot's way back after a lost connection when its nick is still taken."""

from __future__ import annotations

from gamehall.bots.mrjack.player import WirePlayer
from gamehall.protocols._core import NEED_DATA
from gamehall.protocols.mrjack import texts
from gamehall.protocols.mrjack.codec import Received, TermCodec
from gamehall.protocols.mrjack.terms import Atom, Command, Compound, Style, print_line


def server_line(functor: str, text: str) -> Command:
    """``functor('text')`` as the player receives it from the wire."""
    codec = TermCodec(Style.PROLOG)
    codec.receive_data(print_line(Compound(functor, (Atom(text),)), Style.PROLOG).encode() + b"\n")
    message = codec.next_message()
    assert message is not NEED_DATA and isinstance(message, Received)
    return message.command


def test_a_taken_nick_marks_the_connection_refused_not_an_error() -> None:
    """On a hall of several nodes the nick stays in use for up to a lease ttl after the bot's
    node died: the server answers ``err`` and keeps the connection open, so the player marks
    it refused (the wire bot then closes it and tries again) instead of waiting forever."""
    player = WirePlayer("jacky", "mrjack")
    assert player.receive(server_line("ok", texts.ASK_NICK)) == [Compound("nick", (Atom("jacky"),))]
    assert player.receive(server_line("err", texts.nick_taken("jacky"))) == []
    assert player.refused and player.errors == []


def test_an_err_after_the_nick_was_taken_is_an_error_as_before() -> None:
    player = WirePlayer("jacky", "mrjack")
    player.receive(server_line("ok", texts.nick_ok("jacky")))
    player.receive(server_line("ok", texts.INIT_HINT))
    player.receive(server_line("err", texts.nick_taken("jacky")))
    assert not player.refused and player.errors == [texts.nick_taken("jacky")]

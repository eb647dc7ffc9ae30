"""The cg wire bot's way back into a game after a lost connection (docs/recovery.md)."""

from __future__ import annotations

from gamehall.bots.doppelkopf.wire import CgPlayer
from gamehall.protocols.cg.codec import Packet

REFUSED = Packet("cg:auth", {"status": "wrong_credentials"})
LOGGED_IN = Packet("cg:auth", {"status": "logged_in", "uuid": "a" * 32})


def test_a_refused_login_back_into_the_game_is_tried_again() -> None:
    """On a hall of several nodes the name may still be in use after the bot's node died (until
    the hall knows the node is gone), and cg says so as ``wrong_credentials``: the bot gives up
    that connection, not the game, and logs in again on the next one."""
    player = CgPlayer("dkguest1", "pw", wait_for_invite=True)
    player.on_packet(LOGGED_IN)
    player.on_packet(Packet("cg:game.start", {"gamerules": {}}))
    player.connection_lost()  # the node died
    assert player.on_packet(REFUSED) == []
    assert player.refused == "wrong_credentials" and not player.done
    assert player.stats.closed_reason is None
    player.connection_lost()
    assert player.refused is None
    assert player.on_packet(LOGGED_IN) == []  # back in: the server rejoins it by itself
    assert not player.done


def test_a_refused_first_login_ends_the_bot() -> None:
    player = CgPlayer("dkguest1", "pw", wait_for_invite=True)
    player.on_packet(REFUSED)
    assert player.done and player.refused is None
    assert player.stats.closed_reason == "wrong_credentials"

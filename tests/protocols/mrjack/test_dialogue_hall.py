"""The dialogue and the rest of the hall: games created from the browser are open to legacy
seating (unless they have a password), spectators are detached at the end and may play next,
a server shutdown closes quietly, internal errors are ``err(Interner Fehler)``, and the server
options (``wire_style``, ``max_games``) come from the hall's Mr. Jack defaults."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from mrjack_wire_support import FakeWire, JackHarness
from recording_listener import RecordingListener

from gamehall.hall import FakeClock
from gamehall.protocols._core import CloseReason, HallError, RoomInfo
from gamehall.protocols._spec import ServerResources
from gamehall.protocols.mrjack import seating
from gamehall.protocols.mrjack.dialogue import MrJackDialogue
from gamehall.protocols.mrjack.seating import MrJackServices
from gamehall.protocols.mrjack.spec import PROTOCOL
from gamehall.protocols.mrjack.terms import Style
from gamehall.rules._core import JSON

HINT = "ok('Du kannst dich mit init(mrjack) oder init(detektiv) an einem Spiel beteiligen')."


def test_a_browser_game_with_its_own_options_is_joined_by_legacy_init() -> None:
    h = JackHarness()
    web = h.hall.login("webby", RecordingListener(), protocol="web")
    created = web.create_room("mrjack", {"round_end_mode": "detective"})
    web.join(created.room_id)
    det = h.login("det", "detektiv")
    assert h.games() == 1
    assert det.take()[-2:] == [
        "auswahl([[gelb,ja],[rot,ja],[weiss,ja],[schwarz,ja]]).",
        "spielzugerlaubnis(ja).",
    ]
    assert h.game().rules.detective_marks


def test_a_game_with_a_password_is_left_alone() -> None:
    h = JackHarness()
    web = h.hall.login("webby", RecordingListener(), protocol="web")
    locked = web.create_room("mrjack", password="secret")
    web.join(locked.room_id, "secret")
    det = h.login("det", "detektiv")
    assert h.games() == 2
    assert det.take()[-1] == "ok('Du bist detektiv')."


def test_a_spectator_is_detached_at_the_end_and_may_play_the_next_game() -> None:
    h = JackHarness()
    jack, det = h.pair()
    watcher = h.login("watcher", "zuschauer")
    watcher.take()
    det.send("aufgeben.")
    assert watcher.take() == ["ende(spiel,mrjack,lila)."]
    watcher.send("init(detektiv).")
    assert watcher.take() == ["ok('Du bist detektiv')."]
    jack.send("init(mrjack).")
    assert watcher.take()[-1] == "spielzugerlaubnis(ja)."


def test_shutdown_closes_every_connection_without_the_init_hint() -> None:
    h = JackHarness()
    jack, det = h.pair()
    lobby = h.login("lobby")
    lobby.take()
    h.hall.shutdown("bye")
    h.settle()
    assert jack.take() == [] and det.take() == [] and lobby.take() == []
    assert jack.closed and det.closed and lobby.closed
    assert h.hall.stats()["users"] == 0


def test_an_internal_error_is_err_interner_fehler_and_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    h = JackHarness()
    _jack, det = h.pair()
    game = h.game()
    real_apply = game.apply

    def broken(seat: int, action: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(game, "apply", broken)
    det.send("aktiv(gelb).")
    assert det.take() == ["err('Interner Fehler')."]
    monkeypatch.setattr(game, "apply", real_apply)
    det.send("aktiv(gelb).")
    assert det.take() == ["ok('Farbe ist aktiv: gelb')."]


def test_a_nick_that_the_hall_refuses_for_another_reason_is_ungueltig() -> None:
    h = JackHarness()
    web = h.hall.login("Max", RecordingListener(), protocol="web")
    client = h.login("max")
    assert client.take()[-1] == "err('Nick ist schon vergeben: max')."
    web.logout(dropped=False)
    client.send("nick(max).")
    assert client.take()[0] == "ok('Du heißt jetzt: max')."


def test_the_web_user_seat_is_held_after_a_drop_only_with_a_grace() -> None:
    h = JackHarness(rejoin_grace=0)  # the default grace (60 s) holds it; 0 forfeits at once
    jack, det = h.pair()
    det.hang_up()
    assert h.games() == 0
    assert jack.take()[-1] == HINT


# ------------------------------------------------------------------------------ server options


class OptionsHall:
    """A hall port whose Mr. Jack defaults carry the server options (as once the game's
    settings hold them)."""

    def __init__(self, options: Mapping[str, JSON]) -> None:
        self.options = options

    def game_defaults(self, game: str) -> Mapping[str, JSON]:
        return self.options

    def rooms(self, game: str | None = None) -> list[RoomInfo]:
        return []

    def login(self, name: str, listener: Any, **kwargs: Any) -> Any:
        raise HallError("name_invalid", "no logins here")


def test_wire_style_and_max_games_come_from_the_hall_defaults() -> None:
    wire = FakeWire("x")
    hall = OptionsHall({"wire_style": "plain"})
    dialogue = PROTOCOL.open(ServerResources(hall, FakeClock())).connect(wire)  # type: ignore[arg-type]
    assert dialogue.style is Style.PLAIN
    assert wire.writes == [b"ok(Bitte einen Nick eingeben mit nick(Nick))\n"]
    assert seating.max_games(OptionsHall({"max_games": 3})) == 3
    assert seating.max_games(OptionsHall({})) == seating.DEFAULT_MAX_GAMES


def test_an_unknown_wire_style_falls_back_to_prolog() -> None:
    services = MrJackServices(OptionsHall({"wire_style": "xml"}), FakeClock())  # type: ignore[arg-type]
    dialogue = MrJackDialogue(services, FakeWire("x"))
    assert dialogue.style is Style.PROLOG
    dialogue.ended("nowhere", CloseReason.GAME_OVER, "")  # not in that room: nothing happens

"""The node-to-node codec (gamehall.cluster.codec): every engine's events cross unchanged,
and a peer's bytes can only name gamehall's own dataclasses and enums."""

from __future__ import annotations

import enum

import pytest

from gamehall.cluster.codec import TAG_OBJECT, CodecError, pack, unpack
from gamehall.games import game_types
from gamehall.rules._core import Event, SeatJoined, only


def engine_events() -> list[Event]:
    """Events of every game: seats joining, the game starting, each seat's resync."""
    events: list[Event] = []
    for game_type in game_types().values():
        config = game_type.schema.validate({})
        game = game_type.new_game(config, 7)
        for i in range(game_type.seat_count(config) or 3):
            events += game.seat_join(f"p{i}")[1]
        if not game.started:
            events += game.start()
        for seat in game.seat_names():
            events += game.resync(seat)
    return events


def test_every_engines_events_cross_unchanged() -> None:
    events = engine_events()
    assert len({type(e) for e in events}) > 15

    for event in events:
        assert unpack(pack(event)) == event


def test_messages_keep_tuples_sets_enums_and_int_keys() -> None:
    class Colour(enum.Enum):  # not a gamehall type: refused on the way in
        RED = 1

    message = ["step", "r1", {"seats": {0: "ann", 1: "bob"}, "pair": (1, 2), "aud": only(1, 2)}]

    assert unpack(pack(message)) == message
    with pytest.raises(CodecError):
        unpack(pack([Colour.RED]))


def test_a_peer_cannot_name_anything_but_a_loaded_gamehall_dataclass_or_enum() -> None:
    import msgpack  # type: ignore[import-untyped]

    for name in (
        "os:system",
        "builtins:eval",
        "subprocess:Popen",
        "gamehall.cluster.codec:pack",
        "gamehall.nope:X",
    ):
        with pytest.raises(CodecError):
            unpack(msgpack.packb([TAG_OBJECT, name, {}]))
    forged = msgpack.packb(
        [TAG_OBJECT, "gamehall.rules._core:SeatJoined", {"seat": 1, "name": "x", "audience": None}]
    )
    assert unpack(forged) == SeatJoined(seat=1, name="x")
    with pytest.raises(CodecError):
        unpack(b"\xc1")

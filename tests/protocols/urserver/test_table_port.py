"""UrServer reads its game through a typed, read-only port (protocols/urserver/table.py), as cg
does (cg/table.py): the tournament log takes the environment deck from ``UrsuppePort`` and the
seed from ``RoomPort.seed``, never from the engine's attributes."""

from __future__ import annotations

import logging
import re

import pytest
from recording_listener import RecordingListener
from toy_game import TOY
from urserver_support import Table, autoplay

from gamehall.hall import FakeClock, Hall
from gamehall.protocols._core import HallError
from gamehall.protocols.urserver.table import ursuppe
from gamehall.rules.ursuppe import GAME_TYPE as URSUPPE
from gamehall.store.memory import MemoryStore


def test_the_tournament_log_names_the_rooms_seed_and_its_environment_deck(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="gamehall.protocols.urserver")
    t = Table(3, tournament=True)
    [info] = t.harness.hall.rooms("ursuppe")
    room = t.harness.hall.room(info.room_id)
    deck = " ".join(ursuppe(room).environment_deck())
    autoplay(t.harness, t.clients)
    (start,) = [r.getMessage() for r in caplog.records if r.getMessage().startswith("tournament game soup1")]
    seed = re.search(r"seed=(\S+)", start)
    assert seed is not None and seed.group(1) == str(room.seed)
    assert f"deck={deck} seats=" in start


def test_the_port_reads_the_deck_without_changing_the_table() -> None:
    t = Table(3)
    [info] = t.harness.hall.rooms("ursuppe")
    port = ursuppe(t.harness.hall.room(info.room_id))
    before = port.view(None)
    assert port.environment_deck() == port.environment_deck()
    assert port.view(None) == before


def test_a_room_that_is_not_an_ursuppe_table_is_not_the_urservers() -> None:
    hall = Hall(games={"toy": TOY, "ursuppe": URSUPPE}, store=MemoryStore(), clock=FakeClock())
    alice = hall.login("alice", RecordingListener(), protocol="test")
    room_id = alice.create_room("toy").room_id
    with pytest.raises(HallError) as refused:
        ursuppe(hall.room(room_id))
    assert refused.value.code == "no_such_room"

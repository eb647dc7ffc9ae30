"""Owners only (issue 10 item 6, docs/text-rule.md "Operators"): start, kick and bots are the
room operator's decision, checked once in the hall; the operator's place passes to the member
who came in earliest (humans before bots) when the operator leaves; every protocol that can ask
for these things gets its own refusal."""

from __future__ import annotations

import pytest
from jduplicate_dialogue_support import JdHarness
from recording_listener import RecordingListener
from toy_game import TOY
from turns import turn_by_turn_hall

from gamehall.hall import FakeClock, Hall
from gamehall.protocols._core import HallError
from gamehall.protocols.jduplicate import messages as m
from gamehall.protocols.web.dialogue import WebDialogue
from gamehall.store.memory import MemoryStore


class BotSeater:
    """The hall's bot seam (the server hands in ``gamehall.bots.hall_bots.add_bots``): records
    who asked and seats nothing, so these tests see only the hall's own decision."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def __call__(self, hall: Hall, room_id: str, count: int, policy: str) -> list[str]:
        self.calls.append((room_id, count))
        return []


class BotListener(RecordingListener):
    is_bot = True


def make_hall(seats: int = 4) -> tuple[Hall, MemoryStore, BotSeater]:
    store, seater = MemoryStore(), BotSeater()
    hall = turn_by_turn_hall(
        games={"toy": TOY},
        store=store,
        clock=FakeClock(),
        defaults={"toy": {"seats": seats}},
        bot_seater=seater,
    )
    return hall, store, seater


def test_only_the_operator_starts_kicks_and_adds_bots() -> None:
    hall, _store, seater = make_hall()
    alice = hall.login("alice", RecordingListener(), protocol="web")
    bob = hall.login("bob", RecordingListener(), protocol="web")
    room = alice.create_room("toy")
    alice.join(room.room_id)
    bob.join(room.room_id)
    for attempt in (
        lambda: bob.start(room.room_id),
        lambda: bob.kick(room.room_id, 0),
        lambda: bob.add_bots(room.room_id, 1),
    ):
        with pytest.raises(HallError) as refused:
            attempt()
        assert refused.value.code == "not_operator"
    assert seater.calls == [] and not hall.room(room.room_id).state.started
    alice.add_bots(room.room_id, 1)
    assert seater.calls == [(room.room_id, 1)]
    alice.start(room.room_id)
    assert hall.room(room.room_id).state.started


def test_the_operator_passes_to_the_earliest_human_member_and_is_stored() -> None:
    hall, store, _ = make_hall()
    alice = hall.login("alice", RecordingListener(), protocol="web")
    bot = hall.login("Bot1", BotListener(), protocol="bot")
    carol = hall.login("carol", RecordingListener(), protocol="web")
    dave = hall.login("dave", RecordingListener(), protocol="web")
    room = alice.create_room("toy")
    alice.join(room.room_id)
    dave.spectate(room.room_id)
    bot.join(room.room_id)
    carol.join(room.room_id)
    alice.leave(room.room_id)
    # seated before watching, humans before bots: carol, although the bot and dave came earlier
    assert hall.room(room.room_id).info().operator == "carol"
    assert store.load_room(room.room_id).meta["operator"] == "carol"  # type: ignore[union-attr]
    with pytest.raises(HallError):
        dave.start(room.room_id)
    carol.start(room.room_id)
    assert hall.room(room.room_id).state.started


def test_a_renamed_operator_stays_the_operator() -> None:
    hall, _store, _ = make_hall()
    alice = hall.login("alice", RecordingListener(), protocol="web")
    room = alice.create_room("toy")
    alice.join(room.room_id)
    alice.rename(room.room_id, "alicia")
    assert hall.room(room.room_id).info().operator == "alicia"


# -- per protocol -------------------------------------------------------------------------


class Browser:
    def __init__(self, hall: Hall, name: str) -> None:
        import orjson

        self._orjson = orjson
        self.sent: list[dict[str, object]] = []
        self.dialogue = WebDialogue(
            hall, lambda text: self.sent.append(orjson.loads(text)), lambda: None, FakeClock()
        )
        self.send(t="hello", v=1, name=name)

    def send(self, **message: object) -> list[dict[str, object]]:
        before = len(self.sent)
        self.dialogue.text_received(self._orjson.dumps(message).decode())
        return self.sent[before:]


def test_the_browser_gets_not_operator_for_start_kick_and_bots() -> None:
    hall, _store, seater = make_hall()
    alice, bob = Browser(hall, "alice"), Browser(hall, "bob")
    created = alice.send(t="create", id=1, game="toy", settings={})
    room_id = next(r["room"]["id"] for r in created if r["t"] == "joined")  # type: ignore[index]
    bob.send(t="join", id=1, room=room_id)
    replies = [
        bob.send(t="start", id=2, room=room_id),
        bob.send(t="kick", id=3, room=room_id, seat=0),
        bob.send(t="bots", id=4, room=room_id, count=1, policy="random"),
    ]
    errors = [next(r for r in reply if r["t"] == "error") for reply in replies]
    assert [e["code"] for e in errors] == ["not_operator"] * 3
    assert all("operator" in str(e["reason"]) for e in errors)
    assert seater.calls == []


def test_jduplicate_start_follows_the_hall_operator_after_the_creator_leaves() -> None:
    harness = JdHarness(bags=["BIS?RTU"])
    ams, jim = harness.user("ams"), harness.user("jim")
    ams.send(m.CreateGameRequest("g", 120, "DupEN", 8, ""))
    web = harness.hall.login("wendy", RecordingListener(), protocol="web")
    room_id = harness.hall.rooms("words")[0].room_id
    web.join(room_id)
    jim.send(m.JoinGameRequest("g"))
    harness.take_all()
    with pytest.raises(HallError) as refused:
        web.start(room_id)
    assert refused.value.code == "not_operator"
    ams.send(m.LeaveGameRequest("bye"))
    harness.take_all()
    assert harness.hall.room(room_id).info().operator == "wendy"
    jim.send(m.StartGameRequest())
    assert jim.take() == ["ERROR|50001#"]
    web.start(room_id)
    assert harness.table().started


def test_jduplicate_shows_and_obeys_the_halls_operator_which_prefers_humans_to_bots() -> None:
    harness = JdHarness(bags=["BIS?RTU"])
    web = harness.hall.login("wendy", RecordingListener(), protocol="web")
    info = web.create_room("words", {"preset": "DupEN"}, title="mixed")
    web.join(info.room_id)
    harness.hall.login("Bot7", BotListener(), protocol="bot").join(info.room_id)
    ams = harness.user("ams")
    ams.send(m.JoinGameRequest("mixed"))
    ams.take()
    web.leave(info.room_id)
    harness.advance(0)
    assert harness.hall.room(info.room_id).info().operator == "ams"  # not Bot7, who came earlier
    infos = [line for line in ams.take() if line.startswith("GAMEINFOS|mixed#")]
    assert infos and infos[-1].startswith("GAMEINFOS|mixed#ams#")
    ams.send(m.StartGameRequest())
    assert harness.table().started

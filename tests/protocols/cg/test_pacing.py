"""Wire pacing (note §5.1, §8): the deal waits for the client's ``game.start{}`` (at most
``loading_timeout_s``), goes out in 16 bursts ``deal_interval_s`` apart, and a full trick stays
on the table ``trick_close_delay_s`` before it is taken. The room log never sees any of it."""

from __future__ import annotations

from gamehall.hall import FakeClock
from gamehall.protocols.cg.codec import Packet
from gamehall.protocols.cg.pacing import Pacer, Pause, WaitForStart

from .cg_support import CgClient, CgHarness, ScriptedPlayer, start_vs_bots

PACED = {"deal_interval_s": 1.0, "trick_close_delay_s": 1.0, "loading_timeout_s": 10.0}


def _deal_transfers(packets: list[Packet]) -> list[Packet]:
    return [p for p in packets if p.name == "cg:game.dk.card.transfer" and p.body["from_slot"] == "stack"]


def _started(harness: CgHarness) -> tuple[CgClient, list[Packet]]:
    alice = start_vs_bots(harness)
    return alice, alice.take()


def test_the_deal_waits_for_game_start_then_goes_out_in_16_bursts_a_second_apart() -> None:
    harness = CgHarness(seed=3, **PACED)
    alice, packets = _started(harness)
    creations = [p for p in packets if p.name == "cg:game.dk.card.transfer"]
    assert len(creations) == 48 and all(p.body["from_slot"] is None for p in creations)
    assert not any(p.body.get("phase") == "dealing" for p in packets)
    harness.run(5.0)
    assert _deal_transfers(alice.take()) == []  # still loading
    alice.send("cg:game.start")
    first = alice.take()
    assert [p.body.get("phase") for p in first if p.name == "cg:game.dk.round.change"] == ["dealing"]
    bursts = [len(_deal_transfers(first))]
    last: list[Packet] = []
    for _ in range(15):
        harness.run(1.0)
        last = alice.take()
        bursts.append(len(_deal_transfers(last)))
    assert bursts == [3] * 16
    assert {"phase": "w_for_ready"} in [p.body for p in last]  # right after the 16th burst


def test_without_game_start_the_deal_begins_after_the_loading_timeout() -> None:
    harness = CgHarness(seed=3, **PACED)
    alice, _ = _started(harness)
    harness.run(9.8)
    assert _deal_transfers(alice.take()) == []
    harness.run(0.4)
    assert len(_deal_transfers(alice.take())) == 3


def test_a_full_trick_stays_on_the_table_for_the_close_delay() -> None:
    harness = CgHarness(seed=3, **PACED)
    alice, first = _started(harness)
    player = ScriptedPlayer(alice)
    for packet in first:
        player.on_packet(packet)  # says game.start{} after the creations
    stamped: list[tuple[float, Packet]] = [(harness.clock.now(), p) for p in alice.all()]
    while harness.clock.now() < 1040 and not any("tricks" in p.body.get("to_slot", "") for _, p in stamped):
        harness.clock.advance(0.1)
        player.react()
        received = alice.all()
        stamped += [(harness.clock.now(), p) for p in received[len(stamped) :]]
    to_table = [
        t for t, p in stamped if p.name == "cg:game.dk.card.transfer" and p.body["to_slot"] == "table"
    ]
    taken = [t for t, p in stamped if p.name == "cg:game.dk.card.transfer" and "tricks" in p.body["to_slot"]]
    assert len(to_table) >= 4 and taken, "no trick was taken"
    assert abs(taken[0] - to_table[3] - 1.0) < 0.15


def test_the_pacer_keeps_order_and_a_drain_runs_everything_at_once() -> None:
    clock = FakeClock()
    sent: list[str] = []
    pacer = Pacer(clock, lambda p: sent.append(p.name))
    pacer.push(Packet("a", {}), Pause(1.0), Packet("b", {}), WaitForStart(5.0), Packet("c", {}))
    pacer.push(lambda: sent.append("call"))
    assert sent == ["a"]
    clock.advance(1.0)
    assert sent == ["a", "b"]
    pacer.start_received()
    assert sent == ["a", "b", "c", "call"] and pacer.idle
    pacer.start_received()  # not waiting: ignored
    pacer.push(Pause(3.0), Packet("d", {}))
    pacer.drain()
    assert sent[-1] == "d" and pacer.idle


def test_a_rejoin_rebuilds_the_slots_only_after_the_clients_game_start() -> None:
    harness = CgHarness(seed=5, **PACED)
    alice, _ = _started(harness)
    alice.send("cg:game.start")
    harness.run(20.0)  # dealt; Alice never says ready, so the round waits in w_for_ready
    alice.dialogue.connection_lost()
    again = harness.connect("Alice")
    again.handshake()
    again.send("cg:auth", username="alice", pwd="secret")
    packets = again.take()
    transfers = [p.body for p in packets if p.name == "cg:game.dk.card.transfer"]
    assert len(transfers) == 48 and all(t["from_slot"] is None for t in transfers)
    assert packets[-1].name == "cg:game.dk.card.transfer"  # the rest waits for "cards created"
    again.send("cg:game.start")
    rest = again.take()
    assert len(_deal_transfers(rest)) == 48
    assert {"phase": "w_for_ready"} in [p.body for p in rest]
    assert [p.name for p in rest[-4:]] == ["cg:game.dk.scoreboard"] * 4

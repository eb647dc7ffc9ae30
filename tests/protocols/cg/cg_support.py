"""Driving cg dialogues against a real hall, in process, with a fake clock.

- :class:`FakeWire` records every write and checks each is whole frames only;
- :class:`CgClient` is one connection: send packets (whole or byte by byte), read the packets
  received since the last look (decoded with the project's own codec, client side);
- :class:`CgHarness` owns the hall (MemoryStore, FakeClock, fixed seeds, in-hall bots with a
  fixed delay) and the accounts (in memory).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gamehall.bots.hall_bots import add_bots
from gamehall.hall import FakeClock, Hall
from gamehall.protocols._core import NEED_DATA
from gamehall.protocols.cg import registry
from gamehall.protocols.cg.codec import CgCodec, Packet
from gamehall.protocols.cg.dialogue import CgDialogue
from gamehall.protocols.cg.framing import FrameDecoder, encode_frame
from gamehall.protocols.cg.lobbies import CgServices
from gamehall.rules.doppelkopf import GAME_TYPE
from gamehall.store.accounts import MemoryAccounts
from gamehall.store.memory import MemoryStore

FAST = {
    "turn_timeout_s": 60.0,
    "complaint_timeout_s": 60.0,
    "vote_timeout_s": 60.0,
    "deal_interval_s": 0.0,  # the note's pacing: 0 in tests (test_pacing.py measures it)
    "trick_close_delay_s": 0.0,
    "loading_timeout_s": 0.0,  # clients here need not say game.start{} (test_pacing.py does)
}


class FakeWire:
    def __init__(self, peer: str) -> None:
        self._peer = peer
        self.writes: list[bytes] = []
        self.closed = False

    @property
    def peer(self) -> str:
        return self._peer

    def send(self, data: bytes) -> None:
        assert not self.closed, "write after close"
        decoder = FrameDecoder()
        decoder.receive_data(data)
        assert decoder.next_frame() is not NEED_DATA and decoder.next_frame() is NEED_DATA
        assert decoder.buffered == 0
        self.writes.append(data)

    def close(self) -> None:
        self.closed = True

    def offload(self, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        """Sans-I/O: the slow work runs at once (the server runs it in a worker thread)."""
        done(work())


class CgClient:
    def __init__(self, harness: CgHarness, name: str) -> None:
        self.harness = harness
        self.name = name
        self.wire = FakeWire(f"test:{name}")
        self.dialogue = CgDialogue(harness.services, self.wire, wall_time=lambda: 1e9)
        self.codec = CgCodec()
        self.read = 0
        self.received: list[Packet] = []
        self.seen = 0
        self.uuid = ""

    def send_raw(self, data: bytes, *, bytewise: bool | None = None) -> None:
        split = self.harness.bytewise if bytewise is None else bytewise
        for chunk in [data[i : i + 1] for i in range(len(data))] if split else [data]:
            self.dialogue.data_received(chunk)
        self.harness.settle()

    def send(self, name: str, **body: Any) -> None:
        ids = registry.names_for(self.dialogue.flavor)
        self.send_raw(encode_frame(ids[name], body))

    def _decode(self) -> None:
        self.harness.settle()  # what reached the client once the loop's turn is over
        while self.read < len(self.wire.writes):
            self.codec.receive_data(self.wire.writes[self.read])
            self.read += 1
            while (packet := self.codec.next_message()) is not NEED_DATA:
                assert isinstance(packet, Packet)
                self.received.append(packet)
                if packet.name == "cg:version.check" and packet.body.get("flavor") == "gamehall":
                    self.codec.use_ids(registry.ids_for("gamehall"))

    def take(self) -> list[Packet]:
        self._decode()
        new = self.received[self.seen :]
        self.seen = len(self.received)
        return new

    def all(self) -> list[Packet]:
        self._decode()
        return list(self.received)

    # -- the usual steps --------------------------------------------------------------------

    def handshake(self, flavor: str = "vanilla") -> None:
        self.send(registry.SETTYPE, conntype="classic")
        self.send(registry.HANDSHAKE_ACCEPT, success=True)
        self.send("cg:version.check", protoversion=1, semver="0.3.2-dev", flavor=flavor)

    def register(self, password: str = "secret", flavor: str = "vanilla") -> None:
        self.handshake(flavor)
        self.send("cg:auth", username=self.name, pwd=password, create=True)
        packets = self.take()
        auth = [p for p in packets if p.name == "cg:auth"]
        assert auth and auth[-1].body["status"] == "logged_in", packets
        self.uuid = auth[-1].body["uuid"]


class CgHarness:
    def __init__(
        self,
        *,
        seed: int = 3,
        bytewise: bool = False,
        bot_delay: float = 0.3,
        scrypt_n: int = 2**14,
        **defaults: Any,
    ) -> None:
        self.clock = FakeClock()
        seeds = iter(range(seed, seed + 10_000))
        self.accounts = MemoryAccounts(server_id="5e7f00d0000000000000000000000001", scrypt_n=scrypt_n)

        def seat_bots(hall: Hall, room_id: str, count: int, policy: str) -> list[str]:
            return add_bots(hall, room_id, count, policy, delay=bot_delay, seed=seed)

        self.hall = Hall(
            games={"doppelkopf": GAME_TYPE},
            store=MemoryStore(),
            clock=self.clock,
            defaults={"doppelkopf": {**FAST, **defaults}},
            seed_source=lambda: next(seeds),
            bot_seater=seat_bots,
        )
        self.bytewise = bytewise
        self.clients: list[CgClient] = []
        self._services: CgServices | None = None

    @property
    def services(self) -> CgServices:
        """The protocol's services over the current hall, as a server builds them once; a new
        hall (a restart) gets fresh ones."""
        if self._services is None or self._services.hall is not self.hall:
            self._services = CgServices(self.hall, self.clock, self.accounts)
        return self._services

    def connect(self, name: str) -> CgClient:
        client = CgClient(self, name)
        self.clients.append(client)
        return client

    def settle(self) -> None:
        self.clock.run_due()
        for client in self.clients:  # what the server does after an offloaded answer: pump
            client.dialogue.handle_buffered(1 << 62)

    def run(self, seconds: float, step: float = 0.1) -> None:
        """Let the bots think for ``seconds`` of fake time."""
        for _ in range(int(seconds / step)):
            self.clock.advance(step)
            self.settle()


class ScriptedPlayer:
    """A cg client that plays from what it receives only: ready at once, "no" to every question,
    each card of its hand in turn until one is accepted, and ``end_yes`` after ``rounds`` rounds."""

    def __init__(self, client: CgClient, *, rounds: int = 1) -> None:
        self.client = client
        self.rounds = rounds
        self.hand: dict[str, str] = {}
        self.my_slot = ""
        self.ended = False
        self.round_ends = 0
        self.refusals: list[str] = []

    def react(self) -> None:
        for packet in self.client.take():
            self.on_packet(packet)

    def on_packet(self, packet: Packet) -> None:
        client, body = self.client, packet.body
        if packet.name == "cg:game.dk.round.change":
            if "player_list" in body:
                self.my_slot = f"hand{body['player_list'].index(client.uuid)}"
                self.hand = {}
            if body.get("phase") == "w_for_ready":
                client.send("cg:game.dk.announce", type="ready")
            if body.get("phase") == "end":
                self.round_ends += 1
                vote = "end_yes" if self.round_ends >= self.rounds else "continue_yes"
                client.send("cg:game.dk.announce", type=vote)
        elif packet.name == "cg:game.dk.card.transfer":
            if body["to_slot"] == self.my_slot:
                self.hand[body["card_id"]] = body["card_value"]
            elif body["from_slot"] == self.my_slot:
                self.hand.pop(body["card_id"], None)
        elif packet.name == "cg:game.dk.question" and body["target"] == client.uuid:
            answer = {"solo": "solo_no", "poverty_accept": "poverty_decline"}.get(
                body["type"], body["type"] + "_no"
            )
            client.send("cg:game.dk.announce", type=answer)
        elif packet.name == "cg:game.dk.turn" and body["current_player"] == client.uuid:
            self.play()
        elif packet.name == "cg:game.start" and "game_type" in body:
            client.send("cg:game.start")
        elif packet.name == "cg:game.end":
            self.ended = True
        elif packet.name == "cg:status.message":
            self.refusals.append(body["message"])

    def play(self) -> None:
        """Try the cards in hand order; a refused one leaves a ``pc_wrong_card`` warning."""
        for card in list(self.hand):
            before = len(self.client.wire.writes)
            self.client.send("cg:game.dk.card.intent", intent="play", card=card)
            answers = self.client.take()
            refused = any(p.name == "cg:status.message" for p in answers)
            for packet in answers:
                self.on_packet(packet)
            if not refused and len(self.client.wire.writes) > before:
                return


def play_until_end(harness: CgHarness, player: ScriptedPlayer, limit_s: float = 2000.0) -> None:
    elapsed = 0.0
    player.react()
    while not player.ended and elapsed < limit_s:
        harness.clock.advance(0.1)
        elapsed += 0.1
        player.react()
    assert player.ended, "the game did not end"


def start_vs_bots(harness: CgHarness, name: str = "Alice", flavor: str = "vanilla", **rules: Any) -> CgClient:
    client = harness.connect(name)
    client.register(flavor=flavor)
    client.send("cg:lobby.create", game="doppelkopf", variant="c")
    if rules:
        client.send("cg:lobby.change", gamerules=rules)
    for _ in range(3):
        client.send("cg:lobby.invite", username="bot_dk_dumb")
    client.send("cg:lobby.ready", ready=True)
    return client

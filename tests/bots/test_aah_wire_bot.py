"""The AAH wire bot against a tiny scripted fake server on loopback: it speaks like the 0.2.0
client (specs/aah.md section 12) and detects every crash condition of that client."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable

import pytest

from gamehall.bots.aah import AahPolicy, AahWireBot, LegacyClientCrash, run_bots
from gamehall.protocols._core import NEED_DATA
from gamehall.protocols.aah.codec import AahCodec, Frame, Side
from gamehall.protocols.aah.meta import ServerMeta, encode_server_meta, server_meta_xml

CLIENT_200 = "PG1ldGE+DQogIDx2ZXJzaW9uPjIwMDwvdmVyc2lvbj4NCjwvbWV0YT4="
SERVER_META = encode_server_meta(ServerMeta(players=3))


class FakeConnection:
    """The server end of one accepted connection, driven by the test."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.codec = AahCodec(Side.SERVER)
        self.received: list[Frame] = []

    def send(self, command: str, *args: str) -> None:
        self.writer.write(self.codec.encode(Frame(command, args)))

    def send_raw(self, data: bytes) -> None:
        self.writer.write(data)

    async def expect(self, command: str, timeout: float = 2.0) -> Frame:
        """The next client frame, which must have ``command``."""
        async with asyncio.timeout(timeout):
            while True:
                frame = self.codec.next_message()
                if frame is not NEED_DATA:
                    assert isinstance(frame, Frame)
                    self.received.append(frame)
                    assert frame.command == command, f"expected {command}, got {frame}"
                    return frame
                data = await self.reader.read(4096)
                assert data, f"EOF while waiting for {command}"
                self.codec.receive_data(data)

    async def handshake(self, nicks: tuple[str, ...] = ("alice", "bob", "carol")) -> None:
        """JOIN, META request/reply, ACKN, CLNF, then the client's META request answered."""
        await self.expect("JOIN")
        self.send("META")
        assert (await self.expect("META")).args == (CLIENT_200,)
        self.send("ACKN")
        self.send("CLNF", *nicks)
        assert (await self.expect("META")).args == ()
        self.send("META", SERVER_META)

    def close(self) -> None:
        self.writer.close()


class FakeServer:
    def __init__(self) -> None:
        self.connections: asyncio.Queue[FakeConnection] = asyncio.Queue()
        self.port = 0
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        async def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await self.connections.put(FakeConnection(reader, writer))

        self._server = await asyncio.start_server(accepted, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def accept(self) -> FakeConnection:
        return await asyncio.wait_for(self.connections.get(), 2.0)

    async def stop(self) -> None:
        assert self._server is not None
        self._server.close()
        while not self.connections.empty():
            self.connections.get_nowait().close()


@pytest.fixture
async def server() -> AsyncIterator[FakeServer]:
    fake = FakeServer()
    await fake.start()
    yield fake
    await fake.stop()


def hand_of(base: int) -> list[tuple[str, str]]:
    return [(str(base + n), f"Card number {n} of {base}.") for n in range(10)]


async def test_a_whole_game_like_the_0_2_0_client(server: FakeServer) -> None:
    bot = AahWireBot("127.0.0.1", server.port, "alice", rng=random.Random(3), ping_probe=True)
    game = asyncio.create_task(bot.run(timeout=10))
    conn = await server.accept()
    await conn.handshake()
    conn.send("PING")
    await conn.expect("PONG")
    conn.send("GSTR")
    for nick in ("alice", "bob", "carol"):
        conn.send("PNTS", nick, "0")
    for card_id, text in hand_of(5000):
        conn.send("WHTE", card_id, text)
    conn.send("WHTE", "5000", "A duplicate restore is a no-op.")
    # round 1: bob is czar, pick 2: one PICK frame per card, then a PING probe
    conn.send("RSTR")
    conn.send("CZAR", "bob")
    conn.send("BLCK", "First _____, then _____.", "2")
    first = await conn.expect("PICK")
    second = await conn.expect("PICK")
    await conn.expect("PING")
    conn.send("PONG")
    played = [int(first.args[0]), int(second.args[0])]
    assert len(first.args) == len(second.args) == 1
    assert len(set(played)) == 2 and set(played) <= set(range(5000, 5010))
    conn.send("BLNK")
    conn.send("BLNK")
    conn.send("REVL", "7001", "Carol one.", "7002", "Carol two.")
    conn.send("REVL", str(played[0]), "x", str(played[1]), "y")
    conn.send("RWIN", "carol", "7002")
    conn.send("UNRG", "Ignored.")
    conn.send("PNTS", "carol", "1")
    conn.send("WHTE", "5100", "Drawn.")
    conn.send("WHTE", "5101", "Drawn too.")
    # round 2: alice is czar and judges once both submissions are revealed
    conn.send("RSTR")
    conn.send("CZAR", "alice")
    conn.send("BLCK", "Nobody expects _____.", "1")
    conn.send("BLNK")
    conn.send("BLNK")
    conn.send("REVL", "8001", "Bob's answer, quite long indeed.")
    conn.send("REVL", "9001", "Carol's.")
    judged = await conn.expect("CZPK")
    assert judged.args in (("8001",), ("9001",))
    winner = "bob" if judged.args == ("8001",) else "carol"
    conn.send("RWIN", winner, judged.args[0])
    conn.send("GWIN", winner)
    conn.send("DISC", "The game has ended.")
    stats = await game
    assert stats.violations == []
    assert stats.protocol_errors == []
    assert (stats.rounds, stats.games_started, stats.games_finished) == (2, 1, 1)
    assert stats.actions_sent == 3 and stats.unrg == 1
    assert [r.command for r in stats.actions] == ["PICK", "PICK", "CZPK"]
    assert all(r.confirmed_by == "PONG" for r in stats.actions[:2])
    assert stats.actions[2].confirmed_by == "RWIN"
    assert all(latency >= 0 for latency in stats.latencies())
    assert len(bot.hand) == 10 and not set(played) & set(bot.hand)
    if 5000 in bot.hand:
        assert bot.hand[5000] == "Card number 0 of 5000."  # the duplicate WHTE changed nothing
    assert bot.server_meta == ServerMeta(players=3)
    assert bot.round_winners == [("carol", 7002), (winner, int(judged.args[0]))]
    assert bot.disconnected == "The game has ended." and bot.game_winner == winner


async def test_pick_confirmed_by_the_reveal_without_probe(server: FakeServer) -> None:
    bot = AahWireBot("127.0.0.1", server.port, "alice", rng=random.Random(1))
    await bot.connect()
    conn = await server.accept()
    await conn.handshake()
    conn.send("GSTR")
    for card_id, text in hand_of(100):
        conn.send("WHTE", card_id, text)
    conn.send("RSTR")
    conn.send("CZAR", "bob")
    conn.send("BLCK", "_____!", "1")
    pick = await conn.expect("PICK")
    conn.send("REVL", pick.args[0], "x")
    await bot.wait_for(lambda: bot.stats.actions[0].confirmed_by is not None)
    assert bot.stats.actions[0].confirmed_by == "REVL"
    await bot.close()


async def test_void_round_cards_come_back(server: FakeServer) -> None:
    bot = AahWireBot("127.0.0.1", server.port, "alice", rng=random.Random(2))
    await bot.connect()
    conn = await server.accept()
    await conn.handshake()
    conn.send("GSTR")
    for card_id, text in hand_of(100):
        conn.send("WHTE", card_id, text)
    conn.send("RSTR")
    conn.send("CZAR", "bob")
    conn.send("BLCK", "_____!", "1")
    pick = await conn.expect("PICK")
    conn.send("RWIN")
    conn.send("WHTE", pick.args[0], "back")
    await bot.wait_for(lambda: len(bot.hand) == 10)
    assert bot.round_winners == [None] and bot.stats.rounds == 1
    await bot.close()


async def test_quit_sends_disc_and_waits_at_most_a_second(server: FakeServer) -> None:
    bot = AahWireBot("127.0.0.1", server.port, "alice")
    await bot.connect()
    conn = await server.accept()
    await conn.handshake()
    await bot.wait_for(lambda: bot.server_meta is not None)
    loop = asyncio.get_running_loop()
    started = loop.time()
    await bot.quit()  # the fake server never answers
    assert 0.9 < loop.time() - started < 1.5
    await conn.expect("DISC")


async def test_quit_returns_on_the_server_disc(server: FakeServer) -> None:
    bot = AahWireBot("127.0.0.1", server.port, "alice")
    await bot.connect()
    conn = await server.accept()
    await conn.handshake()

    async def answer() -> None:
        await conn.expect("DISC")
        conn.send("DISC", "Disconnected at request.")
        conn.close()

    responder = asyncio.create_task(answer())
    await bot.wait_for(lambda: bot.server_meta is not None)
    loop = asyncio.get_running_loop()
    started = loop.time()
    await bot.quit()
    await responder
    assert loop.time() - started < 0.5
    assert bot.disconnected == "Disconnected at request."


async def test_refusal_ends_the_run(server: FakeServer) -> None:
    bot = AahWireBot("127.0.0.1", server.port, "alice", answer_meta=False)
    run = asyncio.create_task(bot.run(timeout=5))
    conn = await server.accept()
    await conn.expect("JOIN")
    conn.send("META")
    conn.send("REFU", "Failed to respond with metadata in time.")
    conn.close()
    stats = await run
    assert bot.refused == "Failed to respond with metadata in time."
    assert not stats.violations and not bot.accepted


async def test_a_refused_reconnection_is_tried_again_until_accepted(server: FakeServer) -> None:
    """After a lost connection the nick may still be in use (on a hall of several nodes, until
    the hall knows the bot's dead node is gone): the bot asks again, as a player would."""
    bot = AahWireBot("127.0.0.1", server.port, "alice", reconnect_s=5.0)
    run = asyncio.create_task(bot.run(timeout=10))
    first = await server.accept()
    await first.handshake()
    first.close()  # the node died
    refused = await server.accept()
    await refused.expect("JOIN")
    refused.send("REFU", "Nickname in use.")
    refused.close()
    again = await server.accept()
    await again.handshake()
    await bot.wait_for(lambda: bot.reconnects == 1 and bot.server_meta is not None)
    assert bot.refused is None
    again.send("DISC", "The game has ended.")
    again.close()
    await run
    assert bot.reconnects == 1


async def test_meta_reply_with_another_version_and_delay(server: FakeServer) -> None:
    bot = AahWireBot("127.0.0.1", server.port, "alice", meta_version=300, meta_delay=0.2)
    await bot.connect()
    conn = await server.accept()
    await conn.expect("JOIN")
    loop = asyncio.get_running_loop()
    conn.send("META")
    started = loop.time()
    reply = await conn.expect("META")
    assert loop.time() - started >= 0.15
    assert reply.args == ("PG1ldGE+DQogIDx2ZXJzaW9uPjMwMDwvdmVyc2lvbj4NCjwvbWV0YT4=",)
    await bot.close()


def _meta_without(tag: str) -> str:
    import base64

    xml = server_meta_xml(ServerMeta()).replace(f"  <{tag}>", "  <x>").replace(f"</{tag}>", "</x>")
    return base64.b64encode(xml.encode()).decode()


def _meta_repeating(tag: str) -> str:
    import base64

    xml = server_meta_xml(ServerMeta()).replace("</meta>", f"  <{tag}>1</{tag}>\r\n</meta>")
    return base64.b64encode(xml.encode()).decode()


Script = Callable[[FakeConnection], None]


def after_handshake(*frames: tuple[str, ...]) -> Script:
    def script(conn: FakeConnection) -> None:
        for command, *args in frames:
            conn.send(command, *args)

    return script


CRASHES: dict[str, tuple[bool, Script]] = {
    # name: (handshake first?, what the server sends)
    "frame before ACKN": (False, after_handshake(("BDCS", "Welcome!"), ("ACKN",), ("CLNF", "alice"))),
    "PING before ACKN": (False, after_handshake(("PING",), ("ACKN",), ("CLNF", "alice"))),
    "CLNF not after ACKN": (False, after_handshake(("ACKN",), ("CLJN", "bob"), ("CLNF", "alice", "bob"))),
    "CZAR unknown nick": (True, after_handshake(("RSTR",), ("CZAR", "dave"))),
    "CZAR after CLEX": (True, after_handshake(("CLEX", "bob"), ("RSTR",), ("CZAR", "bob"))),
    "BLCK one arg": (True, after_handshake(("RSTR",), ("CZAR", "bob"), ("BLCK", "No pick."))),
    "BLCK non-integer pick": (True, after_handshake(("RSTR",), ("CZAR", "bob"), ("BLCK", "_____.", "two"))),
    "WHTE three args": (True, after_handshake(("WHTE", "1", "a", "b"))),
    "WHTE one arg": (True, after_handshake(("WHTE", "1"))),
    "RWIN unrevealed id": (
        True,
        after_handshake(("RSTR",), ("CZAR", "bob"), ("REVL", "10", "x"), ("RWIN", "carol", "11")),
    ),
    "RWIN id revealed last round": (
        True,
        after_handshake(("REVL", "10", "x"), ("RSTR",), ("CZAR", "bob"), ("RWIN", "carol", "10")),
    ),
    "CLEX unknown nick": (True, after_handshake(("CLEX", "dave"))),
    "CLEX with a sentence": (True, after_handshake(("CLEX", "Player bob disconnected."))),
    "META missing tag": (True, after_handshake(("META", _meta_without("aplimit")))),
    "META repeated tag": (True, after_handshake(("META", _meta_repeating("players")))),
}


def _short_frame(conn: FakeConnection) -> None:
    conn.send_raw(b"AB\x03")


CRASHES["frame shorter than 4 bytes"] = (True, _short_frame)


@pytest.mark.parametrize("case", sorted(CRASHES))
@pytest.mark.parametrize("strict", [True, False])
async def test_crash_conditions_are_detected(server: FakeServer, case: str, strict: bool) -> None:
    handshake_first, script = CRASHES[case]
    bot = AahWireBot("127.0.0.1", server.port, "alice", strict=strict, play=False)
    await bot.connect()
    conn = await server.accept()
    if handshake_first:
        await conn.handshake()
        await bot.wait_for(lambda: bot.server_meta is not None)
    else:
        await conn.expect("JOIN")
    script(conn)
    conn.send("PING")  # a marker: once answered, everything before it was handled
    if strict:
        with pytest.raises(LegacyClientCrash):
            await bot.wait_for(lambda: False, timeout=2)
    else:
        await conn.expect("PONG") if handshake_first else await conn.expect("META")
        await bot.wait_for(lambda: bool(bot.stats.violations), timeout=2)
        if not handshake_first:
            await conn.expect("PONG")
        assert len(bot.stats.violations) == 1, bot.stats.violations
    await bot.close()


async def test_no_crash_on_a_correct_stream(server: FakeServer) -> None:
    """The counterpart of the crash cases: the same frames, well formed, raise nothing."""
    bot = AahWireBot("127.0.0.1", server.port, "alice", play=False)
    await bot.connect()
    conn = await server.accept()
    await conn.handshake()
    for command, *args in [
        ("CLJN", "dave"),
        ("CLEX", "dave"),
        ("RSTR",),
        ("CZAR", "bob"),
        ("BLCK", "_____.", "1"),
        ("WHTE", "1", "a"),
        ("REVL", "10", "x", "12", "y"),
        ("RWIN", "carol", "12"),
        ("NACC",),
        ("RMSG", "bob", "hi"),
        ("BDCS", "notice"),
        ("CRTO",),
        ("CZTO",),
        ("PING",),
    ]:
        conn.send(command, *args)
    await conn.expect("PONG")
    assert bot.stats.violations == [] and bot.nicks == ["alice", "bob", "carol"]
    await bot.close()


async def test_run_bots_reconnects_for_each_game(server: FakeServer) -> None:
    games: list[asyncio.Task[None]] = []

    async def table() -> None:
        while True:
            conn = await server.connections.get()
            games.append(asyncio.create_task(play_instant_game(conn)))

    async def play_instant_game(conn: FakeConnection) -> None:
        join = await conn.expect("JOIN")
        conn.send("META")
        await conn.expect("META")
        conn.send("ACKN")
        conn.send("CLNF", join.args[0])
        await conn.expect("META")
        conn.send("GSTR")
        conn.send("GWIN", join.args[0])
        conn.send("DISC", "The game has ended.")
        conn.close()

    host = asyncio.create_task(table())
    try:
        results = await run_bots(
            "127.0.0.1",
            server.port,
            3,
            names_prefix="b",
            policy=AahPolicy("heuristic"),
            stop_after_games=2,
            seed=1,
        )
    finally:
        host.cancel()
    assert [r.name for r in results] == ["b1", "b2", "b3"]
    assert all(r.games_finished == 2 and r.games_won == 2 and not r.violations for r in results)


async def test_run_bots_refuses_bad_names() -> None:
    with pytest.raises(ValueError, match="nick"):
        await run_bots("127.0.0.1", 1, 2, names_prefix="no space ")


async def test_a_failing_hook_surfaces_from_wait_for(server: FakeServer) -> None:
    def hook(bot: AahWireBot, frame: Frame) -> None:
        if frame.command == "GSTR":
            raise RuntimeError("hook failed")

    bot = AahWireBot("127.0.0.1", server.port, "alice", on_frame=hook)
    await bot.connect()
    conn = await server.accept()
    await conn.handshake()
    conn.send("GSTR")
    with pytest.raises(RuntimeError, match="hook failed"):
        await bot.wait_for(lambda: False, timeout=2)
    await bot.close()


async def test_run_bots_without_a_server_gives_up_quietly() -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    results = await run_bots("127.0.0.1", port, 2, policy="heuristic", timeout=5)
    assert [(r.name, r.games_finished, r.frames_sent) for r in results] == [("bot1", 0, 0), ("bot2", 0, 0)]


async def test_run_bots_strict_crash_stops_every_bot(server: FakeServer) -> None:
    async def bad_table() -> None:
        conn = await server.connections.get()
        await conn.expect("JOIN")
        conn.send("BDCS", "Hello before ACKN.")

    host = asyncio.create_task(bad_table())
    with pytest.raises(LegacyClientCrash):
        await run_bots("127.0.0.1", server.port, 1, strict=True, timeout=5)
    await host

"""A TCP connection runs its ``before_write`` hook (the hall's write barrier: flush the outbox,
commit, then deliver) before it writes to its socket, so a dialogue's own answer never leaves
before the commit of what the input it answers changed, and what the flush delivers goes out in
the same write, behind that answer (docs/architecture.md, "The turn of the loop"). With a store
that commits in the background the answer waits for that commit. A WebSocket has the same
barrier."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from background_store import BackgroundStore
from recording_listener import RecordingListener
from server_echo import EchoDialogue
from toy_game import TOY, Add

from gamehall.hall import Hall
from gamehall.hall.hall import Session
from gamehall.protocols._core import Wire
from gamehall.server.clock import LoopClock
from gamehall.server.connection import connection_factory
from gamehall.server.limits import ConnectionLimits
from gamehall.server.listeners import bound_port, start_tcp
from gamehall.server.metrics import ServerMetrics
from gamehall.server.tracker import ConnectionTracker
from gamehall.server.websocket import serve_websocket


@contextlib.asynccontextmanager
async def echo_server(
    dialogues: list[EchoDialogue], before_write: Callable[[Callable[[], None]], bool]
) -> AsyncIterator[int]:
    """An echo listener on a free port (yielded) whose connections pass ``before_write``;
    each connection's dialogue is appended to ``dialogues``."""

    def make_dialogue(wire: Wire) -> EchoDialogue:
        dialogue = EchoDialogue(wire)
        dialogues.append(dialogue)
        return dialogue

    metrics = ServerMetrics()
    metrics.add_protocol("echo")
    tracker = ConnectionTracker(0)
    factory = connection_factory(
        "echo", make_dialogue, ConnectionLimits(), metrics, tracker, before_write=before_write
    )
    server = await start_tcp("echo", "127.0.0.1", 0, factory)
    try:
        yield bound_port(server)
    finally:
        await tracker.drain(1.0)
        server.close()
        await server.wait_closed()


async def test_the_hook_runs_before_the_write_and_its_deliveries_share_it() -> None:
    dialogues: list[EchoDialogue] = []
    flushes: list[int] = []

    def before_write(resume: Callable[[], None]) -> bool:  # stands in for Hall.write_barrier
        flushes.append(len(flushes))
        dialogues[0].wire.send(b"delivered\n")  # its flush delivers to the connection
        return True  # everything committed

    async with echo_server(dialogues, before_write) as port:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"echo answer\n")
        await writer.drain()
        lines = [await asyncio.wait_for(reader.readline(), 5.0) for _ in range(2)]
        assert lines == [b"answer\n", b"delivered\n"]
        assert flushes == [0]  # once: the delivery it made was written with the answer
        assert dialogues[0].wire.writes == 1  # type: ignore[attr-defined]
        writer.close()


async def test_a_connection_the_held_barrier_delivered_to_writes_when_it_resumes() -> None:
    """The barrier's flush may deliver to a connection that had nothing queued yet (a replica
    handing a room's events to its one player here) and then hold, because a forwarded input
    is not answered yet: that connection is held with the others and writes on resume, rather
    than being left registered for a flush that never comes."""
    dialogues: list[EchoDialogue] = []
    resumes: list[Callable[[], None]] = []

    def before_write(resume: Callable[[], None]) -> bool:  # stands in for Hall.write_barrier
        if len(dialogues) < 2 or resumes:
            return True
        dialogues[1].wire.send(b"delivered\n")  # to the other connection, idle until now
        resumes.append(resume)
        return False  # a forwarded input still holds the barrier

    async with echo_server(dialogues, before_write) as port:
        first = await asyncio.open_connection("127.0.0.1", port)
        second = await asyncio.open_connection("127.0.0.1", port)
        while len(dialogues) < 2:
            await asyncio.sleep(0.01)
        first[1].write(b"echo answer\n")
        await first[1].drain()
        while not resumes:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # held: neither connection has written
        assert dialogues[0].wire.writes == dialogues[1].wire.writes == 0  # type: ignore[attr-defined]
        resumes[0]()
        assert await asyncio.wait_for(first[0].readline(), 5.0) == b"answer\n"
        assert await asyncio.wait_for(second[0].readline(), 5.0) == b"delivered\n"
        first[1].close()
        second[1].close()


# ------------------------------------------------------------ a real hall, a background store


class Mover:
    """A dialogue that plays alice's ``Add(1)`` on any input and answers ``ok`` at once, the
    way an ``ACKN`` answers a move: the answer must not leave before the move is committed."""

    def __init__(self, table: Table, send: Callable[[bytes], None]) -> None:
        self.table, self.send = table, send

    def move(self) -> None:
        self.table.alice.act(self.table.room_id, Add(1))
        self.send(b"ok\n")


@dataclass
class Table:
    hall: Hall
    store: BackgroundStore
    room_id: str
    alice: Session

    def last_entry(self) -> str:
        record = self.store.load_room(self.room_id)
        assert record is not None
        return record.entries[-1].kind


async def hall_with_a_table() -> Table:
    clock = LoopClock()
    store = BackgroundStore(delay_s=0.1)
    hall = Hall(games={"toy": TOY}, store=store, clock=clock, commit_waiter=clock.wait_for)
    alice = hall.login("alice", RecordingListener(), protocol="test")
    bob = hall.login("bob", RecordingListener(), protocol="test")
    room_id = alice.create_room("toy").room_id
    alice.join(room_id)
    bob.join(room_id)
    await asyncio.sleep(0.3)  # the seating is committed
    return Table(hall, store, room_id, alice)


class TcpMover(Mover):
    def __init__(self, table: Table, wire: Wire) -> None:
        super().__init__(table, wire.send)

        self.lines = 0

    def data_received(self, data: bytes) -> None:
        self.receive_data(data)
        self.handle_buffered(1 << 30)

    def receive_data(self, data: bytes) -> None:
        self.lines += data.count(b"\n")

    def handle_buffered(self, limit: int) -> int:
        handled = min(self.lines, limit)
        self.lines -= handled
        for _ in range(handled):
            self.move()
        return handled

    def connection_lost(self) -> None:
        pass


async def test_a_tcp_answer_waits_for_the_background_commit_of_its_move() -> None:
    table = await hall_with_a_table()
    metrics = ServerMetrics()
    metrics.add_protocol("toy")
    tracker = ConnectionTracker(0)
    factory = connection_factory(
        "toy",
        lambda wire: TcpMover(table, wire),
        ConnectionLimits(),
        metrics,
        tracker,
        before_write=table.hall.write_barrier,
    )
    server = await start_tcp("toy", "127.0.0.1", 0, factory)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", bound_port(server))
        writer.write(b"move\n")
        await writer.drain()
        assert await asyncio.wait_for(reader.readline(), 5.0) == b"ok\n"
        assert table.last_entry() == "act"  # committed before the answer left
        writer.close()
    finally:
        await tracker.drain(1.0)
        server.close()
        await server.wait_closed()


class WebMover(Mover):
    def __init__(self, table: Table, send_text: Callable[[str], None]) -> None:
        super().__init__(table, lambda data: send_text(data.decode()))

    def text_received(self, text: str) -> None:
        self.move()

    def connection_lost(self) -> None:
        pass


async def test_a_websocket_answer_waits_for_the_background_commit_of_its_move() -> None:
    table = await hall_with_a_table()
    metrics = ServerMetrics()
    metrics.add_protocol("web")

    async def handler(request: web.Request) -> web.StreamResponse:
        return await serve_websocket(
            request,
            lambda send_text, close, offload: WebMover(table, send_text),
            ConnectionLimits(),
            metrics,
            ConnectionTracker(),
            before_write=table.hall.write_barrier,
        )

    app = web.Application()
    app.router.add_get("/ws", handler)
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:
        socket = await client.ws_connect("/ws")
        await socket.send_str("move")
        assert await socket.receive_str(timeout=5.0) == "ok\n"
        assert table.last_entry() == "act"  # committed before the answer left
        await socket.close()


class TextEcho:
    def __init__(self, send_text: Callable[[str], None]) -> None:
        self.send_text = send_text

    def text_received(self, text: str) -> None:
        self.send_text(text)

    def connection_lost(self) -> None:
        pass


async def test_a_websocket_answer_waits_while_the_barrier_holds_and_leaves_on_resume() -> None:
    resumes: list[Callable[[], None]] = []

    def barrier(resume: Callable[[], None]) -> bool:  # a commit under way until the test resumes
        resumes.append(resume)
        return False

    async def handler(request: web.Request) -> web.StreamResponse:
        return await serve_websocket(
            request,
            lambda send_text, close, offload: TextEcho(send_text),
            ConnectionLimits(),
            ServerMetrics(),
            ConnectionTracker(),
            before_write=barrier,
        )

    app = web.Application()
    app.router.add_get("/ws", handler)
    async with TestClient(TestServer(app, host="127.0.0.1")) as client:
        socket = await client.ws_connect("/ws")
        await socket.send_str("first")
        with pytest.raises(asyncio.TimeoutError):
            await socket.receive_str(timeout=0.2)  # held at the barrier
        assert len(resumes) == 1
        resumes[0]()
        assert await socket.receive_str(timeout=5.0) == "first"
        await socket.close()

"""Test doubles for the server layer: a line-based echo dialogue and a TCP listener around it.

The echo dialogue understands newline-terminated commands, enough to drive every behaviour
of :class:`gamehall.server.connection.TcpConnection` from a real socket:

- ``echo X``   -> sends ``X\\n``
- ``burst N``  -> sends ``N`` frames ``i\\n`` in one go (one loop iteration)
- ``boom``     -> raises (a dialogue bug)
- ``hash X``   -> ``X`` upper-cased, computed through ``wire.offload`` (a worker thread)
- ``bye``      -> sends ``bye\\n`` then closes the wire
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from gamehall.protocols._core import Wire
from gamehall.protocols._spec import HallServices, ProtocolSpec, TcpProtocol
from gamehall.server.connection import TcpConnection, connection_factory
from gamehall.server.limits import ConnectionLimits
from gamehall.server.listeners import bound_port, start_tcp
from gamehall.server.metrics import ServerMetrics
from gamehall.server.tracker import ConnectionTracker


class DialogueBug(Exception):
    """What ``boom`` raises."""


class EchoDialogue:
    def __init__(self, wire: Wire) -> None:
        self.wire = wire
        self.buffer = b""
        self.received: list[bytes] = []
        self.handled = 0
        self.waiting = False
        self.lost = 0

    def data_received(self, data: bytes) -> None:
        self.receive_data(data)
        self.handle_buffered(1 << 62)

    def receive_data(self, data: bytes) -> None:
        self.received.append(data)
        self.buffer += data
        if len(self.buffer) > 1 << 20 and b"\n" not in self.buffer:  # memory bound: cannot be valid
            self.buffer = b""
            self.wire.send(b"error: line too long\n")
            self.wire.close()

    def handle_buffered(self, limit: int) -> int:
        handled = 0
        while handled < limit and not self.waiting and b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            handled += 1
            self.handled += 1
            self._command(line.decode(errors="replace"))
        return handled

    def _command(self, line: str) -> None:
        verb, _, rest = line.partition(" ")
        if verb == "echo":
            self.wire.send(rest.encode() + b"\n")
        elif verb == "burst":
            for index in range(int(rest)):
                self.wire.send(f"{index}\n".encode())
        elif verb == "boom":
            raise DialogueBug("the dialogue has a bug")
        elif verb == "hash":  # slow work, off the loop, answered later; input waits for it
            self.waiting = True

            def done(result: str) -> None:
                self.waiting = False
                self.wire.send(f"{result}\n".encode())

            self.wire.offload(lambda: rest.upper(), done)  # type: ignore[attr-defined]
        elif verb == "bye":
            self.wire.send(b"bye\n")
            self.wire.close()

    def connection_lost(self) -> None:
        self.lost += 1


@dataclass
class EchoServer:
    """A listener of echo dialogues; remembers every connection and dialogue made."""

    server: asyncio.Server
    port: int
    metrics: ServerMetrics
    tracker: ConnectionTracker
    dialogues: list[EchoDialogue] = field(default_factory=list)

    @property
    def connections(self) -> list[TcpConnection]:
        return [dialogue.wire for dialogue in self.dialogues]  # type: ignore[misc]

    async def wait_for_dialogues(self, count: int) -> None:
        for _ in range(400):
            if len(self.dialogues) >= count:
                return
            await asyncio.sleep(0.005)
        raise AssertionError(f"expected {count} connections, got {len(self.dialogues)}")

    async def wait_lost(self, dialogue: EchoDialogue, timeout: float = 2.0) -> None:
        for _ in range(int(timeout / 0.005)):
            if dialogue.lost:
                return
            await asyncio.sleep(0.005)
        raise AssertionError("the connection did not end")

    async def close(self) -> None:
        await self.tracker.drain(1.0)
        self.server.close()
        await self.server.wait_closed()


async def start_echo_server(limits: ConnectionLimits | None = None, max_connections: int = 0) -> EchoServer:
    metrics = ServerMetrics()
    metrics.add_protocol("echo")
    tracker = ConnectionTracker(max_connections)
    dialogues: list[EchoDialogue] = []

    def make_dialogue(wire: Wire) -> EchoDialogue:
        dialogue = EchoDialogue(wire)
        dialogues.append(dialogue)
        return dialogue

    factory = connection_factory("echo", make_dialogue, limits or ConnectionLimits(), metrics, tracker)
    server = await start_tcp("echo", "127.0.0.1", 0, factory)
    return EchoServer(server, bound_port(server), metrics, tracker, dialogues)


IDLE_TIMEOUT_S = 120.0
"""The echo protocol's own idle timeout, in its spec."""

made: list[EchoDialogue] = []
"""Every dialogue the echo spec built, for tests that run the whole server."""


def _echo_dialogue(wire: Wire) -> EchoDialogue:
    dialogue = EchoDialogue(wire)
    made.append(dialogue)
    return dialogue


PROTOCOL: TcpProtocol[HallServices] = ProtocolSpec(
    name="echo",
    game="aah",
    default_port=0,
    services=HallServices.of,
    dialogues=lambda services: _echo_dialogue,
    idle_timeout_s=IDLE_TIMEOUT_S,
)
"""A protocol spec for tests that run the whole server with an echo listener."""

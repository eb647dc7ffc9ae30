"""A TCP connection runs its ``before_write`` hook (the hall's outbox flush: commit, then
deliver) before it writes to its socket, so a dialogue's own answer never leaves before the
commit of what the input it answers changed, and what the flush delivers goes out in the
same write, behind that answer (docs/architecture.md, "The turn of the loop")."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from server_echo import EchoDialogue

from gamehall.protocols._core import Wire
from gamehall.server.connection import connection_factory
from gamehall.server.limits import ConnectionLimits
from gamehall.server.listeners import bound_port, start_tcp
from gamehall.server.metrics import ServerMetrics
from gamehall.server.tracker import ConnectionTracker


async def test_the_hook_runs_before_the_write_and_its_deliveries_share_it() -> None:
    dialogues: list[EchoDialogue] = []
    flushes: list[int] = []

    def make_dialogue(wire: Wire) -> EchoDialogue:
        dialogue = EchoDialogue(wire)
        dialogues.append(dialogue)
        return dialogue

    def before_write(resume: Callable[[], None]) -> bool:  # stands in for Hall.write_barrier
        flushes.append(len(flushes))
        dialogues[0].wire.send(b"delivered\n")  # its flush delivers to the connection
        return True  # everything committed

    metrics = ServerMetrics()
    metrics.add_protocol("echo")
    tracker = ConnectionTracker(0)
    factory = connection_factory(
        "echo", make_dialogue, ConnectionLimits(), metrics, tracker, before_write=before_write
    )
    server = await start_tcp("echo", "127.0.0.1", 0, factory)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", bound_port(server))
        writer.write(b"echo answer\n")
        await writer.drain()
        lines = [await asyncio.wait_for(reader.readline(), 5.0) for _ in range(2)]
        assert lines == [b"answer\n", b"delivered\n"]
        assert flushes == [0]  # once: the delivery it made was written with the answer
        assert dialogues[0].wire.writes == 1  # type: ignore[attr-defined]
        writer.close()
    finally:
        await tracker.drain(1.0)
        server.close()
        await server.wait_closed()

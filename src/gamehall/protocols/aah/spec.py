"""The AAH protocol as the server hosts it (4-letter commands, ETX frames, note aah.md).

AAH connections share nothing but the hall: its services are the hall and the clock.
"""

from __future__ import annotations

from gamehall.protocols._spec import DialogueFactory, HallServices, ProtocolSpec, TcpProtocol
from gamehall.protocols.aah.dialogue import IDLE_TIMEOUT_S, MAX_FLUSH_BYTES, AahDialogue


def _dialogues(services: HallServices) -> DialogueFactory:
    return lambda wire: AahDialogue(services.hall, wire, services.clock)


PROTOCOL: TcpProtocol[HallServices] = ProtocolSpec(
    name="aah",
    game="aah",
    default_port=11235,
    services=HallServices.of,
    dialogues=_dialogues,
    idle_timeout_s=IDLE_TIMEOUT_S,
    max_flush_bytes=MAX_FLUSH_BYTES,
)

__all__ = ["PROTOCOL"]

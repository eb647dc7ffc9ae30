"""The JDuplicate protocol as the server hosts it (the word games, note jduplicate.md).

Its services (:class:`~.lobby.JdServices`) hold the JDuplicate hall (users and games) every
connection of that server shares. The protocol reads ``time_per_turn`` from ``[games.words]``
(the shortest time per turn a client may ask for).
"""

from __future__ import annotations

from gamehall.protocols._spec import DialogueFactory, ProtocolSpec, TcpProtocol
from gamehall.protocols.jduplicate.dialogue import IDLE_TIMEOUT_S, JdDialogue
from gamehall.protocols.jduplicate.lobby import JdServices


def _dialogues(services: JdServices) -> DialogueFactory:
    return lambda wire: JdDialogue(services, wire)


PROTOCOL: TcpProtocol[JdServices] = ProtocolSpec(
    name="jduplicate",
    game="words",
    default_port=4713,
    services=JdServices.of,
    dialogues=_dialogues,
    idle_timeout_s=IDLE_TIMEOUT_S,
    options=("time_per_turn",),
)

__all__ = ["PROTOCOL"]

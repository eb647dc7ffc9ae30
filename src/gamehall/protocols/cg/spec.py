"""The cg protocol as the server hosts it (Doppelkopf over peng3dnet framing, note §2-§5).

Its services (:class:`~.lobbies.CgServices`) hold the account store the server lends and the
lobby directory every cg connection of that server shares.
"""

from __future__ import annotations

from gamehall.protocols._spec import DialogueFactory, ProtocolSpec, TcpProtocol
from gamehall.protocols.cg.dialogue import IDLE_TIMEOUT_S, CgDialogue
from gamehall.protocols.cg.lobbies import CgServices


def _dialogues(services: CgServices) -> DialogueFactory:
    return lambda wire: CgDialogue(services, wire)


PROTOCOL: TcpProtocol[CgServices] = ProtocolSpec(
    name="cg",
    game="doppelkopf",
    default_port=11225,
    services=CgServices.of,
    dialogues=_dialogues,
    idle_timeout_s=IDLE_TIMEOUT_S,
)

__all__ = ["PROTOCOL"]

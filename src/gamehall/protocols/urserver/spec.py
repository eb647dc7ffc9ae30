"""The UrServer protocol as the server hosts it (Ursuppe, UrServer 1.13, note urserver-ursuppe.md).

Its services (:class:`~.lobby.UrServices`) hold the lobby of UrServer games every connection of
that server shares. Host options (``[games.ursuppe]``): ``urserver_charset`` (note 2) and
``max_games`` (note 11).
"""

from __future__ import annotations

from gamehall.protocols._spec import DialogueFactory, ProtocolSpec, TcpProtocol
from gamehall.protocols.urserver.dialogue import IDLE_TIMEOUT_S, UrDialogue
from gamehall.protocols.urserver.lobby import UrServices, output_charset


def _dialogues(services: UrServices) -> DialogueFactory:
    """Each connection writes in the charset the operator chose."""
    return lambda wire: UrDialogue(services, wire, encoding=output_charset(services.hall))


PROTOCOL: TcpProtocol[UrServices] = ProtocolSpec(
    name="urserver",
    game="ursuppe",
    default_port=4711,
    services=UrServices.of,
    dialogues=_dialogues,
    idle_timeout_s=IDLE_TIMEOUT_S,
    options=("urserver_charset", "max_games"),
)

__all__ = ["PROTOCOL"]

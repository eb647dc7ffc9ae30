"""The Mr. Jack protocol as the server hosts it (Prolog-style terms, note mrjack-newyork.md).

Its services (:class:`~.seating.MrJackServices`) hold the ``ison`` roster every Mr. Jack
connection of that server shares. Host options (``[games.mrjack]``): ``wire_style`` and
``max_games`` (note 11).
"""

from __future__ import annotations

from gamehall.protocols._spec import DialogueFactory, ProtocolSpec, TcpProtocol
from gamehall.protocols.mrjack.dialogue import IDLE_TIMEOUT_S, MrJackDialogue
from gamehall.protocols.mrjack.seating import MrJackServices


def _dialogues(services: MrJackServices) -> DialogueFactory:
    return lambda wire: MrJackDialogue(services, wire)


PROTOCOL: TcpProtocol[MrJackServices] = ProtocolSpec(
    name="mrjack",
    game="mrjack",
    default_port=4712,
    services=MrJackServices.of,
    dialogues=_dialogues,
    idle_timeout_s=IDLE_TIMEOUT_S,
    options=("wire_style", "max_games"),
)

__all__ = ["PROTOCOL"]

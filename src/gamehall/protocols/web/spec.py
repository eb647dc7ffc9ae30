"""The web protocol as the server hosts it: JSON over the WebSocket of the HTTP listener
(docs/web-protocol.md).

Browser connections share nothing but the hall (its lobby watchers live there), so the services
are the hall and the clock. A web connection is made by the WebSocket handler, not by a TCP
listener: its factory takes the three things that handler gives (send a text frame, close,
offload slow work) instead of a :class:`~gamehall.protocols._core.Wire`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gamehall.protocols._spec import HallServices, ProtocolSpec
from gamehall.protocols.web.dialogue import WebDialogue

Offload = Callable[[Callable[[], Any], Callable[[Any], None]], None]
WebConnect = Callable[[Callable[[str], None], Callable[[], None], Offload], WebDialogue]
"""One browser connection: ``(send_text, close, offload) -> dialogue``."""


def _dialogues(services: HallServices) -> WebConnect:
    def connect(send_text: Callable[[str], None], close: Callable[[], None], offload: Offload) -> WebDialogue:
        return WebDialogue(services.hall, send_text, close, services.clock, offload=offload)

    return connect


PROTOCOL: ProtocolSpec[HallServices, WebConnect] = ProtocolSpec(
    name="web",
    game=None,
    default_port=8080,
    services=HallServices.of,
    dialogues=_dialogues,
)

__all__ = ["PROTOCOL", "WebConnect"]

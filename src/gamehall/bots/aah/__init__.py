"""Apps Against Humanity bots: a policy, and a wire client that plays it like the 0.2.0 client.

- :mod:`.policy`: :class:`AahPolicy`, random-legal or heuristic, on the engine view or on cards.
- :mod:`.wire`: :class:`AahWireBot`, the legacy TCP client that doubles as the section-12
  *legacy client emulator* (``strict=True`` raises :class:`LegacyClientCrash`).
- :mod:`.swarm`: :func:`run_bots`, many wire bots at once.
"""

from gamehall.bots.aah.policy import STYLES, AahPolicy, Card
from gamehall.bots.aah.swarm import run_bots
from gamehall.bots.aah.wire import AahWireBot, ActionRecord, BotStats, LegacyClientCrash

__all__ = [
    "STYLES",
    "AahPolicy",
    "AahWireBot",
    "ActionRecord",
    "BotStats",
    "Card",
    "LegacyClientCrash",
    "run_bots",
]

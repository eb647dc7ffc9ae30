"""Doppelkopf bots: policies on a seat's view (in-hall bots), and a cg wire client.

- :mod:`.policy`: :class:`DoppelkopfPolicy`, ``random`` or ``heuristic``;
- :mod:`.wire`: :class:`CgWireBot`, a TCP client that registers, fills a lobby with ``dk_dumb``
  bots, plays one game over the cg protocol, and :func:`run_bots`.
"""

from gamehall.bots.doppelkopf.policy import STYLES, DoppelkopfPolicy

__all__ = ["STYLES", "DoppelkopfPolicy"]

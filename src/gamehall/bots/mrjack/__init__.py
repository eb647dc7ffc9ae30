"""Mr. Jack in New York bots: a policy for both roles, and a wire client speaking the terms.

- :mod:`.model`: what a bot can work out from a seat's view (board, legal actions, look-ahead);
- :mod:`.policy`: :class:`MrJackPolicy`, random-legal or heuristic, ``decide(view, seat, rng)``;
- :mod:`.wire`: :class:`MrJackWireBot`, a TCP client playing one game over the term protocol,
  and :func:`run_bots`, many of them at once.
"""

from gamehall.bots.mrjack.policy import STYLES, MrJackPolicy

__all__ = ["STYLES", "MrJackPolicy"]

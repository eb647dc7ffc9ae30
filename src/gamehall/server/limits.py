"""What one connection may cost the server: the limits and the bookkeeping they need.

The server enforces a few limits the same way for every protocol (ARCHITECTURE.md, "server"):

- a bounded outgoing buffer: a client that does not read is cut off when its unsent bytes pass
  ``out_queue_limit_bytes`` (1 MiB by default, aah.md 2.3), so it never slows the others;
- an idle timeout: no input for ``idle_timeout_s`` closes the connection (0 = off). Protocols
  with their own idle rule and wording (JDuplicate ``ERROR 99005``) enforce it in the dialogue
  first; the server's timeout is the backstop for every protocol;
- an input rate limit: a token bucket over *inputs*, where an input is one read from the socket
  (TCP) or one WebSocket message. The server does not decode frames, and a read is what costs
  it a dialogue call; several frames coalesced into one read are cheap. Per-message rules with
  a protocol wording (AAH chat "Chat rate limit reached.", JDuplicate "Excess flood") are the
  dialogue's business; this bucket only stops floods;
- TCP keepalive on accepted sockets (idle 20 s, interval 5 s, 3 probes) so dead peers are
  noticed without application pings (aah.md 2.5, cg-doppelkopf.md 2.5).
"""

from __future__ import annotations

import logging
import socket
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("gamehall.server")

MIB = 1 << 20


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """Per-connection limits; one instance per protocol listener."""

    out_queue_limit_bytes: int = MIB
    """Unsent bytes (ours plus the transport's) above which the peer counts as dropped."""
    idle_timeout_s: float = 300.0
    """Seconds without input before the connection is closed; 0 turns it off."""
    rate_per_s: float = 50.0
    """Sustained inputs per second; 0 turns the rate limit off."""
    rate_burst: float = 200.0
    """Inputs allowed in a burst above the sustained rate."""
    close_timeout_s: float = 5.0
    """How long a closing connection may take to flush before it is aborted."""
    keepalive_idle_s: int = 20
    keepalive_interval_s: int = 5
    keepalive_probes: int = 3


class TokenBucket:
    """``rate`` tokens per second, at most ``burst`` saved up; each input takes one.

    Time comes from the caller (the loop's monotonic clock), which keeps the bucket testable.
    """

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = max(1.0, burst)
        self._tokens = self.burst
        self._last = now

    def take(self, now: float, tokens: float = 1.0) -> bool:
        """Take ``tokens`` if there are enough; ``False`` means the limit is exceeded."""
        if self.rate <= 0:
            return True
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= tokens:
            self._tokens -= tokens
            return True
        return False


def enable_keepalive(sock: Any, limits: ConnectionLimits) -> bool:
    """Turn on TCP keepalive (and ``TCP_NODELAY``) on an accepted socket.

    The idle/interval/count options are set where the platform has them (Linux, macOS has
    ``TCP_KEEPALIVE`` for the idle time). Returns whether ``SO_KEEPALIVE`` was set; a failure
    is logged and otherwise ignored (a Unix socket in a test, say).
    """
    if sock is None:
        return False
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        idle_option = getattr(socket, "TCP_KEEPIDLE", getattr(socket, "TCP_KEEPALIVE", None))
        if idle_option is not None:
            sock.setsockopt(socket.IPPROTO_TCP, idle_option, limits.keepalive_idle_s)
        if hasattr(socket, "TCP_KEEPINTVL"):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, limits.keepalive_interval_s)
        if hasattr(socket, "TCP_KEEPCNT"):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, limits.keepalive_probes)
    except OSError as exc:
        log.debug("keepalive options not set: %s", exc)
        return False
    return True

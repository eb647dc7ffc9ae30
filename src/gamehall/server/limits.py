"""What one connection may cost the server: the limits and the bookkeeping they need.

The server enforces a few limits the same way for every protocol (ARCHITECTURE.md, "server"):

- a bounded outgoing buffer: a client that does not read is cut off when its unsent bytes pass
  ``out_queue_limit_bytes`` (1 MiB by default, aah.md 2.3), so it never slows the others;
- an idle timeout: no input for ``idle_timeout_s`` closes the connection (0 = off). Protocols
  with their own idle rule and wording (JDuplicate ``ERROR 99005``) enforce it in the dialogue
  first; the server's timeout is the backstop for every protocol;
- input budgets that *throttle*, never cut (issue 10): a token bucket over decoded inputs
  (messages and framing errors: the dialogue's work) and one over bytes. When a connection's
  budget is spent the server stops reading it (``transport.pause_reading``: TCP back-pressure
  slows the client) and resumes when the bucket refills; what was read stays buffered and is
  handled later, so a fast client loses nothing. Per-message rules with a protocol wording (AAH
  chat "Chat rate limit reached.") stay the dialogue's business;
- bounded work per loop turn: at most :data:`INPUTS_PER_TURN` inputs and
  :data:`FEED_PER_TURN` bytes of one connection per turn, then the loop serves the others;
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
    rate_per_s: float = 500.0
    """Sustained decoded inputs per second before reading pauses; 0 turns the budget off."""
    rate_burst: float = 1000.0
    """Inputs allowed in a burst above the sustained rate."""
    bytes_per_s: float = 256 * 1024
    """Sustained input bytes per second before reading pauses; 0 turns the budget off."""
    bytes_burst: float = MIB
    """Input bytes allowed in a burst (the largest legitimate frame fits: cg's 1 MiB)."""
    max_flush_bytes: int = 0
    """Bytes handed to the transport per write; 0 = no cap. The rest of the queue goes out on
    later loop turns, whole frames only (AAH: the 0.2.0 client loses a frame split across
    two reads, docs/transport.md)."""
    close_timeout_s: float = 5.0
    """How long a closing connection may take to flush before it is aborted."""
    keepalive_idle_s: int = 20
    keepalive_interval_s: int = 5
    keepalive_probes: int = 3


INPUTS_PER_TURN = 16
"""Inputs of one connection handled per loop turn before the others get the loop."""

FEED_CHUNK = 4096
"""Bytes handed to a dialogue's codec at a time: bounds what one decode call can skip."""

FEED_PER_TURN = 16 * 1024
"""Bytes of one connection fed to its codec per loop turn."""

LINGER_S = 2.0
"""After our last message a closing connection half-closes (FIN after the data) and keeps
reading and discarding for at most this long, so the peer reads our error before the socket
goes: closing with unread input would send an RST that can destroy the error in flight."""

LINGER_QUIET_S = 0.2
"""A lingering close ends early once our data is flushed and the peer sent nothing for this
long: then nothing unread remains to cause an RST (and a shutdown need not wait LINGER_S)."""


class TokenBucket:
    """``rate`` tokens per second, at most ``burst`` saved up.

    Time comes from the caller (the loop's monotonic clock), which keeps the bucket testable.
    :meth:`take` is all-or-nothing; :meth:`spend` may run into debt (bytes already read must
    be paid for) and :meth:`wait` says how long until a balance is back. Two per connection,
    hence ``__slots__``.
    """

    __slots__ = ("_last", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = max(1.0, burst)
        self._tokens = self.burst
        self._last = now

    def available(self, now: float) -> float:
        """Tokens now (infinite when the rate is 0: no limit).

        The refill happens here and nowhere else. It runs on every read of every connection,
        hence plain comparisons instead of ``min``/``max`` calls; a clock reading older than
        the last one adds nothing.
        """
        if self.rate <= 0:
            return float("inf")
        last = self._last
        if now > last:
            tokens = self._tokens + (now - last) * self.rate
            self._tokens = tokens if tokens < self.burst else self.burst
            self._last = now
        return self._tokens

    def take(self, now: float, tokens: float = 1.0) -> bool:
        """Take ``tokens`` if there are enough; ``False`` means the limit is exceeded."""
        if self.available(now) >= tokens:
            self._tokens -= tokens if self.rate > 0 else 0
            return True
        return False

    def spend(self, now: float, tokens: float) -> float:
        """Take ``tokens`` even if that leaves a debt; returns the balance left (negative: a
        debt; infinite when the rate is 0)."""
        if self.rate <= 0:
            return float("inf")
        self._tokens = self.available(now) - tokens
        return self._tokens

    def wait(self, now: float, balance: float = 1.0) -> float:
        """Seconds until at least ``balance`` tokens are available (0 if they are now)."""
        missing = balance - self.available(now)
        return 0.0 if missing <= 0 else missing / self.rate


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

"""Wire pacing of the table packets of one cg connection (note §4.4, §5.1, §5.2, §8).

The engine changes state at once; the reference *shows* it at a human pace, and its client
needs time to create the card sprites. So each connection's table packets pass through a
:class:`Pacer`, a FIFO of packets, pauses, a wait and deferred calls:

* after a round's creation transfers, the packets wait for this client's ``game.start{}``
  ("I have created all cards"), at most ``loading_timeout_s``;
* the 16 dealing bursts go out ``deal_interval_s`` apart;
* a full trick stays on the table ``trick_close_delay_s`` before its table->tricks transfers.

**Decision (ours):** pacing is per connection and never touches the engine: the room log and
replays do not know about it, a bot's actions are not held back, and a slow client only delays
what it sees. Each human waits for its own ``game.start{}``; the engine's timers keep running
meanwhile (the defaults, 10 s + 15 s of dealing, stay well inside the 60 s turn time).
The values are room settings (``deal_interval_s``, ``trick_close_delay_s``,
``loading_timeout_s``; 1.0, 1.0, 10 by default, 0 in tests) so operators set them like any
other game default.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gamehall.protocols._core import Cancellable, Clock
from gamehall.protocols.cg.codec import Packet


@dataclass(frozen=True, slots=True)
class Pacing:
    deal_interval_s: float = 1.0
    trick_close_delay_s: float = 1.0
    loading_timeout_s: float = 10.0

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Pacing:
        """The pacing a room's settings ask for (the defaults where one is missing)."""
        base = cls()

        def value(key: str, default: float) -> float:
            given = config.get(key, default)
            return float(given) if isinstance(given, (int, float)) else default

        return cls(
            value("deal_interval_s", base.deal_interval_s),
            value("trick_close_delay_s", base.trick_close_delay_s),
            value("loading_timeout_s", base.loading_timeout_s),
        )


@dataclass(frozen=True, slots=True)
class Pause:
    seconds: float


@dataclass(frozen=True, slots=True)
class WaitForStart:
    """Hold until the client says ``game.start{}`` (or ``timeout_s`` passes)."""

    timeout_s: float


Item = Packet | Pause | WaitForStart | Callable[[], None]


class Pacer:
    """One connection's paced FIFO (see the module docstring)."""

    def __init__(self, clock: Clock, send: Callable[[Packet], None]) -> None:
        self._clock = clock
        self._send = send
        self._queue: deque[Item] = deque()
        self._timer: Cancellable | None = None
        self._waiting_start = False
        self._flushing = False

    @property
    def idle(self) -> bool:
        return not self._queue and self._timer is None

    def push(self, *items: Item) -> None:
        self._queue.extend(items)
        self._flush()

    def start_received(self) -> None:
        """The client's ``game.start{}``: ends a wait for it (ignored at any other time)."""
        if self._waiting_start:
            self._resume()

    def drain(self) -> None:
        """Run everything queued now, without pauses (the connection is going away)."""
        self._cancel_timer()
        self._waiting_start = False
        while self._queue:
            item = self._queue.popleft()
            if isinstance(item, Packet):
                self._send(item)
            elif not isinstance(item, (Pause, WaitForStart)):
                item()

    def hurry(self) -> None:
        """Drop every pause and wait still queued and send the rest now, in order: the game is
        over (a vote passed, a forfeit), so nothing it holds back is worth waiting for.
        **Decision (ours):** without this, a ``cancel`` passed during the deal reached the
        clients only after the remaining dealing bursts (about 15 s)."""
        self._cancel_timer()
        self._waiting_start = False
        self._queue = deque(item for item in self._queue if not isinstance(item, (Pause, WaitForStart)))
        self._flush()

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _resume(self) -> None:
        self._cancel_timer()
        self._waiting_start = False
        self._flush()

    def _flush(self) -> None:
        if self._flushing:  # a deferred call pushed more: the running loop takes it
            return
        self._flushing = True
        try:
            while self._queue and self._timer is None:
                item = self._queue.popleft()
                if isinstance(item, Packet):
                    self._send(item)
                elif isinstance(item, Pause):
                    if item.seconds > 0:
                        self._timer = self._clock.call_later(item.seconds, self._resume)
                elif isinstance(item, WaitForStart):
                    if item.timeout_s <= 0:
                        continue  # 0: do not wait
                    self._waiting_start = True
                    self._timer = self._clock.call_later(item.timeout_s, self._resume)
                else:
                    item()
        finally:
            self._flushing = False


def paced(packets: list[Packet], pacing: Pacing, *, trick_taken: bool) -> list[Item]:
    """``packets`` of one event with their pauses: a wait for ``game.start{}`` before the
    ``dealing`` phase, a pause between dealing bursts, and the trick-close pause before a
    trick's table->tricks transfers (``trick_taken``)."""
    items: list[Item] = []
    last_deal_slot: str | None = None
    if trick_taken and packets:
        items.append(Pause(pacing.trick_close_delay_s))
    for packet in packets:
        body = packet.body
        if packet.name == "cg:game.dk.round.change" and body.get("phase") == "dealing":
            items.append(WaitForStart(pacing.loading_timeout_s))
        elif packet.name == "cg:game.dk.card.transfer" and body.get("from_slot") == "stack":
            slot = str(body.get("to_slot"))
            if last_deal_slot is not None and slot != last_deal_slot:
                items.append(Pause(pacing.deal_interval_s))
            last_deal_slot = slot
        items.append(packet)
    return items

"""The server's policy for Python's cyclic garbage collector, and its pause probe.

Why: a full collection walks every tracked object and stops the event loop meanwhile. With
1,000 AAH tables the heap holds millions of long-lived objects (rooms, seats, connections,
each room's delivery history for resume), and CPython's default policy collected them all
every 15-30 s: pauses of 1-3 s in which no table moved (docs/BENCHMARKS.md). Long-lived
objects need no walking: what keeps them alive is the hall itself.

Decision (ours), the policy:

1. after start-up (modules, decks, lexicons, restored rooms) everything is frozen
   (``gc.freeze()``: moved to the permanent generation, which collections skip);
2. every ``gc_freeze_s`` seconds (default 1) a *settle*: a collection of the two young
   generations (cyclic garbage made since the last settle is freed while young; the walk covers
   only what the young generations hold, milliseconds), then the survivors are frozen too;
3. the allocation-triggered *full* collections are switched off while the policy runs (the
   oldest generation's threshold raised; restored at stop): between settles they could only walk
   the survivors promoted since the last settle, and at 1,000 tables those were enough for
   80 ms pauses about once a second (docs/BENCHMARKS.md §15). A cycle that dies after it was
   promoted waits for the reclaim;
4. every ``gc_reclaim_s`` seconds (default 900; 0 = never) a *reclaim*: ``gc.unfreeze()`` and a
   full collection of everything, for the cyclic garbage whose objects were frozen or promoted
   while still alive (a closed room's or connection's reference cycles). This one pause is as
   long as a full collection used to be; it happens every 15 minutes instead of every
   second, and its length and what it freed are exposed, so an operator can see whether it is
   needed at all (0 unreachable objects: turn it off) or should run more often (memory).

Objects that die without a cycle are freed by reference counting whether frozen or not.

The probe (``gc.callbacks``) records each collection's pause: the longest since start and per
generation in ``/metrics`` (``gamehall_gc_pause_seconds_max``), and the settles' and reclaims'
work in counters, so a pause budget is checked in production, not only in the bench.

The frozen objects are counted at start and after each reclaim, never by a ``/metrics``
scrape: ``gc.get_freeze_count()`` walks the whole permanent generation (a linked list of every
frozen object) with the loop stopped, and at 3,000 AAH tables one scrape stalled every table
for hundreds of milliseconds (docs/BENCHMARKS.md §20). At start and at a reclaim the heap is
walked anyway (the reclaim's full collection takes several times longer than the count).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from typing import Any

from gamehall.server.metrics import Gauge, MetricsRegistry

log = logging.getLogger(__name__)

DEFAULT_FREEZE_S = 1.0
NO_FULL_COLLECTIONS = 1_000_000
"""The oldest generation's threshold while the policy runs: young collections never escalate."""
DEFAULT_RECLAIM_S = 900.0


class CollectorProbe:
    """Times every collection through ``gc.callbacks`` (installed by :meth:`install`)."""

    def __init__(self) -> None:
        self.longest_s = [0.0, 0.0, 0.0]
        """Longest pause per generation since start, in seconds."""
        self.collections = [0, 0, 0]
        self.unreachable = [0, 0, 0]
        """Objects found unreachable (garbage freed through the collector) per generation."""
        self._started = 0.0

    def install(self) -> None:
        if self._callback not in gc.callbacks:
            gc.callbacks.append(self._callback)

    def remove(self) -> None:
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._started = now
            return
        generation = int(info.get("generation", 2))
        pause = now - self._started
        self.collections[generation] += 1
        self.unreachable[generation] += int(info.get("collected", 0)) + int(info.get("uncollectable", 0))
        if pause > self.longest_s[generation]:
            self.longest_s[generation] = pause


class Collector:
    """Runs the policy of the module docstring on the server's loop."""

    def __init__(self, freeze_s: float = DEFAULT_FREEZE_S, reclaim_s: float = DEFAULT_RECLAIM_S) -> None:
        self.freeze_s = freeze_s
        self.reclaim_s = reclaim_s
        self.probe = CollectorProbe()
        self.settles = 0
        self.reclaims = 0
        self.last_reclaim_s = 0.0
        self.last_reclaim_freed = 0
        self.frozen_objects = 0
        """Objects in the permanent generation when last counted (at start, after a reclaim)."""
        self._settle_handle: asyncio.TimerHandle | None = None
        self._reclaim_handle: asyncio.TimerHandle | None = None
        self._thresholds: tuple[int, int, int] | None = None

    def start(self) -> None:
        """Freeze what start-up built and schedule the settles and reclaims (on the running
        loop). Safe to call once per server start."""
        self.probe.install()
        gc.collect()
        gc.freeze()
        self.frozen_objects = gc.get_freeze_count()
        loop = asyncio.get_running_loop()
        if self.freeze_s > 0 and self._thresholds is None:
            young, middle, _oldest = self._thresholds = gc.get_threshold()
            gc.set_threshold(young, middle, NO_FULL_COLLECTIONS)
        if self.freeze_s > 0:
            self._settle_handle = loop.call_later(self.freeze_s, self._settle)
        if self.reclaim_s > 0:
            self._reclaim_handle = loop.call_later(self.reclaim_s, self._reclaim)

    def stop(self) -> None:
        for handle in (self._settle_handle, self._reclaim_handle):
            if handle is not None:
                handle.cancel()
        self._settle_handle = self._reclaim_handle = None
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None
        self.probe.remove()

    def _settle(self) -> None:
        gc.collect(1)  # the young generations only: what was made since the last settle
        gc.freeze()
        self.settles += 1
        self._settle_handle = asyncio.get_running_loop().call_later(self.freeze_s, self._settle)

    def _reclaim(self) -> None:
        began = time.perf_counter()
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        self.frozen_objects = gc.get_freeze_count()  # part of the reclaim's pause: a walk of its own
        self.last_reclaim_s = time.perf_counter() - began
        self.last_reclaim_freed = freed
        self.reclaims += 1
        log.info("collector reclaim: %d unreachable objects, %.0f ms", freed, self.last_reclaim_s * 1000)
        self._reclaim_handle = asyncio.get_running_loop().call_later(self.reclaim_s, self._reclaim)

    def register(self, registry: MetricsRegistry) -> None:
        """Expose the probe and the policy's work in ``/metrics``."""
        probe = self.probe
        generations = range(3)
        registry.add(
            Gauge(
                "gamehall_gc_pause_seconds_max",
                "Longest garbage-collection pause since start (the event loop stops meanwhile).",
                ("generation",),
                lambda: {(str(g),): probe.longest_s[g] for g in generations},
            )
        )
        registry.add(
            Gauge(
                "gamehall_gc_collections",
                "Garbage collections since start.",
                ("generation",),
                lambda: {(str(g),): float(probe.collections[g]) for g in generations},
            )
        )
        registry.add(
            Gauge(
                "gamehall_gc_unreachable_objects",
                "Objects the collector found unreachable since start (freed cyclic garbage).",
                ("generation",),
                lambda: {(str(g),): float(probe.unreachable[g]) for g in generations},
            )
        )
        registry.add(
            Gauge(
                "gamehall_gc_frozen_objects",
                "Objects in the permanent generation (long-lived, skipped by collections) when "
                "last counted: at start and after each reclaim.",
                (),
                lambda: {(): float(self.frozen_objects)},
            )
        )
        registry.add(
            Gauge(
                "gamehall_gc_last_reclaim_seconds",
                "How long the last reclaim (unfreeze and collect everything) paused the server.",
                (),
                lambda: {(): self.last_reclaim_s},
            )
        )
        registry.add(
            Gauge(
                "gamehall_gc_last_reclaim_freed_objects",
                "Unreachable objects the last reclaim found (0 every time: reclaims are unneeded).",
                (),
                lambda: {(): float(self.last_reclaim_freed)},
            )
        )

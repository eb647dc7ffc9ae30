"""The collector policy (gamehall.server.collector): survivors are frozen out of full
collections, cyclic garbage is still freed (by the settle while young, by the reclaim once
frozen), and every pause is measured and shown in /metrics."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from gamehall.server.collector import Collector
from gamehall.server.metrics import ServerMetrics


class Node:
    """A reference cycle: only the cyclic collector can free it."""

    def __init__(self) -> None:
        self.me = self


def test_a_settle_frees_young_cyclic_garbage_and_freezes_the_survivors() -> None:
    async def run() -> tuple[bool, bool, int, int]:
        collector = Collector(freeze_s=0.02, reclaim_s=0)
        collector.start()
        try:
            frozen_at_start = gc.get_freeze_count()
            garbage = Node()
            dead = weakref.ref(garbage)
            del garbage
            survivor = [Node() for _ in range(50)]
            await asyncio.sleep(0.1)
            return dead() is None, len(survivor) == 50, frozen_at_start, gc.get_freeze_count()
        finally:
            collector.stop()

    freed, kept, before, after = asyncio.run(run())
    assert freed and kept
    assert after > before  # the survivors (at least the 50 nodes) were frozen
    gc.unfreeze()


def test_a_reclaim_frees_cycles_that_died_after_they_were_frozen() -> None:
    async def run() -> tuple[bool, int]:
        collector = Collector(freeze_s=0, reclaim_s=0.05)
        node = Node()
        dead = weakref.ref(node)
        collector.start()  # freezes the node while it is alive
        try:
            del node
            gc.collect()
            still_there = dead() is not None  # frozen: a full collection skips it
            await asyncio.sleep(0.15)
            return still_there and dead() is None, collector.reclaims
        finally:
            collector.stop()

    freed_by_reclaim, reclaims = asyncio.run(run())
    assert freed_by_reclaim
    assert reclaims >= 1
    gc.unfreeze()


def test_pauses_are_measured_and_exposed_in_metrics() -> None:
    metrics = ServerMetrics()
    collector = Collector(freeze_s=0, reclaim_s=0)
    collector.register(metrics.registry)
    collector.probe.install()
    try:
        gc.collect()
    finally:
        collector.probe.remove()
    assert collector.probe.collections[2] >= 1
    assert collector.probe.longest_s[2] > 0
    text = metrics.render()
    assert 'gamehall_gc_pause_seconds_max{generation="2"}' in text
    assert "gamehall_gc_frozen_objects" in text
    assert "gamehall_gc_last_reclaim_freed_objects 0" in text


def test_a_scrape_does_not_walk_the_frozen_objects(monkeypatch: pytest.MonkeyPatch) -> None:
    """``gc.get_freeze_count()`` walks every frozen object with the loop stopped (hundreds of
    milliseconds at 3,000 tables), so ``/metrics`` shows the count taken at start and after
    each reclaim instead of counting per scrape."""
    counts: list[int] = []

    def counting() -> int:
        counts.append(1)
        return 1000 + len(counts)

    monkeypatch.setattr(gc, "get_freeze_count", counting)
    metrics = ServerMetrics()

    async def run() -> tuple[str, str, int]:
        collector = Collector(freeze_s=0, reclaim_s=0.05)
        collector.register(metrics.registry)
        collector.start()
        try:
            at_start = metrics.render() + metrics.render()
            calls = len(counts)
            await asyncio.sleep(0.12)
            return at_start, metrics.render(), calls
        finally:
            collector.stop()

    at_start, after_reclaims, calls_at_start = asyncio.run(run())
    gc.unfreeze()
    assert calls_at_start == 1  # start counted once; two scrapes counted nothing
    assert "gamehall_gc_frozen_objects 1001" in at_start
    assert len(counts) >= 2  # each reclaim counts again
    assert f"gamehall_gc_frozen_objects {1000 + len(counts)}" in after_reclaims

"""Counting the renderings of room events, for the "encode once" tests of every protocol.

:func:`count_calls` wraps a rendering function where a dialogue module looks it up, so a test
can say how often it ran; :func:`per_listener` turns the shared render cache off (the old
path: every listener renders for itself), so a test can compare the bytes both ways.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import gamehall.hall.room as room_module


def count_calls(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[tuple[Any, ...]]:
    """Replace ``module.name`` by a wrapper that records each call's arguments; returns the
    record (one tuple of positional arguments per call)."""
    calls: list[tuple[Any, ...]] = []
    real: Callable[..., Any] = getattr(module, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls


def per_listener(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every listener renders every event itself (what the server did before encode once)."""
    monkeypatch.setattr(room_module, "ENCODE_ONCE", False)

"""Helpers of the contest hall-side tests: orders with short deadlines, and a server."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from gamehall.config import ServerConfig
from gamehall.contest.ports import Deadlines, GameOrder
from gamehall.rules._core import JSON

FAST = Deadlines(soft_s=5.0, hard_s=5.0, connect_s=5.0, soft_strikes=3, max_errors=3)
"""Deadlines no scripted bot of these tests comes near (they answer at machine speed)."""


def order(
    game: str,
    protocol: str,
    seats: tuple[str, ...],
    *,
    deadlines: Deadlines = FAST,
    config: Mapping[str, JSON] | None = None,
    number: int = 1,
    seed: int = 7,
) -> GameOrder:
    return GameOrder(
        contest_id="cup",
        number=number,
        game=game,
        protocol=protocol,
        seed=seed,
        seats=seats,
        entrants={login: login.rstrip("0123456789") for login in seats},
        config=dict(config or {}),
        deadlines=deadlines,
    )


def server_config(tmp_path: Path, defaults: Mapping[str, Mapping[str, JSON]] | None = None) -> ServerConfig:
    """A server whose rate limit lets scripted clients answer at machine speed."""
    return ServerConfig(
        db=str(tmp_path / "hall.db"),
        room_defaults={k: dict(v) for k, v in (defaults or {}).items()},
        rate_limit_per_s=10_000,
        rate_limit_burst=10_000,
    )

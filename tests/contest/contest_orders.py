"""Helpers of the contest hall-side tests: orders with short deadlines, and a server."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import Any

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


class LineClient:
    """A scripted entrant of a line protocol: sends its lines, then reads (and ignores)
    everything until the server closes the connection. ``repeat`` is sent again every
    ``every`` seconds until then (an entrant that keeps sending illegal moves)."""

    def __init__(self, port: int, lines: list[str], *, repeat: str | None = None, every: float = 0.1) -> None:
        self.port = port
        self.lines = lines
        self.repeat = repeat
        self.every = every
        self.received = b""

    async def run(self) -> bytes:
        import asyncio

        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        writer.write("".join(line + "\n" for line in self.lines).encode())

        async def nag() -> None:
            while self.repeat is not None:
                await asyncio.sleep(self.every)
                writer.write((self.repeat + "\n").encode())

        nagging = asyncio.create_task(nag())
        try:
            while chunk := await reader.read(65536):
                self.received += chunk
        except ConnectionError:
            pass
        finally:
            nagging.cancel()
            writer.close()
        return self.received


async def stop(tasks: list[asyncio.Task[Any]]) -> None:
    """End scripted clients still connected after their game (their server keeps a finished
    player's connection open in its lobby)."""
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

"""The runner's progress on the terminal: games played of total, the leader, failures.

On a terminal one line is redrawn in place (carriage return and "erase line", plain ANSI);
anywhere else (a pipe, a CI log) a line is printed per finished game, so nothing is lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO

BAR_WIDTH = 20


@dataclass(frozen=True, slots=True)
class Progress:
    """One moment of the contest."""

    played: int
    total: int
    leader: str | None
    leader_points: float
    failures: int
    last: str = ""  # the game that just ended, in words

    def line(self) -> str:
        filled = BAR_WIDTH * self.played // self.total if self.total else BAR_WIDTH
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        leader = f"{self.leader} {self.leader_points:g}" if self.leader else "-"
        return f"[{bar}] {self.played}/{self.total} games  leader {leader}  failures {self.failures}"


class ProgressLine:
    """Writes :class:`Progress` to ``out``: redrawn on a TTY, a line per game otherwise."""

    def __init__(self, out: TextIO, *, tty: bool | None = None) -> None:
        self.out = out
        self.tty = out.isatty() if tty is None else tty
        self._drawn = False

    def show(self, progress: Progress) -> None:
        if self.tty:
            self.out.write("\r\x1b[2K" + progress.line())
            self._drawn = True
        else:
            detail = f"  ({progress.last})" if progress.last else ""
            self.out.write(progress.line() + detail + "\n")
        self.out.flush()

    def finish(self) -> None:
        """End the redrawn line, so what is printed next starts on a line of its own."""
        if self.tty and self._drawn:
            self.out.write("\n")
            self.out.flush()
            self._drawn = False

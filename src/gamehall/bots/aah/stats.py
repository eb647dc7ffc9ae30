"""What an AAH wire bot counts: its frames, rounds and games, and the latency of each action
(sent, and confirmed by its first own-visible consequence; see :mod:`.wire`)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class ActionRecord:
    """One action frame the bot sent and when its own-visible consequence arrived."""

    command: str
    card_id: int
    sent_at: float
    confirmed_at: float | None = None
    confirmed_by: str | None = None

    @property
    def latency(self) -> float | None:
        """Seconds from sending to confirmation, once confirmed."""
        return None if self.confirmed_at is None else self.confirmed_at - self.sent_at


@dataclass(slots=True)
class BotStats:
    """Counters of one bot (kept across the games of :func:`run_bots`)."""

    name: str
    frames_sent: int = 0
    frames_received: int = 0
    actions_sent: int = 0
    unrg: int = 0
    rounds: int = 0
    games_started: int = 0
    games_finished: int = 0
    games_won: int = 0
    protocol_errors: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    actions: list[ActionRecord] = field(default_factory=list)

    def latencies(self, command: str | None = None) -> list[float]:
        """Confirmed latencies in seconds, optionally of one command (``PICK``/``CZPK``)."""
        return [
            record.latency
            for record in self.actions
            if record.latency is not None and (command is None or record.command == command)
        ]

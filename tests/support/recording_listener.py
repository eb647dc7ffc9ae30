"""A Listener that records what the hall tells one connection (for hall and dialogue tests)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gamehall.protocols._core import CloseReason, Delivery
from gamehall.rules._core import Event


@dataclass
class RecordingListener:
    deliveries: list[tuple[str, Delivery]] = field(default_factory=list)
    hall_events: list[Event] = field(default_factory=list)
    ended_calls: list[tuple[str, CloseReason, str]] = field(default_factory=list)
    disconnects: list[tuple[CloseReason, str]] = field(default_factory=list)

    def deliver(self, room_id: str, delivery: Delivery) -> None:
        self.deliveries.append((room_id, delivery))

    def hall_event(self, event: Event) -> None:
        self.hall_events.append(event)

    def ended(self, room_id: str, reason: CloseReason, text: str) -> None:
        self.ended_calls.append((room_id, reason, text))

    def disconnect(self, reason: CloseReason, text: str) -> None:
        self.disconnects.append((reason, text))

    def events(self, kind: type[Any] | None = None) -> list[Any]:
        return [d.event for _, d in self.deliveries if kind is None or isinstance(d.event, kind)]

    def seqs(self) -> list[int]:
        return [d.seq for _, d in self.deliveries]


@dataclass
class InvitableListener(RecordingListener):
    """A connection whose protocol carries invitations (``Invitable``, as the browser's and
    cg's do): it records them."""

    free: bool = True
    """Whether it can show an invitation now (``False``: busy in another lobby or game)."""
    invitations: list[tuple[str, str]] = field(default_factory=list)
    """(room id, inviter) of each invitation shown."""

    def invited(self, room_id: str, inviter: str) -> bool:
        if self.free:
            self.invitations.append((room_id, inviter))
        return self.free

"""An in-process stand-in for the shared room directory (gamehall.hall.shared_rooms): a test
puts other nodes' rooms in :attr:`FakeSharedRooms.remote` by hand and reads what the hall
published. The Redis one is tested in tests/cluster/."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from gamehall.hall.shared_rooms import Change, RemoteRooms
from gamehall.protocols._core import RoomInfo
from gamehall.rules._core import JSON


@dataclass
class FakeSharedRooms:
    node_id: str = "here"
    remote: RemoteRooms = field(default_factory=RemoteRooms)
    published: list[list[Change]] = field(default_factory=list)

    def publish(self, changes: Sequence[Change]) -> None:
        self.published.append(list(changes))


def elsewhere(
    room_id: str,
    game: str,
    *,
    seats: Mapping[int, str] | None = None,
    config: Mapping[str, JSON] | None = None,
    max_seats: int = 2,
    created_seq: int = 1,
    started: bool = False,
    title: str = "far away",
    extra: Mapping[str, JSON] | None = None,
) -> RoomInfo:
    """The lobby view of a room another node owns."""
    return RoomInfo(
        room_id=room_id,
        game=game,
        title=title,
        config=dict(config or {}),
        seats=dict(seats or {}),
        away=frozenset(),
        spectators=(),
        has_password=False,
        operator=None,
        started=started,
        finished=False,
        max_seats=max_seats,
        created_seq=created_seq,
        extra=dict(extra or {}),
    )

"""Room ownership: what the hall asks of a node that shares the store with other nodes.

On one node (the default) every room is this process's and nothing here is used. When several
nodes share one store (docs/scale-out.md), each room has one owner at a time, the node holding
its *lease*, and only the owner may write the room's log. The hall tells its
:class:`Ownership` when a room starts living here (:meth:`~Ownership.claim`: created or
restored) and when it stops (:meth:`~Ownership.release`: after its last writes are committed);
the outbox asks it, before every commit, which writes this node may still make
(:meth:`~Ownership.admit`). A room whose lease is lost is closed here without a result: its
log stays as the owner left it, for the node that owns it now.

The implementation on Redis is :class:`gamehall.cluster.leases.RoomLeases`; the hall knows
only this protocol, so it never imports a network client.
"""

from __future__ import annotations

from collections.abc import Awaitable, Sequence
from typing import NamedTuple, Protocol

from gamehall.store.base import Write


class Admitted(NamedTuple):
    """The answer of :meth:`Ownership.admit`."""

    writes: list[Write]
    """The writes this node may commit, in their order, each carrying its room's fencing
    number where the store's writes have a field for it."""
    refused: frozenset[str]
    """The rooms this node may not write any more (lease lost, expired or never taken)."""


class Ownership(Protocol):
    """Which rooms this node owns. See the module docstring."""

    def claim(self, room_id: str) -> None:
        """Start taking the lease of a room created or restored here. Returns at once; the
        first commit of the room's writes waits for the answer (:meth:`admit`)."""
        ...

    def release(self, room_id: str) -> None:
        """Give up the lease of a closed room whose last writes are committed."""
        ...

    def admit(self, writes: Sequence[Write]) -> Admitted | Awaitable[Admitted]:
        """Split a batch, right before its commit, into what this node may write and the rooms
        it may not. Checked locally against each lease's validity deadline and answered at
        once, so a node that was paused past its lease never commits after it wakes up; an
        awaitable answer only while a claim of one of the batch's rooms is under way."""
        ...

"""The live lobby: room created / changed / closed, pushed to every watching connection, and
the same moments logged at INFO for the host.

Rooms tell the feed when something happened (:meth:`LobbyFeed.touched`, on every published
event but chat); the feed collects the rooms touched during one loop turn and pushes at the end
of the hall outbox's flush, once the turn's writes are committed and its deliveries made
(:attr:`~gamehall.hall.outbox.Outbox.on_settled`). It reads the rooms' live state, so it must not
run earlier: a push made before the commit could show a seat change the store does not hold
(and a crash would then take back). It compares each room's lobby-visible facts with what it
last sent; only a real change (seats, away flags, spectators, status, title) reaches the
watchers, so a game's hundreds of moves cost one cheap comparison per loop turn, not a message
each.

Why a push: a polled lobby shows a new room seconds late and costs every browser a request
every few seconds whether anything changed or not.

On a node of several (:mod:`gamehall.hall.shared_rooms`) the same flush hands the turn's
changes of this node's rooms to :attr:`LobbyFeed.publish` (one call per turn, so one round trip
for the whole turn), and the other nodes' rooms reach the watchers through
:meth:`LobbyFeed.remote_changed`, pushed at the next flush like a local change.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from gamehall.protocols._core import LobbyWatcher, RoomInfo
from gamehall.rules._core import JSON

if TYPE_CHECKING:
    from gamehall.hall.room import Room
    from gamehall.hall.shared_rooms import Change

log = logging.getLogger("gamehall.hall")

_Signature = tuple[object, ...]


def _signature(info: RoomInfo) -> _Signature:
    """What the lobby shows of a room, for change detection."""
    return (
        info.title,
        tuple(sorted(info.seats.items())),
        tuple(sorted(info.away)),
        info.spectators,
        info.started,
        info.finished,
        info.operator,
        info.max_seats,
    )


class LobbyFeed:
    """Pushes room changes to lobby watchers and logs room lifecycles (module docstring)."""

    def __init__(self, poke: Callable[[], None]) -> None:
        """``poke`` asks the hall's outbox for a flush at the end of this turn (the outbox
        calls :meth:`flush` when that flush has committed and delivered everything)."""
        self._poke = poke
        self._watchers: dict[int, LobbyWatcher] = {}
        self._ids = itertools.count(1)
        self._dirty: dict[str, Room] = {}
        self._pending: list[tuple[str, Room | RoomInfo]] = []  # created (live) / closed (last state)
        self._sent: dict[str, _Signature] = {}
        self._started: set[str] = set()
        self._due = False  # something to look at in the next flush
        self._remote: list[tuple[str, RoomInfo]] = []  # other nodes' room changes, not yet told
        self.publish: Callable[[Sequence[Change]], None] | None = None
        """On a node of several: takes each flush's changes of this node's rooms (their lobby
        view, ``None`` for a closed room), for the other nodes' lobbies. Set by the hall."""
        self.preparing: dict[str, JSON] | None = None
        """What the server is preparing right now (a dictionary on the first start), if anything."""

    # ---------------------------------------------------------------- watchers

    def watch(self, watcher: LobbyWatcher) -> Callable[[], None]:
        """Start pushing to ``watcher``; returns the function that stops it (idempotent)."""
        key = next(self._ids)
        self._watchers[key] = watcher
        if self.preparing is not None:
            watcher.preparing_changed(self.preparing)

        def unwatch() -> None:
            self._watchers.pop(key, None)

        return unwatch

    @property
    def watcher_count(self) -> int:
        return len(self._watchers)

    # ---------------------------------------------------------------- what rooms report

    def added(self, room: Room, *, restored: bool = False) -> None:
        """A room entered the directory (created, or rebuilt after a restart)."""
        info = room.info()
        self._sent[room.room_id] = _signature(info)
        if info.started:
            self._started.add(room.room_id)
        if restored:
            log.info(
                "room %s (%s) resumed after a restart: %s, seats %s",
                room.room_id,
                info.game,
                "playing" if info.started else "waiting",
                ", ".join(info.seats.values()) or "none",
            )
        else:
            log.info("room %s (%s) created by %s: %r", room.room_id, info.game, info.operator, info.title)
        self._pending.append(("created", room))
        self._schedule()

    def touched(self, room: Room) -> None:
        """Something happened in ``room`` that may show in the lobby; checked on the next turn."""
        if room.closed:
            return
        self._dirty[room.room_id] = room
        self._schedule()

    def _schedule(self) -> None:
        if not self._due:
            self._due = True
            self._poke()

    def removed(self, room: Room) -> None:
        """A room left the directory (finished, aborted, closed by an operator, shut down)."""
        self._dirty.pop(room.room_id, None)
        self._sent.pop(room.room_id, None)
        was_started = room.room_id in self._started
        self._started.discard(room.room_id)
        info = room.info()
        outcome = room.state.outcome() if room.state.finished else None
        if outcome is not None:
            log.info(
                "room %s (%s) finished: %s, scores %s",
                room.room_id,
                info.game,
                outcome.termination.value,
                {outcome.names.get(seat, str(seat)): score for seat, score in outcome.scores.items()},
            )
        else:
            log.info(
                "room %s (%s) closed %s",
                room.room_id,
                info.game,
                "during play" if was_started else "before play",
            )
        self._pending.append(("closed", info))
        self._schedule()

    def remote_changed(self, change: str, info: RoomInfo) -> None:
        """A room another node owns was ``"created"``, ``"changed"`` or ``"closed"``: the
        watchers hear it at the next flush (never from inside a hall call)."""
        self._remote.append((change, info))
        self._schedule()

    def set_preparing(self, state: dict[str, JSON] | None) -> None:
        """The server started (a dict: ``what``, ``text``, ``progress``, ``games``) or finished
        (``None``) preparing something people may be waiting for; every watcher is told now."""
        self.preparing = state
        for watcher in list(self._watchers.values()):
            try:
                watcher.preparing_changed(state)
            except Exception:
                log.exception("lobby watcher failed on preparing")

    # ---------------------------------------------------------------- the push

    def flush(self) -> None:
        """Send what changed in the rooms touched since the last flush (the outbox calls this
        when everything is committed; cheap when nothing was touched)."""
        if not self._due:
            return
        self._due = False
        published: dict[str, RoomInfo | None] = {}
        pending, self._pending = self._pending, []
        for change, subject in pending:
            info = subject if isinstance(subject, RoomInfo) else subject.info()
            if change == "created":
                self._sent[info.room_id] = _signature(info)
            self._tell(change, info)
            published.pop(info.room_id, None)
            published[info.room_id] = None if change == "closed" else info
        dirty, self._dirty = self._dirty, {}
        for room_id, room in dirty.items():
            changed = self._changed(room_id, room)
            if changed is not None:
                self._tell("changed", changed)
                published.pop(room_id, None)
                published[room_id] = changed
        remote, self._remote = self._remote, []
        for change, remote_info in remote:
            self._tell(change, remote_info)
        if published and self.publish is not None:
            try:
                self.publish(list(published.items()))
            except Exception:  # the other nodes' lobbies lag; this node's must go on
                log.exception("publishing %d room change(s) failed", len(published))

    def _changed(self, room_id: str, room: Room) -> RoomInfo | None:
        """The room's lobby view if it changed since last sent (and somebody looks: a watcher
        here, or the other nodes through :attr:`publish`); logs a start."""
        if room.closed:
            return None
        started = room.state.started
        if started and room_id not in self._started:
            self._started.add(room_id)
            log.info(
                "room %s (%s) started: %s",
                room_id,
                room.game_type.game_id,
                ", ".join(room.state.seat_names().values()),
            )
        if not self._watchers and self.publish is None:
            self._sent.pop(room_id, None)  # recomputed when somebody watches again
            return None
        info = room.info()
        signature = _signature(info)
        if self._sent.get(room_id) == signature:
            return None
        self._sent[room_id] = signature
        return info

    def _tell(self, change: str, info: RoomInfo) -> None:
        for watcher in list(self._watchers.values()):
            try:
                watcher.lobby_changed(change, info)
            except Exception:  # one broken connection must not cost the others their lobby
                log.exception("lobby watcher failed on %s %s", change, info.room_id)

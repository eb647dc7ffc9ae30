"""One hall across nodes: the rooms other nodes own, as this node's lobbies see them.

On one node (the default) nothing here is used: the hall's rooms are its
:class:`~gamehall.hall.directory.LocalDirectory`. When several nodes serve one hall
(docs/scale-out.md, "One hall: the shared room directory"), each room lives on the node that
owns it, but every lobby of every node lists every room. So the hall

- *publishes* the lobby view (:class:`~gamehall.protocols._core.RoomInfo`) of each room it owns
  whenever its :class:`~gamehall.hall.lobby_feed.LobbyFeed` sees the room created, changed or
  closed: one :meth:`SharedRooms.publish` call per loop turn with that turn's changes;
- *reads* the other nodes' rooms synchronously from :class:`RemoteRooms`, a local copy the
  shared directory keeps up to date in the background. A lobby query never waits for the
  network, and a remote change reaches this node's lobby watchers through the feed.

The implementation on Redis is :class:`gamehall.cluster.directory.SharedDirectory`; the hall
knows only this module, so it never imports a network client. A remote room is listed only:
its :class:`RoomInfo` is all this node knows of it (joining and playing it is the business of
cross-node play, not of the directory).

Ordering: on a node, ``created_seq`` is the room's creation time in microseconds (kept strictly
increasing per node, see :meth:`gamehall.hall.hall.Hall.create_room`), so the rooms of all
nodes merge into one creation order.
"""

from __future__ import annotations

import logging
import time
from bisect import bisect_left, insort
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Protocol

from gamehall.hall.directory import RoomRule
from gamehall.protocols._core import RoomInfo
from gamehall.rules._core import JSON

log = logging.getLogger("gamehall.hall")

Change = tuple[str, RoomInfo | None]
"""One published change: a room id and its lobby view, or ``None`` when it left this node."""

RemoteChanged = Callable[[str, RoomInfo], None]
"""Told of a remote room ``"created"``, ``"changed"`` or ``"closed"`` (its last view)."""


class SharedRooms(Protocol):
    """The hall's side of the shared room directory. See the module docstring."""

    @property
    def node_id(self) -> str:
        """This node's id, which every room it publishes carries."""
        ...

    @property
    def remote(self) -> RemoteRooms:
        """The other nodes' rooms, kept up to date in the background."""
        ...

    def publish(self, changes: Sequence[Change]) -> None:
        """Publish one loop turn's changes to rooms this node owns (latest last). Returns at
        once; the changes go out in one round trip, in the order of the calls."""
        ...


def info_to_json(info: RoomInfo) -> dict[str, JSON]:
    """A room's lobby view as JSON (seat numbers become strings, as JSON keys must)."""
    return {
        "room_id": info.room_id,
        "game": info.game,
        "title": info.title,
        "config": dict(info.config),
        "seats": {str(seat): name for seat, name in info.seats.items()},
        "away": sorted(info.away),
        "spectators": list(info.spectators),
        "has_password": info.has_password,
        "operator": info.operator,
        "started": info.started,
        "finished": info.finished,
        "max_seats": info.max_seats,
        "created_seq": info.created_seq,
        "extra": dict(info.extra),
    }


def info_from_json(data: Mapping[str, JSON]) -> RoomInfo:
    """The :class:`RoomInfo` :func:`info_to_json` wrote.

    Raises:
        ValueError: ``data`` is not such a view (a field missing or of the wrong type).
    """
    try:
        seats = data["seats"]
        away = data["away"]
        spectators = data["spectators"]
        config = data["config"]
        extra = data.get("extra") or {}
        operator = data["operator"]
        if not (
            isinstance(seats, dict)
            and isinstance(away, list)
            and isinstance(spectators, list)
            and isinstance(config, dict)
            and isinstance(extra, dict)
            and (operator is None or isinstance(operator, str))
        ):
            raise TypeError("a room field has the wrong type")
        return RoomInfo(
            room_id=str(data["room_id"]),
            game=str(data["game"]),
            title=str(data["title"]),
            config=config,
            seats={int(seat): str(name) for seat, name in seats.items()},
            away=frozenset(int(str(seat)) for seat in away),
            spectators=tuple(str(name) for name in spectators),
            has_password=bool(data["has_password"]),
            operator=operator,
            started=bool(data["started"]),
            finished=bool(data["finished"]),
            max_seats=int(str(data["max_seats"])),
            created_seq=int(str(data["created_seq"])),
            extra=extra,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a room view: {exc}") from None


def _discard(ordered: list[tuple[int, str]], key: tuple[int, str]) -> None:
    at = bisect_left(ordered, key)
    if at < len(ordered) and ordered[at] == key:
        del ordered[at]


def _nowhere(_room_id: str) -> bool:
    return False


def _names(info: RoomInfo) -> frozenset[str]:
    return frozenset(name.casefold() for name in info.seats.values())


class RemoteRooms:
    """The rooms other nodes own, with the same indexes as the local directory (rooms per
    game, per seated name, per placement rule), so a lobby query costs what it returns.

    Written by the shared directory (:meth:`put`, :meth:`remove`, :meth:`drop_node`,
    :meth:`orphan`), read by the hall; each change is reported to :attr:`on_change` (the
    hall's lobby feed).

    The running rooms of a node found dead leave the lobby at once but are kept aside as
    *orphans* until a node adopts them (it publishes them again, or this node adds them) or
    the directory gives up on them: meanwhile their players' names belong to nobody, and the
    hall holds them for those players (:meth:`orphan_seats`).
    """

    def __init__(self) -> None:
        self.on_change: RemoteChanged | None = None
        self.local: Callable[[str], bool] = _nowhere
        """Whether a room lives on this node (set by the hall): such a room is never listed
        as remote, whatever a late message of its former owner says."""
        self.local_rooms: Callable[[], list[RoomInfo]] = list
        """This node's rooms as the lobby sees them (set by the hall), for the shared
        directory to publish again when the other nodes may have forgotten them (this node
        was taken for dead, or Redis lost its data)."""
        self._rooms: dict[str, RoomInfo] = {}
        self._node_of: dict[str, str] = {}
        self._order: list[tuple[int, str]] = []  # (created_seq, room_id), sorted
        self._by_name: dict[str, set[str]] = {}
        self._rules: dict[tuple[str, RoomRule], list[tuple[int, str]]] = {}  # sorted like _order
        self.orphan_wait_s = 30.0
        """How long a dead node's running room waits aside for its adoption (set by the
        shared directory from the lease ttl)."""
        self._orphans: dict[str, tuple[RoomInfo, float]] = {}  # room id -> (view, until)

    # ---------------------------------------------------------------- writes

    def put(self, node: str, info: RoomInfo) -> None:
        """``node`` owns the room and shows it as ``info`` (new, or changed)."""
        self._orphans.pop(info.room_id, None)
        if self.local(info.room_id):
            return
        old = self._rooms.get(info.room_id)
        if old is not None:
            self._unindex(old)
        self._rooms[info.room_id] = info
        self._node_of[info.room_id] = node
        insort(self._order, (info.created_seq, info.room_id))
        for name in _names(info):
            self._by_name.setdefault(name, set()).add(info.room_id)
        for (game, rule), matched in self._rules.items():
            if game == info.game and rule(info):
                insort(matched, (info.created_seq, info.room_id))
        self._tell("created" if old is None else "changed", info)

    def remove(self, room_id: str, node: str | None = None, *, quietly: bool = False) -> None:
        """The room left the hall (or ``node``, which owned it, let it go: a room another node
        owns by now stays listed). ``quietly``: nobody is told (the room now lives on this
        node, whose own lobby feed announces it)."""
        if quietly:
            self._orphans.pop(room_id, None)
        if node is not None and self._node_of.get(room_id) != node:
            return
        info = self._rooms.pop(room_id, None)
        if info is None:
            return
        del self._node_of[room_id]
        self._unindex(info)
        if not quietly:
            self._tell("closed", info)

    def drop_node(self, node: str) -> list[str]:
        """Forget every room ``node`` owns (it died and nobody adopted them yet); their ids.
        The running ones are kept as orphans (class docstring)."""
        gone = [room_id for room_id, owner in self._node_of.items() if owner == node]
        for room_id in gone:
            self.orphan(room_id, node)
        return gone

    def orphan(self, room_id: str, node: str) -> None:
        """The room's node died: it leaves the lobby, and, while its game runs, waits aside
        for the node that adopts it (for :attr:`orphan_wait_s` at most)."""
        info = self._rooms.get(room_id)
        if info is not None and self._node_of.get(room_id) == node and not info.finished:
            self._orphans[room_id] = (info, time.monotonic() + self.orphan_wait_s)
        self.remove(room_id, node)

    def orphan_seats(self, name: str) -> bool:
        """Whether ``name`` (ignoring case) sits at a room waiting for adoption."""
        now, key = time.monotonic(), name.casefold()
        for room_id, (info, until) in list(self._orphans.items()):
            if until <= now:
                del self._orphans[room_id]  # nobody adopted it in time: the names are free
            elif key in _names(info):
                return True
        return False

    def replace_all(self, entries: Mapping[str, tuple[str, RoomInfo]]) -> None:
        """Make the copy equal to ``entries`` (room id -> (node, view)), as after a full read:
        rooms not in it are closed, the others put (watchers hear only real differences)."""
        for room_id in [r for r in self._rooms if r not in entries]:
            self.remove(room_id)
        for room_id, (node, info) in entries.items():
            if self._rooms.get(room_id) != info or self._node_of.get(room_id) != node:
                self.put(node, info)

    def _unindex(self, info: RoomInfo) -> None:
        key = (info.created_seq, info.room_id)
        _discard(self._order, key)
        for name in _names(info):
            ids = self._by_name.get(name)
            if ids is not None:
                ids.discard(info.room_id)
                if not ids:
                    del self._by_name[name]
        for matched in self._rules.values():
            _discard(matched, key)

    def _tell(self, change: str, info: RoomInfo) -> None:
        if self.on_change is not None:
            try:
                self.on_change(change, info)
            except Exception:  # the copy must stay right whatever a watcher does
                log.exception("remote room %s: telling the lobby failed", info.room_id)

    # ---------------------------------------------------------------- reads

    def get(self, room_id: str) -> RoomInfo | None:
        return self._rooms.get(room_id)

    def node_of(self, room_id: str) -> str | None:
        """The node that owns a listed remote room."""
        return self._node_of.get(room_id)

    def nodes(self) -> set[str]:
        """The nodes owning at least one listed room."""
        return set(self._node_of.values())

    def rooms(self, game: str | None) -> list[RoomInfo]:
        """In creation order, of one game or all."""
        listed = (self._rooms[room_id] for _, room_id in self._order)
        return [info for info in listed if game is None or info.game == game]

    def count(self, game: str | None) -> int:
        if game is None:
            return len(self._rooms)
        return sum(1 for info in self._rooms.values() if info.game == game)

    def seated(self, name: str) -> list[RoomInfo]:
        """The rooms where ``name`` (ignoring case) holds a seat, in creation order."""
        found = [self._rooms[room_id] for room_id in self._by_name.get(name.casefold(), ())]
        return sorted(found, key=lambda info: (info.created_seq, info.room_id))

    def matching(self, game: str, rule: RoomRule) -> Iterator[RoomInfo]:
        """The rooms of ``game`` satisfying ``rule``, in creation order, lazily (a room that
        left meanwhile is skipped); the first call for a ``(game, rule)`` pair builds its
        index, later ones cost what they yield."""
        matched = self._rules.get((game, rule))
        if matched is None:
            matched = sorted(
                (i.created_seq, i.room_id) for i in self._rooms.values() if i.game == game and rule(i)
            )
            self._rules[(game, rule)] = matched
        for _, room_id in list(matched):
            info = self._rooms.get(room_id)
            if info is not None:
                yield info

    def __len__(self) -> int:
        return len(self._rooms)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._rooms))

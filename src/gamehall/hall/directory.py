"""Where the hall finds rooms, and the indexes that keep a join from scanning them all.

This process's rooms (:class:`LocalDirectory`). On a node of several each room lives on the
node that owns it; the other nodes' rooms are listed from the shared directory
(:mod:`gamehall.hall.shared_rooms`), which the hall merges into its lobby queries, so the hall
reaches *its* rooms only through this small interface and never assumes it sees them all.

Why indexes: a legacy join used to build a :class:`RoomInfo` of *every* room two or three times
(who holds a seat under this nick? which tables are open? how many tables are there?), 4.2 ms
at 1,000 rooms, so joins topped out near 50 per second and each one stalled every table. The
directory now keeps, up to date as rooms change:

- the rooms of each game (counted without a scan);
- the rooms where a name (case-folded) holds a seat;
- per *placement rule* (a named predicate over :class:`RoomInfo`, e.g. AAH's "open for a legacy
  join"), the rooms that satisfy it, in creation order.

A room tells its directory when it may have changed (:meth:`RoomDirectory.changed`, wired to
:class:`~gamehall.hall.room.Room`'s ``on_changed``); the directory re-reads that one room's
:meth:`~gamehall.hall.room.Room.info`. Every query then costs what it returns, not the number
of rooms. The copy of the other nodes' rooms (:class:`~gamehall.hall.shared_rooms.RemoteRooms`)
keeps the same indexes over their published :class:`RoomInfo`, so predicates never travel.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from gamehall.hall.room import Room
    from gamehall.protocols._core import RoomInfo

RoomRule = Callable[["RoomInfo"], bool]
"""A placement rule: whether a room (as the lobby sees it) qualifies. Must depend only on the
:class:`RoomInfo` (the index re-evaluates it when the room reports a change)."""


class RoomDirectory(Protocol):
    def add(self, room: Room) -> None: ...

    def remove(self, room_id: str) -> None: ...

    def get(self, room_id: str) -> Room | None: ...

    def rooms(self, game: str | None) -> list[Room]:
        """Rooms in creation order, of one game or all."""
        ...

    def changed(self, room: Room) -> None:
        """``room``'s seats, lifecycle or settings may have changed: re-index it. A room that
        is not (or no longer) listed is ignored."""
        ...

    def count(self, game: str | None) -> int:
        """How many rooms (of one game, or all) are listed, without building a list."""
        ...

    def seated(self, name: str) -> list[Room]:
        """The rooms where ``name`` (ignoring case) holds a seat, in creation order."""
        ...

    def matching(self, game: str, rule: RoomRule) -> list[Room]:
        """The rooms of ``game`` that satisfy ``rule``, in creation order. The first call for a
        ``(game, rule)`` pair builds its index (one scan); later calls read it."""
        ...


class _Ordered:
    """Rooms ordered by ``created_seq``: insertion and removal by bisection."""

    __slots__ = ("_keys", "_rooms")

    def __init__(self) -> None:
        self._keys: list[int] = []
        self._rooms: dict[int, Room] = {}

    def put(self, room: Room) -> None:
        if room.created_seq not in self._rooms:
            insort(self._keys, room.created_seq)
        self._rooms[room.created_seq] = room

    def discard(self, room: Room) -> None:
        if self._rooms.pop(room.created_seq, None) is not None:
            del self._keys[bisect_left(self._keys, room.created_seq)]

    def __contains__(self, room: Room) -> bool:
        return self._rooms.get(room.created_seq) is room

    def __len__(self) -> int:
        return len(self._keys)

    def listed(self) -> list[Room]:
        return [self._rooms[key] for key in self._keys]


class LocalDirectory:
    """Every room of this process, in creation order, with the indexes described above.

    ``created_seq`` is unique per hall (the hall's room counter), which the ordered indexes
    rely on.
    """

    def __init__(self) -> None:
        self._rooms: dict[str, Room] = {}
        self._by_game: dict[str, dict[str, Room]] = {}
        # room id -> case-folded seat names; name -> the ids of the rooms with a seat of it, by
        # creation (tuples of strings: most names hold one seat, a tuple of one is 48 bytes, and
        # the collector stops tracking a tuple of strings, so a seat adds nothing to walk)
        self._names_of: dict[str, tuple[str, ...]] = {}
        self._by_name: dict[str, tuple[str, ...]] = {}
        self._rules: dict[tuple[str, RoomRule], _Ordered] = {}

    def add(self, room: Room) -> None:
        self._rooms[room.room_id] = room
        self._by_game.setdefault(room.game_type.game_id, {})[room.room_id] = room
        self.changed(room)

    def remove(self, room_id: str) -> None:
        room = self._rooms.pop(room_id, None)
        if room is None:
            return
        game_rooms = self._by_game.get(room.game_type.game_id, {})
        game_rooms.pop(room_id, None)
        for name in self._names_of.pop(room_id, ()):
            self._unseat(name, room)
        for (game, _rule), listed in self._rules.items():
            if game == room.game_type.game_id:
                listed.discard(room)

    def get(self, room_id: str) -> Room | None:
        return self._rooms.get(room_id)

    def rooms(self, game: str | None) -> list[Room]:
        if game is None:
            return list(self._rooms.values())
        return list(self._by_game.get(game, {}).values())

    def count(self, game: str | None) -> int:
        return len(self._rooms) if game is None else len(self._by_game.get(game, {}))

    def changed(self, room: Room) -> None:
        if self._rooms.get(room.room_id) is not room:
            return
        info = room.info()
        names = tuple(sorted({name.casefold() for name in info.seats.values()}))
        old = self._names_of.get(room.room_id, ())
        if names != old:
            for name in set(old).difference(names):
                self._unseat(name, room)
            for name in set(names).difference(old):
                ids = self._by_name.get(name, ())
                self._by_name[name] = tuple(sorted((*ids, room.room_id), key=self._creation))
            if names:
                self._names_of[room.room_id] = names
            else:
                self._names_of.pop(room.room_id, None)
        for (game, rule), listed in self._rules.items():
            if game == info.game:
                if rule(info):
                    listed.put(room)
                else:
                    listed.discard(room)

    def seated(self, name: str) -> list[Room]:
        return [self._rooms[room_id] for room_id in self._by_name.get(name.casefold(), ())]

    def matching(self, game: str, rule: RoomRule) -> list[Room]:
        listed = self._rules.get((game, rule))
        if listed is None:
            listed = self._rules[(game, rule)] = _Ordered()
            for room in self._by_game.get(game, {}).values():
                if rule(room.info()):
                    listed.put(room)
        return listed.listed()

    def _unseat(self, name: str, room: Room) -> None:
        rest = tuple(r for r in self._by_name.get(name, ()) if r != room.room_id)
        if rest:
            self._by_name[name] = rest
        else:
            self._by_name.pop(name, None)

    def _creation(self, room_id: str) -> int:
        return self._rooms[room_id].created_seq

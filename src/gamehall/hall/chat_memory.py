"""The recent chat of every room and of the hall, so that whoever joins, reconnects or
reloads the page sees what was just said instead of an empty box.

Only the last :data:`CHAT_MEMORY_LINES` lines are kept, in memory: chat is conversation, not
record (room chat is not in the game log either), and a restart forgets it. Private messages
are never kept: they were meant for two people at the moment they were sent.
"""

from __future__ import annotations

from collections import deque

from gamehall.rules._core import JSON

CHAT_MEMORY_LINES = 100


class ChatMemory:
    """Recent room chat (by room id) and hall chat (broadcast lines and notices)."""

    def __init__(self, lines: int = CHAT_MEMORY_LINES) -> None:
        self._lines = lines
        self._rooms: dict[str, deque[dict[str, JSON]]] = {}
        self._hall: deque[dict[str, JSON]] = deque(maxlen=lines)

    def room_said(self, room_id: str, sender: str, text: str, at: float) -> None:
        lines = self._rooms.get(room_id)
        if lines is None:
            lines = self._rooms[room_id] = deque(maxlen=self._lines)
        lines.append({"kind": "room", "sender": sender, "text": text, "at": at})

    def room_knew(self, room_id: str, lines: list[dict[str, JSON]]) -> None:
        """The room's recent lines as another node remembers them (it owns the room): taken
        when nothing was said here yet."""
        if lines and not self._rooms.get(room_id):
            self._rooms[room_id] = deque((dict(line) for line in lines), maxlen=self._lines)

    def hall_said(self, sender: str | None, text: str, at: float) -> None:
        """A broadcast line (``sender``) or a server notice (``sender`` ``None``)."""
        kind = "notice" if sender is None else "broadcast"
        self._hall.append({"kind": kind, "sender": sender, "text": text, "at": at})

    def recent(self, room_id: str | None) -> list[dict[str, JSON]]:
        """Oldest first; copies, so the caller may serialise them later."""
        lines = self._hall if room_id is None else self._rooms.get(room_id, ())
        return [dict(line) for line in lines]

    def forget_room(self, room_id: str) -> None:
        self._rooms.pop(room_id, None)

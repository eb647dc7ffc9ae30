"""What a host may do to the whole hall from the host console: look at every live room with
its players and their protocols, close a room, send a user away, speak to everyone.

Kept apart from :mod:`gamehall.hall.hall` because these are the operator's powers, not a
player's: the server checks the operator token before calling any of them.
"""

from __future__ import annotations

from gamehall.hall.hall import Hall
from gamehall.protocols._core import CloseReason, HallError
from gamehall.rules._core import JSON

CLOSED_BY_HOST = "closed_by_host"
"""The ``termination`` of a room the host closed: finished in the store (so a restart does not
bring it back), with no scores and no winners (a close is never a win)."""


def live_rooms(hall: Hall) -> list[dict[str, JSON]]:
    """Every room of the hall with its seats (name, protocol, connected) and spectators."""
    rooms: list[dict[str, JSON]] = []
    for room in hall.directory.rooms(None):
        info = room.info()
        seats: list[JSON] = []
        for seat, name in sorted(info.seats.items()):
            user = hall.user(name)
            seats.append(
                {
                    "seat": seat,
                    "name": name,
                    "protocol": user.protocol if user is not None else None,
                    "away": seat in info.away,
                    "bot": bool(user is not None and user.protocol == "bot"),
                }
            )
        rooms.append(
            {
                "id": info.room_id,
                "game": info.game,
                "title": info.title,
                "status": "finished" if info.finished else "playing" if info.started else "waiting",
                "operator": info.operator,
                "seats": seats,
                "spectators": list(info.spectators),
                "last_seq": room.last_seq,
            }
        )
    return rooms


def close_room(hall: Hall, room_id: str, text: str = "Closed by the host.") -> None:
    """End a room now; everyone in it gets ``ended`` (``aborted``) with ``text``.

    Raises:
        HallError: ``no_such_room``.
    """
    room = hall.room(room_id)
    room.close(CloseReason.ABORTED, text, result={"termination": CLOSED_BY_HOST, "reason": text})


def kick_user(hall: Hall, name: str, text: str = "Removed by the host.") -> list[str]:
    """Release every seat of ``name`` and close their connection; returns the rooms left.
    The user may log in again (a kick is not a ban).

    Raises:
        HallError: ``no_such_user``.
    """
    user = hall.user(name)
    if user is None:
        raise HallError("no_such_user", f"There is no user {name}.")
    left: list[str] = []
    for room_id in sorted(user.rooms):
        room = hall.directory.get(room_id)
        if room is not None and room.member(user.name) is not None and not room.closed:
            room.leave(user.name, reason=CloseReason.KICKED, text=text)
            left.append(room_id)
        user.forget_room(room_id)
    listener, user.listener = user.listener, None
    if listener is not None:
        hall.tell(listener.disconnect, CloseReason.KICKED, text)
    hall.forget_idle_users()
    return left


def notice(hall: Hall, text: str) -> None:
    """A hall-wide notice from the host, to every connected user in their protocol.

    Raises:
        HallError: ``chat_invalid`` for an empty or over-long text.
    """
    text = text.strip()
    if not text or len(text) > 1000:
        raise HallError("chat_invalid", "A notice has 1 to 1000 characters.")
    hall.shout(None, text)

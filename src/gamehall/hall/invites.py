"""Invitations: a member of a room asks another online user to join it.

Some protocols reach a table only by invitation (cg); the browser uses invitations to bring
players of any protocol that can carry one (the listener is :class:`~gamehall.protocols._core.
Invitable`) to its tables. The hall only routes the invitation; accepting it is a join in the
invitee's own protocol.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamehall.protocols._core import HallError, Invitable

if TYPE_CHECKING:
    from gamehall.hall.hall import Hall


def invite_to_room(hall: Hall, room_id: str, inviter: str, name: str) -> None:
    """See :meth:`gamehall.protocols._core.HallPort.invite`."""
    room = hall.room(room_id)
    if room.member(inviter) is None:
        raise HallError("not_in_room", "Only someone in the room can invite to it.")
    user = hall.user(name)
    if user is None or user.listener is None:
        raise HallError("no_such_user", f"{name} is not online.")
    member = room.member(user.name)
    if member is not None and member.seat is not None:
        raise HallError("already_in_room", f"{user.name} already sits at this table.")
    listener = user.listener
    if not isinstance(listener, Invitable):
        raise HallError("not_invitable", f"{user.name} plays over {user.protocol}, which has no invitations.")
    if not listener.invited(room_id, inviter):
        raise HallError("busy", f"{user.name} cannot take an invitation now (in another lobby or game).")

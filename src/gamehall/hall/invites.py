"""Invitations: a member of a room asks another online user to join it.

Some protocols reach a table only by invitation (cg); the browser uses invitations to bring
players of any protocol that can carry one (the listener is :class:`~gamehall.protocols._core.
Invitable`) to its tables. The hall only routes the invitation; accepting it is a join in the
invitee's own protocol.

On a node of several (docs/scale-out.md, "Invitations across nodes") the invitee may be online
on another node: the inviter's node checks what it can (the inviter is in the room, the invitee
does not sit at it: a replica has the room's members too) and sends the invitation there
through the hall's :class:`~gamehall.hall.presence.Presence`; that node offers it to its user
(:func:`offer_remote_invitation`). Whether the user can take it is known only there, after the
inviter's request was answered, so a refusal comes back to the inviter as a server notice
(its text the reason the local refusal carries) instead of an error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamehall.protocols._core import HallError, Invitable, Notice

if TYPE_CHECKING:
    from gamehall.hall.hall import Hall, User
    from gamehall.hall.presence import Invitation
    from gamehall.hall.room import Room


def invite_to_room(hall: Hall, room_id: str, inviter: str, name: str) -> None:
    """See :meth:`gamehall.protocols._core.HallPort.invite`."""
    room = hall.room(room_id)
    if room.member(inviter) is None:
        raise HallError("not_in_room", "Only someone in the room can invite to it.")
    user = hall.user(name)
    if user is None or user.listener is None:
        if _invite_on_another_node(hall, room, inviter, name):
            return
        raise HallError("no_such_user", f"{name} is not online.")
    member = room.member(user.name)
    if member is not None and member.seat is not None:
        raise HallError("already_in_room", f"{user.name} already sits at this table.")
    _offer(user, room_id, inviter)


def _offer(user: User, room_id: str, inviter: str) -> None:
    """Show the invitation to ``user``, online on this node, in their protocol.

    Raises:
        HallError: ``not_invitable`` (their protocol has no invitations), ``busy``.
    """
    listener = user.listener
    if not isinstance(listener, Invitable):
        raise HallError("not_invitable", f"{user.name} plays over {user.protocol}, which has no invitations.")
    if not listener.invited(room_id, inviter):
        raise HallError("busy", f"{user.name} cannot take an invitation now (in another lobby or game).")


def _invite_on_another_node(hall: Hall, room: Room, inviter: str, name: str) -> bool:
    """Send the invitation to the node where ``name`` is online; ``False`` when they are
    online on no other node (or this hall is the only node).

    Raises:
        HallError: ``already_in_room`` (they sit at the room, from their node).
    """
    holder = hall.presence.holder(name) if hall.presence is not None else None
    if hall.presence is None or holder is None or not holder.online:
        return False
    member = room.member(holder.display)
    if member is not None and member.seat is not None:
        raise HallError("already_in_room", f"{holder.display} already sits at this table.")
    hall.presence.invite(holder.node, room.room_id, inviter, holder.display)
    return True


def offer_remote_invitation(hall: Hall, invitation: Invitation) -> None:
    """An invitation made on another node for a user of this one: offered like a local one
    (:func:`_offer`). When it cannot be (the user left meanwhile, their protocol has no
    invitations, they are busy) the inviter's node is told, and its inviter hears why as a
    server notice: their ``invite`` was answered ``ok`` already."""
    user = hall.user(invitation.name)
    try:
        if user is None or user.listener is None:
            raise HallError("no_such_user", f"{invitation.name} is not online.")
        _offer(user, invitation.room_id, invitation.inviter)
    except HallError as refused:
        if hall.presence is not None:
            hall.presence.notify(invitation.node, invitation.inviter, Notice(text=refused.reason))

"""Lobby membership, shared by the lobby and the game commands of cg (note §4.2).

Entering a lobby, leaving it, and the ``status.user`` packets that show members, users and
bots: what :mod:`.lobby_commands` (the lobby packets), :mod:`.game_commands` (the game start
and its end) and :mod:`.browser_tables` all do. Kept here, below all three, so that none of
them imports another to reach it (the package's modules import one way: members <-
browser_tables <- game_commands <- lobby_commands <- dialogue).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamehall.protocols._core import HallError
from gamehall.protocols.cg.accounts import Account
from gamehall.protocols.cg.codec import Packet
from gamehall.protocols.cg.lobbies import BOT_POLICY, ROLE_CREATOR, ROLE_REMOVED, Lobby, Member
from gamehall.protocols.cg.states import Transition
from gamehall.rules._core import RuleError

if TYPE_CHECKING:
    from gamehall.protocols.cg.dialogue import CgDialogue


def user_status(conn: CgDialogue, account: Account) -> Packet:
    online = account.uuid in conn.directory.online
    return Packet(
        "cg:status.user",
        {
            "username": account.username,
            "uuid": account.uuid,
            "profile_img": account.profile_img,
            "status": "online" if online else "offline",
        },
    )


def member_status(member: Member) -> Packet:
    return Packet(
        "cg:status.user",
        {
            "username": member.name,
            "uuid": member.uuid,
            "profile_img": "bot" if member.is_bot else "default",
            "status": "online" if member.is_bot or member.peer is not None else "offline",
        },
    )


def enter(conn: CgDialogue, lobby: Lobby, role: int) -> None:
    """The three steps a creator or joiner gets, and the others' two (§4.2)."""
    assert conn.account is not None
    member = Member(conn.account.uuid, conn.account.username, role, conn)
    conn.directory.add_member(lobby, member)
    conn.move(Transition.ENTERED_LOBBY)
    conn.send_packet(Packet("cg:lobby.join", {"lobby": lobby.lobby_id}))
    for other in lobby.members.values():
        conn.send_packet(member_status(other))
    conn.send_packet(lobby.full_change(conn.flavor))
    for peer in lobby.peers():
        if peer is not conn:
            peer.send_packet(member_status(member))
            peer.send_packet(lobby.users_delta(member.uuid, **lobby.user_entry(member)))


def remove_member(conn: CgDialogue, lobby: Lobby, member: Member) -> None:
    """``member`` leaves ``lobby``: the others see role -1; a departing creator is replaced."""
    was_creator = member.role == ROLE_CREATOR
    conn.directory.remove_member(lobby, member.uuid)
    lobby.broadcast(lobby.users_delta(member.uuid, role=ROLE_REMOVED))
    if was_creator:
        heir = next((m for m in lobby.members.values() if not m.is_bot), None)
        if heir is not None:
            heir.role = ROLE_CREATOR
            lobby.broadcast(lobby.users_delta(heir.uuid, role=ROLE_CREATOR))


def bot_policy(member: Member) -> str:
    return BOT_POLICY.get(member.bot_type or "", "random")


def seat_bots(conn: CgDialogue, lobby: Lobby, room_id: str, member: Member) -> None:
    """One lobby bot takes the next seat of the room (the hall's in-process bot)."""
    try:
        (name,) = conn.hall.add_bots(room_id, 1, bot_policy(member))
    except (HallError, RuleError) as exc:
        raise HallError("no_bots", f"bot could not be seated: {exc}") from None
    conn.directory.seat_uuids[name.lower()] = member.uuid

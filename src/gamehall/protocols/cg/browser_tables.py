"""Browser tables for cg clients: a Doppelkopf room made in the browser, seen through cg.

cg has no list of tables: a cg client reaches a table only by an invitation into a *lobby*.
**Decision (ours)** (docs/web-protocol.md, section 4, "Invitations"): a Doppelkopf room made in
the browser is shown to cg clients as a lobby of its own (a *bridge lobby*, id derived from the
room id), reached by invitation:

- a browser player invites a cg user by name (web ``invite``): the cg client gets
  ``cg:lobby.invite{username: <browser user>, inviter, lobby_id}``;
- a cg client that logs in while a browser table waits for players (no password, a seat free,
  not started) is invited to the oldest one, by its operator: this is how a cg client learns of
  browser tables, so ``gamehall bots --game doppelkopf`` fills them as AAH bots fill AAH tables.
  A human cg client may decline (``accepted: false``).

Accepting seats the cg user in the hall room at once (the room starts itself when its fourth
seat is taken), after the usual ``lobby.join``, ``status.user`` of every seat and the full
``lobby.change``; browser players are members without a connection (ready, role 10, the
operator 100). Seats taken or left from the browser while a cg client waits show as
``status.user`` + ``lobby.change``. Rules are the room's: the lobby cannot change them
(``gamehall:msg.lobby.no_permission``) and ``ready`` starts nothing (the room does). After the
game the bridge lobby is left (``lobby.leave``): the table belonged to the browser.
"""

from __future__ import annotations

import logging
import uuid
from typing import TYPE_CHECKING

from gamehall.protocols._core import HallError, RoomInfo, served_here
from gamehall.protocols.cg import gamerules
from gamehall.protocols.cg.codec import Packet
from gamehall.protocols.cg.lobbies import ROLE_CREATOR, ROLE_PLAYER, Lobby, Member
from gamehall.protocols.cg.members import enter, member_status, remove_member
from gamehall.protocols.cg.states import CgState, Transition
from gamehall.rules._core import Event, RuleError, SeatJoined, SeatLeft

if TYPE_CHECKING:
    from gamehall.protocols.cg.dialogue import CgDialogue

log = logging.getLogger(__name__)

GAME = "doppelkopf"
WEB_ORIGIN = "web"
"""``extra["origin"]`` of a room made in the browser (set by the web dialogue)."""
_BRIDGE_SPACE = uuid.UUID("2b8f0c1e-9a41-4c4e-8f7a-5d0b6a1e3c77")


def is_browser_table(info: RoomInfo) -> bool:
    return info.game == GAME and info.extra.get("origin") == WEB_ORIGIN


def open_for_cg(info: RoomInfo) -> bool:
    """A browser Doppelkopf table a cg client may be offered: waiting, no password, a seat free."""
    return (
        is_browser_table(info)
        and not info.started
        and not info.finished
        and not info.has_password
        and len(info.seats) < info.max_seats
    )


def bridge_id(room_id: str) -> str:
    return uuid.uuid5(_BRIDGE_SPACE, room_id).hex


def _bridge(conn: CgDialogue, info: RoomInfo) -> Lobby:
    """The bridge lobby of a browser table, made on first use and refreshed from its seats."""
    directory = conn.directory
    lobby_id = bridge_id(info.room_id)
    lobby = directory.lobbies.get(lobby_id)
    if lobby is None:
        lobby = Lobby(lobby_id, dict(gamerules.defaults("c")), bridge_room=info.room_id)
        directory.lobbies[lobby_id] = lobby
    assert conn.session is not None
    view = conn.session.room(info.room_id).game.view(None)
    rules = view.get("rules") if isinstance(view, dict) else None
    if isinstance(rules, dict):
        lobby.rules = dict(gamerules.wire_rules(rules))
    for _, name in sorted(info.seats.items()):
        _add_browser_member(conn, lobby, name, info.operator)
    return lobby


def _add_browser_member(conn: CgDialogue, lobby: Lobby, name: str, operator: str | None) -> Member | None:
    member_uuid = conn.directory.uuid_for_name(name)
    if member_uuid in lobby.members:
        return None
    role = ROLE_CREATOR if operator is not None and operator.lower() == name.lower() else ROLE_PLAYER
    member = Member(member_uuid, name, role, None, ready=True)
    lobby.members[member_uuid] = member
    lobby.order.append(member_uuid)
    return member


# ------------------------------------------------------------------------------ invitations


def invite(conn: CgDialogue, room_id: str, inviter: str) -> bool:
    """Invite this cg connection to the browser table ``room_id`` on behalf of ``inviter``.
    ``False`` when the connection cannot take an invitation now (not logged in, in a lobby or
    a game) or the room is not a browser Doppelkopf table."""
    if conn.session is None or conn.state is not CgState.ACTIVE:
        return False
    info = conn.hall.room_info(room_id)
    if info is None or info.game != GAME or not is_browser_table(info):
        return False
    if not served_here(conn.session, room_id):
        return False  # listed, but another node of the hall holds it
    lobby = _bridge(conn, info)
    inviter_uuid = conn.directory.uuid_for_name(inviter)
    lobby.invited[conn.account_uuid] = inviter_uuid
    conn.send_packet(
        Packet("cg:lobby.invite", {"username": inviter, "inviter": inviter_uuid, "lobby_id": lobby.lobby_id})
    )
    return True


def offer_open_table(conn: CgDialogue) -> None:
    """Just logged in and idle: invite the connection to the oldest browser table waiting."""
    if conn.session is None or conn.state is not CgState.ACTIVE:
        return
    tables = sorted((r for r in conn.hall.rooms(GAME) if open_for_cg(r)), key=lambda r: r.created_seq)
    for info in tables:
        if invite(conn, info.room_id, info.operator or next(iter(info.seats.values()), "gamehall")):
            return


def accept(conn: CgDialogue, lobby: Lobby, accepted: bool) -> bool:
    """``lobby.invite.accept`` for a bridge lobby (the invitation was checked by the caller).
    ``True`` when the connection sat down and entered the lobby. The room's events of the
    join (the game may have started) are delivered after the lobby packets sent here."""
    key = "cg:msg.lobby.invite.accept."
    room_id = lobby.bridge_room
    assert room_id is not None
    if not accepted or conn.session is None:
        return False
    info = conn.hall.room_info(room_id)
    if info is None or info.game != GAME or not served_here(conn.session, room_id):
        conn.status(key + "lobby_not_exists")
        return False
    if info.started:
        conn.status(key + "lobby_started_game")
        return False
    if len(info.seats) >= info.max_seats:
        conn.status(key + "lobby_full")
        return False
    _bridge(conn, info)
    conn.room_id = room_id  # the join may start the game: its events follow the lobby packets
    try:
        conn.session.join(room_id, None)
    except (HallError, RuleError) as exc:
        log.info("cg %s: could not sit at browser table %s: %s", conn.username, room_id, exc)
        conn.room_id = None
        conn.status(key + ("lobby_full" if "full" in str(exc).lower() else "lobby_started_game"))
        return False
    enter(conn, lobby, ROLE_PLAYER)
    return True


def seat_event(conn: CgDialogue, event: Event) -> None:
    """A seat taken or left at the browser table while this cg client waits in its lobby."""
    lobby = conn.directory.lobby_for(conn.account_uuid)
    if lobby is None or lobby.bridge_room is None or lobby.bridge_room != conn.room_id:
        return
    if isinstance(event, SeatJoined):
        member = _add_browser_member(conn, lobby, event.name, None)
        if member is not None:
            conn.send_packet(member_status(member))
            conn.send_packet(lobby.users_delta(member.uuid, **lobby.user_entry(member)))
    elif isinstance(event, SeatLeft):
        member_uuid = conn.directory.uuid_for_name(event.name)
        member = lobby.members.get(member_uuid)
        if member is not None and member.peer is None:
            lobby.members.pop(member_uuid, None)
            if member_uuid in lobby.order:
                lobby.order.remove(member_uuid)
            conn.send_packet(lobby.users_delta(member_uuid, role=-1))


def leave_after_game(conn: CgDialogue, lobby: Lobby) -> None:
    """The browser table's game is over: the cg client leaves its bridge lobby."""
    member = lobby.members.get(conn.account_uuid)
    conn.send_packet(Packet("cg:lobby.leave", {"lobby": lobby.lobby_id}))
    conn.move(Transition.LEFT_LOBBY)
    if member is not None:
        remove_member(conn, lobby, member)

"""The lobby packets of one cg connection (note §4.2) and the game start, plus chat (§4.6).

Functions take the connection's dialogue (:class:`~.dialogue.CgDialogue`), which holds its
account, flavor and hall session; the shared lobby state is in :mod:`.lobbies`, entering and
leaving a lobby in :mod:`.members`.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any, Final

from gamehall.protocols._core import HallError
from gamehall.protocols._text import normalise
from gamehall.protocols.cg import browser_tables, game_commands, gamerules, registry, save_load
from gamehall.protocols.cg.codec import Packet, parse_uuid
from gamehall.protocols.cg.lobbies import (
    BOT_TYPES,
    ROLE_ADMIN,
    ROLE_CREATOR,
    ROLE_PLAYER,
    ROLE_REMOVED,
    Lobby,
)
from gamehall.protocols.cg.members import enter, member_status, remove_member
from gamehall.protocols.cg.states import CgState, Transition

if TYPE_CHECKING:
    from gamehall.protocols.cg.dialogue import CgDialogue

log = logging.getLogger(__name__)

CHAT_MAX: Final = 500
CHAT_RATE: Final = 5
CHAT_WINDOW_S: Final = 10.0
ROLES: Final = (ROLE_REMOVED, 0, 1, ROLE_PLAYER, ROLE_ADMIN, ROLE_CREATOR)


def bot_status(conn: CgDialogue, wanted: str | None) -> Packet | None:
    """``status.user`` of a bot of the caller's lobby, looked up by uuid."""
    lobby = conn.directory.lobby_for(conn.account_uuid)
    if lobby is None or wanted is None:
        return None
    member = lobby.members.get(wanted)
    return None if member is None else member_status(member)


def handle(conn: CgDialogue, name: str, body: dict[str, Any]) -> None:
    if name == "cg:lobby.create":
        create(conn, body)
    elif name == "cg:lobby.invite":
        invite(conn, body)
    elif name == "cg:lobby.invite.accept":
        accept(conn, body)
    else:
        lobby = conn.directory.lobby_for(conn.account_uuid)
        if lobby is None:
            log.info("cg %s: %s without a lobby: dropped", conn.wire.peer, name)
            return
        if name == "cg:lobby.ready":
            ready(conn, lobby, body)
        elif name == "cg:lobby.change":
            change(conn, lobby, body)
        elif name == "cg:lobby.kick":
            kick(conn, lobby, body)
        elif name == "cg:lobby.leave":
            if parse_uuid(body["lobby"]) == lobby.lobby_id:
                leave(conn, lobby)
        elif name == "cg:game.load":
            save_load.load(conn, lobby, body)


# ------------------------------------------------------------------------------ entering


def create(conn: CgDialogue, body: dict[str, Any]) -> None:
    if body.get("game", "doppelkopf") != "doppelkopf":
        conn.status("gamehall:msg.lobby.create.invalid_game")
        return
    variant = body.get("variant", "c")
    known = isinstance(variant, str) and variant in gamerules.VARIANTS
    lobby = conn.directory.new_lobby(variant if known else "c")
    enter(conn, lobby, ROLE_CREATOR)


def invite(conn: CgDialogue, body: dict[str, Any]) -> None:
    lobby = conn.directory.lobby_for(conn.account_uuid)
    username = body["username"]
    if lobby is None or not isinstance(username, str):
        log.info("cg %s: invite outside a lobby: dropped", conn.wire.peer)
        return
    if lobby.room_id is not None:
        conn.status("cg:msg.lobby.invite.user_cur_not_available")
        return
    if username.lower().startswith("bot_"):
        _invite_bot(conn, lobby, username[4:])
        return
    account = conn.accounts.find(username)
    key = "cg:msg.lobby.invite."
    if account is None:
        conn.status(key + "user_does_not_exist")
        return
    peer = conn.directory.online.get(account.uuid)
    if peer is None:
        conn.status(key + "user_not_online")
    elif peer.in_state() is CgState.LOBBY:
        conn.status(key + "user_in_lobby")
    elif peer.in_state() is CgState.GAME_DK:
        conn.status(key + "user_in_dk_game")
    elif peer.in_state() is not CgState.ACTIVE:
        conn.status(key + "user_cur_not_available")
    elif lobby.full:
        conn.status(key + "lobby_full")
    else:
        lobby.invited[account.uuid] = conn.account_uuid
        peer.send_packet(
            Packet(
                "cg:lobby.invite",
                {"username": conn.username, "inviter": conn.account_uuid, "lobby_id": lobby.lobby_id},
            )
        )
        conn.status(key + "user_invited", {"username": account.username}, kind="notice")


def _invite_bot(conn: CgDialogue, lobby: Lobby, bot_type: str) -> None:
    if bot_type not in BOT_TYPES:
        conn.status("cg:msg.lobby.invite.user_does_not_exist")
        return
    if lobby.full:
        conn.status("cg:msg.lobby.invite.lobby_full")
        return
    bot = conn.directory.new_bot(bot_type)
    conn.directory.add_member(lobby, bot)
    lobby.broadcast(member_status(bot))
    lobby.broadcast(lobby.users_delta(bot.uuid, **lobby.user_entry(bot)))


def accept(conn: CgDialogue, body: dict[str, Any]) -> None:
    key = "cg:msg.lobby.invite.accept."
    lobby = conn.directory.lobbies.get(parse_uuid(body["lobby_id"]) or "")
    inviter = parse_uuid(body["inviter"])
    if lobby is None:
        conn.status(key + "lobby_not_exists")
        return
    if inviter is None or (conn.accounts.get(inviter) is None and lobby.bridge_room is None):
        conn.status(key + "invalid_inviter")
        return
    if lobby.invited.get(conn.account_uuid) != inviter:
        conn.status(key + "not_invited")
        return
    del lobby.invited[conn.account_uuid]
    if lobby.bridge_room is not None:  # a browser table: the inviter is a browser player
        browser_tables.accept(conn, lobby, body["accepted"] is True)  # the join's events follow
        return
    if body["accepted"] is not True:
        peer = conn.directory.online.get(inviter)
        if peer is not None:
            peer.send_packet(
                Packet(
                    "cg:status.message",
                    {
                        "type": "notice",
                        "message": "cg:msg.lobby.invite.decline",
                        "data": {"username": conn.username},
                    },
                )
            )
        return
    if lobby.room_id is not None:
        conn.status(key + "lobby_started_game")
    elif lobby.full:
        conn.status(key + "lobby_full")
    else:
        enter(conn, lobby, ROLE_PLAYER)


# ------------------------------------------------------------------------------ in a lobby


def ready(conn: CgDialogue, lobby: Lobby, body: dict[str, Any]) -> None:
    member = lobby.members.get(conn.account_uuid)
    if member is None or not isinstance(body["ready"], bool):
        return
    member.ready = body["ready"]
    lobby.broadcast(lobby.users_delta(member.uuid, ready=member.ready))
    if lobby.all_ready() and lobby.room_id is None and lobby.bridge_room is None:
        game_commands.start_game(conn, lobby)


def change(conn: CgDialogue, lobby: Lobby, body: dict[str, Any]) -> None:
    member = lobby.members.get(conn.account_uuid)
    if (
        member is None
        or member.role < ROLE_ADMIN
        or lobby.room_id is not None
        or lobby.bridge_room is not None
    ):
        conn.status("gamehall:msg.lobby.no_permission")  # a browser table's rules are the room's
        return
    rules = body.get("gamerules")
    if isinstance(rules, dict):
        stored = {key: gamerules.checked(key, value) for key, value in rules.items()}
        stored = {key: value for key, value in stored.items() if value is not None}
        lobby.rules.update(stored)
        for peer in lobby.peers():
            shown = gamerules.for_flavor(stored, peer.flavor)
            if shown:
                peer.send_packet(Packet("cg:lobby.change", {"gamerules": shown}))
    order = body.get("user_order")
    if isinstance(order, list):
        wanted = [parse_uuid(uid) for uid in order]
        if sorted(u for u in wanted if u is not None) == sorted(lobby.order) and len(wanted) == len(
            lobby.order
        ):
            lobby.order = [u for u in wanted if u is not None]
            lobby.broadcast(Packet("cg:lobby.change", {"user_order": list(lobby.order)}))
    users = body.get("users")
    if isinstance(users, dict):
        for uid, entry in users.items():
            target = lobby.members.get(parse_uuid(uid) or "")
            role = entry.get("role") if isinstance(entry, dict) else None
            if target is None or role not in ROLES or target is member:
                continue
            if target.role >= member.role or role >= member.role or role == ROLE_REMOVED:
                continue
            target.role = role
            lobby.broadcast(lobby.users_delta(target.uuid, role=role))


def kick(conn: CgDialogue, lobby: Lobby, body: dict[str, Any]) -> None:
    kicker = lobby.members.get(conn.account_uuid)
    target = lobby.members.get(parse_uuid(body["uuid"]) or "")
    if kicker is None or target is None or kicker.role < ROLE_ADMIN or target.role >= kicker.role:
        conn.status("gamehall:msg.lobby.no_permission")
        return
    if lobby.room_id is not None:
        conn.status("gamehall:msg.lobby.kick.in_game")
        return
    reason = body.get("reason")
    if target.peer is not None:
        target.peer.send_packet(
            Packet(
                "cg:status.message",
                {
                    "type": "warn",
                    "message": "cg:msg.lobby.kick.reason",
                    "data": {"reason": str(reason or "")},
                },
            )
        )
        target.peer.send_packet(Packet("cg:lobby.leave", {"lobby": lobby.lobby_id}))
        target.peer.move(Transition.LEFT_LOBBY)
    remove_member(conn, lobby, target)


def leave(conn: CgDialogue, lobby: Lobby) -> None:
    member = lobby.members.get(conn.account_uuid)
    if member is None:
        return
    if lobby.bridge_room is not None and conn.room_id == lobby.bridge_room and conn.session is not None:
        with contextlib.suppress(HallError):
            conn.session.leave(lobby.bridge_room)  # the browser table's seat goes too
        conn.room_id = None
    conn.send_packet(Packet("cg:lobby.leave", {"lobby": lobby.lobby_id}))
    conn.move(Transition.LEFT_LOBBY)
    remove_member(conn, lobby, member)


def drop_from_lobby(conn: CgDialogue) -> None:
    """A connection outside a game went away: it leaves its lobby (Ref)."""
    lobby = conn.directory.lobby_for(conn.account_uuid)
    if lobby is not None and lobby.room_id is None:
        member = lobby.members.get(conn.account_uuid)
        if member is not None and member.peer is conn:
            remove_member(conn, lobby, member)


# ------------------------------------------------------------------------------ chat


def chat(conn: CgDialogue, body: dict[str, Any]) -> None:
    """``gamehall:chat``: to every gamehall member of the lobby (and so of its game), in the
    hall's text form (docs/text-rule.md: line breaks as LF, other control characters as spaces)."""
    text = normalise(body["text"]).strip() if isinstance(body["text"], str) else ""
    if not text or len(text) > CHAT_MAX:
        conn.status("gamehall:msg.chat.too_long")
        return
    now = conn.clock.now()
    conn.chat_times = [t for t in conn.chat_times if now - t < CHAT_WINDOW_S]
    if len(conn.chat_times) >= CHAT_RATE:
        conn.status("gamehall:msg.chat.rate_limited")
        return
    conn.chat_times.append(now)
    lobby = conn.directory.lobby_for(conn.account_uuid)
    if lobby is None:
        return
    lobby.broadcast(
        Packet(
            registry.CHAT,
            {"sender": conn.account_uuid, "username": conn.username, "text": text, "ts": conn.wall_time()},
        )
    )

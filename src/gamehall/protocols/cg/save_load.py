"""``cg:game.save`` and ``cg:game.load`` for one connection (note §4.3, §11.21).

Save: when an ``adjourn`` vote passes, the first seat's connection to learn of it keeps the
table's state in the store (under the game id; later seats find it there and only re-put the
same state), and each gamehall seat gets ``game.save`` with a signed token before
``game.end``. Vanilla seats never get one (§9.6: the reference client crashes on it).

Load: a lobby admin sends ``game.load{game_id, data}``. After the token checks
(:mod:`.saves`), the lobby must hold the saved players (bots are interchangeable); the lobby
order is set to the saved seats, the saved rules replace the lobby's, and the game is
*preloaded*: the next start creates a table with the ``resume`` setting, which continues the
saved points and ``game_summaries`` from the next deal. The preload is dropped if the lobby no
longer matches at start.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from gamehall.protocols.cg import gamerules
from gamehall.protocols.cg.codec import Packet, parse_uuid
from gamehall.protocols.cg.lobbies import ROLE_ADMIN, Lobby, Preload
from gamehall.protocols.cg.saves import BadToken, SaveToken, make_token, read_token
from gamehall.protocols.cg.table import doppelkopf
from gamehall.rules.doppelkopf import DoppelkopfTable

if TYPE_CHECKING:
    from gamehall.protocols.cg.dialogue import CgDialogue

log = logging.getLogger(__name__)

LOAD_KEY = "gamehall:msg.game.load."


# ------------------------------------------------------------------------------ save


def save(conn: CgDialogue, game_id: str, players: list[str]) -> Packet:
    """Keep the adjourned table's state; the ``game.save`` packet with this connection's token."""
    assert conn.session is not None and conn.room_id is not None
    table = doppelkopf(conn.session.room(conn.room_id))
    saves = conn.accounts.saved_games()
    now = conn.wall_time()
    if saves.get(game_id) is None:
        saves.put(game_id, table.to_json(), now)
    lobby = conn.directory.lobby_for(conn.account_uuid)
    bots = tuple(
        seat
        for seat, uid in enumerate(players)
        if lobby is not None and uid in lobby.members and lobby.members[uid].is_bot
    )
    save = SaveToken(game_id, tuple(players), bots, now)
    token = make_token(saves.secret(), conn.accounts.server_id(), save, issued_at=now)
    return Packet("cg:game.save", {"game_id": game_id, "data": token})


# ------------------------------------------------------------------------------ load


def load(conn: CgDialogue, lobby: Lobby, body: dict[str, Any]) -> None:
    """``game.load`` from a lobby member (see the module docstring)."""
    member = lobby.members.get(conn.account_uuid)
    if member is None or member.role < ROLE_ADMIN or lobby.room_id is not None:
        conn.status("gamehall:msg.lobby.no_permission")
        return
    saves = conn.accounts.saved_games()
    try:
        save = read_token(saves.secret(), conn.accounts.server_id(), body["data"])
    except BadToken as exc:
        log.info("cg %s: game.load refused: %s", conn.wire.peer, exc)
        conn.status(LOAD_KEY + "invalid_token")
        return
    if parse_uuid(body["game_id"]) != save.game_id:
        conn.status(LOAD_KEY + "invalid_token")
        return
    order = _saved_order(lobby, save)
    if order is None:
        conn.status(LOAD_KEY + "wrong_players")
        return
    state = saves.get(save.game_id)
    if state is None:
        conn.status(LOAD_KEY + "not_found")
        return
    table = DoppelkopfTable.from_json(state)
    lobby.preload = Preload(
        table.carry_over(), tuple(None if seat in save.bots else uid for seat, uid in enumerate(save.players))
    )
    lobby.order = order
    saved_rules = gamerules.wire_rules(table.rules)
    lobby.rules.update(saved_rules)
    for peer in lobby.peers():
        change = {"gamerules": gamerules.for_flavor(saved_rules, peer.flavor), "user_order": list(order)}
        peer.send_packet(Packet("cg:lobby.change", change))
        peer.send_packet(
            Packet(
                "cg:status.message",
                {"type": "notice", "message": LOAD_KEY + "preloaded", "data": {"game_id": save.game_id}},
            )
        )


def _saved_order(lobby: Lobby, save: SaveToken) -> list[str] | None:
    """The lobby's members in the saved seat order, or ``None`` when the player set differs."""
    humans = [uid for seat, uid in enumerate(save.players) if seat not in save.bots]
    lobby_humans = [m.uuid for m in lobby.members.values() if not m.is_bot]
    lobby_bots = [m.uuid for m in lobby.members.values() if m.is_bot]
    if len(lobby.members) != 4 or sorted(humans) != sorted(lobby_humans):
        return None
    if len(lobby_bots) != len(save.bots):
        return None
    bots = iter(lobby_bots)
    return [next(bots) if seat in save.bots else uid for seat, uid in enumerate(save.players)]


def resume_setting(lobby: Lobby) -> str | None:
    """The preloaded carry-over if the lobby still seats the saved players as saved; the
    preload is used up either way."""
    preload, lobby.preload = lobby.preload, None
    if preload is None or len(lobby.order) != 4:
        return None
    for wanted, uid in zip(preload.seats, lobby.order, strict=True):
        member = lobby.members.get(uid)
        matches = member is not None and (member.is_bot if wanted is None else uid == wanted)
        if not matches:
            return None
    return preload.resume

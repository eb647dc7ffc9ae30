"""The ``game_dk`` state of one cg connection: the game start, table packets in, events out
(note §4.3, §4.4, §5, §7).

The start: the lobby's first human creates a hall room of game ``doppelkopf`` with the lobby's
rules; then every member takes a seat in ``user_order`` (humans with their own session, bots as
hall bots). While that runs, each human connection *holds* the room's deliveries and releases
them once every seat is taken, so the first ``game.start`` already knows all four uuids.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gamehall.protocols._core import HallError, served_here
from gamehall.protocols.cg import browser_tables, game_in, gamerules, save_load
from gamehall.protocols.cg.codec import Packet, parse_uuid
from gamehall.protocols.cg.game_out import GameTranslator, summaries
from gamehall.protocols.cg.lobbies import LOBBY_EXTRA, Lobby, lobby_record, rebuild_lobbies
from gamehall.protocols.cg.members import member_status, remove_member, seat_bots
from gamehall.protocols.cg.pacing import Pacing, WaitForStart, paced
from gamehall.protocols.cg.states import CgState, Transition
from gamehall.protocols.cg.table import doppelkopf
from gamehall.rules._core import Action, Event, RuleError, Seat
from gamehall.rules.doppelkopf import events as ev
from gamehall.rules.doppelkopf.actions import Accuse, CancelAccusation, PickMove, WeddingClarification

if TYPE_CHECKING:
    from gamehall.protocols.cg.dialogue import CgDialogue

log = logging.getLogger(__name__)

GAME = "doppelkopf"


def game_id_of(room_id: str) -> str:
    return uuid.uuid5(uuid.NAMESPACE_URL, f"gamehall:{room_id}").hex


# ------------------------------------------------------------------------------ start


def start_game(conn: CgDialogue, lobby: Lobby) -> None:
    """All four are ready: make the room and seat everybody (see the module docstring)."""
    humans = [m for m in (lobby.members[uid] for uid in lobby.order) if m.peer is not None]
    peers = [m.peer for m in humans]
    dialogues = [p for p in peers if isinstance(p, type(conn))]
    if not dialogues or any(d.session is None for d in dialogues):
        return
    settings = gamerules.engine_settings(lobby.rules)
    downgraded = settings.get("misplay") == "penalize" and any(d.flavor == "vanilla" for d in dialogues)
    if downgraded:
        settings["misplay"] = "refuse"
    resume = save_load.resume_setting(lobby)
    if resume is not None:
        settings["resume"] = resume
    creator = dialogues[0]
    assert creator.session is not None
    try:
        info = creator.session.create_room(
            GAME,
            settings,
            title=f"cg lobby {lobby.lobby_id[:8]}",
            extra={LOBBY_EXTRA: lobby_record(lobby)},
        )
    except HallError as exc:
        log.warning("cg lobby %s: room refused: %s", lobby.lobby_id, exc.reason)
        conn.status("gamehall:msg.lobby.start_failed")
        return
    lobby.room_id = info.room_id
    for dialogue in dialogues:
        dialogue.room_id = info.room_id
    try:
        for uid in lobby.order:
            member = lobby.members[uid]
            if member.is_bot:
                seat_bots(conn, lobby, info.room_id, member)
            else:
                owner = next(d for d in dialogues if d.account_uuid == uid)
                assert owner.session is not None
                owner.session.join(info.room_id)
    except (HallError, RuleError) as exc:
        log.warning("cg lobby %s: seating failed: %s", lobby.lobby_id, exc)
        _undo_start(dialogues, lobby, info.room_id)
        conn.status("gamehall:msg.lobby.start_failed")
        return
    # the room's events of these joins (the game start) are delivered after these packets
    for dialogue in dialogues:
        if downgraded and dialogue.flavor == "gamehall":
            dialogue.status("gamehall:msg.game.dk.misplay_downgraded", kind="notice")


def _undo_start(dialogues: list[CgDialogue], lobby: Lobby, room_id: str) -> None:
    lobby.room_id = None
    for dialogue in dialogues:
        dialogue.room_id = None
        if dialogue.session is not None:
            with contextlib.suppress(HallError):
                dialogue.session.leave(room_id)


def _seat_names(conn: CgDialogue) -> list[str]:
    if conn.session is None or conn.room_id is None:
        return []
    view = conn.session.room(conn.room_id).game.view(None)
    return [str(seat.get("name") or "") for seat in view["seats"]]


def _translator(conn: CgDialogue) -> GameTranslator:
    if conn.translator is None:
        names = _seat_names(conn)
        directory = conn.directory
        seat = None
        if conn.session is not None and conn.room_id is not None:
            seat = conn.session.seat_in(conn.room_id)

        def uuid_of(s: Seat) -> str:
            return directory.uuid_for_name(names[s]) if 0 <= s < len(names) else ""

        conn.translator = GameTranslator(seat, uuid_of, vanilla=conn.flavor == "vanilla")
    return conn.translator


def _view(conn: CgDialogue, seat: Seat | None) -> dict[str, Any]:
    assert conn.session is not None and conn.room_id is not None
    view = conn.session.room(conn.room_id).game.view(seat)
    assert isinstance(view, dict)
    return view


def game_start_packet(conn: CgDialogue) -> Packet:
    translator = _translator(conn)
    view = _view(conn, translator.seat)
    return Packet(
        "cg:game.start",
        {
            "game_type": GAME,
            "game_id": game_id_of(conn.room_id or ""),
            "player_list": [translator.uuid_of(s) for s in range(4)],
            "game_summaries": summaries(view, vanilla=conn.flavor == "vanilla"),
            "gamerules": gamerules.for_flavor(gamerules.wire_rules(view["rules"]), conn.flavor),
        },
    )


# ------------------------------------------------------------------------------ events out


def deliver(conn: CgDialogue, event: Event) -> None:
    if isinstance(event, ev.GameStarted):
        conn.translator = None
        conn.pacing = None
        conn.move(Transition.GAME_STARTED)
        conn.pacer.push(game_start_packet(conn))
        return
    if conn.state is not CgState.GAME_DK:
        browser_tables.seat_event(conn, event)  # waiting at a browser table: seats change
        return
    if _answered_for_vanilla(conn, event):
        return
    translator = _translator(conn)
    packets = translator.packets(event)
    if isinstance(event, ev.GameEnded):
        conn.pacer.hurry()  # the votes and the end go out now, not after the deal's pauses
    conn.pacer.push(*paced(packets, _pacing(conn), trick_taken=isinstance(event, ev.TrickTaken)))
    if isinstance(event, ev.GameEnded):
        if event.reason == "adjourn":
            players = [translator.uuid_of(s) for s in range(4)]
            conn.pacer.push(save_load.save(conn, game_id_of(conn.room_id or ""), players))
        reason = event.reason
        conn.pacer.push(lambda: game_over(conn, reason))


def _pacing(conn: CgDialogue) -> Pacing:
    """The room's pacing settings (read once per game)."""
    if conn.pacing is None:
        config: Mapping[str, Any] = {}
        if conn.session is not None and conn.room_id is not None:
            with contextlib.suppress(HallError):
                config = conn.session.room(conn.room_id).config
        conn.pacing = Pacing.from_config(config)
    return conn.pacing


def _answered_for_vanilla(conn: CgDialogue, event: Event) -> bool:
    """The reference client cannot answer ``wedding_clarification_trick``: a vanilla bride is
    never asked, ``foreign`` is chosen for her (§4.4). The hall delivers outside its own calls
    (its outbox), so the answer is acted at once; its events follow the ones being delivered."""
    if not (isinstance(event, ev.Asked) and event.kind == "wedding_clarification_trick"):
        return False
    if conn.flavor != "vanilla" or event.target != _translator(conn).seat:
        return False
    room_id = conn.room_id
    if conn.session is not None and room_id is not None:
        with contextlib.suppress(HallError, RuleError):
            conn.session.act(room_id, WeddingClarification("foreign"))
    return True


def game_over(conn: CgDialogue, reason: str | None) -> None:
    """The table is over (``reason`` from the engine, or ``None`` when the room just closed)."""
    if conn.state is not CgState.GAME_DK:
        conn.room_id = None
        return
    if reason in ("cancel", "left") or reason is None:
        conn.status("cg:msg.game.cancel", kind="notice")
    elif reason == "penalty_abort":
        conn.status("gamehall:msg.game.dk.penalty_abort", kind="notice")
    conn.send_packet(Packet("cg:game.end", {"next_state": "lobby"}))
    conn.move(Transition.GAME_ENDED)
    conn.translator = None
    conn.room_id = None
    lobby = conn.directory.lobby_for(conn.account_uuid)
    if lobby is None:
        conn.move(Transition.LEFT_LOBBY)
        return
    if lobby.bridge_room is not None:
        browser_tables.leave_after_game(conn, lobby)
        return
    lobby.room_id = None
    for member in list(lobby.members.values()):
        gone = member.peer.closed if member.peer is not None else not member.is_bot
        if gone and member.uuid != conn.account_uuid:
            remove_member(conn, lobby, member)  # dropped during the game: gone now
        elif member.peer is not None:
            member.ready = False
    conn.send_packet(
        Packet("cg:lobby.change", {"users": {u: lobby.user_entry(m) for u, m in lobby.members.items()}})
    )


# ------------------------------------------------------------------------------ packets in


def handle(conn: CgDialogue, name: str, body: dict[str, Any]) -> None:
    if name == "cg:game.start":
        conn.pacer.start_received()  # "I have created all cards": the deal may go on
        return
    if conn.session is None or conn.room_id is None:
        return
    seat = conn.session.seat_in(conn.room_id)
    if seat is None:
        log.info("cg %s: %s without a seat: dropped", conn.wire.peer, name)
        return
    view = _view(conn, seat)
    try:
        action = _action(conn, name, body, seat, view)
    except game_in.Dropped as exc:
        log.info("cg %s: %s dropped: %s", conn.wire.peer, name, exc)
        return
    except game_in.Refused as exc:
        conn.session.refused(conn.room_id, exc.message)
        _refuse(conn, exc.message)
        return
    try:
        conn.session.act(conn.room_id, action)
    except RuleError as exc:
        if exc.code == "complaint.disabled" and conn.flavor == "vanilla":
            return
        _refuse(conn, game_in.refusal_key(exc.code))


def _refuse(conn: CgDialogue, message: str) -> None:
    """A refusal, behind the table packets the pacer still holds (it answers the latest state)."""
    conn.pacer.push(Packet("cg:status.message", {"type": "warn", "message": message, "data": {}}))


def _action(conn: CgDialogue, name: str, body: dict[str, Any], seat: Seat, view: dict[str, Any]) -> Action:
    rnd = view.get("round") or {}
    if name == "cg:game.dk.announce":
        return game_in.announce(body)
    if name == "cg:game.dk.card.intent":
        hand = {card["id"] for card in rnd.get("hand", [])}
        return game_in.card_intent(body, hand.__contains__)
    translator = _translator(conn)
    seats = {translator.uuid_of(s): s for s in range(4)}
    action = game_in.complaint(body, seats.get)
    if view["rules"].get("misplay") != "penalize":
        raise game_in.Refused("gamehall:msg.game.dk.complaint.disabled")
    if isinstance(action, (PickMove, CancelAccusation)):
        pending = rnd.get("complaint")
        accused = seats.get(parse_uuid(body["accused"]) or "")
        if pending is None or pending["accused"] != accused or pending["kind"] != body["type"]:
            raise game_in.Refused("gamehall:msg.game.dk.complaint.invalid_move")
    elif isinstance(action, Accuse) and rnd.get("complaint") is not None:
        raise game_in.Refused("gamehall:msg.game.dk.complaint.busy")
    return action


# ------------------------------------------------------------------------------ rejoin


def rejoin(conn: CgDialogue) -> None:
    """After a login: if this account holds a seat in a running game, take it back (§5.2).
    After a restart the lobby is first rebuilt from its room (:func:`.lobbies.rebuild_lobbies`);
    the seat is found by the account's uuid, so only that account can retake it."""
    session = conn.session
    if session is not None:  # only rooms whose game is here (on a node: not another node's)
        here = [info for info in conn.hall.rooms(GAME) if served_here(session, info.room_id)]
        rebuild_lobbies(conn.directory, here)
    lobby = conn.directory.lobby_for(conn.account_uuid)
    if lobby is None or lobby.room_id is None or conn.session is None:
        return
    member = lobby.members.get(conn.account_uuid)
    if member is None:
        return
    room_id = lobby.room_id
    try:
        rules = conn.session.room(room_id).game.view(None)["rules"]
    except HallError:  # the game ended while this seat was away: the lobby goes on without it
        lobby.room_id = None
        remove_member(conn, lobby, member)
        return
    if conn.flavor == "vanilla" and rules.get("misplay") == "penalize":
        return
    member.peer = conn
    conn.move(Transition.ENTERED_LOBBY)
    conn.send_packet(Packet("cg:lobby.join", {"lobby": lobby.lobby_id}))
    for other in lobby.members.values():
        conn.send_packet(member_status(other))
    conn.send_packet(lobby.full_change(conn.flavor))
    conn.room_id = room_id
    try:
        conn.session.join(room_id)
    except (HallError, RuleError) as exc:
        log.info("cg %s: rejoin refused: %s", conn.wire.peer, exc)
        conn.room_id = None
        return
    # the resync below shows the room as it is now: the join's own events are not sent
    conn.resynced = (room_id, conn.session.room(room_id).last_seq)
    conn.translator = None
    conn.move(Transition.GAME_STARTED)
    conn.send_packet(game_start_packet(conn))
    _resync(conn)


def _slots(conn: CgDialogue, translator: GameTranslator) -> list[tuple[str, str, bool]]:
    """Where every card of the round lies now, as (card id, slot, value shown to this seat).

    The table's view says where each card lies and which values this seat may see (§4.4:
    :func:`gamehall.rules.doppelkopf.views.card_places`); the translator learns those values."""
    assert conn.session is not None and conn.room_id is not None
    placed: list[tuple[str, str, bool]] = []
    for place in doppelkopf(conn.session.room(conn.room_id)).card_places(translator.seat):
        slot = "table" if place.seat is None else translator.slot(place.place, place.seat)
        if place.value is not None:
            translator.values[place.card] = place.value
        placed.append((place.card, slot, place.value is not None))
    return placed


def _resync(conn: CgDialogue) -> None:
    """The current round rebuilt for a returning seat (§5.2): creation transfers, then every
    slot from the stack, the round's fields (private ones included), points and pips, and the
    pending question or turn."""
    translator = _translator(conn)
    view = _view(conn, translator.seat)
    rnd = view.get("round")
    if rnd is None:
        return
    translator.player_list = list(rnd["player_list"])
    uuids = [translator.uuid_of(s) for s in rnd["player_list"]]
    send = conn.pacer.push
    send(Packet("cg:game.dk.round.change", {"round": rnd["round"], "phase": "loading", "player_list": uuids}))
    placed = _slots(conn, translator)
    for card, _slot, _shown in placed:
        send(translator.transfer(card, "stack", shown=False))
    send(WaitForStart(_pacing(conn).loading_timeout_s))
    for card, slot, shown in placed:
        send(translator.transfer(card, slot, shown=shown))
    body: dict[str, Any] = {"phase": rnd["phase"] if rnd["phase"] != "counting" else "tricks"}
    if rnd.get("game_type"):
        body["game_type"] = rnd["game_type"]
    send(Packet("cg:game.dk.round.change", body))
    if "rebtn_lbl" in rnd:
        translator.rebtn_lbl, translator.pigbtn_lbl = rnd["rebtn_lbl"], rnd["pigbtn_lbl"]
        labels = {"rebtn_lbl": rnd["rebtn_lbl"], "pigbtn_lbl": rnd["pigbtn_lbl"]}
        send(Packet("cg:game.dk.round.change", labels))
    for seat in range(4):
        board = {
            "player": translator.uuid_of(seat),
            "points": view["points"][seat],
            "point_change": 0,
            "pips": rnd["eyes"][seat],
            "pip_change": 0,
        }
        send(Packet("cg:game.dk.scoreboard", board))
    if rnd.get("question") and translator.seat is not None:
        question = {"type": rnd["question"], "target": translator.uuid_of(translator.seat)}
        send(Packet("cg:game.dk.question", question))
    current, trick = rnd.get("current_player"), rnd.get("trick")
    if rnd["phase"] == "tricks" and current is not None and trick is not None:
        turn = {
            "current_trick": trick["number"],
            "total_tricks": rnd["total_tricks"],
            "current_player": translator.uuid_of(current),
            **translator.buttons_state(current),
        }
        send(Packet("cg:game.dk.turn", turn))

"""The requests of a logged-in JDuplicate user (note §4.2, §5), one function each.

Every handler checks what the note checks, in the note's order, and raises
:class:`~.refusals.Refusal` before anything changes; the engine's and the hall's refusals are
translated the same way (:func:`~.refusals.rule_refusal`). The messages each success sends,
and to whom, follow the trigger table of note §4.2.

Games are hall rooms of game ``words`` created with the predefined game's code
(``{"preset": code, "time_per_turn": t, "max_players": n}``); the room's title is the game's
name. Room events reach each player through :meth:`.dialogue.JdDialogue.deliver`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from gamehall.protocols._core import HallError, HallPort, Session, served_here
from gamehall.protocols.jduplicate import messages as m
from gamehall.protocols.jduplicate.errors import ErrorCode as E
from gamehall.protocols.jduplicate.lobby import (
    MAX_GAMES,
    MAX_TIME_PER_TURN,
    Departure,
    JdGame,
    min_time_per_turn,
)
from gamehall.protocols.jduplicate.outbound import (
    board,
    board_type,
    engine_tile,
    letter_set,
)
from gamehall.protocols.jduplicate.refusals import (
    DESCRIPTION_MAX,
    FORBIDDEN_IN_NAMES,
    Refusal,
    check_chat,
    check_description,
    check_game_name,
    hall_refusal,
    reason_text,
    rule_refusal,
)
from gamehall.protocols.jduplicate.table import words
from gamehall.rules._core import Event, RuleError, SeatJoined
from gamehall.rules.words import ChangeLetters, Moves, StartTurn
from gamehall.rules.words import events as ev
from gamehall.rules.words.settings import PRESETS

if TYPE_CHECKING:
    from gamehall.protocols.jduplicate.dialogue import JdDialogue

GAME_ID = "words"


def _session(d: JdDialogue) -> Session:
    if d.session is None:
        raise Refusal(E.BAD_IDENTIFICATION)
    return d.session


# ---------------------------------------------------------------------------- chat


def chat(d: JdDialogue, message: m.ChatRequest) -> None:
    """CHAT to the sender's room: the game's players, or the hall's users."""
    text = check_chat(message.text, E.EMPTY_CHAT)
    game = d.game
    session = _session(d)
    try:
        if game is None:
            session.shout(text)
        elif game.room_open:
            session.chat(game.room_id, text)
        else:
            for member in game.everyone_inside():
                member.send(m.Chat(d.user_name, text))
    except HallError as error:
        raise _chat_refusal(error) from None


def chat_action(d: JdDialogue, message: m.ChatActionRequest) -> None:
    action = check_chat(message.action, E.EMPTY_CHAT_ACTION)
    out = m.ChatAction(d.user_name, action)
    game = d.game
    if game is None:
        d.lobby.send_hall(out)
    else:
        for member in game.everyone_inside():
            member.send(out)


def whisper(d: JdDialogue, message: m.WhisperRequest) -> None:
    to = message.to.strip()
    if not to:
        raise Refusal(E.NO_WHISPER_ADDRESSEE)
    text = check_chat(message.text, E.EMPTY_WHISPER)
    try:
        _session(d).whisper(to, text)
    except HallError as error:
        if error.code == "no_such_user":
            raise Refusal(E.UNKNOWN_ADDRESSEE, to) from None
        raise _chat_refusal(error) from None


def _chat_refusal(error: HallError) -> Refusal:
    if error.code == "rate_limited":
        return Refusal(E.UNKNOWN_ERROR, "chat rate limit")
    if error.code == "chat_invalid":
        return Refusal(E.BAD_CHAT)
    return hall_refusal(error)


# ---------------------------------------------------------------------------- games


def create_game(d: JdDialogue, message: m.CreateGameRequest) -> None:
    """GAMECREATED, GAMEINFOS, LETTERSET, BOARDTYPE, BOARD to the creator; GAMECREATED and
    GAMEINFOS to everyone else; HNPLAYERJOINED to the hall."""
    if d.game is not None:
        raise Refusal(E.ALREADY_IN_A_GAME)
    lobby = d.lobby
    name = check_game_name(message.name)
    if lobby.game(name) is not None:
        raise Refusal(E.GAME_EXISTS, name)
    time = message.timeperturn
    if time is None:
        raise Refusal(E.NO_TIME_PER_TURN)
    if time < min_time_per_turn(d.hall):
        raise Refusal(E.TIME_PER_TURN_TOO_SHORT, str(time))
    if time > MAX_TIME_PER_TURN:
        raise Refusal(E.TIME_PER_TURN_TOO_LONG, str(MAX_TIME_PER_TURN))
    code = message.predefgame.strip()
    if not code:
        raise Refusal(E.NO_PREDEFINED_GAME)
    preset = PRESETS.get(code)
    if preset is None:
        raise Refusal(E.UNKNOWN_PREDEFINED_GAME, code)
    players = message.maxplayers
    if players is None:
        raise Refusal(E.NO_MAX_PLAYERS)
    if players < 1:
        raise Refusal(E.MAX_PLAYERS_TOO_SMALL, str(players))
    if players > preset.max_players:
        raise Refusal(E.MAX_PLAYERS_ABOVE_CAP, str(preset.max_players))
    description = check_description(message.description)
    if len(lobby.games) >= MAX_GAMES:
        raise Refusal(E.TOO_MANY_GAMES)
    session = _session(d)
    settings: dict[str, Any] = {"preset": code, "time_per_turn": time, "max_players": players}
    try:
        info = session.create_room(GAME_ID, settings, title=name, extra={"description": description})
    except HallError as error:
        raise hall_refusal(error) from None
    game = JdGame(
        name=name,
        room_id=info.room_id,
        preset=code,
        timeperturn=time,
        maxplayers=players,
        description=description,
        table=words(session.room(info.room_id)),
    )
    lobby.games[name.casefold()] = game
    try:
        _sit_down(d, session, game)
    except Refusal:
        del lobby.games[name.casefold()]
        raise
    d.send(m.GameCreated(name))
    _send_snapshot(d, game)
    _after_room_events(d, lambda: _drop_held(d))  # the snapshot shows what the join did
    lobby.send_all(m.GameCreated(name), but=d)
    lobby.send_all(lobby.game_infos(game), but=d)
    lobby.send_hall(m.HnPlayerJoined(d.user_name, name), but=d)


def adopt_foreign_games(d: JdDialogue) -> None:
    """List the open ``words`` rooms other protocols created as games, under their title when
    it is a valid, free game name, else under their room id; forget such games once their room
    is gone and no JDuplicate player is in them. **Decision (ours).**

    A room with a password stays hidden: JOINGAMEREQUEST carries a game name only (note §5,
    row 8), so a JDuplicate client could never give the password."""
    lobby = d.lobby
    session = d.session
    if session is None:
        return
    rooms = {info.room_id: info for info in lobby.hall.rooms(GAME_ID)}
    gone = [
        g for g in lobby.games.values() if g.foreign and g.room_id not in rooms and not g.everyone_inside()
    ]
    for game in gone:
        del lobby.games[game.name.casefold()]
    known = {g.room_id for g in lobby.games.values()}
    for info in rooms.values():
        if info.room_id in known or info.has_password or info.finished:
            continue
        if not served_here(session, info.room_id):
            continue  # listed, but another node of the hall holds the game
        try:
            name = check_game_name(info.title)
        except Refusal:
            name = info.room_id
        if lobby.game(name) is not None:
            name = info.room_id
        extra = info.extra.get("description")
        description = "".join(ch for ch in str(extra or "") if ch not in FORBIDDEN_IN_NAMES)[:DESCRIPTION_MAX]
        config = info.config
        time, players = config.get("time_per_turn"), config.get("max_players")
        lobby.games[name.casefold()] = JdGame(
            name=name,
            room_id=info.room_id,
            preset=str(config.get("preset", "")),
            timeperturn=time if isinstance(time, int) else 0,
            maxplayers=players if isinstance(players, int) else info.max_seats,
            description=description,
            table=words(session.room(info.room_id)),
            foreign=True,
        )


def named_game(d: JdDialogue, name: str) -> JdGame | None:
    """The game a JOINGAMEREQUEST names. A game the lobby lists is checked on its own (a
    foreign game's room looked up by id); only a name the lobby does not list, or a foreign
    game whose room is gone, costs a look at every ``words`` room
    (:func:`adopt_foreign_games`, as the game list at login does)."""
    game = d.lobby.game(name)
    if game is not None and (not game.foreign or _room_live(d.lobby.hall, game.room_id)):
        return game
    adopt_foreign_games(d)
    return d.lobby.game(name)


def _room_live(hall: HallPort, room_id: str) -> bool:
    info = hall.room_info(room_id)
    return info is not None and info.game == GAME_ID


def _game_in_room(d: JdDialogue, room_id: str) -> JdGame | None:
    return next((g for g in d.lobby.games.values() if g.room_id == room_id), None)


def join_game(d: JdDialogue, message: m.JoinGameRequest) -> None:
    """PLAYERJOINED, GAMEINFOS, LETTERSET, BOARDTYPE, BOARD to the joiner, then (running game)
    SCORES, STARTOFTURN, HAND; PLAYERJOINED to the players; HNPLAYERJOINED to the hall;
    GAMEINFOS to everyone else.

    A full game is 40003 and a started game that forbids late joining (scrabble) 40005, as
    the note says: the wire has no way to watch (note §5 has no such request), so a
    JDuplicate user watches games in the browser. **Decision (ours)**, docs/recovery.md."""
    if d.game is not None:
        raise Refusal(E.JOIN_ALREADY_IN_A_GAME)
    name = message.game.strip()
    if not name:
        raise Refusal(E.NO_JOIN_GAME_NAME)
    game = named_game(d, name)
    if game is None:
        raise Refusal(E.UNKNOWN_GAME, name)
    if d.user_name.casefold() in game.kicked:
        raise Refusal(E.KICKED_FROM_GAME, game.name)
    if game.state is m.GameState.GAMEOVER or not game.room_open:
        raise Refusal(E.GAME_OVER, game.name)
    _sit_down(d, _session(d), game)
    _back_in_game(d, game)


def rejoin_held_seat(d: JdDialogue, room_id: str) -> bool:
    """After a login under the name of a seat the hall holds (a dropped connection, or a
    server restart): back into that game with its total (note §4.2, "Decision (ours),
    2026-12"): PLAYERJOINED with its own name, GAMEINFOS, LETTERSET, BOARDTYPE, BOARD, then
    SCORES and, while a turn is open, STARTOFTURN and its HAND (the engine's resync).
    Returns whether it worked (a refusal leaves the user in the hall)."""
    game = _game_in_room(d, room_id)
    if game is None:  # a room another protocol opened, not listed here yet
        adopt_foreign_games(d)
        game = _game_in_room(d, room_id)
    if game is None or d.session is None:
        return False
    try:
        _sit_down(d, d.session, game)
    except Refusal:
        return False
    seat = d.session.seat_in(room_id)
    # The hall's catch-up differs by how the seat was held (after a restart: the engine's
    # resync; after a drop: only the engine's SeatBack, which has no wire form), so the
    # player is brought up to date from the engine's resync here, the same either way.
    catch_up = list(game.table.resync(seat)) if seat is not None else []
    _back_in_game(d, game, catch_up)
    return True


def _back_in_game(d: JdDialogue, game: JdGame, catch_up: list[Event] | None = None) -> None:
    """The joiner's messages after :func:`_sit_down` (a join or a rejoin), then, once the
    room's events of the join are delivered, those events (or ``catch_up`` instead) and the
    others' messages."""
    d.send(m.PlayerJoined(d.user_name))
    _send_snapshot(d, game)
    _after_room_events(d, lambda: _caught_up(d, game, catch_up))


def _caught_up(d: JdDialogue, game: JdGame, catch_up: list[Event] | None) -> None:
    held = _stop_holding(d)
    for event in held if catch_up is None else catch_up:
        if isinstance(event, SeatJoined) and event.name.casefold() == d.user_name.casefold():
            continue
        if isinstance(event, ev.GridDealt):
            continue  # the snapshot's BOARD already shows the grid
        d.render(game, event)
    lobby = d.lobby
    lobby.send_hall(m.HnPlayerJoined(d.user_name, game.name), but=d)
    lobby.send_all(lobby.game_infos(game), but=d)


def _sit_down(d: JdDialogue, session: Session, game: JdGame) -> None:
    """Take a seat in the game's room. The room's events of this join are held in ``d.held``
    until the caller is done with its own messages (:func:`_stop_holding`).

    Raises:
        Refusal: the engine or the hall refused the seat (nothing changed).
    """
    d.held = []
    d.joining = True
    try:
        session.join(game.room_id)
    except RuleError as error:
        _stop_holding(d)
        raise rule_refusal(error, game_name=game.name) from None
    except HallError as error:
        _stop_holding(d)
        raise hall_refusal(error, game_name=game.name) from None
    game.members.append(d)
    d.game = game


def _stop_holding(d: JdDialogue) -> list[Event]:
    """The join's held room events; later events are rendered as they come."""
    held, d.held, d.joining = d.held, [], False
    return held


def _departed(game: JdGame, key: str) -> None:
    """The room's SeatLeft of ``key`` was rendered with its departure: forget it."""
    game.departing.pop(key, None)


def _drop_held(d: JdDialogue) -> None:
    _stop_holding(d)


def _after_room_events(d: JdDialogue, call: Callable[[], None]) -> None:
    """``call`` once the room events this connection's hall calls caused are delivered (the
    hall delivers after its calls have returned: Session.after_deliveries); at once without
    a session."""
    if d.session is None:
        call()
    else:
        d.session.after_deliveries(call)


def _send_snapshot(d: JdDialogue, game: JdGame) -> None:
    d.send(d.lobby.game_infos(game))
    d.send(letter_set(game.table.letters))
    d.send(board_type(game.table))
    d.send(board(game.table))


def _my_game(d: JdDialogue, code: E) -> JdGame:
    game = d.game
    if game is None:
        raise Refusal(code)
    return game


def _operator_only(d: JdDialogue, game: JdGame) -> None:
    if d.lobby.operator_of(game).casefold() != d.user_name.casefold():
        raise Refusal(E.NOT_OPERATOR)


def start_game(d: JdDialogue, message: m.StartGameRequest) -> None:
    """STARTGAME and GAMEINFOS to the players (from their room events), turn 1 opens;
    GAMEINFOS to everyone else."""
    game = _my_game(d, E.NOT_IN_A_GAME)
    _operator_only(d, game)
    if game.state is not m.GameState.WAITING or not game.room_open:
        raise Refusal(E.GAME_ALREADY_RUNNING)
    try:
        _session(d).start(game.room_id)
    except RuleError as error:
        raise rule_refusal(error, game_name=game.name) from None
    except HallError as error:
        raise hall_refusal(error, game_name=game.name) from None
    infos = d.lobby.game_infos(game)
    for user in d.lobby.everyone():
        if user.game is not game:
            user.send(infos)


def _act(d: JdDialogue, game: JdGame, action: Any) -> None:
    if not game.room_open:
        raise Refusal(E.GAME_NOT_IN_PROGRESS)
    try:
        _session(d).act(game.room_id, action)
    except RuleError as error:
        raise rule_refusal(error, game_name=game.name) from None
    except HallError as error:
        raise hall_refusal(error, game_name=game.name) from None


def moves(d: JdDialogue, message: m.Moves) -> None:
    """A move (duplicate, scrabble) or one word's path (boggle); errors at once (note §7)."""
    game = _my_game(d, E.MOVES_NOT_IN_A_GAME)
    _act(d, game, Moves(tuple(engine_tile(tile) for tile in message.tiles)))


def change_letters(d: JdDialogue, message: m.ChangeLetters) -> None:
    game = _my_game(d, E.MOVES_NOT_IN_A_GAME)
    _act(d, game, ChangeLetters(tuple(message.letters)))


def start_turn(d: JdDialogue, message: m.StartTurnRequest) -> None:
    """Boggle: the operator opens the next round after WAITINGFORSTARTTURN."""
    game = _my_game(d, E.NOT_IN_A_GAME)
    _operator_only(d, game)
    if not game.room_open:
        raise Refusal(E.NO_TURN_WAITING)
    try:
        _session(d).act(game.room_id, StartTurn())
    except RuleError as error:
        refusal = rule_refusal(error, game_name=game.name)
        if refusal.code not in (E.NOT_OPERATOR, E.NO_TURN_WAITING):
            refusal = Refusal(E.NO_TURN_WAITING)
        raise refusal from None


def board_type_request(d: JdDialogue, message: m.BoardTypeRequest) -> None:
    game = _my_game(d, E.NOT_IN_A_GAME)
    d.send(board_type(game.table))


def kick(d: JdDialogue, message: m.KickRequest) -> None:
    """KICK to the players (the kicked one included), HALLUSERLIST to the kicked player,
    HNPLAYERLEFT to the hall, GAMEINFOS to everyone."""
    game = _my_game(d, E.NOT_IN_A_GAME)
    _operator_only(d, game)
    kicked = message.kicked.strip()
    if not kicked:
        raise Refusal(E.NO_PLAYER_TO_KICK)
    if kicked.casefold() == d.user_name.casefold():
        raise Refusal(E.CANNOT_KICK_YOURSELF)
    player = next((p for p in game.players() if p.casefold() == kicked.casefold()), None)
    if player is None:
        raise Refusal(E.PLAYER_NOT_IN_GAME, kicked)
    reason = reason_text(message.reason)
    lobby = d.lobby
    target = lobby.users.get(player.casefold())
    if target is not None and target.game is game:
        target.kicked_out(game, d.user_name, reason)
    else:  # a player of another protocol (browser, hall bot): the hall removes the seat
        seat = next(s for s, n in game.table.seat_names().items() if n == player)
        game.departing[player.casefold()] = Departure(reason, d.user_name)
        try:
            _session(d).kick(game.room_id, seat)
        except HallError as error:
            game.departing.pop(player.casefold(), None)
            raise hall_refusal(error, game_name=game.name) from None
        game.kicked.add(player.casefold())  # HNPLAYERLEFT and GAMEINFOS follow the room's SeatLeft
        # the SeatLeft is rendered as this KICK when it is delivered, after this call
        _after_room_events(d, partial(_departed, game, player.casefold()))


def leave_game(d: JdDialogue, message: m.LeaveGameRequest) -> None:
    game = _my_game(d, E.NOT_IN_A_GAME)
    depart(d, game, reason_text(message.reason))


def depart(
    d: JdDialogue,
    game: JdGame,
    reason: str,
    *,
    kicker: str | None = None,
    gone: bool = False,
    seated: bool = True,
) -> None:
    """``d`` leaves ``game``: by LEAVEGAMEREQUEST, a kick (``kicker``), or because the
    connection is ``gone``. ``seated=False`` when the hall already released the seat.

    The leaver gets PLAYERLEFT (or KICK) then HALLUSERLIST; the players get the same from
    their room events; the hall gets HNPLAYERLEFT; everyone gets GAMEINFOS, and GAMEENDED
    when the game is now empty (note §4.2).
    """
    lobby = d.lobby
    key = d.user_name.casefold()
    kicked_by = kicker if kicker else None
    departure = Departure(reason, kicked_by)
    notice: m.ServerMessage = (
        m.Kick(d.user_name, kicked_by, reason) if kicked_by is not None else m.PlayerLeft(d.user_name, reason)
    )
    if kicked_by is not None:
        game.kicked.add(key)
    if not gone:
        d.send(notice)
    game.departing[key] = departure
    if game.room_open and seated and d.session is not None:
        with contextlib.suppress(HallError):  # the room is already gone
            d.session.leave(game.room_id)
    elif not game.room_open:
        for member in game.everyone_inside():
            if member is not d:
                member.send(notice)
    if d in game.members:
        game.members.remove(d)
    d.game = None

    def after_the_seat_left() -> None:
        # the players have had the room's SeatLeft, rendered with ``departure``
        game.departing.pop(key, None)
        if not gone:
            d.send(m.HallUserList(lobby.hall_user_names()))
        lobby.send_hall(m.HnPlayerLeft(d.user_name, game.name), but=d)
        lobby.broadcast_gameinfos(game)
        lobby.remove_if_empty(game)

    _after_room_events(d, after_the_seat_left)


HANDLERS: dict[type, Callable[[JdDialogue, Any], None]] = {
    m.ChatRequest: chat,
    m.ChatActionRequest: chat_action,
    m.WhisperRequest: whisper,
    m.CreateGameRequest: create_game,
    m.JoinGameRequest: join_game,
    m.StartGameRequest: start_game,
    m.Moves: moves,
    m.ChangeLetters: change_letters,
    m.StartTurnRequest: start_turn,
    m.BoardTypeRequest: board_type_request,
    m.KickRequest: kick,
    m.LeaveGameRequest: leave_game,
}
"""The request handlers of a logged-in user, by message type."""

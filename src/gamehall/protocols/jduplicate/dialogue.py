"""One JDuplicate connection: login, the hall, games, and the rules of the wire (note §2.5, §4).

The server makes one :class:`JdDialogue` (:mod:`.spec`) per accepted TCP connection on the port
and feeds it bytes. The dialogue decodes frames (:class:`~.codec.JDuplicateCodec`: the first
frame picks 0.2 or 1.0), answers through its :class:`~gamehall.protocols._core.Wire`, and is
the hall's :class:`~gamehall.protocols._core.Listener` for its user.

States (note §4.1)::

    IDENTIFYING --PLAYERNAME ok + CLIENTTYPE ok, either order--> HALL <--> IN GAME
         |                                                        |
         +------------- DISCONNECT | EOF | 99004 | 99005 ----------+--> CLOSED

- **IDENTIFYING**: PLAYERNAME (reserves the name: the hall login happens here), CLIENTTYPE
  (the protocol must be the frame's syntax) and DISCONNECT; anything else is 99003.
- **HALL / IN GAME**: every request of note §5. The hall-side requests (chat, whisper,
  create, join) and the game-side ones (start, moves, kick, leave...) are in
  :mod:`.requests`; how engine events become messages is :mod:`.outbound`; the shared list of
  users and games is :mod:`.lobby`.

The wire rules that need a clock are here: the idle timeout (3600 s without a frame: 99005
and close) and the login timeout (60 s: 99005 and close). The server's own idle timeout is
off for this protocol (:data:`IDLE_TIMEOUT_S`), since the note words its own. The note's
flood limit (50 frames or 64 KiB in 10 s: 99004 and close) became the server's throttle: a
fast client is slowed by TCP back-pressure, never closed (docs/transport.md,
Decision (ours)).

Watching a game: the note has no spectator on the wire, so JOINGAMEREQUEST for a full game is
40003 and for a started scrabble game 40005 (note §5); JDuplicate users watch in the browser.
**Decision (ours)** (docs/recovery.md). A browser game with a password is not listed:
JOINGAMEREQUEST has no field for a password (note §5), so no JDuplicate client could enter it.

A dropped connection (EOF or reset, not DISCONNECT) in a running game holds the seat for the
room's grace; PLAYERNAME with that name during the grace logs in and puts the player back into
its game with its total (note §4.2, "Decision (ours), 2026-12"; docs/recovery.md). After a
server restart every seat of a running game is held that way.

The hall calls the listener methods only after its own calls have returned (its outbox, see
:class:`~gamehall.protocols._core.Listener`), so they may call the session at once. A request
whose answer must follow the room events it caused (a join's catch-up, a departure's
HALLUSERLIST and GAMEINFOS) finishes in ``Session.after_deliveries``.
"""

from __future__ import annotations

import enum
import logging
from typing import Final

from gamehall.protocols._core import (
    NEED_DATA,
    UNLIMITED,
    Cancellable,
    ChatSaid,
    CloseReason,
    Delivery,
    HallError,
    HallPort,
    Notice,
    Session,
    Wire,
)
from gamehall.protocols.jduplicate import messages as m
from gamehall.protocols.jduplicate import requests
from gamehall.protocols.jduplicate.codec import JDuplicateCodec
from gamehall.protocols.jduplicate.errors import ErrorCode, WireError
from gamehall.protocols.jduplicate.framing import FrameTooLong
from gamehall.protocols.jduplicate.lobby import (
    MAX_USERS,
    SERVER_NAME,
    WELCOME_TEXT,
    JdGame,
    JdLobby,
    JdServices,
)
from gamehall.protocols.jduplicate.outbound import predef_games, table_messages
from gamehall.protocols.jduplicate.refusals import Refusal, check_player_name, reason_text
from gamehall.rules._core import Event, SeatJoined, SeatLeft
from gamehall.rules.words import events as ev

log = logging.getLogger(__name__)

IDLE_TIMEOUT_S: Final = 0.0
"""The server's generic idle timeout, off: the dialogue applies the note's own (99005)."""

IDLE_S: Final = 3600.0
LOGIN_S: Final = 60.0
SERVER_TYPE: Final = "JDuplicate"
SERVER_VERSION: Final = "0.6"
"""SERVERTYPE's fixed strings, so that original clients accept the server (note §6)."""

LOGIN_COMMANDS: Final = frozenset({"PLAYERNAME", "CLIENTTYPE", "DISCONNECT"})


class State(enum.Enum):
    IDENTIFYING = "identifying"
    LOGGED_IN = "logged_in"
    CLOSED = "closed"


class JdDialogue:
    """The JDuplicate protocol for one TCP connection (see the module docstring)."""

    def __init__(
        self,
        services: JdServices,
        wire: Wire,
        *,
        idle_s: float = IDLE_S,
        login_s: float = LOGIN_S,
    ) -> None:
        self.hall: HallPort = services.hall
        self.wire = wire
        self.clock = clock = services.clock
        self.lobby: JdLobby = services.lobby
        self.codec = JDuplicateCodec()
        self.state = State.IDENTIFYING
        self.session: Session | None = None
        self._name: str | None = None
        self._client_ok = False
        self.game: JdGame | None = None
        """The game this user is in (``None``: in the hall)."""
        self._held_room: str | None = None
        """The room holding a seat for this name at PLAYERNAME (rejoined at login)."""
        self._idle_s = idle_s
        self._last_frame = clock.now()
        self._idle_timer: Cancellable | None = None
        self._login_timer: Cancellable | None = (
            clock.call_later(login_s, self._login_expired) if login_s > 0 else None
        )
        self._arm_idle()
        self.joining = False
        self.held: list[Event] = []
        self._quit_reason = ""

    # ------------------------------------------------------------------ Member

    @property
    def user_name(self) -> str:
        return self._name or ""

    def send(self, message: m.ServerMessage) -> None:
        """Write one message (never a frame over 65535 bytes: 99999 instead, note §2.5)."""
        if self.state is State.CLOSED:
            return
        self.wire.send(self._encode(message))

    def _encode(self, message: m.ServerMessage) -> bytes:
        try:
            return self.codec.encode(message)
        except ValueError as exc:  # too long, or a name from another protocol 0.2 cannot carry
            kind = type(message).__name__
            log.warning("JDuplicate %s (%s): %s not sent: %s", self.wire.peer, self._name, kind, exc)
            reason = "message too long" if isinstance(exc, FrameTooLong) else "message not representable"
            return self.codec.encode(m.Error(int(ErrorCode.UNKNOWN_ERROR), reason))

    def _table_frames(self, game: JdGame, event: Event) -> tuple[bytes, ...]:
        """The frames of a table event's messages (note §6), in this connection's syntax."""
        lobby = self.lobby
        messages = table_messages(
            event, game_name=game.name, departing=game.departing, seconds_left=lambda: lobby.time_left(game)
        )
        return tuple(self._encode(message) for message in messages)

    def refuse(self, refusal: Refusal) -> None:
        self.send(refusal.to_message())

    def kicked_out(self, game: JdGame, kicker: str, reason: str) -> None:
        """The operator kicked this player (another connection's KICKREQUEST)."""
        if self.game is game:
            requests.depart(self, game, reason, kicker=kicker)

    # ------------------------------------------------------------------ input

    def data_received(self, data: bytes) -> None:
        """Bytes from the client: frames in order."""
        self.receive_data(data)
        self.handle_buffered(UNLIMITED)

    def receive_data(self, data: bytes) -> None:
        """Buffer bytes; the server calls :meth:`handle_buffered` to pace the handling."""
        if self.state is not State.CLOSED:
            self.codec.receive_data(data)

    def handle_buffered(self, limit: int) -> int:
        """Handle up to ``limit`` buffered frames (or framing errors); returns how many.

        There is no frame-count flood limit: the server throttles a fast client instead of
        closing it (docs/transport.md, "Flood", Decision (ours)); only a frame that
        cannot be valid (over ``max_inbound_frame``) ends the connection, with 99004.
        """
        handled = 0
        while handled < limit and self._open():
            try:
                message = self.codec.next_message()
            except WireError as error:
                handled += 1
                self._last_frame = self.clock.now()
                self._bad_frame(error)
                continue
            if message is NEED_DATA:
                break
            handled += 1
            self._last_frame = self.clock.now()
            self._handle_safely(message)
        return handled

    def _open(self) -> bool:
        return self.state is not State.CLOSED

    def _bad_frame(self, error: WireError) -> None:
        if not error.recoverable:
            self._fatal(error.number, "Excess flood")
            return
        before_login = self.state is State.IDENTIFYING
        if before_login and error.command is not None and error.command not in LOGIN_COMMANDS:
            self.send(m.Error(int(ErrorCode.BAD_IDENTIFICATION)))
            return
        self.send(error.to_message())

    def _handle_safely(self, message: object) -> None:
        try:
            self._handle(message)
        except Refusal as refusal:
            self.refuse(refusal)
        except Exception:
            log.exception("JDuplicate %s (%s): failed on %r", self.wire.peer, self._name, message)
            self.send(m.Error(int(ErrorCode.UNKNOWN_ERROR), "internal error"))

    def _handle(self, message: object) -> None:
        if isinstance(message, m.Disconnect):
            self._quit_reason = reason_text(message.reason)
            self.close()
            return
        if isinstance(message, m.PlayerName):
            self._player_name(message)
            return
        if isinstance(message, m.ClientType):
            self._client_type(message)
            return
        if self.state is not State.LOGGED_IN:
            raise Refusal(ErrorCode.BAD_IDENTIFICATION)
        handler = requests.HANDLERS.get(type(message))
        if handler is None:
            raise Refusal(ErrorCode.UNKNOWN_COMMAND, type(message).__name__.upper())
        handler(self, message)

    # ------------------------------------------------------------------ login

    def _player_name(self, message: m.PlayerName) -> None:
        if self._name is not None:
            raise Refusal(ErrorCode.NAME_ALREADY_SET)
        name = check_player_name(message.name)
        if self.lobby.name_taken(name):
            raise Refusal(ErrorCode.NAME_IN_USE, name)
        if len(self.lobby.users) + len(self.lobby.reserved) >= MAX_USERS:
            raise Refusal(ErrorCode.UNKNOWN_ERROR, "server full")
        held = held_room(self.hall, name)
        try:
            self.session = self.hall.login(
                name, self, protocol="jduplicate", resume_without_token=held is not None
            )
        except HallError as error:
            code = ErrorCode.NAME_IN_USE if error.code == "name_in_use" else ErrorCode.BAD_PLAYER_NAME
            raise Refusal(code, name if code is ErrorCode.NAME_IN_USE else "") from None
        self._name = name
        self._held_room = held
        self.lobby.reserved.add(name.casefold())
        if self._client_ok:
            self._complete_login()

    def _client_type(self, message: m.ClientType) -> None:
        if self._client_ok:
            raise Refusal(ErrorCode.CLIENT_ALREADY_CONNECTED)
        if not message.name.strip():
            raise Refusal(ErrorCode.NO_CLIENT_NAME)
        if not message.version.strip():
            raise Refusal(ErrorCode.NO_CLIENT_VERSION)
        if not message.protocol.strip():
            raise Refusal(ErrorCode.NO_PROTOCOL_VERSION)
        if self.codec.version is None or message.protocol.strip() != self.codec.version.value:
            raise Refusal(ErrorCode.UNSUPPORTED_PROTOCOL, message.protocol.strip())
        self._client_ok = True
        if self._name is not None:
            self._complete_login()

    def _complete_login(self) -> None:
        """The login sequence of note §4.2, then USERCONNECTED to everyone else."""
        assert self._name is not None and self.codec.version is not None
        key = self._name.casefold()
        self.lobby.reserved.discard(key)
        self.lobby.users[key] = self
        self.state = State.LOGGED_IN
        if self._login_timer is not None:
            self._login_timer.cancel()
            self._login_timer = None
        lobby = self.lobby
        self.send(m.ServerType(SERVER_TYPE, SERVER_VERSION, self.codec.version.value))
        self.send(m.ServerInfo(SERVER_NAME, lobby.creation_date))
        self.send(m.WelcomeMessage(WELCOME_TEXT))
        self.send(m.ServerUserList(lobby.user_names()))
        self.send(m.HallUserList(lobby.hall_user_names()))
        requests.adopt_foreign_games(self)
        games = list(lobby.games.values())
        self.send(m.ServerGameList(tuple(g.name for g in games)))
        for game in games:
            self.send(lobby.game_infos(game))
        self.send(predef_games())
        lobby.send_all(m.UserConnected(self._name), but=self)
        held, self._held_room = self._held_room, None
        if held is not None:
            requests.rejoin_held_seat(self, held)

    # ------------------------------------------------------------------ timers

    def _arm_idle(self) -> None:
        if self._idle_s > 0:
            delay = self._last_frame + self._idle_s - self.clock.now()
            self._idle_timer = self.clock.call_later(max(0.0, delay), self._idle_check)

    def _idle_check(self) -> None:
        self._idle_timer = None
        if self.state is State.CLOSED:
            return
        if self.clock.now() - self._last_frame >= self._idle_s:
            self._fatal(ErrorCode.IDLE_DISCONNECTION, "Idle disconnection")
        else:
            self._arm_idle()

    def _login_expired(self) -> None:
        self._login_timer = None
        if self.state is State.IDENTIFYING:
            self._fatal(ErrorCode.IDLE_DISCONNECTION, "No login")

    def _fatal(self, code: ErrorCode, reason: str) -> None:
        """ERROR ``code``, then close (99004, 99005)."""
        self.send(m.Error(int(code)))
        self._quit_reason = reason
        self.close()

    # ------------------------------------------------------------------ closing

    def close(self) -> None:
        """Leave the game and the hall now (others are told), then close the socket."""
        if self.state is State.CLOSED:
            return
        self._leave_everything(dropped=False)
        self.state = State.CLOSED
        self.wire.close()

    def connection_lost(self) -> None:
        """The socket is gone (EOF, reset, our own close): leave-game effects, then
        USERDISCONNECTED to everyone (note §4.2). A seat in a running game is held for the
        room's grace instead of released (docs/recovery.md)."""
        if self.state is not State.CLOSED:
            self._leave_everything(dropped=True)
        for timer in (self._idle_timer, self._login_timer):
            if timer is not None:
                timer.cancel()
        self._idle_timer = self._login_timer = None

    def _leave_everything(self, *, dropped: bool) -> None:
        reason = self._quit_reason
        was_logged_in = self.state is State.LOGGED_IN
        self.state = State.CLOSED  # nothing more reaches this connection from here on
        game = self.game
        held = dropped and game is not None and game.room_open and game.state is m.GameState.INGAME
        if game is not None and held:
            game.members.remove(self)  # the seat stays with the room, held for the grace
            self.game = None
        elif game is not None:
            requests.depart(self, game, reason, gone=True)
        session = self.session
        if session is None:
            self._forget_user(reason, was_logged_in=was_logged_in, held=held)
        else:  # after the departure's own messages to the others (requests.depart)
            session.after_deliveries(
                lambda: self._forget_user(reason, was_logged_in=was_logged_in, held=held)
            )

    def _forget_user(self, reason: str, *, was_logged_in: bool, held: bool) -> None:
        """The user leaves the JDuplicate hall: USERDISCONNECTED to everyone, then the logout."""
        if self._name is not None:
            key = self._name.casefold()
            self.lobby.reserved.discard(key)
            if self.lobby.users.get(key) is self:
                del self.lobby.users[key]
            if was_logged_in:
                self.lobby.send_all(m.UserDisconnected(self._name, reason))
        if self.session is not None:
            session, self.session = self.session, None
            try:
                session.logout(dropped=held)
            except HallError:
                log.debug("JDuplicate %s: logout refused", self.wire.peer)

    # ------------------------------------------------------------------ Listener

    def deliver(self, room_id: str, delivery: Delivery) -> None:
        """A room event for this player: its messages (note §6), in the engine's order."""
        if self.joining:
            self.held.append(delivery.event)
            return
        game = self.game
        if game is None or room_id != game.room_id or self.state is not State.LOGGED_IN:
            return
        try:
            self.render(game, delivery.event, delivery)
        except Exception:
            log.exception("JDuplicate %s (%s): failed on %s", self.wire.peer, self._name, delivery.event)

    def render(self, game: JdGame, event: Event, delivery: Delivery | None = None) -> None:
        """Send ``event``'s messages, then do what it means to this connection (the
        GAMEINFOS that follow). The messages depend on the event, the game and the wire
        syntax only, so the players of one syntax share them through ``delivery``'s render
        cache (:meth:`~gamehall.protocols._core.Delivery.rendered`); a replayed event (no
        delivery) is rendered for this connection alone."""
        if delivery is None:
            frames = self._table_frames(game, event)
        else:
            key = ("jduplicate", self.codec.version)
            frames = delivery.rendered(key, lambda: self._table_frames(game, event))
        if self.state is not State.CLOSED:
            for data in frames:
                self.wire.send(data)
        lobby = self.lobby
        if isinstance(event, ev.GameStarted):
            self.send(lobby.game_infos(game))
        elif isinstance(event, ev.GameEnded) or (
            isinstance(event, ev.TurnStarted) and event.audience is None and event.turn > 1
        ):
            lobby.gameinfos_soon(game)
        elif isinstance(event, SeatJoined | SeatLeft) and event.name.casefold() not in lobby.users:
            self._foreign_seat_change(game, event)

    def _foreign_seat_change(self, game: JdGame, event: SeatJoined | SeatLeft) -> None:
        """A player of another protocol (browser, hall bot) joined or left: the first JDuplicate
        member tells the hall users (HN*) and everyone (GAMEINFOS)."""
        inside = game.everyone_inside()
        if not inside or inside[0] is not self:
            return
        if isinstance(event, SeatJoined):
            self.lobby.send_hall(m.HnPlayerJoined(event.name, game.name))
        else:
            self.lobby.send_hall(m.HnPlayerLeft(event.name, game.name))
        self.lobby.gameinfos_soon(game)

    def hall_event(self, event: Event) -> None:
        """Hall chat (the JDuplicate hall: users not in a game), whispers, server notices."""
        if self.state is not State.LOGGED_IN:
            return
        if isinstance(event, ChatSaid):
            if event.scope == "private":
                self.send(m.Whisper(event.sender, event.to or "", event.text))
            elif event.scope == "broadcast" and self.game is None:
                self.send(m.Chat(event.sender, event.text))
        elif isinstance(event, Notice):
            self.send(m.ServiceMessage(event.text))

    def ended(self, room_id: str, reason: CloseReason, text: str) -> None:
        """The hall let this player's seat go. Game over: the game stays listed (GAMEOVER)
        until its players leave; a kick by another protocol's operator or an inactivity
        release: back to the hall."""
        game = self.game
        if game is None or room_id != game.room_id:
            return
        if reason in (CloseReason.GAME_OVER, CloseReason.ABORTED, CloseReason.SHUTDOWN):
            game.room_open = False
            return
        self._released(game, reason)

    def _released(self, game: JdGame, reason: CloseReason) -> None:
        if self.game is game and self.state is State.LOGGED_IN:
            requests.depart(self, game, "", kicker="" if reason is CloseReason.KICKED else None, seated=False)

    def disconnect(self, reason: CloseReason, text: str) -> None:
        """The hall ends this connection (shutdown, a newer login of the same name)."""
        if self.state is State.CLOSED:
            return
        if reason is CloseReason.SHUTDOWN:
            self.send(m.ServiceMessage(text))
        else:
            self.send(m.Error(int(ErrorCode.ADMIN_KICK)))
        self.session = None
        self._quit_reason = text
        self.close()


def held_room(hall: HallPort, name: str) -> str | None:
    """The ``words`` room holding a seat (away) for ``name``, if any: only then may a login
    under that name resume the hall user without a secret (this protocol has none; the name
    owns the seat)."""
    key = name.casefold()
    for info in hall.seats_of(name):  # the hall's name index, not every room
        if info.game != requests.GAME_ID or info.finished:
            continue
        if any(info.seats.get(seat, "").casefold() == key for seat in info.away):
            return info.room_id
    return None

"""One legacy AAH connection: the 0.2.0 protocol's state machine over the hall (``specs/aah.md``).

The server makes one dialogue (:mod:`.spec`) per accepted TCP connection and feeds it bytes;
the dialogue answers through its :class:`~gamehall.protocols._core.Wire` and is the hall's
:class:`~gamehall.protocols._core.Listener` for the user once the join is accepted.

States (3.1)::

    NEW --JOIN--> HANDSHAKE --META ok, placed--> SEATED
     |               |                             |
     +---------------+--- REFU / DISC / EOF ------>+--> CLOSING (input discarded)

- ``NEW``: ``JOIN``, a no-argument ``META`` (answered), ``PING``/``PONG``, ``DISC`` (closes
  silently); other commands get ``UNRG`` "Not joined.".
- ``HANDSHAKE``: the server asked for the client's ``META`` and waits :data:`META_GRACE_S`
  (a timer of this connection only). Nothing but a ``META`` reply may reach the 0.2.0 client
  before ``ACKN``, so anything else the client sends is ignored silently. Then the version
  check, the nick syntax, the login and the placement (:mod:`.placement`); each failure is one
  ``REFU`` and a close.
- ``SEATED``: every message of section 4. Table events become frames (:mod:`.frames`).
- ``CLOSING``: a ``REFU`` or ``DISC`` was sent; input is discarded and the socket closes after
  the flush (at once, or after the 2.5 s end-of-game grace of the seed).

The engine knows the game; this module knows the connection: the states, the protocol-error
counter (7.3), the exact ``UNRG`` texts of malformed input, when the socket closes. The seated
commands (``PICK``, ``CZPK``, ``SMSG``, ``NICK``) are in :mod:`.commands`, the reason texts in
:mod:`.texts`, the placement on a table in :mod:`.placement`. Every ``REFU`` is final (3.2).

The hall calls the listener methods only after its own calls have returned (its outbox, see
:class:`~gamehall.protocols._core.Listener`), so they may log out at once, and the events a join
causes arrive after the ``ACKN``/``CLNF`` this dialogue sends in answer to it.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable, Sequence
from typing import Final

from gamehall.protocols._core import (
    NEED_DATA,
    UNLIMITED,
    Cancellable,
    Clock,
    CloseReason,
    Delivery,
    HallError,
    HallPort,
    ProtocolError,
    RoomInfo,
    Session,
    Wire,
)
from gamehall.protocols.aah import commands, placement, texts
from gamehall.protocols.aah.codec import AahCodec, Frame, Side, encode_frame
from gamehall.protocols.aah.frames import frame, hall_frames, render_key, table_frames
from gamehall.protocols.aah.meta import (
    PROTOCOL_VERSION,
    MetaError,
    decode_client_meta,
    encode_server_meta,
    version_refusal,
)
from gamehall.rules._core import Event, RuleError, Seat
from gamehall.rules.aah.events import SeatKicked, TableClosed

log = logging.getLogger(__name__)

META_GRACE_S: Final = 1.5
"""How long the server waits for the client's ``META`` reply (0.2.0: 1500 ms)."""

END_GRACE_S: Final = 2.5
"""After a game ends, sockets close this much later, or earlier if the client closes (seed)."""

MAX_PROTOCOL_ERRORS: Final = 20
"""Consecutive rejected inputs before the connection is dropped (7.3)."""

_SEAT_GONE: Final = frozenset({"not_in_room", "no_such_room"})
"""The hall's refusals of a seated input whose seat or room went earlier in the same turn
(:meth:`AahDialogue._handle_seated`)."""

PONG: Final = encode_frame(frame("PONG"))
"""The answer to every ``PING``, encoded once (the busiest frame: clients use it as a probe)."""

MAX_FLUSH_BYTES: Final = 2048
"""Bytes the server hands to one AAH connection per write; the rest of its queue goes out on
later loop turns, whole frames only. The 0.2.0 client reads into a fixed buffer (.NET's
``TcpClient.ReceiveBufferSize``, 8192 by default) and loses a frame split across two reads, so
every frame goes out in one write and writes stay well below that buffer. **Decision (ours)**,
docs/transport.md."""

IDLE_TIMEOUT_S: Final = 0.0
"""The server's per-connection idle timeout for this protocol: off. The 0.2.0 client sends
nothing while it waits in a lobby or sits out rounds, the server sends no pings (2.5), and TCP
keepalive finds dead peers; inactive seats are handled by ``kick_after_skips``. **Decision
(ours).**"""


class State(enum.Enum):
    """The connection states of section 3.1."""

    NEW = "new"
    HANDSHAKE = "handshake"
    SEATED = "seated"
    CLOSING = "closing"


_ENDING = (SeatKicked, TableClosed)
"""The events after which :meth:`AahDialogue.deliver` may end the connection's place."""


class AahDialogue:
    """The legacy AAH protocol for one TCP connection (see the module docstring)."""

    def __init__(
        self,
        hall: HallPort,
        wire: Wire,
        clock: Clock,
        *,
        meta_grace_s: float = META_GRACE_S,
        end_grace_s: float = END_GRACE_S,
        server_version: int = PROTOCOL_VERSION,
    ) -> None:
        self._hall = hall
        self._wire = wire
        self._clock = clock
        self._meta_grace_s = meta_grace_s
        self._end_grace_s = end_grace_s
        self._server_version = server_version
        self._codec = AahCodec(Side.SERVER)
        self.state = State.NEW
        self.nick: str | None = None
        self.room_id: str | None = None
        self.seat: Seat | None = None
        self._session: Session | None = None
        self._logged_out = False
        self._lost = False
        self._errors = 0
        self._meta_timer: Cancellable | None = None
        self._close_timer: Cancellable | None = None

    # ------------------------------------------------------------------ Dialogue: input

    def data_received(self, data: bytes) -> None:
        """Bytes from the client: split into frames (any chunking) and handle each in order."""
        self.receive_data(data)
        self.handle_buffered(UNLIMITED)

    def receive_data(self, data: bytes) -> None:
        """Buffer bytes; the server calls :meth:`handle_buffered` to pace the handling."""
        if self.state is not State.CLOSING:
            self._codec.receive_data(data)

    def handle_buffered(self, limit: int) -> int:
        """Handle up to ``limit`` buffered frames (or framing errors); returns how many."""
        handled = 0
        next_message = self._codec.next_message
        while handled < limit and self.state is not State.CLOSING:
            try:
                message = next_message()
            except ProtocolError as exc:
                handled += 1
                self._bad_frame(exc)
                continue
            if message is NEED_DATA:
                break
            assert isinstance(message, Frame)
            handled += 1
            self._handle_safely(message)
        return handled

    def connection_lost(self) -> None:
        """The socket is gone (EOF, reset, our own close): a seat in a running game is held
        for its grace; a lobby seat is released (5.2)."""
        if self._lost:
            return
        self._lost = True
        self.state = State.CLOSING
        for timer in (self._meta_timer, self._close_timer):
            if timer is not None:
                timer.cancel()
        self._meta_timer = self._close_timer = None
        self._logout(dropped=True)

    # ------------------------------------------------------------------ Listener: from the hall

    def deliver(self, room_id: str, delivery: Delivery) -> None:
        """A room event for our seat (those of our own join come after ``ACKN``/``CLNF``)."""
        if self.state is not State.SEATED or room_id != self.room_id:
            return
        event = delivery.event
        seat = self.seat
        try:
            key = render_key(event, seat)
            self._send_encoded(delivery.rendered(key, lambda: self._encode(table_frames(event, seat))))
            if not isinstance(event, _ENDING):
                return
            if isinstance(event, SeatKicked) and event.seat == self.seat:
                self._close(dropped=True)
            elif isinstance(event, TableClosed):
                self._end_of_game()
        except Exception:
            log.exception("AAH %s (%s): failed to pass on %s", self._wire.peer, self.nick, event)

    def hall_event(self, event: Event) -> None:
        """A whisper, shout or server notice: a ``BDCS`` (see :func:`.frames.hall_frames`)."""
        if self.state is State.SEATED:
            try:
                self._send_all(hall_frames(event))
            except Exception:
                log.exception("AAH %s (%s): failed to pass on %s", self._wire.peer, self.nick, event)

    def ended(self, room_id: str, reason: CloseReason, text: str) -> None:
        """Our seat is gone: game over or aborted (``DISC`` was sent with the table's last
        events; close after the grace), kicked, or the room was closed (shutdown, operator)."""
        if self.state is not State.SEATED or room_id != self.room_id:
            return
        self.send(frame("DISC", texts.disc_for(reason)))
        if reason in (CloseReason.GAME_OVER, CloseReason.ABORTED):
            self._end_of_game()
        else:
            self._close(dropped=True)

    def disconnect(self, reason: CloseReason, text: str) -> None:
        """The hall ends the connection (server shutdown, replaced login)."""
        if self.state is State.SEATED:
            self.send(frame("DISC", texts.disc_for(reason)))
        if self.state is not State.CLOSING:
            self._close(dropped=True)

    # ------------------------------------------------------------------ frames, state by state

    def _handle_safely(self, message: Frame) -> None:
        """Handle one frame; a bug in our handler answers "Internal error." and the
        connection (and its table) go on (section 8)."""
        try:
            self._handle(message)
        except Exception:
            log.exception(
                "AAH %s (%s): internal error handling %s in state %s",
                self._wire.peer,
                self.nick,
                message.command,
                self.state.value,
            )
            if self.state is State.HANDSHAKE:
                self._refuse(texts.INTERNAL_ERROR)
            elif self.state is not State.CLOSING:
                self.send(frame("UNRG", texts.INTERNAL_ERROR))

    def _handle(self, message: Frame) -> None:
        if self.state is State.NEW:
            self._handle_new(message)
        elif self.state is State.HANDSHAKE:
            self._handle_handshake(message)
        elif self.state is State.SEATED:
            self._handle_seated(message)

    def _bad_frame(self, exc: ProtocolError) -> None:
        """A frame the codec could not read (2.2): ``UNRG`` with its text; during the
        handshake nothing may be sent, except that invalid UTF-8 refuses the join."""
        if self.state is State.HANDSHAKE:
            if exc.code == "invalid_utf8" or not exc.recoverable:
                self._refuse(texts.MALFORMED_DATA)
            return
        if not exc.recoverable:  # one frame past the codec's memory bound: the stream is lost
            self._errors = MAX_PROTOCOL_ERRORS - 1  # so this UNRG is followed by DISC and the close
        self.reject(exc.reason)

    def _handle_new(self, message: Frame) -> None:
        command, args = message.command, message.args
        if command == "JOIN":
            if not args:
                self._refuse(texts.MALFORMED_DATA)
                return
            self.nick = args[0]
            self.state = State.HANDSHAKE
            self.accepted()
            self.send(frame("META"))
            self._meta_timer = self._clock.call_later(self._meta_grace_s, self._meta_timed_out)
        elif command == "META":
            if not args:
                self._send_meta()
            self.accepted()
        elif command == "PING":
            self._pong()
            self.accepted()
        elif command == "PONG":
            self.accepted()
        elif command == "DISC":
            self._close(dropped=True)
        else:
            self.reject(texts.NOT_JOINED)

    def _handle_handshake(self, message: Frame) -> None:
        command, args = message.command, message.args
        if command == "META":
            if args:
                self._client_meta(args[0])
            else:
                self._send_meta()
        elif command == "DISC":
            self._close(dropped=True)
        # anything else: ignored silently (nothing may reach the 0.2.0 client before ACKN)

    def _handle_seated(self, message: Frame) -> None:
        command, args = message.command, message.args
        handler = self._SEATED_HANDLERS.get(command)
        if handler is None:  # the codec lets only client commands through
            self.reject(f"Unknown command ({command}).")
            return
        try:
            handler(self, args)
        except HallError as exc:
            if exc.code not in _SEAT_GONE:
                raise
            # The room closed (aborted, drained, its lease lost) or let this seat go earlier
            # in this turn; the seat's DISC leaves with the turn's deliveries, after the commit
            # (with PostgreSQL, a round trip later). Nothing is left to act on, and the DISC
            # says why: the input is dropped, not answered "Internal error.".
            log.debug("AAH %s (%s): %s after its seat went: dropped", self._wire.peer, self.nick, command)

    # ------------------------------------------------------------------ the handshake (3.2)

    def _meta_timed_out(self) -> None:
        self._meta_timer = None
        if self.state is State.HANDSHAKE and not self._lost:
            self._refuse(texts.META_TIMEOUT)

    def _client_meta(self, argument: str) -> None:
        if self._meta_timer is not None:
            self._meta_timer.cancel()
            self._meta_timer = None
        try:
            version = decode_client_meta(argument)
        except MetaError as exc:
            log.info("AAH %s: bad META from %s: %s", self._wire.peer, self.nick, exc)
            self._refuse(texts.MALFORMED_DATA)
            return
        refusal = version_refusal(version)
        if refusal is not None:
            self._refuse(refusal)
            return
        nick = self.nick or ""
        if not commands.NICK_PATTERN.fullmatch(nick):
            self._refuse(texts.NICK_INVALID)
            return
        self._admit(nick)

    def _admit(self, nick: str) -> None:
        """Log the user in and seat them (3.5), then ``ACKN``, ``CLNF`` and the events the
        join caused (a countdown, the rejoin replay), in that order."""
        if placement.seated_elsewhere(self._hall, nick):
            self._refuse(texts.NICK_IN_USE)
            return
        try:
            session = self._hall.login(nick, self, protocol="aah", resume_without_token=True)
        except HallError as exc:
            self._refuse(texts.NICK_IN_USE if exc.code == "name_in_use" else texts.NICK_INVALID)
            return
        self._session = session
        try:
            room_id, seat = placement.place(self._hall, session)
        except placement.Refused as exc:
            self._refuse(exc.reason)
            return
        self.nick, self.room_id, self.seat = session.name, room_id, seat
        self.state = State.SEATED
        self.accepted()
        names = session.room(room_id).info().seats
        self.send(frame("ACKN"))
        self.send(frame("CLNF", *(names[s] for s in sorted(names))))

    def _send_meta(self) -> None:
        """The server ``META``: the table we sit at, or the one a ``JOIN`` would land at."""
        info: RoomInfo | None
        if self.room_id is not None and self._session is not None:
            info = self._session.room(self.room_id).info()
        else:
            info = placement.landing_table(self._hall, self.nick)
        meta = placement.describe(info, self._hall.game_defaults(placement.GAME), self._server_version)
        self.send(frame("META", encode_server_meta(meta)))

    # ------------------------------------------------------------------ seated commands (4, 7)

    def _on_join(self, args: tuple[str, ...]) -> None:
        self.reject(texts.ALREADY_JOINED)

    def _on_meta(self, args: tuple[str, ...]) -> None:
        if not args:  # with arguments: ignored outside the handshake (3.3)
            self._send_meta()
        self.accepted()

    def _on_ping(self, args: tuple[str, ...]) -> None:
        self._pong()
        self.accepted()

    def _on_pong(self, args: tuple[str, ...]) -> None:
        self.accepted()

    def _on_disc(self, args: tuple[str, ...]) -> None:
        """Leave now, without a grace: ``DISC`` back, then close; the others get ``CLEX``."""
        self.send(frame("DISC", texts.DISC_AT_REQUEST))
        self._leave()

    def _on_smsg(self, args: tuple[str, ...]) -> None:
        commands.chat(*self._seated(), args, self)

    def _on_nick(self, args: tuple[str, ...]) -> None:
        session, room_id = self._seated()
        commands.rename(session, room_id, args, self)
        self.nick = session.name

    def _on_pick(self, args: tuple[str, ...]) -> None:
        commands.pick(*self._seated(), args, self)

    def _on_czpk(self, args: tuple[str, ...]) -> None:
        session, room_id = self._seated()
        assert self.seat is not None
        commands.judge(session, room_id, self.seat, args, self)

    _SEATED_HANDLERS: Final[dict[str, Callable[[AahDialogue, tuple[str, ...]], None]]] = {
        "JOIN": _on_join,
        "META": _on_meta,
        "PING": _on_ping,
        "PONG": _on_pong,
        "DISC": _on_disc,
        "SMSG": _on_smsg,
        "NICK": _on_nick,
        "PICK": _on_pick,
        "CZPK": _on_czpk,
    }

    # ------------------------------------------------------------------ helpers

    def _closing(self) -> bool:
        return self.state is State.CLOSING

    def _seated(self) -> tuple[Session, str]:
        assert self._session is not None and self.room_id is not None
        return self._session, self.room_id

    def send(self, message: Frame) -> None:
        """One whole frame in one write; nothing once the connection is lost."""
        self._send_all((message,))

    def _pong(self) -> None:
        """``PONG``: :meth:`send` for the one frame that is answered most, without encoding it."""
        if not self._lost:
            self._wire.send(PONG)

    def _send_all(self, frames: Sequence[Frame]) -> None:
        if not self._lost:
            self._send_encoded(self._encode(frames))

    def _encode(self, frames: Sequence[Frame]) -> tuple[bytes, ...]:
        """The bytes of each frame that can be sent. A frame that cannot (an empty first
        argument would vanish; one over the frame cap) is logged and left out; the others
        go, so a table event is never half lost to one bad text."""
        encoded: list[bytes] = []
        for message in frames:
            if message.args and not message.args[0]:
                peer, command = self._wire.peer, message.command
                log.warning("AAH %s: %s with an empty first argument not sent", peer, command)
                continue
            try:
                encoded.append(self._codec.encode(message))
            except ValueError:
                log.exception("AAH %s: %s frame not sent", self._wire.peer, message.command)
        return tuple(encoded)

    def _send_encoded(self, frames: Sequence[bytes]) -> None:
        """Whole frames, one write each, in order; nothing once the connection is lost."""
        if self._lost:
            return
        for data in frames:
            self._wire.send(data)

    def reject(self, reason: str, extra: Sequence[Frame] = ()) -> None:
        """``UNRG<reason>`` (and e.g. the restored card), counting one protocol error (7.3)."""
        self.send(frame("UNRG", reason))
        self._send_all(extra)
        self._errors += 1
        if self._errors >= MAX_PROTOCOL_ERRORS:
            log.info("AAH %s (%s): too many protocol errors; dropped", self._wire.peer, self.nick)
            self.send(frame("DISC", texts.DISC_PROTOCOL_ERRORS))
            self._leave()

    def accepted(self) -> None:
        self._errors = 0

    def still_seated(self) -> bool:
        return self.state is State.SEATED

    def _refuse(self, reason: str) -> None:
        """``REFU<reason>``, then close once flushed; a login made for this join is undone
        (as a drop: a seat it took back stays held)."""
        self.send(frame("REFU", reason))
        self._close(dropped=True)

    def _leave(self) -> None:
        """Give the seat up now (client ``DISC``, too many errors) and close."""
        self._close(dropped=False)

    def _close(self, *, dropped: bool) -> None:
        """Stop reading, log out, close after the flush."""
        self.state = State.CLOSING
        if self._meta_timer is not None:
            self._meta_timer.cancel()
            self._meta_timer = None
        self._logout(dropped=dropped)
        if not self._lost:
            self._wire.close()

    def _end_of_game(self) -> None:
        """The table is over: ignore input, free the nick, close after the grace."""
        self.state = State.CLOSING
        self._logout(dropped=True)
        if self._close_timer is None and not self._lost:
            self._close_timer = self._clock.call_later(self._end_grace_s, self._grace_over)

    def _grace_over(self) -> None:
        self._close_timer = None
        if not self._lost:
            self._wire.close()

    def _logout(self, *, dropped: bool) -> None:
        session = self._session
        if session is None or self._logged_out:
            return
        self._logged_out = True
        try:
            session.logout(dropped=dropped)
        except (HallError, RuleError) as exc:
            log.warning("AAH %s (%s): logout failed: %s", self._wire.peer, self.nick, exc)


__all__ = ["END_GRACE_S", "IDLE_TIMEOUT_S", "MAX_FLUSH_BYTES", "META_GRACE_S", "AahDialogue", "State"]

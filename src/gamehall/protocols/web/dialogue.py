"""One browser connection's state machine: web protocol messages <-> hall calls and events.

The dialogue is sans-I/O: the server hands it each received text frame (:meth:`WebDialogue.text_received`)
and gives it two callables, one to send a text frame and one to close the socket. It is the hall's
:class:`~gamehall.protocols._core.Listener` for this connection.

What it does, in the order a connection lives (docs/web-protocol.md is the reference):

1. ``hello`` logs in (with a token, it resumes the earlier session and resends a ``view`` of
   every room the user is still in).
2. Lobby and room requests map one-to-one to :class:`~gamehall.protocols._core.Session` calls;
   any refusal (``HallError``, ``RuleError``, a bad frame) becomes an ``error`` message carrying
   the request's ``id`` as ``ref``, and the socket stays open.
3. Room events go out as numbered ``event`` messages when the hall delivers them (after its
   calls have returned, see :class:`~gamehall.protocols._core.Listener`); after a burst of
   events the room's fresh ``view`` follows (one per burst: after this connection's own reply,
   or, for events that other users or timers caused, on the next clock tick).
4. The reply to a request (``ok``, ``joined``, ``error``...) follows the events the request
   caused, as the protocol documents: it is held until the hall has delivered them
   (:meth:`~gamehall.protocols._core.Session.after_deliveries`).
5. An ``act`` may name the ``seq`` of the view it was decided on; a stale one (the room moved
   the seat's turn since, :mod:`gamehall.hall.stale`) gets the ``stale`` error and a fresh view.

It is game-agnostic: actions are decoded with the room's own ``ActionCodec`` and views are
whatever the engine's ``view(seat)`` returns.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gamehall.protocols._core import (
    Cancellable,
    ChatSaid,
    Clock,
    CloseReason,
    Delivery,
    HallError,
    HallPort,
    ProtocolError,
    RoomInfo,
    RoomPort,
    Session,
)
from gamehall.protocols.web import codec
from gamehall.protocols.web.codec import (
    Act,
    AddBots,
    Bye,
    Chat,
    ClientMessage,
    Create,
    GetView,
    Hello,
    Invite,
    Join,
    Kick,
    Leave,
    ListRooms,
    MessageId,
    Ping,
    Rename,
    Resume,
    Shout,
    Spectate,
    Start,
    Whisper,
)
from gamehall.protocols.web.messages import event_json, game_json, room_json
from gamehall.rules._core import JSON, ConfigError, Event, RuleError, Seat

log = logging.getLogger(__name__)

MAX_BOTS_PER_REQUEST = 16
BOT_POLICIES = ("random", "heuristic")


@dataclass(slots=True)
class _Place:
    """A room this connection is in: the room handle and our seat (``None`` = spectator)."""

    room: RoomPort
    seat: Seat | None


def _run_here(work: Callable[[], Any], done: Callable[[Any], None]) -> None:
    """Without a server (sans-I/O tests), slow work runs at once."""
    done(work())


class WebDialogue:
    """The web protocol for one WebSocket connection (see the module docstring)."""

    def __init__(
        self,
        hall: HallPort,
        send_text: Callable[[str], None],
        close: Callable[[], None],
        clock: Clock,
        *,
        offload: Callable[[Callable[[], Any], Callable[[Any], None]], None] | None = None,
    ) -> None:
        self._hall = hall
        self._offload = offload if offload is not None else _run_here
        self._send_text = send_text
        self._close = close
        self._clock = clock
        self._session: Session | None = None
        self._closed = False
        self._places: dict[str, _Place] = {}
        self._stale_views: dict[str, None] = {}  # rooms owing a view, in order of first event
        self._flush_handle: Cancellable | None = None
        self._handling = False
        self._replies: list[dict[str, JSON]] | None = None  # a request's replies, until its events are out
        self._unwatch_lobby: Callable[[], None] | None = None

    # ------------------------------------------------------------------ input from the socket

    def text_received(self, text: str | bytes) -> None:
        """One text frame from the browser."""
        if self._closed:
            return
        self._handling = True
        self._replies = []
        dispatched = False
        try:
            try:
                message = codec.decode(text)
            except ProtocolError as exc:
                self._error(exc.code, exc.reason, codec.message_id(text))
                return
            work = self._password_work(message)
            if work is not None:  # scrypt off the loop first; the hall call finds the answer
                self._offload(work, lambda _: self._after_password_work(message))
                return
            self._dispatch(message)
            dispatched = True
        finally:
            self._handling = False
            self._answer(with_views=dispatched)

    def _answer(self, *, with_views: bool = True) -> None:
        """Send the request's replies, then (``with_views``: a request was handled) the views
        its events made stale, once the hall has delivered those events (at once when there
        is no session to wait on)."""
        replies, self._replies = self._replies or [], None

        def send() -> None:
            for reply in replies:
                self._send(reply)
            if with_views:
                self._flush_views()

        if self._session is None:
            send()
        else:
            self._session.after_deliveries(send)

    def _password_work(self, message: ClientMessage) -> Callable[[], None] | None:
        if isinstance(message, Create):
            return self._hall.password_work(message.password)
        if isinstance(message, (Join, Spectate)):
            return self._hall.password_work(message.password, message.room)
        return None

    def _after_password_work(self, message: ClientMessage) -> None:
        """The password work of ``message`` is done (in a worker thread): handle it now."""
        if self._closed:
            return
        self._handling = True
        self._replies = []
        try:
            self._dispatch(message)
        finally:
            self._handling = False
            self._answer()

    def connection_lost(self) -> None:
        """The socket is gone: hold our seats for their grace (the user may reload and resume)."""
        self._closed = True
        self._cancel_flush()
        self._stop_watching_lobby()
        session, self._session = self._session, None
        if session is not None:
            session.logout(dropped=True)

    def _dispatch(self, message: ClientMessage) -> None:
        ref = message.id
        try:
            if isinstance(message, Ping):
                self._send({"t": "pong", "data": message.data, "ref": ref})
            elif isinstance(message, Hello):
                self._hello(message)
            else:
                self._command(self._logged_in(), message)
        except HallError as exc:
            self._error(exc.code, exc.reason, ref)
        except RuleError as exc:
            self._error(exc.code, exc.reason, ref)
        except ConfigError as exc:
            self._error("config", str(exc), ref)
        except Exception:  # a bug behind one request must not cost the user the connection
            log.exception("web: %s failed", message.t)
            self._error("server_error", "The server failed to handle this request.", ref)

    def _logged_in(self) -> Session:
        if self._session is None:
            raise HallError("not_logged_in", 'Say "hello" first.')
        return self._session

    # ------------------------------------------------------------------ login

    def _hello(self, message: Hello) -> None:
        if self._session is not None:
            raise HallError("already_logged_in", f"You are already logged in as {self._session.name}.")
        if message.v not in codec.SUPPORTED_VERSIONS:
            raise HallError(
                "unsupported_version",
                f"This server speaks version {codec.PROTOCOL_VERSION} of the web protocol, not {message.v}.",
            )
        session = self._hall.login(message.name, self, protocol="web", token=message.token)
        self._session = session
        games = [
            game_json(game_type, self._hall.game_defaults(game_id))
            for game_id, game_type in self._hall.game_types.items()
        ]
        self._send_now(  # before the events of the seats it takes back (below)
            {
                "t": "welcome",
                "v": message.v,
                "name": session.name,
                "token": session.token,
                "games": games,
                "hall_chat": self._hall.recent_chat(None),
                "ref": message.id,
            }
        )
        self._unwatch_lobby = self._hall.watch_lobby(self)
        for room_id in session.my_rooms():
            self._take_back(session, room_id)

    def _take_back(self, session: Session, room_id: str) -> None:
        """After a resumed login: reclaim the seat held in ``room_id`` (or watch it again)."""
        try:
            if session.seat_in(room_id) is not None:
                session.join(room_id)
            else:
                session.spectate(room_id)
        except (HallError, RuleError) as exc:
            log.warning("web: %s could not return to room %s: %s", session.name, room_id, exc)
            return
        self._joined(session, room_id, None)

    # ------------------------------------------------------------------ commands

    def _command(self, session: Session, message: ClientMessage) -> None:
        ref = message.id
        if isinstance(message, ListRooms):
            rooms = [room_json(info) for info in session.rooms(message.game)]
            self._send({"t": "rooms", "rooms": rooms, "ref": ref})
        elif isinstance(message, Create):
            game_type = self._hall.game_types.get(message.game)
            preparing = self._hall.preparing()
            held_up = preparing.get("games") if preparing is not None else None
            if preparing is not None and isinstance(held_up, list) and message.game in held_up:
                raise HallError("preparing", f"{preparing.get('text')}. Try again in a few seconds.")
            refused = game_type.schema.server_keys() & set(message.settings or {}) if game_type else set()
            if refused:
                raise HallError(
                    "config",
                    f"{', '.join(sorted(refused))}: set in the server's configuration, not by players.",
                )
            info = session.create_room(
                message.game,
                message.settings,
                password=message.password,
                title=message.title,
                extra={"origin": "web"},  # a browser table: legacy protocols may offer it (cg)
            )
            if info.room_id not in session.my_rooms():
                session.join(info.room_id, message.password)
            self._joined(session, info.room_id, ref)
        elif isinstance(message, Join):
            session.join(message.room, message.password)
            self._joined(session, message.room, ref)
        elif isinstance(message, Spectate):
            session.spectate(message.room, message.password)
            self._joined(session, message.room, ref)
        elif isinstance(message, Leave):
            session.leave(message.room)
            self._forget(message.room)
            self._send({"t": "left", "room": message.room, "ref": ref})
        elif isinstance(message, Act):
            self._act(session, message)
        elif isinstance(message, Resume):
            self._resume(session, message)
        elif isinstance(message, GetView):
            self._enter(session, message.room)
            self._send_view(message.room, ref)
        elif isinstance(message, Bye):
            self._send({"t": "bye", "reason": CloseReason.REQUESTED.value, "text": "Goodbye.", "ref": ref})
            self._session = None
            self._places.clear()
            session.logout(dropped=False)
            self._shut()
        else:
            self._simple_command(session, message)
            self._send({"t": "ok", "ref": ref})

    def _simple_command(self, session: Session, message: ClientMessage) -> None:
        """Commands answered with a plain ``ok``."""
        if isinstance(message, Start):
            session.start(message.room)
        elif isinstance(message, Kick):
            session.kick(message.room, message.seat)
        elif isinstance(message, AddBots):
            self._add_bots(session, message)
        elif isinstance(message, Chat):
            session.chat(message.room, message.text)
        elif isinstance(message, Whisper):
            session.whisper(message.to, message.text)
        elif isinstance(message, Shout):
            session.shout(message.text)
        elif isinstance(message, Rename):
            session.rename(message.room, message.name)
        elif isinstance(message, Invite):
            self._hall.invite(message.room, session.name, message.name)
        else:  # every message class is handled above; a new one must be added here
            raise HallError("unknown_type", f"Message type {message.t!r} is not handled.")

    def _joined(self, session: Session, room_id: str, ref: MessageId) -> None:
        place = self._enter(session, room_id)
        kind = "spectating" if place.seat is None else "joined"
        self._send(
            {
                "t": kind,
                "room": room_json(place.room.info()),
                "seat": place.seat,
                "chat": self._hall.recent_chat(room_id),
                "ref": ref,
            }
        )
        self._mark_stale(room_id)

    def _act(self, session: Session, message: Act) -> None:
        place = self._enter(session, message.room)
        game_type = self._hall.game_types.get(place.room.info().game)
        if game_type is None:
            raise HallError("no_such_game", f"The game of room {message.room} is not hosted here.")
        action = game_type.actions.decode(message.action)
        try:
            session.act(message.room, action, seq=message.seq)
        except HallError as exc:
            if exc.code != "stale":
                raise
            self._resync(message.room, exc, message.id)
            return
        self._send({"t": "ok", "ref": message.id})

    def _resync(self, room_id: str, refusal: HallError, ref: MessageId) -> None:
        """A stale action (the room moved the seat's turn after the view it was decided on):
        the refusal, then at once the fresh view to decide on again (the one owed, if any)."""
        self._error(refusal.code, refusal.reason, ref)
        self._stale_views.pop(room_id, None)
        self._send_view(room_id, None)

    def _add_bots(self, session: Session, message: AddBots) -> None:
        if not 1 <= message.count <= MAX_BOTS_PER_REQUEST:
            raise HallError("bad_count", f"Add between 1 and {MAX_BOTS_PER_REQUEST} bots at a time.")
        if message.policy not in BOT_POLICIES:
            raise HallError("bad_policy", f"Bot policy must be one of {', '.join(BOT_POLICIES)}.")
        session.add_bots(message.room, message.count, message.policy)

    def _resume(self, session: Session, message: Resume) -> None:
        """Replay the events after ``since`` (when the room still has them), then a fresh view."""
        place = self._enter(session, message.room)
        try:
            missed = place.room.deliveries_since(message.since, place.seat)
        except HallError as exc:
            if exc.code != "history_gone":
                raise
            missed = []
        for delivery in missed:
            self._send_event(message.room, delivery)
        self._send_view(message.room, message.id)

    # ------------------------------------------------------------------ Listener

    def deliver(self, room_id: str, delivery: Delivery) -> None:
        """A numbered room event: send it now, and owe the room a fresh view."""
        if self._closed:
            return
        self._send_event(room_id, delivery)
        self._mark_stale(room_id)

    def room_changed(self, room_id: str, seq: int) -> None:
        """The room accepted an input (perhaps one we may not see): owe it a fresh view."""
        if not self._closed and room_id in self._places:
            self._mark_stale(room_id)

    def lobby_changed(self, change: str, info: RoomInfo) -> None:
        """The pushed lobby (LobbyWatcher): ``room_created``, ``room_changed``, ``room_closed``."""
        if self._closed or self._session is None:
            return
        if change == "closed":
            self._send(
                {"t": "room_closed", "room": info.room_id, "finished": info.finished, "game": info.game}
            )
        else:
            self._send({"t": f"room_{change}", "room": room_json(info)})

    def invited(self, room_id: str, inviter: str) -> bool:
        """Invitable: ``inviter`` asks this browser user to a room (``invited``)."""
        if self._closed or self._session is None:
            return False
        info = next((r for r in self._hall.rooms(None) if r.room_id == room_id), None)
        if info is None:
            return False
        self._send({"t": "invited", "room": room_json(info), "by": inviter})
        return True

    def preparing_changed(self, state: Mapping[str, JSON] | None) -> None:
        """``preparing`` while the server prepares something (a dictionary), ``done`` after."""
        if self._closed or self._session is None:
            return
        if state is None:
            self._send({"t": "preparing", "done": True})
        else:
            self._send({"t": "preparing", "done": False, **state})

    def hall_event(self, event: Event) -> None:
        """Private chat, broadcast chat or a server notice."""
        if self._closed:
            return
        self._send({"t": "hall", "event": event_json(event)})

    def ended(self, room_id: str, reason: CloseReason, text: str) -> None:
        """Our place in ``room_id`` is gone: send its last view (the final scores), then ``ended``."""
        if self._closed:
            return
        if room_id in self._places:
            self._stale_views.pop(room_id, None)
            self._send_view(room_id, None)
        self._forget(room_id)
        self._send({"t": "ended", "room": room_id, "reason": reason.value, "text": text})

    def disconnect(self, reason: CloseReason, text: str) -> None:
        """The hall ends this connection (replaced by a newer login, shutdown)."""
        if self._closed:
            return
        self._flush_views()
        self._send({"t": "bye", "reason": reason.value, "text": text})
        self._session = None  # the hall has already let go of this session
        self._places.clear()
        self._shut()

    # ------------------------------------------------------------------ rooms and views

    def _enter(self, session: Session, room_id: str) -> _Place:
        """The room handle and our seat, refreshed from the session.

        Raises:
            HallError: the room does not exist or we are not in it.
        """
        if room_id not in session.my_rooms():
            raise HallError("not_in_room", f"You are not in room {room_id}.")
        place = _Place(session.room(room_id), session.seat_in(room_id))
        self._places[room_id] = place
        return place

    def _forget(self, room_id: str) -> None:
        self._places.pop(room_id, None)
        self._stale_views.pop(room_id, None)

    def _mark_stale(self, room_id: str) -> None:
        self._stale_views[room_id] = None
        if not self._handling and self._flush_handle is None:
            self._flush_handle = self._clock.call_later(0.0, self._flush_views)

    def _flush_views(self) -> None:
        self._cancel_flush()
        while self._stale_views and not self._closed:
            room_id = next(iter(self._stale_views))
            del self._stale_views[room_id]
            self._send_view(room_id, None)

    def _cancel_flush(self) -> None:
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None

    def _send_view(self, room_id: str, ref: MessageId) -> None:
        place = self._places.get(room_id)
        if place is None:
            place = self._lookup(room_id)
            if place is None:
                return
        if self._session is not None and room_id in self._session.my_rooms():
            place.seat = self._session.seat_in(room_id)
        room = place.room
        timers: list[dict[str, JSON]] = []
        timers = [{"key": key, "seconds_left": round(left, 3)} for key, left in room.timers()]
        message: dict[str, JSON] = {
            "t": "view",
            "room": room_id,
            "seq": room.last_seq,
            "seat": place.seat,
            "view": room.game.view(place.seat),
            "timers": timers,
        }
        if ref is not None:
            message["ref"] = ref
        self._send(message)

    def _lookup(self, room_id: str) -> _Place | None:
        """A room we got an event from before we knew it (during login or join)."""
        if self._session is None:
            return None
        try:
            return self._enter(self._session, room_id)
        except HallError:
            return None

    # ------------------------------------------------------------------ output

    def _send_event(self, room_id: str, delivery: Delivery) -> None:
        """An ``event`` message. Its text depends on the room event alone (never on this
        browser's seat: the room checked the audience, and views are sent apart), so every
        browser of the room shares one rendering (:meth:`~gamehall.protocols._core.Delivery.rendered`)."""
        if self._closed:
            return
        self._send_text(delivery.rendered(("web",), lambda: self._event_text(room_id, delivery)))

    def _event_text(self, room_id: str, delivery: Delivery) -> str:
        body = event_json(delivery.event)
        if isinstance(delivery.event, ChatSaid):
            body["room"] = room_id
        return self._encode({"t": "event", "room": room_id, "seq": delivery.seq, "event": body})

    def _error(self, code: str, reason: str, ref: MessageId) -> None:
        self._send({"t": "error", "code": code, "reason": reason, "ref": ref})

    def _send(self, message: dict[str, JSON]) -> None:
        """Send ``message``; while a request is handled, after the events it causes."""
        if self._replies is not None and not self._closed:
            self._replies.append(message)
            return
        self._send_now(message)

    def _send_now(self, message: dict[str, JSON]) -> None:
        if self._closed:
            return
        if message.get("ref", 0) is None and message["t"] != "error":
            del message["ref"]
        self._send_text(self._encode(message))

    @staticmethod
    def _encode(message: dict[str, JSON]) -> str:
        try:
            return codec.encode(message)
        except ValueError:
            log.exception("web: cannot send %s", message.get("t"))
            reason = "A reply was too large to send."
            return codec.encode({"t": "error", "code": "server_error", "reason": reason})

    def _stop_watching_lobby(self) -> None:
        unwatch, self._unwatch_lobby = self._unwatch_lobby, None
        if unwatch is not None:
            unwatch()

    def _shut(self) -> None:
        replies, self._replies = self._replies or [], None
        for reply in replies:  # a closing request's last words (bye) go out before the close
            self._send(reply)
        self._stop_watching_lobby()
        self._cancel_flush()
        self._closed = True
        self._close()

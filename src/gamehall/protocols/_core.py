"""The contracts every protocol package follows.

A protocol is two sans-I/O parts (the h11 pattern):

- a **codec** turns bytes into messages and messages into bytes. It buffers partial input,
  enforces a frame/line cap and raises only :class:`ProtocolError` on bad input;
- a **dialogue** is one connection's state machine. It reads decoded messages, calls the hall
  through the :class:`HallPort` it was given, and turns table events into the messages this
  connection must receive, in the protocol's exact order and wording.

Neither part touches a socket or the event loop; the server owns those. The hall implements
:class:`HallPort` and :class:`RoomPort`; protocols only see these interfaces, which keeps the
import direction ``rules <- protocols <- hall <- server``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, cast, runtime_checkable

from gamehall.rules._core import JSON, Action, Event, GameType, Outcome, Seat, ToMove

# --------------------------------------------------------------------------------------------
# Codecs
# --------------------------------------------------------------------------------------------


class ProtocolError(Exception):
    """Bad bytes on the wire. ``recoverable`` says whether the codec resynchronised and the
    connection may go on (an oversize line skipped), or the stream is lost (a broken length
    prefix) and the connection must be closed.
    """

    def __init__(self, reason: str, *, recoverable: bool = True, code: str = "protocol_error") -> None:
        super().__init__(reason)
        self.reason = reason
        self.recoverable = recoverable
        self.code = code


class _NeedData(enum.Enum):
    NEED_DATA = "NEED_DATA"


NEED_DATA = _NeedData.NEED_DATA
"""Returned by ``next_message()`` when the buffered bytes hold no complete message yet."""


class Codec(Protocol):
    """Bytes in, messages out; messages in, bytes out."""

    def receive_data(self, data: bytes) -> None:
        """Append bytes read from the peer."""
        ...

    def next_message(self) -> Any:
        """The next complete message, or :data:`NEED_DATA`. Raises :class:`ProtocolError`."""
        ...

    def encode(self, message: Any) -> bytes:
        """The bytes of one message, ready for a single write."""
        ...


# --------------------------------------------------------------------------------------------
# Time and the wire, as a dialogue sees them
# --------------------------------------------------------------------------------------------


class Cancellable(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """Monotonic time and timers. The server gives an asyncio clock; tests a fake one that
    only moves when told, so a whole multi-player scenario runs without sleeping."""

    def now(self) -> float:
        """Seconds, monotonic."""
        ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> Cancellable: ...


class Wire(Protocol):
    """One client connection, as its dialogue may use it (the server implements it)."""

    @property
    def peer(self) -> str:
        """The remote address, for logs."""
        ...

    def send(self, data: bytes) -> None:
        """Queue bytes for the peer (whole frames only; order kept)."""
        ...

    def close(self) -> None:
        """Flush what is queued, then close. Input after this is discarded."""
        ...

    def offload(self, work: Callable[[], Any], done: Callable[[Any], None]) -> None:
        """Run ``work`` (slow and self-contained: a password hash) away from the event loop,
        then call ``done(result)`` on the loop, later, as a new event.

        This keeps protocols sans-I/O: a dialogue never sees a thread, it asks its wire and
        gets the answer back like any other input. Until ``done`` has run the dialogue should
        handle no further input of this connection (order is kept: a packet sent after a
        login is handled after the login's answer); the server pumps the connection again
        after ``done``. Test wires may call ``done`` at once, inside this call.
        """
        ...


UNLIMITED: int = 1 << 62
"""``handle_buffered`` limit meaning "everything buffered" (what ``data_received`` uses)."""


class Dialogue(Protocol):
    """One connection's protocol state machine (see the module docstring).

    The server feeds input in two steps so that it controls the work done per loop turn and
    can pace a fast client (throttle, never cut): :meth:`receive_data` only buffers, and
    :meth:`handle_buffered` decodes and handles at most ``limit`` inputs. An *input* is one
    decoded message or one codec error (a rejected frame is work too). ``data_received`` is
    both at once, for sans-I/O tests and simple callers.
    """

    def data_received(self, data: bytes) -> None:
        """``receive_data(data)`` then ``handle_buffered(UNLIMITED)``."""
        ...

    def receive_data(self, data: bytes) -> None:
        """Buffer bytes from the peer without handling them."""
        ...

    def handle_buffered(self, limit: int) -> int:
        """Handle at most ``limit`` buffered inputs; return how many were handled.

        Fewer than ``limit`` means nothing complete is left to handle now: the buffer holds
        no complete message, the dialogue closed, or it waits for an :meth:`Wire.offload`.
        """
        ...

    def connection_lost(self) -> None:
        """The peer went away (EOF, reset, write error, slow-consumer cut-off)."""
        ...


# --------------------------------------------------------------------------------------------
# What the hall tells a connection
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ChatSaid(Event):
    """A chat line. ``scope`` is "room" (the room's seats and spectators), "private" (the
    sender and ``to``) or "broadcast" (every user of the hall)."""

    sender: str
    text: str
    scope: str = "room"
    to: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Notice(Event):
    """A line from the server itself (operator broadcast, shutdown warning)."""

    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RoomClosed(Event):
    """The room is over and about to disappear. ``reason``: "finished", "aborted",
    "stopped" (operator) or "shutdown"."""

    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SpectatorsChanged(Event):
    """Someone started or stopped watching the room."""

    names: tuple[str, ...]


RenderKey = tuple[Hashable, ...]
"""What one rendering of an event depends on besides the event: the protocol's name first,
then whatever of the listener the protocol's rendering reads (its wire syntax, whether the
event is about its own seat...). Equal keys must mean equal bytes."""

_Rendered = TypeVar("_Rendered")


@dataclass(frozen=True, slots=True)
class Delivery:
    """One numbered room event on its way to a connection.

    Encode once: a room hands the *same* delivery to every listener of one event, with a
    fresh ``renders`` cache (:meth:`sharing_renders`). A dialogue renders through
    :meth:`rendered`, so the first listener of a protocol and render key builds the bytes and
    the others reuse them; an AAH action seen by eight seats is rendered twice (the player,
    the others), not eight times. The bytes are immutable, so sharing them is safe; what must
    stay private is decided by the key (docs/architecture.md, "Encode once").

    A delivery without a cache (``renders=None``: the room's history, a resume, a test)
    renders for its one listener every time. The cache never widens an audience: the room has
    already checked :meth:`~gamehall.rules._core.Event.visible_to` before a listener sees the
    delivery, and a private event's delivery reaches only its audience.
    """

    seq: int
    event: Event
    renders: dict[RenderKey, Any] | None = field(default=None, compare=False, repr=False)

    def sharing_renders(self) -> Delivery:
        """This delivery with an empty render cache, for one fan-out to a room's listeners.

        The room's history keeps the bare event (a resume gets cacheless deliveries), so no
        rendered bytes outlive the fan-out (a room holds hundreds of past events; their bytes
        would be dead weight).
        """
        return Delivery(self.seq, self.event, {})

    def rendered(self, key: RenderKey, render: Callable[[], _Rendered]) -> _Rendered:
        """``render()``, or what an earlier listener's ``render()`` gave for the same ``key``.

        The caller promises that ``render`` depends only on the event and on ``key`` (never
        on state of its own connection left out of the key) and returns something immutable
        (a tuple of ``bytes``, a ``str``): every listener with that key gets the very same
        object. Listeners of different protocols use different first elements of the key.
        """
        cache = self.renders
        if cache is None:
            return render()
        try:
            return cast(_Rendered, cache[key])
        except KeyError:
            value = cache[key] = render()
            return value


class CloseReason(enum.Enum):
    """Why the hall ends a connection's place in a room or in the hall."""

    REQUESTED = "requested"  # the user asked to leave / disconnect
    KICKED = "kicked"  # an operator kicked the seat
    GAME_OVER = "game_over"  # the room finished normally
    ABORTED = "aborted"  # the room ended early (too few players, operator stop)
    SHUTDOWN = "shutdown"  # the server is stopping
    REPLACED = "replaced"  # the same user logged in again elsewhere
    INACTIVE = "inactive"  # idle timeout or too many skipped turns
    PROTOCOL = "protocol"  # too many protocol errors


# --------------------------------------------------------------------------------------------
# What a connection asks of the hall
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoomInfo:
    """A room as the lobby shows it."""

    room_id: str
    game: str
    title: str
    config: Mapping[str, JSON]
    seats: Mapping[Seat, str]
    away: frozenset[Seat]
    spectators: tuple[str, ...]
    has_password: bool
    operator: str | None
    started: bool
    finished: bool
    max_seats: int
    created_seq: int
    extra: Mapping[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class HeldSeat:
    """A seat a user holds in a running room (:meth:`Session.held_seats`). ``away`` is true
    while the seat is held for its grace (no connection plays it)."""

    room_id: str
    game: str
    seat: Seat
    away: bool
    created_seq: int


@dataclass(frozen=True, slots=True)
class Retaken:
    """A held seat taken back (:meth:`Session.retake`). The seat's resync reached the
    session's listener as the room's deliveries after ``since``."""

    room: RoomPort
    seat: Seat
    since: int


class HallError(Exception):
    """A lobby request the hall refuses. ``code`` is stable; protocols pick their wording.

    Codes: ``name_invalid``, ``title_invalid``, ``chat_invalid`` (the text rule,
    :mod:`gamehall.protocols._text`), ``name_in_use``, ``no_such_room``, ``no_such_user``,
    ``wrong_password``, ``room_full``, ``game_in_progress``, ``not_in_room``,
    ``already_in_room``, ``seat_taken_over`` (a bot took the held seat over),
    ``not_operator``, ``no_open_room``, ``config`` (bad settings),
    ``chat_disabled``, ``rate_limited``, ``not_logged_in``, ``closed``, ``stale`` (an action
    decided on a state the room has moved past, :mod:`gamehall.hall.stale`), ``seat_reserved``
    (a contest room's seats are its entrants'), ``no_such_contest``, ``not_organiser``.
    """

    def __init__(self, code: str, reason: str, **detail: Any) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.detail = detail


class Listener(Protocol):
    """A connection as the hall sees it: the dialogue implements this.

    The rule (the hall's outbox, docs/architecture.md "The turn of the loop"): the hall never
    calls a listener while a hall call is on the stack. An input is applied and its log entry
    queued at once; every listener call it causes (deliveries, ``ended``, chat,
    ``disconnect``) is queued and made when the outermost hall call has returned, once per
    loop turn, after the turn's log entries are committed to the store. So:

    - what a listener hears is already in the store (log before broadcast);
    - a dialogue's own answer to an input (``ACKN`` after a join, a refusal) goes out before
      the events that input caused, with no holding back on the dialogue's side;
    - a listener method may call the hall at once (log out, leave, act): that is a new hall
      call, whose own listener calls are queued behind the ones being made;
    - each connection hears each room's events in sequence order, and everything in the
      order the hall queued it.

    On a fake clock (tests) queued calls are made by ``clock.run_due()``.
    """

    def deliver(self, room_id: str, delivery: Delivery) -> None:
        """A room event this connection may see (its seat's audience already checked)."""
        ...

    def hall_event(self, event: Event) -> None:
        """A hall-wide event: broadcast chat, private chat, server notice."""
        ...

    def ended(self, room_id: str, reason: CloseReason, text: str) -> None:
        """This connection's seat or spectator place in ``room_id`` is gone (kick, game over,
        abort, shutdown). The dialogue decides whether the wire connection closes."""
        ...

    def disconnect(self, reason: CloseReason, text: str) -> None:
        """The hall wants the whole connection closed (replaced by a new login, shutdown)."""
        ...


@runtime_checkable
class ViewWatcher(Protocol):
    """A listener that renders whole views (the browser) rather than events: the room tells it
    after every accepted input, even one whose events it may not see (another seat's private
    move still changes what everybody's view shows, such as who has played)."""

    def room_changed(self, room_id: str, seq: int) -> None: ...


@runtime_checkable
class Invitable(Protocol):
    """A listener whose protocol can carry an invitation to a table (cg, the browser)."""

    def invited(self, room_id: str, inviter: str) -> bool:
        """``inviter`` invites this user to ``room_id``; ``False`` when it cannot be shown now
        (the user is busy in another lobby or game, or the table is not one it can join)."""
        ...


class LobbyWatcher(Protocol):
    """A connection that shows a live lobby (the browser): the hall pushes room changes to it
    instead of being asked again and again."""

    def lobby_changed(self, change: str, info: RoomInfo) -> None:
        """``change`` is ``"created"``, ``"changed"`` (seats, status, spectators or title) or
        ``"closed"`` (the room left the directory; ``info`` is its last state)."""
        ...

    def preparing_changed(self, state: Mapping[str, JSON] | None) -> None:
        """The server is preparing something people wait for (``state``: ``what``, ``text``,
        ``progress``, ``games`` it holds up), or is done (``None``)."""
        ...


class GamePort(Protocol):
    """A room's game as a connection may read it: what it shows, never a way to change it.

    Every change goes through :meth:`Session.act` (or the hall's own seat calls), which logs,
    numbers and delivers it; a dialogue that held the engine itself could change the game
    behind the room's back. ``view`` is the one place that decides what a seat may know
    (``None``: a spectator). A protocol that needs more than this reads its own game's port
    (cg: :class:`gamehall.protocols.cg.table.DoppelkopfPort`), still without any way to write.
    """

    @property
    def started(self) -> bool: ...

    @property
    def finished(self) -> bool: ...

    def view(self, seat: Seat | None) -> dict[str, JSON]: ...

    def to_move(self) -> ToMove: ...

    def outcome(self) -> Outcome | None: ...

    def seat_names(self) -> Mapping[Seat, str]:
        """Every seat taken (present or held), by seat number."""
        ...

    def resync(self, seat: Seat) -> list[Event]:
        """Events (for ``seat`` alone) that bring a returning connection up to date; changes
        nothing (:meth:`gamehall.rules._core.Game.resync`)."""
        ...


class RoomPort(Protocol):
    """One room, as a connection seated in it (or watching it) sees it."""

    @property
    def room_id(self) -> str: ...

    @property
    def game(self) -> GamePort:
        """The room's game, read only (:class:`GamePort`)."""
        ...

    @property
    def config(self) -> Mapping[str, JSON]: ...

    @property
    def seed(self) -> int:
        """The room's RNG seed: with the room's log it replays the game (UrServer's
        tournament log writes it down)."""
        ...

    @property
    def last_seq(self) -> int: ...

    def info(self) -> RoomInfo: ...

    def deliveries_since(self, seq: int, seat: Seat | None) -> Sequence[Delivery]:
        """Room events after ``seq`` that ``seat`` may see (for resume).

        Raises:
            HallError: ``history_gone`` when the room no longer keeps events that old.
        """
        ...

    def timers(self) -> list[tuple[str, float]]:
        """The game's armed timers as (key, seconds left), for clocks shown to players."""
        ...


class Session(Protocol):
    """One logged-in user's handle on the hall. Every method may raise :class:`HallError`;
    ``act`` also raises the game's :class:`~gamehall.rules._core.RuleError`."""

    @property
    def name(self) -> str: ...

    @property
    def token(self) -> str:
        """A secret that lets the same user resume after a reload or a dropped connection."""
        ...

    def rooms(self, game: str | None = None) -> list[RoomInfo]: ...

    def create_room(
        self,
        game: str,
        settings: Mapping[str, JSON] | None = None,
        *,
        password: str | None = None,
        title: str | None = None,
        extra: Mapping[str, JSON] | None = None,
    ) -> RoomInfo: ...

    def join(self, room_id: str, password: str | None = None) -> Seat:
        """Take a seat in ``room_id`` (or get the held seat back). Returns the seat number."""
        ...

    def after_deliveries(self, call: Callable[[], None]) -> None:
        """Call ``call`` once every listener call queued so far has been made: after the
        events this session's calls caused reached their connections (this one included).
        For a protocol whose answer must follow those events (mrjack's ``ok('Auf
        Wiedersehen')`` after the ``ende`` of a quit, the browser's ``ok`` after an action's
        events). See :class:`Listener` for when queued calls are made."""
        ...

    def spectate(self, room_id: str, password: str | None = None) -> None: ...

    def leave(self, room_id: str) -> None:
        """Give the seat up (or stop watching) now, without a grace."""
        ...

    def start(self, room_id: str) -> None:
        """Start the room's game early. The room's operator only (``not_operator``)."""
        ...

    def act(self, room_id: str, action: Action, *, seq: int | None = None) -> None:
        """Play ``action``. ``seq``: the room sequence number of the state the player decided
        on, for protocols that carry one (the web protocol); the room refuses the action with
        ``HallError("stale")`` when it has since moved that seat's turn
        (:mod:`gamehall.hall.stale`)."""
        ...

    def refused(self, room_id: str, code: str) -> None:
        """Tell the hall that this protocol refused a game input of this user before it became
        an action (a move out of turn, a malformed move; ``code`` names why, for the log). The
        engine's own refusals are counted already: a contest ends a seat's game after too
        many refusals of either kind (docs/contest.md)."""
        ...

    def rename(self, room_id: str, new_name: str) -> None: ...

    def kick(self, room_id: str, seat: Seat) -> None:
        """Release another member's seat. The room's operator only (``not_operator``)."""
        ...

    def add_bots(self, room_id: str, count: int, policy: str = "random") -> list[str]:
        """Seat the hall's bots. The room's operator only (``not_operator``); see
        :meth:`HallPort.add_bots` for the protocols whose note lets any member invite one."""
        ...

    def chat(self, room_id: str, text: str) -> None: ...

    def whisper(self, to: str, text: str) -> None: ...

    def shout(self, text: str) -> None:
        """Chat to every user of the hall."""
        ...

    def room(self, room_id: str) -> RoomPort: ...

    def seat_in(self, room_id: str) -> Seat | None:
        """This user's seat in the room, or ``None`` (spectating or not there)."""
        ...

    def my_rooms(self) -> list[str]: ...

    def held_seats(self, game: str | None = None) -> list[HeldSeat]:
        """The seats this user holds in running rooms (of ``game`` if given), oldest first.
        A protocol asks this right after login to find the game to return its player to."""
        ...

    def retake(self, room_id: str) -> Retaken:
        """Take the held seat in ``room_id`` back on this connection; the seat's resync
        events are delivered to the listener before this returns.

        Raises:
            HallError: ``no_such_room``, or ``not_in_room`` when no seat is held there.
        """
        ...

    def logout(self, *, dropped: bool) -> None:
        """End the session. ``dropped=True`` (connection lost) holds seats of started games for
        the room's grace; ``False`` (the user asked) releases them at once."""
        ...


class HallPort(Protocol):
    """The hall as a new connection sees it before login."""

    def login(
        self,
        name: str,
        listener: Listener,
        *,
        protocol: str,
        token: str | None = None,
        resume_without_token: bool = False,
    ) -> Session:
        """Log ``name`` in. A user whose connection was lost may be resumed with their token
        (or, for protocols without authentication, with ``resume_without_token``).

        Raises:
            HallError: ``name_invalid`` or ``name_in_use``.
        """
        ...

    def rooms(self, game: str | None = None) -> list[RoomInfo]:
        """Every room of the hall (of ``game``, or all), first created first. On a node of
        several (docs/scale-out.md) this and every look-up below include the rooms other
        nodes own; such a room may not be reachable through :meth:`Session.room` from here
        (:func:`served_here`)."""
        ...

    def rooms_matching(self, game: str, rule: Callable[[RoomInfo], bool]) -> Iterator[RoomInfo]:
        """The rooms of ``game`` that satisfy ``rule`` (a module-level predicate: the hall keeps
        an index per rule, updated as rooms change), first created first. Costs what it
        yields, not the number of rooms; use it instead of filtering :meth:`rooms` in any
        per-join path."""
        ...

    def seats_of(self, name: str) -> list[RoomInfo]:
        """The rooms where ``name`` (ignoring case) holds a seat, from an index."""
        ...

    def room_count(self, game: str | None = None) -> int:
        """How many rooms (of ``game``, or all) the hall holds, without listing them."""
        ...

    def room_info(self, room_id: str) -> RoomInfo | None:
        """One room as the lobby sees it, found by id (``None`` when the hall no longer has
        it). Use it instead of searching :meth:`rooms` for an id."""
        ...

    def game_defaults(self, game: str) -> Mapping[str, JSON]: ...

    @property
    def game_types(self) -> Mapping[str, GameType]:
        """The games this hall hosts (their settings schemas and action codecs)."""
        ...

    @property
    def tournament(self) -> bool:
        """Whether the server runs in tournament mode (``--tournament``): protocols that have
        one (UrServer, note 10) log each game for replay and close sockets at the end."""
        ...

    def password_work(self, password: str | None, room_id: str | None = None) -> Callable[[], None] | None:
        """The slow part (scrypt) of a later create (``room_id`` None) or join/spectate of
        ``room_id`` with ``password``, as a closure for :meth:`Wire.offload`; ``None`` when
        nothing is slow. The later hall call then finds the answer ready."""
        ...

    def watch_lobby(self, watcher: LobbyWatcher) -> Callable[[], None]:
        """Push every room change to ``watcher`` from now on; call the result to stop."""
        ...

    def invite(self, room_id: str, inviter: str, name: str) -> None:
        """``inviter`` (a member of the room) invites the online user ``name`` to it.

        Raises:
            HallError: ``no_such_room``, ``not_in_room`` (the inviter), ``no_such_user`` (not
                online), ``not_invitable`` (their protocol has no invitations), ``busy``.
        """
        ...

    def preparing(self) -> Mapping[str, JSON] | None:
        """What the server is preparing (see :meth:`LobbyWatcher.preparing_changed`), if anything."""
        ...

    def recent_chat(self, room_id: str | None) -> list[dict[str, JSON]]:
        """The last lines of a room's chat (``room_id``) or of the hall's broadcast chat and
        notices (``None``), oldest first, as ``{"sender", "text", "at", "kind"}``."""
        ...

    def add_bots(self, room_id: str, count: int, policy: str = "random") -> list[str]:
        """Seat ``count`` in-process bots in the room; returns their names.

        Raises:
            HallError: no such room, no free seat, unknown policy, or no bots on this server.
        """
        ...


def served_here(session: Session, room_id: str) -> bool:
    """Whether ``session`` can reach the listed room ``room_id`` (:meth:`Session.room`).

    On one node every listed room is. On a node of several the lobby lists every node's
    rooms, but a room another node owns is only listed there: a protocol that needs the
    room's game (its view, a seat in it) skips the rooms this says no to, as it would a
    room closed meanwhile."""
    try:
        session.room(room_id)
    except HallError:
        return False
    return True

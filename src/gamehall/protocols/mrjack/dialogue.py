"""One Mr. Jack connection: the term protocol's state machine over the hall (``mrjack-newyork.md``).

The server makes one :class:`MrJackDialogue` (:mod:`.spec`) per accepted TCP connection and feeds
it bytes; the dialogue answers through its :class:`~gamehall.protocols._core.Wire` in the server's wire
style (``prolog`` by default, or ``plain``; note 2.2) and is the hall's
:class:`~gamehall.protocols._core.Listener` once the user has a nick.

States (note 5)::

    CONNECTED --nick--> NAMED --init(R)--> SEATED (waiting) --2nd player--> PLAYING
                          ^   --init(zuschauer)--> WATCHING                   |
                          +---------------- ende(spiel,...) ------------------+
    any state --quit / EOF--> CLOSED

- ``CONNECTED``: the server spoke first (``ok(Bitte einen Nick eingeben mit nick(Nick))``);
  only ``nick``, ``ison`` and ``quit`` work, anything else gets that text as ``err``.
- ``NAMED``: ``init`` seats the user (:mod:`.seating`); game commands get "Unbekannter Befehl".
- ``SEATED``/``PLAYING``: ``aktiv``, ``aktion``, ``ziel``, ``fertig``, ``aufgeben`` go to the
  engine as its actions; the engine's refusals become the seed's ``err`` texts
  (:func:`.messages.refusal`) and change nothing. Table events become terms
  (:func:`.messages.event_terms`).
- ``WATCHING``: the game's ``S>CC`` messages only; commands other than ``ison``/``quit`` are
  refused.

Drops follow the game's ``rejoin_grace`` (note 12, revised 2026-12: default 60 s; 0: a drop is
a forfeit); with a grace, the same nick logging in again (``nick``, then any player ``init``)
gets its held seat back, whatever role the ``init`` names, and a catch-up (the engine's
resync): see docs/recovery.md. After a server restart every seat of a running game is held
that way.
The hall calls the listener methods only after its own calls have returned (its outbox, see
:class:`~gamehall.protocols._core.Listener`), so they may log out at once, and the events a
join causes arrive after the ``ok(Du bist R)`` this dialogue sends in answer to it.
"""

from __future__ import annotations

import enum
import logging
import re
from collections.abc import Callable, Sequence
from typing import Final

from gamehall.protocols._core import (
    NEED_DATA,
    UNLIMITED,
    CloseReason,
    Delivery,
    HallError,
    HallPort,
    ProtocolError,
    Session,
    Wire,
)
from gamehall.protocols.mrjack import seating, texts
from gamehall.protocols.mrjack.codec import MAX_LINE_BYTES, Received, TermCodec
from gamehall.protocols.mrjack.messages import atoms, err, event_terms, ok, refusal, render_key, term
from gamehall.protocols.mrjack.terms import Atom, Command, Str, Style, Term, print_term
from gamehall.rules._core import Action, Event, RuleError
from gamehall.rules.mrjack.actions import ROLES, Aktion, Aktiv, Aufgeben, Fertig, Ziel

log = logging.getLogger(__name__)

IDLE_TIMEOUT_S: Final = 0.0
"""The server's idle timeout for this protocol: off. The note has no timeout in the lobby or in
waiting games (note 12); the engine's turn clock handles silent players, TCP keepalive dead
peers."""

NICK_PATTERN: Final = re.compile(r"[A-Za-z0-9_]{1,16}")
"""A legal nick (note 2.3 limits): 1-16 ASCII letters, digits or ``_``."""


class State(enum.Enum):
    """The connection states of note 5."""

    CONNECTED = "connected"
    NAMED = "named"
    SEATED = "seated"
    WATCHING = "watching"
    CLOSED = "closed"


def _style_option(hall: HallPort) -> Style:
    value = seating.server_option(hall, "wire_style", Style.PROLOG.value)
    try:
        return Style(value)
    except ValueError:
        log.warning("mrjack: unknown wire_style %r; using prolog", value)
        return Style.PROLOG


class MrJackDialogue:
    """The Mr. Jack term protocol for one connection (see the module docstring)."""

    def __init__(
        self,
        services: seating.MrJackServices,
        wire: Wire,
        *,
        style: Style | None = None,
        max_games: int | None = None,
        max_line: int = MAX_LINE_BYTES,
    ) -> None:
        hall = services.hall
        self._hall = hall
        self._wire = wire
        self._clock = services.clock
        self.style = style if style is not None else _style_option(hall)
        self._max_games = max_games
        self._codec = TermCodec(self.style, max_line=max_line)
        self._roster = services.roster
        self.state = State.CONNECTED
        self.nick: str | None = None
        self.room_id: str | None = None
        self.role: str | None = None
        self._session: Session | None = None
        self._logged_out = False
        self._lost = False
        self._quitting = False
        self.send(ok(texts.ASK_NICK))

    # ------------------------------------------------------------------ Dialogue: input

    def data_received(self, data: bytes) -> None:
        """Bytes from the client, in any chunking: one command per line, in order."""
        self.receive_data(data)
        self.handle_buffered(UNLIMITED)

    def receive_data(self, data: bytes) -> None:
        """Buffer bytes; the server calls :meth:`handle_buffered` to pace the handling."""
        if self.state is not State.CLOSED:
            self._codec.receive_data(data)

    def handle_buffered(self, limit: int) -> int:
        """Handle up to ``limit`` buffered lines (or framing errors); returns how many."""
        handled = 0
        while handled < limit and not self._closed():
            try:
                message = self._codec.next_message()
            except ProtocolError as exc:
                handled += 1
                self.send(err(exc.reason))
                if not exc.recoverable:  # a line past the memory bound: nothing valid follows
                    self._close_for_protocol_error()
                continue
            if message is NEED_DATA:
                break
            assert isinstance(message, Received)
            handled += 1
            self._handle_safely(message)
        return handled

    def connection_lost(self) -> None:
        """The socket is gone: a drop (note 12: a ``quit`` without the ``ok``)."""
        if self._lost:
            return
        self._lost = True
        self.state = State.CLOSED
        self._logout(dropped=True)

    # ------------------------------------------------------------------ Listener: from the hall

    def deliver(self, room_id: str, delivery: Delivery) -> None:
        """A room event for us (those of our own join come after ``ok(Du bist R)``)."""
        if room_id != self.room_id or self.state is State.CLOSED:
            return
        event, nick, watching = delivery.event, self.nick, self.state is State.WATCHING
        try:
            key = ("mrjack", self.style, *render_key(event, nick, watching))
            lines = delivery.rendered(key, lambda: self._encode(event_terms(event, nick, watching)))
            self._send_encoded(lines)
        except Exception:
            log.exception("mrjack %s (%s): failed to pass on %s", self._wire.peer, self.nick, delivery.event)

    def hall_event(self, event: Event) -> None:
        """Whispers, shouts and notices have no term in the seed: not shown on this wire."""

    def ended(self, room_id: str, reason: CloseReason, text: str) -> None:
        """Our seat or chair is gone (game over, aborted, kicked, shutdown): back to ``NAMED``;
        a player whose game ended hears the ``init`` hint again (note 5)."""
        if room_id != self.room_id or self.state is State.CLOSED:
            return
        was_player = self.state is State.SEATED
        self.room_id = self.role = None
        self.state = State.NAMED
        if was_player and not self._quitting and reason is not CloseReason.SHUTDOWN:
            self.send(ok(texts.INIT_HINT))

    def disconnect(self, reason: CloseReason, text: str) -> None:
        """The hall ends the connection (shutdown, another login of this nick)."""
        if self.state is State.CLOSED:
            return
        self.state = State.CLOSED
        self._logout(dropped=True)
        if not self._lost:
            self._wire.close()

    # ------------------------------------------------------------------ commands

    def _handle_safely(self, message: Received) -> None:
        """Handle one command; a bug in a handler answers ``err(Interner Fehler)`` and the
        connection and its game go on (note 12)."""
        try:
            self._handle(message)
        except Exception:
            log.exception("mrjack %s (%s): internal error on %r", self._wire.peer, self.nick, message.line)
            if self.state is not State.CLOSED:
                self.send(err(texts.INTERNAL_ERROR))

    def _handle(self, message: Received) -> None:
        command, line = message.command, message.line
        args: tuple[Term, ...] = ()
        if isinstance(command, Atom):
            name = command.name.lower()
        else:
            name, args = command.functor.lower(), command.args
        handler = _HANDLERS.get((name, len(args)))
        if self.state is State.CONNECTED and name not in ("nick", "ison", "quit"):
            self.send(err(texts.ASK_NICK))
            return
        if handler is None:
            self.send(err(texts.unknown_command(line)))
            return
        handler(self, args, line)

    def _on_nick(self, args: Sequence[Term], line: str) -> None:
        if self.state is not State.CONNECTED:
            self.send(err(texts.unknown_command(line)))
            return
        nick = shown(args[0])
        if not isinstance(args[0], (Atom, int)) or not NICK_PATTERN.fullmatch(nick):
            self.send(err(texts.nick_invalid(nick)))
            return
        try:
            session = self._hall.login(nick, self, protocol="mrjack", resume_without_token=True)
        except HallError as exc:
            taken = exc.code == "name_in_use"
            self.send(err(texts.nick_taken(nick) if taken else texts.nick_invalid(nick)))
            return
        self._session = session
        self.nick = nick
        self.state = State.NAMED
        self._roster.add(nick)
        self.send(ok(texts.nick_ok(nick)))
        self.send(ok(texts.INIT_HINT))

    def _on_init(self, args: Sequence[Term], line: str) -> None:
        session = self._session
        assert session is not None
        role = value_of(args[0])
        if role is None or role not in (*ROLES, texts.SPECTATOR):
            self.send(err(texts.role_unknown(shown(args[0]).lower())))
            return
        if self.role is not None:
            self.send(err(texts.already_identified(self.role)))
            return
        if role == texts.SPECTATOR:
            self._watch(session)
            return
        held = seating.held_game(session)
        if held is not None:  # note 12 "Dropped connection": nick + init retake the held seat
            room_id, held_role = held
            self._join(lambda: (room_id, session.join(room_id)), held_role)
            return
        limit = self._max_games if self._max_games is not None else seating.max_games(self._hall)
        try:
            self._join(lambda: seating.seat(self._hall, session, role, limit), role)
        except seating.NoSeat:
            self.send(err(texts.role_taken(role)))

    def _join(self, take_seat: Callable[[], tuple[str, int]], role: str) -> None:
        """Take a seat, then ``ok(Du bist R)``, then the events the join caused (the game
        start when we were the second player, or the catch-up after a drop: the hall delivers
        them once this input is handled)."""
        room_id, _seat = take_seat()
        self.room_id, self.role, self.state = room_id, role, State.SEATED
        self.send(ok(texts.you_are(role)))

    def _watch(self, session: Session) -> None:
        info = seating.oldest_game(self._hall, session)
        if info is None:
            self.send(err(texts.NO_GAME))
            return
        session.spectate(info.room_id)
        self.room_id, self.role, self.state = info.room_id, texts.SPECTATOR, State.WATCHING
        self.send(ok(texts.you_are(texts.SPECTATOR)))

    def _act(self, action: Action, line: str) -> None:
        """A game command: the engine decides; a refusal is one ``err`` and changes nothing."""
        session, room_id = self._session, self.room_id
        if session is None or room_id is None or self.state is not State.SEATED:
            self.send(err(texts.unknown_command(line)))
            return
        try:
            session.act(room_id, action)
        except RuleError as exc:
            self._send_all(refusal(exc, line))
        except HallError:
            self.send(err(texts.unknown_command(line)))

    def _on_aktiv(self, args: Sequence[Term], line: str) -> None:
        self._enum_command(args[0], line, Aktiv)

    def _on_aktion(self, args: Sequence[Term], line: str) -> None:
        self._enum_command(args[0], line, Aktion)

    def _on_ziel(self, args: Sequence[Term], line: str) -> None:
        self._enum_command(args[0], line, Ziel)

    def _enum_command(self, arg: Term, line: str, make: Callable[[str], Action]) -> None:
        value = value_of(arg)
        if value is None:
            self.send(err(texts.unknown_command(line)))
            return
        self._act(make(value), line)

    def _on_fertig(self, args: Sequence[Term], line: str) -> None:
        self._act(Fertig(), line)

    def _on_aufgeben(self, args: Sequence[Term], line: str) -> None:
        self._act(Aufgeben(), line)

    def _on_chat(self, args: Sequence[Term], line: str) -> None:
        """Relayed unchanged to the opponent (note 4.1); spectators may not chat."""
        session, room_id = self._session, self.room_id
        assert session is not None
        text = shown(args[0])
        if self.state is State.WATCHING or not text:
            self.send(err(texts.unknown_command(line)))
            return
        if room_id is None or not self._has_opponent(session, room_id):
            self.send(err(texts.NO_OPPONENT))
            return
        if len(text) > texts.CHAT_LIMIT:
            self.send(err(texts.TEXT_TOO_LONG))
            return
        try:
            session.chat(room_id, text)
        except HallError as exc:
            if exc.code == "rate_limited":
                self.send(err(texts.CHAT_RATE_LIMITED))
            elif exc.code == "chat_invalid":
                self.send(err(texts.TEXT_TOO_LONG))  # the hall's own cap is shorter than ours
            else:
                self.send(err(texts.unknown_command(line)))

    @staticmethod
    def _has_opponent(session: Session, room_id: str) -> bool:
        info = session.room(room_id).info()
        me = session.seat_in(room_id)
        return any(seat != me and seat not in info.away for seat in info.seats)

    def _on_quit(self, args: Sequence[Term], line: str) -> None:
        """``quit``: in a running game the same ``ende(spiel,...)`` as ``aufgeben`` (to the
        quitter too), then ``ok(Auf Wiedersehen)`` and the close (note 12). Input after the
        ``quit`` is ignored; the goodbye waits for the resignation's events."""
        self._quitting = True
        session, room_id = self._session, self.room_id
        if session is not None and room_id is not None and self.state is State.SEATED:
            info = session.room(room_id).info()
            if info.started and not info.finished:
                try:
                    session.act(room_id, Aufgeben())
                except (RuleError, HallError) as exc:
                    log.info("mrjack %s (%s): quit could not resign: %s", self._wire.peer, self.nick, exc)
        if session is None:
            self._goodbye()
        else:
            session.after_deliveries(self._goodbye)

    def _goodbye(self) -> None:
        if self.state is State.CLOSED:
            return
        self.send(ok(texts.GOODBYE))
        self.state = State.CLOSED
        self._logout(dropped=False)
        if not self._lost:
            self._wire.close()

    def _on_ison(self, args: Sequence[Term], line: str) -> None:
        self.send(term("ison", atoms(self._roster.nicks())))

    # ------------------------------------------------------------------ helpers

    def _close_for_protocol_error(self) -> None:
        """Input that cannot be valid (a line past the memory bound): the ``err`` was sent;
        close like a lost connection (a seat in a running game is held, note 12)."""
        self.state = State.CLOSED
        self._logout(dropped=True)
        if not self._lost:
            self._wire.close()

    def _closed(self) -> bool:
        """Whether input is over (a handler may have closed the connection, or said ``quit``)."""
        return self.state is State.CLOSED or self._quitting

    def send(self, command: Command) -> None:
        """One line; nothing once the connection is lost."""
        if not self._lost:
            self._wire.send(self._codec.encode(command))

    def _send_all(self, commands: Sequence[Command]) -> None:
        for command in commands:
            self.send(command)

    def _encode(self, commands: Sequence[Command]) -> tuple[bytes, ...]:
        """The lines of ``commands`` in this connection's wire style."""
        return tuple(self._codec.encode(command) for command in commands)

    def _send_encoded(self, lines: Sequence[bytes]) -> None:
        """Lines already encoded (perhaps by another connection of the same style)."""
        if not self._lost:
            for line in lines:
                self._wire.send(line)

    def _logout(self, *, dropped: bool) -> None:
        if self.nick is not None:
            self._roster.remove(self.nick)
        session = self._session
        if session is None or self._logged_out:
            return
        self._logged_out = True
        try:
            session.logout(dropped=dropped)
        except (HallError, RuleError) as exc:
            log.warning("mrjack %s (%s): logout failed: %s", self._wire.peer, self.nick, exc)


def value_of(arg: Term) -> str | None:
    """An enumerated value as the engine compares it: unquoted and lower-cased (note 2.3
    rule 6); ``None`` for lists and compound terms."""
    if isinstance(arg, Atom):
        return arg.name.strip().lower()
    if isinstance(arg, Str):
        return arg.text.strip().lower()
    if isinstance(arg, int):
        return str(arg)
    return None


def shown(arg: Term) -> str:
    """An argument as an ``err`` text echoes it (free text and atoms as they are)."""
    if isinstance(arg, Atom):
        return arg.name
    if isinstance(arg, Str):
        return arg.text
    return print_term(arg, Style.PLAIN)


_Handler = Callable[[MrJackDialogue, Sequence[Term], str], None]

_HANDLERS: Final[dict[tuple[str, int], _Handler]] = {
    ("nick", 1): MrJackDialogue._on_nick,
    ("init", 1): MrJackDialogue._on_init,
    ("aktiv", 1): MrJackDialogue._on_aktiv,
    ("aktion", 1): MrJackDialogue._on_aktion,
    ("ziel", 1): MrJackDialogue._on_ziel,
    ("fertig", 0): MrJackDialogue._on_fertig,
    ("aufgeben", 0): MrJackDialogue._on_aufgeben,
    ("chat", 1): MrJackDialogue._on_chat,
    ("quit", 0): MrJackDialogue._on_quit,
    ("ison", 0): MrJackDialogue._on_ison,
}
"""(functor, arity) -> handler. Functors compare case-insensitively (note 2.3 rule 3)."""

__all__ = ["IDLE_TIMEOUT_S", "NICK_PATTERN", "MrJackDialogue", "State", "shown", "value_of"]

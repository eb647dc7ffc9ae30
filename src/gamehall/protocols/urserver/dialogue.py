"""One UrServer connection: the 1.13 protocol's state machine over the hall (note 4-9).

The server makes one dialogue (:mod:`.spec`) per accepted TCP connection and feeds it bytes;
the dialogue answers through its :class:`~gamehall.protocols._core.Wire`, and once it sits in a
game it is the hall's :class:`~gamehall.protocols._core.Listener` for that connection.

States (note 4)::

    LOBBY --NEU/TEILNEHMEN/ZUSCHAUEN--> SEQ --last line ok--> PLAYER | SPECTATOR | LOBBY (NEU)
      ^                                  |
      +-------- any FEHLER --------------+          ABMELDEN / EOF --> CLOSED

- ``LOBBY``: NEU, TEILNEHMEN, ZUSCHAUEN, LISTE, STATUS spielname, PING, VERSION, ABMELDEN
  (anything else: FEHLER 30). The server sends nothing before the client does.
- ``SEQ``: only the next line of the sequence (:mod:`.sequences`); anything else is FEHLER 13
  and ends the sequence, as does any other FEHLER.
- ``PLAYER`` / ``SPECTATOR``: the "always" commands, LISTE and VERSION, and for a player the
  game commands (:mod:`.play`). Table events become lines (:mod:`.render`).

A game lives in a hall room; :mod:`.lobby` keeps it listed by its wire name, also after the
hall let the room go at the end, so chat goes on for 30 minutes (tournament mode: the sockets
close right after ``SPIEL_BEENDET``). A player who leaves a running game (ABMELDEN or a closed
socket) keeps the seat, which the engine plays with default moves (A28).

The hall calls the listener methods from inside its own calls, so they never call back into the
session; a close they cause only closes the wire, and the logout follows in
:meth:`UrDialogue.connection_lost`.
"""

from __future__ import annotations

import contextlib
import enum
import logging
from collections.abc import Callable, Sequence
from typing import Any, Final

from gamehall.protocols._core import (
    NEED_DATA,
    UNLIMITED,
    Cancellable,
    ChatSaid,
    CloseReason,
    Delivery,
    HallError,
    HallPort,
    ProtocolError,
    RoomInfo,
    Session,
    SpectatorsChanged,
    Wire,
)
from gamehall.protocols._text import one_line
from gamehall.protocols.urserver import render, sequences, tournament
from gamehall.protocols.urserver.codec import UrCodec
from gamehall.protocols.urserver.commands import Fehler
from gamehall.protocols.urserver.lobby import UrGame, UrServices
from gamehall.protocols.urserver.play import GameInput
from gamehall.protocols.urserver.texts import VERSION, fehler_line
from gamehall.rules._core import Event, SeatAway, SeatJoined, SeatLeft
from gamehall.rules.ursuppe import events as ev

log = logging.getLogger(__name__)

IDLE_TIMEOUT_S: Final = 0.0
"""The server's idle timeout for this protocol: off. A player may think for the whole request
timeout (up to an hour) and spectators only listen. **Decision (ours).**"""

END_LINGER_S: Final = 1800.0
"""Normal mode: sockets stay open this long after ``SPIEL_BEENDET`` for the chat (seed)."""

CHAT_MAX: Final = 70


class State(enum.Enum):
    LOBBY = "lobby"
    SEQ = "seq"
    PLAYER = "player"
    SPECTATOR = "spectator"
    CLOSED = "closed"


class UrDialogue:
    """The UrServer protocol for one TCP connection (see the module docstring)."""

    def __init__(
        self,
        services: UrServices,
        wire: Wire,
        *,
        encoding: str = "utf-8",
        end_linger_s: float = END_LINGER_S,
        tournament: bool | None = None,
    ) -> None:
        hall = services.hall
        self.hall: HallPort = hall
        self.wire = wire
        self.clock = services.clock
        self.lobby = services.lobby
        self.tournament = hall.tournament if tournament is None else tournament
        self._codec = UrCodec(encoding=encoding)
        self._end_linger_s = end_linger_s
        self.state = State.LOBBY
        self.sequence: sequences.Sequence | None = None
        self.session: Session | None = None
        self.game: UrGame | None = None
        self.hall_name: str | None = None
        self._wire_name = ""
        self.seat: int | None = None
        self.play = GameInput(self)
        self._spectators_seen: set[str] | None = None
        self._gone_seats: set[int] = set()
        self._linger: Cancellable | None = None
        self._lost = False
        self.waiting = False
        """A room password's scrypt runs off the loop: input waits (see :meth:`after_password_work`)."""
        self._password_ready = False

    @property
    def closed(self) -> bool:
        return self.state is State.CLOSED

    # ------------------------------------------------------------------ lobby.Member

    @property
    def colour(self) -> int | None:
        return self.seat if self.state is State.PLAYER else None

    @property
    def wire_name(self) -> str:
        return self._wire_name

    def send_lines(self, lines: Sequence[str]) -> None:
        """Lines to this client as one write (nothing once closed)."""
        if lines and self.state is not State.CLOSED:
            self.wire.send(self._codec.encode_block(lines))

    def seat_back(self, colour: int, wire_name: str) -> None:
        """Another player retook its held seat (docs/recovery.md): announced like a join, and
        a later departure of that seat is announced again."""
        self._gone_seats.discard(colour)
        self.send_lines([f"SPIELERIN_ANGEMELDET {colour} {wire_name}"])

    def fehler(self, number: int) -> None:
        self.send_lines([fehler_line(number)])

    # ------------------------------------------------------------------ Dialogue: input

    def data_received(self, data: bytes) -> None:
        """Bytes from the client: split into lines (any chunking) and handle each in order."""
        self.receive_data(data)
        self.handle_buffered(UNLIMITED)

    def receive_data(self, data: bytes) -> None:
        """Buffer bytes; the server calls :meth:`handle_buffered` to pace the handling."""
        if self.state is not State.CLOSED:
            self._codec.receive_data(data)

    def handle_buffered(self, limit: int) -> int:
        """Handle up to ``limit`` buffered lines (or framing errors); returns how many."""
        handled = 0
        while handled < limit and not self.closed and not self.waiting:
            try:
                line = self._codec.next_message()
            except ProtocolError as exc:
                handled += 1
                self._abort_pending_input()
                self.fehler(22)
                if not exc.recoverable:  # a line past the memory bound: nothing valid follows
                    self._depart(announce=True)
                    self._close()
                continue
            if line is NEED_DATA:
                break
            assert isinstance(line, str)
            handled += 1
            self._handle_safely(line)
        return handled

    def connection_lost(self) -> None:
        """The socket is gone: a running game holds the seat for the room's grace (played with
        default moves meanwhile, A28), so the same name can retake it (note 5.1, "Rejoin");
        before the start the seat is freed. Then the session ends."""
        if self._lost:
            return
        self._lost = True
        self._depart(announce=True, dropped=True)
        self.state = State.CLOSED
        if self._linger is not None:
            self._linger.cancel()
            self._linger = None

    # ------------------------------------------------------------------ handling lines

    def _handle_safely(self, line: str) -> None:
        self._run_safely(lambda: self._handle(line), line)

    def _run_safely(self, step: Callable[[], None], line: str) -> None:
        try:
            step()
        except Fehler as exc:
            self._abort_pending_input()
            self.fehler(exc.number)
        except Exception:
            log.exception(
                "UrServer %s: internal error handling %r in state %s", self.wire.peer, line, self.state
            )
            self._abort_pending_input()
            self.fehler(22)

    def after_password_work(self, work: Callable[[], None] | None, retry: Callable[[], None]) -> bool:
        """Whether the caller must stop here because a room password's scrypt (``work``, from
        ``hall.password_work``) now runs off the loop (``Wire.offload``); ``retry`` then runs
        the same step again, its checks included, and the hall finds the answer ready.
        Input of this connection waits meanwhile (:meth:`handle_buffered`)."""
        if work is None or self._password_ready:
            return False
        self.waiting = True

        def done(_: object) -> None:
            self.waiting = False
            if self.closed:
                return
            self._password_ready = True
            try:
                self._run_safely(retry, "(after a password check)")
            finally:
                self._password_ready = False

        self.wire.offload(work, done)
        return True

    def _abort_pending_input(self) -> None:
        """A FEHLER ends a login sequence and discards an open client block."""
        if self.state is State.SEQ:
            self.sequence = None
            self.state = State.LOBBY
        self.play.discard_block()

    def _handle(self, line: str) -> None:
        words = line.split()
        keyword, params = words[0].upper(), words[1:]
        rest = line[len(words[0]) :].lstrip(" ")
        if self.state is State.SEQ:
            assert self.sequence is not None
            self.sequence.line(self, keyword, params)
        elif self.state is State.LOBBY:
            self._lobby_command(keyword, params)
        elif self.state in (State.PLAYER, State.SPECTATOR):
            self._game_state_command(keyword, params, rest)

    def _lobby_command(self, keyword: str, params: list[str]) -> None:
        if keyword in ("NEU", "TEILNEHMEN", "ZUSCHAUEN"):
            sequences.begin(self, keyword, params)
        elif keyword == "LISTE":
            self._no_params(params)
            self.send_lines(self._liste())
        elif keyword == "STATUS":
            if len(params) != 1:
                raise Fehler(21)
            sequences.discover(self)
            game = self.lobby.find(params[0])
            if game is None or game.elsewhere:  # another node's game: its board is not here
                raise Fehler(27)
            self.send_lines(self.status_block(game))
        elif keyword in ("PING", "VERSION", "ABMELDEN"):
            self._always(keyword, params, "")
        else:
            raise Fehler(30)

    def _game_state_command(self, keyword: str, params: list[str], rest: str) -> None:
        if self.play.block_open() and keyword not in self.play.block_keywords() and keyword != "ABMELDEN":
            raise Fehler(30)
        if keyword in ("NEU", "TEILNEHMEN", "ZUSCHAUEN"):
            raise Fehler(13)
        if keyword == "LISTE":
            self._no_params(params)
            self.send_lines(self._liste())
        elif keyword in _ALWAYS:
            self._always(keyword, params, rest)
        else:
            self.play.line(keyword, params)

    @staticmethod
    def _no_params(params: list[str]) -> None:
        if params:
            raise Fehler(21)

    def _always(self, keyword: str, params: list[str], rest: str) -> None:
        """The commands of "Im Spiel, Immer" (and PING/VERSION/ABMELDEN in the lobby)."""
        if keyword == "PING":
            self._no_params(params)
            self.send_lines(["PONG"])
        elif keyword == "VERSION":
            self._no_params(params)
            self.send_lines([f"VERSION {VERSION}"])
        elif keyword == "ABMELDEN":
            self._no_params(params)
            self._depart(announce=True)
            self.state = State.CLOSED
            self.wire.close()
        elif keyword == "NACHRICHT":
            self._chat(rest)
        elif keyword == "PRIVAT_NACHRICHT":
            self._private_chat(params, rest)
        else:
            self._query(keyword, params)

    def _query(self, keyword: str, params: list[str]) -> None:
        game = self.game
        assert game is not None
        if keyword == "GEN_ANZAHL":
            if len(params) != 1:
                raise Fehler(21)
            number = sequences.integer(params[0])
            pool = game.table.view(None)["gene_pool"]
            if not 0 <= number < len(pool):
                raise Fehler(22)
            self.send_lines([f"GEN_ANZAHL {number} {pool[number]['copies']}"])
            return
        self._no_params(params)
        view = game.table.view(None)
        if keyword == "STATUS":
            self.send_lines(self.status_block(game))
        elif keyword == "SPIELFELD":
            self.send_lines(render.spielfeld_block(view))
        elif keyword == "SPIELFELD2":
            self.send_lines(render.spielfeld2_block(view))
        elif keyword == "TELNET_STATUS":
            self.send_lines(render.telnet_status_block(game.name, view, self._name_of))
        elif keyword == "UMWELTKARTE":
            direction, ozone = view["card"]
            self.send_lines([f"UMWELTKARTE {direction} {ozone}"])

    # ------------------------------------------------------------------ chat

    def _chat(self, text: str) -> None:
        if self.state is not State.PLAYER:
            raise Fehler(30)
        if not text:
            raise Fehler(21)
        assert self.game is not None
        line = f"NACHRICHT {self.seat} {text[:CHAT_MAX]}"
        for member in self.game.everyone():
            if member is not self:
                member.send_lines([line])
        self._tell_the_hall(lambda session, room_id: session.chat(room_id, text[:CHAT_MAX]))

    def _private_chat(self, params: list[str], rest: str) -> None:
        if self.state is not State.PLAYER:
            raise Fehler(30)
        if len(params) < 2:
            raise Fehler(21)
        target = sequences.integer(params[0])
        assert self.game is not None
        if target == self.seat or self.game.seat_wire_name(target) is None:
            raise Fehler(22)
        text = rest[len(params[0]) :].lstrip(" ")[:CHAT_MAX]
        here = [member for member in self.game.members if member.colour == target]
        for member in here:
            member.send_lines([f"PRIVAT_NACHRICHT {self.seat} {text}"])
        hall_name = self.game.table.seat_names().get(target)
        if not here and hall_name is not None:  # a browser player: through the hall
            self._tell_the_hall(lambda session, room_id: session.whisper(hall_name, text))

    def _tell_the_hall(self, say: Callable[[Session, str], None]) -> None:
        """Chat the hall's way too, for browser players at the table (UrServer connections
        get it directly, so they skip it when it comes back). A hall refusal (rate limit, the
        room is over) does not concern the UrServer client."""
        game = self.game
        if (
            self.session is None
            or game is None
            or game.room_id is None
            or game.ended
            or self.state is not State.PLAYER
        ):
            return
        with contextlib.suppress(HallError):
            say(self.session, game.room_id)

    # ------------------------------------------------------------------ blocks and names

    def _name_of(self, colour: int) -> str:
        assert self.game is not None
        return self.game.seat_wire_name(colour) or "-"

    def _liste(self) -> list[str]:
        sequences.discover(self)
        games = self.lobby.listed()
        lines = [f"SPIELE {len(games)}"]
        for game in games:
            lines.append(
                f"SPIEL {game.name} {1 if game.public else 0} {game.status} {game.seated()} {game.players}"
            )
        return lines

    def _spectator_names(self, game: UrGame) -> list[str]:
        """Every spectator of ``game`` (note 5.3: one ``ZUSCHAUERIN`` per spectator), the
        asking one included, whatever protocol they watch with: the hall room's spectators
        while it lives (in the hall's order, so every connection gets the same block), else
        the UrServer connections still watching the ended game."""
        if game.room_id is not None and not game.ended:
            info = self._room_info(game.room_id)
            if info is not None:
                return [game.wire_name_of(name) for name in info.spectators]
        return [m.wire_name for m in game.spectators]

    def _room_info(self, room_id: str) -> RoomInfo | None:
        if self.session is not None:
            with contextlib.suppress(HallError):
                return self.session.room(room_id).info()
        return self.hall.room_info(room_id)

    def status_block(self, game: UrGame, view: Any = None) -> list[str]:
        shown = game.table.view(None) if view is None else view
        return render.status_block(
            game.name,
            shown,
            int(shown["timeout_ms"]),
            lambda colour: game.seat_wire_name(colour) or "-",
            self._spectator_names(game),
        )

    # ------------------------------------------------------------------ Listener

    def deliver(self, room_id: str, delivery: Delivery) -> None:
        """A room event this connection may see: its lines as one write."""
        game = self.game
        if game is None or room_id != game.room_id or self.state not in (State.PLAYER, State.SPECTATOR):
            return
        try:
            lines = self._own_lines(delivery.event, game)
            if lines is None:
                self._send_table_lines(delivery, game)
            else:
                self.send_lines(lines)
        except Exception:
            log.exception("UrServer %s: failed to pass on %s", self.wire.peer, delivery.event)

    def _send_table_lines(self, delivery: Delivery, game: UrGame) -> None:
        """An event whose lines are the same for every connection (:func:`.render.event_lines`):
        rendered and encoded once per charset for the whole table
        (:meth:`~gamehall.protocols._core.Delivery.rendered`); what the lines mean to this
        connection (the request it was prompted with) is noted here."""
        event = delivery.event
        lines, block = delivery.rendered(("urserver", self._codec.encoding), lambda: self._table_block(event))
        if lines and lines[0].startswith("ZUG_"):
            self.play.prompted = lines[0].split()[0]
        if isinstance(event, ev.SpielBeendet):
            tournament.log_result(game)
        if lines and self.state is not State.CLOSED:
            self.wire.send(block)

    def _table_block(self, event: Event) -> tuple[tuple[str, ...], bytes]:
        lines = tuple(render.event_lines(event))
        return lines, self._codec.encode_block(lines) if lines else b""

    def _own_lines(self, event: Event, game: UrGame) -> list[str] | None:
        """The lines of an event that this connection renders for itself, because they depend
        on what it has seen or who it is (seat changes, spectators, chat, the game's start, a
        timeout of its own request); ``None`` for every other event (:meth:`_send_table_lines`)."""
        if isinstance(event, SeatJoined):
            self._gone_seats.discard(event.seat)
            if self.hall_name is not None and event.name.lower() == self.hall_name.lower():
                self.seat = event.seat
                return [f"SPIELERIN_AKZEPTIERT {event.seat} {game.wire_name_of(event.name)}"]
            return [f"SPIELERIN_ANGEMELDET {event.seat} {game.wire_name_of(event.name)}"]
        if isinstance(event, (SeatLeft, SeatAway)):
            if event.seat == self.colour or event.seat in self._gone_seats:
                return []
            self._gone_seats.add(event.seat)
            return [f"SPIELERIN_ABGEMELDET {event.seat}"]
        if isinstance(event, SpectatorsChanged):
            return self._spectator_lines(event, game)
        if isinstance(event, ChatSaid):
            return self._foreign_chat(event, game)
        if isinstance(event, ev.SpielBeginnt):
            return self._game_begins(event, game)
        if isinstance(event, ev.ZeitUeberschritten):
            self.play.timed_out = self.play.prompted
            return [fehler_line(29)]
        return None

    def _spectator_lines(self, event: SpectatorsChanged, game: UrGame) -> list[str]:
        now = set(event.names)
        seen, self._spectators_seen = self._spectators_seen, now
        if seen is None:
            return []
        lines = [f"ZUSCHAUERIN_ANGEMELDET {game.wire_name_of(n)}" for n in sorted(now - seen)]
        lines += [f"ZUSCHAUERIN_ABGEMELDET {game.wire_name_of(n)}" for n in sorted(seen - now)]
        return lines

    def _foreign_chat(self, event: ChatSaid, game: UrGame) -> list[str]:
        """Room chat from a browser player (UrServer chat goes from connection to connection)."""
        if event.scope != "room" or event.sender.lower() in game.names:
            return []
        seats = {name.lower(): seat for seat, name in game.table.seat_names().items()}
        seat = seats.get(event.sender.lower())
        return [] if seat is None else [f"NACHRICHT {seat} {one_line(event.text)[:CHAT_MAX]}"]

    def _game_begins(self, event: ev.SpielBeginnt, game: UrGame) -> list[str]:
        view = render.initial_view(game.table.view(None), (event.stroemungsrichtung, event.ozonschichtdicke))
        if self.tournament:
            tournament.log_start(game, self.session)
        return ["SPIEL_BEGINNT", *render.spielfeld_block(view), *self.status_block(game, view)]

    def hall_event(self, event: Event) -> None:
        """A whisper from a browser player at our table becomes a PRIVAT_NACHRICHT; other
        hall-wide chat and notices have no UrServer form."""
        game = self.game
        if not isinstance(event, ChatSaid) or event.scope != "private" or game is None:
            return
        if (
            event.sender.lower() in game.names
            or event.to is None
            or event.to.lower() != (self.hall_name or "").lower()
        ):
            return
        seats = {name.lower(): seat for seat, name in game.table.seat_names().items()}
        seat = seats.get(event.sender.lower())
        if seat is not None:
            self.send_lines([f"PRIVAT_NACHRICHT {seat} {one_line(event.text)[:CHAT_MAX]}"])

    def ended(self, room_id: str, reason: CloseReason, text: str) -> None:
        """The hall let the room go. After a normal end the connection stays for the chat
        (30 minutes; tournament: closed at once); otherwise it closes."""
        game = self.game
        if game is None or room_id != game.room_id or self.state is State.CLOSED:
            return
        if reason is CloseReason.GAME_OVER:
            game.ended = True
            if self.tournament:
                self._close()
            elif self._linger is None:
                self._linger = self.clock.call_later(self._end_linger_s, self._close)
            return
        self._close()

    def disconnect(self, reason: CloseReason, text: str) -> None:
        self._close()

    def _close(self) -> None:
        if self.state is not State.CLOSED:
            self.state = State.CLOSED
            self.wire.close()

    # ------------------------------------------------------------------ joining and leaving

    def enter(
        self, game: UrGame, session: Session, hall_name: str, wire_name: str, *, spectator: bool
    ) -> None:
        """Become a member of ``game`` (before the hall join, whose events we must render)."""
        self.game = game
        self.session = session
        self.hall_name = hall_name
        self._wire_name = wire_name
        game.names[hall_name.lower()] = wire_name
        self.state = State.SPECTATOR if spectator else State.PLAYER
        self.lobby.attach(game, self, spectator=spectator)

    def begin_sequence(self, sequence: sequences.Sequence) -> None:
        self.sequence = sequence
        self.state = State.SEQ

    def end_sequence(self) -> None:
        self.sequence = None
        self.state = State.LOBBY

    def set_spectators_seen(self, names: Sequence[str]) -> None:
        self._spectators_seen = set(names)

    def back_to_lobby(self) -> None:
        """Undo :meth:`enter` after a refused hall join."""
        if self.game is not None:
            self.lobby.detach(self.game, self)
        self.game = None
        self.seat = None
        self.state = State.LOBBY
        self._logout()

    def _depart(self, *, announce: bool, dropped: bool = False) -> None:
        """Leave the game: through the hall while its room lives, else tell the others here.
        ``dropped`` (the socket went away, not ABMELDEN): a seat in a running game is only
        held, through the session's dropped logout."""
        game = self.game
        if game is None:
            self._logout()
            return
        colour, was_spectator = self.colour, self.state is State.SPECTATOR
        self.game = None
        self.lobby.detach(game, self)
        if announce and game.ended:
            line = (
                f"ZUSCHAUERIN_ABGEMELDET {self._wire_name}"
                if was_spectator
                else f"SPIELERIN_ABGEMELDET {colour}"
            )
            for member in game.everyone():
                member.send_lines([line])
        elif dropped and not was_spectator and game.started and not game.ended:
            self._logout(dropped=True)
            return
        elif self.session is not None and game.room_id is not None:
            with contextlib.suppress(HallError):
                self.session.leave(game.room_id)
        self._logout()

    def _logout(self, *, dropped: bool = False) -> None:
        session, self.session = self.session, None
        if session is not None:
            session.logout(dropped=dropped)


_ALWAYS: Final = frozenset(
    {
        "PING",
        "VERSION",
        "ABMELDEN",
        "NACHRICHT",
        "PRIVAT_NACHRICHT",
        "SPIELFELD",
        "SPIELFELD2",
        "STATUS",
        "TELNET_STATUS",
        "UMWELTKARTE",
        "GEN_ANZAHL",
    }
)

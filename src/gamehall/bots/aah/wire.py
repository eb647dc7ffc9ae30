"""The AAH wire bot: a TCP client that plays like the 0.2.0 client and checks what it receives.

:class:`AahWireBot` connects over TCP and speaks the legacy protocol exactly like the 0.2.0
client (specs/aah.md section 12): ``JOIN``; answers the server's ``META`` request with version
200; sends a no-argument ``META`` after ``ACKN``; one ``PICK`` frame per card; ``CZPK`` with the
first id of the chosen submission; ``PONG`` to ``PING``; ignores ``UNRG``/``PNTS``/``NACC``;
``DISC`` then waits at most 1 s on quit. Its choices come from an
:class:`~gamehall.bots.aah.policy.AahPolicy`.

It asserts the client's crash conditions, so it doubles as the *legacy client emulator* of the
end-to-end tests: every crash condition is recorded in ``stats.violations``, and with
``strict=True`` (the default) it also raises :class:`LegacyClientCrash` from :meth:`run` /
:meth:`wait_for`. Beyond the list of section 12, a ``WHTE`` with a non-integer id and a ``REVL``
that is not (integer id, text) pairs count as crashes too (the 0.2.0 client parses both as int).
Other codec errors (unknown command, invalid UTF-8, oversize frame) are server bugs the real
client would silently drop; they go to ``stats.protocol_errors``.

Timing (for benchmarks): every action frame is an :class:`ActionRecord` with the time it was sent
and the time its first *own-visible* consequence arrived. ``CZPK`` is confirmed by the ``RWIN``
(or ``UNRG``) it causes. A ``PICK`` causes nothing on the picker's own connection except, for
the last card of a round, the ``REVL`` burst (the ``BLNK`` goes to the *others*). So with
``ping_probe=True`` the bot sends a ``PING`` right after its ``PICK`` frames and the ``PONG``
confirms them: the server handles one connection's frames in order, so the ``PONG`` arrives only
after the picks were processed. Without the probe a ``PICK`` is confirmed by the next ``REVL``,
``WHTE`` or ``UNRG`` (an upper bound that is only tight for the round's last picker).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable
from typing import Final

from gamehall.bots.aah.policy import AahPolicy, Card
from gamehall.bots.aah.stats import ActionRecord, BotStats
from gamehall.protocols._core import NEED_DATA, ProtocolError
from gamehall.protocols.aah.codec import AahCodec, Frame, Side
from gamehall.protocols.aah.meta import (
    PROTOCOL_VERSION,
    MetaError,
    ServerMeta,
    decode_server_meta,
    encode_client_meta,
)

GAME_ENDED: Final = "The game has ended."
RECONNECT_S: Final = 0.1
"""The pause before each attempt to reconnect after a lost connection."""
REFUSED_RETRY_S: Final = 0.5
"""The pause before trying again after the server refused a reconnection."""


class LegacyClientCrash(AssertionError):
    """The server sent something the 0.2.0 client would crash on (section 12)."""


# --------------------------------------------------------------------------------------------
# Wire bot
# --------------------------------------------------------------------------------------------


class AahWireBot:
    """One legacy AAH client over TCP (see the module docstring for its behaviour).

    Use :meth:`run` to play until the game ends (or for a number of rounds), or drive it step by
    step in a test: :meth:`connect`, then :meth:`wait_for` conditions on its state, :meth:`send`
    frames of your own, and :meth:`quit`.
    """

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        *,
        policy: AahPolicy | None = None,
        rng: random.Random | None = None,
        strict: bool = True,
        play: bool = True,
        meta_version: int = PROTOCOL_VERSION,
        meta_delay: float = 0.0,
        answer_meta: bool = True,
        think_time: float | tuple[float, float] = 0.0,
        judge_settle: float = 0.05,
        ping_probe: bool = False,
        stats: BotStats | None = None,
        on_frame: Callable[[AahWireBot, Frame], None] | None = None,
        clock: Callable[[], float] = time.perf_counter,
        reconnect_s: float = 60.0,
    ) -> None:
        self.host, self.port, self.name = host, port, name
        self.policy = policy or AahPolicy()
        self.rng = rng or random.Random()
        self.strict = strict
        self.play = play
        self.meta_version = meta_version
        self.meta_delay = meta_delay
        self.answer_meta = answer_meta
        self.think_time = think_time
        self.judge_settle = judge_settle
        self.ping_probe = ping_probe
        self.stats = stats or BotStats(name)
        self.on_frame = on_frame
        self.clock = clock
        self.reconnect_s = reconnect_s
        """How long :meth:`run` keeps trying to get back after a lost connection (the
        server's default grace is 60 s; 0: a lost connection ends the run)."""
        self.reconnects = 0
        self.codec = AahCodec(Side.CLIENT)
        self.transcript: list[Frame] = []
        """Every frame received, in order."""
        # what the 0.2.0 client tracks
        self.accepted = False
        self.refused: str | None = None
        self.disconnected: str | None = None
        self.closed = False
        self.nicks: list[str] = []
        self.server_meta: ServerMeta | None = None
        self.hand: dict[int, str] = {}
        self.points: dict[str, int] = {}
        self.game_started = False
        self.game_winner: str | None = None
        self.round_number = 0
        self.czar: str | None = None
        self.black: tuple[str, int] | None = None
        self.revealed: list[list[Card]] = []
        self.revealed_ids: set[int] = set()
        self.blanks = 0
        self.round_winners: list[tuple[str, int] | None] = []
        self._expect_clnf = False
        self._judged = False
        self._pending: list[ActionRecord] = []
        self._timers: list[asyncio.TimerHandle] = []
        self._judge_timer: asyncio.TimerHandle | None = None
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._read_task: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()
        self._failure: Exception | None = None

    # -- public driving API ------------------------------------------------------------------

    @property
    def is_czar(self) -> bool:
        return self.czar is not None and self.czar == self.name

    async def connect(self) -> None:
        """Open the connection, send ``JOIN<name>`` and start reading."""
        self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        self.send(Frame("JOIN", (self.name,)))
        self._read_task = asyncio.create_task(self._read_loop(), name=f"aah-bot-{self.name}")

    def send(self, frame: Frame) -> None:
        """Write one client frame now (ignored once the connection is closed)."""
        self.send_raw(self.codec.encode(frame))

    def send_raw(self, data: bytes) -> None:
        """Write raw bytes (tests use this to send what no real client would)."""
        if self._writer is None or self._writer.is_closing():
            return
        self._writer.write(data)
        self.stats.frames_sent += data.count(b"\x03")

    async def wait_for(self, condition: Callable[[], bool], timeout: float | None = 5.0) -> None:
        """Return once ``condition()`` holds (``timeout=None``: wait as long as it takes);
        re-raise a crash the reader found.

        Raises:
            TimeoutError: the condition did not hold within ``timeout`` seconds.
            LegacyClientCrash: in strict mode, a crash condition occurred.
        """
        async with asyncio.timeout(timeout):
            while True:
                if self._failure is not None:
                    raise self._failure
                if condition():
                    return
                if self.closed:
                    raise ConnectionError(f"{self.name}: connection closed while waiting")
                event = self._changed
                await event.wait()

    async def wait_for_frame(self, command: str, timeout: float = 5.0) -> Frame:
        """The next received frame with ``command`` (from now on)."""
        start = len(self.transcript)

        def seen() -> bool:
            return any(frame.command == command for frame in self.transcript[start:])

        await self.wait_for(seen, timeout)
        return next(frame for frame in self.transcript[start:] if frame.command == command)

    async def run(self, rounds: int | None = None, *, timeout: float | None = None) -> BotStats:
        """Play until the game ends (``rounds=None``) or ``rounds`` rounds have ended, then quit.

        Raises:
            LegacyClientCrash: in strict mode, a crash condition occurred.
            TimeoutError: ``timeout`` seconds passed first.
        """
        if self._writer is None:
            await self.connect()

        def done() -> bool:
            return (
                self.closed
                or self.disconnected is not None
                or self.refused is not None
                or (rounds is not None and self.stats.rounds >= rounds)
            )

        def lost() -> bool:
            """The connection went away without the game's end, a refusal or a crash."""
            ended = self.disconnected is not None or self.refused is not None or self.game_winner is not None
            reached = rounds is not None and self.stats.rounds >= rounds
            return self.closed and not ended and not reached and self._failure is None

        try:
            async with asyncio.timeout(timeout):
                while True:
                    with contextlib.suppress(ConnectionError):
                        await self.wait_for(done, timeout=None)
                    if not lost() or not await self._reconnect():
                        break
            if not self.closed and self.disconnected is None and self.refused is None:
                await self.quit()
        finally:
            await self.close()
        if self._failure is not None:
            raise self._failure
        return self.stats

    async def _reconnect(self) -> bool:
        """After a lost connection: connect again and ``JOIN`` with the same nick, which takes
        a held seat back with the state replay (specs/aah.md 6.3; docs/recovery.md), as a
        restarted 0.2.0 client would. Tries for ``reconnect_s`` seconds; returns whether the
        server accepted the bot again.

        A refusal is tried again too, as a player would: on a hall of several nodes the nick
        stays in use for up to a lease ttl after the node the bot was connected to died,
        until the hall knows that node is gone (docs/scale-out.md, "Failover"). The last
        refusal stays in :attr:`refused` when the time is up."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.reconnect_s
        while loop.time() < deadline:
            await asyncio.sleep(RECONNECT_S if self.refused is None else REFUSED_RETRY_S)
            self._forget_connection()
            self.refused = None
            try:
                await self.connect()
            except OSError:
                continue
            with contextlib.suppress(ConnectionError, TimeoutError):
                await self.wait_for(lambda: self.accepted or self.refused is not None, timeout=5.0)
            if self.accepted:
                self.reconnects += 1
                return True
        return False

    def _forget_connection(self) -> None:
        """What a fresh 0.2.0 client process knows: nothing of the table (the rejoin replay
        brings hand, points, round and czar back); the statistics go on."""
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()
        if self._judge_timer is not None:
            self._judge_timer.cancel()
            self._judge_timer = None
        self.codec = AahCodec(Side.CLIENT)
        self._reader = self._writer = None
        self._read_task = None
        self.accepted = self.closed = False
        self._expect_clnf = self._judged = False
        self.nicks, self.hand, self.points = [], {}, {}
        self.czar = self.black = None
        self.revealed, self.revealed_ids, self.blanks = [], set(), 0
        self._pending = []

    async def quit(self, wait: float = 1.0) -> None:
        """Send ``DISC`` and wait up to ``wait`` seconds for the server's ``DISC`` or EOF."""
        self.send(Frame("DISC"))
        with contextlib.suppress(TimeoutError, ConnectionError):
            await self.wait_for(lambda: self.disconnected is not None, timeout=wait)
        await self.close()

    async def close(self) -> None:
        """Close the socket and stop the timers (idempotent)."""
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()
        if self._writer is not None and not self._writer.is_closing():
            self._writer.close()
            with contextlib.suppress(OSError, ConnectionError):
                await self._writer.wait_closed()
        if self._read_task is not None and self._read_task is not asyncio.current_task():
            self._read_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._read_task
        self.closed = True
        self._pulse()

    # -- reading -------------------------------------------------------------------------------

    async def _read_loop(self) -> None:
        assert self._reader is not None
        try:
            while True:
                data = await self._reader.read(65536)
                if not data:
                    break
                self.codec.receive_data(data)
                self._drain()
                self._after_batch()
                self._pulse()
        except (ConnectionError, OSError):
            pass  # a reset is an end like EOF
        except Exception as error:  # a crash condition in strict mode, or a bug in a hook
            self._failure = error
        finally:
            self.closed = True
            if self._writer is not None:
                self._writer.close()
            self._pulse()

    def _pulse(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def _drain(self) -> None:
        while True:
            try:
                frame = self.codec.next_message()
            except ProtocolError as error:
                if error.code == "malformed_command":
                    self._crash("a frame shorter than 4 bytes")
                else:
                    self.stats.protocol_errors.append(error.reason)
                continue
            if frame is NEED_DATA:
                return
            assert isinstance(frame, Frame)
            self.stats.frames_received += 1
            self.transcript.append(frame)
            if self.on_frame is not None:
                self.on_frame(self, frame)
            self._handle(frame)

    def _crash(self, what: str) -> None:
        self.stats.violations.append(what)
        if self.strict:
            raise LegacyClientCrash(f"{self.name}: {what}")

    # -- frame handling (what the 0.2.0 client does) ----------------------------------------------

    def _handle(self, frame: Frame) -> None:
        command, args = frame.command, frame.args
        self._confirm(command)
        if not self.accepted:
            self._handle_handshake(frame)
            return
        if self._expect_clnf:
            self._expect_clnf = False
            if command != "CLNF":
                self._crash(f"{command} instead of CLNF right after ACKN")
        handler = self._HANDLERS.get(command)
        if handler is not None:
            handler(self, args)

    def _handle_handshake(self, frame: Frame) -> None:
        if frame.command == "META" and not frame.args:
            self._answer_meta_request()
        elif frame.command == "REFU":
            self.refused = frame.args[0] if frame.args else ""
        elif frame.command == "ACKN":
            self.accepted = True
            self._expect_clnf = True
            self.send(Frame("META"))
        else:
            self._crash(f"{frame.command} before ACKN")

    def _answer_meta_request(self) -> None:
        if not self.answer_meta:
            return
        reply = Frame("META", (encode_client_meta(self.meta_version),))
        if self.meta_delay > 0:
            self._later(self.meta_delay, lambda: self.send(reply))
        else:
            self.send(reply)

    def _on_meta(self, args: tuple[str, ...]) -> None:
        if not args:
            self._answer_meta_request()
            return
        try:
            self.server_meta = decode_server_meta(args[0])
        except MetaError as error:
            self._crash(f"server META: {error}")

    def _on_clnf(self, args: tuple[str, ...]) -> None:
        self.nicks = list(args)

    def _on_cljn(self, args: tuple[str, ...]) -> None:
        if args and args[0] not in self.nicks:
            self.nicks.append(args[0])

    def _on_clex(self, args: tuple[str, ...]) -> None:
        if len(args) != 1 or args[0] not in self.nicks:
            self._crash(f"CLEX with {args!r}, not a bare known nick")
            return
        self.nicks.remove(args[0])

    def _on_ping(self, args: tuple[str, ...]) -> None:
        self.send(Frame("PONG"))

    def _on_unrg(self, args: tuple[str, ...]) -> None:
        self.stats.unrg += 1

    def _on_pnts(self, args: tuple[str, ...]) -> None:
        if len(args) == 2 and args[1].isdigit():
            self.points[args[0]] = int(args[1])

    def _on_gstr(self, args: tuple[str, ...]) -> None:
        if not self.game_started:
            self.stats.games_started += 1
        self.game_started = True

    def _on_rstr(self, args: tuple[str, ...]) -> None:
        self.round_number += 1
        self.czar = None
        self.black = None
        self.revealed = []
        self.revealed_ids = set()
        self.blanks = 0
        self._judged = False
        if self._judge_timer is not None:
            self._judge_timer.cancel()
            self._judge_timer = None

    def _on_czar(self, args: tuple[str, ...]) -> None:
        if len(args) != 1 or args[0] not in self.nicks:
            self._crash(f"CZAR names {args!r}, not a known nick (known: {self.nicks})")
            return
        self.czar = args[0]

    def _on_blck(self, args: tuple[str, ...]) -> None:
        if len(args) != 2 or not args[1].isdigit():
            self._crash(f"BLCK with {args!r}, not (text, integer pick)")
            return
        self.black = (args[0], int(args[1]))
        if self.play and not self.is_czar:
            self._schedule(self._play_cards)

    def _on_whte(self, args: tuple[str, ...]) -> None:
        if len(args) != 2 or not args[0].isdigit():
            self._crash(f"WHTE with {args!r}, not (integer id, text)")
            return
        self.hand.setdefault(int(args[0]), args[1])  # an id already in hand is a no-op

    def _on_blnk(self, args: tuple[str, ...]) -> None:
        self.blanks += 1

    def _on_revl(self, args: tuple[str, ...]) -> None:
        if not args or len(args) % 2 or not all(card_id.isdigit() for card_id in args[::2]):
            self._crash(f"REVL with {args!r}, not (id, text) pairs")
            return
        cards = [(int(card_id), text) for card_id, text in zip(args[::2], args[1::2], strict=True)]
        self.revealed.append(cards)
        self.revealed_ids.update(card_id for card_id, _ in cards)

    def _on_rwin(self, args: tuple[str, ...]) -> None:
        if args:
            if len(args) != 2 or not args[1].isdigit() or int(args[1]) not in self.revealed_ids:
                self._crash(f"RWIN with {args!r}: id not revealed this round")
                return
            self.round_winners.append((args[0], int(args[1])))
        else:
            self.round_winners.append(None)
        self.stats.rounds += 1
        self._judged = True

    def _on_gwin(self, args: tuple[str, ...]) -> None:
        self.game_winner = args[0] if args else ""
        if self.game_winner == self.name:
            self.stats.games_won += 1

    def _on_disc(self, args: tuple[str, ...]) -> None:
        self.disconnected = args[0] if args else ""
        if self.disconnected == GAME_ENDED:
            self.stats.games_finished += 1

    _HANDLERS: Final[dict[str, Callable[[AahWireBot, tuple[str, ...]], None]]] = {
        "META": _on_meta,
        "CLNF": _on_clnf,
        "CLJN": _on_cljn,
        "CLEX": _on_clex,
        "PING": _on_ping,
        "UNRG": _on_unrg,
        "PNTS": _on_pnts,
        "GSTR": _on_gstr,
        "RSTR": _on_rstr,
        "CZAR": _on_czar,
        "BLCK": _on_blck,
        "WHTE": _on_whte,
        "BLNK": _on_blnk,
        "REVL": _on_revl,
        "RWIN": _on_rwin,
        "GWIN": _on_gwin,
        "DISC": _on_disc,
    }
    # NACC, NDNY, RMSG, BDCS, CRTO, CZTO, PONG and ACKN/REFU after ACKN change nothing here.

    # -- playing ---------------------------------------------------------------------------------

    def _think_delay(self) -> float:
        if isinstance(self.think_time, tuple):
            return self.rng.uniform(*self.think_time)
        return self.think_time

    def _schedule(self, action: Callable[[], None]) -> None:
        delay = self._think_delay()
        if delay > 0:
            self._later(delay, action)
        else:
            action()

    def _later(self, delay: float, callback: Callable[[], None]) -> asyncio.TimerHandle:
        loop = asyncio.get_running_loop()
        if len(self._timers) > 32:  # forget handles that already fired
            now = loop.time()
            self._timers = [timer for timer in self._timers if timer.when() > now and not timer.cancelled()]
        handle = loop.call_later(delay, self._guarded(callback))
        self._timers.append(handle)
        return handle

    def _guarded(self, callback: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            if not self.closed:
                callback()
                self._pulse()

        return run

    def _play_cards(self) -> None:
        if self.black is None or self.is_czar:
            return
        chosen = self.policy.choose_cards(list(self.hand.items()), self.black[1], self.rng)
        for card_id in chosen:
            del self.hand[card_id]  # the 0.2.0 client removes the card as it sends it
            self._send_action("PICK", card_id)
        if chosen and self.ping_probe:
            self.send(Frame("PING"))

    def _after_batch(self) -> None:
        """After a read: the czar judges once the reveal burst is complete. Every card played
        by the others was announced by a ``BLNK``, so all ``REVL``s are in when they hold as many
        cards; otherwise (a partial submission went back, or a rejoin replay) wait
        ``judge_settle`` seconds after the last ``REVL``."""
        if not (self.play and self.is_czar and self.revealed) or self._judged:
            return
        if self._judge_timer is not None:
            self._judge_timer.cancel()
            self._judge_timer = None
        if self.blanks and len(self.revealed_ids) >= self.blanks:
            self._schedule(self._judge)
        else:
            self._judge_timer = self._later(self.judge_settle, lambda: self._schedule(self._judge))

    def _judge(self) -> None:
        if self._judged or not self.revealed or not self.is_czar:
            return
        self._judged = True
        winner = self.policy.choose_submission(self.revealed, self.rng)
        self._send_action("CZPK", self.revealed[winner][0][0])

    def _send_action(self, command: str, card_id: int) -> None:
        record = ActionRecord(command, card_id, self.clock())
        self.send(Frame(command, (str(card_id),)))
        self.stats.actions_sent += 1
        self.stats.actions.append(record)
        self._pending.append(record)

    def _confirm(self, command: str) -> None:
        if not self._pending:
            return
        now = self.clock()
        still: list[ActionRecord] = []
        for record in self._pending:
            if record.command == "CZPK":
                confirmed = command in ("RWIN", "UNRG")
            elif self.ping_probe:
                confirmed = command == "PONG"
            else:
                confirmed = command in ("REVL", "WHTE", "UNRG")
            if confirmed:
                record.confirmed_at, record.confirmed_by = now, command
            else:
                still.append(record)
        self._pending = still


__all__ = ["GAME_ENDED", "AahWireBot", "ActionRecord", "BotStats", "LegacyClientCrash"]

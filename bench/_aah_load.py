"""A cheap AAH load generator for ``bench_targets.py``: many legacy seats in one process.

Why not :class:`gamehall.bots.aah.AahWireBot`: at 3,000 tables the bench runs 9,000 seats, and
on a 2-core machine every cycle the clients spend is a cycle the server may miss. Here a seat
is one ``asyncio.Protocol`` on the running (uvloop) loop, with no task, no stream, no decoded
``Frame`` objects: a read is split on ETX and only the commands a player needs are looked at
(by their 4-byte name). The seat plays like the 0.2.0 client with think time 0 (``JOIN``, the
``META`` answer, one ``PICK`` frame per card, the czar's ``CZPK`` once every played card is
revealed, ``PONG`` to ``PING``), always from the end of its hand, so no ``PICK`` is refused.

What it measures, at the clients, exactly as issue 12 defines the latency targets:

- **PICK -> REVL**: the 3 seats of a table share a :class:`Table`; the round's picks are
  complete when the last ``PICK`` frame of the round was sent (the latest send time among the
  pickers, whichever it was), and each seat's first ``REVL`` of the round is one sample
  (three per table round);
- **CZPK -> RWIN**: from the moment the czar sent ``CZPK`` to each seat's ``RWIN`` (three
  samples per round, the czar's included).

Samples, actions and frames are counted only while :attr:`Load.recording` is on, so a caller
opens a window, sleeps, and reads :meth:`Load.take`. Everything is bounded: a join waits at
most :data:`JOIN_TIMEOUT_S`, refused seats are retried :data:`JOIN_RETRIES` times, and
:meth:`Load.close` closes every socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from typing import cast

LOOPBACK = "127.0.0.1"
ETX = b"\x03"
NUL = b"\x00"
CLIENT_META = b"METAPG1ldGE+DQogIDx2ZXJzaW9uPjIwMDwvdmVyc2lvbj4NCjwvbWV0YT4=\x03"
"""The 0.2.0 client's ``META`` answer, version 200 (specs/aah.md 3.3, CRLF form)."""
JOIN_TIMEOUT_S = 20.0
JOIN_RETRIES = 3
JOINS_IN_FLIGHT = 24
"""Joins under way at once: enough to keep the server busy, few enough that none waits past
the server's 1.5 s ``META`` grace behind the others."""
JOIN_BUDGET_S = 30.0
JOIN_BUDGET_PER_SEAT_S = 0.02
"""A step's joins stop being started after ``JOIN_BUDGET_S`` plus this per seat (50 joins per
second): a saturated server answers joins slowly, and the bench must end anyway; how many
tables were seated is then part of the result (:attr:`Load.full_tables`)."""


class Table:
    """What the seats of one table share: when each round's picks were complete and when the
    czar judged, by round number (every seat counts ``RSTR`` from the game's start)."""

    __slots__ = ("czpk_at", "picks_at", "seats")

    def __init__(self) -> None:
        self.picks_at: dict[int, float] = {}
        self.czpk_at: dict[int, float] = {}
        self.seats = 0
        """Seats of this load that were seated here (3 for a full table)."""

    def picked(self, round_number: int, at: float) -> None:
        if at > self.picks_at.get(round_number, 0.0):
            self.picks_at[round_number] = at

    def forget_before(self, round_number: int) -> None:
        """Drop what rounds long past left (a slow seat may still read the round before)."""
        self.picks_at.pop(round_number - 3, None)
        self.czpk_at.pop(round_number - 3, None)


@dataclass(slots=True)
class Window:
    """What the seats did while recording (times in seconds)."""

    revl: list[float] = field(default_factory=list)
    rwin: list[float] = field(default_factory=list)
    actions: int = 0
    unrg: int = 0
    frames: int = 0
    rounds: int = 0
    """``RWIN`` frames received: three per table round at 3-seat tables."""


class Seat(asyncio.Protocol):
    """One legacy client connection (see the module docstring)."""

    def __init__(self, load: Load, name: bytes) -> None:
        self.load = load
        self.name = name
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.answered: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        """True once ``ACKN`` came, False on ``REFU`` or a lost connection."""
        self.refusal = ""
        self.table: Table | None = None
        self.hand: list[bytes] = []
        self.round = 0
        self.czar = False
        self.judged = False
        self.revealed = 0
        self.blanks = 0
        self.first_revl: bytes | None = None
        self.ended = False

    # -- connection ----------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is no asyncio subclass
        self.transport.write(b"JOIN" + self.name + ETX)

    def connection_lost(self, exc: Exception | None) -> None:
        self.ended = True
        if not self.answered.done():
            self.answered.set_result(False)

    def write(self, data: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)

    def data_received(self, data: bytes) -> None:
        frames = (self.buffer + data).split(ETX)
        self.buffer = frames.pop()
        now = time.perf_counter()
        load = self.load
        if load.recording:
            load.window.frames += len(frames)
        for frame in frames:
            handler = _HANDLERS.get(frame[:4])
            if handler is not None:
                handler(self, frame, now)

    # -- handshake -----------------------------------------------------------------------

    def _on_meta(self, frame: bytes, now: float) -> None:
        if len(frame) == 4 and not self.answered.done():  # the server asks for our META
            self.write(CLIENT_META)

    def _on_ackn(self, frame: bytes, now: float) -> None:
        self.write(b"META" + ETX)  # the 0.2.0 client asks for the table's META after ACKN
        if not self.answered.done():
            self.answered.set_result(True)

    def _on_refu(self, frame: bytes, now: float) -> None:
        self.refusal = frame[4:].decode("utf-8", "replace")
        if not self.answered.done():
            self.answered.set_result(False)

    def _on_clnf(self, frame: bytes, now: float) -> None:
        first = frame[4:].split(NUL, 1)[0]  # the table's first seat names the table
        self.table = self.load.tables.setdefault(first, Table())
        self.table.seats += 1

    # -- playing -------------------------------------------------------------------------

    def _on_ping(self, frame: bytes, now: float) -> None:
        self.write(b"PONG" + ETX)

    def _on_whte(self, frame: bytes, now: float) -> None:
        self.hand.append(frame[4 : frame.index(NUL)])

    def _on_rstr(self, frame: bytes, now: float) -> None:
        self.round += 1
        self.czar = self.judged = False
        self.revealed = self.blanks = 0
        self.first_revl = None
        if self.table is not None:
            self.table.forget_before(self.round)

    def _on_czar(self, frame: bytes, now: float) -> None:
        self.czar = frame[4:] == self.name

    def _on_blck(self, frame: bytes, now: float) -> None:
        if self.czar or self.table is None:
            return
        pick = int(frame[frame.rindex(NUL) + 1 :])
        cards = [self.hand.pop() for _ in range(min(pick, len(self.hand)))]
        if not cards:
            return
        self.write(b"".join(b"PICK" + card + ETX for card in cards))
        self.table.picked(self.round, time.perf_counter())
        if self.load.recording:
            self.load.window.actions += len(cards)

    def _on_blnk(self, frame: bytes, now: float) -> None:
        self.blanks += 1

    def _on_revl(self, frame: bytes, now: float) -> None:
        fields = frame[4:].split(NUL)
        self.revealed += (len(fields) + 1) // 2
        load, table = self.load, self.table
        if self.first_revl is None:
            self.first_revl = fields[0]
            if load.recording and table is not None and self.round in table.picks_at:
                load.window.revl.append(now - table.picks_at[self.round])
        if self.czar and not self.judged and self.revealed >= self.blanks and table is not None:
            self.judged = True
            self.write(b"CZPK" + self.first_revl + ETX)
            table.czpk_at[self.round] = time.perf_counter()
            if load.recording:
                load.window.actions += 1

    def _on_rwin(self, frame: bytes, now: float) -> None:
        load, table = self.load, self.table
        if load.recording:
            load.window.rounds += 1
            if len(frame) > 4 and table is not None and self.round in table.czpk_at:
                load.window.rwin.append(now - table.czpk_at[self.round])

    def _on_unrg(self, frame: bytes, now: float) -> None:
        if self.load.recording:
            self.load.window.unrg += 1

    def _on_disc(self, frame: bytes, now: float) -> None:
        self.ended = True


_HANDLERS = {
    b"META": Seat._on_meta,
    b"ACKN": Seat._on_ackn,
    b"REFU": Seat._on_refu,
    b"CLNF": Seat._on_clnf,
    b"PING": Seat._on_ping,
    b"WHTE": Seat._on_whte,
    b"RSTR": Seat._on_rstr,
    b"CZAR": Seat._on_czar,
    b"BLCK": Seat._on_blck,
    b"BLNK": Seat._on_blnk,
    b"REVL": Seat._on_revl,
    b"RWIN": Seat._on_rwin,
    b"UNRG": Seat._on_unrg,
    b"DISC": Seat._on_disc,
}
"""The frames a seat acts on; the others (``CLJN``, ``PNTS``, ``BDCS``, ``GSTR``, ...) are
counted and skipped."""


class Load:
    """The seats of one run against the AAH port ``port`` (on the running loop)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.seats: list[Seat] = []
        self.tables: dict[bytes, Table] = {}
        self.recording = False
        self.window = Window()
        self.refusals: list[str] = []
        self._named = 0

    async def seat(
        self, count: int, budget_s: float | None = None, in_flight: int = JOINS_IN_FLIGHT
    ) -> float:
        """Join ``count`` more seats (refused ones are retried with a new name), ``in_flight``
        at a time, starting no join after the budget (``budget_s``, by default
        :data:`JOIN_BUDGET_S` plus :data:`JOIN_BUDGET_PER_SEAT_S` per seat); returns the
        seconds it took. Three seats fill a table, in the server's placement order.

        Past saturation a join waits a whole (long) loop turn of the server for each of its
        steps, and the server accepts about one connection per turn (libuv accepts one per
        loop iteration), so a larger budget seats few more tables there; more joins in flight
        seat faster while the server's core has room (docs/BENCHMARKS.md section 20)."""
        began = time.perf_counter()
        budget = JOIN_BUDGET_S + JOIN_BUDGET_PER_SEAT_S * count if budget_s is None else budget_s
        deadline = began + budget
        gate = asyncio.Semaphore(in_flight)

        async def one() -> None:
            for _ in range(JOIN_RETRIES + 1):
                async with gate:
                    if time.perf_counter() > deadline:
                        return
                    if await self._join_once():
                        return

        await asyncio.gather(*(one() for _ in range(count)))
        return time.perf_counter() - began

    async def _join_once(self) -> bool:
        loop = asyncio.get_running_loop()
        self._named += 1
        name = f"s{self._named}".encode("ascii")
        try:
            _, seat = await loop.create_connection(lambda: Seat(self, name), LOOPBACK, self.port)
        except OSError as error:
            self.refusals.append(repr(error))
            return False
        try:
            accepted = await asyncio.wait_for(asyncio.shield(seat.answered), JOIN_TIMEOUT_S)
        except TimeoutError:
            accepted = False
        if accepted:
            self.seats.append(seat)
            return True
        self.refusals.append(seat.refusal or "no ACKN")
        if seat.transport is not None:
            seat.transport.close()
        return False

    def start_window(self) -> None:
        self.window = Window()
        self.recording = True

    def take(self) -> Window:
        """Stop recording and hand over what the window holds."""
        self.recording = False
        return self.window

    @property
    def full_tables(self) -> int:
        """Tables whose three seats are all this load's (the ones that play)."""
        return sum(1 for table in self.tables.values() if table.seats >= 3)

    @property
    def ended_seats(self) -> int:
        """Seats whose game ended or whose connection went away."""
        return sum(1 for seat in self.seats if seat.ended)

    async def close(self) -> None:
        for seat in self.seats:
            seat.write(b"DISC" + ETX)
            if seat.transport is not None:
                seat.transport.close()
        with contextlib.suppress(Exception):
            await asyncio.sleep(0.2)  # the closes go out before the loop stops


__all__ = ["Load", "Seat", "Table", "Window"]

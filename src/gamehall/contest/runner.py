"""The contest runner: plays a format's schedule on a :class:`~gamehall.contest.ports.ContestHall`.

For each game the runner orders (a :class:`~gamehall.contest.ports.GameOrder`: seats by login
name, seed, room settings, deadlines) it asks the hall to ``play`` it, starts the entrants that
have a command (:mod:`gamehall.contest.processes`), reports a process that breaks its limits
with ``hall.forfeit(..., PROCESS_VIOLATION)``, and stops every process when the game is over.
After each game it appends the report to ``DIR/games.jsonl``, rewrites ``DIR/standings.json``
and ``DIR/standings.csv``, publishes the live snapshot and redraws the progress line, so an
interrupted contest leaves every finished game on disk.

``--parallel K`` plays up to K games of a round at once. An entrant that connects on its own
is never in two games at once (it has one connection); a started entrant may be, under a
login name per game (``name_N``, N the game number).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from gamehall.contest.entrants import Entrant, Limits, substitute
from gamehall.contest.ports import ContestHall, Deadlines, GameOrder, GameReport
from gamehall.contest.processes import EntrantProcess
from gamehall.contest.progress import Progress, ProgressLine
from gamehall.contest.records import append_report
from gamehall.contest.schedule import Format, Table
from gamehall.contest.standings import Standings, compute_standings, standings_csv
from gamehall.rules._core import JSON, ForfeitReason, SeatResult

log = logging.getLogger("gamehall.contest")

GAMES_FILE = "games.jsonl"
STANDINGS_JSON = "standings.json"
STANDINGS_CSV = "standings.csv"
CONTEST_FILE = "contest.json"
STORE_FILE = "contest.db"


@dataclass(frozen=True, slots=True)
class ContestPlan:
    """Everything a contest is, apart from the hall it plays on."""

    contest_id: str
    title: str
    game: str
    protocol: str
    format_name: str
    entrants: tuple[Entrant, ...]
    config: Mapping[str, JSON]
    deadlines: Deadlines
    out_dir: Path
    seed: int
    seats: int
    games_per_pairing: int
    parallel: int = 1
    limits: Limits = field(default_factory=Limits)
    organiser: str = "organiser"

    def to_json(self) -> dict[str, JSON]:
        """``DIR/contest.json``: what ``contest replay`` needs besides the games."""
        return {
            "contest_id": self.contest_id,
            "title": self.title,
            "game": self.game,
            "protocol": self.protocol,
            "format": self.format_name,
            "seed": self.seed,
            "seats": self.seats,
            "games_per_pairing": self.games_per_pairing,
            "entrants": [
                {"name": e.name, "grade": e.grade, "command": None if e.command is None else list(e.command)}
                for e in self.entrants
            ],
            "config": dict(self.config),
            "deadlines": self.deadlines.to_json(),
        }


@dataclass(slots=True)
class _Slot:
    """One scheduled game as the live page lists it."""

    order: GameOrder
    state: str = "pending"  # pending | playing | finished | failed
    report: GameReport | None = None


@dataclass(slots=True)
class ContestResult:
    """What a finished (or stopped) contest produced."""

    reports: list[GameReport]
    standings: Standings
    failures: int
    stopped: bool
    notes: list[str] = field(default_factory=list)


class ContestRunner:
    """Plays one contest (see the module docstring). ``host``/``port`` are where started
    entrants connect (the game's legacy listener)."""

    def __init__(
        self,
        plan: ContestPlan,
        contest_format: Format,
        hall: ContestHall,
        *,
        host: str,
        port: int,
        progress: ProgressLine | None = None,
    ) -> None:
        self.plan = plan
        self.format = contest_format
        self.hall = hall
        self.host, self.port = host, port
        self.progress = progress
        self.by_name = {e.name: e for e in plan.entrants}
        self.reports: list[GameReport] = []
        self.slots: list[_Slot] = []
        self.failures = 0
        self.notes: list[str] = []
        self.standings = compute_standings(plan.entrants, [])
        self._busy: set[str] = set()
        self.password = secrets.token_urlsafe(12)
        """The password of every started entrant's login (cg accounts), new for each contest."""
        self._stopped = False
        self._over = False

    # ---- the whole contest -----------------------------------------------------------------

    async def run(self) -> ContestResult:
        """Play every round; returns the reports and the final standings."""
        out = self.plan.out_dir
        out.mkdir(parents=True, exist_ok=True)
        (out / CONTEST_FILE).write_text(json.dumps(self.plan.to_json(), indent=2, sort_keys=True) + "\n")
        (out / GAMES_FILE).touch()
        self.hall.open_contest(self.plan.contest_id, self.plan.title, self.plan.game, self.plan.organiser)
        self._write_standings()
        try:
            while not self._stopped:
                tables = self.format.next_round(self.reports)
                if not tables:
                    break
                await self._play_round(tables)
        finally:
            self._over = True
            if self.progress is not None:
                self.progress.finish()
            self.hall.close_contest(self.plan.contest_id, self.snapshot())
        return ContestResult(self.reports, self.standings, self.failures, self._stopped, self.notes)

    async def _play_round(self, tables: Sequence[Table]) -> None:
        slots = [_Slot(self._order(table, len(self.slots) + i + 1)) for i, table in enumerate(tables)]
        self.slots += slots
        pending = list(slots)
        running: set[asyncio.Task[None]] = set()
        while pending or running:
            if self.hall.stop_requested(self.plan.contest_id):
                self._stopped = True
                pending.clear()
            while pending and len(running) < self.plan.parallel:
                ready = next((s for s in pending if not self._needs_busy(s.order)), None)
                if ready is None:
                    break
                pending.remove(ready)
                self._busy |= self._self_connecting(ready.order)
                running.add(asyncio.create_task(self._play_slot(ready)))
            if not running:
                break
            done, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()  # _play_slot handles its own failures; anything else is a bug

    def _self_connecting(self, order: GameOrder) -> set[str]:
        return {name for name in order.entrants.values() if not self.by_name[name].started}

    def _needs_busy(self, order: GameOrder) -> bool:
        return bool(self._self_connecting(order) & self._busy)

    def _order(self, table: Table, number: int) -> GameOrder:
        logins = tuple(self._login(name, number) for name in table.seats)
        return GameOrder(
            contest_id=self.plan.contest_id,
            number=number,
            game=self.plan.game,
            protocol=self.plan.protocol,
            seed=table.seed,
            seats=logins,
            entrants=dict(zip(logins, table.seats, strict=True)),
            config=dict(self.plan.config),
            deadlines=self.plan.deadlines,
            round=table.round,
        )

    def _login(self, name: str, number: int) -> str:
        """An entrant's login for game ``number``: its name, unless a started entrant may be
        in several games at once (then ``name_N``: unique among the games running together)."""
        if self.plan.parallel > 1 and self.by_name[name].started:
            return f"{name}_{number}"
        return name

    # ---- one game --------------------------------------------------------------------------

    async def _play_slot(self, slot: _Slot) -> None:
        slot.state = "playing"
        order = slot.order
        try:
            report = await self.play_game(order)
        except Exception as exc:  # the hall could not play it: count it, go on with the rest
            log.exception("contest game %d could not be played", order.number)
            slot.state = "failed"
            self.failures += 1
            self.notes.append(f"game {order.number}: not played ({exc})")
            self._after_game(f"game {order.number} failed")
            return
        finally:
            self._busy -= self._self_connecting(order)
        slot.state, slot.report = "finished", report
        self.reports.append(report)
        append_report(self.plan.out_dir / GAMES_FILE, report)
        if any(s.end.result is SeatResult.FORFEIT for s in report.seats):
            self.failures += 1
        self._after_game(describe_game(report))

    async def play_game(self, order: GameOrder) -> GameReport:
        """Play one game: the hall's ``play``, the started entrants beside it, then stop them."""
        for login in order.seats:
            if self.by_name[order.entrants[login]].started:
                self.hall.register_account(order.protocol, login, self.password)
        play = asyncio.create_task(self.hall.play(order))
        await asyncio.sleep(0)  # the hall has created the room and reserved its seats
        processes: dict[str, EntrantProcess] = {}
        watchers: list[asyncio.Task[None]] = []
        try:
            for seat, login in enumerate(order.seats):
                entrant = self.by_name[order.entrants[login]]
                if entrant.command is None:
                    continue
                process = await self._start(order, seat, login, entrant)
                if process is not None:
                    processes[login] = process
                    watchers.append(asyncio.create_task(self._watch(order, login, process, play)))
            return await play
        finally:
            for watcher in watchers:
                watcher.cancel()
            await asyncio.gather(*(p.stop() for p in processes.values()), return_exceptions=True)
            if not play.done():
                play.cancel()

    async def _start(
        self, order: GameOrder, seat: int, login: str, entrant: Entrant
    ) -> EntrantProcess | None:
        assert entrant.command is not None
        values = {
            "host": self.host,
            "port": str(self.port),
            "name": login,
            "game": order.game,
            "seat": str(seat),
            "table": table_name(order),
            "password": self.password,
        }
        env = {f"GAMEHALL_{key.upper()}": value for key, value in values.items()}
        log_path = self.plan.out_dir / "logs" / f"{order.number:04d}-{entrant.name}.txt"
        try:
            return await EntrantProcess.start(
                substitute(entrant.command, values), env, log_path, self.plan.limits
            )
        except OSError as exc:
            self.notes.append(f"game {order.number}: {entrant.name} could not be started: {exc}")
            self.hall.forfeit(order.contest_id, login, ForfeitReason.PROCESS_VIOLATION)
            return None

    async def _watch(
        self, order: GameOrder, login: str, process: EntrantProcess, play: asyncio.Task[GameReport]
    ) -> None:
        """Report a process that ends against the rules while its game is still on."""
        await process.wait()
        violation = process.violation()
        if violation is not None and not play.done():
            entrant = order.entrants[login]
            self.notes.append(f"game {order.number}: {entrant} {violation}")
            log.info("game %d: %s %s: forfeit (process violation)", order.number, entrant, violation)
            self.hall.forfeit(order.contest_id, login, ForfeitReason.PROCESS_VIOLATION)

    # ---- after each game -------------------------------------------------------------------

    def _after_game(self, last: str) -> None:
        self.standings = compute_standings(self.plan.entrants, self.reports)
        self._write_standings()
        self.hall.publish(self.plan.contest_id, self.snapshot())
        if self.progress is not None:
            leader = self.standings.rows[0] if self.standings.rows and self.reports else None
            self.progress.show(
                Progress(
                    played=len(self.reports),
                    total=max(self.format.planned_games(), len(self.slots)),
                    leader=leader.name if leader else None,
                    leader_points=round(leader.points, 2) if leader else 0.0,
                    failures=self.failures,
                    last=last,
                )
            )

    def _write_standings(self) -> None:
        out = self.plan.out_dir
        (out / STANDINGS_JSON).write_text(
            json.dumps(self.standings.to_json(), indent=2, sort_keys=True) + "\n"
        )
        (out / STANDINGS_CSV).write_text(standings_csv(self.standings))

    def snapshot(self) -> dict[str, JSON]:
        """The live page's data, as :class:`~gamehall.contest.ports.ContestHall` documents it."""
        standings = self.standings.to_json()
        state = "stopped" if self._stopped else "finished" if self._over else "running"
        return {
            "id": self.plan.contest_id,
            "title": self.plan.title,
            "game": self.plan.game,
            "format": self.plan.format_name,
            "organiser": self.plan.organiser,
            "state": state,
            "played": len(self.reports),
            "total": max(self.format.planned_games(), len(self.slots)),
            "failures": self.failures,
            "standings": standings["standings"],
            "games": [_slot_json(s) for s in self.slots],
            "ratings": standings["ratings"],
            "crosstable": standings["crosstable"],  # beyond ports.py's list: the page shows it
        }


def _slot_json(slot: _Slot) -> dict[str, JSON]:
    report = slot.report
    result: JSON = None
    if report is not None:
        result = {
            "termination": report.termination,
            "seats": [
                {"entrant": s.entrant, "rank": s.rank, "score": s.score, "end": dict(s.end.to_json())}
                for s in report.seats
            ],
        }
    return {
        "number": slot.order.number,
        "room_id": report.room_id if report is not None else None,
        "seats": [slot.order.entrants[login] for login in slot.order.seats],
        "state": slot.state,
        "result": result,
    }


def table_name(order: GameOrder) -> str:
    """The name under which a protocol that lists games by name (UrServer, JDuplicate) shows
    this game: the hall side's room title (empty where this build has no hall side)."""
    try:
        hall_side = importlib.import_module("gamehall.contest.hall_side")
    except ImportError:
        return ""
    return str(hall_side.room_title(order))


def describe_game(report: GameReport) -> str:
    """One game in words: ``game 3: alice 1st, bob 2nd (bob: timeout)``."""
    ranked = sorted(report.seats, key=lambda s: s.rank)
    parts = [f"{s.entrant} #{s.rank}" for s in ranked]
    forfeits = [f"{s.entrant}: {s.end.reason.value}" for s in report.seats if s.end.reason is not None]
    tail = f" ({'; '.join(forfeits)})" if forfeits else ""
    return f"game {report.order.number}: {', '.join(parts)}{tail}"

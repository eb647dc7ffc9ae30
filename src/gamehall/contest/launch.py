"""``gamehall contest run``: from command-line options to a finished contest on its own server.

The runner starts a gamehall server in this process: tournament mode (no bot takes over a
dropped seat), the room logs in ``DIR/contest.db``, the contest game's legacy listener on its
default port and the browser on 8080 (``--port-base B``: the game on B, the browser on B+1;
0: any free ports). The hall side (:func:`gamehall.contest.hall_side.contest_hall`) turns the
server's hall into the :class:`~gamehall.contest.ports.ContestHall` the runner plays on.
"""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from gamehall.config import DEFAULT_PORTS, ServerConfig
from gamehall.contest.entrants import Entrant, EntrantsFile
from gamehall.contest.ports import ContestHall
from gamehall.contest.profiles import GameProfile, profile_for
from gamehall.contest.progress import ProgressLine
from gamehall.contest.runner import STORE_FILE, ContestPlan, ContestResult, ContestRunner
from gamehall.contest.schedule import Format, make_format
from gamehall.contest.standings import Standings
from gamehall.hall import Hall

HallFactory = Callable[[Hall], ContestHall]
HOST = "127.0.0.1"


class LaunchError(Exception):
    """The contest cannot start; the message says why, for the organiser."""


def default_hall_factory() -> HallFactory:
    """``gamehall.contest.hall_side.contest_hall``.

    Raises:
        LaunchError: this build has no hall side of contest mode.
    """
    try:
        hall_side = importlib.import_module("gamehall.contest.hall_side")
    except ImportError as exc:
        raise LaunchError("this build has no contest hall side (gamehall.contest.hall_side)") from exc
    factory: HallFactory = hall_side.contest_hall
    return factory


@dataclasses.dataclass(frozen=True, slots=True)
class RunOptions:
    """``gamehall contest run``'s options, checked."""

    game: str
    format_name: str
    entrants: EntrantsFile
    out_dir: Path
    seed: int
    parallel: int = 1
    games_per_pairing: int | None = None
    rounds: int | None = None
    port_base: int | None = None
    organiser: str = "organiser"


def table_size(profile: GameProfile, entrants: EntrantsFile) -> int:
    """The contest's table size: the file's ``seats`` or the game's default, never more than
    there are entrants (a small field plays at one smaller table where the game allows it).

    Raises:
        LaunchError: outside the game's range, or too few entrants for the game.
    """
    count = len(entrants.entrants)
    seats = (
        entrants.seats if entrants.seats is not None else max(profile.min_seats, min(profile.seats, count))
    )
    if not profile.min_seats <= seats <= profile.max_seats:
        raise LaunchError(
            f"{profile.game} is played at {profile.min_seats} to {profile.max_seats} seats, not {seats}"
        )
    if len(entrants.entrants) < seats:
        raise LaunchError(
            f"{profile.game} needs {seats} entrants at a table; the file has {len(entrants.entrants)}"
        )
    return seats


def plan_contest(options: RunOptions) -> tuple[ContestPlan, Format]:
    """The contest plan and its format.

    Raises:
        LaunchError: the options cannot make a contest (the message names the option).
    """
    from gamehall.contest.schedule import ScheduleError

    try:
        profile = profile_for(options.game)
    except KeyError as exc:
        raise LaunchError(f"unknown game {options.game!r}") from exc
    if options.parallel < 1:
        raise LaunchError("--parallel must be at least 1")
    seats = table_size(profile, options.entrants)
    games = options.games_per_pairing if options.games_per_pairing is not None else seats
    names = [e.name for e in options.entrants.entrants]
    try:
        contest_format = make_format(
            options.format_name,
            names,
            seats=seats,
            games_per_pairing=games,
            seed=options.seed,
            duplicate=profile.duplicate,
            rounds=options.rounds,
        )
    except ScheduleError as exc:
        raise LaunchError(str(exc)) from exc
    stamp = datetime.now(UTC).strftime("%Y%m%d%H%M%S")
    plan = ContestPlan(
        contest_id=f"{options.game}-{stamp}",
        title=options.entrants.title or f"{profile.game} {options.format_name} (seed {options.seed})",
        game=options.game,
        protocol=profile.protocol,
        format_name=options.format_name,
        entrants=options.entrants.entrants,
        config=profile.room_config(seats, options.entrants.config),
        deadlines=options.entrants.deadlines_over(profile.deadlines),
        out_dir=options.out_dir,
        seed=options.seed,
        seats=seats,
        games_per_pairing=games,
        parallel=options.parallel,
        limits=options.entrants.limits,
        organiser=options.organiser,
    )
    return plan, contest_format


def server_config(plan: ContestPlan, port_base: int | None) -> tuple[ServerConfig, dict[str, int]]:
    """The contest server's configuration and listen plan (see the module docstring)."""
    from gamehall.config import load_config
    from gamehall.games import game_types

    schemas = {game_id: t.schema for game_id, t in game_types().items()}
    config = load_config(flags={}, set_items=[], config_path=None, environ={}, schemas=schemas)
    config = dataclasses.replace(config, bind=HOST, db=str(plan.out_dir / STORE_FILE), tournament=True)
    if port_base is None:
        listen = {plan.protocol: DEFAULT_PORTS[plan.protocol], "web": DEFAULT_PORTS["web"]}
    elif port_base == 0:
        listen = {plan.protocol: 0, "web": 0}
    else:
        listen = {plan.protocol: port_base, "web": port_base + 1}
    return config, listen


async def run_contest(
    plan: ContestPlan,
    contest_format: Format,
    *,
    port_base: int | None = None,
    hall_factory: HallFactory | None = None,
    out: TextIO = sys.stdout,
    tty: bool | None = None,
) -> ContestResult:
    """Start the server, play the contest on it, stop the server.

    Raises:
        LaunchError: no hall side in this build.
        OSError: a port is in use.
    """
    from gamehall.server.app import running_server

    factory = hall_factory or default_hall_factory()
    plan.out_dir.mkdir(parents=True, exist_ok=True)
    config, listen = server_config(plan, port_base)
    async with running_server(config, listen=listen) as server:
        web = server.ports.get("web")
        if web is not None:
            out.write(f"contest {plan.contest_id}: http://{HOST}:{web}/contest/{plan.contest_id}\n")
        runner = ContestRunner(
            plan,
            contest_format,
            factory(server.hall),
            host=HOST,
            port=server.ports[plan.protocol],
            progress=ProgressLine(out, tty=tty),
        )
        return await runner.run()


def check_out_dir(out_dir: Path) -> None:
    """A contest writes into a directory of its own.

    Raises:
        LaunchError: ``out_dir`` already holds a contest.
    """
    if (out_dir / "games.jsonl").exists() or (out_dir / STORE_FILE).exists():
        raise LaunchError(f"{out_dir} already holds a contest; choose another --out")


def expected_order_holds(standings: Standings) -> bool:
    """Whether every entrant of a higher grade placed above every entrant of a lower one
    (entrants without a grade are not compared): the ``--demo`` check."""
    grades = [row.grade for row in standings.rows if row.grade is not None]
    return all(higher >= lower for higher, lower in itertools.pairwise(grades))


def demo_entrants(game: str, python: str = sys.executable) -> EntrantsFile:
    """The ``--demo`` roster: the project's own bots of ``game``, graded by strength (2: the
    heuristic policy, 1: random); AAH's bots are ungraded (its judge picks by taste)."""
    profile = profile_for(game)
    roster: Sequence[tuple[str, str, int | None]]
    if not profile.graded:
        roster = [(f"random{i}", "random", None) for i in range(1, profile.seats + 1)]
    elif profile.seats == 2:
        roster = [("strong", "heuristic", 2), ("randomA", "random", 1), ("randomB", "random", 1)]
    else:
        strong = (profile.seats + 1) // 2
        roster = [(f"strong{i}", "heuristic", 2) for i in range(1, strong + 1)]
        roster += [(f"random{i}", "random", 1) for i in range(1, profile.seats - strong + 1)]
    entrants = tuple(
        Entrant(name=name, grade=grade, command=entrant_command(game, policy, python))
        for name, policy, grade in roster
    )
    return EntrantsFile(entrants=entrants, title=f"{game} demo: the project's bots")


def entrant_command(game: str, policy: str, python: str = sys.executable) -> tuple[str, ...]:
    """The command line of one of the project's bots as a contest entrant."""
    return (
        python, "-m", "gamehall.bots.contest_entrant", "--game", game, "--host", "{host}", "--port", "{port}",
        "--name", "{name}", "--seat", "{seat}", "--policy", policy,
    )  # fmt: skip

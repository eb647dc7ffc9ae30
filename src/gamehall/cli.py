"""The ``gamehall`` command: ``serve``, ``bots``, ``replay`` and ``contest run|replay``.

``serve`` reads its settings from defaults < a TOML file (``--config``) < ``GAMEHALL_*``
environment variables < flags (see :mod:`gamehall.config`), and refuses unknown keys or
out-of-range values before anything listens.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import logging
import os
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from gamehall.config import add_server_arguments
from gamehall.games import GAMES


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    if args.command == "contest" and args.contest_command is None:
        print("gamehall contest: say run or replay (gamehall contest run --help)", file=sys.stderr)
        return 2
    handler = {"serve": _serve, "bots": _bots, "replay": _replay_to_pipe, "contest": _contest}[args.command]
    return handler(args)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gamehall", description="Classic turn-based games over their own protocols."
    )
    commands = parser.add_subparsers(dest="command")

    serve = commands.add_parser("serve", help="run the server")
    add_server_arguments(serve, listeners=[entry.protocol for entry in GAMES] + ["web"])

    bots = commands.add_parser("bots", help="connect bots to a server over a game's legacy protocol")
    bots.add_argument("--game", required=True, choices=[e.game_id for e in GAMES])
    bots.add_argument("--server", default="127.0.0.1", metavar="HOST[:PORT]")
    bots.add_argument("--count", type=int, default=3)
    bots.add_argument("--policy", default="random", choices=["random", "heuristic"])
    bots.add_argument(
        "--games", type=int, default=1, help="games each bot plays before it quits (0 = forever)"
    )
    bots.add_argument("--prefix", default="bot", help="bot names are PREFIX1, PREFIX2, ...")

    replay = commands.add_parser("replay", help="print a room's history from the store")
    replay.add_argument("room_id")
    replay.add_argument(
        "--db",
        default=os.environ.get("GAMEHALL_DB", "./gamehall.db"),
        metavar="PATH|URL",
        help="SQLite file, or postgresql://HOST/DB (default ./gamehall.db)",
    )
    replay.add_argument("--events", action="store_true", help="also replay the log and print every event")
    _contest_parser(commands)
    return parser


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _port(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 65534:
        raise argparse.ArgumentTypeError(f"must be 0 to 65534, not {value}")
    return value


def _contest_parser(commands: Any) -> None:
    from gamehall.contest.schedule import FORMATS

    contest = commands.add_parser("contest", help="bot contests: run one, or replay one from its logs")
    actions = contest.add_subparsers(dest="contest_command")
    run = actions.add_parser("run", help="run a contest on a server of its own (docs/contest.md)")
    run.add_argument("--game", required=True, choices=[e.game_id for e in GAMES])
    who = run.add_mutually_exclusive_group(required=True)
    who.add_argument("--entrants", metavar="FILE", help="the entrants file (TOML)")
    who.add_argument("--demo", action="store_true", help="the project's own bots of graded strength")
    run.add_argument("--format", default="round-robin", choices=FORMATS, dest="format_name")
    run.add_argument(
        "--games-per-pairing", type=_positive, metavar="N", help="default: the table's seat count"
    )
    run.add_argument(
        "--rounds", type=_positive, metavar="N", help="swiss rounds (default: log2 of the field)"
    )
    run.add_argument("--seed", type=int, default=1, metavar="S")
    run.add_argument("--out", default=None, metavar="DIR", help="default: ./contest-GAME-SEED")
    run.add_argument("--parallel", type=_positive, default=1, metavar="K", help="games at once")
    run.add_argument(
        "--port-base",
        type=_port,
        metavar="B",
        help="the game on port B, the browser on B+1 (0: any free ports)",
    )
    run.add_argument(
        "--organiser", default="organiser", metavar="NAME", help="the login that may stop it in the browser"
    )
    replay = actions.add_parser("replay", help="recompute every result and the standings from the logs")
    replay.add_argument("directory", metavar="DIR")


# ------------------------------------------------------------------------------------ serve


def _serve(args: argparse.Namespace) -> int:
    from gamehall.config import ConfigError, load_config
    from gamehall.games import game_types

    schemas = {game_id: game_type.schema for game_id, game_type in game_types().items()}
    try:
        config = load_config(
            flags=vars(args),
            set_items=args.set_items or [],
            config_path=args.config,
            environ=os.environ,
            schemas=schemas,
        )
    except ConfigError as exc:
        print(f"gamehall: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=getattr(logging, config.log_level.upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    from gamehall.server.app import run_server

    _use_uvloop()
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run_server(config))
    except OSError as exc:  # a port in use, an address not on this machine
        print(f"gamehall: cannot start: {exc}", file=sys.stderr)
        return 1
    return 0


def _use_uvloop() -> None:
    try:
        import uvloop
    except ImportError:
        return
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())


# ------------------------------------------------------------------------------------- bots


def _bots(args: argparse.Namespace) -> int:
    from gamehall.bots.games_report import play_and_report
    from gamehall.games import entry_for

    host, _, port_text = args.server.partition(":")
    port = int(port_text) if port_text else entry_for(args.game).default_port
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    _use_uvloop()
    try:
        return asyncio.run(play_and_report(args.game, host or "127.0.0.1", port, args, sys.stdout))
    except KeyboardInterrupt:  # --games 0 runs until interrupted; the summary was printed
        return 0


# ---------------------------------------------------------------------------------- contest


def _contest(args: argparse.Namespace) -> int:
    return _contest_run(args) if args.contest_command == "run" else _contest_replay(args)


def _contest_run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from gamehall.contest.entrants import EntrantsError, load_entrants
    from gamehall.contest.launch import (
        LaunchError,
        RunOptions,
        check_out_dir,
        demo_entrants,
        expected_order_holds,
        plan_contest,
        run_contest,
    )
    from gamehall.contest.profiles import profile_for
    from gamehall.contest.standings import render_table

    out_dir = Path(args.out or f"contest-{args.game}-{args.seed}")
    try:
        entrants = demo_entrants(args.game) if args.demo else load_entrants(args.entrants)
        games = args.games_per_pairing
        if args.demo and games is None:  # twice round the seats: the grading shows through the luck
            games = 2 * profile_for(args.game).seats
        options = RunOptions(
            game=args.game,
            format_name=args.format_name,
            entrants=entrants,
            out_dir=out_dir,
            seed=args.seed,
            parallel=args.parallel,
            games_per_pairing=games,
            rounds=args.rounds,
            port_base=args.port_base,
            organiser=args.organiser,
        )
        plan, contest_format = plan_contest(options)
        check_out_dir(out_dir)
        logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        result = asyncio.run(run_contest(plan, contest_format, port_base=args.port_base))
    except (EntrantsError, LaunchError) as exc:
        print(f"gamehall contest: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"gamehall contest: cannot start: {exc}", file=sys.stderr)
        return 1
    sys.stdout.write(render_table(result.standings))
    for note in result.notes:
        print(f"note: {note}")
    print(f"{len(result.reports)} game(s), {result.failures} with a failure; results in {out_dir}/")
    if args.demo:
        held = expected_order_holds(result.standings)
        print(
            "demo: the graded order "
            + ("came out" if held else "did NOT come out (luck over too few games?)")
        )
    return 0


def _contest_replay(args: argparse.Namespace) -> int:
    from pathlib import Path

    from gamehall.contest.replay import ReplayError, replay_contest
    from gamehall.contest.standings import render_table

    try:
        result = replay_contest(Path(args.directory))
    except ReplayError as exc:
        print(f"gamehall contest replay: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(render_table(result.standings))
    for difference in result.differences:
        print(f"DIFFERENT: {difference}")
    verdict = "agree" if result.agrees else f"disagree in {len(result.differences)} place(s)"
    print(f"{result.games} game(s) replayed from the logs: the results {verdict}")
    return 0 if result.agrees else 1


# ----------------------------------------------------------------------------------- replay


def _replay_to_pipe(args: argparse.Namespace) -> int:
    """``gamehall replay`` whose reader may stop early (``| head``): a closed pipe ends the
    output quietly instead of with a BrokenPipeError traceback."""
    try:
        code = _replay(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader is gone; point stdout at nothing so the interpreter's last flush is quiet
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    return code


def _store_name(db: str) -> str:
    """``--db`` for a message: a PostgreSQL URL without its password."""
    from gamehall.store import is_postgres

    if not is_postgres(db):
        return db
    from gamehall.store.postgres import redact

    return redact(db)


def _replay(args: argparse.Namespace) -> int:
    from gamehall.store import is_postgres, open_store
    from gamehall.store.base import StoreError

    if not is_postgres(args.db) and not os.path.exists(args.db):
        print(f"gamehall: no store at {args.db}", file=sys.stderr)
        return 2
    try:
        store = open_store(args.db)
    except StoreError as exc:
        print(f"gamehall: {exc}", file=sys.stderr)
        return 2
    try:
        record = store.load_room(args.room_id)
    finally:
        store.close()
    if record is None:
        print(f"gamehall: no room {args.room_id} in {_store_name(args.db)}", file=sys.stderr)
        return 1
    out = sys.stdout
    status = "finished" if record.finished_at is not None else "running"
    meta = {k: v for k, v in record.meta.items() if k not in ("password_hash", "tokens")}
    out.write(f"room {record.room_id}  game {record.game}  {status}\n")
    out.write(f"created {_stamp(record.created_at)}  meta {meta}\n")
    out.write(f"config {record.config}\n")
    if record.finished_at is not None:
        # the seed decides every hidden card: shown only once the game is over
        out.write(f"seed {record.seed}\n")
    for entry in record.entries:
        seat = "-" if entry.seat is None else str(entry.seat)
        out.write(f"{entry.n:6d}  {_stamp(entry.at)}  seat {seat:>2}  {entry.kind:<8} {entry.data}\n")
    if record.finished_at is not None:
        from gamehall.hall.results import describe_seats

        out.write(f"finished {_stamp(record.finished_at)}  result {record.result}\n")
        for line in describe_seats(record.result):
            out.write(f"  {line}\n")
        out.write(f"in the browser: /replay/{record.room_id} (the same log, as a spectator saw it)\n")
    if args.events:
        _print_events(record, out)
    return 0


def _print_events(record: Any, out: Any) -> None:
    """Rebuild the room from its log and print every event with its audience."""
    from gamehall.games import game_types
    from gamehall.hall.clock import FakeClock
    from gamehall.hall.outbox import Outbox
    from gamehall.hall.room import Room
    from gamehall.store.memory import MemoryStore

    clock = FakeClock()  # a replay writes nothing and delivers nothing: its outbox stays unflushed
    room = Room(
        room_id=record.room_id,
        game_type=game_types()[record.game],
        config=record.config,
        seed=record.seed,
        meta=record.meta,
        outbox=Outbox(MemoryStore(), clock),
        clock=clock,
        wall_time=lambda: 0.0,
        on_closed=lambda room: None,
        created_seq=0,
    )
    out.write("events:\n")

    def show(entry: Any, events: list[Any]) -> None:
        for event in events:
            out.write(f"{entry.n:6d}  {_describe(event)}\n")

    room.replay(record.entries, observe=show)


def _describe(event: Any) -> str:
    fields = {f.name: getattr(event, f.name) for f in dataclasses.fields(event) if f.name != "audience"}
    audience = "all" if event.audience is None else ",".join(str(s) for s in sorted(event.audience))
    return f"[{audience}] {type(event).__name__} {fields}"


def _stamp(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M:%S")


if __name__ == "__main__":
    raise SystemExit(main())

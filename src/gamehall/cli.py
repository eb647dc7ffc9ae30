"""The ``gamehall`` command: ``serve``, ``bots`` and ``replay``.

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
    handler = {"serve": _serve, "bots": _bots, "replay": _replay_to_pipe}[args.command]
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
    replay.add_argument("--db", default=os.environ.get("GAMEHALL_DB", "./gamehall.db"), metavar="PATH")
    replay.add_argument("--events", action="store_true", help="also replay the log and print every event")
    return parser


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


def _replay(args: argparse.Namespace) -> int:
    from gamehall.store.sqlite import SqliteStore

    if not os.path.exists(args.db):
        print(f"gamehall: no store at {args.db}", file=sys.stderr)
        return 2
    store = SqliteStore(args.db)
    try:
        record = store.load_room(args.room_id)
    finally:
        store.close()
    if record is None:
        print(f"gamehall: no room {args.room_id} in {args.db}", file=sys.stderr)
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

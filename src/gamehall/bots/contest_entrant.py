"""One of the project's bots as a contest entrant: one game over the legacy protocol, then exit.

::

    python -m gamehall.bots.contest_entrant --game mrjack --host 127.0.0.1 --port 4712 \\
        --name alice --seat 0 --policy heuristic

This is the command ``gamehall contest run --demo`` starts for each entrant and game (see
:func:`gamehall.contest.launch.entrant_command`), and what an organiser may put in an entrants
file to fill a field. The bot logs in under ``--name`` and goes to its seat the way the game's
wire bot returns to a held seat (the hall side holds a contest seat for the login name, as
after a restart): Mr. Jack sends ``nick`` and ``init`` with the role of ``--seat`` (0: Mr.
Jack, 1: the detective); Doppelkopf logs in to its cg account (``--password``); the words bot
logs in and is seated; Ursuppe sends ``TEILNEHMEN`` with the game's name (``--table``); AAH
sends ``JOIN``. The runner passes the table name and the password in the environment
(``GAMEHALL_TABLE``, ``GAMEHALL_PASSWORD``).

Policies: ``random`` and ``heuristic`` are the game's bot policies (graded strength: the
heuristic is the stronger, except in AAH where the judge picks by taste). Two more exist
only to test a contest's deadlines and typed results:

- ``sleeper`` plays nothing: at its first decision it stops answering and keeps the
  connection open (the hard deadline must end its game);
- ``cheater`` answers every decision with a move the rules refuse (the error count must end
  its game with a rule violation).

Both work by replacing the one method where the game's wire bot decides; this process plays
one game for one entrant, so nothing else sees the change. The exit status is 0 when the game
was played to its end, 1 otherwise; the last line on stdout says what happened.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

POLICIES = ("random", "heuristic", "sleeper", "cheater")
GAMES = ("aah", "doppelkopf", "ursuppe", "mrjack", "words")
SLEEP_FOREVER_S = 24 * 3600.0
MOVE_REFUSED = (60100, 60200)
"""JDuplicate's codes for a well-formed move whose tiles the rules refuse (60101 square outside
the board .. 60110 no word); 6000x (not in a game, not your turn) end the cheater's repeats."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m gamehall.bots.contest_entrant", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--game", required=True, choices=GAMES)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--name", required=True, help="the login name the contest reserved")
    parser.add_argument("--seat", type=int, default=0, help="the seat (Mr. Jack: 0 plays Mr. Jack)")
    parser.add_argument("--policy", default="random", choices=POLICIES)
    parser.add_argument(
        "--table",
        default=os.environ.get("GAMEHALL_TABLE", ""),
        help="the game's name where a protocol lists games by name (default: $GAMEHALL_TABLE)",
    )
    parser.add_argument(
        "--password",
        default=os.environ.get("GAMEHALL_PASSWORD", "botpass"),
        help="Doppelkopf: the cg account's password (default: $GAMEHALL_PASSWORD)",
    )
    parser.add_argument("--seed", type=int, default=None, help="the bot's own randomness")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.policy in ("sleeper", "cheater"):
        MISBEHAVIOURS[args.game](args.policy)
    try:
        finished, summary = asyncio.run(PLAY[args.game](args))
    except OSError as exc:
        print(f"{args.name}: cannot reach {args.host}:{args.port}: {exc}", flush=True)
        return 1
    print(f"{args.name} ({args.game}, {args.policy}): {summary}", flush=True)
    return 0 if finished else 1


def _strong(args: argparse.Namespace) -> str:
    """The game's own policy name: the test policies play like ``random`` until they misbehave."""
    return "heuristic" if args.policy == "heuristic" else "random"


def _rng(args: argparse.Namespace) -> random.Random:
    return random.Random(args.seed)


# ---- one game per protocol ----------------------------------------------------------------


async def _mrjack(args: argparse.Namespace) -> tuple[bool, str]:
    from gamehall.bots.mrjack.policy import MrJackPolicy
    from gamehall.bots.mrjack.wire import DEFAULT_THINK_TIME, ROLES, MrJackWireBot

    role = ROLES[args.seat % 2]
    bot = MrJackWireBot(
        args.host, args.port, args.name, role, policy=MrJackPolicy(_strong(args)), rng=_rng(args), games=1,
        think_time=DEFAULT_THINK_TIME,
    )  # fmt: skip
    result = await bot.run()
    return bool(result.winners), f"winners {result.winners or '-'}, {len(result.errors)} refused"


async def _doppelkopf(args: argparse.Namespace) -> tuple[bool, str]:
    from gamehall.bots.doppelkopf.wire import CgWireBot

    bot = CgWireBot(
        args.host,
        args.port,
        args.name,
        args.password,
        policy=_strong(args),
        seed=args.seed,
        flavor="gamehall",
    )
    bot.player.in_game = True  # its seat is waiting: the login is a return to it, no lobby of its own
    stats = await bot.run()
    return bool(
        stats.games_finished
    ), f"{stats.games_finished} game(s) finished, {len(stats.refusals)} refused"


async def _ursuppe(args: argparse.Namespace) -> tuple[bool, str]:
    from gamehall.bots.ursuppe.wire import UrWireBot

    class ReservedSeat(UrWireBot):
        """Its seat is waiting: ``TEILNEHMEN``/``PASSWORT``/``NAME`` at once, as a bot coming
        back to a held seat does, instead of waiting in ``LISTE`` for a new game."""

        async def _join(self, game: str, read_line: Any, send: Any) -> str | None:
            return await self._retake(game, read_line, send)

    bot = ReservedSeat(
        args.host, args.port, args.name, creates=False, players=0, policy=_strong(args), rng=_rng(args)
    )
    await bot._play_one(args.table)  # one game, by the contest room's name
    result = bot.result
    return bool(
        result.games
    ), f"scores {result.games[-1] if result.games else '-'}, {len(result.errors)} refused"


async def _aah(args: argparse.Namespace) -> tuple[bool, str]:
    from gamehall.bots.aah.policy import AahPolicy
    from gamehall.bots.aah.wire import AahWireBot

    bot = AahWireBot(
        args.host, args.port, args.name, policy=AahPolicy(_strong(args)), rng=_rng(args), strict=False
    )
    stats = await bot.run()
    return bool(stats.games_finished), f"{stats.games_finished} game(s) finished, {stats.rounds} round(s)"


async def _words(args: argparse.Namespace) -> tuple[bool, str]:
    from gamehall.bots.words.wire import WordsWireBot, WordsWirePlayer, strength_of
    from gamehall.protocols.jduplicate import messages as m

    player = WordsWirePlayer(
        args.name, m.Version.V10, join=args.table or None, strength=strength_of(_strong(args)), rng=_rng(args)
    )
    player.rejoining = True  # its seat is waiting: no create or join, the login seats it
    result = await WordsWireBot(args.host, args.port, player).run()
    ranking = ", ".join(f"{name} {total}" for name, total in result.ranking) or "-"
    return bool(result.ranking), f"ranking {ranking}, {len(result.errors)} refused"


PLAY: dict[str, Callable[[argparse.Namespace], Any]] = {
    "mrjack": _mrjack,
    "doppelkopf": _doppelkopf,
    "ursuppe": _ursuppe,
    "aah": _aah,
    "words": _words,
}


# ---- the test policies --------------------------------------------------------------------


def _sleep(*_: object, **__: object) -> Any:
    """A decision that never comes: the whole process stops (its connection stays open)."""
    time.sleep(SLEEP_FOREVER_S)


def _misbehave(
    owner: Any, method: str, cheat: Callable[..., Any], how: str, *, again: str | None = None
) -> None:
    """Replace ``owner.method`` (where the bot decides) by the sleeper's or the cheater's;
    for the cheater also ``again``, the method that answers a refusal, so that every refused
    move is followed by another one until the contest's error count ends the game."""
    setattr(owner, method, _sleep if how == "sleeper" else cheat)
    if how == "cheater" and again is not None:
        original = getattr(owner, again)

        def refused(self: Any, *args: Any) -> Any:
            original(self, *args)  # its bookkeeping (the refusal is counted); its answer is dropped
            return cheat(self)

        setattr(owner, again, refused)


def _replace(owner: Any, method: str, new: Callable[..., Any]) -> None:
    """Put ``new`` in place of ``owner.method`` (this process plays one game: nothing else sees it)."""
    setattr(owner, method, new)


def _mrjack_misbehaves(how: str) -> None:
    from gamehall.bots.mrjack.player import WirePlayer
    from gamehall.protocols.mrjack.terms import Atom, Compound

    def cheat(self: Any) -> list[Any]:
        return [Compound("aktiv", (Atom("nobody"),))]  # no such character

    _misbehave(WirePlayer, "_decide", cheat, how, again="_on_err")


def _doppelkopf_misbehaves(how: str) -> None:
    from gamehall.bots.doppelkopf.wire import CgPlayer
    from gamehall.protocols.cg.codec import Packet

    def cheat(self: Any) -> list[Any]:
        return [Packet("cg:game.dk.card.intent", {"intent": "play", "card": -1})]  # not in the hand

    _misbehave(CgPlayer, "_play", cheat, how)


def _ursuppe_misbehaves(how: str) -> None:
    from gamehall.bots.ursuppe.player import WirePlayer

    def cheat(self: Any) -> list[str]:
        return ["BEWEGEN 1 9"]  # there is no direction 9: a syntax FEHLER, or 30 off a move request

    _misbehave(WirePlayer, "_decide", cheat, how)
    if how == "cheater":
        original = WirePlayer._refused

        def refused(self: Any, line: str) -> list[str]:
            """Cheat again while the request is still open: every FEHLER except those saying
            the request is gone (17 not its turn, 26 no game, 29 timed out) counts as an error."""
            request = self._request
            original(self, line)  # its bookkeeping (the refusal is recorded); its answer is dropped
            if request is None or line.split()[1:2] in (["17"], ["26"], ["29"]):
                return []
            self._request = request
            return cheat(self)

        _replace(WirePlayer, "_refused", refused)


def _aah_misbehaves(how: str) -> None:
    from gamehall.bots.aah.wire import AahWireBot

    def cheat(self: Any) -> None:
        if self.black is not None and not self.is_czar:
            self._send_action("PICK", 10**9)  # a card nobody holds

    _misbehave(AahWireBot, "_play_cards", cheat, how)
    if how == "cheater":  # every UNRG (the refused PICK) is answered by another refused PICK
        original = AahWireBot._HANDLERS["UNRG"]

        def refused(self: Any, args: tuple[str, ...]) -> None:
            original(self, args)
            cheat(self)

        AahWireBot._HANDLERS["UNRG"] = refused


def _words_misbehaves(how: str) -> None:
    from gamehall.bots.words.wire import WordsWirePlayer
    from gamehall.protocols.jduplicate import messages as m
    from gamehall.protocols.jduplicate.outbound import wire_tile

    def cheat(self: Any) -> Any:
        return m.Moves((wire_tile(0, 0, "Q"), wire_tile(0, 1, "Q")))  # not a word, not the rack, off centre

    _misbehave(WordsWirePlayer, "_chosen", cheat, how)
    if how == "cheater":
        original = WordsWirePlayer.receive

        def receive(self: Any, message: Any) -> list[Any]:
            """A refused move (an error of the move range while the turn is open) is answered
            by another one; everything else as the bot does."""
            answer: list[Any] = original(self, message)
            if (
                isinstance(message, m.Error)
                and self.turn_open
                and MOVE_REFUSED[0] <= message.code < MOVE_REFUSED[1]
            ):
                return [cheat(self)]
            return answer

        _replace(WordsWirePlayer, "receive", receive)


MISBEHAVIOURS: dict[str, Callable[[str], None]] = {
    "mrjack": _mrjack_misbehaves,
    "doppelkopf": _doppelkopf_misbehaves,
    "ursuppe": _ursuppe_misbehaves,
    "aah": _aah_misbehaves,
    "words": _words_misbehaves,
}


if __name__ == "__main__":
    sys.exit(main())

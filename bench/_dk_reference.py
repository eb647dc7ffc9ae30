"""gamehall's Doppelkopf engine against the reference engine (not-na/cardgame), like for like.

Used by ``bench_doppelkopf.py --parts reference --reference PATH``. ``PATH`` is the root of a
not-na/cardgame checkout (commit 1614ab5; bring it with the ``fetch`` tool or ``git clone``,
never commit it); the reference is imported from there by ``tools/dk_reference.py``, its game
module unmodified.

Both engines get the same inputs for the same deals:

1. **record** (not timed): gamehall plays a game from a seed with a seeded random-legal
   policy: one deal, then every seat votes ``end`` (the game of the in-process engine rows).
   The reference is dealt gamehall's cards (same player order, its card values overwritten
   before anyone acts) and fed the same inputs, to check that it accepts every one and ends the
   deal; a game it does not follow (a documented difference of the two rule readings,
   docs/doppelkopf-differential.md) is left out of both sides.
2. **time** (CPU time of this process): gamehall replays each kept game from scratch (table,
   four joins, every input); the reference replays it too (its table object, ``start``, the
   four ``ready_to_deal``, every input through its event handlers, scheduled functions run at
   once). Overwriting the reference's card values and translating an input into its event are
   the harness's work and run outside the clock; so does the recording of the reference's
   packets, which keeps a reference to each dict instead of copying it.

The reference formats every packet it sends into a debug string (``CGame.send_to_user``:
``self.cg.info(f"sent packet ... {data} ...")``) even when nobody logs it. That is the
reference as published, so it is the headline row; a second row skips that string (the method
replaced at run time by one that only sends) for the stricter comparison.
"""

from __future__ import annotations

import gc
import random
import sys
import time
import types
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TOOLS = Path(__file__).resolve().parents[1] / "tools"
sys.path.insert(0, str(TOOLS))

from dk_reference import RefTable, load_reference  # noqa: E402

from gamehall.rules._core import Action  # noqa: E402
from gamehall.rules.doppelkopf import DoppelkopfTable, new_game  # noqa: E402
from gamehall.rules.doppelkopf.actions import (  # noqa: E402
    Announce,
    Answer,
    AnswerSolo,
    CallPigs,
    PassCards,
    PlayCard,
    PovertyAccept,
    PovertyDecline,
    PovertyReturn,
    Ready,
    ReturnCards,
    Throw,
    Vote,
    WeddingClarification,
)

MAX_ACTIONS = 2_000
Input = tuple[int, Action]


class QuietRefTable(RefTable):
    """The reference harness, recording packets by reference instead of by copy."""

    def send_to_user(self, user: uuid.UUID, packet: str, data: dict[str, Any]) -> None:
        self.sent.append((user, packet, data))  # type: ignore[arg-type]


def _ref_event(action: Action, ids: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """The reference event (name, data) that the cg packet of ``action`` becomes."""
    if isinstance(action, Ready):
        return "cg:game.dk.ready", {"type": "ready"}
    if isinstance(action, Throw):
        return "cg:game.dk.throw", {"type": "throw"}
    if isinstance(action, Answer):
        stem = "reservation" if action.question == "reservation" else f"reservation_{action.question}"
        return f"cg:game.dk.{stem}", {"type": f"{action.question}_{'yes' if action.yes else 'no'}"}
    if isinstance(action, AnswerSolo):
        if action.solo is None:
            return "cg:game.dk.reservation_solo", {"type": "solo_no", "data": {}}
        return "cg:game.dk.reservation_solo", {"type": "solo_yes", "data": {"type": action.solo}}
    if isinstance(action, (PassCards, ReturnCards)):
        kind = "pass_card" if isinstance(action, PassCards) else "return_card"
        cards = [ids[c] for c in action.cards]
        return "cg:game.dk.reservation_poverty_pass_card", {"type": kind, "card": cards}
    if isinstance(action, (PovertyAccept, PovertyDecline)):
        kind = "poverty_accept" if isinstance(action, PovertyAccept) else "poverty_decline"
        return "cg:game.dk.reservation_poverty_accept", {"type": kind}
    if isinstance(action, PovertyReturn):
        data = {"type": "poverty_return", "data": {"amount": action.amount}}
        return "cg:game.dk.reservation_poverty_accept", data
    if isinstance(action, WeddingClarification):
        data = {"type": "wedding_clarification_trick", "data": {"trick": action.trick}}
        return "cg:game.dk.reservation_wedding_clarification_trick", data
    if isinstance(action, PlayCard):
        return "cg:game.dk.play_card", {"card": ids[action.card]}
    if isinstance(action, Announce):
        name = "call_re" if action.kind in ("re", "kontra") else "call_denial"
        return f"cg:game.dk.{name}", {"type": action.kind}
    if isinstance(action, CallPigs):
        kind = "superpigs" if action.superpigs else "pigs"
        return f"cg:game.dk.call_{kind}", {"type": kind}
    if isinstance(action, Vote):
        return f"cg:game.dk.play.{action.kind}_{'yes' if action.yes else 'no'}", {}
    raise ValueError(f"no reference input for {action!r}")


@dataclass(frozen=True, slots=True)
class Recorded:
    """One game both engines follow: the seed and every input in order."""

    seed: int
    inputs: list[Input]


def _gamehall_table(seed: int) -> DoppelkopfTable:
    table = new_game({}, seed)
    for name in ("A", "B", "C", "D"):
        table.seat_join(name)
    return table


def record(seed: int) -> list[Input]:
    """One game (a deal, then ``end`` votes) by a seeded random-legal policy."""
    table = _gamehall_table(seed)
    rng = random.Random(seed)
    inputs: list[Input] = []
    while not table.finished and len(inputs) < MAX_ACTIONS:
        if table.round.phase == "end":
            for seat in range(4):
                inputs.append((seat, Vote("end", True)))
                table.apply(seat, Vote("end", True))
            continue
        seat = min(table.to_move().seats)
        action = rng.choice(table.legal_actions(seat))
        inputs.append((seat, action))
        table.apply(seat, action)
    return inputs


def replay_gamehall(game: Recorded) -> None:
    table = _gamehall_table(game.seed)
    for seat, action in game.inputs:
        table.apply(seat, action)


class ReferenceGame:
    """One recorded game ready to replay in the reference: inputs translated beforehand."""

    def __init__(self, module: types.ModuleType, rules: dict[str, Any], game: Recorded) -> None:
        self.module, self.rules, self.game = module, rules, game
        self.hands = _gamehall_table(game.seed).round
        self.ids: dict[str, str] = {}

    def deal(self) -> QuietRefTable:
        """The reference's table up to its deal (timed), then gamehall's cards (not timed)."""
        ref = QuietRefTable(self.module, self.rules)
        ref.game.start()
        ref.drain()
        for seat in range(4):
            ref.event("cg:game.dk.ready_to_deal", seat)
        return ref

    def give_cards(self, ref: QuietRefTable) -> list[tuple[str, dict[str, Any]]]:
        rnd = self.hands
        for index, seat in enumerate(rnd.player_list):
            for gh_id, ref_id in zip(rnd.hands[seat], ref.round.slots[f"hand{index}"], strict=True):
                ref.round.cards[ref_id].card_value = rnd.values[gh_id]
                self.ids[gh_id] = ref_id.hex
        return [_with_player(ref, seat, *_ref_event(a, self.ids)) for seat, a in self.game.inputs]


def _with_player(
    ref: QuietRefTable, seat: int, name: str, data: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    return name, {"player": ref.players[seat].hex, **data}


def _feed(ref: QuietRefTable, events: list[tuple[str, dict[str, Any]]]) -> None:
    for name, data in events:
        ref.send_event(name, data)
        ref.drain()


def follows(module: types.ModuleType, rules: dict[str, Any], game: Recorded) -> bool:
    """Whether the reference accepts every input of ``game`` and ends its deal."""
    play = ReferenceGame(module, rules, game)
    ref = play.deal()
    if [ref.players.index(p) for p in ref.round.players] != play.hands.player_list:
        return False
    try:
        _feed(ref, play.give_cards(ref))
    except Exception:  # the reference raises its own error types (and bugs)
        return False
    warned = any(p == "cg:status.message" and d.get("type") == "warn" for _u, p, d in ref.sent)
    return bool(ref.ended) and not warned and ref.game.game_id not in ref.games


def time_reference(module: types.ModuleType, rules: dict[str, Any], game: Recorded) -> float:
    """CPU seconds the reference spends on ``game``: its table up to the deal, then the inputs."""
    play = ReferenceGame(module, rules, game)
    started = time.process_time()
    ref = play.deal()
    spent = time.process_time() - started
    events = play.give_cards(ref)
    started = time.process_time()
    _feed(ref, events)
    return spent + time.process_time() - started


def time_gamehall(game: Recorded) -> float:
    started = time.process_time()
    replay_gamehall(game)
    return time.process_time() - started


def _without_debug_string(module: types.ModuleType) -> Callable[[], None]:
    """Replace the reference's ``CGame.send_to_user`` by one without its debug f-string; returns
    the undo."""
    cgame = module.CGame
    original = cgame.send_to_user

    def send_to_user(self: Any, user: uuid.UUID, packet: str, data: dict[str, Any]) -> None:
        self.cg.server.send_to_user(user, packet, data)

    cgame.send_to_user = send_to_user

    def undo() -> None:
        cgame.send_to_user = original

    return undo


def reference_part(checkout: Path, games: int, repeats: int) -> str:
    module = load_reference(checkout)
    effective = _gamehall_table(0).rules
    rules = {f"dk.{k}": v for k, v in effective.items() if f"dk.{k}" in module.DoppelkopfGame.GAMERULES}
    recorded = [Recorded(seed, record(seed)) for seed in range(20_000, 20_000 + games)]
    kept = [game for game in recorded if follows(module, rules, game)]
    inputs = sum(len(g.inputs) for g in kept)
    engines = ("gamehall", "reference", "reference, no debug string")
    best = {name: [float("inf")] * len(kept) for name in engines}
    gc.collect()
    for _ in range(repeats):
        # game by game, each engine in turn, keeping each game's best time per engine: a busy
        # machine slows both alike within a game and only adds time, never removes it
        for index, game in enumerate(kept):
            times = best["gamehall"]
            times[index] = min(times[index], time_gamehall(game))
            times = best["reference"]
            times[index] = min(times[index], time_reference(module, rules, game))
            undo = _without_debug_string(module)
            try:
                times = best["reference, no debug string"]
                times[index] = min(times[index], time_reference(module, rules, game))
            finally:
                undo()
    total = {name: sum(times) for name, times in best.items()}
    header = (
        f"{'same games, both engines (CPU time)':<36} {'games':>6} {'inputs':>7} {'cpu s':>8} "
        f"{'games/s':>9} {'gamehall is':>12}"
    )
    lines = [
        f"{len(kept)} of {len(recorded)} recorded games followed by the reference; "
        f"each game's best of {repeats} runs per engine",
        header,
        "-" * len(header),
    ]
    for name, seconds in total.items():
        ratio = "" if name == "gamehall" else f"{seconds / total['gamehall']:>11.2f}x"
        lines.append(
            f"{name:<36} {len(kept):>6} {inputs:>7} {seconds:>8.2f} {len(kept) / seconds:>9.1f} {ratio}"
        )
    return "\n".join(lines)

"""How a Mr. Jack bot decides, on its own seat's view (``decide(view, seat, rng)``).

Two styles:

- ``random``: a uniformly random legal action (:func:`.model.legal_actions`), except that
  ``aktion(skip)`` is chosen only when no Teilzug has a target;
- ``heuristic``: the detective moves characters so that the next witness call splits the
  remaining suspects as evenly as possible, and accuses only a certain culprit (or, in the last
  activation of the game, gambles on a suspect rather than lose for sure); Mr. Jack keeps as
  many suspects as possible on his own side of the witness call, prefers to end a round unseen
  (which opens the escape), walks his own character towards an exit and escapes when he can.

Abilities are played at random by both styles: their effect on the witness call is indirect.
"""

from __future__ import annotations

import random
from typing import Final

from gamehall.bots.mrjack.model import (
    View,
    board_of,
    exit_distance,
    jack_group,
    legal_actions,
    seen_after,
    split_score,
)
from gamehall.rules._core import Action, Seat
from gamehall.rules.mrjack.actions import BEWEGEN, FAEHIGKEIT, MRJACK, SKIP, Aktion, Aktiv, Ziel
from gamehall.rules.mrjack.board import LAND_EXIT, PORTS

STYLES: Final = ("random", "heuristic")

LAST_ROUND: Final = 8


class MrJackPolicy:
    """A bot's decision function for either role (see the module docstring)."""

    def __init__(self, style: str = "random") -> None:
        if style not in STYLES:
            raise ValueError(f"unknown Mr. Jack bot style {style!r} (one of {', '.join(STYLES)})")
        self.style = style

    def decide(self, view: View, seat: Seat, rng: random.Random) -> Action | None:
        """The action to send now, or ``None`` when the seat has nothing to do."""
        legal = legal_actions(view, seat)
        if not legal:
            return None
        phase = view.get("phase")
        if phase == "aktion":
            # skip only when no Teilzug has a target: then it is legal whatever the room's
            # rule options (the view does not carry them, see :mod:`.model`)
            legal = [a for a in legal if a != Aktion(SKIP)] or legal
        if self.style == "random":
            return rng.choice(legal)
        if phase == "aktiv":
            return self._pick(view, legal, rng)
        if phase == "aktion":
            for part in (BEWEGEN, FAEHIGKEIT):
                if Aktion(part) in legal:
                    return Aktion(part)
            return legal[0]
        if phase == "ziel" and view.get("part") == BEWEGEN and not _relocating(view):
            return self._move(view, [a for a in legal if isinstance(a, Ziel)], rng)
        return rng.choice(legal)

    @staticmethod
    def _pick(view: View, legal: list[Action], rng: random.Random) -> Action:
        jack = view.get("jack")
        if (
            view.get("you") == MRJACK
            and jack
            and not view.get("witness_seen", True)
            and Aktiv(str(jack)) in legal
        ):
            return Aktiv(str(jack))  # unseen last round: his own character may escape now
        return rng.choice(legal)

    def _move(self, view: View, targets: list[Ziel], rng: random.Random) -> Action:
        board = board_of(view)
        colour = str(view["active"])
        alibis = {str(c) for c in view.get("alibis", [])}  # cards the informant showed this seat
        suspects = [str(c) for c in view.get("suspects", []) if str(c) not in alibis]
        occupied = {label: c for c, label in board.figures.items()}
        rng.shuffle(targets)
        if view.get("you") == MRJACK:
            jack = str(view.get("jack"))
            for target in targets:
                if target.koordinate == LAND_EXIT or target.koordinate in PORTS:
                    return target  # an escape wins at once

            def jack_score(target: Ziel) -> float:
                seen = seen_after(board, colour, target.koordinate)
                score = float(jack_group(seen, suspects, jack))
                if jack not in seen:
                    score += 1.5
                if colour == jack:
                    score -= 0.3 * exit_distance(target.koordinate)
                return score

            return max(targets, key=jack_score)
        accusations = [t for t in targets if t.koordinate in occupied]
        if len(suspects) == 1:
            certain = [t for t in accusations if occupied[t.koordinate] == suspects[0]]
            if certain:
                return certain[0]
        if view.get("round") == LAST_ROUND and view.get("spielzug") == 4:
            gambles = [t for t in accusations if occupied[t.koordinate] in suspects]
            if gambles:
                return gambles[0]  # the game is lost at the end of this round anyway
        walks = [t for t in targets if t.koordinate not in occupied] or targets
        return max(walks, key=lambda t: split_score(seen_after(board, colour, t.koordinate), suspects))


def _relocating(view: View) -> bool:
    """Whether the open ``bewegen`` step is the informant's relocation (the character already
    stands on the informant's hex)."""
    board = view.get("board", {})
    informant = board.get("informant", {}).get("hex")
    return bool(informant) and board.get("figures", {}).get(view.get("active")) == informant


__all__ = ["STYLES", "MrJackPolicy"]

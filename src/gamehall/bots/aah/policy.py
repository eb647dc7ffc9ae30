"""The AAH bot policy: what to play and whom to crown, from what a seat can see.

``decide`` works on the engine's view JSON (bots seated in-process by the hall);
``choose_cards`` and ``choose_submission`` work on plain ``(id, text)`` cards (the wire bot).
Two styles: ``"random"`` (uniformly random legal choices) and ``"heuristic"`` (plays its longest
cards, judges the submission with the most characters). Both are deterministic given the
``random.Random`` passed in.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from gamehall.rules._core import Action
from gamehall.rules.aah.actions import Judge, Pick

Card = tuple[int, str]
"""A white card as a bot sees it: (id, text)."""

STYLES: Final = ("random", "heuristic")


class AahPolicy:
    """What to play and whom to crown. ``style`` is ``"random"`` or ``"heuristic"``."""

    def __init__(self, style: str = "random") -> None:
        if style not in STYLES:
            raise ValueError(f"unknown AAH bot style {style!r}; choose one of {', '.join(STYLES)}")
        self.style = style

    def choose_cards(self, hand: Sequence[Card], count: int, rng: random.Random) -> list[int]:
        """``min(count, len(hand))`` distinct card ids from ``hand``, in play order."""
        count = max(0, min(count, len(hand)))
        if self.style == "random":
            return [card_id for card_id, _ in rng.sample(list(hand), count)]
        # heuristic: the longest texts first (ties broken by rng), so the short ones stay for later
        ranked = sorted(hand, key=lambda card: (-len(card[1]), rng.random()))
        return [card_id for card_id, _ in ranked[:count]]

    def choose_submission(self, submissions: Sequence[Sequence[Card]], rng: random.Random) -> int:
        """The index of the winning submission among the non-empty ``submissions``.

        Raises:
            ValueError: no submission holds a card.
        """
        candidates = [index for index, cards in enumerate(submissions) if cards]
        if not candidates:
            raise ValueError("no submission to judge")
        if self.style == "random":
            return rng.choice(candidates)
        sizes = {index: sum(len(text) for _, text in submissions[index]) for index in candidates}
        best = max(sizes.values())
        return rng.choice([index for index in candidates if sizes[index] == best])

    def decide(self, view: Mapping[str, Any], seat: int, rng: random.Random) -> Action | None:
        """The action ``seat`` should take now given its engine ``view``, or ``None``.

        Pick phase, non-czar, submission incomplete: a :class:`Pick` of the missing cards (never
        a card already submitted). Judge phase, czar: a :class:`Judge` naming the first card of
        the chosen revealed submission. Anything else: ``None``.
        """
        phase = view.get("phase")
        czar = view.get("czar")
        if phase == "pick" and czar != seat:
            black = view.get("black")
            if not black or self._seat_done(view, seat):
                return None
            submitted = {int(card_id) for card_id in view.get("my_submission") or ()}
            missing = int(black.get("pick", 1)) - len(submitted)
            hand = [
                (int(card["id"]), str(card["text"]))
                for card in view.get("hand") or ()
                if int(card["id"]) not in submitted
            ]
            chosen = self.choose_cards(hand, missing, rng)
            return Pick(tuple(chosen)) if chosen else None
        if phase == "judge" and czar == seat:
            submissions = [
                [(int(card["id"]), str(card["text"])) for card in entry.get("cards") or ()]
                for entry in view.get("submissions") or ()
            ]
            if not any(submissions):
                return None
            return Judge(submissions[self.choose_submission(submissions, rng)][0][0])
        return None

    @staticmethod
    def _seat_done(view: Mapping[str, Any], seat: int) -> bool:
        for entry in view.get("seats") or ():
            if entry.get("seat") == seat:
                return bool(entry.get("done"))
        return False


__all__ = ["STYLES", "AahPolicy", "Card"]

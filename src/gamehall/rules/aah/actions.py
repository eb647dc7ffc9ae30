"""What a seat can do at an AAH table (membership changes go through the Game contract)."""

from __future__ import annotations

from dataclasses import dataclass

from gamehall.rules._core import Action, ActionCodec


@dataclass(frozen=True, slots=True)
class Pick(Action):
    """Play white cards, in judging order. The legacy client sends one card per ``PICK``; the
    browser may send all of a submission at once. Each id is checked separately, left to right
    (section 5.7), so a frame can be partly accepted."""

    card_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Judge(Action):
    """The Card Czar names the winning submission by any one of its card ids."""

    card_id: int


ACTIONS = ActionCodec([Pick, Judge])

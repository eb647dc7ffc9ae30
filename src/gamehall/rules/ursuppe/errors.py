"""The ways an Ursuppe table refuses an input, keyed by the seed's FEHLER numbers (note 8).

Every refusal is a :class:`RuleError` whose ``code`` names the cause and whose
``detail["fehler"]`` is the seed's error number, so the UrServer dialogue sends
``FEHLER <fehler> <seed text>`` without a table of its own and the browser gets the English
``reason``. Raising never changes the table.
"""

from __future__ import annotations

from typing import Any

from gamehall.rules._core import IllegalAction, MalformedAction, NotYourTurn, RuleError, WrongPhase

_KINDS: dict[int, tuple[type[RuleError], str]] = {
    1: (IllegalAction, "wrong_amoeba"),
    2: (IllegalAction, "amoeba_not_there"),
    3: (IllegalAction, "amoeba_already_placed"),
    5: (IllegalAction, "gene_surrendered_twice"),
    6: (IllegalAction, "gene_bought_twice"),
    7: (IllegalAction, "own_colour"),
    9: (IllegalAction, "armor_needs_choice"),
    10: (IllegalAction, "gene_not_owned"),
    11: (IllegalAction, "gene_sold_out"),
    12: (IllegalAction, "must_not_starve"),
    17: (NotYourTurn, "not_your_turn"),
    18: (IllegalAction, "not_enough_bp"),
    19: (IllegalAction, "cubes_missing"),
    20: (IllegalAction, "move_without_roll"),
    21: (MalformedAction, "parameter_count"),
    22: (IllegalAction, "invalid_parameter"),
    23: (IllegalAction, "parasitism_while_starving"),
    24: (IllegalAction, "already_rolled"),
    25: (IllegalAction, "invalid_field"),
    26: (WrongPhase, "game_not_running"),
    30: (WrongPhase, "unexpected_command"),
    31: (IllegalAction, "struggle_refused"),
    32: (IllegalAction, "direction_invalid"),
    33: (IllegalAction, "meal_too_big"),
    34: (IllegalAction, "must_move_after_roll"),
    35: (IllegalAction, "tentacle_too_many"),
    36: (IllegalAction, "tentacle_repeated"),
    37: (IllegalAction, "already_fled"),
    38: (IllegalAction, "already_defended"),
}
"""Seed error number -> (error class, code)."""


def fehler(number: int, reason: str, **detail: Any) -> RuleError:
    """The refusal for seed error ``number`` with an English ``reason``."""
    cls, code = _KINDS[number]
    return cls(reason, code=code, fehler=number, **detail)


def error_number(error: RuleError) -> int | None:
    """The seed error number of a refusal raised by this package (``None`` for others)."""
    number = error.detail.get("fehler")
    return number if isinstance(number, int) else None

"""What a contest needs to know about each game: its protocol, its table sizes, its deadlines
and the room settings of a contest game.

The deadlines follow the Software-Challenge server (soft 2 s, hard 10 s per move) except where
a game's own pace makes that unfair: a word game's move is a search over a dictionary and its
turn is a fixed window (``time_per_turn``), so its deadlines fall inside that window. Everything here
is a default: the entrants file overrides deadlines, table size and room settings per contest
(:mod:`gamehall.contest.entrants`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from gamehall.contest.ports import Deadlines
from gamehall.rules._core import JSON


@dataclass(frozen=True, slots=True)
class GameProfile:
    """One game's contest defaults.

    ``seats`` is the table size of a contest game (``min_seats``..``max_seats`` may be chosen in
    the entrants file). ``duplicate``: every table of the same game index gets the same seed,
    so every entrant meets the same racks (duplicate words). ``graded``: the project's bots of
    this game have a strength that shows in results (the ``--demo`` order can be checked).
    """

    game: str
    protocol: str
    seats: int
    min_seats: int
    max_seats: int
    deadlines: Deadlines
    config: Mapping[str, JSON] = field(default_factory=dict)
    duplicate: bool = False
    graded: bool = True
    seats_setting: str | None = None  # the room setting that holds the table size, if any

    def room_config(self, seats: int, overrides: Mapping[str, JSON]) -> dict[str, JSON]:
        """The room settings of a contest game at a table of ``seats``."""
        config: dict[str, JSON] = {**self.config, **overrides}
        if self.seats_setting is not None:
            config[self.seats_setting] = seats
        return config


PROFILES: Mapping[str, GameProfile] = {
    "mrjack": GameProfile("mrjack", "mrjack", 2, 2, 2, Deadlines(soft_s=2.0, hard_s=10.0)),
    # No wire pacing between bots, and a short wait for "cards created": the first player's
    # clock runs from the deal, and the default pacing alone would eat its hard deadline.
    "doppelkopf": GameProfile(
        "doppelkopf",
        "cg",
        4,
        4,
        4,
        Deadlines(soft_s=2.0, hard_s=10.0),
        {"deal_interval_s": 0.0, "trick_close_delay_s": 0.0, "loading_timeout_s": 0.5},
    ),
    # The judge's pick is a matter of taste, not strength: no meaningful grading.
    "aah": GameProfile(
        "aah", "aah", 4, 3, 8, Deadlines(soft_s=2.0, hard_s=10.0), {}, graded=False, seats_setting="playermax"
    ),
    "ursuppe": GameProfile(
        "ursuppe", "urserver", 3, 3, 4, Deadlines(soft_s=2.0, hard_s=10.0), seats_setting="players"
    ),
    # A duplicate turn is a window of time_per_turn seconds for everyone at once. The referee
    # stops a seat's clock once it has a move standing in the turn and starts a new one with
    # the next turn (HeldTurn), so both deadlines lie inside the window: a seat that sends
    # nothing in a turn is typed timeout at the hard deadline, before the game's own turn
    # timer would pass it by.
    "words": GameProfile(
        "words",
        "jduplicate",
        2,
        1,
        8,
        Deadlines(soft_s=20.0, hard_s=25.0),
        {"preset": "DupEN", "time_per_turn": 30, "end_turn_when_all_moved": True},
        duplicate=True,
        seats_setting="max_players",
    ),
}
"""The contest defaults of every hosted game, by game id."""


def profile_for(game: str) -> GameProfile:
    """The profile of ``game``.

    Raises:
        KeyError: not a hosted game.
    """
    return PROFILES[game]

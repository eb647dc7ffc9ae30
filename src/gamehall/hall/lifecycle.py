"""The seat lifecycle, written as a transition table (ARCHITECTURE.md, "hall").

A member of a room moves through these states::

    SEATED --game starts--> PLAYING --drop--> AWAY --back--> PLAYING
       |                       |               |
       +--leave/drop--> LEFT <-+--leave/kick---+--grace expires--> LEFT
                               +--game over--> FINISHED

Anything not in the table is a bug in the caller, so :func:`step` raises instead of guessing.
"""

from __future__ import annotations

import enum


class SeatStatus(enum.Enum):
    SEATED = "seated"  # in a room whose game has not started
    PLAYING = "playing"  # in a running game, connected
    AWAY = "away"  # in a running game, connection lost, seat held for the grace
    LEFT = "left"  # seat released
    FINISHED = "finished"  # the room's game ended


class Trigger(enum.Enum):
    GAME_STARTS = "game_starts"
    DROP = "drop"  # connection lost
    BACK = "back"  # same user back within the grace
    LEAVE = "leave"  # user asked to leave, or was kicked
    GRACE_EXPIRES = "grace_expires"
    GAME_OVER = "game_over"


TRANSITIONS: dict[tuple[SeatStatus, Trigger], SeatStatus] = {
    (SeatStatus.SEATED, Trigger.GAME_STARTS): SeatStatus.PLAYING,
    (SeatStatus.SEATED, Trigger.DROP): SeatStatus.LEFT,  # no grace before the game starts
    (SeatStatus.SEATED, Trigger.LEAVE): SeatStatus.LEFT,
    (SeatStatus.SEATED, Trigger.GAME_OVER): SeatStatus.FINISHED,
    (SeatStatus.PLAYING, Trigger.DROP): SeatStatus.AWAY,
    (SeatStatus.PLAYING, Trigger.LEAVE): SeatStatus.LEFT,
    (SeatStatus.PLAYING, Trigger.GAME_OVER): SeatStatus.FINISHED,
    (SeatStatus.AWAY, Trigger.BACK): SeatStatus.PLAYING,
    (SeatStatus.AWAY, Trigger.LEAVE): SeatStatus.LEFT,
    (SeatStatus.AWAY, Trigger.GRACE_EXPIRES): SeatStatus.LEFT,
    (SeatStatus.AWAY, Trigger.GAME_OVER): SeatStatus.FINISHED,
    (SeatStatus.AWAY, Trigger.GAME_STARTS): SeatStatus.AWAY,
}


class LifecycleError(RuntimeError):
    """A transition the table does not have."""


def step(status: SeatStatus, trigger: Trigger) -> SeatStatus:
    """The state after ``trigger``.

    Raises:
        LifecycleError: the pair is not in :data:`TRANSITIONS`.
    """
    try:
        return TRANSITIONS[(status, trigger)]
    except KeyError:
        raise LifecycleError(f"no transition from {status.value} on {trigger.value}") from None

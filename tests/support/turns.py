"""Drive a hall from a test the way the server does: every call is a loop turn of its own.

The hall queues store writes and listener calls in its outbox and makes them when the loop's
turn is over (``gamehall.hall.outbox``). On a fake clock nothing ends a turn by itself, so
hall-level tests would have to flush after every call. :func:`turn_by_turn` wraps a hall so
that each call made through it, and through the sessions and rooms it hands out, ends with
``hall.flush()``: the test reads as before ("alice acts; bob has heard it") and what it checks
is the state after the turn, exactly what a connection sees.

Only the test's own calls are wrapped: the hall's code calls itself directly, so nothing is
delivered while a hall call is on the stack.
"""

from __future__ import annotations

from typing import Any, cast

from gamehall.hall import Hall
from gamehall.hall.hall import Session
from gamehall.hall.room import Room


class _Turns:
    """A proxy whose method calls each end the loop turn (see the module docstring)."""

    def __init__(self, target: object, hall: Hall) -> None:
        object.__setattr__(self, "_turns_target", target)
        object.__setattr__(self, "_turns_hall", hall)

    def __getattr__(self, name: str) -> Any:
        target = object.__getattribute__(self, "_turns_target")
        hall: Hall = object.__getattribute__(self, "_turns_hall")
        value = getattr(target, name)
        if not callable(value) or isinstance(value, type):
            return _wrap(value, hall)

        def one_turn(*args: Any, **kwargs: Any) -> Any:
            try:
                result = value(*args, **kwargs)
            finally:
                hall.flush()
            return _wrap(result, hall)

        return one_turn

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(object.__getattribute__(self, "_turns_target"), name, value)

    def __repr__(self) -> str:
        return f"turn_by_turn({object.__getattribute__(self, '_turns_target')!r})"


def _wrap(value: Any, hall: Hall) -> Any:
    if isinstance(value, (Session, Room)):
        return _Turns(value, hall)
    return value


def turn_by_turn(hall: Hall) -> Hall:
    """``hall``, with every call through it (and its sessions and rooms) ending the turn."""
    return cast(Hall, _Turns(hall, hall))


def turn_by_turn_hall(**kwargs: Any) -> Hall:
    """``Hall(**kwargs)``, driven turn by turn (:func:`turn_by_turn`)."""
    return turn_by_turn(Hall(**kwargs))

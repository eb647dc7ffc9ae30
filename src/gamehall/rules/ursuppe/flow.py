"""Requests and flows: how the rulebook's turn order is written as plain Python.

Each phase is a generator (a *flow*) that yields a :class:`Request` whenever a player must
decide, and receives the answer as ``(seat, action)``. The engine checks every action with the
request's ``check`` *before* sending it in, so a flow only ever sees legal answers and the
table never changes on a refused input. A request also knows its default move (note 9) and,
for bots and perft counts, its legal answers.

A flow may yield the same request again (a pre-command such as ``WUERFELN`` was applied and
the request is still open); the engine then keeps its timer running (note 9: informational
commands and pre-commands do not restart it).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import TypeVar

from gamehall.rules._core import Action, Event, Seat

T = TypeVar("T")

Answer = tuple[Seat, Action]
Flow = Generator["Request", Answer, T]
"""A rule sequence that asks players and finally returns a ``T``."""


@dataclass(eq=False, slots=True)
class Request:
    """One pending ``ZUG_*``.

    ``seats`` is who still has to answer (several only for ZUG_BEREIT); ``prompt(seat)`` is
    the ZUG event sent to a seat; ``accepts`` the action types this request takes (any other
    gives FEHLER 30); ``check`` raises the seed's error for an illegal answer; ``default`` is
    the timeout move; ``legal`` lists the accepted answers.
    """

    kind: str
    seats: set[Seat]
    prompt: Callable[[Seat], Event]
    accepts: tuple[type[Action], ...]
    check: Callable[[Seat, Action], None]
    default: Callable[[Seat], Action]
    legal: Callable[[Seat], list[Action]]
    timeout_factor: int = 1


def ask(request: Request) -> Generator[Request, Answer, Answer]:
    """Yield ``request`` once and return the (already checked) answer."""
    answer = yield request
    return answer

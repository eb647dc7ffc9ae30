"""Stale actions: an action decided on a room state the room has since moved past.

A client may send, with an action, the room sequence number (``seq``) of the last event or
view it had seen when its player decided: the state the decision was made on. The room refuses
the action (``HallError("stale")``, nothing changes) when, after that ``seq``, it accepted an
input that changed what that seat may do; the protocol then sends the player a fresh view. An
action without a ``seq`` is never stale (every legacy protocol, the in-hall bots).

What counts, for seat S (the rule, :meth:`StaleGuard.note`): an input accepted after ``seq``

1. **not S's own.** S's actions reach the room in the order S sent them, so a client that
   sends two moves in a row knew about the first when it chose the second;
2. **delivered to S**: at least one of its events is visible to S. An input S could not have
   seen (another seat's private move) is no news S could have waited for;
3. **that moved S's turn**: what ``Game.to_move()`` says of S (whether S is among the seats to
   move, and the kind of move awaited) differs before and after the input, *or* the input was
   a fired timer. A timer is the table moving on by itself: it may start a new round that
   awaits the very same kind of move from S (a Duplicate turn closes, the next one opens), so
   a move decided in the old round must not land in the new one.

Why not simply "any event after ``seq``": in a busy room that punishes speed for nothing.
Chat, spectators coming and going, and other seats' moves that leave S's turn as it was (the
other pickers of an AAH round, the other players of a Duplicate turn, a Doppelkopf
announcement) change nothing S may do; refusing S's move because of them would make the
fastest rooms the most frustrating. What the rule catches is what hurts: the turn passed
(a complaint opened in the middle of S's trick, a pick phase closed), or a timer played the
default for S and the next round began.

The marks live in memory: a room rebuilt after a restart starts with none (its numbering
starts again too, and every returning client gets a fresh view first). A ``seq`` ahead of the
room is taken as current: nothing was accepted after it.
"""

from __future__ import annotations

from collections.abc import Iterable

from gamehall.protocols._core import HallError
from gamehall.rules._core import Event, Seat, ToMove

TIMER_INPUT = "timeout"
"""The room log's kind of a fired game timer (:meth:`gamehall.hall.room.Room._input`)."""


def turn_of(to_move: ToMove, seat: Seat) -> tuple[bool, str]:
    """What ``to_move`` says of ``seat``: whether it is to move, and the kind of move awaited."""
    return seat in to_move.seats, to_move.kind


class StaleGuard:
    """A room's per-seat marks: the last event (by ``seq``) of an input that moved the seat's
    turn (see the module docstring). Small: one integer per seat that ever had one."""

    __slots__ = ("_moved",)

    def __init__(self) -> None:
        self._moved: dict[Seat, int] = {}

    def check(self, seat: Seat, seq: int) -> None:
        """Refuse an action of ``seat`` decided on the room state numbered ``seq``.

        Raises:
            HallError: ``stale`` when an input that moved ``seat``'s turn was accepted after
                ``seq``.
        """
        if seq < self._moved.get(seat, 0):
            raise HallError(
                "stale",
                "The table changed before your move arrived; nothing was played. Look again.",
            )

    def note(
        self,
        *,
        kind: str,
        actor: Seat | None,
        before: ToMove,
        after: ToMove,
        seats: Iterable[Seat],
        numbered: Iterable[tuple[int, Event]],
    ) -> None:
        """Mark the seats one accepted input moved. ``kind`` is its log kind, ``actor`` the
        seat whose input it was (``None``: a timer, a join, a start), ``before``/``after`` the
        game's ``to_move()`` around it, ``seats`` the room's seats, ``numbered`` its events
        with their sequence numbers."""
        if kind != TIMER_INPUT and before == after:
            return  # nobody's turn changed (the common case: one more pick of a round)
        moved = [
            seat
            for seat in seats
            if seat != actor and (kind == TIMER_INPUT or turn_of(before, seat) != turn_of(after, seat))
        ]
        if not moved:
            return
        for seq, event in numbered:
            for seat in moved:
                if event.visible_to(seat):
                    self._moved[seat] = seq

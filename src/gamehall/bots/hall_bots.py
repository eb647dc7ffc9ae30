"""Bots seated inside the hall: they fill empty seats, on request, without any socket.

A hall bot is an ordinary user whose listener, instead of writing to a connection, looks at the
room after every event and, when its seat is to move, asks the game's policy for an action. It
thinks after a short delay on the hall's clock, never inside the delivery itself: a listener must
not call back into the room that is delivering to it.
"""

from __future__ import annotations

import itertools
import logging
import random
from collections.abc import Mapping
from typing import Any, Protocol

from gamehall.hall.hall import Hall
from gamehall.hall.recovery import BotSeat
from gamehall.hall.room import Room
from gamehall.protocols._core import Cancellable, CloseReason, Delivery, HallError
from gamehall.rules._core import Action, Event, RuleError, Seat

log = logging.getLogger(__name__)


class Policy(Protocol):
    """A game's decision function for one seat, on that seat's own view."""

    def decide(self, view: Mapping[str, Any], seat: Seat, rng: random.Random) -> Action | None: ...


# A policy may set ``acts_out_of_turn = True`` to be asked after every event, not only when its
# seat is to move (Doppelkopf bots answer a cancel vote while another seat is to play); its
# ``decide`` then returns ``None`` when it has nothing to do.


def make_policy(game: str, name: str) -> Policy:
    """The policy called ``name`` ("random" or "heuristic") for ``game``.

    Raises:
        HallError: ``no_such_policy``.
    """
    if game == "aah":
        from gamehall.bots.aah import AahPolicy

        if name in ("random", "heuristic"):
            aah_policy: Policy = AahPolicy(name)
            return aah_policy
    if game == "mrjack":
        from gamehall.bots.mrjack import STYLES, MrJackPolicy

        if name in STYLES:
            return MrJackPolicy(name)
    if game == "ursuppe":
        from gamehall.bots.ursuppe import POLICIES, UrsuppePolicy

        if name in POLICIES:
            return UrsuppePolicy(name)
    if game == "doppelkopf":
        from gamehall.bots.doppelkopf import STYLES as DK_STYLES
        from gamehall.bots.doppelkopf import DoppelkopfPolicy

        if name in DK_STYLES:
            return DoppelkopfPolicy(name)
    if game == "words":
        from gamehall.bots.words import STYLES as WORDS_STYLES
        from gamehall.bots.words import WordsPolicy

        if name in WORDS_STYLES:
            return WordsPolicy(name)
    raise HallError("no_such_policy", f"No bot policy {name!r} for {game}.")


class BotPlace(Protocol):
    """What a bot plays through: a login :class:`~gamehall.hall.hall.Session` (a bot seated on
    request) or a :class:`~gamehall.hall.recovery.BotSeat` (a held seat it plays on)."""

    @property
    def name(self) -> str: ...

    def room(self, room_id: str) -> Room: ...

    def seat_in(self, room_id: str) -> Seat | None: ...

    def act(self, room_id: str, action: Action) -> None: ...

    def logout(self, *, dropped: bool) -> None: ...


class HallBot:
    """One bot user in one room (implements the hall's Listener)."""

    is_bot = True
    """Read by the room: an operator's place passes to a human before a bot."""

    def __init__(self, hall: Hall, room_id: str, policy: Policy, rng: random.Random, delay: float) -> None:
        self.hall = hall
        self.room_id = room_id
        self.policy = policy
        self.rng = rng
        self.delay = delay
        self.session: BotPlace | None = None
        self._pending: Cancellable | None = None
        self._done = False

    # Listener
    def deliver(self, room_id: str, delivery: Delivery) -> None:
        self._schedule()

    def hall_event(self, event: Event) -> None:
        return None

    def ended(self, room_id: str, reason: CloseReason, text: str) -> None:
        self._finish()

    def disconnect(self, reason: CloseReason, text: str) -> None:
        self._finish()

    # thinking
    def _schedule(self) -> None:
        if self._pending is None and not self._done:
            self._pending = self.hall.clock.call_later(self.delay, self._think)

    def _think(self) -> None:
        self._pending = None
        session = self.session
        if self._done or session is None:
            return
        try:
            room = session.room(self.room_id)
        except HallError:
            self._finish()
            return
        seat = session.seat_in(self.room_id)
        if seat is None:
            return
        if seat not in room.game.to_move().seats and not getattr(self.policy, "acts_out_of_turn", False):
            return
        action = self.policy.decide(room.game.view(seat), seat, self.rng)
        if action is None:
            return
        try:
            session.act(self.room_id, action)
        except (RuleError, HallError) as exc:
            log.warning("bot %s in %s: %s refused: %s", session.name, self.room_id, action, exc)
            return
        self._schedule()  # several decisions in a row (e.g. pick then judge) need another look

    def _finish(self) -> None:
        if self._done:
            return
        self._done = True
        if self._pending is not None:
            self._pending.cancel()
        if self.session is not None:  # the hall calls listeners outside its calls: log out now
            self.session.logout(dropped=False)


_names = itertools.count(1)


def add_bots(
    hall: Hall,
    room_id: str,
    count: int,
    policy: str = "random",
    *,
    delay: float = 0.3,
    seed: int | None = None,
) -> list[str]:
    """Seat ``count`` bots in ``room_id``. Returns their names.

    Raises:
        HallError: unknown room or policy, or the room has no free seat.
    """
    room = hall.room(room_id)
    game = room.game_type.game_id
    names: list[str] = []
    rng = random.Random(seed)
    for _ in range(count):
        bot = HallBot(hall, room_id, make_policy(game, policy), random.Random(rng.random()), delay)
        name = _free_name(hall)
        session = hall.login(name, bot, protocol="bot")
        bot.session = session
        try:
            session.join(room_id, invited=True)  # asked for by someone in the room: no password
        except (RuleError, HallError):
            session.logout(dropped=False)
            raise
        names.append(name)
    return names


def drive_seat(hall: Hall, place: BotSeat, policy: str, *, delay: float = 0.3) -> HallBot:
    """A bot that plays the held seat behind ``place`` with ``policy`` (the hall's bot
    driver: a restored bot's seat, or a seat taken over from a player who did not come back).
    It takes its first look at the game after ``delay``.

    Raises:
        HallError: ``no_such_policy``.
    """
    room = hall.room(place.room_id)
    bot = HallBot(hall, place.room_id, make_policy(room.game_type.game_id, policy), random.Random(), delay)
    bot.session = place
    bot.hall.clock.call_later(0, bot._schedule)  # after the room has seated it
    return bot


def _free_name(hall: Hall) -> str:
    while True:
        name = f"Bot{next(_names)}"
        if hall.name_free(name):
            return name

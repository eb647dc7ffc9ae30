"""What an AAH table tells its seats, one event per step of the note, in wire order.

The engine returns these events in exactly the order of sections 5.6-5.10, 6.2 and the
transcripts of section 10, each tagged with its audience, so the legacy dialogue turns each
event into its frames on its own, without looking back or ahead. ``audience=None`` means every
seat (and every spectator); the hall never delivers anything to a held (away) seat.

Mapping to AAH frames, for the recipient ``me`` (frames in this order):

======================  =========================  ============================================
event                   audience                   legacy frames
======================  =========================  ============================================
SeatJoined (_core)      all                        ``CLJN<name>`` (the joiner itself: nothing;
                                                   the hall sent it ``ACKN``/``CLNF``)
SeatLeft (_core)        all                        ``CLEX<name>`` (the leaver: nothing)
SeatRenamed (_core)     all                        ``CLEX<old>``, ``CLJN<new>`` (the renamer:
                                                   ``NACC``, sent by the dialogue)
SeatAway (_core)        all                        nothing (a Broadcast follows)
SeatBack (_core)        all                        nothing (the replay and a Broadcast follow)
Broadcast               all / others               ``BDCS<text>``
CountdownStarted        all                        ``BDCS<text>`` (a Broadcast)
CountdownCancelled      all                        ``BDCS<text>`` (a Broadcast)
CountdownShortened      all                        nothing (the table filled up: 3 s left)
GameStarted             all / the rejoiner         ``GSTR``
Points                  all / the rejoiner         ``PNTS<name>\\0<points>``
WhiteDealt              the card's owner           ``WHTE<id>\\0<text>``
RoundStarted            all / the rejoiner         ``RSTR``
CzarAndBlack            all / the rejoiner         ``CZAR<czar name>``, ``BLCK<text>\\0<pick>``
CardPlayed              all                        ``BLNK`` (the player: nothing)
Revealed                all / the rejoiner         ``REVL<id>\\0<text>[\\0<id>\\0<text>...]``
RoundWon                all                        ``RWIN<name>\\0<id>``
RoundVoid               all                        ``BDCS<text>``, ``RWIN`` (no arguments)
PickTimedOut            the skipped seat           ``CRTO`` (a Broadcast for all follows)
CzarTimedOut            the czar                   ``CZTO`` (RoundVoid follows)
SeatKicked              the kicked seat            ``DISC Disconnected due to inactivity.``
                                                   (SeatLeft follows: the hall closes it)
GameWon                 all                        ``GWIN<name>`` (TableClosed follows)
GameAborted             all                        ``BDCS<text>`` (TableClosed follows)
TableClosed             all                        ``DISC<reason>``; the hall closes the room
                                                   after the end-of-game grace
======================  =========================  ============================================

"all / the rejoiner": during the game these go to everyone; :meth:`AahTable.seat_back` also
emits them with ``audience`` = the returning seat alone, as the state replay of section 6.3
(``WhiteDealt`` with reason ``"restore"`` then lists its whole hand).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gamehall.rules._core import Event, Seat
from gamehall.rules.aah.cards import BlackCard, WhiteCard

DealReason = Literal["deal", "draw", "return", "restore"]
"""Why a white card reaches a hand: the opening deal, the draw step of a round, a played card
given back (timeout, void round), or the hand re-sent to a seat that came back."""

CloseCause = Literal["won", "aborted", "stopped"]

DISC_TEXTS: dict[CloseCause, str] = {
    "won": "The game has ended.",
    "aborted": "Game ended by server or administrator.",
    "stopped": "Game ended by server or administrator.",
}
"""The ``DISC`` reason (11.2) for each way a table closes."""

INACTIVITY_TEXT = "Disconnected due to inactivity."


@dataclass(frozen=True, slots=True, kw_only=True)
class Broadcast(Event):
    """A server notice (``BDCS``). ``topic`` names it for clients that word notices
    themselves: countdown, countdown_cancelled, next_round, pick_timeout, seat_held,
    seat_back, waiting; ``text`` is the exact legacy wording (11.3)."""

    topic: str
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CountdownStarted(Broadcast):
    """Enough seats are taken: the game starts in ``seconds`` unless seats leave."""

    seconds: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CountdownCancelled(Broadcast):
    """Seats left during the countdown: back to waiting for players."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CountdownShortened(Event):
    """The table filled up during the countdown: the game starts in ``seconds`` (no frame)."""

    seconds: int


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStarted(Event):
    """The game has begun (``GSTR``)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Points(Event):
    """One seat's score (``PNTS``); sent for every seat, in seat order."""

    seat: Seat
    name: str
    points: int


@dataclass(frozen=True, slots=True, kw_only=True)
class WhiteDealt(Event):
    """A white card reaches ``seat``'s hand (``WHTE``); only that seat may see it."""

    seat: Seat
    card: WhiteCard
    reason: DealReason


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundStarted(Event):
    """Round ``round`` begins (``RSTR``): clients clear the played area."""

    round: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CzarAndBlack(Event):
    """This round's Card Czar and black card (``CZAR`` then ``BLCK``)."""

    round: int
    czar: Seat
    czar_name: str
    black: BlackCard


@dataclass(frozen=True, slots=True, kw_only=True)
class CardPlayed(Event):
    """``seat`` played one card (``BLNK`` to every other seat), one event per accepted card.
    That a card was played is public (spectators see the count grow); which card stays secret."""

    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class Revealed(Event):
    """One complete submission, cards in play order, owner hidden (``REVL``). The events of a
    round come in the one shuffled order every seat sees."""

    cards: tuple[WhiteCard, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundWon(Event):
    """The czar chose ``seat``'s submission (``RWIN``); ``card_id`` is the id the czar named,
    ``cards`` the whole winning submission."""

    seat: Seat
    name: str
    card_id: int
    cards: tuple[WhiteCard, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundVoid(Event):
    """The round ended without a winner (``BDCS<text>`` then an empty ``RWIN``). ``cause`` is
    one of too_few, czar_timeout, czar_left, none_left."""

    cause: str
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PickTimedOut(Event):
    """``seat`` did not finish picking in time and is skipped this round (``CRTO``)."""

    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class CzarTimedOut(Event):
    """The Card Czar did not judge in time (``CZTO``); the round is void."""

    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatKicked(Event):
    """``seat`` timed out ``kick_after_skips`` times in a row and is released (``DISC``)."""

    seat: Seat
    name: str
    text: str = INACTIVITY_TEXT


@dataclass(frozen=True, slots=True, kw_only=True)
class GameWon(Event):
    """``seat`` reached the points limit (``GWIN``)."""

    seat: Seat
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class GameAborted(Event):
    """Too few seats are left to go on (``BDCS<text>``)."""

    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TableClosed(Event):
    """The table is over (``DISC<text>`` to each seat); the hall closes it after its grace."""

    cause: CloseCause
    text: str

"""What one AAH seat receives for each table or hall event: the legacy frames, in wire order.

The engine's events already come in the order of the note (sections 5.6-5.10, 6.2, 6.3) and
carry their audience; :mod:`gamehall.rules.aah.events` has the table this module implements.
Each event turns into its frames on its own, without looking back or ahead, so this module is a
plain function of ``(event, my seat)``. The dialogue owns what an event does to the connection
(a ``DISC`` closes it); here it is only the bytes' content.

Every text argument passes through :func:`~gamehall.protocols.aah.codec.sanitize_text`: card
texts, names and chat may come from the browser or a deck file, and the legacy wire must never
carry NUL or ETX inside an argument.
"""

from __future__ import annotations

from gamehall.protocols._core import ChatSaid, Notice, RenderKey
from gamehall.protocols.aah.codec import Frame, bare_frame, sanitize_text
from gamehall.rules._core import Event, Seat, SeatJoined, SeatLeft, SeatRenamed
from gamehall.rules.aah.cards import WhiteCard
from gamehall.rules.aah.events import (
    Broadcast,
    CardPlayed,
    CzarAndBlack,
    CzarTimedOut,
    GameAborted,
    GameStarted,
    GameWon,
    PickTimedOut,
    Points,
    Revealed,
    RoundStarted,
    RoundVoid,
    RoundWon,
    SeatKicked,
    TableClosed,
    WhiteDealt,
)


def frame(command: str, *args: str) -> Frame:
    """A server frame with every argument sanitised (no NUL, ETX or other C0 control but LF).
    A known command without arguments is the codec's shared instance (``PONG``, ``ACKN``)."""
    if not args:
        return bare_frame(command) or Frame(command)
    return Frame(command, tuple(map(sanitize_text, args)))


def white_frame(card: WhiteCard) -> Frame:
    """``WHTE<id>\\0<text>``: a card reaching the hand (deal, draw, return, restore)."""
    return frame("WHTE", str(card.card_id), card.text)


def chat_frame(sender: str, text: str) -> Frame:
    """``RMSG<sender>\\0<text>``: room chat, from a legacy seat or the browser."""
    return frame("RMSG", sender, text)


_ABOUT_A_SEAT = (CardPlayed, SeatJoined, SeatLeft, SeatRenamed)
"""The events whose frames differ for the seat they are about (see :func:`render_key`)."""


def render_key(event: Event, me: Seat | None) -> RenderKey:
    """What :func:`table_frames` reads of ``me``: only whether ``event`` is about ``me`` (its
    own played card, join, departure or rename give it nothing or other frames). Seats with
    equal keys get equal frames, so a room's seats share one rendering per key
    (:meth:`~gamehall.protocols._core.Delivery.rendered`). Keep this in step with
    :func:`table_frames`: a new use of ``me`` there needs its place in the key."""
    return ("aah", isinstance(event, _ABOUT_A_SEAT) and event.seat == me)


def table_frames(event: Event, me: Seat | None) -> list[Frame]:
    """The frames seat ``me`` receives for one room event (the hall checked the audience).

    Events with no legacy frame give ``[]``: a seat's own join (the dialogue sent ``ACKN`` and
    ``CLNF``), its own rename (the dialogue sends ``NACC``), a seat going away or coming back
    (a ``Broadcast`` follows), the shortened countdown, spectators and the room's closing.
    """
    if isinstance(event, Broadcast):  # CountdownStarted and CountdownCancelled included
        return [frame("BDCS", event.text)]
    if isinstance(event, WhiteDealt):
        return [white_frame(event.card)]
    if isinstance(event, CardPlayed):  # public, but the player's own client learns nothing new
        return [] if event.seat == me else [frame("BLNK")]
    if isinstance(event, Points):
        return [frame("PNTS", event.name, str(event.points))]
    if isinstance(event, Revealed):
        args: list[str] = []
        for card in event.cards:
            args += [str(card.card_id), card.text]
        return [frame("REVL", *args)]
    if isinstance(event, RoundStarted):
        return [frame("RSTR")]
    if isinstance(event, CzarAndBlack):
        return [frame("CZAR", event.czar_name), frame("BLCK", event.black.text, str(event.black.pick))]
    if isinstance(event, RoundWon):
        return [frame("RWIN", event.name, str(event.card_id))]
    if isinstance(event, RoundVoid):
        return [frame("BDCS", event.text), frame("RWIN")]
    if isinstance(event, GameStarted):
        return [frame("GSTR")]
    if isinstance(event, PickTimedOut):
        return [frame("CRTO")]
    if isinstance(event, CzarTimedOut):
        return [frame("CZTO")]
    if isinstance(event, SeatJoined):
        return [] if event.seat == me else [frame("CLJN", event.name)]
    if isinstance(event, SeatLeft):
        return [] if event.seat == me else [frame("CLEX", event.name)]
    if isinstance(event, SeatRenamed):
        return [] if event.seat == me else [frame("CLEX", event.old), frame("CLJN", event.new)]
    if isinstance(event, GameWon):
        return [frame("GWIN", event.name)]
    if isinstance(event, GameAborted):
        return [frame("BDCS", event.text)]
    if isinstance(event, (SeatKicked, TableClosed)):
        return [frame("DISC", event.text)]
    if isinstance(event, ChatSaid):
        return [chat_frame(event.sender, event.text)]
    # SeatAway, SeatBack, CountdownShortened, SpectatorsChanged, RoomClosed: nothing on this wire
    return []


def hall_frames(event: Event) -> list[Frame]:
    """The frames a seated legacy connection receives for a hall-wide event.

    The legacy protocol has only room chat (``RMSG``); a whisper or a shout from the browser,
    and a server notice, arrive as a ``BDCS`` whose text says who wrote it. **Decision (ours)**,
    wording: ``"<sender> whispers: <text>"``, ``"<sender> to everyone: <text>"``, a notice as is.
    """
    if isinstance(event, Notice):
        return [frame("BDCS", event.text)] if event.text else []
    if isinstance(event, ChatSaid):
        if event.scope == "private":
            return [frame("BDCS", f"{event.sender} whispers: {event.text}")]
        if event.scope == "broadcast":
            return [frame("BDCS", f"{event.sender} to everyone: {event.text}")]
        return [chat_frame(event.sender, event.text)]
    return []


__all__ = [
    "chat_frame",
    "frame",
    "hall_frames",
    "render_key",
    "table_frames",
    "white_frame",
]

"""What a seated legacy connection asks of its table: ``PICK``, ``CZPK``, ``SMSG`` and ``NICK``.

Each function checks a command's arguments the way the note words its errors, calls the
user's :class:`~gamehall.protocols._core.Session`, and answers through :class:`Replies` (the
dialogue), which also keeps the protocol-error count of 7.3: :meth:`Replies.reject` counts one,
:meth:`Replies.accepted` resets it. Replies that are not protocol errors (a chat rate limit, a
refused rename, chat disabled) do neither.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final, Protocol

from gamehall.protocols._core import HallError, Session
from gamehall.protocols.aah import texts
from gamehall.protocols.aah.codec import Frame
from gamehall.protocols.aah.frames import frame, white_frame
from gamehall.rules._core import RuleError, Seat
from gamehall.rules.aah import AahTable
from gamehall.rules.aah.actions import Judge, Pick
from gamehall.rules.aah.cards import WhiteCard
from gamehall.rules.aah.errors import MAX_CARD_ID

NICK_PATTERN: Final = re.compile(r"[A-Za-z0-9_|]{1,20}")
"""A legal nick (3.6): 1-20 ASCII letters, digits, ``_`` or ``|``."""

CARD_ID_PATTERN: Final = re.compile(r"[0-9]{1,10}")

_SHOWN_ID_MAX: Final = 40
"""Characters of a bad card id echoed in "Invalid card identifier sent (X)." (the frame cap)."""


class Replies(Protocol):
    """How a command answers its connection (the dialogue implements it)."""

    def send(self, message: Frame) -> None:
        """Send a frame that is neither an error nor an acceptance."""
        ...

    def reject(self, reason: str, extra: Sequence[Frame] = ()) -> None:
        """``UNRG<reason>`` then ``extra`` (a restored card); one protocol error."""
        ...

    def accepted(self) -> None:
        """The command was carried out: the protocol-error count starts again."""
        ...

    def still_seated(self) -> bool:
        """Whether the connection may still act (a rejection may have ended it)."""
        ...


def parse_card_id(raw: str) -> int | None:
    """A card id as a client sends it: ``[0-9]{1,10}`` and at most 2^31-1 (2.4), else ``None``.
    Ids compare by value, so ``"007"`` is card 7."""
    if not CARD_ID_PATTERN.fullmatch(raw):
        return None
    value = int(raw)
    return value if value <= MAX_CARD_ID else None


def invalid_card_id(raw: str) -> str:
    """ "Invalid card identifier sent (X)." with the client's text, cut short if huge."""
    shown = raw if len(raw) <= _SHOWN_ID_MAX else raw[:_SHOWN_ID_MAX] + "..."
    return f"Invalid card identifier sent ({shown})."


def pick(session: Session, room_id: str, args: tuple[str, ...], replies: Replies) -> None:
    """``PICK`` (5.7): each id on its own, left to right, so a frame may be partly accepted.
    A refused card that the 0.2.0 client already took off its display comes back by ``WHTE``
    (the rule error's ``restore``)."""
    if not args:
        replies.reject(texts.PICK_NO_ARGUMENTS)
        return
    for raw in args:
        if not replies.still_seated():
            return
        card_id = parse_card_id(raw)
        if card_id is None:
            replies.reject(invalid_card_id(raw))
            continue
        try:
            session.act(room_id, Pick((card_id,)))
        except RuleError as exc:
            restore = exc.detail.get("restore")
            replies.reject(exc.reason, [white_frame(restore)] if isinstance(restore, WhiteCard) else [])
            continue
        replies.accepted()


def judge(session: Session, room_id: str, seat: Seat, args: tuple[str, ...], replies: Replies) -> None:
    """``CZPK`` (5.8): "not the czar" and "not now" come before the arguments are looked at
    (the table's ``check_may_judge``); only the first argument counts."""
    try:
        table = session.room(room_id).game
        assert isinstance(table, AahTable)  # an AAH connection only ever sits at AAH tables
        table.check_may_judge(seat)
    except RuleError as exc:
        replies.reject(exc.reason)
        return
    if not args:
        replies.reject(texts.CZPK_NO_ARGUMENTS)
        return
    card_id = parse_card_id(args[0])
    if card_id is None:
        replies.reject(invalid_card_id(args[0]))
        return
    try:
        session.act(room_id, Judge(card_id))
    except RuleError as exc:
        replies.reject(exc.reason)
        return
    replies.accepted()


def chat(session: Session, room_id: str, args: tuple[str, ...], replies: Replies) -> None:
    """``SMSG`` (7.1). The room relays the line to every seat (sender included) as a
    ``ChatSaid``, which becomes ``RMSG`` with its control characters replaced."""
    if len(args) != 1 or not args[0]:
        replies.reject(texts.MALFORMED_DATA)
        return
    if session.room(room_id).config.get("chat_enabled") is False:
        replies.send(frame("BDCS", texts.CHAT_DISABLED))
        return
    if len(args[0]) > texts.CHAT_LIMIT:
        replies.reject(texts.CHAT_TOO_LONG)
        return
    try:
        session.chat(room_id, args[0])
    except HallError as exc:
        if exc.code == "rate_limited":
            replies.send(frame("UNRG", texts.CHAT_RATE_LIMITED))  # not a protocol error (7.1)
        elif exc.code == "chat_disabled":
            replies.send(frame("BDCS", texts.CHAT_DISABLED))
        else:
            replies.reject(texts.MALFORMED_DATA)
        return
    replies.accepted()


def rename(session: Session, room_id: str, args: tuple[str, ...], replies: Replies) -> None:
    """``NICK`` (7.2), in the lobby only: ``NACC`` to the renamer; the others get ``CLEX`` of
    the old and ``CLJN`` of the new nick from the room's ``SeatRenamed``."""
    if session.room(room_id).info().started:
        replies.send(frame("NDNY", texts.NDNY_IN_GAME))
        return
    new = args[0] if args else ""
    if not NICK_PATTERN.fullmatch(new):
        replies.send(frame("NDNY", texts.NDNY_INVALID))
        return
    try:
        session.rename(room_id, new)
    except HallError as exc:
        replies.send(frame("NDNY", texts.NDNY_IN_USE if exc.code == "name_in_use" else texts.NDNY_INVALID))
        return
    except RuleError as exc:  # the table's own texts are the NDNY reasons
        replies.send(frame("NDNY", exc.reason))
        return
    replies.send(frame("NACC"))
    replies.accepted()

"""Announcements (Ansagen): re/kontra and the denials, with their deadlines (note §6.4).

Let T be the tricks per round, w the clarification trick (1 unless a wedding) and c the cards
still in the announcer's hand:

==========================  =====================================================================
``re`` / ``kontra``          c >= T - w; as a reply to the other party's re/kontra c >= T - w - r,
                             r = 1 + the other party's denials so far
``no90``..``black``          c >= T-1-w, T-2-w, T-3-w, T-4-w; needs the party's re/kontra and every
                             earlier denial
==========================  =====================================================================

Announcements belong to a *party*: a partner's ``re`` lets the other Re player deny. In the
null solos only re and kontra may be announced.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

DENIALS = ("no90", "no60", "no30", "black")
"""The denials in the order they must be made."""

PARTY_CALL = {"re": "re", "kontra": "kontra"}

TOO_LATE = "re_too_late"
NO_PARTY = "re_no_party"


@dataclass(frozen=True, slots=True)
class AnnouncementContext:
    """Everything the legality of one announcement depends on.

    ``party`` is the announcer's party (``None`` while parties are unknown), ``own`` and
    ``other`` the legal announcements each party has made so far.
    """

    party: str | None
    own: Sequence[str]
    other: Sequence[str]
    cards_in_hand: int
    tricks_total: int
    clarification_trick: int
    null_game: bool

    def other_replied_to(self) -> bool:
        """Whether the other party has made its re/kontra (so ours would be a reply)."""
        return any(kind in PARTY_CALL for kind in self.other)


def refusal(kind: str, ctx: AnnouncementContext) -> str | None:
    """Why ``kind`` may not be announced now (a cg message code), or ``None`` if it may."""
    if ctx.party is None or kind in ctx.own:
        return NO_PARTY
    total, w, c = ctx.tricks_total, ctx.clarification_trick, ctx.cards_in_hand
    if kind in PARTY_CALL:
        if kind != ctx.party:
            return NO_PARTY
        if c >= total - w:
            return None
        if ctx.other_replied_to():
            r = 1 + sum(1 for k in ctx.other if k in DENIALS)
            if c >= total - w - r:
                return None
        return TOO_LATE
    if kind not in DENIALS or ctx.null_game:
        return NO_PARTY
    step = DENIALS.index(kind)
    if ctx.party not in ctx.own or any(d not in ctx.own for d in DENIALS[:step]):
        return NO_PARTY
    if c >= total - 1 - step - w:
        return None
    return TOO_LATE


def next_label(ctx: AnnouncementContext) -> str:
    """The cg ``rebtn_lbl``: the next announcement the player may make now, else ``none``."""
    if ctx.party is None:
        return "none"
    for kind in (ctx.party, *DENIALS):
        if kind not in ctx.own:
            return kind if refusal(kind, ctx) is None else "none"
    return "none"

"""The cg (L2) states of one connection, and every way between them, as data (note §3, §4).

::

    VERSIONCHECK --version_agreed--> AUTH --logged_in--> ACTIVE
    ACTIVE --entered_lobby--> LOBBY --game_started--> GAME_DK
    LOBBY  --left_lobby-----> ACTIVE     GAME_DK --game_ended--> LOBBY

The states are never sent on the wire; they decide which serverbound packets a connection may
send (:data:`ACCEPTED_IN`) and how other connections see it (an invitation to a user in a game
is refused). Only :meth:`~.dialogue.CgDialogue.move` changes a connection's state, and only
along :data:`TRANSITIONS`: a move the table does not allow is a bug in this package, logged and
ignored (the connection keeps its state) rather than raised into the hall that delivered the
event. This module imports only the packet registry, so every other module may import it.
"""

from __future__ import annotations

import enum
from typing import Final

from gamehall.protocols.cg.registry import CHAT


class CgState(enum.StrEnum):
    """A connection's cg state (its value is the note's name, as in logs and tests)."""

    VERSIONCHECK = "versioncheck"
    AUTH = "auth"
    ACTIVE = "active"
    LOBBY = "lobby"
    GAME_DK = "game_dk"


class Transition(enum.Enum):
    """Why a connection's state changes."""

    VERSION_AGREED = "version_agreed"  # cg:version.check was compatible
    LOGGED_IN = "logged_in"  # cg:auth succeeded
    ENTERED_LOBBY = "entered_lobby"  # created, joined by invitation, a browser table, a rejoin
    LEFT_LOBBY = "left_lobby"  # left, kicked, or the lobby is gone after a game
    GAME_STARTED = "game_started"  # the table started, or a returning seat was resynced
    GAME_ENDED = "game_ended"  # the table is over: back in the lobby


TRANSITIONS: Final[dict[Transition, tuple[frozenset[CgState], CgState]]] = {
    Transition.VERSION_AGREED: (frozenset({CgState.VERSIONCHECK}), CgState.AUTH),
    Transition.LOGGED_IN: (frozenset({CgState.AUTH}), CgState.ACTIVE),
    Transition.ENTERED_LOBBY: (frozenset({CgState.ACTIVE}), CgState.LOBBY),
    Transition.LEFT_LOBBY: (frozenset({CgState.LOBBY}), CgState.ACTIVE),
    Transition.GAME_STARTED: (frozenset({CgState.LOBBY}), CgState.GAME_DK),
    Transition.GAME_ENDED: (frozenset({CgState.GAME_DK}), CgState.LOBBY),
}
"""Each transition: the states it may leave, and the state it enters."""


def after(state: CgState, transition: Transition) -> CgState | None:
    """The state ``transition`` leads to from ``state``, or ``None`` if the table has no such move."""
    sources, target = TRANSITIONS[transition]
    return target if state in sources else None


_IN_LOBBY_OR_GAME: Final = frozenset({CgState.LOBBY, CgState.GAME_DK})

ACCEPTED_IN: Final[dict[str, frozenset[CgState]]] = {
    "cg:version.check": frozenset({CgState.VERSIONCHECK}),
    "cg:auth.precheck": frozenset({CgState.AUTH}),
    "cg:auth": frozenset({CgState.AUTH}),
    "cg:status.user": frozenset({CgState.AUTH, CgState.ACTIVE, CgState.LOBBY, CgState.GAME_DK}),
    "cg:lobby.create": frozenset({CgState.ACTIVE}),
    "cg:lobby.change": frozenset({CgState.LOBBY}),
    "cg:lobby.ready": frozenset({CgState.LOBBY}),
    "cg:lobby.invite": frozenset({CgState.ACTIVE, CgState.LOBBY}),
    "cg:lobby.invite.accept": frozenset({CgState.ACTIVE}),
    "cg:lobby.kick": frozenset({CgState.LOBBY}),
    "cg:lobby.leave": frozenset({CgState.LOBBY}),
    "cg:game.load": frozenset({CgState.LOBBY}),
    "cg:game.start": frozenset({CgState.GAME_DK}),
    "cg:game.dk.announce": frozenset({CgState.GAME_DK}),
    "cg:game.dk.card.intent": frozenset({CgState.GAME_DK}),
    "cg:game.dk.complaint": frozenset({CgState.GAME_DK}),
    CHAT: _IN_LOBBY_OR_GAME,
}
"""The states in which each serverbound L2 packet is accepted (§4); others are dropped."""

__all__ = ["ACCEPTED_IN", "TRANSITIONS", "CgState", "Transition", "after"]

"""The exact reason texts the legacy dialogue sends itself (``specs/aah.md`` 11.2, 11.3).

Texts tied to a table event (round notices, skip notices, the end-of-game ``DISC``) come with
the engine's events; rule refusals (``PICK``/``CZPK``, rename) carry theirs in the
:class:`~gamehall.rules._core.RuleError`. What is left is written once here.
"""

from __future__ import annotations

from typing import Final

from gamehall.protocols._core import CloseReason

CHAT_LIMIT: Final = 200
"""Code points of one chat line (0.2.0)."""

# REFU (11.2)
MALFORMED_DATA: Final = "Malformed data."
META_TIMEOUT: Final = "Failed to respond with metadata in time."
NICK_INVALID: Final = "Nickname contains invalid characters."
NICK_IN_USE: Final = "Nickname in use."
NO_OPEN_TABLE: Final = "No open table; try again later."
INTERNAL_ERROR: Final = "Internal error."
"""Also a ``REFU`` reason when our own code fails during the handshake. **Decision (ours).**"""

# UNRG (11.2); "Malformed data." and "Internal error." too
NOT_JOINED: Final = "Not joined."
ALREADY_JOINED: Final = "Already joined."
PICK_NO_ARGUMENTS: Final = "PICK received without arguments; invalid."
CZPK_NO_ARGUMENTS: Final = "CZPK sent without arguments; invalid."
CHAT_TOO_LONG: Final = f"Messages have a {CHAT_LIMIT}-character limit."
CHAT_RATE_LIMITED: Final = "Chat rate limit reached."

# BDCS (11.3)
CHAT_DISABLED: Final = "Chat is disabled on this server."

# NDNY (11.2)
NDNY_INVALID: Final = "Nickname invalid; unchanged."
NDNY_IN_USE: Final = "Nickname in use; unchanged."
NDNY_IN_GAME: Final = "Cannot change nickname during a game."

# DISC, server to client (11.2)
DISC_AT_REQUEST: Final = "Disconnected at request."
DISC_GAME_ENDED: Final = "The game has ended."
DISC_STOPPED: Final = "Game ended by server or administrator."
DISC_INACTIVE: Final = "Disconnected due to inactivity."
DISC_KICKED: Final = "Kicked by an administrator."
DISC_PROTOCOL_ERRORS: Final = "Too many protocol errors."

_DISC_FOR_CLOSE: Final = {
    CloseReason.KICKED: DISC_KICKED,
    CloseReason.GAME_OVER: DISC_GAME_ENDED,
    CloseReason.INACTIVE: DISC_INACTIVE,
    CloseReason.PROTOCOL: DISC_PROTOCOL_ERRORS,
}


def disc_for(reason: CloseReason) -> str:
    """The ``DISC`` text when the hall ends a seat or a connection: its own text for a kick,
    a game over, inactivity and protocol errors; "Game ended by server or administrator." for
    the rest (abort, operator stop, shutdown, a replacing login)."""
    return _DISC_FOR_CLOSE.get(reason, DISC_STOPPED)

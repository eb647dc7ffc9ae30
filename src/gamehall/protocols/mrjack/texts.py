"""The ``ok``/``err`` texts of the Mr. Jack protocol, verbatim (seed, and note 4.1 where the
note adds its own; **Decision (ours)** marks texts neither source has).

The seed writes "Du bist nicht dran." with a dot for ``aktiv`` and the round-end ``ziel``, and
without for ``aktion`` and the move ``ziel``; both are kept (note 14).
"""

from __future__ import annotations

from typing import Final

from gamehall.protocols.mrjack.terms import UNKNOWN_COMMAND, unknown_command

ASK_NICK: Final = "Bitte einen Nick eingeben mit nick(Nick)"
INIT_HINT: Final = "Du kannst dich mit init(mrjack) oder init(detektiv) an einem Spiel beteiligen"
NOT_YOUR_TURN_DOT: Final = "Du bist nicht dran."
NOT_YOUR_TURN: Final = "Du bist nicht dran"
ACTION_ACCEPTED: Final = "Aktion wurde akzeptiert"
COORDINATE_ACCEPTED: Final = "Koordinate akzeptiert"
INVALID_MARKING: Final = "Enthält ungültige Koordinaten"
ONLY_DETECTIVE_MARKS: Final = "Nur der Detektiv darf verdächtigen"
NO_OPPONENT: Final = "Kein Mitspieler verbunden"
TEXT_TOO_LONG: Final = "Text zu lang"
GOODBYE: Final = "Auf Wiedersehen"
NO_GAME: Final = "Kein Spiel vorhanden"
INTERNAL_ERROR: Final = "Interner Fehler"
CHAT_RATE_LIMITED: Final = "Zu viele Nachrichten, bitte warten"
"""**Decision (ours)**: the hall's chat rate limit (5 lines in 10 s) has no text in the note."""

SPECTATOR: Final = "zuschauer"
"""The ``init`` argument of the spectator extension (note 4.1)."""

CHAT_LIMIT: Final = 1000
"""Longest chat text, in characters (note 2.3 limits)."""


def nick_ok(nick: str) -> str:
    return f"Du heißt jetzt: {nick}"


def nick_invalid(nick: str) -> str:
    return f"Nick ist ungültig: {nick}"


def nick_taken(nick: str) -> str:
    return f"Nick ist schon vergeben: {nick}"


def you_are(role: str) -> str:
    return f"Du bist {role}"


def role_unknown(role: str) -> str:
    return f"Spieler ist unbekannt: {role}"


def role_taken(role: str) -> str:
    return f"Spieler schon vergeben: {role}"


def already_identified(role: str) -> str:
    return f"Sie sind schon identifiziert als: {role}"


def colour_active(colour: str) -> str:
    return f"Farbe ist aktiv: {colour}"


def colour_unknown(colour: str) -> str:
    return f"Farbe ist unbekannt: {colour}"


def colour_unavailable(colour: str) -> str:
    return f"Farbe ist nicht verfügbar: {colour}"


def action_invalid(action: str) -> str:
    return f"Aktion ist ungültig: {action}"


def coordinate_unknown(label: str) -> str:
    return f"Koordinate ist unbekannt: {label}"


def coordinate_invalid(label: str) -> str:
    return f"Koordinate ist ungültig: {label}"


__all__ = [
    "ACTION_ACCEPTED",
    "ASK_NICK",
    "CHAT_LIMIT",
    "CHAT_RATE_LIMITED",
    "COORDINATE_ACCEPTED",
    "GOODBYE",
    "INIT_HINT",
    "INTERNAL_ERROR",
    "INVALID_MARKING",
    "NOT_YOUR_TURN",
    "NOT_YOUR_TURN_DOT",
    "NO_GAME",
    "NO_OPPONENT",
    "ONLY_DETECTIVE_MARKS",
    "SPECTATOR",
    "TEXT_TOO_LONG",
    "UNKNOWN_COMMAND",
    "action_invalid",
    "already_identified",
    "colour_active",
    "colour_unavailable",
    "colour_unknown",
    "coordinate_invalid",
    "coordinate_unknown",
    "nick_invalid",
    "nick_ok",
    "nick_taken",
    "role_taken",
    "role_unknown",
    "unknown_command",
    "you_are",
]

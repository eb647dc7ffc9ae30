"""How a Mr. Jack game refuses an input: one :class:`RuleError` per seed error, with a stable
code the term dialogue maps to the seed's wording (note 4.1).

=========================  ==================================================================
code                       seed text
=========================  ==================================================================
``not_your_turn``          ``Du bist nicht dran.`` (aktiv, marking) / ``Du bist nicht dran``
                           (aktion, ziel); ``detail["command"]`` names the command
``unknown_colour``         ``Farbe ist unbekannt: X``
``colour_unavailable``     ``Farbe ist nicht verfügbar: X``
``invalid_action``         ``Aktion ist ungültig: X``
``unknown_coordinate``     ``Koordinate ist unbekannt: X``
``coordinate_not_offered`` ``Koordinate ist ungültig: X`` (then the same ``moeglichkeiten``,
                           in ``detail["moeglichkeiten"]``)
``invalid_marking``        ``Enthält ungültige Koordinaten``
``only_detective_marks``   ``Nur der Detektiv darf verdächtigen``
``unknown_role``           ``Spieler ist unbekannt: X``
``role_taken``             ``Spieler schon vergeben: X``
``wrong_phase``            ``Unbekannter Befehl oder Befehl zur Zeit nicht möglich: ...``
``not_seated``             (no seat at this table)
=========================  ==================================================================
"""

from __future__ import annotations

from gamehall.rules._core import IllegalAction, NotYourTurn, WrongPhase


def not_your_turn(command: str) -> NotYourTurn:
    return NotYourTurn("It is the other player's turn.", command=command)


def not_seated() -> NotYourTurn:
    return NotYourTurn("You have no seat at this table.", code="not_seated")


def wrong_phase(command: str) -> WrongPhase:
    return WrongPhase(f"{command} is not possible now.", command=command)


def unknown_colour(colour: str) -> IllegalAction:
    return IllegalAction(f"Unknown colour {colour!r}.", code="unknown_colour", farbe=colour)


def colour_unavailable(colour: str) -> IllegalAction:
    return IllegalAction(f"{colour} is not available now.", code="colour_unavailable", farbe=colour)


def invalid_action(action: str) -> IllegalAction:
    return IllegalAction(f"Action {action!r} is not possible now.", code="invalid_action", aktion=action)


def unknown_coordinate(label: str) -> IllegalAction:
    return IllegalAction(f"Unknown coordinate {label!r}.", code="unknown_coordinate", koordinate=label)


def coordinate_not_offered(label: str, offered: tuple[str, ...]) -> IllegalAction:
    return IllegalAction(
        f"{label} is not one of the offered targets.",
        code="coordinate_not_offered",
        koordinate=label,
        moeglichkeiten=offered,
    )


def invalid_marking(label: str) -> IllegalAction:
    return IllegalAction(f"No character stands on {label!r}.", code="invalid_marking", koordinate=label)


def only_detective_marks() -> NotYourTurn:
    return NotYourTurn("Only the detective marks suspects.", code="only_detective_marks")


def unknown_role(role: str) -> IllegalAction:
    return IllegalAction(f"Unknown role {role!r}.", code="unknown_role", spieler=role)


def role_taken(role: str) -> IllegalAction:
    return IllegalAction(f"The role {role} is taken.", code="role_taken", spieler=role)

"""What a Mr. Jack connection receives: one term per engine event, and the ``err`` text of
each refusal (note 4.2, 4.1).

The engine emits one event per seed message, already in wire order and with the seed's
audience (:mod:`gamehall.rules.mrjack.events`), so each event becomes its terms on its own.
Membership events (a seat joined, went away, came back) have no term on this wire; the
dialogue writes ``ok(Du bist R)`` itself. Room chat reaches the *opponent* only: a player does
not get their own line back, and spectators get no chat (note 4.1, 5).
"""

from __future__ import annotations

from gamehall.protocols._core import ChatSaid
from gamehall.protocols.mrjack import texts
from gamehall.protocols.mrjack.terms import Atom, Command, Compound, Term, TList
from gamehall.rules._core import Event, RuleError
from gamehall.rules.mrjack.events import (
    AktionAkzeptiert,
    Auswahl,
    BeginnRunde,
    BeginnSpiel,
    BeginnSpielzug,
    EndeRunde,
    EndeSpiel,
    EndeSpielzug,
    FarbeAktiv,
    Jack,
    KoordinateAkzeptiert,
    Moeglichkeiten,
    Sichtbar,
    Spielzugerlaubnis,
    UpdateAbsp,
    UpdateAlibi,
    UpdateArt,
    UpdateFigur,
    UpdateSchiff,
    UpdateSpion,
    UpdateVerdacht,
)


def term(functor: str, *args: str | Term) -> Command:
    """``functor(args)`` with plain strings as atoms; ``functor`` alone without arguments."""
    if not args:
        return Atom(functor)
    return Compound(functor, tuple(Atom(a) if isinstance(a, str) else a for a in args))


def ok(text: str) -> Command:
    return term("ok", text)


def err(text: str) -> Command:
    return term("err", text)


def yes_no(value: bool) -> str:
    return "ja" if value else "nein"


def atoms(values: tuple[str, ...] | list[str]) -> TList:
    return TList(tuple(Atom(v) for v in values))


def render_key(event: Event, my_name: str | None, spectator: bool) -> tuple[bool, ...]:
    """What :func:`event_terms` reads of the connection: for room chat only, whether it
    watches and whether it wrote the line; every other event's term is the same for all.
    Connections with equal keys (and wire styles) get equal lines, so they share one rendering
    (:meth:`~gamehall.protocols._core.Delivery.rendered`). Keep in step with
    :func:`event_terms`."""
    if isinstance(event, ChatSaid):
        return (spectator, event.sender == my_name)
    return ()


def event_terms(event: Event, my_name: str | None, spectator: bool) -> list[Command]:
    """The lines one connection gets for one room event (the hall checked the audience)."""
    if isinstance(event, ChatSaid):
        if spectator or event.scope != "room" or event.sender == my_name:
            return []
        return [term("chat", event.text)]
    command = _game_term(event)
    return [] if command is None else [command]


def _game_term(event: Event) -> Command | None:
    if isinstance(event, BeginnSpiel):
        return term("beginn", "spiel", event.spieler)
    if isinstance(event, Jack):
        return term("jack", event.farbe)
    if isinstance(event, BeginnRunde):
        return term("beginn", "runde")
    if isinstance(event, BeginnSpielzug):
        return term("beginn", "spielzug")
    if isinstance(event, Auswahl):
        return term("auswahl", TList(tuple(TList((Atom(c), Atom(yes_no(free)))) for c, free in event.karten)))
    if isinstance(event, Spielzugerlaubnis):
        return term("spielzugerlaubnis", yes_no(event.erlaubt))
    if isinstance(event, FarbeAktiv):
        return ok(texts.colour_active(event.farbe))
    if isinstance(event, AktionAkzeptiert):
        return ok(texts.ACTION_ACCEPTED)
    if isinstance(event, KoordinateAkzeptiert):
        return ok(texts.COORDINATE_ACCEPTED)
    if isinstance(event, Moeglichkeiten):
        return term("moeglichkeiten", atoms(event.koordinaten))
    if isinstance(event, UpdateAlibi):
        return term("update_Alibi", event.farbe)
    if isinstance(event, UpdateSpion):
        return term("update_Spion", event.koordinate)
    if isinstance(event, UpdateFigur):
        return term("update_Figur", event.koordinate, event.farbe)
    if isinstance(event, UpdateArt):
        return term("update_Art", event.koordinate, event.art)
    if isinstance(event, UpdateSchiff):
        return term("update_Schiff", event.von, event.nach)
    if isinstance(event, UpdateAbsp):
        return term("update_Absp", event.alt1, event.alt2, event.neu1, event.neu2)
    if isinstance(event, EndeSpielzug):
        return term("ende", "spielzug")
    if isinstance(event, Sichtbar):
        return term("sichtbar", yes_no(event.sichtbar))
    if isinstance(event, UpdateVerdacht):
        return term("update_Verdacht", event.farbe)
    if isinstance(event, EndeRunde):
        return term("ende", "runde")
    if isinstance(event, EndeSpiel):
        return term("ende", "spiel", event.sieger, event.farbe)
    return None  # RolleGewaehlt, Seat*, SpectatorsChanged, RoomClosed: nothing on this wire


def refusal(exc: RuleError, line: str) -> list[Command]:
    """The ``err`` (and, for a target not offered, the same ``moeglichkeiten`` again) for an
    engine refusal of the command on ``line`` (:mod:`gamehall.rules.mrjack.errors`)."""
    detail = exc.detail
    code = exc.code
    if code == "not_your_turn":
        command = detail.get("command")
        return [err(texts.NOT_YOUR_TURN_DOT if command in ("aktiv", "fertig") else texts.NOT_YOUR_TURN)]
    if code == "unknown_colour":
        return [err(texts.colour_unknown(str(detail.get("farbe"))))]
    if code == "colour_unavailable":
        return [err(texts.colour_unavailable(str(detail.get("farbe"))))]
    if code == "invalid_action":
        return [err(texts.action_invalid(str(detail.get("aktion"))))]
    if code == "unknown_coordinate":
        return [err(texts.coordinate_unknown(str(detail.get("koordinate"))))]
    if code == "coordinate_not_offered":
        offered = detail.get("moeglichkeiten")
        again = [term("moeglichkeiten", atoms(tuple(offered)))] if offered else []
        return [err(texts.coordinate_invalid(str(detail.get("koordinate")))), *again]
    if code == "invalid_marking":
        return [err(texts.INVALID_MARKING)]
    if code == "only_detective_marks":
        return [err(texts.ONLY_DETECTIVE_MARKS)]
    if code == "unknown_role":
        return [err(texts.role_unknown(str(detail.get("spieler"))))]
    if code == "role_taken":
        return [err(texts.role_taken(str(detail.get("spieler"))))]
    return [err(texts.unknown_command(line))]  # wrong_phase, not_seated, anything else


__all__ = ["atoms", "err", "event_terms", "ok", "refusal", "term", "yes_no"]

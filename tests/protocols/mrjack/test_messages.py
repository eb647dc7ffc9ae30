"""Every engine event has its seed term (only the lobby's ``RolleGewaehlt`` has none: the
dialogue answers ``ok(Du bist R)`` itself), and chat reaches the opponent only."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import pytest

from gamehall.protocols._core import ChatSaid
from gamehall.protocols.mrjack.messages import event_terms
from gamehall.protocols.mrjack.terms import print_line
from gamehall.rules._core import Event
from gamehall.rules.mrjack import events

EVENT_TYPES = [
    cls
    for _, cls in inspect.getmembers(events, inspect.isclass)
    if issubclass(cls, Event) and cls.__module__ == events.__name__
]

SAMPLE: dict[str, Any] = {
    "seat": 0, "spieler": "mrjack", "farbe": "lila", "runde": 1, "spielzug": 1, "karten": (("gelb", True),),
    "erlaubt": True, "aktion": "bewegen", "koordinate": "f5", "koordinaten": ("a1", "c4"), "art": "park",
    "von": "f2", "nach": "c7", "alt1": "f3", "alt2": "g2", "neu1": "h6", "neu2": "h7", "sichtbar": False,
    "verdaechtig": False, "sieger": "detektiv", "grund": "accusation",
}  # fmt: skip


def sample(cls: type[Event]) -> Event:
    fields = {f.name: SAMPLE[f.name] for f in dataclasses.fields(cls) if f.name != "audience"}
    return cls(**fields)


@pytest.mark.parametrize("cls", EVENT_TYPES, ids=[c.__name__ for c in EVENT_TYPES])
def test_every_game_event_has_exactly_one_line(cls: type[Event]) -> None:
    lines = [print_line(t) for t in event_terms(sample(cls), "me", spectator=False)]
    assert len(lines) == (0 if cls is events.RolleGewaehlt else 1), lines


def test_the_table_of_lines() -> None:
    written = {
        cls.__name__: [print_line(t) for t in event_terms(sample(cls), "me", False)] for cls in EVENT_TYPES
    }
    assert written["Auswahl"] == ["auswahl([[gelb,ja]])."]
    assert written["Sichtbar"] == ["sichtbar(nein)."]
    assert written["Spielzugerlaubnis"] == ["spielzugerlaubnis(ja)."]
    assert written["EndeSpiel"] == ["ende(spiel,detektiv,lila)."]
    assert written["UpdateVerdacht"] == ["update_Verdacht(lila)."]
    assert written["FarbeAktiv"] == ["ok('Farbe ist aktiv: lila')."]


def test_chat_goes_to_the_opponent_only() -> None:
    said = ChatSaid(sender="jack", text="Hallo")
    assert [print_line(t) for t in event_terms(said, "det", spectator=False)] == ["chat('Hallo')."]
    assert event_terms(said, "jack", spectator=False) == []
    assert event_terms(said, "watcher", spectator=True) == []
    assert event_terms(ChatSaid(sender="x", text="y", scope="broadcast"), "det", spectator=False) == []

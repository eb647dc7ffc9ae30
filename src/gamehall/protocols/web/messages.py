"""Server -> client message bodies of the web protocol: rooms, games and events as JSON.

Everything here is game-agnostic: an event of any game becomes ``{"type": ClassName, ...fields}``
by walking its dataclass fields, so a new game needs no code in this protocol to reach the browser.
The ``audience`` of an event is never written: it is routing data, not something a client may learn.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import Any

from gamehall.protocols._core import RoomInfo
from gamehall.rules._core import JSON, GameType

HIDDEN_FIELDS = frozenset({"audience"})
"""Event fields that never leave the server."""


def event_json(event: Any) -> dict[str, JSON]:
    """An event (any frozen dataclass) as ``{"type": ClassName, ...fields}``, minus its audience."""
    out: dict[str, JSON] = {"type": type(event).__name__}
    if dataclasses.is_dataclass(event) and not isinstance(event, type):
        for f in dataclasses.fields(event):
            if f.name not in HIDDEN_FIELDS:
                out[f.name] = to_json(getattr(event, f.name))
    return out


def to_json(value: Any) -> JSON:
    """Any value an event field holds, as plain JSON: nested dataclasses become objects,
    enums their value, tuples and sets lists (sets sorted when they can be), mapping keys strings."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, enum.Enum):
        return to_json(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: to_json(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if f.name not in HIDDEN_FIELDS
        }
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        items = [to_json(v) for v in value]
        try:
            return sorted(items)
        except TypeError:
            return items
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return str(value)


def room_status(info: RoomInfo) -> str:
    """``"finished"``, ``"playing"`` or ``"waiting"`` (for players), as the lobby shows it."""
    if info.finished:
        return "finished"
    return "playing" if info.started else "waiting"


def room_json(info: RoomInfo) -> dict[str, JSON]:
    """A room as the lobby lists it."""
    return {
        "id": info.room_id,
        "game": info.game,
        "title": info.title,
        "status": room_status(info),
        "seats": [
            {"seat": seat, "name": name, "away": seat in info.away}
            for seat, name in sorted(info.seats.items())
        ],
        "max_seats": info.max_seats,
        "spectators": list(info.spectators),
        "password": info.has_password,
        "operator": info.operator,
        "config": to_json(info.config),
        "extra": to_json(info.extra),
    }


def game_json(game_type: GameType, defaults: Mapping[str, JSON]) -> dict[str, JSON]:
    """A game as ``welcome`` announces it: id, title and the settings form (with this hall's
    defaults in place of the schema's own)."""
    settings = game_type.schema.describe()
    for setting in settings:
        name = setting["name"]
        if name in defaults:
            setting["default"] = to_json(defaults[name])
    return {
        "id": game_type.game_id,
        "title": game_type.title,
        "settings": settings,
        "actions": list(game_type.actions.names),
    }

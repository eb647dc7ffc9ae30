"""The entrants file (TOML): who plays, how each entrant is started, and the contest's settings.

::

    [contest]                       # optional; every key has a per game default
    title = "Spring cup"
    seats = 3                       # table size, where the game allows a choice
    [contest.deadlines]             # per move; see gamehall.contest.ports.Deadlines
    soft_s = 2.0
    hard_s = 10.0
    [contest.config]                # room settings of every contest game
    time_per_turn = 60
    [contest.limits]                # for started entrants
    cpu_s = 120                     # CPU seconds per game (RLIMIT_CPU)
    memory_mb = 1024                # address space (RLIMIT_AS)

    [[entrant]]
    name = "alice"
    grade = 3                       # optional: the expected strength (higher is stronger)
    command = ["python3", "alice.py", "{host}", "{port}", "{name}"]

    [[entrant]]
    name = "bob"                    # no command: bob connects on its own

A name is the entrant's login name, so it must be one every protocol accepts: a letter, then
letters, digits or ``_``, at most :data:`MAX_NAME` characters (room is left for a game number
when a started entrant plays several games at once).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from gamehall.contest.ports import Deadlines
from gamehall.rules._core import JSON

MAX_NAME = 10
NAME_PATTERN = re.compile(rf"[A-Za-z][A-Za-z0-9_]{{0,{MAX_NAME - 1}}}")


class EntrantsError(ValueError):
    """The entrants file cannot be used; the message names the file and the place."""


@dataclass(frozen=True, slots=True)
class Limits:
    """What one started entrant process may use per game."""

    cpu_s: int = 120
    memory_mb: int = 1024


@dataclass(frozen=True, slots=True)
class Entrant:
    """One contestant. ``command`` is ``None`` for an entrant that connects on its own."""

    name: str
    grade: int | None = None
    command: tuple[str, ...] | None = None

    @property
    def started(self) -> bool:
        return self.command is not None


@dataclass(frozen=True, slots=True)
class EntrantsFile:
    """Everything the entrants file says. ``deadlines`` and ``seats`` are ``None`` where the
    file leaves them to the game's profile."""

    entrants: tuple[Entrant, ...]
    title: str | None = None
    seats: int | None = None
    deadlines: Mapping[str, float | int] = field(default_factory=dict)
    config: Mapping[str, JSON] = field(default_factory=dict)
    limits: Limits = field(default_factory=Limits)

    def deadlines_over(self, default: Deadlines) -> Deadlines:
        """The game's default deadlines with this file's overrides."""
        return replace(default, **self.deadlines)  # type: ignore[arg-type]


_DEADLINE_KEYS = {
    "soft_s": float,
    "hard_s": float,
    "connect_s": float,
    "soft_strikes": int,
    "max_errors": int,
}


def load_entrants(path: str | Path) -> EntrantsFile:
    """Read and check an entrants file.

    Raises:
        EntrantsError: unreadable, not TOML, or a value that cannot be used.
    """
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as exc:
        raise EntrantsError(f"{path}: cannot read: {exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise EntrantsError(f"{path}: not TOML: {exc}") from exc
    try:
        return parse_entrants(data)
    except EntrantsError as exc:
        raise EntrantsError(f"{path}: {exc}") from exc


def parse_entrants(data: Mapping[str, Any]) -> EntrantsFile:
    """Check the parsed TOML of an entrants file (see the module docstring).

    Raises:
        EntrantsError: a value that cannot be used, or an unknown key.
    """
    _only(data, {"contest", "entrant"}, "top level")
    contest = data.get("contest", {})
    if not isinstance(contest, dict):
        raise EntrantsError("[contest] must be a table")
    _only(contest, {"title", "seats", "deadlines", "config", "limits"}, "[contest]")
    raw = data.get("entrant", [])
    if not isinstance(raw, list) or not raw:
        raise EntrantsError("no [[entrant]] tables")
    entrants = tuple(_entrant(item, index) for index, item in enumerate(raw, 1))
    names = [e.name.lower() for e in entrants]
    doubled = sorted({n for n in names if names.count(n) > 1})
    if doubled:
        raise EntrantsError(f"entrant names must differ (ignoring case): {', '.join(doubled)}")
    title = contest.get("title")
    if title is not None and not isinstance(title, str):
        raise EntrantsError("[contest] title must be text")
    seats = contest.get("seats")
    if seats is not None and (not isinstance(seats, int) or isinstance(seats, bool) or seats < 1):
        raise EntrantsError("[contest] seats must be a positive whole number")
    config = contest.get("config", {})
    if not isinstance(config, dict):
        raise EntrantsError("[contest.config] must be a table")
    return EntrantsFile(
        entrants=entrants,
        title=title,
        seats=seats,
        deadlines=_deadlines(contest.get("deadlines", {})),
        config=config,
        limits=_limits(contest.get("limits", {})),
    )


def _entrant(item: Any, index: int) -> Entrant:
    where = f"entrant {index}"
    if not isinstance(item, dict):
        raise EntrantsError(f"{where} must be a table")
    _only(item, {"name", "grade", "command"}, where)
    name = item.get("name")
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise EntrantsError(
            f"{where}: name {name!r} must be a letter, then letters, digits or _ (at most {MAX_NAME})"
        )
    grade = item.get("grade")
    if grade is not None and (not isinstance(grade, int) or isinstance(grade, bool)):
        raise EntrantsError(f"{where} ({name}): grade must be a whole number")
    command = item.get("command")
    if command is not None:
        if not isinstance(command, list) or not command or not all(isinstance(a, str) for a in command):
            raise EntrantsError(f"{where} ({name}): command must be a non-empty list of strings")
        command = tuple(command)
    return Entrant(name=name, grade=grade, command=command)


def _deadlines(raw: Any) -> dict[str, float | int]:
    if not isinstance(raw, dict):
        raise EntrantsError("[contest.deadlines] must be a table")
    _only(raw, set(_DEADLINE_KEYS), "[contest.deadlines]")
    out: dict[str, float | int] = {}
    for key, value in raw.items():
        kind = _DEADLINE_KEYS[key]
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise EntrantsError(f"[contest.deadlines] {key} must be a positive number")
        if kind is int and not isinstance(value, int):
            raise EntrantsError(f"[contest.deadlines] {key} must be a whole number")
        out[key] = kind(value)
    if out.get("soft_s", 0) > out.get("hard_s", float("inf")):
        raise EntrantsError("[contest.deadlines] soft_s must not be above hard_s")
    return out


def _limits(raw: Any) -> Limits:
    if not isinstance(raw, dict):
        raise EntrantsError("[contest.limits] must be a table")
    _only(raw, {"cpu_s", "memory_mb"}, "[contest.limits]")
    for key, value in raw.items():
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise EntrantsError(f"[contest.limits] {key} must be a positive whole number")
    return Limits(**raw)


def _only(table: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise EntrantsError(
            f"{where}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(allowed))})"
        )


def substitute(command: Sequence[str], values: Mapping[str, str]) -> list[str]:
    """``command`` with ``{KEY}`` replaced by ``values[KEY]`` (the runner's keys: host, port,
    name, game, seat, table, password); plain text replacement, any other brace stays."""
    out = []
    for arg in command:
        for key, value in values.items():
            arg = arg.replace("{" + key + "}", value)
        out.append(arg)
    return out

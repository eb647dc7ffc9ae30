"""Room settings as data: each game declares its settings once, with defaults and ranges.

The same schema validates a room created from the browser, the ``--set GAME.KEY=VALUE`` flags,
the TOML config file and ``GAMEHALL_*`` environment variables, so a setting is checked in one
place whatever its source.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from gamehall.rules._core import JSON, ConfigError

STR_MAX = 256
"""The longest text setting (and list item) unless the setting says otherwise."""
LIST_MAX = 256
"""The most items of a list setting unless the setting says otherwise."""


@dataclass(frozen=True, slots=True)
class Setting:
    """One room setting.

    ``kind`` is one of ``"int"``, ``"float"``, ``"bool"``, ``"str"``, ``"choice"`` or
    ``"list"`` (a list of strings). ``low``/``high`` bound numbers (inclusive); ``choices``
    bounds ``"choice"`` settings. For ``"str"`` ``high`` is the longest text (default
    :data:`STR_MAX`), for ``"list"`` the most items (default :data:`LIST_MAX`, each item at most
    :data:`STR_MAX` characters): a client's value never has an unbounded size (issue 10 item 5,
    docs/settings-audit.md).
    """

    name: str
    default: JSON
    kind: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    help: str = ""
    internal: bool = False
    """Set by the server itself (a loaded game's carried-over state) or by the operator (server
    options kept with the room defaults: ``max_tables``, ``max_games``, ``wire_style``,
    ``urserver_charset``), never by a player: the browser's form leaves it out and the web
    protocol refuses it."""
    server: bool = False
    """A host's setting (ports' protocol details, wire pacing, table caps, wire styles,
    charsets, file names): settable in the server configuration (``--set``, the TOML file,
    ``GAMEHALL_SET``) and as a room default, but never by a player; the browser's form leaves
    it out and the web protocol refuses it."""
    label: str = ""
    """Plain words for the browser's form ("Seats at the table"); empty: derived from the name."""
    group: str = ""
    """The form's section this setting is shown in ("Table", "Timing", "Special cards"...)."""
    choice_labels: tuple[tuple[str, str], ...] = ()
    """Plain words for some ``choices`` (value, label): ``("DupEN", "Duplicate (English)")``."""

    def parse_text(self, text: str) -> JSON:
        """Read a value given as text (command line, environment)."""
        try:
            if self.kind == "int":
                return int(text)
            if self.kind == "float":
                return float(text)
            if self.kind == "bool":
                lowered = text.strip().lower()
                if lowered in ("1", "true", "yes", "on"):
                    return True
                if lowered in ("0", "false", "no", "off"):
                    return False
                raise ValueError(text)
            if self.kind == "list":
                return [part.strip() for part in text.split(",") if part.strip()]
        except ValueError:
            raise ConfigError(f"{self.name}: {text!r} is not a valid {self.kind}") from None
        return text

    def check(self, value: JSON) -> JSON:
        """Return ``value`` if valid for this setting (ints are accepted for floats).

        Raises:
            ConfigError: wrong type or out of range.
        """
        kind = self.kind
        if kind == "bool":
            if not isinstance(value, bool):
                raise ConfigError(f"{self.name} must be true or false")
            return value
        if kind in ("int", "float"):
            ok_types: tuple[type, ...] = (int,) if kind == "int" else (int, float)
            if isinstance(value, bool) or not isinstance(value, ok_types):
                raise ConfigError(f"{self.name} must be a{'n integer' if kind == 'int' else ' number'}")
            assert isinstance(value, (int, float))
            if self.low is not None and value < self.low:
                raise ConfigError(f"{self.name} must be at least {_num(self.low)} (got {value})")
            if self.high is not None and value > self.high:
                raise ConfigError(f"{self.name} must be at most {_num(self.high)} (got {value})")
            return float(value) if kind == "float" else value
        if kind == "choice":
            if value not in self.choices:
                raise ConfigError(f"{self.name} must be one of {', '.join(self.choices)} (got {value!r})")
            return value
        if kind == "list":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ConfigError(f"{self.name} must be a list of strings")
            most = int(self.high) if self.high is not None else LIST_MAX
            if len(value) > most or any(len(v) > STR_MAX for v in value):
                raise ConfigError(f"{self.name} has at most {most} items of at most {STR_MAX} characters")
            return list(value)
        if not isinstance(value, str):
            raise ConfigError(f"{self.name} must be a string")
        longest = int(self.high) if self.high is not None else STR_MAX
        if len(value) > longest:
            raise ConfigError(f"{self.name} has at most {longest} characters")
        return value


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


class ConfigSchema:
    """A game's settings. ``validate`` fills defaults and refuses unknown keys."""

    def __init__(self, game_id: str, settings: Iterable[Setting]) -> None:
        self.game_id = game_id
        self.settings: dict[str, Setting] = {s.name: s for s in settings}
        self._form_order: list[str] = list(self.settings)

    def defaults(self) -> dict[str, JSON]:
        return {name: _copy(s.default) for name, s in self.settings.items()}

    def validate(self, given: Mapping[str, Any], base: Mapping[str, JSON] | None = None) -> dict[str, JSON]:
        """Defaults (or ``base``), overridden by ``given``, every value checked.

        Raises:
            ConfigError: a key is unknown or a value is invalid.
        """
        result = dict(base) if base is not None else self.defaults()
        for key, value in given.items():
            setting = self.settings.get(key)
            if setting is None:
                raise ConfigError(f"unknown setting {self.game_id}.{key}")
            result[key] = setting.check(value)
        return result

    def internal_keys(self) -> frozenset[str]:
        """Settings only the server may set (see :attr:`Setting.internal`)."""
        return frozenset(name for name, s in self.settings.items() if s.internal)

    def server_keys(self) -> frozenset[str]:
        """Settings no player may choose: the server's own (:attr:`Setting.internal`) and the
        host's (:attr:`Setting.server`). The web protocol refuses them in ``create``."""
        return frozenset(name for name, s in self.settings.items() if s.internal or s.server)

    def present(
        self,
        form: Mapping[str, tuple[str, str] | tuple[str, str, str]],
        *,
        server: Iterable[str] = (),
        choice_labels: Mapping[str, Mapping[str, str]] | None = None,
    ) -> ConfigSchema:
        """Give the settings their place in the browser's form, in place; returns ``self``.

        ``form`` maps a setting to ``(group, label)`` or ``(group, label, help)``, in the order
        the form shows them (groups in order of first appearance); ``server`` names the host's
        settings (:attr:`Setting.server`); ``choice_labels`` names some choices in plain words
        (:attr:`Setting.choice_labels`). Validation is unchanged: this only decides what a
        player is shown and may send.

        Raises:
            KeyError: a name that is not a setting of this schema (a typo must not hide a field).
        """
        for name, entry in form.items():
            setting = self.settings[name]
            group, label = entry[0], entry[1]
            help_text = entry[2] if len(entry) > 2 else setting.help
            self.settings[name] = replace(setting, group=group, label=label, help=help_text)
        for name in server:
            self.settings[name] = replace(self.settings[name], server=True)
        for name, labels in (choice_labels or {}).items():
            setting = self.settings[name]
            unknown = set(labels) - set(setting.choices)
            if unknown:
                raise KeyError(f"{self.game_id}.{name}: no choice(s) {sorted(unknown)}")
            self.settings[name] = replace(setting, choice_labels=tuple(labels.items()))
        self._form_order = [name for name in form if name in self.settings] + [
            name for name in self.settings if name not in form
        ]
        return self

    def parse_text(self, key: str, text: str) -> JSON:
        setting = self.settings.get(key)
        if setting is None:
            raise ConfigError(f"unknown setting {self.game_id}.{key}")
        return setting.check(setting.parse_text(text))

    def describe(self) -> list[dict[str, JSON]]:
        """The settings a player chooses, as JSON, in the form's order, for the browser's
        "create room" form (the host's and the server's own settings are left out)."""
        described: list[dict[str, JSON]] = []
        for name in self._form_order:
            s = self.settings[name]
            if s.internal or s.server:
                continue
            described.append(
                {
                    "name": s.name,
                    "label": s.label or s.name.replace("_", " ").capitalize(),
                    "group": s.group or "More",
                    "default": s.default,
                    "kind": s.kind,
                    "low": s.low,
                    "high": s.high,
                    "choices": list(s.choices),
                    "choice_labels": dict(s.choice_labels),
                    "help": s.help,
                }
            )
        return described


def _copy(value: JSON) -> JSON:
    return list(value) if isinstance(value, list) else value

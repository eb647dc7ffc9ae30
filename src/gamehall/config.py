"""The server configuration: where it listens, where it stores rooms, its limits, and the
default settings of new rooms per game.

Four sources, each overriding the one before it:

1. built-in defaults (the :class:`ServerConfig` field defaults, :data:`DEFAULT_PORTS`);
2. a TOML file (``--config PATH``, or ``GAMEHALL_CONFIG`` when no flag names one)::

       [server]
       bind = "127.0.0.1"
       db = "/var/lib/gamehall/gamehall.db"
       tournament = false
       log_level = "INFO"
       deck_dirs = ["/srv/decks"]
       words_dirs = ["/srv/words"]
       idle_timeout_s = 300
       max_connections = 20000
       out_queue_limit_bytes = 1048576
       rate_limit_per_s = 500
       rate_limit_burst = 1000
       gc_freeze_s = 1        # collector: freeze survivors this often (0 = only at start)
       gc_reclaim_s = 900     # collector: unfreeze and collect everything this often (0 = never)
       operator_token = "a long random string"   # the host console (/host); off without it
       redis = "redis://127.0.0.1:6379/0"        # several nodes: room leases (docs/scale-out.md)
       node_id = "a"            # this node's name in Redis, /metrics and /healthz (default: host name)
       lease_ttl = 10           # seconds a room lease lives unless renewed
       redis_prefix = "gamehall:"   # every key's prefix: several halls can share one Redis

       [ports]            # 0 switches a listener off
       aah = 11235
       web = 8080

       [games.aah]        # defaults of new rooms, checked by the game's ConfigSchema
       timeout = 30

3. environment variables: ``GAMEHALL_<OPTION>`` for every ``[server]`` option
   (``GAMEHALL_BIND``, ``GAMEHALL_DB``, ``GAMEHALL_TOURNAMENT``, ``GAMEHALL_LOG_LEVEL``,
   ``GAMEHALL_DECK_DIRS`` and ``GAMEHALL_WORDS_DIRS`` separated by ``os.pathsep``,
   ``GAMEHALL_MAX_CONNECTIONS``, ...),
   ``GAMEHALL_<LISTENER>_PORT`` for every port (``GAMEHALL_AAH_PORT``, ``GAMEHALL_WEB_PORT``, ...),
   and one variable for room defaults, ``GAMEHALL_SET``, holding ``--set`` items separated by
   semicolons: ``GAMEHALL_SET="aah.timeout=30;aah.round_gap=1"``. An empty variable counts as
   unset; other ``GAMEHALL_*`` names are not ours and are ignored;
4. command-line flags (``--bind``, ``--aah-port``, ``--set GAME.KEY=VALUE`` repeatable, ...; see
   :func:`add_server_arguments`).

Room settings are checked by the game's own :class:`~gamehall.rules._config.ConfigSchema`, the
same check a room created from the browser gets. A few games accept older, more descriptive
names for their settings (:data:`SETTING_ALIASES`). Every error is a
:class:`~gamehall.rules._core.ConfigError` whose message starts with the source that caused it,
for example ``--set aah.timeout=5: timeout must be at least 15 (got 5)``. Paths (``db``,
``deck_dirs``, ``words_dirs``) come from the operator only, never from a room setting; they
are used as written, relative ones against the working directory, whatever source gave them.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from gamehall.games import GAMES, WEB
from gamehall.rules._config import ConfigSchema, Setting
from gamehall.rules._core import JSON, ConfigError

__all__ = [
    "DEFAULT_PORTS",
    "SETTING_ALIASES",
    "ConfigError",
    "ServerConfig",
    "add_server_arguments",
    "load_config",
]

DEFAULT_PORTS: Mapping[str, int] = MappingProxyType(
    {entry.spec.name: entry.spec.default_port for entry in GAMES} | {WEB.name: WEB.default_port}
)
"""One listener per protocol (``web`` serves HTTP and the browser's WebSocket), 0 = off: the
``default_port`` of each protocol's spec (``protocols/<name>/spec.py``), the one place a port
number is written, in the order of :data:`gamehall.games.GAMES` (the order of ``--help``)."""

MIN_SECRET_LENGTH = 12
"""The operator token guards closing rooms and removing users: not a word one can guess."""

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

NODE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
"""A node id: it names Redis values and is a Prometheus label value, so plain characters only."""
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
MIN_LEASE_TTL_S = 0.5
"""Below this a lease would need renewing faster than one Redis round trip is sure to take."""

SETTING_ALIASES: Mapping[str, Mapping[str, str]] = {
    "aah": {
        "points_limit": "aplimit",
        "pick_timeout_s": "timeout",
        "max_players": "playermax",
        "round_gap_s": "round_gap",
    },
}
"""Per game, other names accepted for a setting (alias -> the schema's name)."""


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Everything ``gamehall serve`` needs to start, after every source was applied.

    ``room_defaults`` holds, for every game the server knows, its complete default room config
    (the schema's defaults with the configured overrides applied), ready to be the ``base`` of
    ``ConfigSchema.validate`` when a room is created. ``config_file`` is the TOML file that was
    read, if any. The rate limit is a token bucket per connection: ``rate_limit_per_s``
    messages per second sustained, bursts of up to ``rate_limit_burst``; past it the server
    stops reading the connection until the bucket refills (a throttle, never a disconnect).
    """

    bind: str = "0.0.0.0"
    ports: dict[str, int] = field(default_factory=lambda: dict(DEFAULT_PORTS))
    db: str = "./gamehall.db"
    tournament: bool = False
    log_level: str = "INFO"
    deck_dirs: tuple[str, ...] = ()
    words_dirs: tuple[str, ...] = ()
    room_defaults: dict[str, dict[str, JSON]] = field(default_factory=dict)
    idle_timeout_s: float = 300.0
    max_connections: int = 20_000
    out_queue_limit_bytes: int = 1 << 20
    rate_limit_per_s: float = 500.0
    rate_limit_burst: int = 1000
    gc_freeze_s: float = 1.0
    gc_reclaim_s: float = 900.0
    operator_token: str | None = None
    """The host console's token (``/host``); ``None``: the console is off."""
    redis: str | None = None
    """Redis URL (``redis://HOST:6379/0``) of a hall run on several nodes; ``None``: one node,
    no leases (docs/scale-out.md)."""
    node_id: str | None = None
    """This node's name among the nodes (``--node-id``); ``None``: the host name."""
    lease_ttl: float = 10.0
    """Seconds a room lease lives in Redis unless renewed (renewed every third of it)."""
    redis_prefix: str = "gamehall:"
    """The prefix of every Redis key of this hall (the nodes of one hall share it)."""
    config_file: str | None = None


# --------------------------------------------------------------------------------------------
# The scalar options of [server]
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Option:
    """One ``[server]`` option: its name (TOML key, flag dest, env suffix), kind and minimum."""

    name: str
    kind: str  # "text" | "secret" | "int" | "float" | "bool" | "level" | "paths" | "node" | "url"
    low: float | None = None

    def check(self, value: Any, where: str) -> Any:
        """``value`` (already typed: TOML, or a flag parsed by argparse) if valid."""
        name, kind = self.name, self.kind
        if kind == "text":
            if not isinstance(value, str) or not value.strip():
                raise ConfigError(f"{where}: {name} must be a non-empty string")
            return value.strip()
        if kind == "secret":
            if not isinstance(value, str) or len(value.strip()) < MIN_SECRET_LENGTH:
                # the value itself is never repeated: error messages end up in logs
                raise ConfigError(f"{where}: {name} must have at least {MIN_SECRET_LENGTH} characters")
            return value.strip()
        if kind == "node":
            if not isinstance(value, str) or not NODE_ID.fullmatch(value.strip()):
                allowed = "1 to 64 letters, digits, '.', '_' or '-'"
                raise ConfigError(f"{where}: {name} must be {allowed} (got {value!r})")
            return value.strip()
        if kind == "url":
            if not isinstance(value, str) or not value.strip().startswith(REDIS_SCHEMES):
                schemes = ", ".join(REDIS_SCHEMES)
                raise ConfigError(f"{where}: {name} must be a URL starting with {schemes} (got {value!r})")
            return value.strip()
        if kind == "bool":
            if not isinstance(value, bool):
                raise ConfigError(f"{where}: {name} must be true or false")
            return value
        if kind == "level":
            if not isinstance(value, str) or value.strip().upper() not in LOG_LEVELS:
                raise ConfigError(f"{where}: {name} must be one of {', '.join(LOG_LEVELS)} (got {value!r})")
            return value.strip().upper()
        if kind == "paths":
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, (list, tuple)) or not all(isinstance(p, str) and p for p in value):
                raise ConfigError(f"{where}: {name} must be a list of paths")
            return tuple(value)
        is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not is_number or (kind == "int" and isinstance(value, float)) or not math.isfinite(value):
            raise ConfigError(f"{where}: {name} must be a{'n integer' if kind == 'int' else ' number'}")
        if self.low is not None and value < self.low:
            raise ConfigError(f"{where}: {name} must be at least {self.low:g} (got {value})")
        return float(value) if kind == "float" else value

    def parse_text(self, text: str, where: str) -> Any:
        """A value given as text (environment, or a flag left as a string), checked."""
        kind = self.kind
        if kind == "bool":
            return self.check(_parse_bool(text, where, self.name), where)
        if kind == "paths":
            return self.check([p for p in text.split(os.pathsep) if p.strip()], where)
        if kind in ("int", "float"):
            try:
                number: float = int(text) if kind == "int" else float(text)
            except ValueError:
                raise ConfigError(f"{where}: {self.name}: {text!r} is not a valid {kind}") from None
            return self.check(number, where)
        return self.check(text, where)


_OPTIONS: dict[str, _Option] = {
    option.name: option
    for option in (
        _Option("bind", "text"),
        _Option("db", "text"),
        _Option("tournament", "bool"),
        _Option("log_level", "level"),
        _Option("deck_dirs", "paths"),
        _Option("words_dirs", "paths"),
        _Option("idle_timeout_s", "float", low=1),
        _Option("max_connections", "int", low=1),
        _Option("out_queue_limit_bytes", "int", low=1024),
        _Option("rate_limit_per_s", "float", low=1),
        _Option("rate_limit_burst", "int", low=1),
        _Option("gc_freeze_s", "float", low=0),
        _Option("gc_reclaim_s", "float", low=0),
        _Option("operator_token", "secret"),
        _Option("redis", "url"),
        _Option("node_id", "node"),
        _Option("lease_ttl", "float", low=MIN_LEASE_TTL_S),
        _Option("redis_prefix", "text"),
    )
}


def _parse_bool(text: str, where: str, name: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{where}: {name} must be true or false (got {text!r})")


def _check_port(value: Any, where: str) -> int:
    if isinstance(value, str):
        try:
            value = int(value)
        except ValueError:
            raise ConfigError(f"{where}: port {value!r} is not a valid int") from None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{where}: a port must be an integer")
    if not 0 <= value <= 65535:
        raise ConfigError(f"{where}: a port must be between 0 and 65535 (got {value})")
    return value


# --------------------------------------------------------------------------------------------
# Room settings
# --------------------------------------------------------------------------------------------


def _room_setting(game: str, key: str, schemas: Mapping[str, ConfigSchema], where: str) -> Setting:
    """The schema's setting called ``key`` (or an alias of it) in ``game``.

    Raises:
        ConfigError: unknown game or key, the message starting with ``where``.
    """
    schema = schemas.get(game)
    if schema is None:
        known = ", ".join(sorted(schemas)) or "none"
        raise ConfigError(f"{where}: unknown game {game!r} (known: {known})")
    name = key if key in schema.settings else SETTING_ALIASES.get(game, {}).get(key, key)
    setting = schema.settings.get(name)
    if setting is None:
        known = ", ".join(schema.settings) or "none"
        raise ConfigError(f"{where}: unknown setting {game}.{key} (known: {known})")
    return setting


def _room_value_from_text(setting: Setting, text: str, where: str) -> JSON:
    try:
        return setting.check(setting.parse_text(text))
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def _room_value(setting: Setting, value: Any, where: str) -> JSON:
    try:
        return setting.check(value)
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def _parse_set_item(item: str, where: str) -> tuple[str, str, str]:
    """``GAME.KEY=VALUE`` as its three parts (surrounding blanks dropped).

    Raises:
        ConfigError: the item does not have that shape.
    """
    target, equals, value = item.partition("=")
    game, dot, key = target.strip().partition(".")
    if not equals or not dot or not game or not key.strip():
        raise ConfigError(f"{where}: expected GAME.KEY=VALUE")
    return game, key.strip(), value.strip()


# --------------------------------------------------------------------------------------------
# Sources
# --------------------------------------------------------------------------------------------


@dataclass
class _Layer:
    """What one source sets; every value already checked, each with where it came from."""

    options: dict[str, tuple[Any, str]] = field(default_factory=dict)
    ports: dict[str, tuple[int, str]] = field(default_factory=dict)
    rooms: dict[str, dict[str, tuple[JSON, str]]] = field(default_factory=dict)

    def set_room(self, setting: Setting, game: str, value: JSON, where: str) -> None:
        self.rooms.setdefault(game, {})[setting.name] = (value, where)

    def apply_set_items(self, items: Sequence[str], label: str, schemas: Mapping[str, ConfigSchema]) -> None:
        for item in items:
            where = f"{label} {item.strip()}"
            game, key, text = _parse_set_item(item, where)
            setting = _room_setting(game, key, schemas, where)
            self.set_room(setting, game, _room_value_from_text(setting, text, where), where)


def _read_file(path: str, schemas: Mapping[str, ConfigSchema]) -> _Layer:
    try:
        with open(path, "rb") as file:
            document = tomllib.load(file)
    except OSError as exc:
        raise ConfigError(f"config file {path}: cannot read it ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path}: not valid TOML: {exc}") from None

    layer = _Layer()
    unknown_tables = sorted(set(document) - {"server", "ports", "games"})
    if unknown_tables:
        raise ConfigError(f"{path}: unknown table [{unknown_tables[0]}] (known: server, ports, games)")

    for key, value in _table(document, "server", path).items():
        where = f"{path} [server] {key}"
        option = _OPTIONS.get(key)
        if option is None:
            raise ConfigError(f"{where}: unknown option (known: {', '.join(_OPTIONS)})")
        layer.options[key] = (option.check(value, where), where)

    for key, value in _table(document, "ports", path).items():
        where = f"{path} [ports] {key}"
        if key not in DEFAULT_PORTS:
            raise ConfigError(f"{where}: unknown listener (known: {', '.join(DEFAULT_PORTS)})")
        layer.ports[key] = (_check_port(value, where), where)

    for game, settings in _table(document, "games", path).items():
        if not isinstance(settings, dict):
            raise ConfigError(f"{path} [games] {game}: expected a table [games.{game}]")
        for key, value in settings.items():
            where = f"{path} [games.{game}] {key}"
            setting = _room_setting(game, key, schemas, where)
            layer.set_room(setting, game, _room_value(setting, value, where), where)
    return layer


def _table(document: Mapping[str, Any], name: str, path: str) -> dict[str, Any]:
    table = document.get(name, {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: {name} must be a table [{name}]")
    return table


def _read_environ(environ: Mapping[str, str], schemas: Mapping[str, ConfigSchema]) -> _Layer:
    layer = _Layer()
    for name, option in _OPTIONS.items():
        variable = f"GAMEHALL_{name.upper()}"
        text = environ.get(variable, "")
        if text.strip():
            layer.options[name] = (option.parse_text(text, variable), variable)
    for listener in DEFAULT_PORTS:
        variable = f"GAMEHALL_{listener.upper()}_PORT"
        text = environ.get(variable, "")
        if text.strip():
            layer.ports[listener] = (_check_port(text.strip(), variable), variable)
    items = [item for item in environ.get("GAMEHALL_SET", "").split(";") if item.strip()]
    layer.apply_set_items(items, "GAMEHALL_SET", schemas)
    return layer


def _flag_spelling(dest: str) -> str:
    spelled = {"deck_dirs": "--deck-dir", "words_dirs": "--words-dir"}
    return spelled.get(dest, "--" + dest.replace("_", "-"))


def _read_flags(
    flags: Mapping[str, Any], set_items: Sequence[str], schemas: Mapping[str, ConfigSchema]
) -> _Layer:
    layer = _Layer()
    for name, option in _OPTIONS.items():
        value = flags.get(name)
        if value is not None:
            where = _flag_spelling(name)
            checked = (
                option.parse_text(value, where) if isinstance(value, str) else option.check(value, where)
            )
            layer.options[name] = (checked, where)
    for listener in DEFAULT_PORTS:
        value = flags.get(f"{listener}_port")
        if value is not None:
            where = _flag_spelling(f"{listener}_port")
            layer.ports[listener] = (_check_port(value, where), where)
    layer.apply_set_items(set_items, "--set", schemas)
    return layer


# --------------------------------------------------------------------------------------------
# Putting it together
# --------------------------------------------------------------------------------------------


def load_config(
    *,
    flags: Mapping[str, Any],
    set_items: Sequence[str],
    config_path: str | None,
    environ: Mapping[str, str],
    schemas: Mapping[str, ConfigSchema],
) -> ServerConfig:
    """The configuration from defaults < TOML file < environment < flags (see module docstring).

    ``flags`` maps argparse destinations to values, ``None`` meaning "not given" (pass
    ``vars(args)`` from a parser built with :func:`add_server_arguments`; keys it does not
    know are ignored). ``set_items`` are the ``--set GAME.KEY=VALUE`` strings. ``config_path``
    is the ``--config`` flag; when ``None``, ``GAMEHALL_CONFIG`` may name the file. ``schemas``
    maps each game id to its settings schema.

    Raises:
        ConfigError: a file that cannot be read or parsed, an unknown table, option, listener,
            game or setting, a value of the wrong type or out of range, or two listeners on one
            port. The message starts with the source at fault.
    """
    path = config_path or environ.get("GAMEHALL_CONFIG", "").strip() or None
    layers = [_read_file(path, schemas)] if path is not None else []
    layers.append(_read_environ(environ, schemas))
    layers.append(_read_flags(flags, set_items, schemas))

    defaults = ServerConfig()
    options: dict[str, Any] = {name: getattr(defaults, name) for name in _OPTIONS}
    ports: dict[str, tuple[int, str]] = {name: (port, "default") for name, port in DEFAULT_PORTS.items()}
    overrides: dict[str, dict[str, JSON]] = {}
    for layer in layers:
        options.update({name: value for name, (value, _) in layer.options.items()})
        ports.update(layer.ports)
        for game, settings in layer.rooms.items():
            overrides.setdefault(game, {}).update({key: value for key, (value, _) in settings.items()})

    _refuse_shared_ports(ports)
    room_defaults = {game: schema.validate(overrides.get(game, {})) for game, schema in schemas.items()}
    return ServerConfig(
        **options,
        ports={name: port for name, (port, _) in ports.items()},
        room_defaults=room_defaults,
        config_file=path,
    )


def _refuse_shared_ports(ports: Mapping[str, tuple[int, str]]) -> None:
    """Two listeners cannot bind the same port; say which ones and where each port was set."""
    owner: dict[int, str] = {}
    for listener, (port, where) in ports.items():
        if port == 0:
            continue
        if port in owner:
            other = owner[port]
            raise ConfigError(
                f"port {port} is set for both {other} ({ports[other][1]}) and {listener} ({where})"
            )
        owner[port] = listener


def add_server_arguments(parser: argparse.ArgumentParser, listeners: Iterable[str] | None = None) -> None:
    """Add the flags :func:`load_config` reads, all defaulting to ``None`` ("not given").

    ``listeners`` limits the ``--<listener>-port`` flags to the listeners this build serves
    (default: every known listener), so ``--help`` offers no flag that would do nothing.

    ``--config`` lands in ``args.config`` and ``--set`` items in ``args.set_items`` (a list or
    ``None``); everything else can be passed as ``flags=vars(args)``.
    """
    group = parser.add_argument_group("server configuration (flags override GAMEHALL_* and the file)")
    group.add_argument("--config", metavar="PATH", help="TOML configuration file")
    group.add_argument("--bind", metavar="ADDRESS", help="address every listener binds (default 0.0.0.0)")
    served = set(DEFAULT_PORTS if listeners is None else listeners)
    for listener, port in DEFAULT_PORTS.items():
        if listener not in served:
            continue
        group.add_argument(
            f"--{listener}-port",
            type=int,
            metavar="PORT",
            help=f"{listener} listener (default {port}, 0 = off)",
        )
    group.add_argument(
        "--db",
        metavar="PATH|URL",
        help="SQLite file of rooms and logs (default ./gamehall.db), or postgresql://HOST/DB",
    )
    group.add_argument(
        "--tournament", action=argparse.BooleanOptionalAction, default=None, help="tournament mode"
    )
    group.add_argument("--log-level", choices=LOG_LEVELS, type=str.upper, help="default INFO")
    group.add_argument(
        "--deck-dir",
        dest="deck_dirs",
        action="append",
        metavar="DIR",
        help="extra deck directory (repeatable)",
    )
    group.add_argument(
        "--words-dir",
        dest="words_dirs",
        action="append",
        metavar="DIR",
        help="extra word-list directory: each NAME.txt[.gz] becomes dictionary id NAME (repeatable)",
    )
    group.add_argument(
        "--idle-timeout-s", type=float, metavar="S", help="close idle connections (default 300)"
    )
    group.add_argument("--max-connections", type=int, metavar="N", help="default 20000")
    group.add_argument("--out-queue-limit-bytes", type=int, metavar="N", help="default 1 MiB")
    group.add_argument(
        "--rate-limit-per-s", type=float, metavar="N", help="messages/s before reading pauses (default 500)"
    )
    group.add_argument("--rate-limit-burst", type=int, metavar="N", help="message burst (default 1000)")
    group.add_argument(
        "--operator-token",
        metavar="TOKEN",
        help="token of the host console at /host (at least 12 characters; off without one)",
    )
    group.add_argument(
        "--redis",
        metavar="URL",
        help="run as one node of several: room leases in this Redis, e.g. redis://HOST:6379/0",
    )
    group.add_argument("--node-id", metavar="ID", help="this node's name (default: the host name)")
    group.add_argument(
        "--lease-ttl", type=float, metavar="S", help="seconds a room lease lives unless renewed (default 10)"
    )
    group.add_argument(
        "--redis-prefix", metavar="TEXT", help="prefix of this hall's Redis keys (default gamehall:)"
    )
    group.add_argument(
        "--set",
        dest="set_items",
        action="append",
        metavar="GAME.KEY=VALUE",
        help="default setting of new rooms, e.g. aah.timeout=30 (repeatable)",
    )

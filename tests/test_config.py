"""Server configuration: defaults < TOML file < GAMEHALL_* environment < flags, every room
setting checked by its game's schema, and every mistake reported with the source at fault.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from gamehall.config import DEFAULT_PORTS, ConfigError, ServerConfig, add_server_arguments, load_config
from gamehall.games import GAMES, WEB
from gamehall.rules._config import ConfigSchema, Setting

SCHEMAS = {
    "aah": ConfigSchema(
        "aah",
        [
            Setting("aplimit", 8, "int", low=1, high=50),
            Setting("timeout", 60, "int", low=15, high=600),
            Setting("playermax", 10, "int", low=3, high=20),
            Setting("round_gap", 5.0, "float", low=0, high=60),
            Setting("decks", ["base"], "list"),
            Setting("mode", "classic", "choice", choices=("classic", "party")),
        ],
    ),
    "cg": ConfigSchema("cg", [Setting("solo", True, "bool")]),
}
AAH_DEFAULTS = {
    "aplimit": 8,
    "timeout": 60,
    "playermax": 10,
    "round_gap": 5.0,
    "decks": ["base"],
    "mode": "classic",
}

FULL_FILE = """
[server]
bind = "127.0.0.1"
db = "/var/lib/gamehall/rooms.db"
tournament = true
log_level = "debug"
deck_dirs = ["/srv/decks", "decks"]
idle_timeout_s = 120
max_connections = 500
out_queue_limit_bytes = 65536
rate_limit_per_s = 20.5
rate_limit_burst = 40

[ports]
aah = 21235
mrjack = 0

[games.aah]
timeout = 30
points_limit = 5
decks = ["base", "extra"]

[games.cg]
solo = false
"""


def load(
    *,
    flags: Mapping[str, Any] | None = None,
    set_items: Sequence[str] = (),
    config_path: str | Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> ServerConfig:
    return load_config(
        flags=flags or {},
        set_items=set_items,
        config_path=None if config_path is None else str(config_path),
        environ=environ or {},
        schemas=SCHEMAS,
    )


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "gamehall.toml"
    path.write_text(text, encoding="utf-8")
    return path


def parse_flags(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("command")
    add_server_arguments(parser)
    return parser.parse_args(argv)


def load_argv(argv: list[str], environ: Mapping[str, str] | None = None) -> ServerConfig:
    args = parse_flags(["serve", *argv])
    return load_config(
        flags=vars(args),
        set_items=args.set_items or [],
        config_path=args.config,
        environ=environ or {},
        schemas=SCHEMAS,
    )


# --------------------------------------------------------------------------------------------
# Each source on its own
# --------------------------------------------------------------------------------------------


def test_without_any_source_the_documented_defaults_apply() -> None:
    config = load()
    assert config == ServerConfig(room_defaults={"aah": AAH_DEFAULTS, "cg": {"solo": True}})
    assert config.bind == "0.0.0.0"
    assert config.ports == {
        "aah": 11235,
        "cg": 11225,
        "urserver": 4711,
        "mrjack": 4712,
        "jduplicate": 4713,
        "web": 8080,
    }
    assert config.db == "./gamehall.db"
    assert config.tournament is False
    assert config.log_level == "INFO"
    assert config.deck_dirs == ()
    assert (config.idle_timeout_s, config.max_connections) == (300.0, 20_000)
    assert (config.out_queue_limit_bytes, config.rate_limit_per_s, config.rate_limit_burst) == (
        1 << 20,
        500.0,
        1000,
    )
    assert config.config_file is None


def test_the_config_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        load().bind = "::"  # type: ignore[misc]


def test_a_toml_file_sets_every_option_port_and_room_default(tmp_path: Path) -> None:
    path = write(tmp_path, FULL_FILE)
    config = load(config_path=path)
    assert config.bind == "127.0.0.1"
    assert config.db == "/var/lib/gamehall/rooms.db"
    assert config.tournament is True
    assert config.log_level == "DEBUG"
    assert config.deck_dirs == ("/srv/decks", "decks")
    assert config.idle_timeout_s == 120.0 and isinstance(config.idle_timeout_s, float)
    assert (config.max_connections, config.out_queue_limit_bytes) == (500, 65536)
    assert (config.rate_limit_per_s, config.rate_limit_burst) == (20.5, 40)
    assert config.ports == {**DEFAULT_PORTS, "aah": 21235, "mrjack": 0}
    assert config.room_defaults == {
        "aah": {**AAH_DEFAULTS, "timeout": 30, "aplimit": 5, "decks": ["base", "extra"]},
        "cg": {"solo": False},
    }
    assert config.config_file == str(path)


def test_gamehall_config_names_the_file_when_no_flag_does(tmp_path: Path) -> None:
    env_file = write(tmp_path, "[server]\nbind = '10.0.0.1'\n")
    flag_file = tmp_path / "other.toml"
    flag_file.write_text("[server]\nbind = '10.0.0.2'\n")
    assert load(environ={"GAMEHALL_CONFIG": str(env_file)}).bind == "10.0.0.1"
    assert load(config_path=flag_file, environ={"GAMEHALL_CONFIG": str(env_file)}).bind == "10.0.0.2"


def test_environment_variables_set_every_option_port_and_room_default() -> None:
    environ = {
        "GAMEHALL_BIND": "::",
        "GAMEHALL_DB": "/tmp/hall.db",
        "GAMEHALL_TOURNAMENT": "yes",
        "GAMEHALL_LOG_LEVEL": "warning",
        "GAMEHALL_DECK_DIRS": os.pathsep.join(["/a", "/b"]),
        "GAMEHALL_IDLE_TIMEOUT_S": "90",
        "GAMEHALL_MAX_CONNECTIONS": "1000",
        "GAMEHALL_OUT_QUEUE_LIMIT_BYTES": "4096",
        "GAMEHALL_RATE_LIMIT_PER_S": "10",
        "GAMEHALL_RATE_LIMIT_BURST": "30",
        "GAMEHALL_AAH_PORT": "12000",
        "GAMEHALL_WEB_PORT": "0",
        "GAMEHALL_CG_PORT": " 12001 ",
        "GAMEHALL_SET": "aah.points_limit=3; aah.round_gap=1.5 ;;cg.solo=off;aah.decks=base,extra",
        "GAMEHALL_SOMETHING_ELSE": "not ours, ignored",
        "GAMEHALL_URSERVER_PORT": "",  # empty counts as unset
    }
    config = load(environ=environ)
    assert (config.bind, config.db, config.tournament, config.log_level) == (
        "::",
        "/tmp/hall.db",
        True,
        "WARNING",
    )
    assert config.deck_dirs == ("/a", "/b")
    assert (config.idle_timeout_s, config.max_connections, config.out_queue_limit_bytes) == (90.0, 1000, 4096)
    assert (config.rate_limit_per_s, config.rate_limit_burst) == (10.0, 30)
    assert config.ports == {**DEFAULT_PORTS, "aah": 12000, "web": 0, "cg": 12001}
    assert config.room_defaults["aah"] == {
        **AAH_DEFAULTS,
        "aplimit": 3,
        "round_gap": 1.5,
        "decks": ["base", "extra"],
    }
    assert config.room_defaults["cg"] == {"solo": False}


def test_flags_from_add_server_arguments_set_everything() -> None:
    config = load_argv(
        [
            "--bind=192.168.1.5",
            "--aah-port=13000",
            "--jduplicate-port=0",
            "--db=x.db",
            "--tournament",
            "--log-level=error",
            "--deck-dir=d1",
            "--deck-dir=d2",
            "--idle-timeout-s=15",
            "--max-connections=7",
            "--out-queue-limit-bytes=2048",
            "--rate-limit-per-s=3",
            "--rate-limit-burst=6",
            "--set",
            "aah.timeout=20",
            "--set=aah.max_players=4",
            "--set=aah.mode=party",
        ]
    )
    assert (config.bind, config.db, config.tournament, config.log_level) == (
        "192.168.1.5",
        "x.db",
        True,
        "ERROR",
    )
    assert config.deck_dirs == ("d1", "d2")
    assert (config.idle_timeout_s, config.max_connections, config.out_queue_limit_bytes) == (15.0, 7, 2048)
    assert (config.rate_limit_per_s, config.rate_limit_burst) == (3.0, 6)
    assert config.ports == {**DEFAULT_PORTS, "aah": 13000, "jduplicate": 0}
    assert config.room_defaults["aah"] == {**AAH_DEFAULTS, "timeout": 20, "playermax": 4, "mode": "party"}


def test_flags_not_given_leave_the_lower_sources_alone() -> None:
    args = parse_flags(["serve"])
    assert all(value is None for key, value in vars(args).items() if key != "command")
    assert load_argv([], environ={"GAMEHALL_TOURNAMENT": "1"}).tournament is True
    assert load_argv(["--no-tournament"], environ={"GAMEHALL_TOURNAMENT": "1"}).tournament is False


def test_flag_values_may_also_arrive_as_text() -> None:
    config = load(
        flags={"aah_port": "14000", "max_connections": "9", "tournament": "on", "deck_dirs": "only"}
    )
    assert (config.ports["aah"], config.max_connections, config.tournament) == (14000, 9, True)
    assert config.deck_dirs == ("only",)


# --------------------------------------------------------------------------------------------
# Precedence
# --------------------------------------------------------------------------------------------


def test_each_source_overrides_the_one_before_it(tmp_path: Path) -> None:
    path = write(tmp_path, "[server]\nlog_level = 'DEBUG'\n[ports]\naah = 1001\n[games.aah]\ntimeout = 100\n")
    environ = {
        "GAMEHALL_LOG_LEVEL": "WARNING",
        "GAMEHALL_AAH_PORT": "1002",
        "GAMEHALL_SET": "aah.timeout=200",
    }
    flags = {"log_level": "ERROR", "aah_port": 1003}

    everything = load(config_path=path, environ=environ, flags=flags, set_items=["aah.timeout=300"])
    assert (everything.log_level, everything.ports["aah"], everything.room_defaults["aah"]["timeout"]) == (
        "ERROR",
        1003,
        300,
    )
    no_flags = load(config_path=path, environ=environ)
    assert (no_flags.log_level, no_flags.ports["aah"], no_flags.room_defaults["aah"]["timeout"]) == (
        "WARNING",
        1002,
        200,
    )
    file_only = load(config_path=path)
    assert (file_only.log_level, file_only.ports["aah"], file_only.room_defaults["aah"]["timeout"]) == (
        "DEBUG",
        1001,
        100,
    )


def test_room_defaults_merge_setting_by_setting_across_sources(tmp_path: Path) -> None:
    path = write(tmp_path, "[games.aah]\ntimeout = 100\naplimit = 10\nplayermax = 5\n")
    config = load(
        config_path=path,
        environ={"GAMEHALL_SET": "aah.timeout=200"},
        set_items=["aah.aplimit=20"],
    )
    assert config.room_defaults["aah"] == {**AAH_DEFAULTS, "timeout": 200, "aplimit": 20, "playermax": 5}


def test_an_alias_and_its_setting_are_one_setting_the_later_wins() -> None:
    assert load(set_items=["aah.pick_timeout_s=20", "aah.timeout=25"]).room_defaults["aah"]["timeout"] == 25
    assert load(set_items=["aah.timeout=25", "aah.pick_timeout_s=20"]).room_defaults["aah"]["timeout"] == 20
    flags_beat_env = load(environ={"GAMEHALL_SET": "aah.timeout=30"}, set_items=["aah.pick_timeout_s=40"])
    assert flags_beat_env.room_defaults["aah"]["timeout"] == 40


@pytest.mark.parametrize(
    ("alias", "name", "text", "value"),
    [
        ("points_limit", "aplimit", "3", 3),
        ("pick_timeout_s", "timeout", "45", 45),
        ("max_players", "playermax", "6", 6),
        ("round_gap_s", "round_gap", "2", 2.0),
    ],
)
def test_every_aah_alias_reaches_the_schema_name(alias: str, name: str, text: str, value: object) -> None:
    assert load(set_items=[f"aah.{alias}={text}"]).room_defaults["aah"][name] == value


def test_a_listener_can_be_switched_off_and_several_may_be_off() -> None:
    config = load(flags={"aah_port": 0, "cg_port": 0, "web_port": 0})
    assert config.ports["aah"] == config.ports["cg"] == config.ports["web"] == 0


# --------------------------------------------------------------------------------------------
# Errors name their source
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("set_items", "message"),
    [
        (["aah.timeout=5"], "--set aah.timeout=5: timeout must be at least 15 (got 5)"),
        (["aah.pick_timeout_s=5"], "--set aah.pick_timeout_s=5: timeout must be at least 15 (got 5)"),
        (["aah.timeout=9999"], "--set aah.timeout=9999: timeout must be at most 600 (got 9999)"),
        (["aah.timeout=soon"], "--set aah.timeout=soon: timeout: 'soon' is not a valid int"),
        (["aah.mode=chaos"], "--set aah.mode=chaos: mode must be one of classic, party (got 'chaos')"),
        (["cg.solo=maybe"], "--set cg.solo=maybe: solo: 'maybe' is not a valid bool"),
        (["chess.clock=5"], "--set chess.clock=5: unknown game 'chess' (known: aah, cg)"),
        (["aah.colour=red"], "--set aah.colour=red: unknown setting aah.colour (known: aplimit, timeout, "),
        (["cg.points_limit=3"], "--set cg.points_limit=3: unknown setting cg.points_limit"),
        (["aah.timeout"], "--set aah.timeout: expected GAME.KEY=VALUE"),
        (["timeout=20"], "--set timeout=20: expected GAME.KEY=VALUE"),
        (["aah.=20"], "--set aah.=20: expected GAME.KEY=VALUE"),
        (["aah.timeout=20", "aah.aplimit=0"], "--set aah.aplimit=0: aplimit must be at least 1 (got 0)"),
    ],
)
def test_a_bad_set_flag_is_refused_with_its_text(set_items: list[str], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load(set_items=set_items)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        (
            {"GAMEHALL_SET": "aah.timeout=20;aah.timeout=1"},
            "GAMEHALL_SET aah.timeout=1: timeout must be at least 15",
        ),
        ({"GAMEHALL_SET": "aah.timeout"}, "GAMEHALL_SET aah.timeout: expected GAME.KEY=VALUE"),
        ({"GAMEHALL_AAH_PORT": "70000"}, "GAMEHALL_AAH_PORT: a port must be between 0 and 65535 (got 70000)"),
        ({"GAMEHALL_WEB_PORT": "-1"}, "GAMEHALL_WEB_PORT: a port must be between 0 and 65535 (got -1)"),
        ({"GAMEHALL_CG_PORT": "http"}, "GAMEHALL_CG_PORT: port 'http' is not a valid int"),
        (
            {"GAMEHALL_TOURNAMENT": "maybe"},
            "GAMEHALL_TOURNAMENT: tournament must be true or false (got 'maybe')",
        ),
        ({"GAMEHALL_LOG_LEVEL": "LOUD"}, "GAMEHALL_LOG_LEVEL: log_level must be one of DEBUG, INFO"),
        (
            {"GAMEHALL_MAX_CONNECTIONS": "0"},
            "GAMEHALL_MAX_CONNECTIONS: max_connections must be at least 1 (got 0)",
        ),
        (
            {"GAMEHALL_MAX_CONNECTIONS": "many"},
            "GAMEHALL_MAX_CONNECTIONS: max_connections: 'many' is not a valid int",
        ),
        ({"GAMEHALL_IDLE_TIMEOUT_S": "nan"}, "GAMEHALL_IDLE_TIMEOUT_S: idle_timeout_s must be a number"),
        (
            {"GAMEHALL_OUT_QUEUE_LIMIT_BYTES": "100"},
            "GAMEHALL_OUT_QUEUE_LIMIT_BYTES: out_queue_limit_bytes must be at least 1024",
        ),
        (
            {"GAMEHALL_RATE_LIMIT_PER_S": "0.5"},
            "GAMEHALL_RATE_LIMIT_PER_S: rate_limit_per_s must be at least 1 (got 0.5)",
        ),
        ({"GAMEHALL_CONFIG": "/no/such/gamehall.toml"}, "config file /no/such/gamehall.toml: cannot read it"),
    ],
)
def test_a_bad_environment_variable_is_refused_by_name(environ: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load(environ=environ)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        ({"aah_port": 65536}, "--aah-port: a port must be between 0 and 65535 (got 65536)"),
        ({"web_port": True}, "--web-port: a port must be an integer"),
        ({"max_connections": 0}, "--max-connections: max_connections must be at least 1 (got 0)"),
        ({"max_connections": 2.5}, "--max-connections: max_connections must be an integer"),
        ({"bind": "  "}, "--bind: bind must be a non-empty string"),
        ({"tournament": 1}, "--tournament: tournament must be true or false"),
        ({"deck_dirs": ["ok", ""]}, "--deck-dir: deck_dirs must be a list of paths"),
        ({"log_level": "chatty"}, "--log-level: log_level must be one of"),
    ],
)
def test_a_bad_flag_is_refused_by_its_spelling(flags: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load(flags=flags)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[server\n", "not valid TOML"),
        ("[database]\nurl = 'x'\n", "unknown table [database] (known: server, ports, games)"),
        ("server = 1\n", "server must be a table [server]"),
        ("[server]\nport = 80\n", "[server] port: unknown option (known: bind, db, "),
        ("[server]\nbind = 5\n", "[server] bind: bind must be a non-empty string"),
        ("[server]\ntournament = 'yes'\n", "[server] tournament: tournament must be true or false"),
        ("[server]\ndeck_dirs = [1]\n", "[server] deck_dirs: deck_dirs must be a list of paths"),
        (
            "[server]\nrate_limit_burst = 0\n",
            "[server] rate_limit_burst: rate_limit_burst must be at least 1",
        ),
        (
            "[ports]\ngopher = 70\n",
            "[ports] gopher: unknown listener (known: aah, cg, urserver, mrjack, jduplicate, web)",
        ),
        ("[ports]\naah = 99999\n", "[ports] aah: a port must be between 0 and 65535 (got 99999)"),
        ("[ports]\naah = 1.5\n", "[ports] aah: a port must be an integer"),
        ("[games]\naah = 3\n", "[games] aah: expected a table [games.aah]"),
        ("[games.chess]\nclock = 5\n", "[games.chess] clock: unknown game 'chess' (known: aah, cg)"),
        ("[games.aah]\nflavour = 1\n", "[games.aah] flavour: unknown setting aah.flavour"),
        ("[games.aah]\ntimeout = '20'\n", "[games.aah] timeout: timeout must be an integer"),
        (
            "[games.aah]\npick_timeout_s = 1\n",
            "[games.aah] pick_timeout_s: timeout must be at least 15 (got 1)",
        ),
        ("[games.aah]\ndecks = 'base'\n", "[games.aah] decks: decks must be a list of strings"),
    ],
)
def test_a_bad_config_file_is_refused_naming_file_table_and_key(
    tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load(config_path=path)
    assert str(caught.value).startswith((str(path), f"config file {path}: "))
    assert message in str(caught.value)


def test_a_missing_config_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read it"):
        load(config_path=tmp_path / "absent.toml")


def test_two_listeners_on_one_port_are_refused_naming_both_sources(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load(flags={"aah_port": 8080})
    assert str(caught.value) == "port 8080 is set for both aah (--aah-port) and web (default)"

    path = write(tmp_path, "[ports]\ncg = 4000\n")
    with pytest.raises(ConfigError) as caught:
        load(config_path=path, environ={"GAMEHALL_MRJACK_PORT": "4000"})
    assert (
        str(caught.value)
        == f"port 4000 is set for both cg ({path} [ports] cg) and mrjack (GAMEHALL_MRJACK_PORT)"
    )


def test_moving_the_clashing_listener_away_resolves_the_clash() -> None:
    config = load(flags={"aah_port": 8080, "web_port": 8081})
    assert (config.ports["aah"], config.ports["web"]) == (8080, 8081)


def test_the_default_ports_and_the_help_come_from_the_protocol_specs() -> None:
    specs = [entry.spec for entry in GAMES] + [WEB]
    assert list(DEFAULT_PORTS.items()) == [(spec.name, spec.default_port) for spec in specs]
    parser = argparse.ArgumentParser()
    add_server_arguments(parser)
    text = " ".join(parser.format_help().split())
    for spec in specs:
        assert f"{spec.name} listener (default {spec.default_port}, 0 = off)" in text


def test_the_default_ports_cannot_be_changed_behind_the_specs_back() -> None:
    with pytest.raises(TypeError):
        DEFAULT_PORTS["aah"] = 1  # type: ignore[index]

"""The node options: ``--redis``, ``--node-id``, ``--lease-ttl``, ``--redis-prefix``, through
every configuration source, and the values refused at start."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

import gamehall
from gamehall.cluster import default_node_id
from gamehall.config import NODE_ID, ConfigError, ServerConfig, add_server_arguments, load_config


def load(argv: list[str], environ: dict[str, str] | None = None) -> ServerConfig:
    parser = argparse.ArgumentParser()
    add_server_arguments(parser)
    args = parser.parse_args(argv)
    return load_config(flags=vars(args), set_items=[], config_path=None, environ=environ or {}, schemas={})


def test_one_node_by_default() -> None:
    config = load([])
    assert (config.redis, config.node_id, config.lease_ttl, config.redis_prefix) == (
        None,
        None,
        10.0,
        "gamehall:",
    )


def test_flags_and_environment_set_the_node() -> None:
    config = load(["--redis", "redis://h:6379/0", "--node-id", "a", "--lease-ttl", "3"])
    assert (config.redis, config.node_id, config.lease_ttl) == ("redis://h:6379/0", "a", 3.0)
    config = load([], {"GAMEHALL_REDIS": "redis://h/1", "GAMEHALL_NODE_ID": "b", "GAMEHALL_LEASE_TTL": "4.5"})
    assert (config.redis, config.node_id, config.lease_ttl) == ("redis://h/1", "b", 4.5)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--redis", "http://h:6379"], "--redis: redis must be a URL"),
        (["--node-id", 'a"}'], "--node-id: node_id must be 1 to 64"),
        (["--node-id", "x" * 65], "--node-id: node_id must be 1 to 64"),
        (["--lease-ttl", "0.1"], "--lease-ttl: lease_ttl must be at least 0.5"),
        (["--lease-ttl", "nan"], "--lease-ttl: lease_ttl must be a number"),
    ],
)
def test_bad_node_options_are_refused_naming_the_flag(argv: list[str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load(argv)


def test_the_default_node_id_is_a_valid_one() -> None:
    assert NODE_ID.fullmatch(default_node_id())


def test_one_node_loads_no_redis_client() -> None:
    """Single-node mode pays nothing: the server and the CLI never import the cluster package."""
    check = (
        "import sys, gamehall.cli, gamehall.server.app;"
        "print('redis' in sys.modules, 'gamehall.cluster' in sys.modules)"
    )
    source = str(Path(gamehall.__file__).parents[1])
    done = subprocess.run(
        [sys.executable, "-c", check],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": source},
        check=True,
    )
    assert done.stdout.split() == ["False", "False"]

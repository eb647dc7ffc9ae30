"""Never a crash (note §3): any packet, with any body, in any state, through the whole dialogue;
and any bytes at all. The connection answers, drops or closes; the hall stays consistent."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gamehall.protocols.cg import registry
from gamehall.protocols.cg.codec import SERVERBOUND

from .cg_support import CgHarness, start_vs_bots

NAMES = sorted(set(SERVERBOUND) - {registry.CLOSECONN})
values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.sampled_from(["", "x", "re", "play", "0", "None"])
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)


def body_for(name: str) -> st.SearchStrategy[dict[str, Any]]:
    keys = sorted(SERVERBOUND[name].allowed)
    return st.dictionaries(st.sampled_from(keys), values, max_size=len(keys)) if keys else st.just({})


packets = st.sampled_from(NAMES).flatmap(lambda name: st.tuples(st.just(name), body_for(name)))


@settings(max_examples=60, deadline=None)
@given(script=st.lists(packets, max_size=12), flavor=st.sampled_from(["vanilla", "gamehall"]))
def test_any_packets_in_a_game_never_crash(script: list[tuple[str, dict[str, Any]]], flavor: str) -> None:
    harness = CgHarness(seed=9, scrypt_n=2**4)
    alice = start_vs_bots(harness, flavor=flavor)
    alice.take()
    for name, body in script:
        if name in registry.EXTENSIONS and flavor == "vanilla":
            continue
        alice.send(name, **body)
        harness.run(0.5)
    alice.take()


@settings(max_examples=60, deadline=None)
@given(script=st.lists(packets, max_size=10), flavor=st.sampled_from(["vanilla", "gamehall"]))
def test_any_packets_after_login_and_in_a_lobby_never_crash(
    script: list[tuple[str, dict[str, Any]]], flavor: str
) -> None:
    harness = CgHarness(scrypt_n=2**4)
    bob = harness.connect("Bobby")
    bob.register()
    alice = harness.connect("Alice")
    alice.register(flavor=flavor)
    for name, body in script:
        if name in registry.EXTENSIONS and flavor == "vanilla":
            continue
        alice.send(name, **body)
        if name == "cg:lobby.create":
            alice.send("cg:lobby.invite", username="bobby")
            alice.send("cg:lobby.invite", username="bot_dk_dumb")
    alice.take()


@settings(max_examples=100, deadline=None)
@given(script=st.lists(packets, max_size=10))
def test_any_packets_before_login_never_crash(script: list[tuple[str, dict[str, Any]]]) -> None:
    harness = CgHarness(scrypt_n=2**4)
    client = harness.connect("Alice")
    client.send(registry.SETTYPE, conntype="classic")
    client.send(registry.HANDSHAKE_ACCEPT, success=True)
    for name, body in script:
        if name in registry.EXTENSIONS:
            continue
        client.send(name, **body)
    client.take()


@settings(max_examples=100, deadline=None)
@given(data=st.binary(max_size=200))
def test_any_bytes_never_crash(data: bytes) -> None:
    harness = CgHarness(scrypt_n=2**4)
    client = harness.connect("Alice")
    client.handshake()
    client.send_raw(data)
    client.take()

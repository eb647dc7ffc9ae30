"""Failed cg logins (issue 10): limited per account and per address with growing delays, a
throttle and never a cut; the password check itself runs through ``Wire.offload``."""

from __future__ import annotations

from gamehall.protocols.cg.accounts import (
    FIRST_DELAY_S,
    FREE_FAILURES,
    MAX_DELAY_S,
    LoginThrottle,
    login_keys,
)
from gamehall.protocols.cg.codec import Packet

from .cg_support import CgClient, CgHarness

WRONG = Packet("cg:auth", {"status": "wrong_credentials"})


def auth_replies(client: CgClient) -> list[Packet]:
    return [p for p in client.take() if p.name in ("cg:auth", "cg:auth.precheck")]


def guesser(harness: CgHarness) -> CgClient:
    harness.connect("Alice").register("right")
    client = harness.connect("mallory")
    client.handshake()
    client.take()
    return client


def test_free_attempts_are_answered_at_once_then_each_waits_a_growing_delay() -> None:
    harness = CgHarness()
    client = guesser(harness)
    for _ in range(FREE_FAILURES):
        client.send("cg:auth", username="alice", pwd="wrong")
        assert auth_replies(client) == [WRONG]
    client.send("cg:auth", username="alice", pwd="wrong")
    assert auth_replies(client) == []  # throttled: no answer yet, and no close
    harness.run(FIRST_DELAY_S)
    assert auth_replies(client) == [WRONG]
    client.send("cg:auth", username="alice", pwd="wrong")
    harness.run(FIRST_DELAY_S)
    assert auth_replies(client) == []  # the delay doubled
    harness.run(FIRST_DELAY_S)
    assert auth_replies(client) == [WRONG]
    assert not client.wire.closed


def test_input_behind_a_throttled_login_waits_for_it_and_keeps_its_order() -> None:
    harness = CgHarness()
    client = guesser(harness)
    for _ in range(FREE_FAILURES):
        client.send("cg:auth", username="alice", pwd="wrong")
    client.take()
    client.send("cg:auth", username="alice", pwd="right")
    client.send("cg:status.user", username="Alice")  # valid only once logged in
    assert client.take() == []
    harness.run(FIRST_DELAY_S)
    packets = client.take()
    names = [p.name for p in packets]
    assert packets[names.index("cg:auth")].body["status"] == "logged_in"
    assert names[-1] == "cg:status.user" and names.index("cg:auth") < len(names) - 1
    assert packets[-1].body["username"] == "Alice"


def test_the_address_is_limited_across_accounts_and_connections() -> None:
    harness = CgHarness()
    first = guesser(harness)
    for number in range(FREE_FAILURES):
        first.send("cg:auth", username=f"user{number}", pwd="x")
        assert auth_replies(first) == [WRONG]
    second = harness.connect("mallory")  # same address (the fake peer), another connection
    second.handshake()
    second.take()
    second.send("cg:auth", username="someoneelse", pwd="x")
    assert auth_replies(second) == []
    harness.run(FIRST_DELAY_S)
    assert auth_replies(second) == [WRONG]


def test_throttle_slots_are_reserved_grow_and_are_capped() -> None:
    throttle = LoginThrottle()
    keys = login_keys("Alice", "10.0.0.1:5555")
    assert keys == ("account:alice", "address:10.0.0.1")
    for _ in range(FREE_FAILURES):
        assert throttle.reserve(keys, 0.0) == 0.0
        throttle.failed(keys, 0.0)
    # two attempts at the same moment do not share a slot: the second waits one spacing more
    first, second = throttle.reserve(keys, 0.0), throttle.reserve(keys, 0.0)
    assert first == FIRST_DELAY_S and second == 2 * FIRST_DELAY_S
    for _ in range(20):
        throttle.failed(keys, 10.0)
    assert throttle.reserve(keys, 100.0) <= MAX_DELAY_S
    throttle.succeeded(keys[0])
    assert throttle.failures(keys[0]) == 0 and throttle.failures(keys[1]) > 0

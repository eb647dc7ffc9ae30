"""Accounts (note §4.1, §11.5): registration, login, precheck, status.user; no hash ever sent."""

from __future__ import annotations

from pathlib import Path

from gamehall.protocols.cg.codec import Packet
from gamehall.store.accounts import SqliteAccounts, password_matches

from .cg_support import CgClient, CgHarness


def auth_replies(client: CgClient) -> list[Packet]:
    return [p for p in client.take() if p.name == "cg:auth"]


def no_secret_in(client: CgClient, *secrets: str) -> None:
    for packet in client.all():
        text = repr(packet.body)
        assert "scrypt" not in text
        for secret in secrets:
            assert secret not in text


def test_registration_stores_only_an_scrypt_hash_and_replies_status_then_logged_in() -> None:
    harness = CgHarness()
    client = harness.connect("Alice")
    client.handshake()
    client.take()
    client.send("cg:auth", username="Alice", pwd="hunter22", create=True)
    status, auth = client.take()
    assert status.name == "cg:status.user"
    assert status.body == {
        "username": "Alice",
        "uuid": auth.body["uuid"],
        "profile_img": "default",
        "status": "online",
    }
    assert auth == Packet(
        "cg:auth",
        {
            "status": "logged_in",
            "username": "Alice",
            "uuid": auth.body["uuid"],
            "pwd": "",
            "serverid": "5e7f00d0000000000000000000000001",
        },
    )
    stored = harness.accounts.stored_hash("alice")
    assert stored is not None and stored.startswith("scrypt$") and "hunter22" not in stored
    assert password_matches("hunter22", stored)
    assert client.dialogue.state == "active"
    no_secret_in(client, "hunter22", stored)


def test_login_wrong_password_unknown_user_and_taken_names() -> None:
    harness = CgHarness()
    harness.connect("Alice").register("pw1")
    other = harness.connect("x")
    other.handshake()
    other.take()
    other.send("cg:auth", username="alice", pwd="nope")
    assert auth_replies(other) == [Packet("cg:auth", {"status": "wrong_credentials"})]
    other.send("cg:auth", username="Nobody", pwd="pw1")
    assert auth_replies(other) == [Packet("cg:auth", {"status": "wrong_credentials"})]
    other.send("cg:auth", username="ALICE", pwd="pw2", create=True)
    assert auth_replies(other) == [Packet("cg:auth", {"status": "user_exists", "username": "ALICE"})]
    for bad_name, pwd in (("bot_x", "pw"), ("1abc", "pw"), ("ab", "pw"), ("Bobby", ""), ("Bobby", "x" * 128)):
        other.send("cg:auth", username=bad_name, pwd=pwd, create=True)
        assert auth_replies(other) == [Packet("cg:auth", {"status": "wrong_credentials"})]
    assert other.dialogue.state == "auth"
    no_secret_in(other, "pw1")


def test_registration_can_be_switched_off() -> None:
    harness = CgHarness()
    harness.accounts._allow_new = False
    client = harness.connect("Alice")
    client.handshake()
    client.take()
    client.send("cg:auth", username="Alice", pwd="pw", create=True)
    assert auth_replies(client) == [Packet("cg:auth", {"status": "register_disabled", "username": "Alice"})]


def test_precheck_says_valid_and_exists_with_an_empty_key() -> None:
    harness = CgHarness()
    harness.connect("Alice").register()
    client = harness.connect("y")
    client.handshake()
    client.take()
    client.send("cg:auth.precheck", username="aLiCe")
    client.send("cg:auth.precheck", username="botty")
    assert [p.body for p in client.take()] == [
        {"username": "aLiCe", "valid": True, "exists": True, "key": ""},
        {"username": "botty", "valid": False, "exists": False, "key": ""},
    ]


def test_a_second_login_closes_the_first_with_otherlogin() -> None:
    harness = CgHarness()
    first = harness.connect("Alice")
    first.register("pw")
    second = harness.connect("Alice")
    second.handshake()
    second.send("cg:auth", username="alice", pwd="pw")
    assert first.take()[-1] == Packet("peng3dnet:internal.closeconn", {"reason": "otherlogin"})
    assert first.wire.closed
    assert auth_replies(second)[-1].body["status"] == "logged_in"


def test_status_user_lookup_and_self_update() -> None:
    harness = CgHarness()
    alice = harness.connect("Alice")
    alice.register("old")
    bob = harness.connect("Bobby")
    bob.register("pw", flavor="gamehall")
    bob.send("cg:status.user", username="alice")
    bob.send("cg:status.user", uuid=alice.uuid.upper())
    bob.send("cg:status.user", username="Ghost")
    looked = [p.body for p in bob.take()]
    assert (
        looked[0]
        == looked[1]
        == {"username": "Alice", "uuid": alice.uuid, "profile_img": "default", "status": "online"}
    )
    assert looked[2] == {"username": "Ghost", "status": "notexist"}
    alice.send("cg:status.user", username="Ghost")  # vanilla: no reply for unknown users
    assert alice.take() == []
    alice.send("cg:status.user", uuid=alice.uuid, pwd=["wrong", "new"])
    assert alice.take()[-1].body["message"] == "cg:msg.status.user.wrong_pwd"
    alice.send("cg:status.user", uuid=alice.uuid, username="BOBBY")
    assert alice.take()[-1].body["message"] == "cg:msg.status.user.username_not_available"
    alice.send("cg:status.user", uuid=alice.uuid, pwd=["old", "new"], profile_img="cat")
    assert alice.take()[-1].body["profile_img"] == "default"  # vanilla: only avatars its client ships
    bob.send("cg:status.user", uuid=alice.uuid)
    assert bob.take()[-1].body["profile_img"] == "cat"
    assert harness.accounts.verify("alice", "new") is not None
    assert harness.accounts.verify("alice", "old") is None
    no_secret_in(alice, "old", "new")


def test_sqlite_accounts_keep_hashes_and_the_server_id(tmp_path: Path) -> None:
    path = tmp_path / "hall.db"
    accounts = SqliteAccounts(path)
    made = accounts.create("Alice", "pw")
    assert made is not None and accounts.create("ALICE", "x") is None
    server_id = accounts.server_id()
    accounts.close()
    again = SqliteAccounts(path)
    assert again.server_id() == server_id
    assert again.verify("alice", "pw") == made
    assert again.verify("alice", "px") is None
    assert again.rename(made.uuid, "Alicia") and again.find("ALICIA") is not None
    assert again.change_password(made.uuid, "pw", "new") and again.verify("alicia", "new") is not None
    row = again._db.execute("SELECT pwd_hash FROM cg_accounts").fetchone()
    assert row[0].startswith("scrypt$") and "new" not in row[0].split("$")[0]
    again.close()
